package plots_test

import (
	"math/big"
	"os"

	"github.com/gossipkit/gossipkit/plots"
)

// A table prints in four formats with the same columns; exact fractions
// stay fractions in CSV and JSON.
func ExampleTable() {
	t := &plots.Table{Keys: []string{"n", "p_drop"}, Rows: [][]any{{7, big.NewRat(4, 7)}, {12, big.NewRat(1, 2)}}}
	t.Write(os.Stdout, "csv")
	t.Write(os.Stdout, "markdown")
	// Output:
	// n,p_drop
	// 7,4/7
	// 12,1/2
	// | n  | p_drop |
	// |:---|:-------|
	// | 7  | 4/7    |
	// | 12 | 1/2    |
}
