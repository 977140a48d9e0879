package plan

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/sim"
)

// TestDisconnectedTopology: regular:1 is a perfect matching (every node has
// one neighbour), so for N = 40 the graph has 20 components of 2 nodes and
// coverage 1 is never reached: Solve returns an error naming
// Config.Topology, not P(reach) 1 beside a NaN mean. A level that the
// item's own component meets (L = 1/40: the source alone, T_L = 0; L =
// 2/40: the source and its one neighbour) is still answered.
func TestDisconnectedTopology(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Nodes: 40, Shuffle: gossip.Shuffle{Items: 100, Cache: 20, Exchange: 5}, Level: 1,
		Topology: sim.Topology{Kind: sim.Regular, Degree: 1}}
	for _, set := range []Settings{{Model: Markov, Reps: 20, Seed: 2}, {Method: MonteCarlo, Model: Protocol, Reps: 5, Seed: 3}} {
		a, err := Solve(ctx, cfg, set)
		var fe *FieldError
		if err == nil || !errors.As(err, &fe) || fe.Field != "Config.Topology" || !strings.Contains(err.Error(), "not connected") {
			t.Errorf("%v: answer %+v, error %v; want a field error on Config.Topology saying the graph is not connected", set.Model, a, err)
		}
	}
	cfg.Level = 2.0 / 40
	a, err := Solve(ctx, cfg, Settings{Model: Markov, Reps: 20, Seed: 2})
	if err != nil {
		t.Fatalf("level 2/40 (the source's component): %v", err)
	}
	if a.PReach != 1 || !(a.Mean > 0) {
		t.Errorf("level 2/40: P(reach) %v, mean %v; want 1 and a finite positive mean", a.PReach, a.Mean)
	}
}
