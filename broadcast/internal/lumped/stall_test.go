package lumped

import (
	"context"
	"math"
	"testing"
)

// TestStallStrata checks the forced stall (stall.go) against the model's
// own plain runs, an estimator that forces nothing: at N 12,000, push–pull,
// k 2, ε 0.2, φ 0.1, B 3, D 12 (a stall of the source has the chance
// 0.02 a round, so the plain runs see the short ones) the stratified
// deadline's chances of 100,000 runs and the unweighted other figures
// must agree with 100,000 plain runs within 4 standard errors of the
// difference; the strata's chances must sum to 1; and the stratified
// chance a node is uninformed at D must be at least 4 times more precise
// (its relative variance), which is what the strata are for.
func TestStallStrata(t *testing.T) {
	ctx := context.Background()
	m := New(Params{M: 10800, N1: 11999, K: 2, R: 2, Budget: 3, Target: 10800, D: 12, Eps: 0.2, Z: 3, Pulls: true})
	if m.stallW == nil {
		t.Fatal("no stall forced")
	}
	sum := 0.0
	for _, p := range m.stallPi {
		sum += p
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("the strata's chances sum to 1 %+.2g", sum-1)
	}
	plain := *m
	plain.stallW, plain.stallCum, plain.stallPi = nil, nil, []float64{1}
	var s, p Sums
	if _, err := m.addRuns(ctx, 0, 100_000, &s); err != nil {
		t.Fatal(err)
	}
	if _, err := plain.addRuns(ctx, 0, 100_000, &p); err != nil {
		t.Fatal(err)
	}
	sl, sr := s.Deadline()
	pl, pr := p.Deadline()
	ms, mss := MeanSE([2]float64{s.Msgs, s.Msgs2}, s.N)
	mp, msp := MeanSE([2]float64{p.Msgs, p.Msgs2}, p.N)
	for _, c := range []struct {
		name         string
		a, sa, b, sb float64
	}{
		{"p_late", sl.V, sl.SE, pl.V, pl.SE},
		{"residue_deadline", sr.V, sr.SE, pr.V, pr.SE},
		{"messages", ms, mss, mp, msp},
	} {
		z := (c.a - c.b) / math.Hypot(c.sa, c.sb)
		t.Logf("%s: stratified %.6g ± %.2g, plain %.6g ± %.2g (z %+.2f)", c.name, c.a, c.sa, c.b, c.sb, z)
		if !(math.Abs(z) <= 4) {
			t.Errorf("%s: stratified %.6g and plain %.6g are %.1f standard errors apart", c.name, c.a, c.b, z)
		}
	}
	if sl.Hole > 0 || sr.Hole > 0 {
		t.Errorf("holes %g, %g with 100,000 runs", sl.Hole, sr.Hole)
	}
	if !(4*sr.SE/sr.V < pr.SE/pr.V) {
		t.Errorf("residue_deadline: stratified relative SE %.3g, plain %.3g: the strata do not pay", sr.SE/sr.V, pr.SE/pr.V)
	}
}
