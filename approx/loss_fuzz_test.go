package approx

import (
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// FuzzModelLoss feeds arbitrary shuffles, loss and times to NewModel: when
// it accepts them nothing may panic, x and y must lie in [0, 1] at finite
// t ≥ 0, and the lossy model must be the lossless one at f·t (to 1e-9
// relative: a few roundings, amplified at most by kt where e^{−kt} still
// matters).
func FuzzModelLoss(f *testing.F) {
	f.Add(100, 50, 10, 5, 0.1, 3.0)
	f.Add(2, 2, 1, 1, 0.999, 0.0)
	f.Add(1000, 30, 30, 29, 0.5, 1e6)
	f.Fuzz(func(t *testing.T, nodes, items, cache, exchange int, eps, tt float64) {
		cfg := Config{Nodes: nodes, Shuffle: gossip.Shuffle{Items: items, Cache: cache, Exchange: exchange}, Loss: eps}
		m, err := NewModel(cfg)
		if err != nil {
			return
		}
		x, y := m.X(tt), m.Y(tt)
		m.Reference(tt)
		if !(tt >= 0) || math.IsInf(tt, 0) {
			return
		}
		// [0, 1] up to the rounding of x and y (a few ulp of 1, ≤ 1e-15);
		// 1e-12 leaves room for exp and pow near their overflow.
		if !(x >= -1e-12 && x <= 1+1e-12 && y >= -1e-12 && y <= 1+1e-12) {
			t.Fatalf("%+v at t = %g: x = %g, y = %g", m, tt, x, y)
		}
		cfg.Loss = 0
		m0, _ := NewModel(cfg)
		ft := LossFactor(eps) * tt
		if x0 := m0.X(ft); math.Abs(x-x0) > 1e-9*math.Max(math.Abs(x0), 1e-300) {
			t.Fatalf("%+v at t = %g: x = %v, lossless at f·t %v", m, tt, x, x0)
		}
	})
}
