package report

import (
	"errors"
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
)

// WriteTransitions writes the transition matrix tr of one item in one
// shuffle sh with P_drop variant v as `gossipkit transitions` prints it:
// TransitionsTable, after a line with P_select and P_drop in text.
func WriteTransitions(w io.Writer, v approx.Variant, sh gossip.Shuffle, tr approx.Transitions, format string) error {
	if w == nil {
		return errors.New("report: WriteTransitions: no writer")
	}
	if format == "text" {
		q, _ := approx.PDrop(v, sh) // sh was checked by TransitionsFor
		fmt.Fprintf(w, "P(to | from) for n=%d c=%d s=%d: P_select = %.10g, P_drop (%v) = %.10g\n", sh.Items, sh.Cache, sh.Exchange, approx.PSelect(sh), v, q)
	}
	return TransitionsTable(tr).Write(w, format)
}
