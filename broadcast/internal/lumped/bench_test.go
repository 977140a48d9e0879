package lumped

import (
	"testing"

	"github.com/gossipkit/gossipkit/internal/rng"
)

// BenchmarkRun is one run of the law's model from the source, the hot
// loop of every large-N answer: push–pull at N 10⁶ (k 3, B 8, D 10) and
// at N 10⁷ (k 2, ε 0.1, B 20, D 20), where each round's draw and the
// pulls' chain at the end are the cost.
func BenchmarkRun(b *testing.B) {
	for _, c := range []struct {
		name string
		p    Params
	}{
		{"N=1e6", Params{M: 1_000_000, N1: 999_999, K: 3, R: 3, Budget: 8, Target: 1_000_000, D: 10, Z: 3, Pulls: true}},
		{"N=1e7", Params{M: 10_000_000, N1: 9_999_999, K: 2, R: 10, Budget: 20, Target: 10_000_000, D: 20, Eps: 0.1, Z: 3, Pulls: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			m := New(c.p)
			coh := make([]float64, m.R)
			hbuf := make([]float64, 0, m.k+1)
			var out runOut
			j := uint64(0)
			for b.Loop() {
				m.run(rng.NewStream(1, j), coh, hbuf, &out)
				j++
			}
		})
	}
}
