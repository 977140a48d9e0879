package sim

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// MemoryEstimate against the live heap of real runs, where the
// replications dominate: the estimate must hold the live data, and not by
// more than 2.5 times (it adds the garbage the replications leave, up to
// the live heap, for the collector's headroom; Go's size classes and the
// slice headers are counted exactly; the rest is the per-round summary).
// Before, 10^7 replications of one round were estimated at 240 MB and took
// 6 GB. The estimate against peak resident memory: TestMemoryPeak.
func TestMemoryEstimate(t *testing.T) {
	for _, tc := range []struct {
		name         string
		rounds, reps int
		model        Model
		nodes        int
		items, cache int
		exchange     int
	}{
		{"markov, 1 round", 1, 200_000, Markov, 2, 2, 1, 1},
		{"markov, 50 rounds", 50, 20_000, Markov, 2, 2, 1, 1},
		{"lumped, 3 rounds", 3, 100_000, Lumped, 10, 10, 5, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Model: tc.model, Nodes: tc.nodes, Shuffle: gossip.Shuffle{Items: tc.items, Cache: tc.cache, Exchange: tc.exchange},
				Rounds: tc.rounds, Reps: tc.reps, Initial: 1}
			if tc.model == Lumped {
				cfg.Schedule = Continuous
			}
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			res, err := Run(context.Background(), cfg, Settings{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			runtime.ReadMemStats(&m1)
			live := float64(m1.HeapAlloc) - float64(m0.HeapAlloc)
			runtime.KeepAlive(res)
			est := float64(cfg.MemoryEstimate(2))
			t.Logf("live %.3g bytes, estimate %.3g (ratio %.2f)", live, est, est/live)
			if est < live || est > 2.5*live {
				t.Errorf("estimate %.3g bytes against %.3g live: want within [1, 2.5]×", est, live)
			}
		})
	}
}

// TestCheckMemory: the refusal names the field that makes the run large
// (Config.Topology when the graph is more than half of MemoryEstimate,
// else Config.Nodes); avail 0 (unknown) and avail ≥ the need pass.
func TestCheckMemory(t *testing.T) {
	plain := DefaultConfig()
	plain.Nodes, plain.Reps, plain.Rounds = 1000, 10, 10
	graph := plain
	graph.Topology = Topology{Kind: Regular, Degree: 500}
	for _, tc := range []struct {
		name  string
		cfg   Config
		avail uint64
		field string // "": no error
	}{
		{"unknown memory", plain, 0, ""},
		{"fits exactly", plain, plain.MemoryEstimate(2), ""},
		{"one byte short", plain, plain.MemoryEstimate(2) - 1, "Config.Nodes"},
		{"graph dominates", graph, 1024, "Config.Topology"},
		{"invalid: Validate first", Config{}, 0, "Config.Nodes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.CheckMemory(2, tc.avail)
			var fe *FieldError
			if tc.field == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Fatalf("got %v, want a field error on %s", err, tc.field)
			}
		})
	}
}
