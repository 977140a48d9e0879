package chain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/gossipkit/gossipkit/internal/ctxguard"

	"gonum.org/v1/gonum/floats"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/internal/numeric"
)

// trimEvery is the number of steps between trims of the live region of X
// alone; the joint chain's rows are trimmed at every step (a row's range
// grows by one cell at each end a step, and its trim costs O(1) a row).
const trimEvery = 16

// rateGrowth is the factor by which Solve raises the uniformization rate
// when a run sent more than Settings.Tol of mass beyond the caps.
const rateGrowth = 1.3

// errRate stops a run whose uniformization rate proved too small.
var errRate = errors.New("chain: uniformization rate too small")

// Solve computes the law of X(t)/N (and Y(t)/N) at t = 0, Dt, …, TMax and,
// with a Level, the law of the time to that coverage. ctx is checked at
// every step of the joint chain (every 16 of X alone), and
// Settings.Progress told the steps done (every 4096) and an estimate of
// all the steps (to TMax, and with a Level to the level's tail: Estimate's,
// within a factor 3), never below the steps done.
func Solve(ctx context.Context, cfg Config, set Settings) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := ctxguard.Check("chain", ctx); err != nil {
		return nil, err
	}
	set = set.withDefaults()
	j, err := cfg.jumps()
	if err != nil {
		return nil, fielderr.Within("chain", "Config", err)
	}
	s := &solver{ctx: ctx, cfg: cfg, set: set, j: j, N: cfg.Nodes, ts: grid(cfg.TMax, cfg.Dt)}
	if set.rate == 0 {
		// The work, before any: Estimate costs O(N) (the stationary law
		// and the hitting moments).
		est, err := Estimate(cfg)
		if err != nil {
			return nil, err
		}
		if !(est.StateSteps <= set.MaxStateSteps) {
			return nil, fmt.Errorf("chain: the solve needs about %.2g state-steps (%.3g rounds × %.3g states, about %s of CPU), more than Settings.MaxStateSteps = %.2g: %w",
				est.StateSteps, est.Rounds, est.States, cpuDuration(est.CPUSeconds()), set.MaxStateSteps, gossip.ErrTooLarge)
		}
		if cfg.Level > 0 {
			s.estSteps = int64(est.Steps) // the level's tail runs past TMax
		}
	}
	return s.solve()
}

// startRate is the first uniformization rate Solve tries: a margin above
// the largest exit rate of X alone, u·X(N−X)/(N−1) + w·X(X−1)/(N−1) per
// round (+ ℓ·X(N−X)/(N−1) with loss), over the X that the stationary law
// (with loss: the law reflected at X = 1, reachLaw) reaches above 10⁻²⁵
// (with loss ε ≥ 0.1: 10⁻¹⁶, lossReach) (started
// at one copy, X stays stochastically below it: the chain is a
// birth–death chain) or the initial X, plus 10 %. The joint chain's exit
// rate is larger where Y is small, by the move jump's m·X(N−Y)/(N−1)
// (measured at n = 500, c = 100, s = 50: the states above 10⁻¹⁸ reach
// 0.996 times this rate); with loss m is a² = (1−ε)² times its lossless
// value and the margin is 10·a² % (lossHeadroom: at ε = 0.3 the start
// rate falls from 114.4 to 109.1 a round, and the mass killed to t = 150
// is 2·10⁻²⁸, against 1.7·10⁻¹⁷ for the lossless chain at its rate). Where the
// margin is not enough, Solve raises the rate and runs the segment again.
func startRate(N, initial int, j Jumps, joint bool) float64 {
	n := float64(N)
	pi, err := reachLaw(N, j)
	if err != nil {
		return n
	}
	reach := 1e-25
	if j.Lose > 0 && j.Move > 0 && 1-lossA(j) > lossReachFrom-1e-9 { // ε read back from the jumps, to a few ulp
		reach = lossReach
	}
	xhi, tail := N, 0.0
	for x := N; x >= 1; x-- {
		if tail += pi[x]; tail > reach {
			xhi = x
			break
		}
	}
	xhi = max(xhi, initial)
	e := 0.0
	for x := 1; x <= xhi; x++ {
		fx := float64(x)
		e = math.Max(e, (j.Up*fx*(n-fx)+j.Drop*fx*(fx-1)+j.Lose*fx*(n-fx))/(n-1))
	}
	if joint {
		// and at least the exit rate of the first state, (initial, initial)
		fx := float64(initial)
		e = math.Max(e, ((j.Up+j.Move)*fx*(n-fx)+j.Drop*fx*(fx-1)+j.Lose*fx*(n-fx))/(n-1))
	}
	if e <= 0 {
		return n
	}
	if joint && j.Lose > 0 && j.Move > 0 {
		return math.Min(n, (1+0.1*lossHeadroom(j))*e)
	}
	return math.Min(n, 1.1*e)
}

