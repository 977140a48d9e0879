package approx

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gossipkit/gossipkit/gossip"
)

func TestTransitionsCheck(t *testing.T) {
	// Entries are sums of at most three products of numbers in [0, 1]:
	// each rounds by at most 2⁻⁵³ ≈ 1.1e-16 per operation, so a row sums
	// to 1 within about five of them, 5.6e-16 < 1e-15.
	const tol = 1e-15
	for _, v := range Variants {
		for _, p := range []gossip.Shuffle{{Items: 500, Cache: 100, Exchange: 50}, {Items: 7, Cache: 4, Exchange: 2}, {Items: 10, Cache: 10, Exchange: 3}, {Items: 200, Cache: 100, Exchange: 100}, {Items: 30, Cache: 12, Exchange: 1}} {
			t.Run(v.String()+" "+p.String(), func(t *testing.T) {
				tr, err := TransitionsFor(v, p)
				if err != nil {
					t.Fatal(err)
				}
				if err := tr.Check(tol); err != nil {
					t.Error(err)
				}
			})
		}
	}
	// A broken matrix must fail the check.
	for _, tc := range []struct {
		name   string
		breakM func(*Transitions)
	}{
		{"losing d", func(tr *Transitions) { tr[S10][S00] = 0.1 }},
		{"asymmetric", func(tr *Transitions) { tr[S01][S11] += 0.01; tr[S01][S01] -= 0.01 }},
	} {
		t.Run("broken "+tc.name, func(t *testing.T) {
			tr := NewTransitions(0.5, 0.5)
			tc.breakM(&tr)
			if tr.Check(tol) == nil {
				t.Error("passed the check")
			}
		})
	}
}

func TestPDropVariants(t *testing.T) {
	// (7,4,2): S = 3/5, formula (1) = γ form = 4/7 (package exact, by hand).
	for v, want := range map[Variant]float64{Simplified: 0.6, Gamma: 4.0 / 7, Exact: 4.0 / 7} {
		t.Run(v.String(), func(t *testing.T) {
			// Exact equality: each side is the correctly rounded quotient
			// (float64 3/5, big.Rat.Float64 of 4/7, and the literals).
			got, err := PDrop(v, gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2})
			if err != nil || got != want {
				t.Errorf("%v %v, want %v", got, err, want)
			}
		})
	}
}

// paperX and paperY are the paper's closed forms typed in as printed in
// docs/MODEL.md §4 (x0 = 1/N), a different arrangement from Model.X and Model.Y.
func paperX(t, N, n, c, s float64) float64 {
	k := 2 * (s / c) * (c - s) / (n - s)
	e := math.Exp(k * t)
	return c * e / (c*N + (e-1)*n)
}

func paperY(t, N, n, c, s float64) float64 {
	k := 2 * (s / c) * (c - s) / (n - s)
	return 1 - (1-1/N)*math.Pow(1+n/(c*N)*(math.Exp(k*t)-1), -c*(n-s)/(n*(c-s)))
}

func TestClosedFormsMatchPaper(t *testing.T) {
	for _, p := range [][4]int{{2500, 500, 100, 50}, {2500, 1000, 100, 50}, {2500, 2000, 100, 50}, {100, 500, 100, 10}} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			m, err := NewModel(Config{Nodes: p[0], Shuffle: gossip.Shuffle{Items: p[1], Cache: p[2], Exchange: p[3]}, PDrop: Simplified, Initial: 1})
			if err != nil {
				t.Fatal(err)
			}
			N, n, c, s := float64(p[0]), float64(p[1]), float64(p[2]), float64(p[3])
			// Four float operations each: a few ulps.
			if !scalar.EqualWithinRel(m.Rate(), 2*(s/c)*(c-s)/(n-s), 1e-14) || !scalar.EqualWithinRel(m.Steady(), c/n, 1e-14) {
				t.Errorf("%v: k = %v, K = %v", p, m.Rate(), m.Steady())
			}
			for _, tt := range []float64{0, 1, 10, 50, 100, 300, 600} {
				// Both are a handful of float operations on numbers of size ≤ e^{kt}
				// with kt < 200; an error of the argument of exp of a few ulp of
				// kt is amplified by kt: ≤ 200·10·1.1e-16 ≈ 2e-13 < 1e-12
				// (measured: 2.8e-16 for x, 3.1e-16 for y).
				if !scalar.EqualWithinRel(m.X(tt), paperX(tt, N, n, c, s), 1e-12) {
					t.Errorf("%v t=%v: X = %v, paper %v", p, tt, m.X(tt), paperX(tt, N, n, c, s))
				}
				if !scalar.EqualWithinAbs(m.Y(tt), paperY(tt, N, n, c, s), 1e-12) {
					t.Errorf("%v t=%v: Y = %v, paper %v", p, tt, m.Y(tt), paperY(tt, N, n, c, s))
				}
			}
			// Far beyond where e^{kt} overflows, the forms stay finite.
			if x := m.X(1e5); !scalar.EqualWithinRel(x, c/n, 1e-12) {
				t.Errorf("X(1e5) = %v", x)
			}
			if y := m.Y(1e5); y != 1 {
				t.Errorf("Y(1e5) = %v", y)
			}
		})
	}
}

