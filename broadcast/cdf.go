package broadcast

import (
	"math"
)

// Distribution is the law's P(T_L ≤ t), as [t, P] pairs, for every
// round t from the first whose P(T_L ≤ t) exceeds 0.001 to the first
// whose exceeds 0.999, or the last round the law reaches (Answer.CDF).
// Each value is the one Answer gives as PDeadline at Deadline t from this
// law: at level 1 for a Monte Carlo 1 − P(T_L > t) from the watched
// runs' curves and the count (Law.curveLate, the more accurate at each
// t); elsewhere for a Monte Carlo 1 − (late runs)/R, for a computed law
// 1 − P(T_L > t) summed from its tail (Law.late), or the CDF where the
// law states no accuracy. nil for a law with no round.
//
// Without the curves, P(T_L ≤ t) changes only at the rounds with mass
// (adding a zero leaves every sum's bits as they were), so it is worked
// out once per round with mass and the list is allocated once, at its
// length: the memory is the rounds with mass and the rounds listed, not
// the PMF's length (a law of 2^22 rounds with mass on two cost 24 bytes a
// round; the CDF where the law states no accuracy was quadratic in the
// rounds).
func (l *Law) Distribution() [][2]float64 {
	if l == nil || len(l.PMF) == 0 {
		return nil
	}
	// Segment i holds the rounds from starts[i] to the next start − 1:
	// every round of the curves (at most maxCurveRounds); else round 0 and
	// each later round with mass. vals[i] is P(T_L ≤ t) on it as Answer
	// computes PDeadline, the same sums in the same order.
	n := len(l.PMF)
	starts := []int{0}
	var vals []float64
	nanLate := false
	if l.curveLate != nil {
		n = len(l.curveLate)
		starts = make([]int, n)
		vals = make([]float64, n)
		for t, iv := range l.curveLate {
			starts[t], vals[t] = t, 1-iv.v
		}
	} else {
		for r := 1; r < n; r++ {
			if l.PMF[r] != 0 {
				starts = append(starts, r)
			}
		}
		vals = make([]float64, len(starts))
		if l.Reps == 0 {
			p, _ := l.late(0)
			nanLate = math.IsNaN(p)
		}
	}
	switch {
	case l.curveLate != nil:
	case l.Reps > 0:
		// 1 − (late runs)/R, the runs counted from the PMF's shares.
		R, on := float64(l.Reps), 0
		for i, s := range starts {
			on += int(math.Round(l.PMF[s] * R))
			vals[i] = 1 - float64(l.Reps-on)/R
		}
	case nanLate:
		// Law.CDF: the PMF summed from round 0.
		c := 0.0
		for i, s := range starts {
			c += l.PMF[s]
			vals[i] = min(c, 1)
		}
	default:
		// Law.late: Never plus the PMF past t summed from the last round
		// down, plus the mass the law does not hold.
		tot := l.Never
		for _, s := range starts {
			tot += l.PMF[s]
		}
		suffix := l.Never
		for i := len(starts) - 1; i >= 0; i-- {
			p := suffix
			if tot < 1 {
				p += 1 - tot
			}
			vals[i] = 1 - min(p, 1)
			suffix += l.PMF[starts[i]]
		}
	}
	end := func(i int) int { // the segment's last round
		if i+1 < len(starts) {
			return starts[i+1] - 1
		}
		return n - 1
	}
	first, last := -1, -1
	for i, v := range vals {
		if first < 0 && v > 0.001 {
			first = starts[i]
		}
		if first < 0 {
			continue
		}
		if v > 0.999 {
			last = max(starts[i], first)
			break
		}
		last = end(i)
	}
	if first < 0 {
		return nil
	}
	out := make([][2]float64, 0, last-first+1)
	for i, v := range vals {
		for t := max(starts[i], first); t <= min(end(i), last); t++ {
			out = append(out, [2]float64{float64(t), v})
		}
	}
	return out
}