// lossReach is, with loss ε ≥ lossReachFrom, the mass of the reflected law
// above the X whose exit rate startRate covers (10⁻²⁵ otherwise). With
// that much loss the live law of X stays well inside the reflected law
// until late, and the rate of its 10⁻²⁵ point is more than the chain
// needs: at N = 1000, n = 500, c = 100, s = 50 the rate from 10⁻¹⁶ (97.3
// a round at ε = 0.3, against 109.1) kills about 10⁻¹⁶ of mass to t =
// 150 (the bound takes it; more than Tol in a segment would raise the
// rate), and cuts the state-steps to t = 150 by 15 % at ε = 0.3 and 19 %
// at ε = 0.1. At ε = 0.01 the live law is as wide as the lossless one, the
// rate from 10⁻¹⁶ is too low and the first segment is run again (1.19
// times the work), hence the threshold. Without loss the rule, and so
// every output, is as it was.
const (
	lossReach     = 1e-16
	lossReachFrom = 0.1
)

// lossA is a = 1 − ε, read from the jumps: ℓ/m = a·ε·p·q/(2a²·p·q) =
// ε/(2a), so ε/a = 2ℓ/m and a = 1/(1 + 2ℓ/m).
func lossA(j Jumps) float64 { return 1 / (1 + 2*j.Lose/j.Move) }

// lossHeadroom is the share of the joint chain's 10 % margin that the move
// jump needs with loss: a² = (1−ε)², the factor by which loss scales m =
// 2a²·p·q (the move is the jump that gives the joint chain its extra exit
// rate m·X(N−Y)/(N−1) over X alone). ε is read from the jumps: ℓ/m =
// a·ε·p·q/(2a²·p·q) = ε/(2a), so ε/a = 2ℓ/m and a = 1/(1 + 2ℓ/m).
func lossHeadroom(j Jumps) float64 {
	a := lossA(j)
	return a * a
}

// output accumulates the mixture that makes the law at one output time.
type output struct {
	i            int
	win          window
	px           []float64 // P(X = off + i)
	off          int
	py           []float64 // P(Y = y) (joint chain)
	p0           float64   // P(X = 0): the mass that has died (with loss)
	above, total float64
	ylo, yhi     int
}

// cover makes px cover X = lo..hi, with room to spare (X alone may move
// over a window; px is kept to where the law lives, since N may be 10⁷).
func (o *output) cover(lo, hi, N int) {
	if o.px != nil && lo >= o.off && hi < o.off+len(o.px) {
		return
	}
	if o.px != nil {
		lo, hi = min(lo, o.off), max(hi, o.off+len(o.px)-1)
	}
	pad := (hi-lo+1)/4 + 8
	lo, hi = max(0, lo-pad), min(N+1, hi+pad)
	px := make([]float64, hi-lo+1)
	if o.px != nil {
		copy(px[o.off-lo:], o.px)
	}
	o.px, o.off = px, lo
}

