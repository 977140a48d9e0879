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
	return expNormalized(logp, top), nil
}

// expNormalized returns the law proportional to exp(logw[x]) on x = 1..N
// (index 0 is 0), computed as exp(logw[x] − top) so that nothing
// overflows, top being the largest log-weight.
func expNormalized(logw []float64, top float64) []float64 {
	p := make([]float64, len(logw))
	sum := 0.0
	for x := 1; x < len(logw); x++ {
		p[x] = math.Exp(logw[x] - top)
		sum += p[x]
	}
	for x := range p {
		p[x] /= sum
	}
	return p
}

// reachLaw is the law that bounds the X that the live mass reaches, for
// the uniformization rate and the cost model: without loss the stationary
// law (from one copy X stays stochastically below it); with loss the
// stationary law of the chain reflected at X = 1 (the loss jump kept, the
// death from X = 1 suppressed), by detailed balance
// ν(X+1)/ν(X) = λ(X)/μ(X+1): coupled with it until d dies, the lossy chain's
// live mass lies below it too, and it is far below the lossless law
// (which ignores ℓ and whose u/w grows with ε).
func reachLaw(nodes int, j Jumps) ([]float64, error) {
	if j.Lose == 0 {
		return stationary(nodes, j)
	}
	N := nodes
	if N > MaxNodesReplication {
		return nil, fmt.Errorf("chain: reflected law for Config.Nodes = %d: at most %d nodes", N, MaxNodesReplication)
	}
	if N < 2 || !(j.Up > 0) || !(j.Drop > 0) {
		return nil, fmt.Errorf("chain: reflected law needs Config.Nodes ≥ 2 and positive copy and drop probabilities (Config.Nodes = %d, %+v)", N, j)
	}
	return reflected(N, j), nil
}

// reflected returns the stationary law, as ν[X] for X = 0..N (ν[0] = 0),
// of the birth–death chain of X with the killing at X = 1 suppressed:
// log ν(X) = Σ_{k<X} log λ(k) − log μ(k+1), in logarithms so that large N
// do not overflow.
func reflected(N int, j Jumps) []float64 {
	lam, mu := birthDeath(N, j)
	logv := make([]float64, N+1)
	top := 0.0
	for x := 2; x <= N; x++ {
		logv[x] = logv[x-1] + math.Log(lam[x-1]) - math.Log(mu[x])
		top = math.Max(top, logv[x])
	}
	return expNormalized(logv, top)
}
