package chain

import (
	"context"
	"fmt"

	"github.com/gossipkit/gossipkit/internal/ctxguard"
)

// ReplicationTime returns the mean and standard deviation of the time, in
// rounds, until the holder count X first reaches holders copies, from
// cfg.Initial copies (0 means 1), in the birth–death chain of X alone
// (package doc: X → X+1 w.p. u·X(N−X)/D, X → X−1 w.p. w·X(X−1)/D, D =
// N(N−1), u = Jumps.Up, w = Jumps.Drop), lossless: with loss d may die
// first, and Config.Loss > 0 is refused. The clock is cfg.Time, as in
// MeanTimeToLevel; cfg.ReplicationOnly, Level, TMax and Dt are not used.
//
// The passage times τ_j from j to j + 1 copies are independent (the chain
// is skip-free upward), and one shuffle from j goes up (λ_j), down (μ_j)
// or stays, so with m_j = E[τ_j] and s_j = E[τ_j²], in shuffles,
//
//	m_j = (1 + μ_j·m_{j−1})/λ_j,
//	s_j = (2m_j − 1 + μ_j·(s_{j−1} + 2m_{j−1}·m_j))/λ_j,
//
// (τ_j = 1 + 0 | τ_{j−1} + τ_j′ | τ_j′ after an up, a down or no move;
// μ_1 = 0, so τ_1 is geometric), and K = Σ_j τ_j from Initial to
// holders − 1 has E[K] = Σ m_j and Var K = Σ (s_j − m_j²): exact up to
// rounding, O(holders) work. Both λ_j and μ_j are u(s) times a function
// of j alone when the drop probability is the simplified one (w/u =
// (n − c)/c; docs/MODEL.md §4, "replication in the pairwise model is one
// process on a clock that s sets"), so the time is ∝ 1/u(s) there.
func ReplicationTime(ctx context.Context, cfg Config, holders int) (mean, sd float64, err error) {
	if err := ctxguard.Check("chain", ctx); err != nil {
		return 0, 0, err
	}
	cfg.ReplicationOnly, cfg.Level = true, 0
	if cfg.TMax == 0 {
		cfg.TMax, cfg.Dt = 1, 1 // not used here; satisfy Validate
	}
	if err := cfg.Validate(); err != nil {
		return 0, 0, err
	}
	if cfg.Loss != 0 {
		return 0, 0, fmt.Errorf("chain: %w", &FieldError{Field: "Config.Loss", Msg: fmt.Sprintf("%g: ReplicationTime is lossless (with loss d may die first); valid value 0", cfg.Loss)})
	}
	initial := max(cfg.Initial, 1)
	if holders < initial || holders > cfg.Nodes {
		return 0, 0, fmt.Errorf("chain: holders = %d: valid range Initial..N = %d..%d", holders, initial, cfg.Nodes)
	}
	j, err := cfg.jumps()
	if err != nil {
		return 0, 0, err
	}
	ek, ek2 := replicationMoments(cfg.Nodes, initial, holders, j)
	mean, sd = hittingStat(cfg.Time, cfg.Nodes, ek, ek2)
	return mean, sd, nil
}

// replicationMoments returns E[K] and E[K²] for K, the shuffles until X
// first reaches holders from initial (ReplicationTime's recursion).
func replicationMoments(nodes, initial, holders int, jp Jumps) (ek, ek2 float64) {
	N := float64(nodes)
	D := N * (N - 1)
	var mPrev, sPrev, varK float64
	for x := 1; x < holders; x++ {
		X := float64(x)
		lam := jp.Up * X * (N - X) / D
		mu := jp.Drop * X * (X - 1) / D
		m := (1 + mu*mPrev) / lam
		s := (2*m - 1 + mu*(sPrev+2*mPrev*m)) / lam
		if x >= initial {
			ek += m
			varK += s - m*m
		}
		mPrev, sPrev = m, s
	}
	return ek, varK + ek*ek
}
