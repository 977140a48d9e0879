package exact

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// sh is a gossip.Shuffle (n, c, s).
func sh(n, c, s int) gossip.Shuffle { return gossip.Shuffle{Items: n, Cache: c, Exchange: s} }

// pdropForms are the three evaluations of formula (1): the closed form of
// Theorem A (PDrop), the double sum (PDropDoubleSum) and the γ form with γ
// from its sum (PDropGamma).
var pdropForms = map[string]func(gossip.Shuffle) (*big.Rat, error){
	"closed form": PDrop,
	"double sum":  func(p gossip.Shuffle) (*big.Rat, error) { return PDropDoubleSum(context.Background(), p) },
	"γ form":      PDropGamma,
}

// checkPDropForms evaluates every form of pdropForms at p and reports each
// that errs or differs from want (exactly: they are big.Rat); it returns
// whether all agreed, so that a sweep can stop at its first failure.
func checkPDropForms(t *testing.T, p gossip.Shuffle, want *big.Rat) bool {
	t.Helper()
	ok := true
	for name, f := range pdropForms {
		got, err := f(p)
		switch {
		case err != nil:
			t.Errorf("%v: %s: %v", p, name, err)
			ok = false
		case got.Cmp(want) != 0:
			t.Errorf("%v: %s = %v, want %v", p, name, got, want)
			ok = false
		}
	}
	return ok
}

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
	// The paper's example: E(7,4,2) = 4/7, S(7,4,2) = 3/5. By hand:
	// k ∈ {0,1,2} with weights C(4,k)C(3,2−k)/C(7,2) = 3/21, 12/21, 6/21.
	// k=0: ŝ=0, term 2/2 = 1. k=1: ŝ ∈ {0,1} w.p. 1/2 each (C(2,ŝ)C(2,1−ŝ)/C(4,1)),
	// terms 1/2 and 1/1 → 3/4. So E = 3/21 + (12/21)(3/4) = 3/21 + 9/21 = 12/21 = 4/7.
	// Theorem A: S·(1 − 1/C(7,2)) = (3/5)(20/21) = 4/7.
	p := sh(7, 4, 2)
	for name, f := range map[string]func() (*big.Rat, error){
		"closed form": func() (*big.Rat, error) { return PDrop(p) },
		"double sum":  func() (*big.Rat, error) { return PDropDoubleSum(context.Background(), p) },
		"γ form":      func() (*big.Rat, error) { return PDropGamma(p) },
	} {
		if e, err := f(); err != nil || e.Cmp(big.NewRat(4, 7)) != 0 {
			t.Errorf("%s: E(7,4,2) = %v (%v), want 4/7", name, e, err)
		}
	}
	sim, _ := PDropSimplified(p)
	if sim.Cmp(big.NewRat(3, 5)) != 0 {
		t.Errorf("S(7,4,2) = %v, want 3/5", sim)
	}
}

func TestPDropSEqualsOne(t *testing.T) {
	// s = 1: k ∈ {0,1}; the k=1 term is 0 and for k=0, ŝ=0 the conditional
	// probability is 1, so E = P(k=0) = (n−c)/n. S = (n−c)/(n−1).
	for n := 2; n <= 40; n++ {
		for c := 1; c <= n; c++ {
			if !checkPDropForms(t, sh(n, c, 1), big.NewRat(int64(n-c), int64(n))) {
				return
			}
			s, _ := PDropSimplified(sh(n, c, 1))
			if want := big.NewRat(int64(n-c), int64(n-1)); s.Cmp(want) != 0 {
				t.Fatalf("S(%d,%d,1) = %v, want %v", n, c, s, want)
			}
		}
	}
}

