package claim

import (
	"fmt"
	"math"
)

// The growth distance: the criterion of Figs. 7 and 8 ("within the
// standard deviation" of the simulations) carried to a growth time. A
// view's (or a loss's) growth time T of replication or coverage has mean
// μ and standard deviation σ over runs; the ODE's is T₀. The ODE
// describes the protocol when T₀ lies within one sd of the runs:
//
//	δ = (μ − T₀)/σ,  |δ| ≤ distHolds holds, ≤ distQualified qualified,
//
// as the take-off distance θ is graded. δ̂ = (mean − T₀)/sd of R runs has
// the standard error √(1/R + δ²/(2(R − 1))) (the delta method on a mean
// and an sd of near-normal values: Var(mean/σ) = 1/R, Var(sd/σ) ≈
// 1/(2(R − 1))), so its interval shrinks like 1/√R; its critical value is
// Student's t over the runs at the level of ZDecide normal standard
// errors. The ±5 % band of the ratio T/T₀ graded before was no criterion
// of the source, and at the quick scale's runs it left the complete graph
// (whose own gap is 0–4 %) undecided at any affordable R.

// deltaInterval is δ̂ and its interval from the mean and sd of R runs and
// the ODE's time t0.
func deltaInterval(mean, sd, t0 float64, R int) (d, lo, hi float64) {
	if R < 2 || !(sd > 0) || !(t0 > 0) {
		return math.NaN(), math.NaN(), math.NaN()
	}
	d = (mean - t0) / sd
	se := math.Sqrt(1/float64(R) + d*d/(2*float64(R-1)))
	h := TCrit(ZDecide, R) * se
	return d, d - h, d + h
}

// absBand turns an interval of δ into one of |δ|: its distance from 0
// and its largest |end|.
func absBand(lo, hi float64) (a, b float64) {
	switch {
	case lo > 0:
		a = lo
	case hi < 0:
		a = -hi
	}
	return a, math.Max(math.Abs(lo), math.Abs(hi))
}

// GradeBands grades a claim made of several |δ| intervals [a, b]: the
// claim takes its worst part's grade. "Holds" must be shown: every b ≤
// distHolds. "Does not hold" must be shown: some a > distQualified (which
// decides the claim whatever the other parts turn out to be). "Holds with
// a qualification" is the claim's weaker form, the ODE within distQualified
// sd of the runs, shown (every b ≤ distQualified) while the full form is
// not (some b > distHolds): a part whose interval lies across distHolds
// and below distQualified is qualified, not undecided. The source's
// criterion, one sd, is then a threshold that the truth may sit on
// (Fig. 8's round snapshots: |δ̂| 0.93–1.28 at every n and seed, measured
// 2026-12-05), where no number of runs would decide between the two
// grades; the weaker form is decided there, and the verdict says which
// form was shown. A part whose interval reaches past distQualified with
// its lower end at or below it is undecided at this scale, and an interval
// with a NaN end cannot be checked.
func GradeBands(bands [][2]float64) string {
	if len(bands) == 0 {
		return Unchecked
	}
	v := Holds
	for _, b := range bands {
		if math.IsNaN(b[0]) || math.IsNaN(b[1]) {
			return Unchecked
		}
	}
	for _, b := range bands {
		switch {
		case b[0] > distQualified:
			return Fails
		case b[1] > distQualified:
			v = Undecided
		case b[1] > distHolds && v == Holds:
			v = Qualified
		}
	}
	return v
}

// bandRepsToDecide is the runs at which an undecided |δ| interval [a, b]
// of R runs around v would clear distQualified, the threshold whose
// straddling leaves a claim undecided (GradeBands; NaN if it Straddles
// none).
func bandRepsToDecide(R int, v, a, b float64) float64 {
	if a <= distQualified && b > distQualified {
		return repsToDecide(R, v, Interval{a, b}, distQualified)
	}
	return math.NaN()
}

// GrowthDistText states the rule of the growth distance.
func GrowthDistText(what string) string {
	return fmt.Sprintf("%s: the growth distance δ = (μ − T₀)/σ of each growth time (rounds from %g %% to %g %% of the plateau; μ, σ the runs' mean and sd, T₀ the ODE's; a run that does not get there counts as the horizon and leaves the interval open above) with its interval (Student's t over the runs at the level of %g normal standard errors, se √(1/R + δ²/(2(R−1)))): every interval of |δ| within %g (the ODE within one sd of the runs, the source's criterion of Figs. 7–8) holds; every one within %g, some not within %g, holds with a qualification (the ODE within %g sd shown, within one not shown: the truth may sit on the source's threshold, where no number of runs decides it); some interval wholly beyond %g does not hold; an interval across %g is undecided at this scale",
		what, 100*GrowthLo, 100*GrowthHi, float64(ZDecide), distHolds, distQualified, distHolds, distQualified, distQualified, distQualified)
}

// GrowthShort is the claims table's phrase of a growth-distance verdict:
// worstDelta, led, where the verdict is qualified, by the form of the
// claim that was shown.
func GrowthShort(verdict string, gs []Growth, runs string) string {
	s := worstDelta(gs, runs)
	if verdict == Qualified {
		s = fmt.Sprintf("within %g sd shown, within %g sd not shown: %s", distQualified, distHolds, s)
	}
	return s
}
