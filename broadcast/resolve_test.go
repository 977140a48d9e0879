package broadcast

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestFeasibleWhenEveryRunIsOnTime: the feasibility rule where the
// Monte Carlo's point estimate of P(T_L ≤ D) is 1 and the truth is below
// the confidence asked. Pull, N = 40, fanout 2, ε = 0.2, L = 0.9, D = 10:
// the exact chain gives P(T_L ≤ 10) = 0.99723 (within its Bound, 8e-13,
// checked below), so the setting meets P = 0.95 and not P = 0.999. 200
// replications of seed 1 are all on time (checked: the test is about that
// case), so the lower end of the interval is Wilson's at no late run,
// 1 − 9/209 = 0.9569, or Markov's from the watched runs where higher
// (1 − 0.0129 here): feasible at 0.95, not at 0.999, which 200
// replications cannot resolve (Unresolved names the 8991 that could:
// 9/(8991 + 9) = 10⁻³), and t_confidence at 0.999 is not given (a sample
// quantile at 10⁻³ from 200 runs would be the largest value's noise).
func TestFeasibleWhenEveryRunIsOnTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := Config{Protocol: Pull, Nodes: 40, Fanout: 2, Loss: 0.2, Level: 0.9, Deadline: 10}
	exact, err := Solve(ctx, withConf(cfg, 0.999), Settings{Method: Exact})
	if err != nil {
		t.Fatal(err)
	}
	if truth := exact.PDeadline; !(truth+exact.Accuracy.Bound < 0.999 && truth-exact.Accuracy.Bound > 0.95) {
		t.Fatalf("exact P(T_L ≤ 10) = %v ± %v: the case needs it in (0.95, 0.999)", truth, exact.Accuracy.Bound)
	}
	// The chain states P(T_L > t) within its relative rounding and the
	// mass it dropped (setExact), so it leaves no floor.
	if exact.Feasible || exact.PLateFloor != 0 || !(exact.PLateRelErr < 1e-9) || math.IsNaN(exact.TConfidence) {
		t.Errorf("exact: feasible %v (want false), floor %v (want 0), P(T_L > 10) within %v (want < 1e-9), t_confidence %v (resolved)",
			exact.Feasible, exact.PLateFloor, exact.PLateRelErr, exact.TConfidence)
	}
	floor := 9.0 / 209
	for _, c := range []struct {
		conf     float64
		feasible bool
	}{{0.95, true}, {0.999, false}} {
		d, err := Sweep(ctx, withConf(cfg, c.conf), []int{2}, nil, Settings{Method: MonteCarlo, Reps: 200, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		a := d.Rows[0]
		if a.PDeadline != 1 || a.PLate != 0 {
			t.Fatalf("seed 1: P(T_L ≤ D) = %v, want the point estimate 1 (every run on time)", a.PDeadline)
		}
		// The floor: the smaller of Wilson's and Markov's bound from the
		// watched runs (markovLate, 40·r/5), here Markov's, 0.0129.
		want := math.Min(floor, markovLate(cfg.Live(), cfg.Target(), ivOf(a.ResidueDeadline, a.ResidueDeadlineRelErr).hi))
		if a.Feasible != c.feasible || math.Abs(a.PLateFloor-want) > 1e-12*want {
			t.Errorf("P = %g: feasible %v, want %v (lower end 1 − %v, floor %v)", c.conf, a.Feasible, c.feasible, want, a.PLateFloor)
		}
		u := d.Unresolved()
		switch {
		case c.conf == 0.95 && (u != nil || math.IsNaN(a.TConfidence)):
			t.Errorf("P = 0.95: unresolved %v, t_confidence %v; 0.05 ≥ 9/209 is resolved", u, a.TConfidence)
		case c.conf == 0.999 && (u == nil || u.Reps != 8991 || !u.Watched || !math.IsNaN(a.TConfidence)):
			t.Errorf("P = 0.999: unresolved %+v, t_confidence %v; want refused with 8991 replications named, no t_confidence", u, a.TConfidence)
		}
	}
}

func withConf(c Config, p float64) Config { c.Confidence = p; return c }

// TestRepsToResolve: the smallest R with 9/(R + 9) ≤ 1 − P, by hand:
// P = 0.95: 9·0.95/0.05 = 171; P = 0.999: 8991; P = 1 − 10⁻⁶: 8,999,991;
// P = 1 − 10⁻⁹ needs 9·10⁹ > MaxReps: 0.
func TestRepsToResolve(t *testing.T) {
	for _, c := range []struct {
		p    float64
		want int
	}{{0.95, 171}, {0.999, 8991}, {1 - 1e-6, 8999991}, {1 - 1e-9, 0}, {0, 0}, {1, 0}, {math.NaN(), 0}} {
		got := RepsToResolve(c.p)
		if got != c.want {
			t.Errorf("RepsToResolve(%v) = %d, want %d", c.p, got, c.want)
		}
		if got > 0 && (9/(float64(got)+9) > 1-c.p || 9/(float64(got)-1+9) <= 1-c.p) {
			t.Errorf("RepsToResolve(%v) = %d is not the smallest R with 9/(R+9) ≤ 1 − P", c.p, got)
		}
	}
}

// TestTextCells: the text table's forms, by hand: a value to the
// decimals of its standard error's two digits; a probability near 1 as
// 1 − q; a law's 1 − 7.9e-15 under a bound of 8.1e-13 is 1 ± the bound
// (the rest is its noise); a relative error below 10⁻¹² is the
// arithmetic's rounding, not shown as a number; 0 is exact.
func TestTextCells(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{pm(9.7843, 0.01843), "9.784 ± 0.018"},
		{pm(7, 0.05), "7.000 ± 0.050"},
		{pm(1234.5, 31), "1234 ± 31"},
		{pm(7.48958, 1.8e-11), "7.48958 ± 1.8e-11"},
		{pm(16, 0), "16 ± 0"},
		{pm(math.NaN(), 1), "–"},
		{prob(1 - 3.4e-7), "1 − 3.4e-07"},
		{prob(0.5), "0.5"},
		{probPM(1-7.9e-15, 8.1e-13), "1 ± 8.1e-13"},
		{probPM(0.206337, 8.1e-13), "0.206337 ± 8.1e-13"},
		{relCell(8.07e-9, 4.1e-16), "8.07e-09 (rel err < 1e-12)"},
		{relCell(0, 0), "0 (exact)"},
		{relCell(3.35e-7, 3.4e-5), "3.35e-07 (rel err 3.4e-05)"},
		{roundsCell(11, [2]float64{10, 11}), "11 (10–11)"},
		{roundsCell(9, [2]float64{9, 9}), "9"},
		{roundsCell(8, [2]float64{8, math.NaN()}), "8 (8–…)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestUnresolvedErrorNil: a nil *UnresolvedError says so rather than
// panicking (issue 42's probe of nil receivers).
func TestUnresolvedErrorNil(t *testing.T) {
	var e *UnresolvedError
	if got := e.Error(); !strings.Contains(got, "nil") {
		t.Errorf("nil UnresolvedError: %q", got)
	}
}
