package exact

import (
	"math/big"
	"math/bits"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// Gamma sets z to the paper's sum
//
//	γ_s(n) = Σ_{d=0}^{s−1} C(n,d) / (s·C(s−1,d))
//
// for any integer n and s ≥ 1 (generalised binomials, so for n ≥ 0 the terms
// with d > n are 0), and to the empty sum 0 for s < 1, and returns z.
// Theorem B of the package doc proves γ_s(n) = (C(n,s) − 1)/(n − s) for
// n ≠ s; Gamma does not use that: it evaluates the sum itself, as the
// independent side of the identity.
//
// The terms are ratios of falling factorials, C(n,d)/C(m,d) = Π_{i<d}
// (n−i)/(m−i) with m = s − 1, so
//
//	s·γ_s(n) = 1 + r_0·(1 + r_1·(1 + … (1 + r_{m−1}))),   r_i = (n−i)/(m−i),
//
// which gammaSum evaluates by binary splitting: O(s) terms at the cost of a
// few products of numbers of the final size, instead of s additions of
// fractions each reduced by a gcd.
//
// A nil z is allocated. Where γ_s(n) may have more than MaxBinomialBits
// bits (s·bitlen(n)), Gamma returns nil and leaves z unchanged.
func Gamma(z *big.Rat, n, s int) *big.Rat {
	if z == nil {
		z = new(big.Rat)
	}
	if s < 1 {
		return z.SetInt64(0)
	}
	if int64(s) > MaxBinomialBits/int64(max(bits.Len64(uint64(max(n, 1))), 1)) {
		return nil
	}
	num, den := gammaSum(int64(n), int64(s))
	return z.SetFrac(num, den)
}

// gammaSum returns γ_s(n) = num/den unreduced, s ≥ 1.
func gammaSum(n, s int64) (num, den *big.Int) {
	m := s - 1
	if m == 0 {
		return big.NewInt(1), big.NewInt(1)
	}
	_, q, t := gammaSplit(n, m, 0, m)
	// s·γ = 1 + t/q, q = m!.
	num = t.Add(t, q)
	den = q.Mul(q, big.NewInt(s))
	return num, den
}

// gammaSplit returns, for the range [a, b) of i,
//
//	P = Π (n−i),   Q = Π (m−i),   T/Q = Σ_{d=a+1}^{b} Π_{i=a}^{d−1} r_i,
//
// by the recursion T(a,b) = T(a,c)·Q(c,b) + P(a,c)·T(c,b), which follows
// from Σ over (a, b] = Σ over (a, c] + (Π_{i=a}^{c−1} r_i)·Σ over (c, b].
func gammaSplit(n, m, a, b int64) (p, q, t *big.Int) {
	if b-a == 1 {
		return big.NewInt(n - a), big.NewInt(m - a), big.NewInt(n - a)
	}
	c := a + (b-a)/2
	p1, q1, t1 := gammaSplit(n, m, a, c)
	p2, q2, t2 := gammaSplit(n, m, c, b)
	t1.Mul(t1, q2)
	t1.Add(t1, t2.Mul(p1, t2))
	return p1.Mul(p1, p2), q1.Mul(q1, q2), t1
}

// PDropGamma returns the paper's γ form
//
//	(n−c) / ((n−s) + 1/γ_s(n)) = (n−c)·γ / ((n−s)·γ + 1)
//
// with γ_s(n) from its sum (Gamma's evaluation), as a reduced fraction. By
// Theorems A and B it equals formula (1); to reduce it without a gcd of big
// numbers, PDropGamma compares it with PDrop's reduced closed form by one
// cross-multiplication and, when they are equal, returns that fraction,
// which is then the γ form's own reduced value (reduced fractions are
// unique). Were they to differ, it would reduce the γ form by a gcd. It
// takes the shuffles Validate accepts whose sum has at most
// MaxBinomialBits bits (s·bitlen(n)): the sum runs over all s terms even
// where C(n, s) is small (s close to n).
func PDropGamma(p gossip.Shuffle) (*big.Rat, error) {
	e, err := PDrop(p)
	if err != nil {
		return nil, err
	}
	if b := int64(p.Exchange) * int64(bits.Len64(uint64(p.Items))); b > MaxBinomialBits {
		return nil, fielderr.New("exact", "Shuffle.Exchange", "= %d with Items = %d: the γ sum has s·bitlen(n) = %d bits, above the limit MaxBinomialBits = %d", p.Exchange, p.Items, b, MaxBinomialBits)
	}
	return pdropGamma(p, e), nil
}

// pdropGamma is PDropGamma given e = PDrop(p).
func pdropGamma(p gossip.Shuffle, e *big.Rat) *big.Rat {
	g, h := gammaSum(int64(p.Items), int64(p.Exchange)) // γ = g/h
	num := new(big.Int).Mul(g, big.NewInt(int64(p.Items-p.Cache)))
	den := new(big.Int).Mul(g, big.NewInt(int64(p.Items-p.Exchange)))
	den.Add(den, h)
	l := new(big.Int).Mul(num, e.Denom())
	r := new(big.Int).Mul(den, e.Num())
	if l.Cmp(r) == 0 {
		return new(big.Rat).Set(e)
	}
	return new(big.Rat).SetFrac(num, den)
}
