// Package stats holds the one mean-and-standard-deviation helper that the
// simulators' summaries share.
//
// # Contract
//
// MeanSD takes no context and never panics: no values give a NaN mean and
// sd 0, one value sd 0, a NaN among them a NaN mean. TestContract checks
// it.
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
