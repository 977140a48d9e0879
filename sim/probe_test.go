package sim

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValues calls the exported entry points of the package with the
// nastiest values of their parameters' types, one at a time (package
// internal/probe): none may panic or run on past its context.
func TestNastyValues(t *testing.T) {
	ctx := context.Background()
	cfg := small()
	cfg.Nodes, cfg.Reps, cfg.Rounds, cfg.Warmup, cfg.Loss = 20, 2, 5, 5, 0.1
	var set probe.Settings
	probe.Func(t, "ItemsAfterInsertion", ItemsAfterInsertion, set, 30, cfg.Shuffle)
	probe.Func(t, "Config.Validate", Config.Validate, set, cfg)
	probe.Func(t, "Config.MemoryEstimate", Config.MemoryEstimate, set, cfg, 2)
	probe.Func(t, "Config.WarmUps", Config.WarmUps, set, cfg, []int{1})
	probe.Func(t, "Config.CheckMemory", Config.CheckMemory, set, cfg, 2, uint64(1<<20))
	probe.Func(t, "Settings.Validate", Settings.Validate, set, Settings{Indices: []int{1}}, cfg)
	probe.Func(t, "Run", Run, set, ctx, cfg, Settings{Workers: 1})
	probe.Func(t, "RunSummary", RunSummary, set, ctx, cfg, Settings{Workers: 1})
	probe.Func(t, "Config.MinCPUSeconds", Config.MinCPUSeconds, set, cfg)
	probe.Func(t, "Config.FitWorkers", Config.FitWorkers, set, cfg, 4, uint64(1<<20))
	probe.Func(t, "Config.SummaryMemoryEstimate", Config.SummaryMemoryEstimate, set, cfg, 2)
	u := smallUniformity()
	u.Nodes, u.Reps, u.Warmup, u.Loss = 20, 2, 5, 0.1
	probe.Func(t, "UniformityConfig.Validate", UniformityConfig.Validate, set, u)
	probe.Func(t, "UniformityConfig.MemoryEstimate", UniformityConfig.MemoryEstimate, set, u, 2)
	probe.Func(t, "Uniformity", Uniformity, set, ctx, u, UniformitySettings{Workers: 1})
	probe.Func(t, "ParseModel", ParseModel, set, "protocol")
	probe.Func(t, "ParseSchedule", ParseSchedule, set, "rounds")
	probe.Func(t, "ParseTopology", ParseTopology, set, "torus:0.1")
	probe.Func(t, "ShardFromEnv", ShardFromEnv, set, func(string) string { return "" }, 2)
	probe.Func(t, "FirstReach", FirstReach, set, []float64{0, 1}, []float64{0.1, 0.9}, 0.5)
	probe.Func(t, "CompareTrajectory", CompareTrajectory, set, []float64{0.1, 0.5}, Trajectory{T: []float64{0, 1}, Mean: []float64{0.1, 0.4}, SD: []float64{0, 0.1}})
	probe.Func(t, "TransitionZ", TransitionZ, set, [4][4]int64{{1, 0, 0, 0}, {0, 3, 1, 0}}, approx.NewTransitionsLoss(0.5, 0.8, 0.1))
	probe.Func(t, "DecodePart", DecodePart, set, []byte("{}"))
	probe.Func(t, "ReadPart", ReadPart, set, bytes.NewReader(nil))
	res, err := Run(ctx, cfg, Settings{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Replication.Extinction", (*Replication).Extinction, set, &res.Reps[0])
	probe.Func(t, "Result.AliveMean", (*Result).AliveMean, set, res)
	probe.Func(t, "Result.Summary", (*Result).Summary, set, res)
	probe.Func(t, "Result.Totals", (*Result).Totals, set, res)
	probe.Func(t, "Result.Trajectories", (*Result).Trajectories, set, res)
	probe.Func(t, "Result.RoundCoverage", (*Result).RoundCoverage, set, res)
	probe.Func(t, "Result.TimesToCoverage", (*Result).TimesToCoverage, set, res, 10.0)
	probe.Func(t, "Result.LateMean", (*Result).LateMean, set, res)
	probe.Func(t, "Result.Measure", (*Result).Measure, set, res)
	probe.Func(t, "Result.TestTransitions", (*Result).TestTransitions, set, res)
	probe.Func(t, "Result.Replications", (*Result).Replications, set, res)
	probe.Func(t, "Result.AliveCounts", (*Result).AliveCounts, set, res)
	sres, err := RunSummary(ctx, cfg, Settings{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(*Result) any{
		"Summary": func(r *Result) any { return r.Summary() }, "Totals": func(r *Result) any { return r.Totals() },
		"Measure": func(r *Result) any { return r.Measure() }, "Trajectories": func(r *Result) any { x, y := r.Trajectories(); return [2]Trajectory{x, y} },
		"RoundCoverage": func(r *Result) any { return r.RoundCoverage() }, "LateMean": func(r *Result) any { m, s := r.LateMean(); return [2]float64{m, s} },
		"AliveCounts": func(r *Result) any { return r.AliveCounts() }, "TestTransitions": func(r *Result) any { return fmt.Sprint(r.TestTransitions()) },
	} {
		probe.Func(t, "RunSummary's Result."+name, f, set, sres)
	}
	var sink bytes.Buffer
	probe.Func(t, "WritePart", WritePart, set, &sink, res, ShardID{Index: 1, Count: 1})
	var buf bytes.Buffer
	if err := WritePart(&buf, res, ShardID{Index: 1, Count: 1}); err != nil {
		t.Fatal(err)
	}
	p, err := ReadPart(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Merge", Merge, set, []*Part{p}, []string{"a"}, false)
}
