package tree

import (
	"bytes"
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValues calls every exported entry point of the package with the
// nastiest values of its parameters' types, one at a time (package
// internal/probe): none may panic or run on past its context.
func TestNastyValues(t *testing.T) {
	ctx := context.Background()
	cfg := DefaultConfig()
	cfg.Nodes = 50
	var set probe.Settings
	probe.Func(t, "Validate", Config.Validate, set, cfg)
	probe.Func(t, "Build", Build, set, ctx, cfg)
	probe.Func(t, "LookupCost", LookupCost, set, 100)
	probe.Func(t, "New", New, set, cfg)
	x := Experiment{Cfg: cfg, Fail: true, Seeds: 2, Seed: 1}
	probe.Func(t, "Experiment.Run", Experiment.Run, set, x, ctx, Settings{})
	probe.Func(t, "RunSeed", RunSeed, set, ctx, cfg, uint64(1), 0, true)
	res, err := x.Run(ctx, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Experiment.Summarize", Experiment.Summarize, set, x, res)
	probe.Func(t, "Experiment.Indices", Experiment.Indices, set, x, &ShardID{Index: 1, Count: 2})
	var buf bytes.Buffer
	probe.Func(t, "WritePart", WritePart, set, &buf, x, ShardID{Index: 1, Count: 1}, res)
	probe.Func(t, "ReadPart", ReadPart, set, bytes.NewReader(buf.Bytes()))
	probe.Func(t, "DecodePart", DecodePart, set, []byte("{}"))
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Sim.Fail", (*Sim).Fail, set, s, 0.1, Repair(0), Elect(0))
	probe.Func(t, "Sim.FailNodes", (*Sim).FailNodes, set, s, []int32{3}, Repair(0), Elect(0))
	probe.Func(t, "Sim.ReachWithFailures", (*Sim).ReachWithFailures, set, s, 0.1)
	probe.Func(t, "Over", Over, set, res, SeedResult.DepthChangePct)
	probe.Func(t, "StatOf", StatOf, set, []float64{1, 2})
}
