package chain

import (
	"context"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// The law of T_L at any time a caller may ask for, huge or infinite ones
// included: two nodes, n = 7, c = 4, s = 2, where the second node is
// covered at rate 1 a round (ExampleTimeToLevel), so that in continuous
// time P(T ≤ t) = 1 − e^(−t), and in shuffles time each shuffle covers it
// with probability 1/2 (either initiator sends d w.p. p = 1/2), so that
// P(T ≤ t) = 1 − 2^(−⌊2t⌋). A deadline of 10¹⁸ rounds used to build a
// Poisson window of √10¹⁸ terms (gigabytes) or overflow an int and panic.
func TestLevelTimeCDFAtEveryTime(t *testing.T) {
	cfg := Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}, Level: 1}
	exact := map[gossip.Time]func(float64) float64{
		gossip.Continuous: func(t float64) float64 { return -math.Expm1(-t) },
		gossip.Shuffles:   func(t float64) float64 { return 1 - math.Pow(2, -math.Floor(2*t+1e-9)) },
	}
	times := []float64{0, 0.25, 0.5, 1, 2.5, 10, 30, 60, 100, 1e3, 1e6, 1e9, 1e13, 1e18, 1e100, 1e308, math.MaxFloat64, math.Inf(1)}
	for _, tm := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
		t.Run(tm.String(), func(t *testing.T) {
			c := cfg
			c.Time = tm
			lt, err := TimeToLevel(context.Background(), c, Settings{})
			if err != nil {
				t.Fatal(err)
			}
			prev := 0.0
			for _, x := range times {
				got := lt.CDF(x)
				// Within the chain's bound, plus rounding of a sum of
				// terms of size ≤ 1 (10⁻¹³).
				if want := exact[tm](x); math.Abs(got-want) > lt.Bound+1e-13 {
					t.Errorf("P(T ≤ %g) = %.15g, want %.15g (bound %.1e)", x, got, want, lt.Bound)
				}
				if got < prev {
					t.Errorf("P(T ≤ %g) = %.15g < %.15g at an earlier time", x, got, prev)
				}
				prev = got
			}
			if got := lt.CDF(math.NaN()); got != 0 {
				t.Errorf("P(T ≤ NaN) = %g, want 0", got)
			}
		})
	}
}