// levelSeg is one segment of the level's law: from time t0 (k0 shuffles),
// B_k = P(Y < m) after k steps of the chain uniformized at rate.
type levelSeg struct {
	t0    float64
	k0    int
	rate  float64
	below []float64
	// With loss, dead[k] is the mass that has died with Y < m after k
	// steps (its T_L is ∞), so that P(Y < m) = below[k] + dead[k], and
	// floor its value at the last step, taken past it (nil and 0 without
	// loss).
	dead  []float64
	floor float64
}

// solver holds one Solve: the law is stepped segment by segment, each
// from an output time to a later one (or, for the level's tail, until
// P(Y < m) < Tol). Within a segment the rate Λ is constant and every
// output law is a mixture of the stepped laws v_k (Poisson weights in
// continuous time, binomial ones in shuffles time), accumulated as
// marginals while the chain steps; the law at the segment's end is
// accumulated whole and the next segment starts from it.
type solver struct {
	ctx    context.Context
	cfg    Config
	set    Settings
	j      Jumps
	N, m   int
	ts     []float64
	l      *law
	mix    *mixer
	lambda float64
	fixed  bool
	tails  float64 // the window tails of the laws installed so far
	total  int64   // steps to TMax, estimated for Progress
	// estSteps is Estimate's count of all the steps, the level's tail
	// included (0 without a level).
	estSteps int64
	res      *Result
	segs     []levelSeg
	bounds   []float64 // of each output law
	px, py   []float64 // marginals of the current law
}

func (s *solver) solve() (*Result, error) {
	cfg, N := s.cfg, s.N
	initial := max(cfg.Initial, 1)
	joint := !cfg.ReplicationOnly
	if cfg.Level > 0 {
		s.m = levelCount(cfg.Level, N)
	}
	s.lambda, s.fixed = s.set.rate, s.set.rate > 0
	if !s.fixed {
		s.lambda = startRate(N, initial, s.j, joint)
		if s.set.firstRate > 0 {
			s.lambda = s.set.firstRate
		}
	}
	s.lambda = math.Min(s.lambda, float64(N))
	s.res = &Result{Config: cfg, Rows: make([]Row, len(s.ts))}
	s.bounds = make([]float64, len(s.ts))
	s.res.Stats.Attempts = 1
	s.l = newLaw(N, joint, s.j, initial, s.lambda)
	for !s.l.fits(initial, initial) {
		if s.fixed {
			return nil, fmt.Errorf("chain: rate %g below the exit rate of the first state", s.lambda)
		}
		s.raise()
	}
	if joint {
		s.px, s.py = make([]float64, N+2), make([]float64, N+2)
	}
	s.total = max(int64(s.lambda*cfg.TMax), s.estSteps)
	// t = 0: the initial law itself.
	o := s.newOutput(0, window{w: []float64{1}})
	s.accumulate([]*output{o}, 0)
	if err := s.finish(o); err != nil {
		return nil, err
	}
	for i := 0; i < len(s.ts)-1; {
		n := s.segmentLength(i)
		if err := s.segment(i, n); err != nil {
			return nil, err
		}
		i += n
	}
	if s.m > 0 {
		// The level's tail: only P(Y < m) is followed, and the rows Y ≥ m
		// are absorbed (Y never decreases).
		s.l.absorb(s.m)
		if s.retune() {
			if err := s.levelTail(); err != nil {
				return nil, err
			}
		} else if err := s.segment(len(s.ts)-1, 0); err != nil {
			return nil, err
		}
		lt, err := s.levelTime(initial)
		if err != nil {
			return nil, err
		}
		// B_k is low by at most the mass dropped and killed (and the
		// tails of the laws installed), and taken as 0 past the last
		// step, where it is below Tol; the weights that mix it have their
		// own tail, at most that of the widest window a segment needs.
		wt := 0.0
		for _, g := range s.segs {
			wt = math.Max(wt, poisson(float64(len(g.below)), s.set.Tol).tail)
		}
		lt.Bound = s.lost() + s.set.Tol + wt
		s.res.Level = lt
		s.res.Bound = math.Max(s.res.Bound, lt.Bound)
	}
	for _, b := range s.bounds {
		s.res.Bound = math.Max(s.res.Bound, b)
	}
	s.res.Stats.Steps = s.l.steps
	s.res.Stats.Killed = s.l.killed
	s.res.Stats.Rate = s.lambda
	return s.res, nil
}

