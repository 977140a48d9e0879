package broadcast

import (
	"math"
)

// Distribution is the law's P(T_L ≤ t), as [t, P] pairs, for every
// round t from the first whose P(T_L ≤ t) exceeds 0.001 to the first
// whose exceeds 0.999, or the last round the law reaches (Answer.CDF).
// Each value is the one Answer gives as PDeadline at Deadline t from this
// law (before any watched runs): for a Monte Carlo 1 − (late runs)/R,
// for a computed law 1 − P(T_L > t) summed from its tail (Law.late), or
// the CDF where the law states no accuracy. nil for a law with no round.
func (l *Law) Distribution() [][2]float64 {
	if l == nil || len(l.PMF) == 0 {
		return nil
	}
	p := l.deadlineCurve()
	var out [][2]float64
	for t, v := range p {
		if v > 0.001 || len(out) > 0 {
			out = append(out, [2]float64{float64(t), v})
		}
		if v > 0.999 {
			break
		}
	}
	return out
}

// deadlineCurve is, at every round t of the law, P(T_L ≤ t) as Answer
// computes PDeadline at Deadline t from the law alone, in one pass (the
// same sums in the same order as Law.late and a count of late runs, so
// the same bits): for a Monte Carlo 1 − (late runs)/R, the runs counted
// from the PMF's shares c/R (exact multiples of 1/R up to the rounding of
// the division, so c = round(PMF·R)).
func (l *Law) deadlineCurve() []float64 {
	n := len(l.PMF)
	out := make([]float64, n)
	if l.Reps > 0 {
		R, on := float64(l.Reps), 0
		for t, q := range l.PMF {
			on += int(math.Round(q * R))
			out[t] = 1 - float64(l.Reps-on)/R
		}
		return out
	}
	if p, _ := l.late(0); math.IsNaN(p) {
		for t := range out {
			out[t] = l.CDF(float64(t))
		}
		return out
	}
	// Law.late: Never plus the PMF past t summed from the last round down,
	// plus the mass the law does not hold.
	tot := l.Never
	for _, q := range l.PMF {
		tot += q
	}
	suffix := l.Never
	for t := n - 1; t >= 0; t-- {
		p := suffix
		if tot < 1 {
			p += 1 - tot
		}
		out[t] = 1 - min(p, 1)
		suffix += l.PMF[t]
	}
	return out
}

// bands is P(T_L ≤ t)'s interval at every round of the law: Wilson's
// (z = 3) for a Monte Carlo law, the CDF ± the absolute accuracy for a
// computed one (± 0 where it states none).
func (l *Law) bands() (lo, hi []float64) {
	lo, hi = make([]float64, len(l.PMF)), make([]float64, len(l.PMF))
	abs, R := l.floor(), float64(l.Reps)
	on, c := 0, 0.0
	for t, p := range l.PMF {
		if l.Reps > 0 {
			on += int(math.Round(p * R))
			iv := wilson(on, l.Reps)
			lo[t], hi[t] = iv.lo, iv.hi
			continue
		}
		c = math.Min(c+p, 1)
		lo[t], hi[t] = math.Max(c-abs, 0), math.Min(c+abs, 1)
	}
	return lo, hi
}

// spread is Answer.Spread: for each quantile level p (given T_L < ∞, at
// p·PReach; TConfidence's unconditional), the first round whose upper
// end of P(T_L ≤ t) reaches it and the first whose lower end does (NaN
// if none does within the law's rounds).
func (l *Law) spread(a Answer, conf float64) [6][2]float64 {
	var out [6][2]float64
	vals := []float64{a.Q05, a.Q25, a.Q50, a.Q75, a.Q95, a.TConfidence}
	levels := []float64{0.05 * a.PReach, 0.25 * a.PReach, 0.5 * a.PReach, 0.75 * a.PReach, 0.95 * a.PReach, conf}
	lo, hi := l.bands()
	for i, v := range vals {
		out[i] = [2]float64{math.NaN(), math.NaN()}
		if math.IsNaN(v) {
			continue
		}
		p := levels[i] * (1 - 1e-12) // quantile's margin for the running sum
		first := func(x []float64) float64 {
			for t, y := range x {
				if y >= p {
					return float64(t)
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
