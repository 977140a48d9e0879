package report

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/report/internal/claim"
)

// The claim of the paper's Sec. 3.5: at the s that maximises P(11|10)
// (and P(11|01)), "P(01|11) and P(10|11) are optimized as well". By
// Fig. 1, P(11|10) = p(1 − q) and P(01|11) = P(10|11) = p(1 − p)q with
// p = s/c and q = P_drop; under S = (n−c)/(n−s), 1 − q = (c−s)/(n−s) and
// 1 − p = (c−s)/c, so P(01|11) = ((n−c)/c)·P(11|10) for every s: the two
// have the same argmax (an identity). Under formula (1), q = S·(1 −
// 1/C(n,s)) (Theorem A), and the argmaxes are found by exact rational
// arithmetic over every s = 1..min(c, n−1). With loss ε (LOSS.md's
// matrix, a = 1 − ε), P(11|10) = a·p·(a(1 − q) + ε) while P(10|11) =
// a·p(1 − p)q and P(01|11) = a²·p(1 − p)q keep the lossless argmax.

// OptimaRow is one (n, c) and drop probability: the exact integer argmax
// of P(11|10), the argmax and argmin of P(01|11) (the smallest s where
// several tie), and whether the two argmaxes agree; Loss is ε (0: Fig. 1).
type OptimaRow struct {
	N, C      int
	PDrop     string // "S" or "formula (1)"
	Loss      string // ε as a fraction ("0", "1/10")
	ArgmaxP11 int
	ArgmaxP01 int
	ArgminP01 int
	Same      bool
}

// optimaGrid are the (n, c) of section 6's grid of s* and a few small
// shuffles where formula (1) and S differ most.
var optimaGrid = [][2]int{{7, 4}, {12, 6}, {20, 10}, {30, 10}, {200, 50}, {200, 100}, {500, 50}, {500, 100}, {500, 250}, {1000, 50}, {1000, 100}, {1000, 250}, {2000, 50}, {2000, 100}, {2000, 250}, {5000, 50}, {5000, 100}, {5000, 250}}

// optimaLosses are the message-loss probabilities of the table.
var optimaLosses = []*big.Rat{new(big.Rat), big.NewRat(1, 10)}

// transitionOptima returns the argmax of P(11|10) and the argmax and
// argmin of P(01|11) over s = 1..min(c, n−1), exactly, with q from pdrop
// and loss eps (LOSS.md: P(11|10) = a·p·(a(1−q) + ε), P(01|11) =
// a²·p(1−p)q).
func transitionOptima(ctx context.Context, n, c int, eps *big.Rat, pdrop func(gossip.Shuffle) (*big.Rat, error)) (amax11, amax01, amin01 int, err error) {
	one := big.NewRat(1, 1)
	a := new(big.Rat).Sub(one, eps)
	var best11, best01, least01 *big.Rat
	for s := 1; s <= min(c, n-1); s++ {
		if err := ctx.Err(); err != nil {
			return 0, 0, 0, err
		}
		q, err := pdrop(gossip.Shuffle{Items: n, Cache: c, Exchange: s})
		if err != nil {
			return 0, 0, 0, err
		}
		p := big.NewRat(int64(s), int64(c))
		oneMinusQ := new(big.Rat).Sub(one, q)
		// a·p·(a(1−q) + ε)
		p11 := new(big.Rat).Mul(a, oneMinusQ)
		p11.Add(p11, eps).Mul(p11, p).Mul(p11, a)
		// a²·p(1−p)q
		p01 := new(big.Rat).Sub(one, p)
		p01.Mul(p01, p).Mul(p01, q).Mul(p01, a).Mul(p01, a)
		if best11 == nil || p11.Cmp(best11) > 0 {
			best11, amax11 = p11, s
		}
		if best01 == nil || p01.Cmp(best01) > 0 {
			best01, amax01 = p01, s
		}
		if least01 == nil || p01.Cmp(least01) < 0 {
			least01, amin01 = p01, s
		}
	}
	return amax11, amax01, amin01, nil
}

