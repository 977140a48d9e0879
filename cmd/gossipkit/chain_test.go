package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// Two nodes, n = 7, c = 4, s = 2: X jumps 1 → 2 at rate α = 2p(1−q) = 0.4
// and back at β = 4p(1−p)q = 0.6 (chain.TestTwoNodesByHand), so
// E[X(t)/2] = (1 + 0.4·(1 − e^{−t}))/2; Y = 2 once d has left node 1's
// hands at all, at rate 2p = 1: E[Y(t)/2] = 1 − e^{−t}/2. The time to full
// coverage is Exp(1): mean 1, sd 1, median ln 2.
func TestChainTwoNodes(t *testing.T) {
	out, errOut, code := runCLI(t, nil, "chain", "-N", "2", "-n", "7", "-c", "4", "-s", "2", "--t-max", "2", "--dt", "0.5", "--level", "1", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Bound float64              `json:"error_bound"`
		Rows  []map[string]float64 `json:"rows"`
		Level map[string]float64   `json:"time_to_level"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Rows {
		tt := row["t"]
		// 1e-12: the chain at N = 2 is solved to its bound (below 1e-12, checked after the loop); the closed forms are a few operations on exp.
		if x := (1 + 0.4*(1-math.Exp(-tt))) / 2; math.Abs(row["x_mean"]-x) > 1e-12 {
			t.Errorf("t=%g: x_mean %v, want %v", tt, row["x_mean"], x)
		}
		if y := 1 - math.Exp(-tt)/2; math.Abs(row["y_mean"]-y) > 1e-12 {
			t.Errorf("t=%g: y_mean %v, want %v", tt, row["y_mean"], y)
		}
		if p := 1 - math.Exp(-tt); math.Abs(row["p_level"]-p) > 1e-12 {
			t.Errorf("t=%g: p_level %v, want %v", tt, row["p_level"], p)
		}
	}
	// Quantiles by bisection on the Poisson mixture: 60 halvings of a
	// bracket of a few rounds, so 1e-12.
	if math.Abs(r.Level["mean"]-1) > 1e-12 || math.Abs(r.Level["sd"]-1) > 1e-12 || math.Abs(r.Level["q50"]-math.Ln2) > 1e-9 {
		t.Errorf("time to level %v, want mean 1, sd 1, median ln 2", r.Level)
	}
	if !(r.Bound >= 0 && r.Bound < 1e-12) {
		t.Errorf("error bound %v", r.Bound)
	}
}

func TestChainBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"chain", "-N", "1"}, "-N"},
		{[]string{"chain", "-N", "6000"}, "-N"},
		{[]string{"chain", "-s", "0"}, "-s"},
		{[]string{"chain", "--t-max", "0"}, "--t-max"},
		{[]string{"chain", "--dt", "200"}, "--dt"},
		{[]string{"chain", "--level", "1.5"}, "--level"},
		{[]string{"chain", "--level", "0.5", "--replication-only"}, "--level"},
		{[]string{"chain", "--time", "discrete"}, "--time"},
		{[]string{"chain", "--initial", "101"}, "--initial"},
		{[]string{"chain", "-N", "10000000", "--replication-only", "--t-max", "1000"}, "--t-max"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectUsage(t, nil, tc.args, tc.want)
		})
	}
}
