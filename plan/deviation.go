package plan

import "math"

// Measured deviation of the asymptotic law from the exact chain (package
// doc, TestAsymptoticAgainstChain): over n = 500, c = 100, s ∈ {20, 50, 80},
// K ∈ {1, 5}, L ∈ {0.9, 0.99, 1} and N ∈ {100, 300, 1000, 3000}, in units of
// the Yule phase's time scale 1/u,
//
//	|Δmean| ≤ devMeanC/(u·N),   |Δsd| ≤ devSDC/(u·√N).
//
// The largest measured |Δmean|·u·N is 10.99, 10.85, 10.80 and 10.79 at
// N = 100, 300, 1000 and 3000 (the mean's error is 1/N), and the largest
// |Δsd|·u·√N 1.90, 1.77, 1.55 and 1.19 (the sd's falls a little faster
// than 1/√N); the constants round them up.
const (
	devMeanC = 12
	devSDC   = 2
)

// asymptoticDeviation returns the stated bounds on |Δmean| and |Δsd| for N
// nodes and growth rate u.
func asymptoticDeviation(N int, u float64) (mean, sd float64) {
	n := float64(N)
	return devMeanC / (u * n), devSDC / (u * math.Sqrt(n))
}
