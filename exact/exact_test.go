package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// directPDrop evaluates formula (1) term by term exactly as printed in the
// paper: fresh binomials for every weight, big.Rat sums, the explicit
// bounds of the case split. It shares no code with Formula1 but Binomial.
func directPDrop(n, c, s int) *big.Rat {
	bin := func(m, l int) *big.Rat {
		return new(big.Rat).SetInt(Binomial(new(big.Int), int64(m), int64(l)))
	}
	sum := new(big.Rat)
	for k := max(0, s+c-n); k <= s; k++ {
		hk := new(big.Rat).Mul(bin(c, k), bin(n-c, s-k))
		hk.Quo(hk, bin(n, s))
		inner := new(big.Rat)
		if k < s {
			for sh := max(0, s+k-c); sh <= k; sh++ {
				h := new(big.Rat).Mul(bin(s, sh), bin(c-s, k-sh))
				h.Quo(h, bin(c, k))
				h.Mul(h, big.NewRat(int64(s-k), int64(s-sh)))
				inner.Add(inner, h)
			}
		}
		sum.Add(sum, hk.Mul(hk, inner))
	}
	return sum
}

func TestBinomial(t *testing.T) {
	for _, tc := range []struct {
		m, l int64
		want int64
	}{
		{5, 2, 10}, {5, 0, 1}, {5, 6, 0}, {0, 0, 1}, {5, -1, 0},
		// Concrete Mathematics (5.14): C(−1, l) = (−1)^l, C(−2, 3) = −C(4, 3).
		{-1, 0, 1}, {-1, 1, -1}, {-1, 4, 1}, {-2, 3, -4}, {-3, 2, 6},
	} {
		t.Run(fmt.Sprintf("C(%d,%d)", tc.m, tc.l), func(t *testing.T) {
			if got := Binomial(new(big.Int), tc.m, tc.l); got.Int64() != tc.want {
				t.Errorf("C(%d,%d) = %v, want %d", tc.m, tc.l, got, tc.want)
			}
		})
	}
	// Pascal's rule holds for every integer m under the extension.
	for m := int64(-12); m <= 12; m++ {
		for l := int64(1); l <= 10; l++ {
			lhs := Binomial(new(big.Int), m, l)
			rhs := new(big.Int).Add(Binomial(new(big.Int), m-1, l), Binomial(new(big.Int), m-1, l-1))
			if lhs.Cmp(rhs) != 0 {
				t.Fatalf("Pascal's rule fails at m=%d l=%d: %v vs %v", m, l, lhs, rhs)
			}
		}
	}
}

