package exact

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestVerifyGammaMemoryEstimate compares VerifyGammaMemory with the bytes
// the γ sums of the largest s actually hold (their bit lengths summed, plus
// the same 40-byte headers), on grids where s·log₂ n is small and large.
// The estimate is a cost model, stated to be within a factor 2.
func TestVerifyGammaMemoryEstimate(t *testing.T) {
	t.Parallel()
	for _, g := range []Grid{
		{MaxItems: 2000, MaxCache: 5, MaxExchange: 5},
		{MaxItems: 3000, MaxCache: 60, MaxExchange: 60},
		{MaxItems: 500, MaxCache: 300, MaxExchange: 300},
	} {
		t.Run(fmt.Sprintf("%+v", g), func(t *testing.T) {
			s := min(g.MaxExchange, g.MaxCache)
			var held float64
			for n := s; n <= g.MaxItems; n++ {
				num, den := gammaSum(int64(n), int64(s))
				held += 80 + float64(num.BitLen()+den.BitLen())/8
			}
			est := float64(VerifyGammaMemory(g))
			t.Logf("%+v: estimate/held = %.2f", g, est/held)
			if r := est / held; !(r >= 0.5 && r <= 2) {
				t.Errorf("%+v: estimate %.4g bytes, held %.4g: ratio %.2f outside [0.5, 2]", g, est, held, r)
			}
		})
	}
	// A grid beyond the limit is refused before any work, as ErrTooLarge.
	_, _, err := VerifyGamma(context.Background(), Grid{MaxItems: gossip.MaxItems, MaxCache: 100, MaxExchange: 100}, Settings{})
	if !errors.Is(err, gossip.ErrTooLarge) {
		t.Errorf("grid with 2^40 items: err = %v, want ErrTooLarge", err)
	}
}
