// Package stats holds the small statistics the packages share: the mean
// and standard deviation of the simulators' summaries, and Wilson's score
// interval of a share of runs.
//
// # Contract
//
// MeanSD and Wilson take no context and never panic: no values give a NaN
// mean and sd 0, one value sd 0, a NaN among them a NaN mean; Wilson of n
// ≤ 0 runs is (NaN, NaN). TestContract checks it.
package stats

import "math"

// MeanSD returns the mean and the sample standard deviation (divisor
// len(v) − 1; 0 for one value) of v, summed in the order given, so that a
// merge that restores the order reproduces a single run's floats exactly.
// It is the textbook two-pass formula; gonum's stat.MeanStdDev adds a
// compensation term, which changes the last bits and so every table printed
// at full precision.
func MeanSD(v []float64) (mean, sd float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	s := 0.0
	for _, x := range v {
		s += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(s / float64(len(v)-1))
}

// MeanSE returns the mean of v and its standard error, the sample
// standard deviation over √len(v) (MeanSD's; 0 for one value).
func MeanSE(v []float64) (mean, se float64) {
	mean, sd := MeanSD(v)
	return mean, sd / math.Sqrt(float64(len(v)))
}

// Wilson is Wilson's score interval at z standard errors for a share p of
// n runs (Wilson 1927): unlike p ± z·√(p(1−p)/n) it does not shrink to a
// point at p = 0 or 1 (its lower end is then n/(n + z²) below 1), so n
// runs never claim more than they resolve. (NaN, NaN) for n ≤ 0.
func Wilson(p float64, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return math.NaN(), math.NaN()
	}
	fn, z2 := float64(n), z*z
	c := (p + z2/(2*fn)) / (1 + z2/fn)
	h := z * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn)) / (1 + z2/fn)
	return math.Max(c-h, 0), math.Min(c+h, 1)
}
