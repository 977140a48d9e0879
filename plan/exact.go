package plan

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/chain"
)

// maxExactNodes is the largest N the joint chain takes.
const maxExactNodes = chain.MaxNodesJoint

// exactGrid is the largest spacing, in rounds, of the output times at which
// the exact method reads P(T_L ≤ t) for the quantiles it interpolates.
const exactGrid = 0.5

// ExactCost estimates the work of the exact method in state updates: the
// chain steps N·t_hi shuffles three times (the transient pass with its
// Poisson mixtures and the pass for the level), over a live region of at
// most N²/4 states, with t_hi the horizon the method needs (exactHorizon,
// from the mean and sd of first-step analysis, an O(N·⌈L·N⌉) solve that is
// not counted). It is an estimate for choosing a method, not a bound.
func ExactCost(cfg Config) float64 {
	if cfg.Nodes > maxExactNodes {
		return math.Inf(1)
	}
	n := float64(cfg.Nodes)
	mean, sd, err := exactMoments(context.Background(), cfg)
	if err != nil {
		return math.Inf(1)
	}
	return 3 * n * exactHorizon(cfg, mean, sd) * n * n / 4
}

// exactHorizon is the last output time of the transient pass: the deadline
// or mean + (3 + 1.3·ln(1/(1−P)))·sd for the largest probability asked
// (P ≥ 0.95), whichever is later; the law's right tail is exponential with
// rate about K·u, which is below sd⁻¹·1.3, so the P-quantile lies inside.
func exactHorizon(cfg Config, mean, sd float64) float64 {
	p := max(cfg.confidence(), 0.95)
	return math.Max(cfg.Deadline, mean+(3+1.3*math.Log(1/(1-p)))*sd)
}

func chainConfig(cfg Config) chain.Config {
	return chain.Config{Nodes: cfg.Nodes, Shuffle: cfg.Shuffle, Initial: cfg.initial(), PDrop: cfg.PDrop, Level: cfg.Level, Time: cfg.Time}
}

// exactMoments are the mean and sd of T_L by first-step analysis.
func exactMoments(ctx context.Context, cfg Config) (mean, sd float64, err error) {
	return chain.MeanTimeToLevel(ctx, chainConfig(cfg))
}

// solveExact solves the chain to the horizon with output times Dt ≤
// exactGrid apart, the deadline one of them: mean and sd by first-step
// analysis, Q05, Q50 and Q95 from the chain's law of T_L, P(T_L ≤ D) from
// the output time D, and the other quantiles by linear interpolation of
// P(T_L ≤ t) between output times.
func solveExact(ctx context.Context, cfg Config, set Settings) (*Answer, error) {
	mean, sd, err := exactMoments(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	hi := exactHorizon(cfg, mean, sd)
	dt := exactGrid
	if cfg.Deadline > 0 {
		dt = cfg.Deadline / math.Ceil(cfg.Deadline/exactGrid)
	}
	cc := chainConfig(cfg)
	cc.Dt = dt
	cc.TMax = dt * math.Ceil(hi/dt)
	res, err := chain.Solve(ctx, cc, chain.Settings{Progress: set.Progress})
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	lt := res.Level
	a := &Answer{Mean: lt.Mean, SD: lt.SD, Q05: lt.Q05, Q50: lt.Q50, Q95: lt.Q95, PDeadline: math.NaN(), Accuracy: noAccuracy()}
	ts := make([]float64, len(res.Rows))
	ps := make([]float64, len(res.Rows))
	for i, r := range res.Rows {
		ts[i], ps[i] = r.T, r.PLevel
	}
	a.Q25, a.Q75 = gridQuantile(ts, ps, 0.25), gridQuantile(ts, ps, 0.75)
	switch p := cfg.confidence(); p {
	case 0.05:
		a.TConfidence = a.Q05
	case 0.5:
		a.TConfidence = a.Q50
	case 0.95:
		a.TConfidence = a.Q95
	default:
		a.TConfidence = gridQuantile(ts, ps, p)
	}
	if cfg.Deadline > 0 {
		// The output time nearest D is D itself (Dt divides D).
		i := int(math.Round(cfg.Deadline / dt))
		a.PDeadline = ps[i]
	}
	a.Accuracy.Bound, a.Accuracy.Grid = res.Bound, dt
	a.Accuracy.Note = fmt.Sprintf("exact chain: probabilities within %.1e (total-variation bound); mean and sd by first-step analysis; q25, q75 and any quantile other than 5/50/95 %% interpolated in the CDF between output times %.3g rounds apart", res.Bound, dt)
	return a, nil
}

// gridQuantile returns the smallest t with F(t) ≥ p for a CDF known at
// increasing times ts, linear between them; NaN if F never reaches p.
func gridQuantile(ts, ps []float64, p float64) float64 {
	for i, v := range ps {
		if v >= p {
			if i == 0 {
				return ts[0]
			}
			return ts[i-1] + (p-ps[i-1])/(v-ps[i-1])*(ts[i]-ts[i-1])
		}
	}
	return math.NaN()
}
