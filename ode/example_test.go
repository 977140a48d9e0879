package ode_test

import (
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/ode"
)

// The logistic equation y' = y(1 − y), y(0) = 1/2, has the solution
// y(t) = 1/(1 + e^{−t}); at t = 2 that is 0.8807970779…
func ExampleDormandPrince() {
	f := func(_ float64, y, dy []float64) { dy[0] = y[0] * (1 - y[0]) }
	sol, err := ode.DormandPrince(f, 0, []float64{0.5}, 2, ode.Settings{RTol: 1e-10, ATol: 1e-12})
	if err != nil {
		panic(err)
	}
	y := sol.At(2, nil)
	// 1e-9: RTol 1e-10 per step, and the logistic's error grows at most
	// e^{1}-fold over t ∈ [0, 2] (|∂f/∂y| = |1 − 2y| ≤ 1/2), so 1e-9 is
	// several times the error an accepted run can carry.
	fmt.Printf("y(2) = %.8f, error below 1e-9: %v\n", y[0], math.Abs(y[0]-1/(1+math.Exp(-2))) < 1e-9)
	// Output: y(2) = 0.88079708, error below 1e-9: true
}
