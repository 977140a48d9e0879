package main

import (
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"
)

// --loss is one flag on sim, chain and plan: a value outside [0, 1) (NaN,
// 1, negative) is bad input naming --loss and the range, refused by the
// library's Config.Loss (gossip.ValidLoss) before any work, so in a grid
// too; not a number is refused by the flag; a grid is plan's only, and needs --deadline; a method or
// model that cannot take the flags given is refused naming both.
func TestLossBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--loss", "1"}, "--loss 1: valid range 0 ≤ ε < 1"},
		{[]string{"sim", "--loss", "NaN"}, "--loss NaN: valid range 0 ≤ ε < 1"},
		{[]string{"sim", "--loss", "-0.1"}, "--loss -0.1: valid range 0 ≤ ε < 1"},
		{[]string{"sim", "--loss", "x"}, `--loss "x": not a number`},
		{[]string{"sim", "--loss", "0:0.2:0.1"}, `--loss "0:0.2:0.1": one value ε (0 ≤ ε < 1)`},
		{[]string{"plan", "--loss", "1"}, "--loss 1: valid range 0 ≤ ε < 1"},
		{[]string{"plan", "--loss", "NaN"}, "--loss NaN: valid range 0 ≤ ε < 1"},
		{[]string{"plan", "--loss", "0:1:0.25", "--deadline", "9"}, "--loss 1: valid range 0 ≤ ε < 1"},
		{[]string{"plan", "--loss", "-0.1:0.1:0.1", "--deadline", "9"}, "--loss -0.1: valid range 0 ≤ ε < 1"},
		{[]string{"plan", "--loss", "0:0.2:0.1"}, "needs --deadline"},
		{[]string{"plan", "--loss", "0.1", "--method", "asymptotic"}, "--loss 0.1 with --method asymptotic"},
		{[]string{"plan", "--loss", "0:0.2:0.1", "--deadline", "50", "--method", "asymptotic"}, "--loss 0.2 with --method asymptotic"},
		{[]string{"plan", "--protocol", "push", "--loss", "0:0.2:0.1"}, "--loss: a grid of 3 values of ε is for --protocol shuffle"},
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

// twoNodeExtinct is P(X(t) = 0) at N = 2 from one copy, by hand: with a =
// 1 − ε, p = s/c, q = (n−c)/(n−s), the holder gives the other node a copy
// at rate u = a·p·[2a(1−q) + ε] a round, loses d at rate ℓ = a·ε·p·q, and
// of two holders one drops it at rate 2w, w = a(1+a)·p(1−p)q. On the
// transient states {1, 2} the generator is [[−(u+ℓ), u], [2w, −2w]], with
// eigenvalues r± = (tr ± √(tr² − 4·det))/2, tr = −(u+ℓ+2w), det = 2wℓ; the
// survival from X = 1 is A·e^{r₊t} + (1−A)·e^{r₋t} with S(0) = 1 and
// S'(0) = −ℓ, so A = (−ℓ − r₋)/(r₊ − r₋).
func twoNodeExtinct(eps, p, q, t float64) float64 {
	a := 1 - eps
	u, l, w := a*p*(2*a*(1-q)+eps), a*eps*p*q, a*(1+a)*p*(1-p)*q
	tr, det := -(u + l + 2*w), 2*w*l
	d := math.Sqrt(tr*tr - 4*det)
	rp, rm := (tr+d)/2, (tr-d)/2
	A := (-l - rm) / (rp - rm)
	return 1 - A*math.Exp(rp*t) - (1-A)*math.Exp(rm*t)
}

// chain and sim with --loss at N = 2 (n = 7, c = 4, s = 2: p = 1/2, q =
// 3/5; ε = 0.2) against the closed form above: chain's p_extinct within
// its bound (plus rounding, 1e-12), and P(T_1 < ∞) = (2 − ε)/(2 − ε + εq)
// = 15/16 (plan/loss_test.go); the pairwise model's Monte Carlo (sim
// --model markov, continuous schedule, 4000 runs) within 4 binomial
// standard errors. These are the golden cases chain_loss_* and
// sim_loss_markov.
func TestLossTwoNodesCommands(t *testing.T) {
	want := func(tt float64) float64 { return twoNodeExtinct(0.2, 0.5, 0.6, tt) }
	out, errOut, code := runCLI(t, nil, "chain", "-N", "2", "-n", "7", "-c", "4", "-s", "2", "--loss", "0.2", "--replication-only", "--t-max", "3", "--format", "csv")
	rows := csvRecords(t, out, errOut, code)
	for _, r := range rows[1:] {
		tt, pe, bound := num(t, r[0]), num(t, r[6]), num(t, r[7])
		if rows[0][6] != "p_extinct" || math.Abs(pe-want(tt)) > bound+1e-12 {
			t.Errorf("chain t = %v: %s = %v, want %v", tt, rows[0][6], pe, want(tt))
		}
	}
	out, errOut, code = runCLI(t, nil, "chain", "-N", "2", "-n", "7", "-c", "4", "-s", "2", "--loss", "0.2", "--level", "1", "--t-max", "3", "--format", "json")
	if code != 0 || !strings.Contains(out, `"p_reach": 0.9375`) {
		t.Errorf("chain --level 1: exit %d %s; want p_reach 15/16 in\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, nil, "sim", "--model", "markov", "--schedule", "continuous", "-N", "2", "-n", "7", "-c", "4", "-s", "2", "--loss", "0.2", "--rounds", "3", "--reps", "4000", "--format", "csv")
	rows = csvRecords(t, out, errOut, code)
	for _, r := range rows[1:] {
		tt, pe, se := num(t, r[0]), num(t, r[16]), math.Sqrt(want(num(t, r[0]))*(1-want(num(t, r[0])))/4000)
		if rows[0][16] != "p_extinct" || math.Abs(pe-want(tt)) > 4*se {
			t.Errorf("sim t = %v: %s = %v, want %v ± 4·%.2g", tt, rows[0][16], pe, want(tt), se)
		}
	}
}

func csvRecords(t *testing.T, out, errOut string, code int) [][]string {
	t.Helper()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("%v: %q", err, out)
	}
	return rows
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
