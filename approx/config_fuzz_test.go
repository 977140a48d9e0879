package approx

import (
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// FuzzConfigNewModel feeds arbitrary values to NewModel and, when it
// accepts them, evaluates the model at an arbitrary time (x, y, Reference):
// nothing may panic, and x and y must be in [0, 1] at finite t ≥ 0.
func FuzzConfigNewModel(f *testing.F) {
	f.Add(100, 50, 10, 5, 0, 1, 3.0)
	f.Add(2, 2, 1, 1, 2, 2, 0.0)
	f.Add(1000, 30, 30, 29, 1, 0, math.NaN())
	f.Fuzz(func(t *testing.T, nodes, items, cache, exchange, pdrop, initial int, tt float64) {
		m, err := NewModel(Config{Nodes: nodes, Shuffle: gossip.Shuffle{Items: items, Cache: cache, Exchange: exchange}, PDrop: Variant(pdrop), Initial: initial})
		if err != nil {
			return
		}
		x, y := m.X(tt), m.Y(tt)
		// [0, 1] up to the rounding of x and y (a few ulp of 1, ≤ 1e-15);
		// 1e-12 leaves room for exp and pow near their overflow.
		if tt >= 0 && !math.IsInf(tt, 0) && !(x >= -1e-12 && x <= 1+1e-12 && y >= -1e-12 && y <= 1+1e-12) {
			t.Fatalf("%+v at t = %g: x = %g, y = %g", m, tt, x, y)
		}
		m.Reference(tt)
	})
}