// raise raises the rate after a run that sent too much mass beyond the
// caps.
func (s *solver) raise() {
	s.lambda = math.Min(float64(s.N), s.lambda*rateGrowth)
	s.l.setRate(s.lambda)
	s.res.Stats.Attempts++
}

// lost bounds the total-variation error of the current law.
func (s *solver) lost() float64 { return s.l.dropped + s.l.killed + s.tails }

// ledger records, for tests, the terms of the bound where they arise, apart
// from the sums lost() reads: the mass dropped and killed by the steps of
// every segment and tail piece kept (not of a run done again at a higher
// rate), the mass killed beyond the new caps wherever the level's tail
// lowers its rate, and the window tail of every law installed whole (at a
// segment's end, at a tail piece's end).
type ledger struct {
	dropped, killed float64   // by the steps
	cuts            []float64 // killed at each lower rate
	segTails        []float64 // of the laws installed at segments' ends
	pieceTails      []float64 // of the laws installed at tail pieces' ends
}

// ran records the mass dropped and killed by the steps of a run kept.
func (led *ledger) ran(dropped, killed float64) {
	led.dropped += dropped
	led.killed += killed
}

// window returns the mixture weights of the law at output time t for a
// segment that started at output time t0, at the current rate.
func (s *solver) window(t0, t float64) window {
	if s.cfg.Time == gossip.Shuffles {
		n := float64(s.N)
		k := int(math.Round(n*t)) - int(math.Round(n*t0))
		return binomial(k, s.lambda/n, s.set.Tol)
	}
	return poisson(s.lambda*(t-t0), s.set.Tol)
}

// segmentLength picks how many output intervals the segment from output i
// spans, by a cost model in flops: the steps (λ + 8.5√λ of them for a
// segment of λ = Λ·L expected steps, cs flops a state), the whole law
// mixed at its end (≈ 17√λ weights) and the marginals mixed for each
// output. A long segment wastes fewer steps past its end; a short one
// mixes fewer marginals. It is capped at 16384 steps, so that a segment
// run again costs little.
func (s *solver) segmentLength(i int) int {
	return segmentLength(s.ts, i, s.lambda, float64(s.l.states()), s.l.joint, s.N)
}

func segmentLength(ts []float64, i int, lambda, states float64, joint bool, N int) int {
	S := math.Max(states, 64)
	cs, M := 12.0, 2*float64(N)
	if !joint {
		cs, M = 4, S
	}
	left := len(ts) - 1 - i
	best, bestCost := 1, math.Inf(1)
	for n := 1; ; n *= 2 {
		nn := min(n, left)
		L := ts[i+nn] - ts[i]
		lam := lambda * L
		if nn > 1 && lam > 16384 {
			break
		}
		steps := lam + 8.5*math.Sqrt(lam) + 10
		cost := (steps*S*cs + 17*math.Sqrt(lam)*S + float64(nn)*(17*math.Sqrt(lam)*2/3+1)*M) / L
		if cost < bestCost {
			best, bestCost = nn, cost
		}
		if nn == left {
			break
		}
	}
	return best
}

// segment steps the law from output i over n output intervals (n = 0:
// the level's tail, until P(Y < m) < Tol), running it again at a higher
// rate if it killed more than Tol.
func (s *solver) segment(i, n int) error {
	return s.retry(func() error { return s.try(i, n) })
}

// retry runs run, and runs it again from the same law at a higher rate
// while it reports errRate (it killed more than Tol).
func (s *solver) retry(run func() error) error {
	var snap *snapshot
	if !s.fixed && s.lambda < float64(s.N) {
		snap = s.l.snapshot()
	}
	for {
		err := run()
		if !errors.Is(err, errRate) {
			return err
		}
		s.l.restore(snap)
		s.raise()
	}
}

