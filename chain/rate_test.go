package chain

import (
	"fmt"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
)

// TestLossHeadroom checks that lossHeadroom recovers a² = (1−ε)² from the
// jumps alone (ℓ/m = ε/(2a) for every P_drop variant: ℓ = a·ε·p·q and
// m = 2a²·p·q share p·q), against (1−ε)² computed from ε directly, and
// that the start rate of the joint chain is 1.1 times the exit rate of X
// alone without loss and 1 + 0.1·a² times it with loss. The tolerance,
// 1e-14, is a few ulps of the four operations on values near 1.
func TestLossHeadroom(t *testing.T) {
	sh := gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}
	for _, v := range []approx.Variant{approx.Simplified, approx.Gamma, approx.Exact} {
		for _, eps := range []float64{0.01, 0.1, 0.3, 0.9} {
			t.Run(fmt.Sprint(v, "/eps=", eps), func(t *testing.T) {
				j, err := JumpsLossFor(v, sh, eps)
				if err != nil {
					t.Fatal(err)
				}
				want := (1 - eps) * (1 - eps)
				if got := lossHeadroom(j); math.Abs(got-want) > 1e-14 {
					t.Errorf("lossHeadroom = %.17g, want (1−ε)² = %.17g", got, want)
				}
				// X alone has no margin for the move jump: its rate is
				// 1.1 times the same exit rate e, with or without loss.
				e := startRate(1000, 1, j, false) / 1.1
				// 1e-12 relative: startRate sums the exit rates weighted by the reach law over at most N = 1000 states, each addition rounding ≤ 1.1e-16 relative: ≤ 1.1e-13, a margin of 9.
				if got, want := startRate(1000, 1, j, true), (1+0.1*want)*e; math.Abs(got-want) > 1e-12*want {
					t.Errorf("joint start rate %.17g, want (1 + 0.1·a²)·e = %.17g", got, want)
				}
			})
		}
	}
	t.Run("lossless", func(t *testing.T) {
		j, err := JumpsFor(approx.Simplified, sh)
		if err != nil {
			t.Fatal(err)
		}
		// Without loss the rule is the one every lossless output was
		// computed with: 1.1·e, bit for bit.
		if got, want := startRate(1000, 1, j, true), startRate(1000, 1, j, false); got != want {
			t.Errorf("lossless joint start rate %v, want X alone's %v", got, want)
		}
	})
}
