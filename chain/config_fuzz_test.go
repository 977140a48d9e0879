package chain

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
)

// FuzzConfigValidateSolve feeds arbitrary values to Config.Validate and,
// when it accepts them and the chain is tiny (N ≤ 6, TMax ≤ 4), to Solve:
// neither may panic, and Solve must succeed on what Validate accepted.
func FuzzConfigValidateSolve(f *testing.F) {
	f.Add(4, 10, 4, 2, 1, 0, false, 0, 3.0, 1.0, 0.5)
	f.Add(2, 2, 1, 1, 2, 1, true, 2, 4.0, 0.5, 1.0)
	f.Add(6, 5, 5, 5, 0, 2, false, 1, 1e-9, 1e-12, -1.0)
	f.Fuzz(func(t *testing.T, nodes, items, cache, exchange, initial, pdrop int, replOnly bool, tm int, tMax, dt, level float64) {
		cfg := Config{Nodes: nodes, Shuffle: gossip.Shuffle{Items: items, Cache: cache, Exchange: exchange}, Initial: initial,
			PDrop: approx.Variant(pdrop), ReplicationOnly: replOnly, Time: gossip.Time(tm), TMax: tMax, Dt: dt, Level: level}
		if cfg.Validate() != nil || nodes > 6 || !(tMax <= 4) || items > 50 {
			return
		}
		if _, err := Solve(context.Background(), cfg, Settings{}); err != nil {
			t.Fatalf("%+v: Validate accepted, Solve: %v", cfg, err)
		}
	})
}
