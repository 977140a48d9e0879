package plan

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// The bound on P(T_L ≤ D) where D lies far from the law, below or above:
// the law's CDF is 0 (or 1) for many DevQuantile's around D, so the bound
// must be about 0. It was 1, from the normal quantile's infinite z at
// p = 0. N = 10⁶, n = 500, c = 100, s = 10: mean 463 rounds, sd 35.
func TestDevPDeadlineFarFromTheLaw(t *testing.T) {
	for _, D := range []float64{40, 5000} {
		cfg := Config{Nodes: 1_000_000, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 10}, Level: 0.99, Deadline: D}
		a, err := Solve(context.Background(), cfg, Settings{Method: Asymptotic})
		if err != nil {
			t.Fatal(err)
		}
		if a.Accuracy.DevPDeadline > 1e-6 {
			t.Errorf("D = %g: P(T_L ≤ D) = %g within %g, want a bound near 0", D, a.PDeadline, a.Accuracy.DevPDeadline)
		}
	}
}
