package exact

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"
)

// A(n, c) = C(n, s)·E(n, c, s) by the package doc's double sum, evaluated
// with the generalised Binomial of binomial.go (a different implementation
// from ProveGamma's recurrence), in rationals.
func polyA(n, c, s int64) *big.Rat {
	a, t := new(big.Rat), new(big.Rat)
	b1, b2, b3 := new(big.Int), new(big.Int), new(big.Int)
	for k := range s {
		for sh := int64(0); sh <= k; sh++ {
			Binomial(b1, n-c, s-k)
			Binomial(b2, s, sh)
			Binomial(b3, c-s, k-sh)
			b1.Mul(b1, b2)
			b1.Mul(b1, b3)
			t.SetFrac(b1.Mul(b1, big.NewInt(s-k)), big.NewInt(s-sh))
			a.Add(a, t)
		}
	}
	return a
}

// gammaPoly is γ_s(n) = Σ_{d<s} C(n, d)/(s·C(s−1, d)) for any integer n.
func gammaPoly(n, s int64) *big.Rat {
	g, t := new(big.Rat), new(big.Rat)
	for d := range s {
		num := Binomial(new(big.Int), n, d)
		den := Binomial(new(big.Int), s-1, d)
		t.SetFrac(num, den.Mul(den, big.NewInt(s)))
		g.Add(g, t)
	}
	return g
}

// sides returns A·((n−s)γ+1) and (n−c)·γ·C(n, s).
func sides(n, c, s int64) (lhs, rhs *big.Rat) {
	g := gammaPoly(n, s)
	lhs = new(big.Rat).Mul(g, big.NewRat(n-s, 1))
	lhs.Add(lhs, big.NewRat(1, 1))
	lhs.Mul(lhs, polyA(n, c, s))
	rhs = new(big.Rat).Mul(g, big.NewRat(n-c, 1))
	rhs.Mul(rhs, new(big.Rat).SetInt(Binomial(new(big.Int), n, s)))
	return lhs, rhs
}

// diff returns the order-th forward difference of f at 0 (step 1).
func diff(f func(i int64) *big.Rat, order int) *big.Rat {
	sum := new(big.Rat)
	for i := 0; i <= order; i++ {
		t := new(big.Rat).Mul(f(int64(i)), new(big.Rat).SetInt(Binomial(new(big.Int), int64(order), int64(i))))
		if (order-i)%2 == 1 {
			t.Neg(t)
		}
		sum.Add(sum, t)
	}
	return sum
}

// The degree bounds of ProveGamma's argument, checked independently: along
// n the (2s+1)-th forward differences of both sides vanish, along c the
// (s+1)-th, at random base points (including ones outside n ≥ c ≥ s, where
// only the polynomials, not formula (1), are defined). The 2s-th
// differences along n are not all zero: that bound is attained. Along c
// both sides turn out to have degree 1 (the right side visibly; the left
// because the identity holds), below the a-priori bound s that the proof
// uses, which is safe: a larger grid than needed.
func TestGammaProofDegreeBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for s := int64(1); s <= 6; s++ {
		t.Run(fmt.Sprint("s=", s), func(t *testing.T) {
			attainedN := false
			for range 4 {
				n0, c0 := r.Int64N(61)-30, r.Int64N(61)-30
				for side := range 2 {
					along := func(dn, dc int64) func(i int64) *big.Rat {
						return func(i int64) *big.Rat {
							l, rr := sides(n0+dn*i, c0+dc*i, s)
							return []*big.Rat{l, rr}[side]
						}
					}
					if d := diff(along(1, 0), int(2*s+1)); d.Sign() != 0 {
						t.Errorf("side %d at (%d, %d): Δ_n^%d = %v", side, n0, c0, 2*s+1, d)
					}
					if d := diff(along(0, 1), int(s+1)); d.Sign() != 0 {
						t.Errorf("side %d at (%d, %d): Δ_c^%d = %v", side, n0, c0, s+1, d)
					}
					attainedN = attainedN || diff(along(1, 0), int(2*s)).Sign() != 0
				}
			}
			if !attainedN {
				t.Error("degree 2s in n never attained")
			}
		})
	}
}

// ProveGamma proves every s up to 40, and refutes the identity when γ is
// perturbed (its constant coefficient, or its top one, raised by 1/G).
func TestProveGamma(t *testing.T) {
	t.Parallel()
	proofs, err := ProveGammaRange(context.Background(), 40, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range proofs {
		if !p.Proved || p.Points != (2*p.S+1)*(p.S+1) {
			t.Errorf("s = %d: %+v", p.S, p)
		}
	}
	for _, s := range []int{1, 2, 7, 20} {
		for name, perturb := range map[string]func([]*big.Int){
			"constant": func(c []*big.Int) { c[0].Add(c[0], big.NewInt(1)) },
			"top":      func(c []*big.Int) { c[len(c)-1].Add(c[len(c)-1], big.NewInt(1)) },
		} {
			t.Run(fmt.Sprintf("s=%d %s perturbed", s, name), func(t *testing.T) {
				p, err := proveGammaWith(context.Background(), s, perturb)
				if err != nil || p.Proved || p.Counter == nil {
					t.Errorf("%+v, %v: want a refutation", p, err)
				}
			})
		}
	}
	// Agreement with formula (1) itself at a grid point: A/C(n, s) = E.
	e, _ := PDrop(sh(30, 12, 5))
	a := polyA(30, 12, 5)
	if a.Quo(a, new(big.Rat).SetInt(Binomial(new(big.Int), 30, 5))).Cmp(e) != 0 {
		t.Error("A(30, 12)/C(30, 5) ≠ formula (1)")
	}
}

// TestProveGammaRangeWorkers: the proofs come back in s's order, one per
// s, whatever the number of workers, each equal to ProveGamma(s) called
// alone (the reference: the single-s entry point, no pool), and Progress
// counts every s once up to the total.
func TestProveGammaRangeWorkers(t *testing.T) {
	const maxS = 12
	want := make([]GammaProof, maxS)
	for s := 1; s <= maxS; s++ {
		p, err := ProveGamma(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		want[s-1] = p
	}
	for _, workers := range []int{0, 1, 3, 64} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			var calls, last int64
			got, err := ProveGammaRange(context.Background(), maxS, Settings{Workers: workers, Progress: func(done, total int64) {
				calls++
				if done != last+1 || total != maxS {
					t.Errorf("progress (%d, %d) after %d", done, total, last)
				}
				last = done
			}})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("proofs %+v, want %+v", got, want)
			}
			if calls != maxS {
				t.Errorf("progress called %d times, want %d", calls, maxS)
			}
		})
	}
}
