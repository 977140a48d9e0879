package meanfield

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/ode"
)

// RefineGrid refuses times it cannot represent with an error, before any
// work: an infinite or NaN tMax, more output times than ode.MaxGrid, a
// synchronous recursion of more than MaxSynchronousRounds rounds (tMax =
// +Inf panicked making a slice of 2^63 rounds).
func TestRefineGridLimits(t *testing.T) {
	m, err := approx.NewModel(approx.Config{Nodes: 100, Shuffle: gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		tMax, dt float64
		tm       gossip.Time
	}{
		{"continuous +Inf", math.Inf(1), 1, gossip.Continuous},
		{"synchronous +Inf", math.Inf(1), 1, gossip.Synchronous},
		{"NaN", math.NaN(), 1, gossip.Continuous},
		{"too many points", 1e9, 1e-3, gossip.Continuous},
		{"synchronous 1e300 by 1e294", 1e300, 1e294, gossip.Synchronous},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RefineGrid(context.Background(), m, tc.tMax, tc.dt, tc.tm, ode.Settings{})
			if err == nil || !strings.HasPrefix(err.Error(), "meanfield: ") {
				t.Errorf("err = %v, want a meanfield error", err)
			}
		})
	}
	if _, err := RefineGrid(context.Background(), m, 10, 1, gossip.Synchronous, ode.Settings{}); err != nil {
		t.Errorf("a small grid: %v", err)
	}
}
