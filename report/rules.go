package report

import "github.com/gossipkit/gossipkit/sim"

// The rules of the verdicts: each is a function of measured figures only,
// with its thresholds as named constants, so that the table of verdicts,
// the text and the tests use one rule.

// Fig. 7 and Fig. 8: "within the standard deviation" is graded by the share
// of rounds at which the ODE lies within one sd of the simulated mean.
const (
	sdShareHolds     = 0.95
	sdShareQualified = 0.68
)

// sdRule grades a share of rounds within one sd.
func sdRule(within float64) string {
	switch {
	case within >= sdShareHolds:
		return holds
	case within >= sdShareQualified:
		return qualified
	}
	return fails
}

// Fig. 1's transitions: within transZ binomial standard errors holds;
// beyond it but within transDiff in absolute terms holds with a
// qualification (significant at this sample size, but small).
const (
	transZ    = 4
	transDiff = 0.01
)

// transRule judges the transition test.
func transRule(t sim.TransitionTest) string {
	switch {
	case t.MaxZ > transZ && t.MaxDiff < transDiff:
		return qualified
	case t.MaxZ > transZ:
		return fails
	}
	return holds
}

// steadyZ: the late mean of x within steadyZ standard errors of c/n at
// every n.
const steadyZ = 3

// steadyRule judges the steady state by its largest distance from c/n in
// standard errors.
func steadyRule(worstSE float64) string {
	if worstSE > steadyZ {
		return fails
	}
	return holds
}

// reachLevel: coverage "reaches 1" if the smallest final mean is at least
// this; below it the rounds simulated were too few to tell.
const reachLevel = 0.99

// reachRule judges "coverage eventually reaches 1".
func reachRule(final float64) string {
	if final < reachLevel {
		return unchecked
	}
	return holds
}

// nearLog10: S is "close" to formula (1) if |E − S| stays below 10^nearLog10
// (drop probabilities are O(1)).
const nearLog10 = -2

// nearRule judges "the correction factor is small" by the largest
// log10 |E − S|.
func nearRule(hi float64) string {
	if hi >= nearLog10 {
		return qualified
	}
	return holds
}

// gapRatio: the protocol's and the pairwise-Markov simulation's largest
// coverage gaps are "similar" within this factor.
const gapRatio = 1.5

// similarGaps reports whether two gaps are within a factor gapRatio.
func similarGaps(a, b float64) bool {
	r := a / b
	return !(r > gapRatio || r < 1/gapRatio)
}
