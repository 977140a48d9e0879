package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var smallSim = []string{"sim", "-N", "120", "-n", "40", "-c", "8", "-s", "4", "--warmup", "20", "--rounds", "40", "--reps", "5", "--seed", "3"}

func TestSimWorkersIdentical(t *testing.T) {
	a, errA, codeA := runCLI(t, nil, append(smallSim, "--workers", "1")...)
	b, errB, codeB := runCLI(t, nil, append(smallSim, "--workers", "3")...)
	if codeA != 0 || codeB != 0 {
		t.Fatalf("exit %d %d: %s %s", codeA, codeB, errA, errB)
	}
	if a != b {
		t.Fatal("CSV differs between --workers 1 and 3")
	}
	lines := strings.Split(strings.TrimSpace(a), "\n")
	if lines[0] != "t,x_mean,x_sd,y_mean,y_sd,x_q05,x_q50,x_q95,y_q05,y_q50,y_q95,y_round_mean,y_round_sd,y_round_q05,y_round_q50,y_round_q95" || len(lines) != 42 {
		t.Fatalf("header %q, %d lines", lines[0], len(lines))
	}
	// t = 0: exactly one copy at one node in every replication: 1/N, sd 0,
	// in both coverage records (the insertion is the first snapshot).
	if lines[1] != "0,0.008333333333333333,0,0.008333333333333333,0,0.008333333333333333,0.008333333333333333,0.008333333333333333,0.008333333333333333,0.008333333333333333,0.008333333333333333,0.008333333333333333,0,0.008333333333333333,0.008333333333333333,0.008333333333333333" {
		t.Errorf("t=0 row %q", lines[1])
	}
}

func TestSimJSONAndMarkov(t *testing.T) {
	out, errOut, code := runCLI(t, nil, append(smallSim, "--format", "json", "--model", "markov", "--schedule", "continuous")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if v["measured"].(map[string]any)["p_drop"] != nil {
		t.Error("markov model reports a measured P_drop")
	}
	if len(v["rounds"].([]any)) != 41 {
		t.Error("rounds missing")
	}
}

func TestSimOutputFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	_, errOut, code := runCLI(t, nil, append(smallSim, "-o", path)...)
	if code != 0 {
		t.Fatal(errOut)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only out.csv", len(entries))
	}
	// A write into a missing directory fails without leaving anything.
	_, _, code = runCLI(t, nil, append(smallSim, "-o", filepath.Join(dir, "no", "such.csv"))...)
	if code == 0 {
		t.Error("write into a missing directory succeeded")
	}
}

func TestSimBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "-N", "1"}, "-N"},
		{[]string{"sim", "-c", "600"}, "-n"},
		{[]string{"sim", "-s", "101"}, "-s"},
		{[]string{"sim", "--rounds", "0"}, "--rounds"},
		{[]string{"sim", "--reps", "0"}, "--reps"},
		{[]string{"sim", "--model", "ode"}, "--model"},
		{[]string{"sim", "--schedule", "sync"}, "--schedule"},
		{[]string{"sim", "--topology", "ring"}, "--topology"},
		{[]string{"sim", "--topology", "torus:0.001", "-N", "100", "--reps", "1", "--rounds", "1", "--warmup", "0"}, "torus"},
		{[]string{"sim", "--workers", "0"}, "--workers"},
		{[]string{"sim", "-N", "60000000", "-n", "10000000", "-c", "1000000"}, "memory"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectUsage(t, nil, tc.args, tc.want)
		})
	}
}

// TestMarkovTextNoWarmup: the Markov model runs no warm-up (it has no
// caches to mix), so its text summary names none, while the protocol's
// names the one it ran.
func TestMarkovTextNoWarmup(t *testing.T) {
	for _, tc := range []struct {
		model string
		want  bool
	}{{"markov", false}, {"protocol", true}} {
		out, errOut, code := runCLI(t, nil, "sim", "--model", tc.model, "-N", "30", "-n", "20", "-c", "5", "-s", "2",
			"--warmup", "7", "--rounds", "3", "--reps", "2", "--format", "text")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.model, code, errOut)
		}
		first, _, _ := strings.Cut(out, "\n")
		if got := strings.Contains(first, "7 warm-up + 3 rounds"); got != tc.want {
			t.Errorf("%s: summary %q: warm-up shown = %v, want %v", tc.model, first, got, tc.want)
		}
		if !tc.want && strings.Contains(first, "warm-up") {
			t.Errorf("%s: summary %q names a warm-up", tc.model, first)
		}
	}
}