func TestPDropAgainstDirectSum(t *testing.T) {
	// Edge cases: s + c > n, 2s > c, s = c, n = c, n = s + 1, s = 1.
	pts := []gossip.Shuffle{sh(7, 4, 2), sh(10, 8, 5), sh(10, 6, 6), sh(9, 9, 3), sh(12, 7, 5), sh(20, 19, 10),
		sh(30, 12, 1), sh(40, 30, 25), sh(10, 9, 9), sh(10, 10, 9), sh(2, 1, 1), sh(2, 2, 1), sh(60, 60, 59)}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 60 {
		n := 2 + rng.IntN(80)
		c := 1 + rng.IntN(n)
		s := 1 + rng.IntN(min(c, n-1))
		pts = append(pts, sh(n, c, s))
	}
	for _, p := range pts {
		t.Run(p.String(), func(t *testing.T) {
			want := directPDrop(p.Items, p.Cache, p.Exchange) // the paper's double sum
			checkPDropForms(t, p, want)
			if want.Sign() < 0 || want.Cmp(big.NewRat(1, 1)) > 0 {
				t.Errorf("%v: E = %v outside [0,1]", p, want)
			}
		})
	}
}

// TestTheoremAGrid checks Theorem A, E = S·(1 − 1/C(n,s)), against the
// paper's double sum as printed (directPDrop) at every shuffle with n ≤ 26,
// and the closed form that PDrop returns and the γ form with γ from its sum
// (PDropGamma) against the same sum; so an error in the theorems or in
// PDrop's reduction shows up as a mismatch.
func TestTheoremAGrid(t *testing.T) {
	t.Parallel()
	points := 0
	for n := 2; n <= 26; n++ {
		for c := 1; c <= n; c++ {
			for s := 1; s <= c && s < n; s++ {
				want := directPDrop(n, c, s)
				theorem := big.NewRat(int64(n-c), int64(n-s))
				theorem.Mul(theorem, new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Binomial(int64(n), int64(s)))))
				got, _ := PDrop(sh(n, c, s))
				g, _ := PDropGamma(sh(n, c, s))
				if theorem.Cmp(want) != 0 || got.Cmp(want) != 0 || g.Cmp(want) != 0 {
					t.Fatalf("(%d,%d,%d): double sum %v, Theorem A %v, PDrop %v, γ form %v", n, c, s, want, theorem, got, g)
				}
				points++
			}
		}
	}
	// Σ_{n=2}^{26} (Σ_{c<n} c + (n−1)) = C(27,3) + Σ_{j=1}^{25} j = 2925 + 325.
	if points != 3250 {
		t.Errorf("%d points, want 3250", points)
	}
}

// wrongForms are closed forms near Theorem A's that are false; each must be
// caught by the comparison with the double sum somewhere on a small grid,
// or that comparison could not fail.
var wrongForms = map[string]func(n, c, s int64) *big.Rat{
	"S·(1 − 1/C(n,s+1))": func(n, c, s int64) *big.Rat { return theoremLike(n, c, s, n, s+1, 0) },
	"S·(1 − 1/C(n−1,s))": func(n, c, s int64) *big.Rat { return theoremLike(n, c, s, n-1, s, 0) },
	"S·(1 − 1/(C(n,s)+1))": func(n, c, s int64) *big.Rat {
		return theoremLike(n, c, s, n, s, 1)
	},
	"S": func(n, c, s int64) *big.Rat { return big.NewRat(n-c, n-s) },
}

// theoremLike returns S·(1 − 1/(C(m, l) + add)), or S where that is 1/0.
func theoremLike(n, c, s, m, l, add int64) *big.Rat {
	r := big.NewRat(n-c, n-s)
	b := Binomial(new(big.Int), m, l)
	b.Add(b, big.NewInt(add))
	if b.Sign() == 0 {
		return r
	}
	return r.Mul(r, new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).SetFrac(big.NewInt(1), b)))
}

func TestWrongClosedFormsFail(t *testing.T) {
	for name, f := range wrongForms {
		t.Run(name, func(t *testing.T) {
			for n := 2; n <= 12; n++ {
				for c := 1; c <= n; c++ {
					for s := 1; s <= c && s < n; s++ {
						if f(int64(n), int64(c), int64(s)).Cmp(directPDrop(n, c, s)) != 0 {
							return
						}
					}
				}
			}
			t.Errorf("%s matches formula (1) on the whole grid", name)
		})
	}
}