func TestPDropPaperExample(t *testing.T) {
	// docs/MODEL.md §2 and the issue: E(7,4,2) = 4/7, S(7,4,2) = 3/5. By hand:
	// k ∈ {0,1,2} with weights C(4,k)C(3,2−k)/C(7,2) = 3/21, 12/21, 6/21.
	// k=0: ŝ=0, term 2/2 = 1. k=1: ŝ ∈ {0,1} w.p. 1/2 each (C(2,ŝ)C(2,1−ŝ)/C(4,1)),
	// terms 1/2 and 1/1 → 3/4. So E = 3/21 + (12/21)(3/4) = 3/21 + 9/21 = 12/21 = 4/7.
	e, err := PDrop(7, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	if e.Cmp(big.NewRat(4, 7)) != 0 {
		t.Errorf("E(7,4,2) = %v, want 4/7", e)
	}
	sim, _ := PDropSimplified(7, 4, 2)
	if sim.Cmp(big.NewRat(3, 5)) != 0 {
		t.Errorf("S(7,4,2) = %v, want 3/5", sim)
	}
	g, _ := PDropGamma(7, 4, 2)
	if g.Cmp(big.NewRat(4, 7)) != 0 {
		t.Errorf("γ form (7,4,2) = %v, want 4/7", g)
	}
}

func TestPDropSEqualsOne(t *testing.T) {
	// s = 1: k ∈ {0,1}; the k=1 term is 0 and for k=0, ŝ=0 the conditional
	// probability is 1, so E = P(k=0) = (n−c)/n. S = (n−c)/(n−1).
	for n := 1; n <= 40; n++ {
		for c := 1; c <= n; c++ {
			e, err := PDrop(n, c, 1)
			if err != nil {
				t.Fatal(err)
			}
			if want := big.NewRat(int64(n-c), int64(n)); e.Cmp(want) != 0 {
				t.Fatalf("E(%d,%d,1) = %v, want %v", n, c, e, want)
			}
			if n > 1 {
				s, _ := PDropSimplified(n, c, 1)
				if want := big.NewRat(int64(n-c), int64(n-1)); s.Cmp(want) != 0 {
					t.Fatalf("S(%d,%d,1) = %v, want %v", n, c, s, want)
				}
			}
		}
	}
}

func TestPDropAgainstDirectSum(t *testing.T) {
	// Edge cases of the issue: s + c > n, 2s > c, s = c, n = c.
	pts := []Point{{7, 4, 2}, {10, 8, 5}, {10, 6, 6}, {9, 9, 3}, {9, 9, 9}, {12, 7, 5}, {20, 19, 10}, {30, 12, 1}, {40, 30, 25}}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 60 {
		n := 1 + rng.IntN(80)
		c := 1 + rng.IntN(n)
		s := 1 + rng.IntN(c)
		pts = append(pts, Point{n, c, s})
	}
	for _, p := range pts {
		got, err := PDrop(p.N, p.C, p.S)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		if want := directPDrop(p.N, p.C, p.S); got.Cmp(want) != 0 {
			t.Errorf("%v: Formula1 = %v, direct double sum = %v", p, got, want)
		}
		if got.Sign() < 0 || got.Cmp(big.NewRat(1, 1)) > 0 {
			t.Errorf("%v: E = %v outside [0,1]", p, got)
		}
	}
}

func TestNEqualsC(t *testing.T) {
	// n = c: every cache holds every item, k = s always, nothing is dropped.
	for _, p := range []Point{{5, 5, 1}, {5, 5, 3}, {5, 5, 5}} {
		e, _ := PDrop(p.N, p.C, p.S)
		g, _ := PDropGamma(p.N, p.C, p.S)
		if e.Sign() != 0 || g.Sign() != 0 {
			t.Errorf("%v: E = %v, γ form = %v, want 0", p, e, g)
		}
	}
	if _, err := PDropSimplified(5, 5, 5); err != ErrUndefined {
		t.Errorf("S(5,5,5): err = %v, want ErrUndefined", err)
	}
}

func TestHypergeometricWeightsSumToOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	bin := func(m, l int) *big.Rat { return new(big.Rat).SetInt(Binomial(new(big.Int), int64(m), int64(l))) }
	for range 40 {
		n := 1 + rng.IntN(60)
		c := 1 + rng.IntN(n)
		s := 1 + rng.IntN(c)
		outer := new(big.Rat)
		for k := 0; k <= s; k++ {
			h := new(big.Rat).Mul(bin(c, k), bin(n-c, s-k))
			outer.Add(outer, h.Quo(h, bin(n, s)))
			inner := new(big.Rat)
			for sh := 0; sh <= k; sh++ {
				w := new(big.Rat).Mul(bin(s, sh), bin(c-s, k-sh))
				inner.Add(inner, w.Quo(w, bin(c, k)))
			}
			if k <= c && inner.Cmp(big.NewRat(1, 1)) != 0 {
				t.Fatalf("(n,c,s,k)=(%d,%d,%d,%d): inner weights sum to %v", n, c, s, k, inner)
			}
		}
		if outer.Cmp(big.NewRat(1, 1)) != 0 {
			t.Fatalf("(n,c,s)=(%d,%d,%d): outer weights sum to %v", n, c, s, outer)
		}
	}
}

func TestGammaIdentityRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		n := 2 + rng.IntN(300)
		c := 1 + rng.IntN(n)
		s := 1 + rng.IntN(min(c, 30))
		if n == s {
			continue
		}
		e, _ := PDrop(n, c, s)
		g, _ := PDropGamma(n, c, s)
		if e.Cmp(g) != 0 {
			t.Fatalf("(%d,%d,%d): E = %v, γ form = %v", n, c, s, e, g)
		}
	}
}

func TestEcsIsNMinusCTimesGamma(t *testing.T) {
	// docs/MODEL.md §2: e_{c,s}(n) = (n−c)·γ_s(n), and the s-th forward difference
	// of e in n is 1 (the (s−1)-th difference of γ is 1/s).
	for s := 1; s <= 6; s++ {
		for c := s; c <= 12; c++ {
			for n := c + 1; n <= 30; n++ {
				e, err := Ecs(n, c, s)
				if err != nil {
					t.Fatalf("e(%d,%d,%d): %v", n, c, s, err)
				}
				want := Gamma(new(big.Rat), n, s)
				want.Mul(want, big.NewRat(int64(n-c), 1))
				if e.Cmp(want) != 0 {
					t.Fatalf("e_{%d,%d}(%d) = %v, (n−c)γ = %v", c, s, n, e, want)
				}
			}
		}
	}
	// (s−1)-th forward difference of γ_s at any n: Σ_j (−1)^{s−1−j} C(s−1,j) γ(n+j) = 1/s.
	for s := 1; s <= 8; s++ {
		for n := 0; n <= 20; n++ {
			d := new(big.Rat)
			for j := 0; j < s; j++ {
				term := Gamma(new(big.Rat), n+j, s)
				term.Mul(term, new(big.Rat).SetInt(Binomial(new(big.Int), int64(s-1), int64(j))))
				if (s-1-j)%2 == 1 {
					term.Neg(term)
				}
				d.Add(d, term)
			}
			if d.Cmp(big.NewRat(1, int64(s))) != 0 {
				t.Fatalf("Δ^{%d} γ_%d(%d) = %v, want 1/%d", s-1, s, n, d, s)
			}
		}
	}
	// The seed's "e_{4,2}(7) − e_{4,2}(6) = 3.5": γ_2(6) = 1/2 + 6/2 = 7/2, while
	// e_{4,2}(7) − e_{4,2}(6) = 3·4 − 2·(7/2) = 5. The seed's number is γ, not e.
	if g := Gamma(new(big.Rat), 6, 2); g.Cmp(big.NewRat(7, 2)) != 0 {
		t.Errorf("γ_2(6) = %v, want 7/2", g)
	}
	e7, _ := Ecs(7, 4, 2)
	e6, _ := Ecs(6, 4, 2)
	if d := new(big.Rat).Sub(e7, e6); d.Cmp(big.NewRat(5, 1)) != 0 {
		t.Errorf("e_{4,2}(7) − e_{4,2}(6) = %v, want 5", d)
	}
}

