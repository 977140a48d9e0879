package harness

import (
	"context"
	"slices"
	"testing"
	"time"
)

// halfShare is the largest share of the phases (in [0, 1), on a circle)
// that fall in one half-circle [x, x + 0.5): 1/2 plus a little for
// uniform phases, 1 when every one falls in one half.
func halfShare(ph []float64) float64 {
	if len(ph) == 0 {
		return 0
	}
	p := slices.Clone(ph)
	slices.Sort(p)
	n := len(p)
	best, j := 0, 0
	for i := range n {
		// p[i], p[i+1], … up to x + 0.5, wrapping.
		if j < i {
			j = i
		}
		for j-i+1 < n && wrapDist(p[i], p[(j+1)%n]) < 0.5 {
			j++
		}
		best = max(best, j-i+1)
	}
	return float64(best) / float64(n)
}

func wrapDist(a, b float64) float64 {
	d := b - a
	if d < 0 {
		d++
	}
	return d
}

// TestSyncPhases: with anti-entropy on, the push–pull exchanges of a
// cluster above 32 nodes are spread over the scaled sync interval as the
// repair model assumes (each live node at its own uniform phase), not
// bunched. Without the harness's restarts every exchange fell in one half
// of the scaled interval (largest share in a half 1.000 in both clusters
// at N = 50: the joins take every node past 32 members at one instant,
// and memberlist's stagger covers only the unscaled interval); with them,
// 0.60 and 0.68 (N = 30, where memberlist does not scale and its stagger
// alone spreads the phases: 0.68 and 0.75). The bound: the exchanges of
// one scaled interval have the live nodes' 45 phases (each exchange is
// counted at both ends, at the initiator's phase); for 45 independent
// uniform phases, some half-circle starting at one of them holding 85 %
// of them or more has probability at most 45·P(Bin(44, 1/2) ≥ 37) ≈ 10⁻⁴
// (a union bound), so a value above 0.85 is bunching.
func TestSyncPhases(t *testing.T) {
	s := Setting{Nodes: 50, Fanout: 2, RetransmitMult: 1, Failed: 0.1, Clusters: 2, Broadcasts: 3, Seed: 45,
		SyncInterval: 25 * 200 * time.Millisecond}
	res, err := Run(context.Background(), t, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.SyncPhases) != s.Clusters {
		t.Fatalf("%d clusters' phases, want %d", len(res.SyncPhases), s.Clusters)
	}
	for c, ph := range res.SyncPhases {
		// 45 live nodes, 2 scaled intervals a broadcast, 3 broadcasts,
		// both ends: about 540, fewer by the syncs to failed nodes.
		h := halfShare(ph)
		if len(ph) < 300 || h > 0.85 {
			t.Errorf("cluster %d: %d exchanges, %.3f of them in one half of the scaled interval (bunched above 0.85)", c, len(ph), h)
		} else {
			t.Logf("cluster %d: %d exchanges, largest share in a half scaled interval %.3f", c, len(ph), h)
		}
	}
}

// TestHalfShare: the half-circle share by hand: three phases within 0.2
// are all in one half; four a quarter apart put two in each half-open
// half; a pair across 0 (0.9 and 0.1, 0.2 apart round the circle) is in one.
func TestHalfShare(t *testing.T) {
	for _, tc := range []struct {
		ph   []float64
		want float64
	}{
		{[]float64{0.1, 0.2, 0.3}, 1},
		{[]float64{0, 0.25, 0.5, 0.75}, 0.5},
		{[]float64{0.9, 0.1}, 1},
		{[]float64{0.9, 0.1, 0.5}, 2.0 / 3},
	} {
		if got := halfShare(tc.ph); got != tc.want {
			t.Errorf("halfShare(%v) = %v, want %v", tc.ph, got, tc.want)
		}
	}
}