// TestPDropReduced checks that PDrop's fraction, formed without a gcd, is
// the reduced one: the same numerator and denominator as big.Rat.SetFrac
// gives from the unreduced (n−c)(C−1)/((n−s)C).
func TestPDropReduced(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pts := []gossip.Shuffle{sh(7, 4, 2), sh(10, 6, 6), sh(100, 60, 60), sh(1000, 1000, 3), sh(30, 6, 6)}
	for range 300 {
		n := 2 + rng.IntN(3000)
		c := 1 + rng.IntN(n)
		pts = append(pts, sh(n, c, 1+rng.IntN(min(c, n-1))))
	}
	for _, p := range pts {
		got, err := PDrop(p)
		if err != nil {
			t.Fatal(err)
		}
		n, c, s := int64(p.Items), int64(p.Cache), int64(p.Exchange)
		C := new(big.Int).Binomial(n, s)
		num := new(big.Int).Mul(new(big.Int).Sub(C, big.NewInt(1)), big.NewInt(n-c))
		want := new(big.Rat).SetFrac(num, new(big.Int).Mul(C, big.NewInt(n-s)))
		if got.Num().Cmp(want.Num()) != 0 || got.Denom().Cmp(want.Denom()) != 0 {
			t.Fatalf("%v: PDrop = %v, reduced = %v", p, got, want)
		}
	}
}

// Theorem B: γ_s(n) = (C(n,s) − 1)/(n − s) for n ≠ s, and at n = s the sum
// is the harmonic number H_s (C(s,d)/C(s−1,d) = s/(s−d), so
// γ_s(s) = Σ_{d<s} 1/(s−d)). Gamma evaluates the sum by binary splitting;
// gammaNaive term by term with the generalised Binomial. Negative n are
// included: the identity is one of polynomials in n.
func TestTheoremB(t *testing.T) {
	t.Parallel()
	for s := 1; s <= 40; s++ {
		for n := -20; n <= 90; n++ {
			got := Gamma(new(big.Rat), n, s)
			if naive := gammaNaive(int64(n), int64(s)); got.Cmp(naive) != 0 {
				t.Fatalf("γ_%d(%d): binary splitting %v, term by term %v", s, n, got, naive)
			}
			want := new(big.Rat)
			if n == s {
				for d := 1; d <= s; d++ {
					want.Add(want, big.NewRat(1, int64(d)))
				}
			} else {
				b := Binomial(new(big.Int), int64(n), int64(s))
				want.SetFrac(b.Sub(b, big.NewInt(1)), big.NewInt(int64(n-s)))
			}
			if got.Cmp(want) != 0 {
				t.Fatalf("γ_%d(%d) = %v, Theorem B gives %v", s, n, got, want)
			}
		}
	}
	// The empty sum.
	if g := Gamma(new(big.Rat), 5, 0); g.Sign() != 0 {
		t.Errorf("γ_0(5) = %v, want 0", g)
	}
	// A perturbed closed form, (C(n,s) − 1)/(n − s + 1), must be caught.
	b := Binomial(new(big.Int), 9, 3)
	wrong := new(big.Rat).SetFrac(b.Sub(b, big.NewInt(1)), big.NewInt(9-3+1))
	if Gamma(new(big.Rat), 9, 3).Cmp(wrong) == 0 {
		t.Error("γ_3(9) equals a wrong closed form")
	}
}

// gammaNaive is γ_s(n) summed term by term in big.Rat.
func gammaNaive(n, s int64) *big.Rat {
	g, t := new(big.Rat), new(big.Rat)
	for d := range s {
		num := Binomial(new(big.Int), n, d)
		den := Binomial(new(big.Int), s-1, d)
		t.SetFrac(num, den.Mul(den, big.NewInt(s)))
		g.Add(g, t)
	}
	return g
}

