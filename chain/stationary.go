package chain

import (
	"fmt"
	"math"
)

// Stationary returns the stationary law of the number of holders X for N
// nodes and jumps j: π(X) ∝ C(N, X)·r^X on X = 1..N with r = j.Up/j.Drop
// (detailed balance of the birth–death chain; see the package doc), as
// π[X] for X = 0..N (π[0] = 0). It is computed in logarithms, so large N
// do not overflow.
func Stationary(N int, j Jumps) ([]float64, error) {
	if N > MaxNodesReplication {
		return nil, fmt.Errorf("chain: stationary law for N = %d: at most %d nodes", N, MaxNodesReplication)
	}
	if N < 2 || !(j.Up > 0) || !(j.Drop > 0) {
		return nil, fmt.Errorf("chain: stationary law needs N ≥ 2 and positive copy and drop probabilities (N = %d, %+v)", N, j)
	}
	lr := math.Log(j.Up / j.Drop)
	lg := func(k int) float64 { v, _ := math.Lgamma(float64(k) + 1); return v }
	logp := make([]float64, N+1)
	top := math.Inf(-1)
	for x := 1; x <= N; x++ {
		logp[x] = lg(N) - lg(x) - lg(N-x) + float64(x)*lr
		top = math.Max(top, logp[x])
	}
	pi := make([]float64, N+1)
	sum := 0.0
	for x := 1; x <= N; x++ {
		pi[x] = math.Exp(logp[x] - top)
		sum += pi[x]
	}
	for x := range pi {
		pi[x] /= sum
	}
	return pi, nil
}