func TestInverses(t *testing.T) {
	m, _ := NewModel(Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, PDrop: Simplified, Initial: 1})
	// A round trip through a logarithm and an exponential: its argument's
	// relative error of a few ulp is amplified by the condition numbers,
	// ≤ 1/(1 − l/K) = 2000 at l = 0.1999, K = 0.2: ≤ 2000·4·1.1e-16 ≈ 1e-12
	// (measured: 0 for x, 2.2e-16 for y).
	for _, l := range []float64{0.001, 0.01, 0.1, 0.19, 0.1999} {
		tt := m.TimeToReplication(l)
		if !scalar.EqualWithinRel(m.X(tt), l, 1e-12) {
			t.Errorf("X(TimeToReplication(%v)) = %v", l, m.X(tt))
		}
	}
	if !math.IsInf(m.TimeToReplication(0.2), 1) {
		t.Error("the steady state c/n is reached in finite time")
	}
	for _, l := range []float64{0.01, 0.5, 0.9, 0.99, 0.999999} {
		tt := m.TimeToCoverage(l)
		if !scalar.EqualWithinAbs(m.Y(tt), l, 1e-12) {
			t.Errorf("Y(TimeToCoverage(%v)) = %v", l, m.Y(tt))
		}
	}
	// s = c: k = 0, x stays at 1/N, y = 1 − (1−1/N)e^{−2pt/N}.
	m, _ = NewModel(Config{Nodes: 100, Shuffle: gossip.Shuffle{Items: 50, Cache: 10, Exchange: 10}, PDrop: Simplified, Initial: 1})
	tt := m.TimeToCoverage(0.5)
	// The same formula in a different order: a few roundings, < 1e-15.
	if want := math.Log((1-0.01)/0.5) / (2 * 0.01); !scalar.EqualWithinRel(tt, want, 1e-12) {
		t.Errorf("k=0 coverage time %v, want %v", tt, want)
	}
}

func TestDxDs(t *testing.T) {
	N, n, c := 2500.0, 500.0, 100.0
	for _, s := range []float64{5, 20, 50, 52.786, 70, 95} {
		for _, tt := range []float64{5, 20, 50, 100} {
			// Central difference of the paper's x in s with step h: truncation
			// h²·x'''/6 ≈ h²·|x'|/s² ≤ 1e-8·1e-3/25 = 4e-13, and rounding: each
			// paperX is off by ≤ 10 ulp of x ≤ c/n = 0.2 (exp's argument kt
			// ≤ 7 here), i.e. 10·2.8e-17 = 2.8e-16, divided by 2h: 1.4e-12.
			// So |got − fd| ≤ 2e-12 absolute (measured: at most 1.1e-12, at
			// s = 20, t = 100). No relative test: near s* x' is ~1e-10.
			h := 1e-4
			fd := (paperX(tt, N, n, c, s+h) - paperX(tt, N, n, c, s-h)) / (2 * h)
			got := dxdsFloat(tt, N, n, c, s)
			if !scalar.EqualWithinAbs(got, fd, 2e-12) {
				t.Errorf("s=%v t=%v: ∂x/∂s = %v, finite difference %v", s, tt, got, fd)
			}
		}
	}
	// Zero at s* for any t > 0: the factor c·n + s(s − 2n) cancels to a few
	// ulp of n² (2.9e-11 each) at most, times a prefactor of 3e-8 at t = 30:
	// ≤ 1e-18 per ulp, so 1e-15 allows 1000 (measured: exactly 0).
	sStar := SStar(500, 100)
	if d := dxdsFloat(30, N, n, c, sStar); math.Abs(d) > 1e-15 {
		t.Errorf("∂x/∂s at s* = %v", d)
	}
}

// dxdsFloat is DxDs at a real s (the paper differentiates in continuous s).
func dxdsFloat(t, N, n, c, s float64) float64 {
	k := 2 * s / c * (c - s) / (n - s)
	e := math.Exp(-k * t)
	den := c*N*e + (1-e)*n
	return 2 * e * (c*N - n) * (c*n + s*(s-2*n)) * t / (den * den * (n - s) * (n - s))
}

func TestDxDsInteger(t *testing.T) {
	// DxDs and dxdsFloat are the same expression: check the int wrapper.
	if a, b := DxDs(20, 2500, gossip.Shuffle{Items: 500, Cache: 100, Exchange: 30}), dxdsFloat(20, 2500, 500, 100, 30); a != b {
		t.Errorf("%v vs %v", a, b)
	}
}

