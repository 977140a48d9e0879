package broadcast_test

import (
	"context"
	"fmt"

	"github.com/gossipkit/gossipkit/broadcast"
)

// A Monte Carlo of push with memberlist's fanout and budget on 1,000
// nodes (4·⌈log10 1001⌉ = 16 transmits), 10 % message loss and 5 % of the
// nodes down, sharded in two and
// merged: the merged law is the single run's. With the fanout at N − 1 and
// no loss, the rumour reaches every node in round 1 at N − 1 messages.
func ExampleSimulate() {
	ctx := context.Background()
	cfg := broadcast.Config{Nodes: 1000, Protocol: broadcast.Push, Fanout: 3, Loss: 0.1, Failed: 0.05,
		Budget: broadcast.MemberlistBudget(1000, broadcast.DefaultRetransmitMult), Level: 1}
	set := broadcast.SimSettings{Reps: 200, Seed: 1}
	whole, err := broadcast.Simulate(ctx, cfg, set)
	if err != nil {
		panic(err)
	}
	var parts []*broadcast.Sample
	for i := 1; i <= 2; i++ {
		set.Indices = broadcast.ShardID{Index: i, Count: 2}.Indices(set.Reps)
		p, err := broadcast.Simulate(ctx, cfg, set)
		if err != nil {
			panic(err)
		}
		parts = append(parts, p)
	}
	merged, _, err := broadcast.MergeSamples(parts, false)
	if err != nil {
		panic(err)
	}
	a, b := whole.Law().Answer(cfg), merged.Law().Answer(cfg)
	fmt.Println("budget:", cfg.Budget, "transmits; shards merge exactly:", fmt.Sprint(a) == fmt.Sprint(b))

	full := broadcast.Config{Nodes: 100, Protocol: broadcast.Push, Fanout: 99, Level: 1}
	s, err := broadcast.Simulate(ctx, full, broadcast.SimSettings{Reps: 10})
	if err != nil {
		panic(err)
	}
	ans := s.Law().Answer(full)
	fmt.Printf("fanout N−1: P(T_1 = 1) = %g, messages per node %g\n", s.Law().CDF(1), ans.Messages)
	// Output:
	// budget: 16 transmits; shards merge exactly: true
	// fanout N−1: P(T_1 = 1) = 1, messages per node 0.99
}
