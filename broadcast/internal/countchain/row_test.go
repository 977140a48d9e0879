package countchain

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"testing"
)

// protocol is broadcast.Protocol's push, pull and push–pull, for the
// tests' names and cases.
type protocol int

const (
	push protocol = iota
	pull
	pushPull
)

func (p protocol) pushes() bool { return p != pull }
func (p protocol) pulls() bool  { return p != push }
func (p protocol) String() string {
	return [...]string{"push", "pull", "push-pull"}[p]
}

// enumerate is the law of the new count in one round, by enumerating every
// peer choice and every loss pattern: nodes 0..i−1 informed, i..M−1
// uninformed live, M..N−1 down. fanouts[s] is the fanout of sender s (push);
// pulls says whether the uninformed live nodes ask k peers.
func enumerate(N, M, i, k int, fanouts []int, pulls bool, eps float64) []float64 {
	others := func(v int) []int {
		var o []int
		for u := range N {
			if u != v {
				o = append(o, u)
			}
		}
		return o
	}
	subsets := func(set []int, size int) [][]int {
		var out [][]int
		for mask := 0; mask < 1<<len(set); mask++ {
			if bits.OnesCount(uint(mask)) != size {
				continue
			}
			var s []int
			for j, u := range set {
				if mask>>j&1 == 1 {
					s = append(s, u)
				}
			}
			out = append(out, s)
		}
		return out
	}
	type act struct {
		node  int
		fan   int
		asker bool
	}
	var acts []act
	for s, f := range fanouts {
		acts = append(acts, act{s, f, false})
	}
	if pulls {
		for v := i; v < M; v++ {
			acts = append(acts, act{v, k, true})
		}
	}
	law := make([]float64, M-i+1)
	var rec func(a int, informed uint, p float64)
	rec = func(a int, informed uint, p float64) {
		if a == len(acts) {
			law[bits.OnesCount(informed)] += p
			return
		}
		ac := acts[a]
		choices := subsets(others(ac.node), ac.fan)
		for _, ch := range choices {
			// Each message of the act: lost or not (a pull needs two).
			var rec2 func(j int, inf uint, p float64)
			rec2 = func(j int, inf uint, p float64) {
				if j == len(ch) {
					rec(a+1, inf, p)
					return
				}
				u := ch[j]
				if ac.asker {
					if u < i { // an informed peer: request and reply
						for _, ok1 := range []bool{true, false} {
							for _, ok2 := range []bool{true, false} {
								pp := p
								if ok1 {
									pp *= 1 - eps
								} else {
									pp *= eps
								}
								if ok2 {
									pp *= 1 - eps
								} else {
									pp *= eps
								}
								ni := inf
								if ok1 && ok2 {
									ni |= 1 << uint(ac.node-i)
								}
								rec2(j+1, ni, pp)
							}
						}
						return
					}
					rec2(j+1, inf, p)
					return
				}
				if u >= i && u < M {
					rec2(j+1, inf|1<<uint(u-i), p*(1-eps))
					rec2(j+1, inf, p*eps)
					return
				}
				rec2(j+1, inf, p)
			}
			rec2(0, informed, p/float64(len(choices)))
		}
	}
	rec(0, 0, 1)
	return law
}

// TestRowAgainstEnumeration compares the one-round law of the chain (the
// pull binomial, the sender recursion and their composition, with two
// fanouts as a budget makes them) with the enumeration of all peer choices
// and loss patterns. Tolerance 1e-11: the enumeration sums up to ~10⁵
// products of ~20 factors each, so its own rounding error is up to
// ~10⁵·2⁻⁵³ ≈ 1e-11 (measured differences: up to 5e-12 for push–pull).
func TestRowAgainstEnumeration(t *testing.T) {
	t.Parallel()
	const eps = 0.25
	type tc struct {
		N, failed int
		p         protocol
		k, kl     int
	}
	var cases []tc
	for _, p := range []protocol{push, pull, pushPull} {
		cases = append(cases, tc{4, 0, p, 1, 0}, tc{5, 0, p, 2, 0}, tc{5, 1, p, 2, 0})
	}
	cases = append(cases, tc{5, 0, push, 3, 0}, tc{5, 0, pull, 3, 0})
	cases = append(cases, tc{5, 0, push, 3, 1}, tc{5, 1, pushPull, 2, 1})
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v/N=%d/failed=%d/k=%d/kl=%d", c.p, c.N, c.failed, c.k, c.kl), func(t *testing.T) {
			t.Parallel()
			M := c.N - c.failed
			p := Params{M: M, N1: c.N - 1, K: c.k, Target: M, Eps: eps, Push: c.p.pushes(), Pull: c.p.pulls()}
			if c.kl > 0 {
				p.Budget, p.R = c.k+c.kl, 2 // R = 2 rounds, the last with kl
			}
			ch := New(p)
			for i := 1; i < M; i++ {
				for last := 0; last <= i; last++ {
					if c.kl == 0 && last > 0 || !c.p.pushes() && last > 0 {
						break
					}
					full := i - last
					if !c.p.pushes() {
						full = 0
					}
					var fans []int
					for s := 0; s < full; s++ {
						fans = append(fans, c.k)
					}
					for s := 0; s < last; s++ {
						fans = append(fans, c.kl)
					}
					want := enumerate(c.N, M, i, c.k, fans, c.p.pulls(), eps)
					row, err := ch.Row(context.Background(), i, full, last)
					if err != nil {
						t.Fatal(err)
					}
					for d, w := range want {
						got := 0.0
						if j := d - row.Lo; j >= 0 && j < len(row.P) {
							got = row.P[j]
						}
						if math.Abs(got-w) > 1e-11 {
							t.Errorf("%v N=%d failed=%d k=%d kl=%d i=%d last=%d: P(D=%d) = %.16g, enumeration %.16g", c.p, c.N, c.failed, c.k, c.kl, i, last, d, got, w)
						}
					}
				}
			}
		})
	}
}

