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
	if !m.stall.Forced() {
		t.Fatal("no stall forced")
	}
	sum := 0.0
	for _, p := range m.stall.Strata() {
		sum += p
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("the strata's chances sum to 1 %+.2g", sum-1)
	}
	plain := *m
	plain.stall = NewStall(nil)
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

// TestUnseenStall checks the source's stall chances against a hand
// computation for push–pull at N 2,000, k 2, ε 0.3, φ 0.1 (M = 1,801 live,
// 199 failed), B 8 (R = 4 rounds of pushes): a round of the source fails
// when both pushes miss, (1 − 0.7·1,800/1,999)² = 0.136660 (distinct peers
// change it by 2·10⁻⁵ relative), and no uninformed node pulls it,
// h(1)^1,800 with h(1) = 1 − (2/1,999)·0.49, = e^{−0.882649} = 0.413683;
// after round 4 only the pulls. So A₄ = (0.136660·0.413683)⁴ = 1.0215e-5
// and A₅ = A₄·0.413683 = 4.226e-6 (2,000,000 runs of the engine: 21 and 9
// such stalls, 1.05e-5 and 4.5e-6). UnseenStall(10⁵) is the first A_L
// below 1/10⁵: A₅.
func TestUnseenStall(t *testing.T) {
	m := New(Params{M: 1801, N1: 1999, K: 2, R: 4, Budget: 8, Target: 1801, D: 13, Eps: 0.3, Z: 3, Pulls: true})
	A := m.stallChances()
	for _, c := range []struct {
		L    int
		want float64
	}{{4, 1.0215e-5}, {5, 4.226e-6}} {
		// The push's chance of no success is the binomial fit's (n 2, the
		// exact mean and variance), within 10⁻⁴ of the distinct peers'.
		if math.Abs(A[c.L]/c.want-1) > 1e-3 {
			t.Errorf("A_%d = %.5g, want %.5g", c.L, A[c.L], c.want)
		}
	}
	if u := m.UnseenStall(100_000); math.Abs(u/4.226e-6-1) > 1e-3 {
		t.Errorf("UnseenStall(1e5) = %.5g, want A_5 = 4.226e-6", u)
	}
	push := New(Params{M: 1801, N1: 1999, K: 2, R: 4, Budget: 8, Target: 1801, D: 13, Eps: 0.3, Z: 3})
	if u := push.UnseenStall(100_000); u != 0 {
		t.Errorf("push: UnseenStall %g, want 0 (no pulls: an early end, stated apart)", u)
	}
}

// TestStallWeights checks Stall's likelihood ratios against the two laws
// written out term by term: with A = (1, 0.3, 0.04, 0.01, 0.002) the
// stall is forced from L_s = 2 (A₂ ≤ 0.05) to L_f = 4, q(0) = ½ and
// q(L₀) = 1/6 for L₀ = 2, 3, 4. A run forced to L₀ then stalls on as drawn,
// so under the proposal P(stall exactly L) = Σ_{L₀≤L} q(L₀)·(A_L −
// A_{L+1})/A_{L₀} (A_L/A_{L₀} for L = L_f, "at least") and P(stall at
// least n) = Σ_{L₀<n} q(L₀)·A_n/A_{L₀} + Σ_{L₀≥n} q(L₀); the model's are
// A_L − A_{L+1} (A_{L_f}) and A_n. Weight and WeightAtLeast must be their
// ratios within 1e-12 relative, and the proposal's chances must sum to 1.
func TestStallWeights(t *testing.T) {
	A := []float64{1, 0.3, 0.04, 0.01, 0.002}
	s := NewStall(A)
	if !s.Forced() {
		t.Fatal("no stall forced")
	}
	q := []float64{0.5, 0, 1.0 / 6, 1.0 / 6, 1.0 / 6}
	lf := len(A) - 1
	next := func(L int) float64 {
		if L == lf {
			return 0 // "at least L_f"
		}
		return A[L+1]
	}
	total := 0.0
	for L := 0; L <= lf; L++ {
		prop := 0.0
		for l0 := 0; l0 <= L; l0++ {
			prop += q[l0] * (A[L] - next(L)) / A[l0]
		}
		total += prop
		want := (A[L] - next(L)) / prop
		if got := s.Weight(L); math.Abs(got/want-1) > 1e-12 {
			t.Errorf("Weight(%d) = %.15g, want %.15g", L, got, want)
		}
	}
	if math.Abs(total-1) > 1e-12 {
		t.Errorf("the proposal's chances sum to %.15g", total)
	}
	for n := 0; n <= lf+2; n++ {
		an := A[min(n, lf)]
		prop := 0.0
		for l0 := 0; l0 <= lf; l0++ {
			if l0 < n {
				prop += q[l0] * an / A[l0]
			} else {
				prop += q[l0]
			}
		}
		want := an / prop
		if n > lf {
			want = s.Weight(lf) // past L_f the run's weight no longer changes
		}
		if got := s.WeightAtLeast(n); math.Abs(got/want-1) > 1e-12 {
			t.Errorf("WeightAtLeast(%d) = %.15g, want %.15g", n, got, want)
		}
	}
}

// TestPullTailOnToDeadline: a run's pull tail stopped once the count left
// was below 1e-17 in the mean and carried that round's values to any D
// beyond, so that at N 2,000 (and 12,000), push–pull, k 1, B 4, ε 0 the
// chance a node is uninformed stayed 1.9172e-22 from D 15 to D 17. In the
// tail (every run is in it by round 15: T_L is about 10 rounds) each of
// the u ≤ U* = Watch nodes left escapes a round's pull with chance at
// most h = (u − 1)/(N − 1), the share of the others uninformed (k 1, no
// loss), ≤ U*/(N−1); so two rounds more must cut the chance by
// (U*/(N−1))² at least.
func TestPullTailOnToDeadline(t *testing.T) {
	ctx := context.Background()
	chance := func(D int) (float64, float64) {
		m := New(Params{M: 2000, N1: 1999, K: 1, R: 4, Budget: 4, Target: 2000, D: D, Z: 3, Pulls: true})
		var s Sums
		if _, err := m.addRuns(ctx, 0, 2000, &s); err != nil {
			t.Fatal(err)
		}
		_, r := s.Deadline()
		return r.V, m.Watch
	}
	r15, w := chance(15)
	r17, _ := chance(17)
	bound := r15 * (w / 1999) * (w / 1999)
	t.Logf("chance a node is uninformed: D 15 %.5g, D 17 %.5g (at most %.3g, U* %g)", r15, r17, bound, w)
	if !(r15 > 0) || !(r17 <= bound) {
		t.Errorf("D 17: %.5g, want at most %.3g (D 15: %.5g)", r17, bound, r15)
	}
}
