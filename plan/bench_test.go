package plan

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// BenchmarkSweep100 answers every query (mean, sd, five quantiles, the
// 0.95-quantile, P(T ≤ D)) for 100 exchange sizes at N = 10⁷ by the
// asymptotic law (the target: under a second for the whole sweep).
func BenchmarkSweep100(b *testing.B) {
	ss := make([]int, 100)
	for i := range ss {
		ss[i] = 20 + i
	}
	cfg := Config{Nodes: 10_000_000, Shuffle: gossip.Shuffle{Items: 500, Cache: 150}, Level: 0.99, Deadline: 200}
	for _, L := range []float64{0.99, 1} {
		cfg.Level = L
		b.Run(map[float64]string{0.99: "L=0.99", 1: "L=1"}[L], func(b *testing.B) {
			for b.Loop() {
				if _, err := Sweep(context.Background(), cfg, ss, Settings{Method: Asymptotic}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
