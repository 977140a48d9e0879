package broadcast

import (
	"fmt"
	"math"
	"strings"

	"github.com/gossipkit/gossipkit/plots"
)

// Table is the design as the CLI writes it (gossipkit plan --protocol):
// one row per fanout and budget with every answer and its accuracy; the
// seconds and bytes columns only with Config.Interval and
// Config.MessageBytes; feasible is nil without a deadline. p_late_hi and
// residue_deadline_hi are the upper ends of the intervals the deadline's
// chances are claimed within (a 0 that is no exact 0 has one: the
// floor of a count that saw no late run, or a proved bound), NaN where
// not stated. Short is the number of leading columns the text form shows.
func (d *Design) Table() (t *plots.Table, short int) {
	if d == nil {
		d = &Design{}
	}
	c := d.Config
	keys := []string{"fanout", "budget", "method", "p_reach", "mean", "sd", "q05", "q25", "q50", "q75", "q95", "t_confidence", "p_deadline", "p_late", "p_late_rel_err", "p_late_hi", "feasible",
		"residue", "residue_rel_err", "p_miss", "p_miss_rel_err", "residue_deadline", "residue_deadline_rel_err", "residue_deadline_hi", "messages_per_node"}
	secs, bytes := c.Interval > 0, c.MessageBytes > 0
	keys = append(keys, asyncKeys(c)...)
	keys = append(keys, repairKeys(c)...)
	if secs {
		keys = append(keys, "seconds", "t_confidence_seconds")
	}
	if bytes {
		keys = append(keys, "bytes_per_node", "bytes_per_node_per_second")
	}
	short = len(keys)
	t = &plots.Table{Keys: append(keys, "error_bound", "se_mean", "se_sd", "se_p_deadline", "se_p_reach", "se_messages", "dev_mean", "dev_sd", "dev_p")}
	for _, a := range d.Rows {
		var feasible any
		if c.Deadline > 0 || c.MaxMiss > 0 {
			feasible = a.Feasible
		}
		row := []any{a.Fanout, a.Budget, a.Method.String(), a.PReach, a.Mean, a.SD, a.Q05, a.Q25, a.Q50, a.Q75, a.Q95, a.TConfidence, a.PDeadline, a.PLate, a.PLateRelErr, lateUpper(a), feasible,
			a.Residue, a.ResidueRelErr, a.PMiss, a.PMissRelErr, a.ResidueDeadline, a.ResidueDeadlineRelErr, residueDUpper(a), a.Messages}
		row = append(row, asyncCells(c, a)...)
		row = append(row, repairCells(c, a)...)
		if secs {
			row = append(row, a.Seconds, a.TConfidenceSeconds)
		}
		if bytes {
			row = append(row, a.BytesPerNode, a.BytesPerNodePerSecond)
		}
		ac := a.Accuracy
		t.Rows = append(t.Rows, append(row, ac.Bound, ac.SEMean, ac.SESD, ac.SEPDeadline, ac.SEPReach, ac.SEMessages, ac.DevMean, ac.DevSD, ac.DevP))
	}
	return t, short
}

// Header is the design's one-line statement of the model and the
// columns' meaning.
func (d *Design) Header() string {
	if d == nil {
		return ""
	}
	c := d.Config
	var h strings.Builder
	first, tconf := "the first round with", "the first round r with P(T_L ≤ r)"
	if c.Time == Async {
		first, tconf = "the first time with", "the smallest t with P(T_L ≤ t)"
	}
	fmt.Fprintf(&h, "%v broadcast: N = %d nodes, %d live (failed share φ = %g), loss ε = %g; T_L = %s %d of the %d live nodes informed (L = %g); mean, sd and quantiles given T_L < ∞; t_confidence = %s ≥ %g",
		c.Protocol, c.Nodes, c.Live(), c.Failed, c.Loss, first, c.Target(), c.Live(), c.Level, tconf, c.ConfidenceOrDefault())
	if c.Deadline > 0 {
		fmt.Fprintf(&h, "; deadline D = %g %s, p_deadline = P(T_L ≤ D) (T_L = ∞ counted as late), residue_deadline = the chance a given live node is not informed by %s", c.Deadline, c.Time.unit(), map[Time]string{Rounds: "round D", Async: "D"}[c.Time])
	}
	if c.MaxMiss > 0 {
		fmt.Fprintf(&h, "; target p_miss ≤ %g", c.MaxMiss)
	}
	if c.Time == Async {
		h.WriteString(asyncHeader(c))
	} else {
		h.WriteString(". Rounds")
		if c.Interval > 0 {
			fmt.Fprintf(&h, " of %g s", c.Interval)
		}
	}
	h.WriteString(repairHeader(c))
	h.WriteString("; budget 0 = none; residue = the chance a given live node is never informed, p_miss = the chance some live node is not; each value with its accuracy: ± one standard error (Monte Carlo) or the law's stated bound, (rel err r) the relative error it is claimed to be within, t (a–b) the rounds a quantile may be within that accuracy, [lo, hi] the interval P(T_L ≤ D) is claimed to be within, 1 − q a probability near 1 (feasible judges the interval's worse end); messages_per_node = one-way messages sent per live node by the protocol's stopping rule (with a budget, every informed node spends all of it).")
	return h.String()
}

