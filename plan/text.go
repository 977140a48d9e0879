package plan

import (
	"math"
	"strconv"

	"github.com/gossipkit/gossipkit/plots"
)

// textTable is the design as text and Markdown show it: the columns of
// Table's short form, each value with the accuracy its method states,
// "v ± e" (plots.PlusMinus): a Monte Carlo's standard error (the mean,
// the sd, p_deadline, p_reach, items_sent in proportion to the mean), the
// asymptotic law's stated bounds (DevMean, DevSD, DevQuantile at each
// quantile's level and at the confidence, DevPDeadline), the exact
// chain's Bound on every probability. A value whose method states no
// accuracy for it is shown alone (its note says what is known).
func textTable(c Config, designs []*Design, ld *LossDesign) *plots.Table {
	full, short := rowsTable(c, designs, ld) // its keys
	t := &plots.Table{Keys: full.Keys[:short]}
	lossy := ld != nil || c.Loss > 0
	for i, d := range designs {
		for _, a := range d.Rows {
			ac := a.Accuracy
			first := func(x ...float64) float64 {
				for _, v := range x {
					if !math.IsNaN(v) {
						return v
					}
				}
				return math.NaN()
			}
			eMean, eSD := first(ac.SEMean, ac.DevMean), first(ac.SESD, ac.DevSD)
			q := func(v, p float64) string {
				if e := ac.DevQuantile(p); !math.IsNaN(ac.DevMean) && e > 0 {
					return plots.PlusMinus(v, e)
				}
				return plots.PlusMinus(v, math.NaN())
			}
			row := []any{}
			if ld != nil {
				row = append(row, strconv.FormatFloat(ld.Losses[i], 'g', -1, 64))
			}
			row = append(row, strconv.Itoa(a.Exchange), a.Method.String())
			if lossy {
				row = append(row, plots.PlusMinus(a.PReach, first(ac.SEPReach, ac.Bound)))
			}
			row = append(row, plots.PlusMinus(a.Mean, eMean), plots.PlusMinus(a.SD, eSD),
				q(a.Q05, 0.05), q(a.Q25, 0.25), q(a.Q50, 0.5), q(a.Q75, 0.75), q(a.Q95, 0.95), q(a.TConfidence, c.confidence()))
			switch {
			case c.Deadline > 0 && a.PDeadline < 1e-6:
				// As the table's text form reads it: a design does not
				// turn on it, and the stated accuracies are the body's.
				row = append(row, "<1e-6", strconv.FormatBool(a.Feasible))
			case c.Deadline > 0:
				cell := plots.PlusMinus(a.PDeadline, first(ac.SEPDeadline, ac.DevPDeadline, ac.Bound))
				if a.Method == MonteCarlo && ac.SEPDeadline == 0 && a.PDeadlineLow < a.PDeadline {
					// Wilson's lower end, which feasible judges, where
					// the standard error hides it (every run on time).
					cell += " (≥ " + strconv.FormatFloat(a.PDeadlineLow, 'g', 4, 64) + ")"
				}
				row = append(row, cell, strconv.FormatBool(a.Feasible))
			default:
				row = append(row, "–", "–")
			}
			row = append(row, plots.PlusMinus(a.ItemsSent, a.ItemsSent*eMean/a.Mean))
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}
