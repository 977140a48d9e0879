package chain

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/gossip"
)

func TestDebugStats(t *testing.T) {
	for _, cfg := range []Config{
		{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, ReplicationOnly: true, TMax: 300, Dt: 1},
		{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, ReplicationOnly: true, Time: gossip.Shuffles, TMax: 300, Dt: 1},
		{Nodes: 300, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, TMax: 150, Dt: 1, Level: 0.99},
	} {
		t0 := time.Now()
		res, err := Solve(context.Background(), cfg, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%v %+v bound %g missing %g\n", time.Since(t0), res.Stats, res.Bound, res.Missing)
		if res.Level != nil {
			fmt.Printf("%+v\n", res.Level.Stat)
		}
	}
}
