package sim

import (
	"context"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestItemsAfterInsertion checks the count of items against its
// derivation and, where it is exact (N·c ≤ n: every item one copy, so d
// keeps its single copy and x = 1/N = c/(N·c) at every round), against
// protocol runs; the n + 1 case is checked against a run in report's
// TestProtocolHoldsItemsPlusOne.
func TestItemsAfterInsertion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		nodes     int
		sh        gossip.Shuffle
		items     int
		pFewer    float64 // by hand
		exactRuns bool    // x is c/items at every round of every run
	}{
		{"N·c = n", 5, gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}, 50, 0, true},
		{"N·c < n", 3, gossip.Shuffle{Items: 60, Cache: 10, Exchange: 5}, 30, 0, true},
		{"N·c > n", 30, gossip.Shuffle{Items: 10, Cache: 4, Exchange: 2}, 11, math.Pow(0.6, 29), false},
		{"paper", 2500, gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, 501, math.Pow(0.8, 2499), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items, p := ItemsAfterInsertion(tc.nodes, tc.sh)
			// pFewer is one math.Pow of the same arguments: a few ulps.
			if items != tc.items || math.Abs(p-tc.pFewer) > 1e-14*tc.pFewer {
				t.Errorf("ItemsAfterInsertion = %d, %g; want %d, %g", items, p, tc.items, tc.pFewer)
			}
			if !tc.exactRuns {
				return
			}
			cfg := DefaultConfig()
			cfg.Nodes, cfg.Shuffle = tc.nodes, tc.sh
			cfg.Warmup, cfg.Rounds, cfg.Reps, cfg.Seed = 20, 50, 20, 3
			res, err := Run(context.Background(), cfg, Settings{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			want := float64(tc.sh.Cache) / float64(items)
			for _, row := range res.Summary() {
				if row.XMean != want || row.XSD != 0 { // x = 1/N exactly: one copy of d
					t.Fatalf("t = %d: x %g ± %g, want exactly c/items = %g", row.T, row.XMean, row.XSD, want)
				}
			}
		})
	}
	for _, tc := range []struct {
		nodes int
		sh    gossip.Shuffle
	}{{0, gossip.Shuffle{Items: 10, Cache: 4, Exchange: 2}}, {5, gossip.Shuffle{Items: 3, Cache: 4, Exchange: 2}}, {5, gossip.Shuffle{}}} {
		if items, p := ItemsAfterInsertion(tc.nodes, tc.sh); items != 0 || !math.IsNaN(p) {
			t.Errorf("ItemsAfterInsertion(%d, %+v) = %d, %g; want 0, NaN", tc.nodes, tc.sh, items, p)
		}
	}
}
