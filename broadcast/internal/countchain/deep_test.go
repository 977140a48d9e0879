package countchain

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"testing"
)

// ratChain is the count chain in exact rationals, built independently of
// Chain: a round's law from inclusion–exclusion over the set of
// uninformed live nodes that no message reaches,
//
//	P(A all missed) = g_k(a)^full · g_kl(a)^last · h(i)^a,   a = |A|,
//
// g_f(a) = Σ_j Hyp(j; f, a, N−1)·ε^j the chance one sender of f pushes
// misses A, h(i) the chance one asker's request fails (package doc), so
// P(D = d) = C(U, d) Σ_t (−1)^t C(d, t) P(a set of U − d + t missed).
// The state is the informed live nodes by the rounds they have pushed
// (ages[0..R−1]) and those done (ages[R]); without a budget one class
// that never retires. A state where no node can act keeps its mass.
type ratChain struct {
	N, M, k, kl, R int
	eps            *big.Rat
	push, pull     bool
	rows           map[[3]int][]*big.Rat
}

func ratPow(x *big.Rat, e int) *big.Rat {
	r := big.NewRat(1, 1)
	for range e {
		r.Mul(r, x)
	}
	return r
}

func ratHyp(j, k, K, n int) *big.Rat {
	if j > k || j > K || k-j > n-K {
		return new(big.Rat)
	}
	num := new(big.Int).Mul(new(big.Int).Binomial(int64(K), int64(j)), new(big.Int).Binomial(int64(n-K), int64(k-j)))
	return new(big.Rat).SetFrac(num, new(big.Int).Binomial(int64(n), int64(k)))
}

// missAll is the chance that one sender of f pushes misses a given set of
// a uninformed live nodes.
func (c *ratChain) missAll(f, a int) *big.Rat {
	s := new(big.Rat)
	for j := 0; j <= f; j++ {
		s.Add(s, new(big.Rat).Mul(ratHyp(j, f, a, c.N-1), ratPow(c.eps, j)))
	}
	return s
}

// row is the law of the new count from i informed, full senders of k and
// last senders of kl.
func (c *ratChain) row(i, full, last int) []*big.Rat {
	key := [3]int{i, full, last}
	if r, ok := c.rows[key]; ok {
		return r
	}
	U := c.M - i
	one := big.NewRat(1, 1)
	h := big.NewRat(1, 1)
	if c.pull {
		okr := new(big.Rat).Sub(one, c.eps)
		q := new(big.Rat).Sub(one, new(big.Rat).Mul(okr, okr))
		h = new(big.Rat)
		for j := 0; j <= c.k; j++ {
			h.Add(h, new(big.Rat).Mul(ratHyp(j, c.k, i, c.N-1), ratPow(q, j)))
		}
	}
	missed := make([]*big.Rat, U+1) // P(a given set of a is missed)
	for a := range missed {
		m := ratPow(h, a)
		if c.push {
			m.Mul(m, ratPow(c.missAll(c.k, a), full))
			m.Mul(m, ratPow(c.missAll(c.kl, a), last))
		}
		missed[a] = m
	}
	r := make([]*big.Rat, U+1)
	for d := 0; d <= U; d++ {
		s := new(big.Rat)
		for t := 0; t <= d; t++ {
			term := new(big.Rat).Mul(missed[U-d+t], new(big.Rat).SetInt(new(big.Int).Binomial(int64(d), int64(t))))
			if t%2 == 1 {
				s.Sub(s, term)
			} else {
				s.Add(s, term)
			}
		}
		r[d] = s.Mul(s, new(big.Rat).SetInt(new(big.Int).Binomial(int64(U), int64(d))))
	}
	c.rows[key] = r
	return r
}

type ratState struct {
	ages []int
	p    *big.Rat
}

func (s ratState) informed() int {
	n := 0
	for _, a := range s.ages {
		n += a
	}
	return n
}

// stopped reports whether no node of s can act.
func (c *ratChain) stopped(s ratState) bool {
	i := s.informed()
	return i == c.M || (!c.pull && c.R > 0 && s.ages[c.R] == i)
}