// TestLargeS compares the closed form with the double sum at a few
// larger s (O(s²) products each), and with the γ form, whose γ comes from
// its sum by binary splitting, at s up to 20,000, where the double sum is
// out of reach: two different evaluations agreeing on fractions of
// thousands of digits.
func TestLargeS(t *testing.T) {
	ctx := context.Background()
	for _, p := range []gossip.Shuffle{sh(1200, 500, 300), sh(700, 650, 350), sh(401, 400, 399)} {
		t.Run(p.String(), func(t *testing.T) {
			e, _ := PDrop(p)
			d, err := PDropDoubleSum(ctx, p)
			if err != nil || e.Cmp(d) != 0 {
				t.Errorf("%v: closed form ≠ double sum (%v)", p, err)
			}
		})
	}
	for _, p := range []gossip.Shuffle{sh(20000, 10000, 5000), sh(80000, 30000, 20000), sh(1<<40, 1<<39, 2000)} {
		t.Run(p.String(), func(t *testing.T) {
			e, err := PDrop(p)
			if err != nil {
				t.Fatal(err)
			}
			n, c, s := int64(p.Items), int64(p.Cache), int64(p.Exchange)
			g, h := gammaSum(n, s) // γ = g/h; the γ form is (n−c)g/((n−s)g + h)
			lhs := new(big.Int).Mul(g, big.NewInt(n-c))
			lhs.Mul(lhs, e.Denom())
			rhs := new(big.Int).Mul(g, big.NewInt(n-s))
			rhs.Add(rhs, h)
			rhs.Mul(rhs, e.Num())
			if lhs.Cmp(rhs) != 0 {
				t.Errorf("%v: γ form by its sum ≠ closed form", p)
			}
		})
	}
}

// Binomial's prime-factor product against big.Int.Binomial's term-by-term
// product, above and below binomialSmall and with n far beyond k.
func TestBinomialSieve(t *testing.T) {
	for _, tc := range [][2]int64{{64, 64}, {128, 64}, {200, 100}, {1000, 377}, {5000, 2500}, {5001, 70}, {1 << 40, 300}, {1<<40 + 12345, 1000}, {999983, 999983 - 65}} {
		t.Run(fmt.Sprintf("C(%d,%d)", tc[0], tc[1]), func(t *testing.T) {
			got := Binomial(new(big.Int), tc[0], tc[1])
			if want := new(big.Int).Binomial(tc[0], tc[1]); got.Cmp(want) != 0 {
				t.Errorf("C(%d, %d): sieve and product differ", tc[0], tc[1])
			}
		})
	}
}

