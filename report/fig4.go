package report

import (
	"context"
	"fmt"
	"math/big"
	"strconv"

	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/plots"
)

// Fig4Curve is one curve of Fig. 4: log10 |E − S| against n for (c, s),
// with the γ form's log10 |γ − S| at every fourth point as a check.
type Fig4Curve struct {
	C, S      int
	N         []float64
	Log10Diff []float64 // log10 |E(n,c,s) − S(n,c,s)|, from exact fractions
	GammaN    []float64
	GammaDiff []float64 // log10 |γ form − S| at GammaN
	// GammaMismatches counts points where the γ form ≠ formula (1) exactly.
	GammaMismatches int
	// Equal counts points with E = S exactly (s = 1 never; n = c always),
	// which have no logarithm and are left out of the curve.
	Equal int
}

// fig4GammaEvery is the spacing of the γ-form check points on each curve.
const fig4GammaEvery = 4

// Fig4Curves computes Fig. 4's curves for every (c, s) of the scale, n
// from c + Fig4Step to Fig4NMax by Fig4Step. Every value comes from exact
// rationals (package exact); the logarithm is taken of the exact
// difference, so nothing underflows.
func (s *Study) Fig4Curves(ctx context.Context) ([]Fig4Curve, error) {
	if err := s.ready(false); err != nil {
		return nil, err
	}
	if err := ctxguard.Check("report", ctx); err != nil {
		return nil, err // the worker pool would panic on it
	}
	sc := s.Scale
	cs, ss := sc.Fig4C, sc.Fig4S
	if cs == nil {
		cs = []int{250, 500}
	}
	if ss == nil {
		ss = []int{1, 2, 5, 10, 25}
	}
	type pair struct{ c, s int }
	var pairs []pair
	for _, c := range cs {
		for _, sz := range ss {
			if sz <= c {
				pairs = append(pairs, pair{c, sz})
			}
		}
	}
	if len(pairs) == 0 {
		return nil, nil
	}
	// Each curve is exact and independent of the others: they run on the
	// study's workers, each into its own slot, so the result does not
	// depend on the workers.
	out := make([]Fig4Curve, len(pairs))
	err := parallel.For(ctx, len(pairs), s.opt.Workers, func() func(context.Context, int) error {
		return func(ctx context.Context, k int) error {
			cur, err := fig4Curve(ctx, pairs[k].c, pairs[k].s, sc.Fig4Step, sc.Fig4NMax)
			out[k] = cur
			return err
		}
	}, nil)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// fig4Curve is the curve of (c, s), n from c + step to nmax by step.
func fig4Curve(ctx context.Context, c, sz, step, nmax int) (Fig4Curve, error) {
	f, err := exact.NewFormula1(ctx, c, sz)
	if err != nil {
		return Fig4Curve{}, err
	}
	cur := Fig4Curve{C: c, S: sz}
	e := new(big.Rat)
	for i, n := 0, c+step; n <= nmax; i, n = i+1, n+step {
		if err := ctx.Err(); err != nil {
			return Fig4Curve{}, err
		}
		if _, err := f.At(e, n); err != nil {
			return Fig4Curve{}, err
		}
		simp, err := exact.PDropSimplified(gossip.Shuffle{Items: n, Cache: c, Exchange: sz})
		if err != nil {
			return Fig4Curve{}, err
		}
		l, ok := exact.Log10AbsDiff(e, simp)
		if !ok {
			cur.Equal++
			continue
		}
		cur.N = append(cur.N, float64(n))
		cur.Log10Diff = append(cur.Log10Diff, l)
		if i%fig4GammaEvery == 0 {
			g, _ := exact.PDropGamma(gossip.Shuffle{Items: n, Cache: c, Exchange: sz})
			if g.Cmp(e) != 0 {
				cur.GammaMismatches++
			}
			if lg, ok := exact.Log10AbsDiff(g, simp); ok {
				cur.GammaN = append(cur.GammaN, float64(n))
				cur.GammaDiff = append(cur.GammaDiff, lg)
			}
		}
	}
	return cur, nil
}

// Fig4Specs draws Fig. 4 as one panel per cache size c: a curve per s,
// and the γ form's values as open circles over them.
func Fig4Specs(curves []Fig4Curve) []*plots.Spec {
	var specs []*plots.Spec
	byC := map[int]*plots.Spec{}
	for _, cu := range curves {
		if len(cu.N) == 0 {
			continue // no n in range for this c: nothing to draw
		}
		sp, ok := byC[cu.C]
		if !ok {
			sp = &plots.Spec{
				Title:  "Fig. 4: formula (1) E against S = (n−c)/(n−s), c = " + strconv.Itoa(cu.C),
				XLabel: "number of items n",
				YLabel: "log₁₀ |E(n,c,s) − S(n,c,s)|",
			}
			byC[cu.C] = sp
			specs = append(specs, sp)
		}
		col := len(sp.Series) / 2
		sp.Series = append(sp.Series, plots.Series{Name: "s = " + strconv.Itoa(cu.S), X: cu.N, Y: cu.Log10Diff, Color: col},
			plots.Series{X: cu.GammaN, Y: cu.GammaDiff, Points: true, Open: true, Color: 6})
	}
	// The check's circles on every curve: one key entry, after the curves.
	for _, sp := range specs {
		sp.Key = []plots.Series{{Name: fmt.Sprintf("open circles: the γ form (n−c)/((n−s)+1/γ), every %d-th n (check)", fig4GammaEvery), Points: true, Open: true, Color: 6}}
	}
	return specs
}
