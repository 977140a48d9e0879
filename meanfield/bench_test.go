package meanfield

import (
	"context"
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

// benchPop is the coverage model of the paper's default parameters under
// message loss (five jumps, d = 2), the population the refined mean field
// of RefineGrid integrates.
func benchPop(b *testing.B) *Population {
	m, err := approx.NewModel(approx.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Loss: 0.1})
	if err != nil {
		b.Fatal(err)
	}
	return Coverage(m)
}

// BenchmarkPopulation evaluates F, A, D²F, Q and C once each at one state:
// the work of one right-hand side of RefinedContinuous.
func BenchmarkPopulation(b *testing.B) {
	p := benchPop(b)
	x := []float64{0.1, 0.3}
	f, a, h, q, c := make([]float64, 2), make([]float64, 4), make([]float64, 8), make([]float64, 4), make([]float64, 2)
	b.ReportAllocs()
	for b.Loop() {
		p.Drift(x, f)
		p.Jacobian(x, a)
		p.Hessian(x, h)
		p.Q(x, q)
		p.C(x, c)
	}
}

// BenchmarkRefinedContinuous integrates x, V and W of the coverage model
// to t = 100 at rtol 1e-10 (RefineGrid's continuous clock).
func BenchmarkRefinedContinuous(b *testing.B) {
	p := benchPop(b)
	ts := ode.Grid(100, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RefinedContinuous(context.Background(), p, []float64{1.0 / 2500, 1.0 / 2500}, ts, ode.Settings{RTol: 1e-10, ATol: 1e-13}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefinedDiscrete runs 100 synchronous rounds of the coverage
// model (RefineGrid's synchronous clock).
func BenchmarkRefinedDiscrete(b *testing.B) {
	p := benchPop(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RefinedDiscrete(context.Background(), SynchronousSteps{P: p, H: 1}, []float64{1.0 / 2500, 1.0 / 2500}, 100); err != nil {
			b.Fatal(err)
		}
	}
}