// checkRun returns errRate where the run that began with killed0 killed
// has killed more than Tol at a rate that can still be raised (dropping
// the mixer of a whole law in the making, if mixing: a fresh one next
// time), or an error past MaxSteps.
func (s *solver) checkRun(killed0 float64, mixing bool) error {
	if !s.fixed && s.lambda < float64(s.N) && s.l.killed-killed0 > s.set.Tol {
		if mixing {
			s.mix = nil
		}
		return errRate
	}
	if s.l.steps >= int64(MaxSteps) {
		return fmt.Errorf("chain: more than %g steps (coverage %g not reached?)", float64(MaxSteps), s.cfg.Level)
	}
	return nil
}

// keepRun ends a run that is kept, begun at output time t0 with dropped0
// dropped and killed0 killed: it installs the law mixed over end (nil:
// none) and adds end's tail to the bound, records the run as a segment of
// the law of T_L (P(Y < m) and the extinct mass below the level by step),
// and, for tests, the terms of the bound (a tail piece's end tail apart
// from a segment's).
func (s *solver) keepRun(t0 float64, end *window, piece bool, dropped0, killed0 float64, below, dead []float64) {
	l := s.l
	if end != nil {
		s.mix.install(l)
		s.tails += end.tail
	}
	if led := s.set.ledger; led != nil {
		led.ran(l.dropped-dropped0, l.killed-killed0)
		switch {
		case end != nil && piece:
			led.pieceTails = append(led.pieceTails, end.tail)
		case end != nil:
			led.segTails = append(led.segTails, end.tail)
		}
	}
	k0 := int(math.Round(float64(s.N) * t0))
	g := levelSeg{t0: t0, k0: k0, rate: s.lambda, below: below, dead: dead}
	if len(dead) > 0 {
		g.floor = dead[len(dead)-1]
	}
	s.segs = append(s.segs, g)
}

func (s *solver) newOutput(i int, w window) *output {
	o := &output{i: i, win: w, ylo: s.N + 1}
	if s.l.joint {
		o.py = make([]float64, s.N+2)
	}
	return o
}

// accumulate adds the current law's marginals, weighted by step k's
// weight in each output's window, to the outputs.
func (s *solver) accumulate(active []*output, k int) {
	l := s.l
	xlo, xhi := l.xlo, l.xhi
	if !l.joint {
		// The law is its own marginal.
		tot := floats.Sum(l.cur[xlo : xhi+1])
		for _, o := range active {
			wk := o.win.w[k-o.win.lo]
			o.cover(xlo, xhi, s.N)
			floats.AddScaled(o.px[xlo-o.off:xhi-o.off+1], wk, l.cur[xlo:xhi+1])
			o.total += wk * tot
			if l.ext != nil {
				o.p0 += wk * l.ext[0]
				o.total += wk * l.ext[0]
			}
		}
		return
	}
	var dead, deadAbove float64
	if l.ext != nil {
		dead, deadAbove = l.extSum(s.m)
	}
	// The X marginal was summed by the step that made the law (wantPx),
	// or is summed now; the Y marginal is the row masses.
	px, py := s.px, l.rowMass
	var above, tot float64
	for y := l.ylo; y <= l.yhi; y++ {
		tot += py[y]
		if s.m > 0 && y >= s.m {
			above += py[y]
		}
	}
	if l.pxOK {
		px = l.px
	} else {
		l.marginals(px, s.py, s.m)
		clear(s.py[l.ylo : l.yhi+1])
	}
	for _, o := range active {
		wk := o.win.w[k-o.win.lo]
		o.cover(xlo, xhi, s.N)
		floats.AddScaled(o.px[xlo-o.off:xhi-o.off+1], wk, px[xlo:xhi+1])
		floats.AddScaled(o.py[l.ylo:l.yhi+1], wk, py[l.ylo:l.yhi+1])
		o.ylo, o.yhi = min(o.ylo, l.ylo), max(o.yhi, l.yhi)
		o.above += wk * above
		o.total += wk * tot
		if l.ext != nil {
			// The dead paths keep their Y.
			floats.AddScaled(o.py, wk, l.ext)
			o.ylo, o.yhi = min(o.ylo, 1), max(o.yhi, s.N)
			o.p0 += wk * dead
			o.above += wk * deadAbove
			o.total += wk * dead
		}
	}
	if !l.pxOK {
		clear(s.px[xlo : xhi+1])
	}
}

