package plan

import (
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/plots"
)

// Write writes the design as `gossipkit plan` prints it, in format (text,
// json, csv or markdown; plots.Design): Table, Header and Choice, with one
// accuracy note per method from its least accurate exchange size.
func (d *Design) Write(w io.Writer, format string) error {
	t, short := d.Table()
	out := &plots.Design{Table: t, Short: short, Best: -1, Cheapest: -1, Header: d.Header(), Choice: d.Choice()}
	if d != nil {
		out.Best, out.Cheapest, out.Notes = d.Best, d.Cheapest, notes([]*Design{d}, nil)
		out.Text = textTable(d.Config, []*Design{d}, nil) // each value with its accuracy
	}
	return out.Write(w, format)
}

// Write writes the design over a grid of ε as `gossipkit plan --loss
// LO:HI:STEP` prints it: best and cheapest are the rows of the most
// tolerant s and of the cheapest as tolerant, at that ε.
func (ld *LossDesign) Write(w io.Writer, format string) error {
	t, short := ld.Table()
	out := &plots.Design{Table: t, Short: short, Best: -1, Cheapest: -1, Header: ld.Header(), Choice: ld.Choice()}
	if ld.consistent() {
		out.Notes = notes(ld.Designs, ld.Losses)
		out.Text = textTable(ld.Config, ld.Designs, ld)
		if i, b, c := ld.Choose(); i >= 0 {
			n := len(ld.Exchanges)
			out.Best, out.Cheapest = i*n+b, i*n+c
		}
	}
	return out.Write(w, format)
}

// notes is a note per row of designs, the i-th at losses[i] (nil: one
// design).
func notes(designs []*Design, losses []float64) (out []plots.Note) {
	for i, d := range designs {
		for _, a := range d.Rows {
			where, among := fmt.Sprintf("s = %d", a.Exchange), fmt.Sprintf("the least accurate s, %d; every s's beside its values", a.Exchange)
			if losses != nil {
				where = fmt.Sprintf("ε = %g, s = %d", losses[i], a.Exchange)
				among = "the least accurate row, " + where + "; every row's beside its values"
			}
			ac := a.Accuracy
			out = append(out, plots.Note{Method: a.Method.String(), Where: where, Among: among, Text: ac.Note,
				Size: plots.Worst(ac.Bound, ac.SEMean, ac.SESD, ac.SEPDeadline, ac.SEPReach, ac.DevMean, ac.DevSD)})
		}
	}
	return out
}