func TestVerifyGamma(t *testing.T) {
	checked, mm, err := VerifyGamma(context.Background(), 6, 16, 40, nil)
	if err != nil || mm != nil {
		t.Fatalf("err=%v mismatch=%v", err, mm)
	}
	// Count by hand: Σ_{s=1}^{6} Σ_{c=s}^{16} #{n : c ≤ n ≤ 40, n > s}.
	var want int64
	for s := 1; s <= 6; s++ {
		for c := s; c <= 16; c++ {
			want += int64(40 - max(c, s+1) + 1)
		}
	}
	if checked != want {
		t.Errorf("checked %d points, want %d", checked, want)
	}
}

func TestLog10AbsDiff(t *testing.T) {
	if _, ok := Log10AbsDiff(big.NewRat(1, 3), big.NewRat(2, 6)); ok {
		t.Error("equal values reported a difference")
	}
	ulp := func(v float64) float64 { return math.Abs(math.Nextafter(v, 0) - v) }
	pow10 := func(k int64) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(k), nil) }
	for _, tc := range []struct {
		name string
		a, b *big.Rat
		want float64 // exact, or float64 arithmetic within 1 ulp of it
		tol  float64 // in ulp of want
	}{
		// |1/3 − 1/7| = 4/21: math.Log10 of the rounded quotient is within
		// 1 ulp (quotient) + 1 ulp (Log10) of the exact value.
		{"4/21", big.NewRat(1, 3), big.NewRat(1, 7), math.Log10(4.0 / 21), 2},
		// 10^−k: log10 is −k exactly, so the result must be −k exactly or
		// within 1 ulp.
		{"1e-1", new(big.Rat).SetFrac(big.NewInt(1), pow10(1)), new(big.Rat), -1, 1},
		{"1e-17", new(big.Rat).SetFrac(big.NewInt(1), pow10(17)), new(big.Rat), -17, 1},
		{"1e-400 (below float64)", new(big.Rat).SetFrac(big.NewInt(1), pow10(400)), new(big.Rat), -400, 1},
		// 7·10^−5000: −5000 + log10 7; the float64 sum rounds once more.
		{"7e-5000", new(big.Rat).SetFrac(big.NewInt(7), pow10(5000)), new(big.Rat), math.Log10(7) - 5000, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Log10AbsDiff(tc.a, tc.b)
			if !ok || math.Abs(got-tc.want) > tc.tol*ulp(tc.want) {
				t.Errorf("got %.17g, want %.17g within %g ulp", got, tc.want, tc.tol)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	for _, p := range []Point{{5, 4, 0}, {5, 3, 4}, {3, 4, 2}, {10, 10, MaxS + 1}} {
		if _, err := PDrop(p.N, p.C, p.S); err == nil {
			t.Errorf("%v accepted", p)
		}
	}
}

// Evaluate shares one Formula1 per (c, s); its values must be those of the
// single-point functions, and E(7,4,2) = 4/7, S = 3/5 (docs/MODEL.md §2).
func TestEvaluateMatchesSinglePoints(t *testing.T) {
	pts := []Point{{7, 4, 2}, {9, 4, 2}, {12, 6, 3}, {5, 5, 5}}
	evs, err := Evaluate(context.Background(), pts, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if evs[0].Formula1.Cmp(big.NewRat(4, 7)) != 0 || evs[0].Simplified.Cmp(big.NewRat(3, 5)) != 0 {
		t.Errorf("(7,4,2): E = %v, S = %v", evs[0].Formula1, evs[0].Simplified)
	}
	for _, ev := range evs {
		e, _ := PDrop(ev.N, ev.C, ev.S)
		g, _ := PDropGamma(ev.N, ev.C, ev.S)
		if ev.Formula1.Cmp(e) != 0 || ev.Gamma.Cmp(g) != 0 {
			t.Errorf("%v: %v %v, want %v %v", ev.Point, ev.Formula1, ev.Gamma, e, g)
		}
		// One shuffle enumerated: its mean conditional drop probability is
		// formula (1) (enumerate_test.go); n = s leaves S_B \ S_A empty.
		if ev.N > ev.S && (ev.Enumerated == nil || ev.Enumerated.PerShuffle.Cmp(e) != 0) {
			t.Errorf("%v: enumeration %+v", ev.Point, ev.Enumerated)
		}
	}
	// n = s: S = (n−c)/(n−s) is undefined, and so is its logarithm.
	if last := evs[3]; last.Simplified != nil || last.HasLog10 {
		t.Errorf("n = s: %+v", last)
	}
}
