package broadcast

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
	cfg := Config{Nodes: 50, Protocol: Push, Fanout: 3, Level: 0.9, Deadline: 10}
	var set probe.Settings
	probe.Func(t, "Validate", Config.Validate, set, cfg)
	probe.Func(t, "ExactCost", ExactCost, set, cfg)
	probe.Func(t, "Logistic", Logistic, set, cfg, 3.0)
	probe.Func(t, "SerfLogistic", SerfLogistic, set, cfg, 3.0)
	probe.Func(t, "MemberlistBudget", MemberlistBudget, set, 100, 4)
	probe.Func(t, "SimMemoryEstimate", SimMemoryEstimate, set, cfg, SimSettings{Reps: 10})
	probe.Func(t, "SmallestBudget", SmallestBudget, set, ctx, cfg, 0.01, Settings{Reps: 10})
	// N 20: the exact chain in 8 ms (at N 50, 180 ms: most of the 90
	// variants ran to the probe's deadline, 16 s).
	probe.Func(t, "MissChance", MissChance, set, ctx, Config{Nodes: 20, Protocol: Push, Fanout: 3, Budget: 4, Level: 0.9}, Settings{Reps: 10})
	probe.Func(t, "Solve", Solve, set, ctx, cfg, Settings{})
	probe.Func(t, "PushBudgetResidue", PushBudgetResidue, set, Config{Nodes: 50, Protocol: Push, Fanout: 3, Budget: 4, Level: 0.9})
	probe.Func(t, "Sweep", Sweep, set, ctx, cfg, []int{1, 2}, []int{0}, Settings{})
	probe.Func(t, "AsymptoticLaw", AsymptoticLaw, set, ctx, cfg)
	probe.Func(t, "ExactLaw", ExactLaw, set, ctx, cfg)
	probe.Func(t, "Simulate", Simulate, set, ctx, cfg, SimSettings{Reps: 10})
	acfg := cfg
	acfg.Time = Async
	probe.Func(t, "SimulateAsync", SimulateAsync, set, ctx, acfg, SimSettings{Reps: 10})
	probe.Func(t, "ParseTime", ParseTime, set, "async")
	rcfg := cfg
	rcfg.SyncInterval = 30
	probe.Func(t, "RepairCurve", RepairCurve, set, rcfg, []MissLaw{{Share: 0.1, P: 1}}, 2.0)
	probe.Func(t, "SimulateRepair", SimulateRepair, set, ctx, rcfg, SimSettings{Reps: 10}, []float64{0, 30})
	probe.Func(t, "PresetByName", PresetByName, set, "memberlist-lan")
	probe.Func(t, "PushPullScale", PushPullScale, set, 30.0, 100)
	probe.Func(t, "MeanField", MeanField, set, cfg, 10)
	probe.Func(t, "NewDesign", NewDesign, set, cfg, []Answer{{Fanout: 1}})
	probe.Func(t, "ParseMethod", ParseMethod, set, "auto")
	probe.Func(t, "ParseProtocol", ParseProtocol, set, "push")
	probe.Func(t, "DecodePart", DecodePart, set, []byte("{}"))
	probe.Func(t, "ReadPart", ReadPart, set, bytes.NewReader(nil))
	probe.Func(t, "ReadPartFile", ReadPartFile, set, "/nonexistent")
	law, err := ExactLaw(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Law.Answer", (*Law).Answer, set, law, cfg)
	probe.Func(t, "Law.CDF", (*Law).CDF, set, law, 3.0)
	s, err := Simulate(ctx, cfg, SimSettings{Reps: 4})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Sample.Law", (*Sample).Law, set, s)
	d, err := Sweep(ctx, cfg, []int{2, 3}, []int{0}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Design.Table", (*Design).Table, set, d)
	probe.Func(t, "Design.Header", (*Design).Header, set, d)
	probe.Func(t, "Design.Choice", (*Design).Choice, set, d)
	probe.Func(t, "MergeSamples", MergeSamples, set, []*Sample{s}, false)
	var buf bytes.Buffer
	probe.Func(t, "WritePart", WritePart, set, &buf, s, ShardID{Index: 1, Count: 1})
}
