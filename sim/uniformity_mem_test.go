package sim

import (
	"context"
	"runtime"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestUniformityMemoryEstimate: everything a one-replication study
// allocates (TotalAlloc, which bounds the live heap at any moment) stays
// within its MemoryEstimate, and the estimate is not more than 4 times
// that (it bounds the law windows by 20√N + 21 counts, and adds half the
// garbage again for the collector: MemoryEstimate's doc). One worker and
// one replication: each further one adds the same per-worker state again,
// or a UniformityRep and 16 bytes a snapshot that it keeps. The estimate
// against the peak resident memory of whole studies: TestMemoryPeak.
func TestUniformityMemoryEstimate(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  UniformityConfig
	}{
		{"caches dominate", UniformityConfig{Nodes: 20000, Shuffle: gossip.Shuffle{Items: 1000, Cache: 50, Exchange: 25}, Warmup: 1, Snapshots: 2, Spacing: 1, Reps: 1, Seed: 1}},
		{"items dominate", UniformityConfig{Nodes: 200, Shuffle: gossip.Shuffle{Items: 200000, Cache: 50, Exchange: 25}, Warmup: 1, Snapshots: 2, Spacing: 1, Reps: 1, Seed: 1}},
		{"nodes dominate", UniformityConfig{Nodes: 100000, Shuffle: gossip.Shuffle{Items: 10, Cache: 1, Exchange: 1}, Warmup: 1, Snapshots: 2, Spacing: 1, Reps: 1, Seed: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			res, err := Uniformity(context.Background(), tc.cfg, UniformitySettings{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&m1)
			runtime.KeepAlive(res)
			// TotalAlloc also counts the test harness's own allocations
			// while the subtest runs (about 130 kB in a memory profile:
			// testing's regexp matcher, t.Run), not the study's.
			const harness = 256 << 10
			alloc, est := float64(m1.TotalAlloc-m0.TotalAlloc), float64(tc.cfg.MemoryEstimate(1))
			t.Logf("allocated %.3g bytes, estimate %.3g (ratio %.2f)", alloc, est, est/alloc)
			if est < alloc-harness || est > 4*alloc {
				t.Errorf("estimate %.3g bytes against %.3g allocated: want within [1, 4]×", est, alloc)
			}
		})
	}
}
