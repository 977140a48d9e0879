package exact

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/gossipkit/gossipkit/internal/ctxguard"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// MaxS is the largest exchange size accepted by formula (1)'s double sum
// (PDropDoubleSum, NewFormula1, VerifyGamma). Its inner-sum table holds s
// big integers of about s·log2(c) + log2(lcm(1..s)) bits and costs O(s²)
// multiplications to build; at s = 5000 that is already minutes. PDrop,
// which uses the closed form, is not bound by it.
const MaxS = 5000

// Formula1 evaluates formula (1) by its double sum, for fixed (c, s) and
// any n ≥ c, n > s. It is the independent check of the closed form that
// PDrop uses (the package doc proves that the two agree). Building it does
// the work that does not depend on n, so a sweep over n costs O(s)
// big-integer multiplications per point.
//
// Writing both hypergeometric weights out, the C(c,k) cancel and
//
//	E(n,c,s) = Σ_{k=0}^{s−1} C(n−c, s−k)·(s−k)·U_k / (C(n,s)·L),
//	U_k      = Σ_{ŝ=0}^{k} C(s,ŝ)·C(c−s,k−ŝ)·L/(s−ŝ),   L = lcm(1..s),
//
// so every term is an integer and one reduction ends the computation. The
// binomial rows come from ratio recurrences, and k runs only where
// C(n−c, s−k) ≠ 0, i.e. k ≥ max(0, s+c−n), as in the paper's case split.
type Formula1 struct {
	c, s int
	l    *big.Int   // lcm(1..s)
	u    []*big.Int // U_k, k = 0..s−1
}

// NewFormula1 prepares formula (1)'s double sum for cache size c and
// exchange size s, 1 ≤ s ≤ c ≤ gossip.MaxItems, s ≤ MaxS. It checks ctx
// between rows of its O(s²) big-integer sums (s = 5000 with c − s ≥ s takes
// minutes).
func NewFormula1(ctx context.Context, c, s int) (*Formula1, error) {
	if err := ctxguard.Check("exact", ctx); err != nil {
		return nil, err
	}
	switch {
	case s < 1 || s > c:
		return nil, fmt.Errorf("exact: NewFormula1: s = %d: need 1 ≤ s ≤ c = %d", s, c)
	case s > MaxS:
		return nil, fmt.Errorf("exact: NewFormula1: s = %d: the double sum needs s ≤ MaxS = %d (PDrop's closed form takes larger s)", s, MaxS)
	case c > gossip.MaxItems:
		return nil, fmt.Errorf("exact: NewFormula1: c = %d: need c ≤ gossip.MaxItems = %d", c, gossip.MaxItems)
	}
	l := lcmUpTo(s)
	bs := binomialRow(s, s)   // C(s, ŝ)
	bc := binomialRow(c-s, s) // C(c−s, j), j ≤ s
	w := make([]*big.Int, s)  // C(s,ŝ)·L/(s−ŝ)
	t := new(big.Int)
	for sh := 0; sh < s; sh++ {
		w[sh] = new(big.Int).Quo(l, t.SetInt64(int64(s-sh)))
		w[sh].Mul(w[sh], bs[sh])
	}
	u := make([]*big.Int, s)
	for k := 0; k < s; k++ {
		if k%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		acc := new(big.Int)
		for sh := 0; sh <= k; sh++ {
			if bc[k-sh].Sign() == 0 {
				continue
			}
			acc.Add(acc, t.Mul(w[sh], bc[k-sh]))
		}
		u[k] = acc
	}
	return &Formula1{c: c, s: s, l: l, u: u}, nil
}

// fraction returns E(n,c,s) as an unreduced numerator and denominator.
func (f *Formula1) fraction(n int) (num, den *big.Int) {
	s, m := f.s, n-f.c
	num = new(big.Int)
	t := new(big.Int)
	bin := big.NewInt(1) // C(m, j), j = s−k, from j = 0 upwards
	for j := 1; j <= s && j <= m; j++ {
		bin.Mul(bin, t.SetInt64(int64(m-j+1)))
		bin.Quo(bin, t.SetInt64(int64(j)))
		k := s - j
		t.Mul(bin, f.u[k])
		num.Add(num, t.Mul(t, big.NewInt(int64(j))))
	}
	// big.Int.Binomial, not Binomial: the check shares no code with PDrop.
	den = new(big.Int).Binomial(int64(n), int64(s))
	den.Mul(den, f.l)
	return num, den
}

// At sets z to E(n, c, s) by the double sum and returns z. n must make
// (n, c, s) a valid gossip.Shuffle: c ≤ n ≤ gossip.MaxItems and n > s. A nil
// z is allocated; a nil f (not made by NewFormula1) is an error.
func (f *Formula1) At(z *big.Rat, n int) (*big.Rat, error) {
	if f == nil || f.l == nil {
		return nil, errors.New("exact: Formula1.At: the Formula1 was not made by NewFormula1")
	}
	if z == nil {
		z = new(big.Rat)
	}
	if err := (gossip.Shuffle{Items: n, Cache: f.c, Exchange: f.s}).Validate(); err != nil {
		return nil, shuffleError("", err)
	}
	num, den := f.fraction(n)
	return z.SetFrac(num, den), nil
}

// PDropDoubleSum returns formula (1), E(n, c, s), evaluated by its double
// sum (Formula1), as a reduced fraction. It needs p.Exchange ≤ MaxS and
// costs O(s²) big-integer products: it is the independent check of PDrop,
// which returns the same value by the closed form at any s.
func PDropDoubleSum(ctx context.Context, p gossip.Shuffle) (*big.Rat, error) {
	if err := ctxguard.Check("exact", ctx); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, shuffleError("", err)
	}
	if p.Exchange > MaxS {
		return nil, fielderr.New("exact", "Shuffle.Exchange", "= %d: formula (1)'s double sum needs Exchange ≤ MaxS = %d", p.Exchange, MaxS)
	}
	f, err := NewFormula1(ctx, p.Cache, p.Exchange)
	if err != nil {
		return nil, err
	}
	return f.At(new(big.Rat), p.Items)
}
