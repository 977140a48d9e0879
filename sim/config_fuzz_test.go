package sim

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
)

// FuzzConfigValidateRun feeds arbitrary field values to Config.Validate
// and, when it accepts them and the run is tiny (N ≤ 12, n ≤ 16, ≤ 6
// rounds, ≤ 2 replications), to Run: neither may panic, and Run must
// succeed on what Validate accepted (a topology that leaves a node without
// a neighbour is the one refusal Run alone can make).
func FuzzConfigValidateRun(f *testing.F) {
	f.Add(0, 10, 8, 4, 2, 2, 5, 2, 1, 0, 4, 0, 0, 0.0, 0.0)
	f.Add(1, 2, 2, 1, 1, 0, 1, 1, 1, 2, 2, 1, 1, 0.3, 0.5)
	f.Add(0, 12, 16, 5, 5, 3, 6, 2, 12, 1, 3, 2, 2, 0.5, 0.1)
	f.Add(7, -1, 0, -5, 9, -3, 0, 0, 0, 9, 1, 5, -2, -0.1, 1.5)
	f.Fuzz(func(t *testing.T, model, nodes, items, cache, exchange, warmup, rounds, reps, initial, schedule, ticks, topo, degree int, radius, fail float64) {
		cfg := Config{Model: Model(model), Nodes: nodes, Shuffle: gossip.Shuffle{Items: items, Cache: cache, Exchange: exchange},
			Warmup: warmup, Rounds: rounds, Reps: reps, Seed: 1, Initial: initial, Schedule: Schedule(schedule), Ticks: ticks,
			Topology: Topology{Kind: TopologyKind(topo), Degree: degree, Radius: radius}, PDrop: approx.Simplified, FailFraction: fail}
		if err := cfg.Validate(); err != nil {
			return
		}
		if nodes > 12 || items > 16 || rounds > 6 || reps > 2 || warmup > 3 {
			return
		}
		cfg.Check = true
		if _, err := Run(context.Background(), cfg, Settings{Workers: 2}); err != nil {
			if fe, ok := err.(*FieldError); !ok || fe.Field != "Config.Topology" {
				t.Fatalf("%+v: Validate accepted, Run: %v", cfg, err)
			}
		}
	})
}
