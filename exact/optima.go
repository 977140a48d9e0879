package exact

import (
	"context"
	"fmt"
	"math/big"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/enum"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// DropFormula selects the P_drop of TransitionOptima.
type DropFormula int

const (
	// DropSimplified is S = (n−c)/(n−s), the paper's simplification and the
	// exact per-item drop probability (Theorem A's proof).
	DropSimplified DropFormula = iota
	// DropFormula1 is the paper's formula (1), E = S·(1 − 1/C(n,s))
	// (PDrop).
	DropFormula1
)

var dropFormulaNames = enum.Names[DropFormula]{"simplified", "formula1"}

// String returns the formula's name; it never panics.
func (f DropFormula) String() string { return dropFormulaNames.Name(f) }

// ParseDropFormula maps "simplified" or "formula1" to its DropFormula.
func ParseDropFormula(s string) (DropFormula, error) {
	f, err := dropFormulaNames.Parse("P_drop formula", s)
	if err != nil {
		return 0, fmt.Errorf("exact: %w", err)
	}
	return f, nil
}

// MaxOptimaCache bounds c for TransitionOptima: it evaluates P_drop at
// every s ≤ c, and formula (1) costs one binomial C(n, s) each (measured at
// n = 10⁶: 0.5 s for c = 1000 and 4 s for c = 5000, against 0.02 s under S;
// it checks ctx between exchange sizes).
const MaxOptimaCache = 5000

// Optima are the exact optima over the integer exchange size s of two
// entries of Fig. 1, with p = s/c and q = P_drop(n, c, s):
//
//	P(11|10) = p(1−q)        (= P(11|01): a copy is made)
//	P(01|11) = p(1−p)q       (= P(10|11): one of two copies is dropped)
//
// Each argmax and argmin lists every s that attains the optimum (exact
// ties), increasing.
type Optima struct {
	Items, Cache int
	Formula      DropFormula
	// S is the range scanned: s = 1..S, S = min(c, n−1).
	S int
	// P11ArgMax maximise P(11|10), whose maximum is P11Max.
	P11ArgMax []int
	P11Max    *big.Rat
	// P01ArgMax maximise P(01|11) (maximum P01Max) and P01ArgMin minimise
	// it (minimum P01Min).
	P01ArgMax, P01ArgMin []int
	P01Max, P01Min       *big.Rat
}

// TransitionOptima scans s = 1..min(c, n−1) and returns the exact argmax of
// P(11|10) and the exact argmax and argmin of P(01|11) under the P_drop
// formula f, all in rational arithmetic (Optima). It answers whether
// "optimising" P(11|10) optimises P(01|11) as well: under S,
// P(01|11) = P(11|10)·(n−c)/c for every s, so their argmaxes coincide and
// the argmin of P(01|11) is s = c (p = 1, nothing is dropped; for c < n);
// under formula (1) the two can part (docs/MODEL.md §4).
//
// It needs 1 ≤ c ≤ MaxOptimaCache and c ≤ n (a *gossip.FieldError naming
// Cache or Items otherwise; n beyond what PDrop takes is PDrop's error),
// and checks ctx between exchange sizes.
func TransitionOptima(ctx context.Context, n, c int, f DropFormula) (*Optima, error) {
	if err := ctxguard.Check("exact", ctx); err != nil {
		return nil, err
	}
	switch {
	case c < 1 || c > MaxOptimaCache:
		return nil, fielderr.New("exact", "Cache", "= %d: TransitionOptima needs 1 ≤ Cache ≤ %d", c, MaxOptimaCache)
	case n < c || n < 2:
		return nil, fielderr.New("exact", "Items", "= %d: need Items ≥ Cache = %d and Items ≥ 2", n, c)
	case !dropFormulaNames.Valid(f):
		return nil, fmt.Errorf("exact: %v is not a P_drop formula", f)
	}
	o := &Optima{Items: n, Cache: c, Formula: f, S: min(c, n-1)}
	one := big.NewRat(1, 1)
	for s := 1; s <= o.S; s++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sh := gossip.Shuffle{Items: n, Cache: c, Exchange: s}
		var q *big.Rat
		var err error
		if f == DropSimplified {
			q, err = PDropSimplified(sh)
		} else {
			q, err = PDrop(sh)
		}
		if err != nil {
			return nil, err
		}
		p := big.NewRat(int64(s), int64(c))
		p11 := new(big.Rat).Sub(one, q)
		p11.Mul(p11, p)
		p01 := new(big.Rat).Sub(one, p)
		p01.Mul(p01, p).Mul(p01, q)
		o.P11ArgMax, o.P11Max = better(o.P11ArgMax, o.P11Max, s, p11, 1)
		o.P01ArgMax, o.P01Max = better(o.P01ArgMax, o.P01Max, s, p01, 1)
		o.P01ArgMin, o.P01Min = better(o.P01ArgMin, o.P01Min, s, p01, -1)
	}
	return o, nil
}

// better updates the optimisers args with value best by s with value v:
// sign 1 keeps the largest, −1 the smallest, and equal values join.
func better(args []int, best *big.Rat, s int, v *big.Rat, sign int) ([]int, *big.Rat) {
	if best == nil {
		return []int{s}, v
	}
	switch d := v.Cmp(best) * sign; {
	case d > 0:
		return []int{s}, v
	case d == 0:
		return append(args, s), best
	}
	return args, best
}
