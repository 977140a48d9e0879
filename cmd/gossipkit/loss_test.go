package main

import (
	"math"
	"strings"
	"testing"
)

// --loss is one flag on sim, chain and plan: a value outside [0, 1) (NaN,
// 1, negative, not a number) is bad input naming --loss and the range of
// gossip.Loss; a grid is plan's only, and needs --deadline; a method or
// model that cannot take the flags given is refused naming both.
func TestLossBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--loss", "1"}, `--loss "1": valid range 0 ≤ ε < 1`},
		{[]string{"sim", "--loss", "NaN"}, `--loss "NaN": valid range 0 ≤ ε < 1`},
		{[]string{"sim", "--loss", "-0.1"}, `--loss "-0.1": valid range 0 ≤ ε < 1`},
		{[]string{"sim", "--loss", "x"}, `--loss "x": "x" is not a number`},
		{[]string{"sim", "--loss", "0:0.2:0.1"}, `--loss "0:0.2:0.1": one value ε (0 ≤ ε < 1)`},
		{[]string{"plan", "--loss", "1"}, `--loss "1": valid range 0 ≤ ε < 1`},
		{[]string{"plan", "--loss", "0:1:0.25"}, `--loss "0:1:0.25": valid range 0 ≤ ε < 1`},
		{[]string{"plan", "--loss", "0:0.2:0.1"}, "needs --deadline"},
		{[]string{"plan", "--loss", "0.1", "--method", "asymptotic"}, "--loss 0.1 with --method asymptotic"},
		{[]string{"plan", "--loss", "0:0.2:0.1", "--deadline", "50", "--method", "asymptotic"}, "--loss 0.2 with --method asymptotic"},
		{[]string{"plan", "--protocol", "push", "--loss", "0:0.2:0.1"}, "--loss [0 0.1 0.2]: a grid of ε is for --protocol shuffle"},
		{[]string{"plan", "--topology", "regular:4", "--method", "exact"}, "--topology regular:4 with --method exact"},
		{[]string{"plan", "--topology", "torus:0.2", "--method", "asymptotic"}, "--topology torus:0.2 with --method asymptotic"},
		{[]string{"plan", "--topology", "regular:4", "--method", "mc", "--model", "lumped"}, "--topology regular:4 with --model lumped"},
		{[]string{"plan", "--topology", "regular:3", "-N", "11", "--method", "mc"}, "--topology"},
		{[]string{"plan", "--topology", "ring"}, "--topology"},
		{[]string{"plan", "--protocol", "pull", "--topology", "regular:4"}, "--topology: shuffle flags"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectUsage(t, nil, tc.args, tc.want)
		})
	}
}

// plan --loss over a grid writes a row per ε and s with the ε first and
// loss_tolerated, and its choice says how the largest ε was found. At ε =
// 0 the rows are the lossless design's (p_reach 1, the same values as a
// run without --loss: the lumped sampler with the same seed).
func TestPlanLossGrid(t *testing.T) {
	args := []string{"--method", "mc", "--model", "lumped", "--reps", "300", "-N", "60", "-n", "100", "-c", "20", "-s", "5:10:5", "--deadline", "40", "--confidence", "0.5"}
	r := runPlanJSON(t, append(args, "--loss", "0:0.1:0.05")...)
	if len(r.Rows) != 6 {
		t.Fatalf("%d rows", len(r.Rows))
	}
	plain := runPlanJSON(t, args...)
	for i, row := range r.Rows {
		if want := []float64{0, 0.05, 0.1}[i/2]; row["loss"] != want {
			t.Errorf("row %d: loss %v, want %v", i, row["loss"], want)
		}
		if _, ok := row["loss_tolerated"]; !ok {
			t.Errorf("row %d without loss_tolerated", i)
		}
		if i < 2 {
			for _, k := range []string{"mean", "sd", "q50", "p_deadline", "items_sent"} {
				if row[k] != plain.Rows[i][k] {
					t.Errorf("ε = 0, row %d: %s %v, without --loss %v", i, k, row[k], plain.Rows[i][k])
				}
			}
			if row["p_reach"] != 1.0 {
				t.Errorf("ε = 0: p_reach %v", row["p_reach"])
			}
		}
		// items sent = (2 − ε)·s·N·mean
		eps, s, mean := row["loss"].(float64), row["s"].(float64), row["mean"].(float64)
		if want := (2 - eps) * s * 60 * mean; math.Abs(row["items_sent"].(float64)-want) > 1e-9*want {
			t.Errorf("row %d: items_sent %v, want %v", i, row["items_sent"], want)
		}
	}
	out, _, code := runCLI(t, nil, append([]string{"plan"}, append(args, "--loss", "0:0.1:0.05")...)...)
	if code != 0 || !strings.Contains(out, "by a scan of the given grid in ascending ε that stops at the first ε where the s fails") {
		t.Errorf("exit %d; the text does not say how the largest ε is found:\n%s", code, out)
	}
}