// step is one round of the chain from the states cur.
func (c *ratChain) step(cur []ratState) []ratState {
	next := map[string]*ratState{}
	add := func(ages []int, p *big.Rat) {
		k := fmt.Sprint(ages)
		if t, ok := next[k]; ok {
			t.p.Add(t.p, p)
			return
		}
		next[k] = &ratState{ages: ages, p: new(big.Rat).Set(p)}
	}
	for _, s := range cur {
		if c.stopped(s) {
			add(s.ages, s.p)
			continue
		}
		i := s.informed()
		full, last := i, 0
		if c.R > 0 {
			full, last = 0, s.ages[c.R-1]
			for a := 0; a < c.R-1; a++ {
				full += s.ages[a]
			}
		}
		for d, q := range c.row(i, full, last) {
			if q.Sign() == 0 {
				continue
			}
			var ages []int
			if c.R > 0 {
				ages = make([]int, c.R+1)
				ages[0] = d
				copy(ages[1:c.R], s.ages[:c.R-1])
				ages[c.R] = s.ages[c.R] + s.ages[c.R-1]
			} else {
				ages = []int{i + d}
			}
			add(ages, new(big.Rat).Mul(s.p, q))
		}
	}
	out := make([]ratState, 0, len(next))
	for _, k := range slices.Sorted(maps.Keys(next)) {
		out = append(out, *next[k])
	}
	return out
}

// chances are P(T_L > D) (T_L = ∞ counted) and the expected uninformed
// share of the states, and the chance some live node is uninformed.
func (c *ratChain) chances(states []ratState, target int) (late, share, some *big.Rat) {
	late, share, some = new(big.Rat), new(big.Rat), new(big.Rat)
	for _, s := range states {
		i := s.informed()
		if i < target {
			late.Add(late, s.p)
		}
		if i < c.M {
			some.Add(some, s.p)
		}
		share.Add(share, new(big.Rat).Mul(s.p, big.NewRat(int64(c.M-i), int64(c.M))))
	}
	return late, share, some
}

// within reports whether the truth lies in the stated [v(1 − ρ), v(1 + ρ)
// + dropped], with a margin of 1e-300 for the conversion of the truth.
func within(truth *big.Rat, v, rho, dropped float64) bool {
	x, _ := truth.Float64()
	return x >= v*(1-rho)-1e-300 && x <= v*(1+rho)+dropped+1e-300
}

