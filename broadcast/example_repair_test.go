package broadcast_test

import (
	"fmt"

	"github.com/gossipkit/gossipkit/broadcast"
)

// ExampleLateShare: a broadcast that ends 1.5 s after its queueing, in a
// cluster of 100 nodes syncing every 5 s (15 s once memberlist scales it),
// whose holders gathered 78 node-seconds before the end: of the nodes
// still lacking the update, f = 1.5/15 = 0.1 had their sync during the
// spread, and such a sync found a holder with probability
// P = 78/(99·15) ≈ 0.0525, so (f − P)/(1 − P) ≈ 0.0501 of them sync next
// only a whole scaled interval after that one.
func ExampleLateShare() {
	cfg := broadcast.Config{Nodes: 100, Protocol: broadcast.Push, Fanout: 2, Budget: 3, Level: 1, SyncInterval: 5, Interval: 0.2}
	fmt.Printf("%.4f\n", broadcast.LateShare(cfg, 1.5, 78))
	// Output: 0.0501
}
