package meanfield

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/ode"

	"github.com/gossipkit/gossipkit/approx"
)

// The closed forms of package approx against integration of the same ODE
// (docs/MODEL.md §4 claims agreement to 1e-12 at a fine step).
func TestGossipClosedFormsAgainstIntegration(t *testing.T) {
	for _, p := range []struct{ N, n, c, s, init int }{
		{2500, 500, 100, 50, 1}, {2500, 1000, 100, 50, 1}, {2500, 2000, 100, 50, 1}, {100, 500, 100, 50, 5}, {2500, 500, 100, 1, 1}, {2500, 500, 100, 99, 1},
	} {
		t.Run(fmt.Sprintf("%+v", p), func(t *testing.T) {
			m, err := approx.NewModel(approx.Config{Nodes: p.N, Shuffle: gossip.Shuffle{Items: p.n, Cache: p.c, Exchange: p.s}, PDrop: approx.Simplified, Initial: p.init})
			if err != nil {
				t.Fatal(err)
			}
			sol, err := ode.DormandPrince(XY(m), 0, []float64{m.X0, m.Y0}, 1000, ode.Settings{RTol: 1e-12, ATol: 1e-15})
			if err != nil {
				t.Fatal(err)
			}
			worst := 0.0
			prevY := 0.0
			for tt := 0.0; tt <= 1000; tt++ {
				s := sol.At(tt, nil)
				worst = math.Max(worst, math.Max(math.Abs(s[0]-m.X(tt)), math.Abs(s[1]-m.Y(tt))))
				// Invariants: x ≤ c/n, y non-decreasing and ≤ 1.
				if s[0] > float64(p.c)/float64(p.n)*(1+1e-12) || s[1] < prevY-1e-15 || s[1] > 1+1e-15 {
					t.Fatalf("%+v t=%g: x=%g y=%g (prev y %g)", p, tt, s[0], s[1], prevY)
				}
				prevY = s[1]
			}
			// rtol 1e-12 on values ≤ 1 with the ~5× amplification measured in
			// TestDormandPrinceLogisticTolerance.
			if worst > 1e-11 {
				t.Errorf("%+v: closed forms differ from integration by %.3g", p, worst)
			}
		})
	}
}

func TestGossipMapSteadyState(t *testing.T) {
	// The map's fixed points are those of the ODE: x = c/n is one.
	m, _ := approx.NewModel(approx.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, PDrop: approx.Simplified, Initial: 1})
	xs, ys := Map(m, 2000)
	if math.Abs(xs[2000]-0.2) > 1e-12 || math.Abs(ys[2000]-1) > 1e-12 {
		t.Errorf("map at t=2000: x=%g y=%g, want 0.2, 1", xs[2000], ys[2000])
	}
	// To first order in x the map's coverage step equals the ODE's drift 2p·x(1−y).
	_, dy := m.Drift(xs[0], ys[0])
	if got := ys[1] - ys[0]; math.Abs(got-dy)/dy > 2*m.P*xs[0] {
		t.Errorf("first coverage step %g vs drift %g", got, dy)
	}
}

// DP5 at tight tolerances against the 256-bit reference of the closed
// forms (approx.Model.Reference): its global error is ~5·rtol
// (ode.TestDormandPrinceLogisticTolerance), so with rtol = 1e-12 every
// value must lie within 1e-11 relative of the reference.
func TestDormandPrinceAgainstReference(t *testing.T) {
	worst := 0.0
	for _, p := range []struct{ N, n, c, s, init int }{
		{2500, 500, 100, 50, 1}, {2500, 2000, 100, 50, 1}, {100, 500, 100, 50, 5}, {2, 1000000, 10, 5, 1},
	} {
		m, _ := approx.NewModel(approx.Config{Nodes: p.N, Shuffle: gossip.Shuffle{Items: p.n, Cache: p.c, Exchange: p.s}, PDrop: approx.Simplified, Initial: p.init})
		sol, err := ode.DormandPrince(XY(m), 0, []float64{m.X0, m.Y0}, 1000, ode.Settings{RTol: 1e-12, ATol: 1e-15})
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []float64{0, 1, 10, 50, 100, 300, 1000} {
			x, y, err := m.Reference(tt)
			if err != nil {
				t.Fatal(err)
			}
			got := sol.At(tt, nil)
			for i, ref := range []*big.Float{x, y} {
				r, _ := ref.Float64()
				rel := math.Abs(got[i]-r) / r
				worst = math.Max(worst, rel)
				if rel > 1e-11 {
					t.Errorf("%+v t=%g component %d: %.17g, reference %.17g (relative %.2g)", p, tt, i, got[i], r, rel)
				}
			}
		}
	}
	t.Logf("largest relative error of DP5 (rtol 1e-12) against the reference: %.2g", worst)
}
