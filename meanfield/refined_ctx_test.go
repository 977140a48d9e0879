package meanfield

import (
	"context"
	"errors"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/ode"
)

// RefinedContinuous takes a context as the package's other long entry
// points do: a nil one is an error, a cancelled one stops it before any
// evaluation of the model, and a cancel during the integration stops it
// at the next accepted step. The integration to t = 10⁹ on the plateau of
// the coverage model runs into the default limit of 10⁶ steps (tens of
// seconds) when nothing stops it; here the model's first rate cancels the
// context at its 1,000th evaluation, and the call must return
// context.Canceled within a few more evaluations (one step of the
// Dormand–Prince pair evaluates the right-hand side at most 7 times, each
// evaluation calls a rate a few times: 200 bounds a step with room to
// spare), not after 10⁶ steps. No clock is read: the verdict is the
// count of evaluations.
func TestRefinedContinuousContext(t *testing.T) {
	m, err := approx.NewModel(approx.Config{Nodes: 100, Shuffle: gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}})
	if err != nil {
		t.Fatal(err)
	}
	// counting returns the coverage model with its first rate counting its
	// evaluations and calling at(n) after each.
	counting := func(at func(n int)) (*Population, *int) {
		p := Coverage(m)
		jumps := append([]Jump(nil), p.Jumps...)
		rate := jumps[0].Rate
		n := new(int)
		jumps[0].Rate = func(x []float64) float64 { *n++; at(*n); return rate(x) }
		return &Population{Names: p.Names, Jumps: jumps}, n
	}
	x0, ts := []float64{m.X0, m.Y0}, []float64{0, 1, 1e9}

	t.Run("nil", func(t *testing.T) {
		var nilCtx context.Context
		p, n := counting(func(int) {})
		if _, err := RefinedContinuous(nilCtx, p, x0, ts, ode.Settings{}); err == nil || err.Error() != "meanfield: nil context" || *n != 0 {
			t.Errorf("err %v after %d evaluations; want \"meanfield: nil context\" before any", err, *n)
		}
	})
	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		p, n := counting(func(int) {})
		if _, err := RefinedContinuous(ctx, p, x0, ts, ode.Settings{}); !errors.Is(err, context.Canceled) || *n != 0 {
			t.Errorf("err %v after %d evaluations; want context.Canceled before any", err, *n)
		}
	})
	t.Run("cancelled during", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		const at = 1000
		p, n := counting(func(n int) {
			if n == at {
				cancel()
			}
		})
		_, err := RefinedContinuous(ctx, p, x0, ts, ode.Settings{})
		if !errors.Is(err, context.Canceled) || *n > at+200 {
			t.Errorf("cancelled at the %dth evaluation: err %v after %d evaluations; want context.Canceled within a step", at, err, *n)
		}
	})
}