// TestDeepChancesAgainstRationalChain checks the chances of a miss that
// Law and BudgetLaw state relatively (Result: LateD and ResidueD within
// ρ + LostD/v, Residue and PMiss within ρ + (Lost + Remaining)/v) against
// the chain in exact rationals (ratChain, rows by inclusion–exclusion),
// from the first rounds down to chances near 1e-30, where the mass the
// float chain drops (states below exactDrop = 1e-22) is no longer
// negligible: there the interval must widen, not miss. ε = 1/4 is exact
// in binary. It fails if the relative rounding bound is taken as 0 where
// it matters, or if LateD is read from the PMF (1 − Σ, which cancels: at
// N 300 it said 1.5e-14 for 6.8e-15).
func TestDeepChancesAgainstRationalChain(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name                string
		N, failed, k, B     int
		push, pull          bool
		target, maxD, kl, R int
	}{
		{name: "push-pull", N: 12, failed: 2, k: 2, push: true, pull: true, target: 10, maxD: 26},
		{name: "push-pull L0.8", N: 12, failed: 2, k: 2, push: true, pull: true, target: 8, maxD: 18},
		{name: "pull", N: 10, k: 2, pull: true, target: 10, maxD: 40},
		{name: "push", N: 11, failed: 1, k: 2, push: true, target: 10, maxD: 40},
		{name: "push B5", N: 10, k: 2, B: 5, push: true, target: 10, maxD: 12},
		{name: "push B24", N: 8, k: 4, B: 24, push: true, target: 8, maxD: 8},
		{name: "push-pull B2", N: 10, failed: 1, k: 1, B: 2, push: true, pull: true, target: 9, maxD: 60},
	} {
		t.Run(c.name, func(t *testing.T) {
			M := c.N - c.failed
			rc := &ratChain{N: c.N, M: M, k: c.k, eps: big.NewRat(1, 4), push: c.push, pull: c.pull, rows: map[[3]int][]*big.Rat{}}
			R := 0
			if c.B > 0 {
				R = (c.B + c.k - 1) / c.k
				rc.R, rc.kl = R, c.B-c.k*(R-1)
			}
			start := ratState{ages: []int{1}, p: big.NewRat(1, 1)}
			if R > 0 {
				start.ages = make([]int, R+1)
				start.ages[0] = 1
			}
			states := []ratState{start}
			deepest := 1.0
			shares := []*big.Rat{new(big.Rat).SetFrac64(int64(M-1), int64(M))} // after round t
			for D := 1; D <= c.maxD; D++ {
				states = rc.step(states)
				late, share, _ := rc.chances(states, c.target)
				shares = append(shares, share)
				ch := New(Params{M: M, N1: c.N - 1, K: c.k, Budget: c.B, R: R, Target: c.target, D: D, Eps: 0.25, Push: c.push, Pull: c.pull})
				run := ch.Law
				if c.B > 0 {
					run = ch.BudgetLaw
				}
				res, err := run(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Late) <= D || res.RelBy[D] != res.RelD || res.LostBy[D] != res.LostD {
					t.Fatalf("D %d: Late has %d rounds, RelBy/LostBy %v/%v against RelD/LostD %v/%v", D, len(res.Late), res.RelBy, res.LostBy, res.RelD, res.LostD)
				}
				lateD := res.Late[D]
				if !within(late, lateD, res.RelD, res.LostD) {
					t.Errorf("D %d: P(T_L > D) = %.10g (ρ %.2g, dropped %.2g), rationals %s", D, lateD, res.RelD, res.LostD, late.FloatString(30))
				}
				if !within(share, res.ResidueD, res.RelD, res.LostD) {
					t.Errorf("D %d: ResidueD = %.10g (ρ %.2g, dropped %.2g), rationals %s", D, res.ResidueD, res.RelD, res.LostD, share.FloatString(30))
				}
				// Without a budget the chain also states the share after
				// every round (ResidueBy), within Late's bounds.
				if c.B == 0 {
					if len(res.ResidueBy) <= D {
						t.Fatalf("D %d: ResidueBy has %d rounds", D, len(res.ResidueBy))
					}
					for r := 0; r <= D; r++ {
						if !within(shares[r], res.ResidueBy[r], res.RelBy[r], res.LostBy[r]) {
							t.Errorf("D %d: ResidueBy[%d] = %.10g, rationals %s", D, r, res.ResidueBy[r], shares[r].FloatString(30))
						}
					}
				}
				// Above 1e-12 the stated relative error must be small (the
				// point of stating it relatively).
				if x, _ := late.Float64(); x > 1e-12 && res.RelD+res.LostD/lateD > 1e-9 {
					t.Errorf("D %d: P(T_L > D) %.3g stated within %.2g", D, x, res.RelD+res.LostD/lateD)
				}
				deepest = min(deepest, res.ResidueD)
			}
			if c.B == 0 || c.pull {
				if deepest > 1e-12 {
					t.Errorf("deepest ResidueD %.3g: the case does not reach the deep tail", deepest)
				}
				return
			}
			// A budgeted push stops: Residue and PMiss at its end.
			ch := New(Params{M: M, N1: c.N - 1, K: c.k, Budget: c.B, R: R, Target: c.target, Eps: 0.25, Push: true})
			res, err := ch.BudgetLaw(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for range M * R {
				states = rc.step(states)
			}
			for _, s := range states {
				if !rc.stopped(s) {
					t.Fatalf("a state still acts after %d more rounds", M*R)
				}
			}
			_, share, some := rc.chances(states, c.target)
			end := res.Lost + res.Remaining
			if c.B == 24 && res.Residue > 1e-9 {
				t.Errorf("Residue %.3g: the case does not reach the deep tail", res.Residue)
			}
			if !within(share, res.Residue, res.RelEnd, end) || !within(some, res.PMiss, res.RelEnd, end) {
				t.Errorf("Residue %.10g, PMiss %.10g (ρ %.2g, dropped %.2g); rationals %s, %s", res.Residue, res.PMiss, res.RelEnd, end, share.FloatString(20), some.FloatString(20))
			}
		})
	}
}