// optima computes the table.
func optima(ctx context.Context) ([]OptimaRow, error) {
	var rows []OptimaRow
	for _, eps := range optimaLosses {
		for _, nc := range optimaGrid {
			for _, v := range []struct {
				name string
				f    func(gossip.Shuffle) (*big.Rat, error)
			}{{"S", exact.PDropSimplified}, {"formula (1)", exact.PDrop}} {
				a11, a01, m01, err := transitionOptima(ctx, nc[0], nc[1], eps, v.f)
				if err != nil {
					return nil, err
				}
				rows = append(rows, OptimaRow{N: nc[0], C: nc[1], PDrop: v.name, Loss: eps.RatString(), ArgmaxP11: a11, ArgmaxP01: a01, ArgminP01: m01, Same: a11 == a01})
			}
		}
	}
	return rows, nil
}

// optimaRule judges "then P(01|11) and P(10|11) are optimized as well" on
// the lossless rows, reading "optimized" as extremal at the same s: the
// argmax of P(01|11) equal to that of P(11|10) at every (n, c) under S
// (the per-item drop probability, section 1) and under formula (1) holds;
// under S everywhere but not under formula (1) somewhere holds with a
// qualification; under S somewhere not does not hold.
func optimaRule(rows []OptimaRow) string {
	if len(rows) == 0 {
		return claim.Unchecked
	}
	v := claim.Holds
	for _, r := range rows {
		switch {
		case r.Loss != "0" || r.Same:
		case r.PDrop == "S":
			return claim.Fails
		default:
			v = claim.Qualified
		}
	}
	return v
}

const optimaRuleText = "exact rational arithmetic over every s = 1..min(c, n−1), on section 6's grid of (n, c) and small shuffles, without loss, \"optimized\" read as extremal at the same s: the argmax of P(01|11) (= P(10|11)) equal to that of P(11|10) at every point under S (the per-item drop probability, section 1) and under formula (1) holds; under S at every point but not under formula (1) at some holds with a qualification; under S not at some point does not hold"

func (r *Network) optimaVerdict() Verdict {
	same, total, minAtC := 0, 0, 0
	var differ, lossy []string
	for _, row := range r.Optima {
		if row.Loss != "0" {
			if !row.Same {
				lossy = append(lossy, fmt.Sprintf("(%d, %d, %s): %d vs %d", row.N, row.C, row.PDrop, row.ArgmaxP11, row.ArgmaxP01))
			}
			continue
		}
		total++
		if row.Same {
			same++
		} else {
			differ = append(differ, fmt.Sprintf("(%d, %d, %s): %d vs %d", row.N, row.C, row.PDrop, row.ArgmaxP11, row.ArgmaxP01))
		}
		if row.ArgminP01 == row.C {
			minAtC++
		}
	}
	m := fmt.Sprintf("argmax P(01|11) = argmax P(11|10) at %d of %d (n, c, P_drop); under S an identity, P(01|11) = ((n−c)/c)·P(11|10), so the s that replicates fastest also loses copies fastest (the minimum of P(01|11) is at s = c at %d of %d)", same, total, minAtC, total)
	if len(differ) > 0 {
		m += "; they differ at " + strings.Join(differ, ", ")
	}
	if len(lossy) > 0 {
		m += fmt.Sprintf("; with loss ε = 1/10 the argmax of P(11|10) moves and they differ at %d of %d points (e.g. %s)", len(lossy), len(r.Optima)-total, lossy[0])
	}
	return Verdict{Claim: "Sec. 3.5: at the s that maximises P(11|10) and P(11|01), \"P(01|11) and P(10|11) are optimized as well\"", Verdict: optimaRule(r.Optima), Rule: optimaRuleText, Measured: m}
}

func optimaTable(rows []OptimaRow) *plots.Table {
	t := &plots.Table{Keys: []string{"n", "c", "p_drop", "loss", "argmax_p11_given_10", "argmax_p01_given_11", "argmin_p01_given_11", "same_argmax"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.N, r.C, r.PDrop, r.Loss, r.ArgmaxP11, r.ArgmaxP01, r.ArgminP01, r.Same})
	}
	return t
}
