package tables

import (
	"errors"
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/plots"
)

// Lifetime is the law of d's lifetime T_0, the time to X = 0, in rounds
// (chain.Lifetime): its mean and standard deviation.
type Lifetime struct {
	Mean, SD float64
}

// QuasiStationaryTable is the quasi-stationary law nu of X (nu[x] =
// P(X = x | X > 0) in the long run, chain.QuasiStationaryContext) as
// columns x and p, for x = 1 up to the last x whose p is not 0 (the rows
// past it are float64 underflow) and at least 1. A nu shorter than 2 gives
// an empty table.
func QuasiStationaryTable(nu []float64) *plots.Table {
	t := &plots.Table{Keys: []string{"x", "p"}}
	last := len(nu) - 1
	for last > 1 && nu[last] == 0 {
		last--
	}
	for x := 1; x <= last; x++ {
		t.Rows = append(t.Rows, []any{x, nu[x]})
	}
	return t
}

// WriteQuasiStationary writes the quasi-stationary law nu of the chain of
// cfg as `gossipkit chain --quasi-stationary` prints it: the table
// QuasiStationaryTable, after a summary line and a blank line in text.
func WriteQuasiStationary(w io.Writer, cfg chain.Config, nu []float64, format string) error {
	if w == nil {
		return errors.New("tables: WriteQuasiStationary: no writer")
	}
	if format == "text" {
		sh := cfg.Shuffle
		fmt.Fprintf(w, "quasi-stationary law of X (holders of d) given survival: N=%d n=%d c=%d s=%d, P_drop %v, message loss ε = %g; p = P(X = x | X > 0) in the long run, total-variation error ≤ %.2g\n\n",
			cfg.Nodes, sh.Items, sh.Cache, sh.Exchange, cfg.PDrop, cfg.Loss, chain.QSTol)
	}
	return QuasiStationaryTable(nu).Write(w, format)
}
