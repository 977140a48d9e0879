package broadcast

import (
	"container/heap"
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// Rare misses on the asynchronous clock.
//
// The watched runs of rare.go, event by event: w = 1 or 2 live nodes
// other than the source are watched, and every tick is drawn given that it
// informs no watched node. A sender's tick of t transmits has j watched
// peers, each push lost, with the probability Hyp(j; t, w, N−1)·ε^j/q(t),
// and its other t − j peers distinct and uniform among the N − 1 − w
// others that are not watched; the run's log weight gains ln q(t). A
// watched node's own tick (pull, push–pull) fails, its weight gaining ln
// h(i), i the informed live nodes at that instant. The other nodes act as
// in SimulateAsync. E[W] is the chance that no watched node is ever
// informed, and W at D (the product of the factors of the ticks at t ≤ D)
// the chance that none is informed by D: a probability per run, whose
// spread comes from the timing of the spread, not from counting misses.
//
// Push alone with a budget stratifies the source's life as rare.go does:
// until the source first informs someone, nothing else happens, so its
// ticks are the rounds' (the r-th at U + r − 1) and the chance that it
// informs nobody, and the tick and count of its first success, are the
// rounds' (engine.sourceAlone, sourceCount).

// asyncWatchSeed is the seed of the asynchronous watched runs with w
// watched nodes: streams apart from the plain runs' and the rounds'.
func asyncWatchSeed(seed uint64, w int) uint64 {
	return rng.SplitMix64(watchSeed(seed, w) ^ 0x6a09e667f3bcc909)
}

// asyncWatch holds one worker's buffers for the watched runs of w nodes.
type asyncWatch struct {
	a *asyncEngine
	e *engine // the rounds' watch engine: q(t), its mixture, the source's tables
	w int
	// The source's life alone (push with a budget): the chance it informs
	// nobody, its complement, the log weight of its whole life and the
	// chance p0[r−1] of no success in its r-th tick.
	strat       bool
	pExt, succ  float64
	lwExtEnd    float64
	p0          []float64
	pullLogMiss []float64 // ln h(i) by informed count i, filled as needed
}

func newAsyncWatch(cfg Config, seed uint64, w int) *asyncWatch {
	aw := &asyncWatch{a: newAsyncEngine(cfg, asyncWatchSeed(seed, w)), e: newWatchEngine(cfg, seed, w), w: w}
	u := cfg.Live() - 1 - w
	if cfg.Protocol == Push && cfg.Budget > 0 && u > 0 {
		aw.pExt, aw.succ, aw.lwExtEnd, _, aw.p0 = aw.e.sourceAlone(u, 0)
		aw.strat = aw.succ > 0
	}
	if cfg.Protocol.pulls() {
		aw.pullLogMiss = make([]float64, cfg.Live()+1)
		for i := range aw.pullLogMiss {
			aw.pullLogMiss[i] = math.Log(pullMiss(nil, i, cfg.Fanout, cfg.Nodes-1, cfg.Loss))
		}
	}
	return aw
}

// run is watched run index: the value of the chance that no watched node
// is ever informed (end; NaN where every live node is informed in the
// end) and that none is informed by D (byD; NaN for D ≤ 0).
func (aw *asyncWatch) run(ctx context.Context, index int, D float64) (end, byD float64, err error) {
	a, e, w := aw.a, aw.e, aw.w
	cfg := a.cfg
	r := rng.NewStream(a.seed, uint64(index))
	N, M, k, B, eps := cfg.Nodes, cfg.Live(), cfg.Fanout, cfg.Budget, cfg.Loss
	push, pull := cfg.Protocol.pushes(), cfg.Protocol.pulls()
	stops := push && !pull && B > 0 // push alone with a budget ends by itself
	firstWatched := int32(M - w)    // the watched nodes are M−w .. M−1
	watched := func(p int32) bool { return p >= firstWatched && int(p) < M }
	clear(a.Informed)
	clear(a.Stamp)
	a.ID = 0
	a.H = a.H[:0]
	a.Informed[0] = true
	count, goal := 1, M-w // informed; all the live nodes that can be
	if push {
		a.Left[0] = int32(B)
	}
	if pull {
		for i := 0; i < M; i++ {
			a.H = append(a.H, tick{T: r.Float64(), Node: int32(i)})
		}
		heap.Init(&a.H)
	} else {
		a.H = append(a.H, tick{T: 1 - r.Float64(), Node: 0})
	}
	u0 := math.NaN() // the source's first tick
	for _, x := range a.H {
		if x.Node == 0 {
			u0 = x.T
		}
	}
	first := 0 // the source's tick of first success (stratified)
	if aw.strat {
		first = firstSuccess(aw.p0, r.Float64()*aw.succ)
	}
	lw, lwD := 0.0, 0.0
	srcTicks := 0
	inform := func(p int32, t float64) {
		a.Informed[p] = true
		count++
		if push {
			a.Left[p] = int32(B)
			if !pull {
				a.H.Add(tick{T: t + 1 - r.Float64(), Node: p})
			}
		}
	}
	// free draws a distinct peer that is not watched (a.ID marks).
	free := func() int32 {
		for {
			p := int32(r.Intn(uint32(N)))
			if a.Stamp[p] != a.ID && !watched(p) {
				a.Stamp[p] = a.ID
				return p
			}
		}
	}
	events := 0
	for a.H.Len() > 0 {
		if events++; events%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		if !stops && a.H[0].T > D {
			break // nothing after D is asked
		}
		if count == goal {
			aw.rest(&lw, &lwD, D)
			break
		}
		ev := a.H.Next()
		i, t := ev.Node, ev.T
		a.StartTick(i)
		if a.Informed[i] {
			if !push {
				continue
			}
			n := a.Transmits(i, k, B)
			lw += e.qlog[n]
			if t <= D {
				lwD += e.qlog[n]
			}
			switch {
			case i == 0 && aw.strat && srcTicks+1 < first:
				srcTicks++ // the condition drawn: it informs nobody
			case i == 0 && aw.strat && srcTicks+1 == first:
				srcTicks++
				f := r.Float64()
				c := e.sourceCount(first, goal-count, f, r.Float64())
				for range c {
					p := free()
					for int(p) >= M { // a live one: all are uninformed
						p = free()
					}
					inform(p, t)
				}
			default:
				if i == 0 {
					srcTicks++
				}
				j, f := 0, r.Float64()
				mix := e.qmix[n]
				for j < len(mix)-1 && f >= mix[j] {
					f -= mix[j]
					j++
				}
				for range n - j {
					p := free()
					if int(p) >= M || a.Informed[p] || eps > 0 && r.Float64() < eps {
						continue
					}
					inform(p, t)
				}
			}
			if B == 0 || a.Left[i] > 0 {
				a.H.Add(tick{T: t + 1, Node: i})
			}
			continue
		}
		if watched(i) { // its pulls fail
			x := aw.pullLogMiss[count]
			lw += x
			if t <= D {
				lwD += x
			}
			a.H.Add(tick{T: t + 1, Node: i})
			continue
		}
		got := false
		for range k {
			p := a.Peer(r, N)
			if int(p) >= M || !a.Informed[p] || eps > 0 && r.Float64() < eps || eps > 0 && r.Float64() < eps {
				continue
			}
			got = true
		}
		if got {
			inform(i, t)
		}
		a.H.Add(tick{T: t + 1, Node: i})
	}
	end, byD = math.NaN(), math.NaN()
	if stops {
		end = math.Exp(lw)
	}
	if D > 0 {
		byD = math.Exp(lwD)
	}
	if aw.strat {
		end = aw.pExt*math.Exp(aw.lwExtEnd) + aw.succ*end
		if D > 0 {
			byD = aw.pExt*math.Exp(aw.extByD(u0, D)) + aw.succ*byD
		}
	}
	return end, byD, nil
}

// extByD is the log weight by D of the source's life in the stratum where
// it informs nobody: its r-th tick is at u0 + r − 1.
func (aw *asyncWatch) extByD(u0, D float64) float64 {
	lw := 0.0
	for r := 1; r <= len(aw.p0) && u0+float64(r-1) <= D; r++ {
		lw += aw.e.qlog[aw.e.transmits(r)]
	}
	return lw
}

// rest adds the weights of the ticks left once every live node that is
// not watched is informed: nothing more can be informed, so each tick's
// factor is known without a draw (an informed sender's q(t) while its
// budget lasts, a watched asker's h(M − w)). Without a stop of its own,
// only the ticks by D count.
func (aw *asyncWatch) rest(lw, lwD *float64, D float64) {
	a, e := aw.a, aw.e
	cfg := a.cfg
	k, B := cfg.Fanout, cfg.Budget
	push := cfg.Protocol.pushes()
	stops := push && !cfg.Protocol.pulls() && B > 0
	by := func(t float64) float64 { // ticks t, t+1, … at or before D
		if !(t <= D) {
			return 0
		}
		return math.Floor(D-t) + 1
	}
	for _, x := range a.H {
		i, t := x.Node, x.T
		switch {
		case a.Informed[i] && push && B > 0:
			left := int(a.Left[i])
			for m := 0; left > 0; m++ {
				n := min(k, left)
				left -= n
				if !stops && t+float64(m) > D {
					break
				}
				*lw += e.qlog[n]
				if t+float64(m) <= D {
					*lwD += e.qlog[n]
				}
			}
		case a.Informed[i] && push:
			c := by(t) * e.qlog[k]
			*lw += c
			*lwD += c
		case !a.Informed[i] && aw.pullLogMiss != nil: // a watched asker
			c := by(t) * aw.pullLogMiss[cfg.Live()-aw.w]
			*lw += c
			*lwD += c
		}
	}
}

// asyncWatchedRuns runs the asynchronous watched runs 0..reps−1 of seed
// with one and two watched nodes (two only where M ≥ 3) and returns their
// values: the chances that no watched node is ever informed (w1, w2; NaN
// where all are in the end) and that none is by cfg.Deadline (w1D, w2D).
func asyncWatchedRuns(ctx context.Context, cfg Config, reps int, seed uint64, workers int) (w1, w2, w1D, w2D []float64, err error) {
	return asyncWatchedFrom(ctx, cfg, 0, reps, seed, workers)
}

// asyncWatchedFrom is asyncWatchedRuns of the runs from..to−1.
func asyncWatchedFrom(ctx context.Context, cfg Config, from, to int, seed uint64, workers int) (w1, w2, w1D, w2D []float64, err error) {
	reps := to - from
	w1, w2 = make([]float64, reps), make([]float64, reps)
	w1D, w2D = make([]float64, reps), make([]float64, reps)
	two := cfg.Live() >= 3
	err = parallel.For(ctx, reps, workers, func() func(context.Context, int) error {
		a1 := newAsyncWatch(cfg, seed, 1)
		var a2 *asyncWatch
		if two {
			a2 = newAsyncWatch(cfg, seed, 2)
		}
		return func(ctx context.Context, j int) error {
			var err error
			if w1[j], w1D[j], err = a1.run(ctx, from+j, cfg.Deadline); err != nil {
				return err
			}
			w2[j], w2D[j] = math.NaN(), math.NaN()
			if two {
				w2[j], w2D[j], err = a2.run(ctx, from+j, cfg.Deadline)
			}
			return err
		}
	}, nil)
	return w1, w2, w1D, w2D, err
}

// maxAsyncWatchWork bounds the work, in events (ticks and messages), that
// Auto spends on the asynchronous watched runs: about 10⁻⁷ s each, some
// 20 s of one core.
const maxAsyncWatchWork = 2e8

// improveAsync sets the asynchronous answer's chances of a miss to the
// watched runs' where those are more accurate than what it has: the
// chance that a given live node is not informed by the deadline, the
// chance P(T_L > D) at the level 1 (Bonferroni's bracket, as rare.go),
// and for push with a budget the residue and p_miss (which the rounds'
// methods may state better: who is informed in the end does not depend on
// the clock). The runs are as many as the Monte Carlo's, and more (up to
// maxRefine times) where a chance is not yet within MaxRelErr, within
// maxAsyncWatchWork, whose estimate is the plain runs' mean events.
func (a *Answer) improveAsync(ctx context.Context, cfg Config, set Settings, s *AsyncSample) error {
	M := cfg.Live()
	budgeted := cfg.Protocol == Push && cfg.Budget > 0
	// Without a deadline the chances asked are those of the end, which the
	// rounds' methods state (solveAsync).
	if M < 2 || len(s.Reps) == 0 || !(cfg.Deadline > 0) {
		return nil
	}
	events := s.meanEvents()
	if cfg.Deadline > 0 && !budgeted {
		events += float64(M) * math.Min(cfg.Deadline, 1e6) // ticks by D
	}
	afford := int(math.Min(maxAsyncWatchWork/(2*events), float64(maxRefine*len(s.Reps))))
	reps := min(len(s.Reps), afford)
	if reps < 100 {
		return nil // too few to state a spread: the plain runs' answer stands
	}
	w1, w2, w1D, w2D, err := asyncWatchedFrom(ctx, cfg, 0, reps, set.Seed, set.Workers)
	if err != nil {
		return err
	}
	for pass := 0; ; pass++ {
		b := *a
		b.asyncWatched(cfg, w1, w2, w1D, w2D)
		worst := 0.0
		for _, r := range []float64{b.ResidueRelErr, b.PMissRelErr, b.ResidueDeadlineRelErr, b.PLateRelErr} {
			if r > MaxRelErr && !math.IsInf(r, 1) {
				worst = math.Max(worst, r)
			}
		}
		more := min(int(float64(reps)*(worst/(0.9*MaxRelErr))*(worst/(0.9*MaxRelErr))), afford)
		if worst == 0 || pass == 2 || more <= reps {
			*a = b
			break
		}
		x1, x2, x1D, x2D, err := asyncWatchedFrom(ctx, cfg, reps, more, set.Seed, set.Workers)
		if err != nil {
			return err
		}
		w1, w2, w1D, w2D = append(w1, x1...), append(w2, x2...), append(w1D, x1D...), append(w2D, x2D...)
		reps = more
	}
	a.Accuracy.Note += fmt.Sprintf("; the chances of a miss from %d watched runs where more accurate (runs conditioned on missing one or two given live nodes, weighted by the chance of that condition)", reps)
	return nil
}

// asyncWatched sets a's chances of a miss from the watched runs' values
// where they are more accurate, and keeps them consistent: a node not
// informed in the end is not informed by D, and a broadcast that misses a
// live node has T_L = ∞ > D.
func (a *Answer) asyncWatched(cfg Config, w1, w2, w1D, w2D []float64) {
	M := cfg.Live()
	share := float64(M-1) / float64(M)
	scale := func(iv interval) interval { return interval{iv.v * share, iv.lo * share, iv.hi * share} }
	p2 := func(x []float64, floor float64) (interval, float64) {
		if M < 3 {
			return interval{}, 0
		}
		return meanIvFloor(x, floor)
	}
	floor := 0.0
	if cfg.Protocol == Push && cfg.Budget > 0 {
		floor = earlyEnd(cfg)
		p1, se1 := meanIvFloor(w1, floor+unseenMiss(cfg, w1))
		q2, se2 := p2(w2, floor+4*unseenMiss(cfg, w2))
		a.Residue, a.ResidueRelErr = split(better(ivOf(a.Residue, a.ResidueRelErr), scale(p1)))
		pe := sourceNobody(cfg)
		br := bracket(M, p1.v-pe, se1, q2.v-pe, se2)
		br = interval{math.Min(br.v+pe, 1), math.Min(br.lo+pe, 1), math.Min(br.hi+pe, 1)}
		a.PMiss, a.PMissRelErr = split(better(ivOf(a.PMiss, a.PMissRelErr), br))
	}
	if !(cfg.Deadline > 0) {
		return
	}
	// With a budget, a run that misses another live node by D (it makes
	// no pushes) weighs more, and may be absent from the sample: unseenMiss
	// is its share of the variance, as for the end.
	un1, un2 := 0.0, 0.0
	if floor > 0 || cfg.Protocol == Push && cfg.Budget > 0 {
		un1, un2 = unseenMiss(cfg, w1D), 4*unseenMiss(cfg, w2D)
	}
	p1, se1 := meanIvFloor(w1D, floor+un1)
	q2, se2 := p2(w2D, floor+un2)
	// Every run's weight 0 (each informs the watched node surely by D, as
	// a pull from all-informed peers does without loss, or its product
	// fell below the smallest float64): the chance is not 0 but at most
	// that of a run with a positive weight, which no run showed (Wilson's
	// upper end; a weight is at most 1).
	if p1.v == 0 && p1.hi == 0 {
		p1.hi = wilson(0, len(w1D)).hi
	}
	res := better(ivOf(a.ResidueDeadline, a.ResidueDeadlineRelErr), scale(p1))
	if r := ivOf(a.Residue, a.ResidueRelErr); r.v > res.v || r.lo > res.lo {
		res = interval{math.Max(res.v, r.v), math.Max(res.lo, r.lo), math.Max(res.hi, r.v)}
	}
	a.ResidueDeadline, a.ResidueDeadlineRelErr = split(res)
	if cfg.Target() < M {
		return // the watched runs say nothing of P(T_L > D) below the level 1
	}
	br := bracket(M, p1.v, se1, q2.v, se2)
	if p1.v == 0 {
		br.hi = math.Max(br.hi, math.Min(float64(M-1)*p1.hi, 1))
	}
	cur := ivOf(a.PLate, a.PLateRelErr)
	if a.PLate == 0 && a.PLateFloor > 0 {
		cur = interval{0, 0, a.PLateFloor} // no late plain run
	}
	late := better(cur, br)
	if m := ivOf(a.PMiss, a.PMissRelErr); m.v > late.v || m.lo > late.lo {
		late = interval{math.Max(late.v, m.v), math.Max(late.lo, m.lo), math.Max(late.hi, m.v)}
	}
	a.PLate, a.PLateRelErr = split(late)
	a.PLateFloor = 0
	if a.PLate == 0 && a.PLateRelErr != 0 {
		a.PLateFloor = late.hi
	}
	a.PDeadline = 1 - a.PLate
	a.Accuracy.SEPDeadline = a.PLate * a.PLateRelErr / zValue
}
