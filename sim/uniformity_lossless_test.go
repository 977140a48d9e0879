package sim

import (
	"context"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestUniformityLosslessBinomial: without loss the pairwise chain's
// stationary law of an item's count is Bin(N, c/n) conditioned on a copy,
// and the paper (Sec. 3.2) says experiments support it for the protocol.
// The protocol's variance ratio must be 1 within 4 standard errors, and
// the pooled goodness of fit over first snapshots must not reject at
// 0.001: items (N = 500, n = 100, c = 20, s = 10; 300 warm-up rounds, 5
// snapshots 50 apart, 10 replications) and node descriptors (in-degrees,
// N = n = 300, c = 15, s = 7; 1000 warm-up rounds, 3 snapshots 200 apart:
// in-degrees mix slowly, see UniformityConfig.Warmup). Seed 1. A protocol
// whose counts were, say, those of the initial placement (ratio ≈ 0) or
// overdispersed as under loss (ratio 1.45 at the first point with
// ε = 0.1) fails.
func TestUniformityLosslessBinomial(t *testing.T) {
	if testing.Short() {
		t.Skip("about 3 s of protocol")
	}
	for _, tc := range []struct {
		name string
		cfg  UniformityConfig
	}{
		{"items", UniformityConfig{Nodes: 500, Shuffle: gossip.Shuffle{Items: 100, Cache: 20, Exchange: 10}, Warmup: 300, Snapshots: 5, Spacing: 50, Reps: 10, Seed: 1}},
		{"in-degrees", UniformityConfig{Nodes: 300, Descriptors: true, Shuffle: gossip.Shuffle{Cache: 15, Exchange: 7}, Warmup: 1000, Snapshots: 3, Spacing: 200, Reps: 10, Seed: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Uniformity(context.Background(), tc.cfg, UniformitySettings{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("ratio %.4f ± %.4f; χ² p %.3g (first snapshots %.3g, Fisher %.3g); lag-1 correlation %.3f", res.VarRatio, res.VarRatioSE, res.PValue, res.FirstPValue, res.FisherP, res.Lag1Corr)
			if math.Abs(res.VarRatio-1) > 4*res.VarRatioSE || res.FirstPValue < 0.001 {
				t.Errorf("variance ratio %.4f ± %.4f, first-snapshot p = %.3g: the counts are not binomial", res.VarRatio, res.VarRatioSE, res.FirstPValue)
			}
		})
	}
}
