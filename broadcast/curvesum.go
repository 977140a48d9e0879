package broadcast

import (
	"sync"

	"github.com/gossipkit/gossipkit/broadcast/internal/fixsum"
)

// The watched runs' curves (level 1): P(T_L ≤ t) at every round t of
// Answer.CDF, and PDeadline at a deadline among those rounds, come from
// one computation, so that the list and a deadline's answer agree to the
// bit. Each watched run states, at every round t, the chance that its
// watched nodes are not informed by the end of round t (runWatched's
// curve); the rounds' sums over the runs are kept, not the runs' curves,
// in fixed point with 2⁻²⁵⁶ resolution, whose addition is exact and so
// independent of the order of the runs and of the shards: a merged
// sample's sums are the single run's, bit for bit, at a memory that does
// not grow with the replications.

// maxCurveRounds bounds a watched run's curve: its rounds past it are not
// followed for the curve (a deadline there is answered by the watched
// runs of that deadline alone).
const maxCurveRounds = fixsum.MaxRounds

// Curves holds the sums over a sample's watched runs of their curves, by
// round (fixsum.Curves).
type Curves = fixsum.Curves

// curveFloor ends a curve: once a run's chance falls below it, its curve
// holds 0 from that round on (a run weighted by a forced stall's
// likelihood ratio, at most 2, is cut where either its chance or its
// weighted value falls below it). It changes P(T_L > t) by less than
// 2M·10⁻³⁰ ≤ 2.2·10⁻²¹ (the S₁ term of the M − 1 other live nodes, M ≤
// 2³⁰), 2·10⁻⁹ of the smallest chance the answers state within their
// accuracy (10⁻¹²; a budget's P(miss) of 10⁻¹² is a p₁ of 10⁻¹⁹ at M =
// 10⁷, kept), and ends the curves of the protocols that inform every
// live node eventually, whose chances fall geometrically or faster.
const curveFloor = 1e-30

// curveWorkers gathers the sums of the watched runs' curves, one a worker
// (parallel.For's), whose exact sums merge in any order.
type curveWorkers struct {
	mu  sync.Mutex
	all []*Curves
}

// add turns on the curves of a worker's engines (e2 nil: fewer than two
// live nodes besides the source) and returns the worker's sums.
func (w *curveWorkers) add(e1, e2 *engine) *Curves {
	e1.curveOn = true
	if e2 != nil {
		e2.curveOn = true
	}
	sum := &Curves{}
	w.mu.Lock()
	w.all = append(w.all, sum)
	w.mu.Unlock()
	return sum
}

// total is the sums of every worker's runs.
func (w *curveWorkers) total() *Curves {
	out := &Curves{}
	for _, c := range w.all {
		out.Merge(c)
	}
	return out
}

// addRunOf adds to sum the curves of the engines' last watched run.
func addRunOf(sum *Curves, e1, e2 *engine) {
	var c2 []float64
	capped := e1.curveCapped
	if e2 != nil {
		c2, capped = e2.curve, capped || e2.curveCapped
	}
	sum.AddRun(e1.curve, c2, e1.lateCurve, e1.lateShare(e1.live-1), capped)
}
