package meanfield

import (
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/ode"
)

// BenchmarkXY integrates the (x, y) system of the paper's default
// parameters from t = 0 to 1000 at rtol 1e-10.
func BenchmarkXY(b *testing.B) {
	m, _ := approx.NewModel(approx.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, PDrop: approx.Simplified, Initial: 1})
	var st ode.Stats
	for b.Loop() {
		sol, err := ode.DormandPrince(XY(m), 0, []float64{m.X0, m.Y0}, 1000, ode.Settings{RTol: 1e-10, ATol: 1e-13})
		if err != nil {
			b.Fatal(err)
		}
		st = sol.Stats
	}
	b.ReportMetric(float64(st.Evaluations), "evals")
	b.ReportMetric(float64(st.Accepted), "steps")
}
