package plots

import (
	"context"
	"math"
	"math/big"
	"strconv"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/sim"
)

// Fig4Curve is one curve of Fig. 4: log10 |E − S| against n for (c, s),
// with the γ form's log10 |γ − S| at every GammaEvery-th point as a check.
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

// Fig4Data computes Fig. 4's curves for every (c, s), n from c + step to
// nMax by step. Every value comes from exact rationals (package exact); the
// logarithm is taken of the exact difference, so nothing underflows.
func Fig4Data(ctx context.Context, cs, ss []int, nMax, step, gammaEvery int) ([]Fig4Curve, error) {
	var out []Fig4Curve
	for _, c := range cs {
		for _, s := range ss {
			if s > c {
				continue
			}
			f, err := exact.NewFormula1(c, s)
			if err != nil {
				return nil, err
			}
			cur := Fig4Curve{C: c, S: s}
			e := new(big.Rat)
			for i, n := 0, c+step; n <= nMax; i, n = i+1, n+step {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				f.At(e, n)
				sim, err := exact.PDropSimplified(n, c, s)
				if err != nil {
					return nil, err
				}
				l, ok := exact.Log10AbsDiff(e, sim)
				if !ok {
					cur.Equal++
					continue
				}
				cur.N = append(cur.N, float64(n))
				cur.Log10Diff = append(cur.Log10Diff, l)
				if gammaEvery > 0 && i%gammaEvery == 0 {
					g, _ := exact.PDropGamma(n, c, s)
					if g.Cmp(e) != 0 {
						cur.GammaMismatches++
					}
					if lg, ok := exact.Log10AbsDiff(g, sim); ok {
						cur.GammaN = append(cur.GammaN, float64(n))
						cur.GammaDiff = append(cur.GammaDiff, lg)
					}
				}
			}
			out = append(out, cur)
		}
	}
	return out, nil
}

// Fig4 draws Fig. 4 as one panel per cache size c: a curve per s, and the
// γ form's values as open circles over them.
func Fig4(curves []Fig4Curve) []*Spec {
	var specs []*Spec
	byC := map[int]*Spec{}
	for _, cu := range curves {
		sp, ok := byC[cu.C]
		if !ok {
			sp = &Spec{
				Title:        "Fig. 4: formula (1) E against S = (n−c)/(n−s), c = " + strconv.Itoa(cu.C),
				XLabel:       "number of items n",
				YLabel:       "log₁₀ |E(n,c,s) − S(n,c,s)|",
				LegendBottom: true, LegendLeft: true,
			}
			byC[cu.C] = sp
			specs = append(specs, sp)
		}
		col := len(sp.Series) / 2
		sp.Series = append(sp.Series, Series{Name: "s = " + strconv.Itoa(cu.S), X: cu.N, Y: cu.Log10Diff, Color: col})
		name := ""
		if col == 0 {
			name = "γ form (check)"
		}
		sp.Series = append(sp.Series, Series{Name: name, X: cu.GammaN, Y: cu.GammaDiff, Points: true, Open: true, Color: 6})
	}
	return specs
}

// Trajectory is the mean and sd of a simulation's x or y per round, as
// fractions of N, with the times 0..T.
type Trajectory struct {
	T, Mean, SD []float64
}

// SimTrajectories extracts the replication (x) and coverage (y) curves.
func SimTrajectories(res *sim.Result) (x, y Trajectory) {
	for _, r := range res.Summary() {
		t := float64(r.T)
		x.T = append(x.T, t)
		x.Mean = append(x.Mean, r.XMean)
		x.SD = append(x.SD, r.XSD)
		y.T = append(y.T, t)
		y.Mean = append(y.Mean, r.YMean)
		y.SD = append(y.SD, r.YSD)
	}
	return x, y
}

// ModelCurves evaluates the closed forms x(t), y(t) at t = 0..T.
func ModelCurves(m approx.Model, T int) (ts, xs, ys []float64) {
	for t := 0; t <= T; t++ {
		ts = append(ts, float64(t))
		xs = append(xs, m.X(float64(t)))
		ys = append(ys, m.Y(float64(t)))
	}
	return ts, xs, ys
}

// Gap is the largest |model − simulated mean| over rounds and where it is.
type Gap struct {
	Max float64
	At  float64
	// WithinSD is the share of rounds at which the model lies within one
	// standard deviation of the simulated mean.
	WithinSD float64
}

// CompareTrajectory measures the gap between a model curve and a simulated
// mean (same times).
func CompareTrajectory(model []float64, sim Trajectory) Gap {
	g := Gap{}
	within := 0
	for i := range sim.T {
		d := math.Abs(model[i] - sim.Mean[i])
		if d > g.Max {
			g.Max, g.At = d, sim.T[i]
		}
		if d <= sim.SD[i] {
			within++
		}
	}
	g.WithinSD = float64(within) / float64(len(sim.T))
	return g
}

// FirstReach returns the first time at which curve ≥ level, interpolating
// linearly between rounds, or NaN if it never does.
func FirstReach(ts, curve []float64, level float64) float64 {
	for i := range curve {
		if curve[i] >= level {
			if i == 0 {
				return ts[0]
			}
			f := (level - curve[i-1]) / (curve[i] - curve[i-1])
			return ts[i-1] + f*(ts[i]-ts[i-1])
		}
	}
	return math.NaN()
}

// TimeSeriesSpec draws model curves (solid) and simulated means with ±1 sd
// bands (dashed), one colour per case.
func TimeSeriesSpec(title, ylabel string, names []string, ts [][]float64, model [][]float64, sims []Trajectory, modelName, simName string) *Spec {
	sp := &Spec{Title: title, XLabel: "t (rounds)", YLabel: ylabel}
	for i := range names {
		sp.Series = append(sp.Series, Series{Name: names[i] + " " + modelName, X: ts[i], Y: model[i], Color: i})
		lo, hi := make([]float64, len(sims[i].T)), make([]float64, len(sims[i].T))
		for k := range lo {
			lo[k], hi[k] = sims[i].Mean[k]-sims[i].SD[k], sims[i].Mean[k]+sims[i].SD[k]
		}
		sp.Series = append(sp.Series, Series{Name: names[i] + " " + simName, X: sims[i].T, Y: sims[i].Mean, Lo: lo, Hi: hi, Color: i, Dashed: true})
	}
	return sp
}