// Choice is the design's choice in words: the fastest and the cheapest
// setting.
func (d *Design) Choice() string {
	if d == nil || d.Best >= len(d.Rows) || d.Cheapest >= len(d.Rows) || d.Best >= 0 && d.Cheapest < 0 {
		return ""
	}
	c := d.Config
	line := func(what string, i int, rule string) string {
		a := d.Rows[i]
		s := fmt.Sprintf("%s: fanout %d, budget %d (%s): t_confidence %.4g %s", what, a.Fanout, a.Budget, rule, a.TConfidence, c.Time.unit())
		if c.Interval > 0 {
			s += fmt.Sprintf(" (%.4g s)", a.TConfidenceSeconds)
		}
		if math.IsNaN(a.TConfidence) {
			s = fmt.Sprintf("%s: fanout %d, budget %d (%s): t_confidence not resolved by its method (1 − %g is below %.2g)", what, a.Fanout, a.Budget, rule, c.ConfidenceOrDefault(), a.TConfidenceFloor)
			if a.Feasible && c.Deadline > 0 {
				s += fmt.Sprintf(", at most %g rounds (feasible)", math.Floor(c.Deadline))
			}
		}
		reach := prob(a.PReach)
		if !(c.Protocol == Push && a.Budget > 0) {
			// Every live node is informed eventually: 1 exactly, as the
			// table's "1 (exact)", not a computed sum's rounding shortfall.
			reach = "1"
		}
		return s + fmt.Sprintf(", mean %.4g, P(reach) %s, %.4g messages per node (expected).\n", a.Mean, reach, a.Messages)
	}
	var goals []string
	if c.Deadline > 0 {
		goals = append(goals, fmt.Sprintf("the deadline %g with probability %g", c.Deadline, c.ConfidenceOrDefault()))
	}
	if c.MaxMiss > 0 {
		goals = append(goals, fmt.Sprintf("p_miss ≤ %g", c.MaxMiss))
	}
	meets := ""
	if len(goals) > 0 {
		meets = " among the settings that meet " + strings.Join(goals, " and ")
	}
	smallest := ""
	if len(d.Smallest) > 0 {
		var parts []string
		for _, s := range d.Smallest {
			parts = append(parts, fmt.Sprintf("fanout %d: budget %d", s[0], s[1]))
		}
		smallest = "Smallest feasible budget (0: none needed or no limit): " + strings.Join(parts, "; ") + ".\n"
	}
	switch {
	case d.Best >= 0:
		s := line("Fastest", d.Best, "the smallest t_confidence"+meets)
		if d.Cheapest != d.Best {
			s += line("Cheapest", d.Cheapest, "the fewest messages per node"+meets)
		}
		return s + smallest
	case len(goals) > 0:
		return fmt.Sprintf("No setting meets %s.\n", strings.Join(goals, " and "))
	}
	for _, a := range d.Rows {
		if !(1-c.ConfidenceOrDefault() >= a.TConfidenceFloor) {
			return fmt.Sprintf("No setting's t_confidence is resolved: 1 − %g is below what the methods resolve (a Monte Carlo of R replications: about 9/(R + 9); %v at fanout %d, budget %d: %.2g).\n",
				c.ConfidenceOrDefault(), a.Method, a.Fanout, a.Budget, a.TConfidenceFloor)
		}
	}
	return fmt.Sprintf("No setting reaches the level with probability %g.\n", c.ConfidenceOrDefault())
}
