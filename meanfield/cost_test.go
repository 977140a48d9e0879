package meanfield

import (
	"errors"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/ode"
)

// TestPlateauSteps checks the cost model against the steps the integrator
// takes: never more than them (the steps on the plateau are a lower bound)
// and within a factor 2 once the plateau dominates (tMax·k ≥ 1000, where
// the transient's tens to hundreds of steps are a small share). A run the
// model says cannot finish is refused before any work, as ErrTooLarge.
func TestPlateauSteps(t *testing.T) {
	for _, sh := range []gossip.Shuffle{{Items: 500, Cache: 100, Exchange: 50}, {Items: 2000, Cache: 100, Exchange: 5}, {Items: 200, Cache: 100, Exchange: 90}} {
		m, err := approx.NewModel(approx.Config{Nodes: 2500, Shuffle: sh})
		if err != nil {
			t.Fatal(err)
		}
		for _, tMax := range []float64{1e3, 1e4, 1e5} {
			sol, err := Solve(m, tMax, tMax/100, ode.Settings{})
			if err != nil {
				t.Fatal(err)
			}
			steps := float64(sol.Stats.Accepted + sol.Stats.Rejected)
			est := PlateauSteps(m, tMax)
			if est > steps || (tMax*m.Rate() >= 1000 && steps > 2*est) {
				t.Errorf("%v, tMax %g: model %.0f steps, integrator took %.0f", sh, tMax, est, steps)
			}
		}
		_, err = Solve(m, 1e300, 1e294, ode.Settings{})
		if !errors.Is(err, gossip.ErrTooLarge) {
			t.Errorf("%v, tMax 1e300: err = %v, want ErrTooLarge", sh, err)
		}
	}
}
