package plan

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
	"github.com/gossipkit/gossipkit/sim"
)

// TestNastyValues calls the package's exported entry points with the
// nastiest values of their parameters' types, one at a time (package
// internal/probe): none may panic or run on past its context.
func TestNastyValues(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Nodes: 30, Shuffle: gossip.Shuffle{Items: 60, Cache: 10, Exchange: 3}, Level: 0.9, Deadline: 20, Loss: 0.1}
	var set probe.Settings
	probe.Func(t, "Validate", Config.Validate, set, cfg)
	probe.Func(t, "ParseMethod", ParseMethod, set, "auto")
	probe.Func(t, "ExactCost", ExactCost, set, cfg)
	probe.Func(t, "Check", Check, set, cfg, []int{2, 3}, Settings{})
	probe.Func(t, "Solve", Solve, set, ctx, cfg, Settings{})
	probe.Func(t, "Sweep", Sweep, set, ctx, cfg, []int{2, 3}, Settings{})
	probe.Func(t, "LossSweep", LossSweep, set, ctx, cfg, []int{3}, []float64{0, 0.1}, Settings{})
	graph := cfg
	graph.Topology = sim.Topology{Kind: sim.Regular, Degree: 4}
	probe.Func(t, "Solve topology", Solve, set, ctx, graph, Settings{Method: MonteCarlo, Model: Markov, Reps: 5})
	d, err := Sweep(ctx, cfg, []int{2, 3}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Design.Table", (*Design).Table, set, d)
	probe.Func(t, "Design.Header", (*Design).Header, set, d)
	probe.Func(t, "Design.Choice", (*Design).Choice, set, d)
	ld, err := LossSweep(ctx, cfg, []int{3}, []float64{0, 0.1}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "LossDesign.Table", (*LossDesign).Table, set, ld)
	probe.Func(t, "LossDesign.Header", (*LossDesign).Header, set, ld)
	probe.Func(t, "LossDesign.Choice", (*LossDesign).Choice, set, ld)
	probe.Func(t, "LossDesign.Choose", (*LossDesign).Choose, set, ld)
	probe.Func(t, "Accuracy.DevQuantile", Accuracy.DevQuantile, set, d.Rows[0].Accuracy, 0.5)
	probe.Func(t, "Accuracy.Largest", Accuracy.Largest, set, d.Rows[0].Accuracy, 0.95)
}
