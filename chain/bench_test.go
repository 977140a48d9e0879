package chain

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// BenchmarkReplication2500 solves the replication chain of the paper's
// setting (N = 2500, n = 500, c = 100, s = 50) at t = 0..300, dt = 1.
func BenchmarkReplication2500(b *testing.B) {
	for _, tm := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
		b.Run(tm.String(), func(b *testing.B) {
			cfg := Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, ReplicationOnly: true, Time: tm, TMax: 300, Dt: 1}
			for b.Loop() {
				if _, err := Solve(context.Background(), cfg, Settings{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkJoint solves replication and coverage jointly to t = 150.
func BenchmarkJoint(b *testing.B) {
	for _, tc := range []struct {
		name string
		N    int
	}{{"N=100", 100}, {"N=300", 300}} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := Config{Nodes: tc.N, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Time: gossip.Continuous, TMax: 150, Dt: 1, Level: 0.99}
			for b.Loop() {
				if _, err := Solve(context.Background(), cfg, Settings{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
