package tables

import (
	"errors"
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/plots"
)

// WriteTransitions writes the transition matrix tr of one item in one
// shuffle sh with P_drop variant v as `gossipkit transitions` prints it:
// TransitionsTable, after a line with P_select and P_drop in text.
func WriteTransitions(w io.Writer, v approx.Variant, sh gossip.Shuffle, tr approx.Transitions, format string) error {
	if w == nil {
		return errors.New("tables: WriteTransitions: no writer")
	}
	if format == "text" {
		q, _ := approx.PDrop(v, sh) // sh was checked by TransitionsFor
		fmt.Fprintf(w, "P(to | from) for n=%d c=%d s=%d: P_select = %.10g, P_drop (%v) = %.10g\n", sh.Items, sh.Cache, sh.Exchange, approx.PSelect(sh), v, q)
	}
	return TransitionsTable(tr).Write(w, format)
}

// TransitionsTable is the 4×4 matrix as a table, a row per state from.
func TransitionsTable(tr approx.Transitions) *plots.Table {
	t := &plots.Table{Keys: []string{"from", "to_00", "to_01", "to_10", "to_11"}}
	for i := approx.S00; i <= approx.S11; i++ {
		t.Rows = append(t.Rows, []any{i.String(), tr[i][0], tr[i][1], tr[i][2], tr[i][3]})
	}
	return t
}