func TestSStar(t *testing.T) {
	// n = 500, c = 100: s* = 500 − √200000 = 52.7864045…; P(11|10) at 52 and
	// 53: (52/100)(48/448) = 0.0557142…, (53/100)(47/447) = 0.0557270… → 53.
	// A square root and a subtraction of numbers ≤ 500, each rounded by at
	// most half an ulp of 500 (2.8e-14): 1e-12 holds them.
	if s := SStar(500, 100); !scalar.EqualWithinAbs(s, 500-math.Sqrt(200000), 1e-12) {
		t.Errorf("s* = %v", s)
	}
	if s, _, _ := ArgmaxP11(Simplified, 500, 100); s != 53 {
		t.Errorf("integer argmax %d, want 53", s)
	}
	// Brute force: over a grid of (n, c) with c < n, the best integer s by
	// direct search of s(c−s)/(c(n−s)), compared exactly in int64 by
	// cross-multiplication (ties to the smaller s), is ⌊s*⌋ or ⌈s*⌉.
	ties := 0
	for n := 2; n <= 300; n += 7 {
		for c := 1; c < n; c += 3 {
			best := 0
			for s := 1; s <= c; s++ {
				if best == 0 {
					best = s
					continue
				}
				lhs := int64(s*(c-s)) * int64(n-best)
				rhs := int64(best*(c-best)) * int64(n-s)
				if lhs == rhs {
					ties++
				}
				if lhs > rhs {
					best = s
				}
			}
			if best == 0 {
				continue
			}
			ss := SStar(n, c)
			// ss is within a few ulp of 300 (≈ 1e-13) of s*; 1e-9 lets an s*
			// that is an integer in exact arithmetic round either way.
			if float64(best) < math.Floor(ss)-1e-9 || float64(best) > math.Ceil(ss)+1e-9 {
				t.Errorf("n=%d c=%d: integer argmax %d, s* = %v", n, c, best, ss)
			}
			got, _, _ := ArgmaxP11(Simplified, n, c)
			if got != best {
				t.Errorf("n=%d c=%d: ArgmaxP11 = %d, brute force %d", n, c, got, best)
			}
		}
	}
	if ties == 0 {
		t.Error("the grid has no exact ties: the tie-breaking is untested")
	}
}

func TestBetaSimplifies(t *testing.T) {
	// docs/MODEL.md §4: the seed's β equals (n/c)².
	for _, p := range [][3]float64{{500, 100, 50}, {1000, 100, 7}, {37, 20, 19}} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			// Nine operations of 1.1e-16 each; 1 − (s/c)(n−c)/(n−s) cancels
			// to 0.1 at worst ({37, 20, 19}), amplifying by 10: ≤ 1e-14
			// (measured: 7.8e-16).
			n, c, s := p[0], p[1], p[2]
			beta := (n / c) * (1 - (s/c)*(n-c)/(n-s)) / ((c - s) / (n - s))
			if !scalar.EqualWithinRel(beta, (n/c)*(n/c), 1e-14) {
				t.Errorf("β = %v, (n/c)² = %v", beta, (n/c)*(n/c))
			}
		})
	}
}

// ArgmaxP11 at sizes where evaluating every s is out of reach (c = 2^39
// took hours): the answer must beat both neighbours exactly, which, as
// s(c−s)/(n−s) is unimodal in s (its derivative has the sign of
// s² − 2ns + cn), makes it the global integer argmax.
func TestArgmaxP11Huge(t *testing.T) {
	f := func(n, c, s int) *big.Rat { // s(c−s)/(n−s) ∝ P(11|10)
		return new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(int64(s)), big.NewInt(int64(c-s))), big.NewInt(int64(n-s)))
	}
	for _, tc := range []struct{ n, c int }{{1 << 40, 1 << 39}, {1 << 40, 1<<40 - 1}, {1 << 40, 3}, {1<<40 - 7, 1 << 20}, {1 << 30, 1 << 30}} {
		t.Run(fmt.Sprintf("n=%d c=%d", tc.n, tc.c), func(t *testing.T) {
			s, p, err := ArgmaxP11(Simplified, tc.n, tc.c)
			if err != nil {
				t.Fatalf("n=%d c=%d: %v", tc.n, tc.c, err)
			}
			if s < 1 || s > tc.c || s >= tc.n || !(p > 0) {
				t.Fatalf("n=%d c=%d: s = %d, p = %g", tc.n, tc.c, s, p)
			}
			if s > 1 && f(tc.n, tc.c, s-1).Cmp(f(tc.n, tc.c, s)) >= 0 {
				t.Errorf("n=%d c=%d: s−1 = %d is at least as good as s = %d (ties go to the smaller s)", tc.n, tc.c, s-1, s)
			}
			if s < min(tc.c, tc.n-1) && f(tc.n, tc.c, s+1).Cmp(f(tc.n, tc.c, s)) > 0 {
				t.Errorf("n=%d c=%d: s+1 = %d beats s = %d", tc.n, tc.c, s+1, s)
			}
		})
	}
}
