package tables_test

import (
	"os"

	"github.com/gossipkit/gossipkit/report/tables"
)

// The quasi-stationary law ν of X, P(X = x | X > 0), as `gossipkit chain
// --quasi-stationary` prints it: one row per x from 1 to the last x whose
// probability is not 0 (the trailing zeros are float64 underflow).
func ExampleQuasiStationaryTable() {
	nu := []float64{0, 0.25, 0.75, 0, 0}
	if err := tables.QuasiStationaryTable(nu).Write(os.Stdout, "csv"); err != nil {
		panic(err)
	}
	// Output:
	// x,p
	// 1,0.25
	// 2,0.75
}