// try runs segment (i, n) once at the current rate.
func (s *solver) try(i, n int) error {
	l, ts, tol := s.l, s.ts, s.set.Tol
	tail := n == 0
	t0 := ts[i]
	var endWin window
	if !tail {
		endWin = s.window(t0, ts[i+n])
	}
	// The whole law at the segment's end is needed to go on.
	whole := !tail && (i+n < len(ts)-1 || s.m > 0)
	if whole && s.mix == nil {
		s.mix = l.newMixer()
	}
	var (
		active   []*output
		next     = i + 1
		nextWin  *window
		below    []float64
		dead     []float64
		killed0  = l.killed
		dropped0 = l.dropped
	)
	for k := 0; ; k++ {
		for !tail && next <= i+n {
			if nextWin == nil {
				w := s.window(t0, ts[next])
				nextWin = &w
			}
			if nextWin.lo > k {
				break
			}
			active = append(active, s.newOutput(next, *nextWin))
			next, nextWin = next+1, nil
		}
		if len(active) > 0 {
			s.accumulate(active, k)
			kept := active[:0]
			for _, o := range active {
				if o.win.hi() > k {
					kept = append(kept, o)
				} else if err := s.finish(o); err != nil {
					return err
				}
			}
			active = kept
		}
		if whole && k >= endWin.lo {
			s.mix.add(l, endWin.w[k-endWin.lo])
		}
		if s.m > 0 {
			below = append(below, l.belowRows(s.m))
			if l.ext != nil {
				dead = append(dead, l.extBelow(s.m))
			}
		}
		if tail && below[k] < tol || !tail && k == endWin.hi() {
			break
		}
		if err := s.checkRun(killed0, whole); err != nil {
			return err
		}
		// Sum the X marginal while stepping where an output will want it.
		l.wantPx = l.joint && !tail && (len(active) > 0 || next <= i+n)
		l.advance(s.set.Drop)
		if err := s.stepDone(); err != nil {
			return err
		}
	}
	var end *window
	if whole {
		end = &endWin
	}
	s.keepRun(t0, end, false, dropped0, killed0, below, dead)
	return nil
}

// stepDone counts the work of the step just taken, checks the context and
// tells Progress.
func (s *solver) stepDone() error {
	l := s.l
	if l.steps%trimEvery == 0 {
		st := l.states()
		s.res.Stats.MaxStates = max(s.res.Stats.MaxStates, st)
		s.res.Stats.StateSteps += trimEvery * float64(st)
	}
	if l.joint || l.steps%trimEvery == 0 {
		// A step of the joint chain takes up to ~0.1 s at N = 5000.
		if err := s.ctx.Err(); err != nil {
			return err
		}
	}
	if l.steps%4096 == 0 && s.set.Progress != nil {
		// An estimate (within a factor 3): never below the steps done.
		s.set.Progress(l.steps, max(s.total, l.steps))
	}
	return nil
}

// finish turns an output's accumulated marginals into its Row, and checks
// its mass against its bound: the error of the laws mixed (at most the
// value now, the error growing step by step) plus the window's tail.
func (s *solver) finish(o *output) error {
	res, N := s.res, s.N
	bound := s.lost() + o.win.tail
	r := Row{T: s.ts[o.i], X: stat(o.px, o.off, o.total, N, o.p0), PExtinct: o.p0 / o.total}
	if o.py != nil {
		r.Y = stat(o.py[:o.yhi+1], 0, o.total, N, 0)
	}
	if s.m > 0 {
		r.PLevel = o.above / o.total
	}
	res.Rows[o.i] = r
	// A segment run again rewrites its rows and their bounds.
	s.bounds[o.i] = bound
	if o.i == len(s.ts)-1 {
		res.Missing = 1 - o.total
	}
	if missing := 1 - o.total; missing > bound+1e-9 || missing < -1e-9 {
		return fmt.Errorf("%w: missing %g, bound %g at t = %g", ErrMass, missing, bound, r.T)
	}
	return nil
}

