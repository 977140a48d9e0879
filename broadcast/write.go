package broadcast

import (
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/plots"
)

// Write writes the design as `gossipkit plan --protocol` prints it, in
// format (text, json, csv or markdown; plots.Design): Table, Header and
// Choice, with one accuracy note per method from its least accurate
// setting.
func (d *Design) Write(w io.Writer, format string) error {
	t, short := d.Table()
	out := &plots.Design{Table: t, Short: short, Best: -1, Cheapest: -1, Header: d.Header(), Choice: d.Choice()}
	if d == nil {
		return out.Write(w, format)
	}
	out.Best, out.Cheapest = d.Best, d.Cheapest
	out.Text, out.JSON = d.TextTable(), d.jsonColumns() // values with their accuracy; the distributions
	for _, a := range d.Rows {
		ac, where := a.Accuracy, fmt.Sprintf("fanout %d, budget %d", a.Fanout, a.Budget)
		out.Notes = append(out.Notes, plots.Note{Method: a.Method.String(), Where: where,
			Among: "the least accurate setting, " + where + "; every setting's beside its values", Text: ac.Note,
			Size: plots.Worst(ac.Bound, ac.SEMean, ac.SESD, ac.SEPDeadline, ac.SEPReach, ac.DevMean, ac.DevSD, ac.DevP)})
	}
	return out.Write(w, format)
}
