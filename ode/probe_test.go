package ode

import (
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValues calls every exported entry point of the package with the
// nastiest values of its parameters' types, one at a time (package
// internal/probe): none may panic or run on past its context.
func TestNastyValues(t *testing.T) {
	decay := Func(func(_ float64, y, dydt []float64) { dydt[0] = -y[0] })
	var set probe.Settings
	probe.Func(t, "Grid", Grid, set, 10.0, 1.0)
	probe.Func(t, "RK4", RK4, set, decay, 0.0, []float64{1}, 1.0, 0.1, func(float64, []float64) {})
	probe.Func(t, "DormandPrince", DormandPrince, set, decay, 0.0, []float64{1}, 1.0, Settings{})
	probe.Func(t, "Settings.Validate", Settings.Validate, set, Settings{RTol: 1e-8})
	probe.Func(t, "Settings.StepLimit", Settings.StepLimit, set, Settings{})
	sol, err := DormandPrince(decay, 0, []float64{1}, 1, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Solution.At", (*Solution).At, set, sol, 0.5, make([]float64, 1))
}