// stat summarises a law of the values off, off+1, … (p[i] the mass of
// off + i, normalised by total) and of 0 with mass p0 outside p (the dead
// paths' X; p holds no mass at 0 then), as fractions of n. With p0 = 0 the
// terms it adds are exact zeros.
func stat(p []float64, off int, total float64, n int, p0 float64) Stat {
	mean, sq := 0.0, 0.0
	for i, pv := range p {
		mean += float64(off+i) * pv
	}
	mean /= total
	for i, pv := range p {
		d := float64(off+i) - mean
		sq += d * d * pv
	}
	sq += mean * mean * p0
	q := func(level float64) float64 {
		if p0 > 0 && p0 >= level*total {
			return 0
		}
		acc := p0
		for i, pv := range p {
			acc += pv
			if acc >= level*total {
				return float64(off+i) / float64(n)
			}
		}
		return 1
	}
	return Stat{Mean: mean / float64(n), SD: math.Sqrt(sq/total) / float64(n), Q05: q(0.05), Q50: q(0.5), Q95: q(0.95)}
}

// levelTime makes the law of the time to coverage count m: the mean and
// sd by HittingMoments, the distribution function from the segments' B_k.
func (s *solver) levelTime(initial int) (*LevelTime, error) {
	// The mean and sd come from first-step analysis (HittingMoments), with
	// no truncation; the quantiles from B_k.
	reach, ek, ek2, err := hittingReach(s.ctx, s.N, initial, s.m, s.j)
	if err != nil {
		return nil, err
	}
	lt := &LevelTime{Level: s.cfg.Level, Count: s.m, PReach: reach, tm: s.cfg.Time, n: s.N, segs: s.segs, tol: s.set.Tol}
	lt.Mean, lt.SD = hittingStat(s.cfg.Time, s.N, ek, ek2)
	if reach == 1 {
		lt.Q05, lt.Q50, lt.Q95 = lt.Quantile(0.05), lt.Quantile(0.5), lt.Quantile(0.95)
	} else {
		// Given T_L < ∞: the quantiles of the defective law at p·PReach.
		lt.Q05, lt.Q50, lt.Q95 = lt.Quantile(0.05*reach), lt.Quantile(0.5*reach), lt.Quantile(0.95*reach)
	}
	return lt, nil
}

// survival returns Σ_k w_k·B_k over a window of a segment, B_k = P(Y < m)
// after k steps (the live mass below m, 0 past the last step, plus with
// loss the dead mass below m, floor past the last step).
func (g *levelSeg) survival(w window) float64 {
	s := 0.0
	for i, wk := range w.w {
		if k := w.lo + i; k < len(g.below) {
			s += wk * g.below[k]
			if g.dead != nil {
				s += wk * g.dead[k]
			}
		} else if g.dead != nil {
			s += wk * g.floor
		}
	}
	return s
}

// CDF returns P(T_L ≤ t), t in rounds, within Result.Bound: in continuous
// time 1 − Σ_k Pois(k; Λ(t − t0))·B_k, in shuffles time P(K ≤ ⌊N·t⌋) with
// P(K > k) = Σ_i Bin(i; k − k0, Λ/N)·B_i, where B_k = P(Y < m) after k
// steps of the chain uniformized at rate Λ from the start t0 (k0
// shuffles) of the segment of the computation that holds t.
func (lt *LevelTime) CDF(t float64) float64 {
	if lt == nil || len(lt.segs) == 0 || !(t >= 0) {
		return 0
	}
	if lt.tm == gossip.Shuffles {
		k := math.Floor(float64(lt.n)*t + 1e-9)
		if k >= math.MaxInt64/2 { // past every segment: see past
			return 1
		}
		return lt.cdfK(int(k))
	}
	g := &lt.segs[0]
	for i := range lt.segs {
		if lt.segs[i].t0 <= t {
			g = &lt.segs[i]
		}
	}
	lambda := g.rate * (t - g.t0)
	if g.past(lambda) {
		return 1 - g.floor
	}
	return math.Max(0, 1-g.survival(poisson(lambda, lt.tol)))
}

