package chain

import (
	"fmt"
	"math"
)

// Stationary returns the stationary law of the number of holders X for
// cfg.Nodes nodes, shuffle cfg.Shuffle and P_drop cfg.PDrop, as π[X] for
// X = 0..N (π[0] = 0): π(X) ∝ C(N, X)·r^X on X = 1..N with r = u/w, the
// ratio of the copy and drop jumps (detailed balance of the birth–death
// chain; see the package doc). The other fields are not used, and Nodes
// may go up to MaxNodesReplication. It is computed in logarithms, so large
// N do not overflow. Without loss only: with Config.Loss > 0 it is an
// error (see QuasiStationary).
func Stationary(cfg Config) ([]float64, error) {
	c := Config{Nodes: cfg.Nodes, Shuffle: cfg.Shuffle, PDrop: cfg.PDrop, ReplicationOnly: true, TMax: 1, Dt: 1}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if cfg.Loss != 0 {
		// With loss the stationary law is X = 0; the law given survival
		// is QuasiStationary's.
		return nil, fmt.Errorf("chain: %w", &FieldError{Field: "Config.Loss", Msg: fmt.Sprintf("%g: with loss d dies for sure and the stationary law is X = 0 (QuasiStationary gives the law given survival)", cfg.Loss)})
	}
	j, err := JumpsFor(cfg.PDrop, cfg.Shuffle)
	if err != nil {
		return nil, err
	}
	return stationary(cfg.Nodes, j)
}

// stationary is Stationary for the given number of nodes and jumps j.
func stationary(nodes int, j Jumps) ([]float64, error) {
	N := nodes
	if N > MaxNodesReplication {
		return nil, fmt.Errorf("chain: stationary law for Config.Nodes = %d: at most %d nodes", N, MaxNodesReplication)
	}
	if N < 2 || !(j.Up > 0) || !(j.Drop > 0) {
		return nil, fmt.Errorf("chain: stationary law needs Config.Nodes ≥ 2 and positive copy and drop probabilities (Config.Nodes = %d, %+v)", N, j)
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
