package broadcast_test

import (
	"fmt"

	"github.com/gossipkit/gossipkit/broadcast"
)

// How many replications a Monte Carlo needs before its count of late runs
// can resolve a confidence P: with none late among R, Wilson's interval
// (z = 3) reaches up to 9/(R + 9), so R ≥ 9P/(1 − P). 1 − 10⁻⁹ would need
// 9·10⁹, beyond MaxReps: 0, only a law or the watched runs resolve it.
func ExampleRepsToResolve() {
	for _, p := range []float64{0.95, 0.999, 1 - 1e-6, 1 - 1e-9} {
		fmt.Println(broadcast.RepsToResolve(p))
	}
	// Output:
	// 171
	// 8991
	// 8999991
	// 0
}
