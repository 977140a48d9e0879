package meanfield

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
	"github.com/gossipkit/gossipkit/ode"
)

// TestNastyValues calls every exported entry point of the package with the
// nastiest values of its parameters' types, one at a time (package
// internal/probe): none may panic or run on past its context. A Model and
// a Population are plain structs a caller may fill by hand, so each of
// their fields (a Jump's L, Rate, Grad, Hess, Corr; the Model's P, Q, X0,
// Y0 and Config) is replaced in turn, and the methods of a Population and
// of SynchronousSteps are called on each variant with slices of each
// length.
func TestNastyValues(t *testing.T) {
	ctx := context.Background()
	var set probe.Settings
	for _, loss := range []float64{0, 0.1} {
		m, err := approx.NewModel(approx.Config{Nodes: 100, Shuffle: gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}, Loss: loss})
		if err != nil {
			t.Fatal(err)
		}
		probe.Func(t, "CoverageTime", CoverageTime, set, m, 0.9)
		probe.Func(t, "Curves", Curves, set, m, 10)
		probe.Func(t, "Map", Map, set, m, 10)
		probe.Func(t, "PlateauSteps", PlateauSteps, set, m, 100.0)
		probe.Func(t, "XY", XY, set, m)
		probe.Func(t, "XZ", XZ, set, m)
		// The right-hand sides themselves, as an integrator other than
		// package ode might call them.
		probe.Func(t, "XY(m)", func(m approx.Model, s, ds []float64) { XY(m)(0, s, ds) }, set, m, []float64{0.1, 0.2}, make([]float64, 2))
		probe.Func(t, "XZ(m)", func(m approx.Model, s, ds []float64) { XZ(m)(0, s, ds) }, set, m, []float64{0.1, 0.2}, make([]float64, 2))
		probe.Func(t, "Replication", Replication, set, m)
		probe.Func(t, "Coverage", Coverage, set, m)
		probe.Func(t, "Solve", Solve, set, m, 50.0, 1.0, ode.Settings{})
		for _, tm := range []gossip.Time{gossip.Continuous, gossip.Synchronous} {
			probe.Func(t, "RefineGrid", RefineGrid, set, ctx, m, 20.0, 1.0, tm, ode.Settings{})
		}

		K := m.Steady()
		for _, tc := range []struct {
			name string
			pop  *Population
			x    []float64 // a state, and the stable fixed point x*
			xs   []float64
		}{
			{"Replication", Replication(m), []float64{0.1}, []float64{K}},
			{"Coverage", Coverage(m), []float64{0.1, 0.2}, []float64{K, 1}},
		} {
			pop, d := tc.pop, len(tc.x)
			probe.Func(t, tc.name+".Dim", (*Population).Dim, set, pop)
			probe.Func(t, tc.name+".Validate", (*Population).Validate, set, pop)
			probe.Func(t, tc.name+".Drift", (*Population).Drift, set, pop, tc.x, make([]float64, d))
			probe.Func(t, tc.name+".Jacobian", (*Population).Jacobian, set, pop, tc.x, make([]float64, d*d))
			probe.Func(t, tc.name+".Hessian", (*Population).Hessian, set, pop, tc.x, make([]float64, d*d*d))
			probe.Func(t, tc.name+".Q", (*Population).Q, set, pop, tc.x, make([]float64, d*d))
			probe.Func(t, tc.name+".C", (*Population).C, set, pop, tc.x, make([]float64, d))
			probe.Func(t, tc.name+" SteadyState", SteadyState, set, pop, tc.xs)
			ts := []float64{0, 1, 5}
			probe.Func(t, tc.name+" RefinedContinuous", RefinedContinuous, set, ctx, pop, tc.x, ts, ode.Settings{})

			st := SynchronousSteps{P: pop, H: 1}
			probe.Func(t, tc.name+" SynchronousSteps.Dim", SynchronousSteps.Dim, set, st)
			probe.Func(t, tc.name+" SynchronousSteps.Step", SynchronousSteps.Step, set, st, tc.x, make([]float64, d))
			probe.Func(t, tc.name+" SynchronousSteps.StepJacobian", SynchronousSteps.StepJacobian, set, st, tc.x, make([]float64, d*d))
			probe.Func(t, tc.name+" SynchronousSteps.StepHessian", SynchronousSteps.StepHessian, set, st, tc.x, make([]float64, d*d*d))
			probe.Func(t, tc.name+" SynchronousSteps.Gamma", SynchronousSteps.Gamma, set, st, tc.x, make([]float64, d*d))
			probe.Func(t, tc.name+" SynchronousSteps.StepCorr", SynchronousSteps.StepCorr, set, st, tc.x, make([]float64, d))
			// Once as the interface (a nil DiscreteModel), once with the
			// SynchronousSteps itself (its fields replaced).
			probe.Func(t, tc.name+" SynchronousSteps.Validate", SynchronousSteps.Validate, set, st)
			probe.Func(t, tc.name+" RefinedDiscrete", RefinedDiscrete, set, ctx, DiscreteModel(st), tc.x, 10)
			probe.Func(t, tc.name+" RefinedDiscrete(SynchronousSteps)", func(ctx context.Context, s SynchronousSteps, x0 []float64, T int) (*Refined, error) {
				return RefinedDiscrete(ctx, s, x0, T)
			}, set, ctx, st, tc.x, 10)

			for _, r := range []func() (*Refined, error){
				func() (*Refined, error) { return RefinedContinuous(ctx, pop, tc.x, ts, ode.Settings{}) },
				func() (*Refined, error) { return RefinedDiscrete(ctx, st, tc.x, 5) },
			} {
				ref, err := r()
				if err != nil {
					t.Fatal(err)
				}
				probe.Func(t, tc.name+" Refined.Mean", (*Refined).Mean, set, ref, 1, 100)
				probe.Func(t, tc.name+" Refined.SD", (*Refined).SD, set, ref, 1, 100)
			}
		}
	}
	probe.Func(t, "CoverageOfZ", CoverageOfZ, set, 1.0)
	cfg := OptimizeConfig{Nodes: 100, Items: 50, Cache: 10, Level: 0.9}
	probe.Func(t, "OptimizeConfig.Validate", OptimizeConfig.Validate, set, cfg)
	probe.Func(t, "Optimize", Optimize, set, ctx, cfg)
}
