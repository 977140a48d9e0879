package chain

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValues calls every exported entry point of the package with the
// nastiest values of its parameters' types, one at a time (package
// internal/probe): none may panic or run on past its context (or, without
// a context, for long). The baselines are small chains, with and without
// loss.
func TestNastyValues(t *testing.T) {
	ctx := context.Background()
	sh := gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}
	var set probe.Settings
	for _, eps := range []float64{0, 0.2} {
		cfg := Config{Nodes: 12, Shuffle: sh, TMax: 5, Dt: 1, Level: 0.9, Loss: eps}
		repl := Config{Nodes: 12, Shuffle: sh, TMax: 5, Dt: 1, ReplicationOnly: true, Loss: eps}
		probe.Func(t, "Validate", Config.Validate, set, cfg)
		probe.Func(t, "JumpsLossFor", JumpsLossFor, set, approx.Simplified, sh, eps)
		probe.Func(t, "Solve", Solve, set, ctx, cfg, Settings{})
		probe.Func(t, "Solve/replication", Solve, set, ctx, repl, Settings{})
		probe.Func(t, "Estimate", Estimate, set, cfg)
		probe.Func(t, "HittingMoments", HittingMoments, set, ctx, cfg)
		probe.Func(t, "MeanTimeToLevel", MeanTimeToLevel, set, ctx, cfg)
		probe.Func(t, "ReachProbability", ReachProbability, set, ctx, cfg)
		probe.Func(t, "TimeToLevel", TimeToLevel, set, ctx, cfg, Settings{})
		probe.Func(t, "Lifetime", Lifetime, set, ctx, repl)
		probe.Func(t, "QuasiStationary", QuasiStationary, set, ctx, repl)
		lt, err := TimeToLevel(ctx, cfg, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		probe.Func(t, "LevelTime.CDF", (*LevelTime).CDF, set, lt, 2.5)
		probe.Func(t, "LevelTime.Quantile", (*LevelTime).Quantile, set, lt, 0.5)
	}
	probe.Func(t, "JumpsFor", JumpsFor, set, approx.Simplified, sh)
	probe.Func(t, "Stationary", Stationary, set, Config{Nodes: 12, Shuffle: sh})
	probe.Func(t, "Cost.CPUSeconds", Cost.CPUSeconds, set, Cost{StateSteps: 1e6, NsPerStateStep: 5})
}