// TestRowAgainstInclusionExclusion checks the sender recursion at N = 24
// and 36 against the inclusion–exclusion form in exact rationals: with
// g(a) = Σ_j Hyp(j; k, a, N−1)·ε^j the chance that one sender misses a
// given set of a uninformed live nodes, and h(i) the pull miss,
//
//	P(D = d) = C(U, d) Σ_t (−1)^t C(d, t) [g(U−d+t)^i·h(i)^{U−d+t}]
//
// (h = 1 for push; pushes and pulls miss independently). ε = 1/4 and
// 1/8 are exact in binary. Tolerance 1e-13 absolute: the float recursion's
// relative error is below M(k+3)·u ≈ 2e-14.
func TestRowAgainstInclusionExclusion(t *testing.T) {
	hypRat := func(j, k, K, n int) *big.Rat {
		num := new(big.Int).Mul(new(big.Int).Binomial(int64(K), int64(j)), new(big.Int).Binomial(int64(n-K), int64(k-j)))
		return new(big.Rat).SetFrac(num, new(big.Int).Binomial(int64(n), int64(k)))
	}
	pow := func(x *big.Rat, e int) *big.Rat {
		r := big.NewRat(1, 1)
		for range e {
			r.Mul(r, x)
		}
		return r
	}
	for _, c := range []struct {
		N, failed, k int
		p            protocol
		eps          *big.Rat
		is           []int
	}{
		{24, 0, 1, push, big.NewRat(1, 4), []int{1, 5, 12, 20}},
		{24, 3, 3, push, big.NewRat(1, 8), []int{2, 9, 17}},
		{36, 5, 2, pushPull, big.NewRat(1, 4), []int{3, 15, 28}},
		{36, 0, 4, pushPull, big.NewRat(0, 1), []int{6, 20}},
	} {
		eps, _ := c.eps.Float64()
		M, n1 := c.N-c.failed, c.N-1
		ch := New(Params{M: M, N1: n1, K: c.k, Target: M, Eps: eps, Push: c.p.pushes(), Pull: c.p.pulls()})
		g := func(a int) *big.Rat {
			s := new(big.Rat)
			for j := 0; j <= min(a, c.k); j++ {
				if c.k-j > n1-a {
					continue
				}
				s.Add(s, new(big.Rat).Mul(hypRat(j, c.k, a, n1), pow(c.eps, j)))
			}
			return s
		}
		one := big.NewRat(1, 1)
		okr := new(big.Rat).Sub(one, c.eps)
		q := new(big.Rat).Sub(one, new(big.Rat).Mul(okr, okr))
		for _, i := range c.is {
			U := M - i
			h := big.NewRat(1, 1)
			if c.p.pulls() {
				h = new(big.Rat)
				for j := 0; j <= min(i, c.k); j++ {
					if c.k-j > n1-i {
						continue
					}
					h.Add(h, new(big.Rat).Mul(hypRat(j, c.k, i, n1), pow(q, j)))
				}
			}
			row, err := ch.Row(context.Background(), i, i, 0)
			if err != nil {
				t.Fatal(err)
			}
			for d := 0; d <= U; d++ {
				s := new(big.Rat)
				for tt := 0; tt <= d; tt++ {
					a := U - d + tt
					term := new(big.Rat).Mul(pow(g(a), i), pow(h, a))
					term.Mul(term, new(big.Rat).SetInt(new(big.Int).Binomial(int64(d), int64(tt))))
					if tt%2 == 1 {
						s.Sub(s, term)
					} else {
						s.Add(s, term)
					}
				}
				s.Mul(s, new(big.Rat).SetInt(new(big.Int).Binomial(int64(U), int64(d))))
				want, _ := s.Float64()
				got := 0.0
				if j := d - row.Lo; j >= 0 && j < len(row.P) {
					got = row.P[j]
				}
				if math.Abs(got-want) > 1e-13 {
					t.Errorf("%v N=%d k=%d i=%d: P(D=%d) = %.16g, inclusion–exclusion %.16g", c.p, c.N, c.k, i, d, got, want)
				}
			}
		}
	}
}
