package claim

import (
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/internal/stats"
)

// GrowthLo, GrowthHi: the growth window, as a share of the plateau.
const (
	GrowthLo = 0.1
	GrowthHi = 0.9
)

// Growth is a growth time: the rounds from GrowthLo to GrowthHi
// of the plateau (c/n for x, 1 for y), the ODE's against the mean over
// the runs ± its standard error; Censored runs did not reach the upper
// level within the horizon (their times are counted as the horizon, a
// lower bound, and the interval's upper end is then +Inf). Ratio = Mean /
// ODE with its interval [Lo, Hi] (Student's t over the runs at the level
// of ZDecide normal standard errors).
type Growth struct {
	ODE, Mean, SE  float64
	Runs, Censored int
	Ratio, Lo, Hi  float64
	// SD is the runs' sd, Delta = (Mean − ODE)/SD the growth distance
	// (growthdist.go) and DLo, DHi its interval.
	SD, Delta, DLo, DHi float64
}

// MeasureGrowth measures the rounds from the first count ≥ lo to the first ≥
// hi in each run against the ODE's ode rounds. A run that reaches lo but
// not hi within its horizon is censored: its time is counted as the rounds
// from lo to the horizon (a lower bound), and the ratio's interval has no
// upper end. A run that never reaches lo is censored alike from the last
// round (time 0).
func MeasureGrowth(runs [][]int32, lo, hi, ode float64) Growth {
	g := Growth{ODE: ode, Runs: len(runs)}
	first := func(c []int32, level float64) int {
		for t, v := range c {
			if float64(v) >= level {
				return t
			}
		}
		return -1
	}
	var ts []float64
	for _, c := range runs {
		a, b := first(c, lo), first(c, hi)
		switch {
		case a < 0:
			g.Censored++
			ts = append(ts, 0)
		case b < 0:
			g.Censored++
			ts = append(ts, float64(len(c)-1-a))
		default:
			ts = append(ts, float64(b-a))
		}
	}
	g.Mean, g.SE = MeanSE(ts)
	g.Ratio = g.Mean / ode
	h := TCrit(ZDecide, len(ts)) * g.SE / ode
	g.Lo, g.Hi = g.Ratio-h, g.Ratio+h
	g.SD = g.SE * math.Sqrt(float64(len(ts)))
	g.Delta, g.DLo, g.DHi = deltaInterval(g.Mean, g.SD, ode, len(ts))
	if g.Censored > 0 {
		g.Hi, g.DHi = math.Inf(1), math.Inf(1)
	}
	return g
}

// band is the interval of |δ| (absBand).
func (g Growth) Band() [2]float64 {
	a, b := absBand(g.DLo, g.DHi)
	if math.IsNaN(g.DLo) || math.IsNaN(g.DHi) {
		a, b = math.NaN(), math.NaN()
	}
	return [2]float64{a, b}
}

// RepsToDecide is the runs at which the growth distance's undecided
// interval would clear the threshold it Straddles (NaN when decided).
func (g Growth) RepsToDecide() float64 {
	b := g.Band()
	if math.IsNaN(b[0]) || math.IsInf(b[1], 1) {
		return math.NaN()
	}
	// The symmetric interval of |δ̂|, half-width that of δ's.
	v, h := math.Abs(g.Delta), (g.DHi-g.DLo)/2
	return bandRepsToDecide(g.Runs, v, v-h, v+h)
}

// worstDelta is the claims table's phrase of growth distances: the
// largest |δ| with its interval.
func worstDelta(gs []Growth, runs string) string {
	if len(gs) == 0 {
		return "no growth measured"
	}
	w := gs[0]
	for _, g := range gs[1:] {
		if math.IsNaN(w.Delta) || math.Abs(g.Delta) > math.Abs(w.Delta) {
			w = g
		}
	}
	b := w.Band()
	return fmt.Sprintf("largest growth distance |δ| = %.2f sd (interval %.2f–%s; T %.1f against the ODE's %.1f), %s", math.Abs(w.Delta), b[0], hiText(b[1]), w.Mean, w.ODE, runs)
}

// describe writes a growth ratio with its interval.
func (g Growth) Describe() string {
	s := fmt.Sprintf("%.1f ± %.1f (sd) rounds against the ODE's %.1f (δ = %+.2f sd, interval %+.2f to %s; ratio %.2f)", g.Mean, g.SD, g.ODE, g.Delta, g.DLo, hiText(g.DHi), g.Ratio)
	if g.Censored > 0 {
		s += fmt.Sprintf(", %d of %d runs not there by the horizon", g.Censored, g.Runs)
	}
	return s
}

// MeanSE is the mean of v and its standard error (NaN for fewer than 2).
func MeanSE(v []float64) (mean, se float64) {
	m, sd := stats.MeanSD(v)
	if len(v) < 2 {
		return m, math.NaN()
	}
	return m, sd / math.Sqrt(float64(len(v)))
}

// GrowthRule grades growth distances (GradeBands).
func GrowthRule(gs []Growth) string {
	var bands [][2]float64
	for _, g := range gs {
		bands = append(bands, g.Band())
	}
	return GradeBands(bands)
}

// RunsText states the runs behind growth distances: "R runs per
// n", or "R₁–R₂ runs per n" where they differ.
func RunsText(gs []Growth) string {
	lo, hi := 0, 0
	for i, g := range gs {
		if i == 0 || g.Runs < lo {
			lo = g.Runs
		}
		hi = max(hi, g.Runs)
	}
	if lo == hi {
		return fmt.Sprintf("%d runs per n", lo)
	}
	return fmt.Sprintf("%d–%d runs per n", lo, hi)
}
