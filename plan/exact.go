package plan

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/chain"
)

// maxExactNodes is the largest N the joint chain takes.
const maxExactNodes = chain.MaxNodesJoint

// ExactCost estimates the work of the exact method in state-steps (one
// step of the uniformized chain over one live state): chain.Estimate of
// chain.TimeToLevel's solve (Estimate for TMax = 1 round, the level's law
// stepped until P(T_L > t) < Tol), meant by package chain to be within a
// factor 3 of the work. +Inf above chain.MaxNodesJoint or for a
// configuration the chain refuses.
func ExactCost(cfg Config) float64 {
	if cfg.Nodes > maxExactNodes {
		return math.Inf(1)
	}
	cc := chainConfig(cfg)
	cc.TMax, cc.Dt = 1, 1
	c, err := chain.Estimate(cc)
	if err != nil {
		return math.Inf(1)
	}
	return c.StateSteps
}

func chainConfig(cfg Config) chain.Config {
	return chain.Config{Nodes: cfg.Nodes, Shuffle: cfg.Shuffle, Initial: cfg.initial(), PDrop: cfg.PDrop, Level: cfg.Level, Time: cfg.Time, Loss: cfg.Loss}
}

// exactMoments are the mean and sd of T_L by first-step analysis.
func exactMoments(ctx context.Context, cfg Config) (mean, sd float64, err error) {
	return chain.MeanTimeToLevel(ctx, chainConfig(cfg))
}

// solveExact reads every query off the chain's law of T_L
// (chain.TimeToLevel): mean and sd by first-step analysis, the quantiles
// by bisection of its CDF, P(T_L ≤ D) from the CDF, all within the
// chain's bound.
func solveExact(ctx context.Context, cfg Config, set Settings) (*Answer, error) {
	lt, err := chain.TimeToLevel(ctx, chainConfig(cfg), chain.Settings{Progress: set.Progress})
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	// With loss the chain's Mean, SD, Q05, Q50 and Q95 are given T_L < ∞,
	// its Quantile that of the defective law (+Inf past PReach).
	a := &Answer{PReach: lt.PReach, Mean: lt.Mean, SD: lt.SD, Q05: lt.Q05, Q50: lt.Q50, Q95: lt.Q95, PDeadline: math.NaN(), Accuracy: noAccuracy()}
	a.Q25, a.Q75 = lt.Quantile(0.25), lt.Quantile(0.75)
	if cfg.Loss > 0 {
		a.Q25, a.Q75 = lt.Quantile(0.25*lt.PReach), lt.Quantile(0.75*lt.PReach)
	}
	a.TConfidence = lt.Quantile(cfg.confidence())
	if math.IsInf(a.TConfidence, 1) {
		a.TConfidence = math.NaN() // PReach < Confidence
	}
	if cfg.Deadline > 0 {
		a.PDeadline = lt.CDF(cfg.Deadline)
	}
	a.Accuracy.Bound = lt.Bound
	a.Accuracy.Note = fmt.Sprintf("exact chain: the law of T_L within %.1e (the chain's bound on its CDF); mean and sd by first-step analysis; quantiles by bisection of the CDF", lt.Bound)
	if cfg.Loss > 0 {
		a.Accuracy.Note += fmt.Sprintf("; with loss ε = %g the item dies out before the level with probability %.4g (first-step analysis); mean, sd and quantiles given T_L < ∞", cfg.Loss, 1-lt.PReach)
	}
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