// bands is P(T_L ≤ t)'s interval at every round of the law: the curves'
// where the law has them (Law.curveLate), Wilson's (z = 3) for a Monte
// Carlo law, the CDF ± the absolute accuracy for a
// computed one (± 0 where it states none). The interval is
// lo[i]..hi[i] on the rounds from starts[i] to the next start − 1: every
// round of the curves; else round 0 and each later round with mass (the
// interval changes at no other round), so that its memory is the rounds
// with mass, not the PMF's length.
func (l *Law) bands() (starts []int, lo, hi []float64) {
	if l.curveLate != nil {
		starts = make([]int, len(l.curveLate))
		lo, hi = make([]float64, len(l.curveLate)), make([]float64, len(l.curveLate))
		for t, iv := range l.curveLate {
			starts[t], lo[t], hi[t] = t, 1-iv.hi, 1-iv.lo
		}
		return starts, lo, hi
	}
	abs, R := l.floor(), float64(l.Reps)
	on, c := 0, 0.0
	for t, p := range l.PMF {
		if t > 0 && p == 0 {
			continue // the interval of round t − 1
		}
		starts = append(starts, t)
		if l.Reps > 0 {
			on += int(math.Round(p * R))
			iv := wilson(on, l.Reps)
			lo, hi = append(lo, iv.lo), append(hi, iv.hi)
			continue
		}
		c = math.Min(c+p, 1)
		lo, hi = append(lo, math.Max(c-abs, 0)), append(hi, math.Min(c+abs, 1))
	}
	return starts, lo, hi
}

// spread is Answer.Spread: for each quantile level p (given T_L < ∞, at
// p·PReach; TConfidence's unconditional), the first round whose upper
// end of P(T_L ≤ t) reaches it and the first whose lower end does (NaN
// if none does within the law's rounds).
func (l *Law) spread(a Answer, conf float64) [6][2]float64 {
	var out [6][2]float64
	vals := []float64{a.Q05, a.Q25, a.Q50, a.Q75, a.Q95, a.TConfidence}
	levels := []float64{0.05 * a.PReach, 0.25 * a.PReach, 0.5 * a.PReach, 0.75 * a.PReach, 0.95 * a.PReach, conf}
	starts, lo, hi := l.bands()
	for i, v := range vals {
		out[i] = [2]float64{math.NaN(), math.NaN()}
		if math.IsNaN(v) {
			continue
		}
		p := levels[i]
		first := func(x []float64) float64 {
			for j, y := range x {
				if reaches(y, 1-y, p) {
					return float64(starts[j]) // the first round of its segment
				}
			}
			return math.NaN()
		}
		// The value itself is within its spread (the band holds the CDF).
		out[i][0], out[i][1] = math.Min(first(hi), v), first(lo)
		if !math.IsNaN(out[i][1]) {
			out[i][1] = math.Max(out[i][1], v)
		}
	}
	return out
}

// curveAt is P(T_L > D)'s interval from the watched runs' curves, where
// the law has them at round ⌊D⌋ (past their last round, their last
// value where no run was capped).
func (l *Law) curveAt(D float64) (interval, bool) {
	n := len(l.curveLate)
	switch {
	case !(D >= 0) || n == 0:
		return interval{}, false
	case D >= float64(n) && (l.curves.Capped > 0 || l.curveExact):
		// A run capped at maxCurveRounds, or the exact chain's end: past
		// it nothing is known. With none, every run holds its last value
		// past its curve's end.
		return interval{}, false
	case D >= float64(n):
		D = float64(n - 1)
	}
	iv := l.curveLate[int(D)]
	return iv, !math.IsNaN(iv.v)
}

