package fixsum

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/gossipkit/gossipkit/internal/stats"
)

// TestSumExact: the fixed-point sum is the exact sum of the terms
// truncated to multiples of 2⁻²⁵⁶, checked against math/big's exact
// rational sum of the same truncations, and the same to the bit in any
// order and any split into partial sums (the property the merge of
// shards rests on).
func TestSumExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var xs []float64
	for range 2000 {
		// Values across the range: near 1, tiny, subnormal-free powers.
		xs = append(xs, r.Float64(), math.Ldexp(r.Float64(), -r.IntN(270)), 1)
	}
	xs = append(xs, 0, math.SmallestNonzeroFloat64, 0x1p-256, 0x1p-257, 1e-40, 1e-60)
	var z Sum
	want := new(big.Int)
	for _, x := range xs {
		z.Add(x)
		// The term times 2²⁵⁶, truncated: an exact big.Float product floored.
		f := new(big.Float).SetPrec(2000).SetFloat64(x)
		f.SetMantExp(f, scale)
		i, _ := f.Int(nil)
		want.Add(want, i)
	}
	if z.Int().Cmp(want) != 0 {
		t.Fatalf("sum %v, want %v", z.Int(), want)
	}
	for trial := range 5 {
		perm := r.Perm(len(xs))
		var a, b Sum
		for i, j := range perm {
			if i%(trial+2) == 0 {
				a.Add(xs[j])
			} else {
				b.Add(xs[j])
			}
		}
		a.Plus(&b)
		if a != z {
			t.Fatalf("trial %d: a permuted, split sum differs: %x, want %x", trial, a, z)
		}
	}
	// Text round trip.
	txt, _ := z.MarshalText()
	var back Sum
	if err := back.UnmarshalText(txt); err != nil || back != z {
		t.Fatalf("round trip of %s: %x, %v", txt, back, err)
	}
	for _, bad := range []string{"", "1.2", "1.2.3.4", "x.0.0", "10000000000000000.0.0.0.0", "1.2.3.4.5.6"} {
		if err := back.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) accepted", bad)
		}
	}
}

// TestCurvesMoments: the mean and standard error from the exact sums
// against a two-pass computation over the runs' values (at every round,
// the curve's value or, past its end, its last one), within 1e-12
// relative: both round a few dozen operations on sums of at most 50
// terms.
func TestCurvesMoments(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var c Curves
	var runs [][2][]float64
	for range 50 {
		var cv [2][]float64
		for k := range cv {
			v := 1.0
			for range r.IntN(8) {
				v *= r.Float64()
				cv[k] = append(cv[k], v)
			}
		}
		runs = append(runs, cv)
		c.AddRun(cv[0], cv[1], nil, 0, false)
	}
	at := func(cv []float64, t int) float64 {
		switch {
		case len(cv) == 0:
			return 1
		case t <= len(cv):
			return cv[t-1]
		}
		return cv[len(cv)-1]
	}
	for k := 1; k <= 2; k++ {
		for tt := 1; tt <= 10; tt++ {
			x := make([]float64, len(runs))
			for i, cv := range runs {
				x[i] = at(cv[k-1], tt)
			}
			ivv, se := stats.MeanSE(x)
			m, s, ok := c.Moments(k, tt)
			if !ok || math.Abs(m-ivv) > 1e-12*ivv || math.Abs(s-se) > 1e-12*se {
				t.Errorf("k=%d t=%d: %v ± %v (%v), want %v ± %v", k, tt, m, s, ok, ivv, se)
			}
		}
	}
	// A capped run: past MaxRounds nothing is known.
	c.AddRun([]float64{0.5}, nil, nil, 0, true)
	if _, _, ok := c.Moments(1, MaxRounds+1); ok {
		t.Error("moments past MaxRounds with a capped run")
	}
}

// TestCurvesDeepSpread: values far in the tail keep their spread. 1000
// runs with values spread over 1e-20..7e-20 (uniform) have a standard
// error of the mean of about 6e-22 (two-pass); with the squares truncated
// at 2⁻¹²⁸ ≈ 2.9e-39 (the sums' first resolution) every square was lost
// and the error came out 0, so P(T_L > t) deep in the tail was stated
// as nearly exact (h47's review).
func TestCurvesDeepSpread(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var c Curves
	x := make([]float64, 1000)
	for i := range x {
		x[i] = 1e-20 + 6e-20*r.Float64()
		c.AddRun([]float64{x[i]}, nil, nil, 0, false)
	}
	wantv, wantSE := stats.MeanSE(x)
	m, se, ok := c.Moments(1, 1)
	// 1e-9 relative: the squares are rounded once each, their sum exact
	// to 2⁻²⁵⁶ ≈ 8.6e-78 a term (relative 1e-38 here).
	if !ok || math.Abs(m-wantv) > 1e-12*wantv || math.Abs(se-wantSE) > 1e-9*wantSE {
		t.Errorf("mean %v ± %v, want %v ± %v", m, se, wantv, wantSE)
	}
}