// past reports whether a Poisson or binomial window of mean mean (and a
// variance no larger) lies wholly past the segment's last step, where
// B_k = 0: mean − 40·√mean ≥ len(below), so that the mass the window
// would put below the last step is under the normal tail at 40 sd (far
// below 10⁻³⁰⁰; Chernoff's bound for the Poisson, e^(−40²/2), says the
// same). Such a window is never built: its size grows like √mean, and a
// deadline of 10¹⁸ rounds would ask for gigabytes (or overflow an int).
func (g *levelSeg) past(mean float64) bool {
	if math.IsInf(mean, 1) {
		return true
	}
	k := float64(len(g.below))
	return mean > k && mean-40*math.Sqrt(mean) >= k
}

// cdfK is P(K ≤ k) in shuffles time.
func (lt *LevelTime) cdfK(k int) float64 {
	g := &lt.segs[0]
	for i := range lt.segs {
		if lt.segs[i].k0 <= k {
			g = &lt.segs[i]
		}
	}
	if g.past(float64(k-g.k0) * g.rate / float64(lt.n)) {
		return 1 - g.floor
	}
	return math.Max(0, 1-g.survival(binomial(k-g.k0, g.rate/float64(lt.n), lt.tol)))
}

// Quantile returns the smallest time t (rounds) with P(T_L ≤ t) ≥ p, for p
// in (0, 1): in shuffles time a multiple of 1/N, in continuous time found
// by 60 bisections of a bracket of the whole law (numeric.Bisect, or
// fewer where the bracket reaches float64's resolution). With loss, CDF tends to
// P(T_L < ∞) (PReach within Bound) and Quantile(p) is +Inf for p above
// that limit.
func (lt *LevelTime) Quantile(p float64) float64 {
	if lt == nil || len(lt.segs) == 0 || lt.segs[0].below[0] == 0 {
		return 0
	}
	last := lt.segs[len(lt.segs)-1]
	if last.dead != nil && p > 1-last.floor {
		return math.Inf(1)
	}
	K := float64(len(last.below))
	n := float64(lt.n)
	// Past the bracket the last segment's window lies past its last step.
	span := (K + 40*math.Sqrt(K) + 100) / last.rate
	if lt.tm == gossip.Shuffles {
		kmax := last.k0 + int(math.Ceil(span*n)) + 1
		return float64(sort.Search(kmax, func(k int) bool { return lt.cdfK(k) >= p })) / n
	}
	return numeric.Bisect(func(t float64) bool { return !(lt.CDF(t) >= p) }, 0, last.t0+span, 0, 60)
}

// cpuDuration formats seconds of CPU for a refusal.
func cpuDuration(sec float64) string {
	switch {
	case sec < 120:
		return fmt.Sprintf("%.0f s", sec)
	case sec < 2*3600:
		return fmt.Sprintf("%.0f min", sec/60)
	case sec < 2*86400:
		return fmt.Sprintf("%.0f h", sec/3600)
	}
	return fmt.Sprintf("%.2g days", sec/86400)
}

// levelCount is ⌈L·N⌉, with a margin for the rounding of L·N.
func levelCount(level float64, N int) int { return int(math.Ceil(level*float64(N) - 1e-9)) }

// grid returns the output times 0, dt, 2dt, …, tMax (round(tMax/dt) + 1
// points, the last clipped to tMax).
func grid(tMax, dt float64) []float64 {
	ts := make([]float64, int(math.Round(tMax/dt))+1)
	for i := range ts {
		ts[i] = math.Min(float64(i)*dt, tMax)
	}
	return ts
}