// curveLateFrom is P(T_L > t) at rounds t = 0..T−1, each the most
// accurate (better) of the count of late runs, late[t] of R, the runs'
// shares (lateShare) and the Bonferroni bracket of the watched runs'
// curves at t (as improveThree
// states P(T_L > D) from the runs' values by D, with the early end's
// floor for a budgeted push); the count alone where the curves do not
// reach t.
func curveLateFrom(cfg Config, c *Curves, late []int, R int) []interval {
	M := cfg.Live()
	floor := 0.0
	if cfg.Protocol == Push && cfg.Budget > 0 {
		floor = earlyEnd(cfg)
	}
	out := make([]interval, len(late))
	for t, x := range late {
		out[t] = wilson(x, R)
		p1, se1, ok1 := c.Moments(1, t)
		p2, se2, ok2 := c.Moments(2, t)
		if !ok1 || M >= 3 && !ok2 {
			continue
		}
		if M < 3 {
			p2, se2 = 0, 0
		}
		// The variance floors of the end's values (improveThree): the
		// early end's and, with a budget, the runs that miss another node
		// (unseenMissAt), which the sample may lack; and everywhere the
		// rounding of the weights' logarithms, (p·10⁻¹³)², without which
		// runs of equal weights to the last bit (push at N 3000, B 40)
		// state a chance of 1.9e-13 as exact.
		n := float64(c.Runs)
		un1, un2 := (p1*1e-13)*(p1*1e-13), (p2*1e-13)*(p2*1e-13)
		if cfg.Protocol == Push && cfg.Budget > 0 {
			un1, un2 = unseenMissAt(cfg, interval{v: p1}), 4*unseenMissAt(cfg, interval{v: p2})
		}
		se1 = math.Sqrt(se1*se1 + (floor+un1)/n)
		se2 = math.Sqrt(se2*se2 + (floor+un2)/n)
		br, _ := underflowed(cfg, bracket(M, p1, se1, p2, se2), float64(M))
		out[t] = better(out[t], br)
		// The runs' shares of P(T_L > t) (lateShare), with the first
		// run's variance floors (a share is at most its chance), where
		// they carry at least minShares runs' worth, (p₃/se₃)² the
		// effective count, as lateInterval asks: no positive share (every
		// run's weight 0 by t) is no statement, and it stated P(T_L > 12)
		// at push–pull N 500, k 1, B 4 as 0, exact
		// (TestNoUnderflowClaimWithCertainPulls).
		if p3, se3, ok3 := c.Moments(3, t); ok3 && M >= 2 && p3 > 0 && p3*p3 >= minShares*se3*se3 {
			out[t] = better(out[t], sharesInterval(M, p3, math.Sqrt(se3*se3+(floor+un1)/n)))
		}
	}
	monotone(out)
	return out
}

// monotone makes the intervals of P(T_L > t), which cannot rise with t,
// agree with that: an upper end is lowered to an earlier round's, a lower
// end raised to a later round's (each a consequence of the others'
// statements). The estimator chosen can change from round to round (the
// count where late runs are many, the bracket where they are few): at N
// 60, k 2, B 8 the count said every run was late at round 4 where the
// bracket had said 0.9966 at round 3. Where two rounds' statements
// contradict (an earlier upper end below a later lower end, which
// independent estimates can give), a round keeps its own interval
// widened to the other's nearest end, never a point. The estimates are
// then made non-increasing by pooling adjacent violators (their mean),
// and an interval that does not hold its round's estimate is widened to
// it.
func monotone(iv []interval) {
	own := append([]interval(nil), iv...)
	for t := 1; t < len(iv); t++ {
		iv[t].hi = math.Min(iv[t].hi, iv[t-1].hi)
	}
	for t := len(iv) - 2; t >= 0; t-- {
		iv[t].lo = math.Max(iv[t].lo, iv[t+1].lo)
	}
	for t := range iv {
		if iv[t].lo > iv[t].hi {
			iv[t].lo, iv[t].hi = math.Min(own[t].lo, iv[t].hi), math.Max(own[t].hi, iv[t].lo)
		}
	}
	// Pool adjacent violators: blocks of equal estimates, non-increasing.
	type block struct {
		sum  float64
		n, t int
	}
	var st []block
	for t, x := range iv {
		b := block{x.v, 1, t}
		for len(st) > 0 && st[len(st)-1].sum/float64(st[len(st)-1].n) < b.sum/float64(b.n) {
			top := st[len(st)-1]
			st = st[:len(st)-1]
			b = block{top.sum + b.sum, top.n + b.n, top.t}
		}
		st = append(st, b)
	}
	for _, b := range st {
		v := b.sum / float64(b.n)
		for t := b.t; t < b.t+b.n; t++ {
			if b.n > 1 {
				iv[t].v = v
			}
			iv[t].lo, iv[t].hi = math.Min(iv[t].lo, iv[t].v), math.Max(iv[t].hi, iv[t].v)
		}
	}
}

// setCurves sets P(T_L > t) from the curves c and the count of R runs
// whose T_L histogram is hist (never: the runs with T_L = ∞), at every
// round of the histogram and of the curves (past their last round every
// run holds its last value).
func (l *Law) setCurves(cfg Config, c *Curves, hist []int, never, R int) {
	T := len(hist)
	if len(c.Sums[0]) >= T {
		T = min(len(c.Sums[0])+1, maxCurveRounds+1)
	}
	late := make([]int, T)
	above := never
	for t := T - 1; t >= 0; t-- {
		late[t] = above
		if t < len(hist) {
			above += hist[t]
		}
	}
	l.curves = c.Clone() // the sample's sums stay its own (refineCurves adds to these)
	l.curveCount, l.curveNever, l.curveR = hist, never, R
	l.curveLate = curveLateFrom(cfg, &l.curves, late, R)
}