func TestNEqualsC(t *testing.T) {
	// n = c: every cache holds every item, k = s always, nothing is dropped.
	for _, p := range []gossip.Shuffle{sh(5, 5, 1), sh(5, 5, 3), sh(5, 5, 4)} {
		t.Run(p.String(), func(t *testing.T) {
			checkPDropForms(t, p, new(big.Rat))
			if _, err := Ecs(p); err != ErrUndefined {
				t.Errorf("%v: Ecs err = %v, want ErrUndefined", p, err)
			}
		})
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

// Theorem A's proof conditions on ŝ instead of k: the joint law of (k, ŝ)
// in formula (1)'s weights H(k; n,c,s)·H(ŝ; c,s,k) must equal
// C(s,ŝ)·C(n−s,s−ŝ)/C(n,s) (ŝ hypergeometric) times the law of k − ŝ given
// ŝ, hypergeometric with c − s marked among n − s, s − ŝ drawn.
func TestJointLawBothWays(t *testing.T) {
	t.Parallel()
	bin := func(m, l int) *big.Rat { return new(big.Rat).SetInt(Binomial(new(big.Int), int64(m), int64(l))) }
	for n := 2; n <= 18; n++ {
		for c := 1; c <= n; c++ {
			for s := 1; s <= c && s < n; s++ {
				for k := 0; k <= s; k++ {
					for sh := 0; sh <= k; sh++ {
						byK := new(big.Rat).Mul(bin(c, k), bin(n-c, s-k))
						byK.Quo(byK, bin(n, s))
						if byK.Sign() != 0 {
							w := new(big.Rat).Mul(bin(s, sh), bin(c-s, k-sh))
							byK.Mul(byK, w.Quo(w, bin(c, k)))
						}
						byS := new(big.Rat).Mul(bin(s, sh), bin(n-s, s-sh))
						byS.Quo(byS, bin(n, s))
						if byS.Sign() != 0 { // else ŝ is impossible: s − ŝ > n − s
							w := new(big.Rat).Mul(bin(c-s, k-sh), bin(n-c, s-k))
							byS.Mul(byS, w.Quo(w, bin(n-s, s-sh)))
						}
						if byK.Cmp(byS) != 0 {
							t.Fatalf("(n,c,s)=(%d,%d,%d), k=%d, ŝ=%d: %v by k, %v by ŝ", n, c, s, k, sh, byK, byS)
						}
					}
				}
			}
		}
	}
}

func TestEcsIsNMinusCTimesGamma(t *testing.T) {
	// e_{c,s}(n) = (n−c)·γ_s(n), and the (s−1)-th forward difference of γ_s
	// in n is 1/s (γ has degree s−1 and leading coefficient 1/(s·(s−1)!),
	// from its d = s−1 term C(n, s−1)/s).
	for s := 1; s <= 6; s++ {
		for c := s; c <= 12; c++ {
			for n := c + 1; n <= 30; n++ {
				e, err := Ecs(sh(n, c, s))
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
	e7, _ := Ecs(sh(7, 4, 2))
	e6, _ := Ecs(sh(6, 4, 2))
	if d := new(big.Rat).Sub(e7, e6); d.Cmp(big.NewRat(5, 1)) != 0 {
		t.Errorf("e_{4,2}(7) − e_{4,2}(6) = %v, want 5", d)
	}
}

func TestVerifyGamma(t *testing.T) {
	checked, mm, err := VerifyGamma(context.Background(), Grid{MaxItems: 40, MaxCache: 16, MaxExchange: 6}, Settings{})
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
	for _, g := range []Grid{{40, 16, 0}, {40, 16, MaxS + 1}, {40, 0, 3}, {0, 16, 3}} {
		t.Run(fmt.Sprintf("%+v", g), func(t *testing.T) {
			if _, _, err := VerifyGamma(context.Background(), g, Settings{}); err == nil || !strings.HasPrefix(err.Error(), "exact: Grid.") {
				t.Errorf("%+v: err = %v, want one naming a Grid field", g, err)
			}
		})
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
		// 1/3 − (1/3 − 10^−50): the difference of two fractions with a
		// common factor in their denominators, 10^−50.
		{"1e-50 as a difference", big.NewRat(1, 3), new(big.Rat).Sub(big.NewRat(1, 3), new(big.Rat).SetFrac(big.NewInt(1), pow10(50))), -50, 1},
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
	// By Theorem A, |E − S| = S/C(n,s): log10 S − log10 C(20000, 5000), with
	// log10 C from math.Lgamma. Lgamma's relative error (~1e-15) on
	// ln Γ(20001) ≈ 1.8e5 allows ~1e-10 absolute; 1e-8 leaves room.
	p := sh(20000, 10000, 5000)
	e, _ := PDrop(p)
	s, _ := PDropSimplified(p)
	got, _ := Log10AbsDiff(e, s)
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	want := math.Log10(10000.0/15000) - (lg(20001)-lg(5001)-lg(15001))/math.Ln10
	if math.Abs(got-want) > 1e-8 {
		t.Errorf("log10|E − S| at %v = %.12g, want %.12g", p, got, want)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		p     gossip.Shuffle
		field string // "" means accepted
	}{
		{sh(5, 4, 0), "Shuffle.Exchange"},
		{sh(5, 3, 4), "Shuffle.Exchange"},
		{sh(3, 4, 2), "Shuffle.Cache"},
		{sh(5, 5, 5), "Shuffle.Exchange"},
		// MaxBits = 2^21: at n = 2^40 (bitlen 41), 41·51150 = 2,097,150 ≤ 2,097,152
		// and 41·51151 = 2,097,191 is not.
		{sh(1<<40, 1<<39, 51150), ""},
		{sh(1<<40, 1<<39, 51151), "Shuffle.Exchange"},
		// min(s, n−s) counts: s = 2^40 − 5 is C(n, 5).
		{sh(1<<40, 1<<40-5, 1<<40-5), ""},
	} {
		t.Run(tc.p.String(), func(t *testing.T) {
			err := Validate(tc.p)
			var fe *gossip.FieldError
			switch {
			case tc.field == "" && err != nil:
				t.Errorf("%v: %v", tc.p, err)
			case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field || !strings.HasPrefix(err.Error(), "exact: Shuffle.")):
				t.Errorf("%v: err = %v, want exact: and a FieldError on %s", tc.p, err, tc.field)
			}
			if tc.field != "" {
				if _, err := PDrop(tc.p); err == nil {
					t.Errorf("PDrop%v accepted", tc.p)
				}
			}
		})
	}
	if _, err := PDropDoubleSum(context.Background(), sh(10000, 10000, MaxS+1)); err == nil {
		t.Error("the double sum accepted s > MaxS")
	}
	f, err := NewFormula1(context.Background(), 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{3, gossip.MaxItems + 1} {
		if _, err := f.At(new(big.Rat), n); err == nil {
			t.Errorf("Formula1(c=4, s=2).At(%d) accepted", n)
		}
	}
}

// Evaluate's values must be those of the single-point functions, and
// E(7,4,2) = 4/7, S = 3/5 (TestPDropPaperExample).
func TestEvaluateMatchesSinglePoints(t *testing.T) {
	pts := []gossip.Shuffle{sh(7, 4, 2), sh(9, 4, 2), sh(12, 6, 3), sh(5, 5, 4), sh(8000, 6000, 5001)}
	var calls int64
	evs, err := Evaluate(context.Background(), Config{Shuffles: pts, Enumerate: true},
		Settings{Progress: func(done, total int64) {
			if calls++; done != calls || total != int64(len(pts)) {
				t.Errorf("progress(%d, %d) at call %d", done, total, calls)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if calls != int64(len(pts)) {
		t.Errorf("%d progress calls", calls)
	}
	if evs[0].Formula1.Cmp(big.NewRat(4, 7)) != 0 || evs[0].Simplified.Cmp(big.NewRat(3, 5)) != 0 {
		t.Errorf("(7,4,2): E = %v, S = %v", evs[0].Formula1, evs[0].Simplified)
	}
	for _, ev := range evs {
		t.Run(ev.Shuffle.String(), func(t *testing.T) {
			e, _ := PDrop(ev.Shuffle)
			g, _ := PDropGamma(ev.Shuffle)
			if ev.Formula1.Cmp(e) != 0 || ev.Gamma.Cmp(g) != 0 {
				t.Errorf("%v: %v %v, want %v %v", ev.Shuffle, ev.Formula1, ev.Gamma, e, g)
			}
			if ev.Exchange <= 100 {
				if d, err := PDropDoubleSum(context.Background(), ev.Shuffle); err != nil || d.Cmp(e) != 0 {
					t.Errorf("%v: double sum %v (%v), closed form %v", ev.Shuffle, d, err, e)
				}
			}
			// One shuffle enumerated: its mean conditional drop probability is
			// formula (1) (enumerate_test.go).
			if ev.Items <= 12 && (ev.Enumerated == nil || ev.Enumerated.PerShuffle.Cmp(e) != 0) {
				t.Errorf("%v: enumeration %+v", ev.Shuffle, ev.Enumerated)
			}
		})
	}
	// n = c: E = S = 0, no logarithm.
	if ev := evs[3]; ev.HasLog10 || ev.Formula1.Sign() != 0 {
		t.Errorf("n = c: %+v", ev)
	}
	_, err = Evaluate(context.Background(), Config{Shuffles: []gossip.Shuffle{sh(7, 4, 2), sh(5, 5, 5)}}, Settings{})
	var fe *gossip.FieldError
	if !errors.As(err, &fe) || fe.Field != "Config.Shuffles[1].Exchange" || err.Error() != "exact: Config.Shuffles[1].Exchange = 5: need Exchange < Items = 5" {
		t.Errorf("n = s: err = %v, want a FieldError of exact on Config.Shuffles[1].Exchange", err)
	}
}
