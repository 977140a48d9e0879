package plan

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/sim"
)

// Table is the design as the CLI writes it (gossipkit plan): a row per
// exchange size with every answer and its accuracy; feasible is nil
// without a deadline. With loss the rows gain p_reach and se_p_reach (the
// broadcast rows' names). Short is the number of leading columns the text
// form shows.
func (d *Design) Table() (t *plots.Table, short int) {
	if d == nil {
		d = &Design{}
	}
	return rowsTable(d.Config, []*Design{d}, nil)
}

// Table is the loss design as the CLI writes it: a row per ε and exchange
// size (ε outer), each starting with its ε and with loss_tolerated, the
// largest ε its s tolerates, after items_sent.
func (ld *LossDesign) Table() (t *plots.Table, short int) {
	if !ld.consistent() {
		ld = &LossDesign{}
	}
	return rowsTable(ld.Config, ld.Designs, ld)
}

// consistent reports whether ld is as LossSweep makes it (a hand-made or
// damaged one is written as empty rather than read out of range).
func (ld *LossDesign) consistent() bool {
	if ld == nil || len(ld.Designs) != len(ld.Losses) || len(ld.Tolerated) != len(ld.Exchanges) || len(ld.Again) != len(ld.Exchanges) ||
		ld.Most < -1 || ld.Most >= len(ld.Exchanges) {
		return false
	}
	for _, d := range ld.Designs {
		if d == nil || len(d.Rows) != len(ld.Exchanges) {
			return false
		}
	}
	return ld.Most < 0 || slices.Contains(ld.Losses, ld.Tolerated[ld.Most])
}

func rowsTable(c Config, designs []*Design, ld *LossDesign) (*plots.Table, int) {
	lossy := ld != nil || c.Loss > 0
	keys := []string{"s", "method", "p_reach", "mean", "sd", "q05", "q25", "q50", "q75", "q95", "t_confidence", "p_deadline", "feasible", "items_sent",
		"error_bound", "se_mean", "se_sd", "se_p_deadline", "se_p_reach", "dev_mean", "dev_sd", "dev_p_deadline"}
	if !lossy { // the columns of the lossless design, unchanged
		keys = slices.Delete(slices.Delete(keys, 18, 19), 2, 3)
	}
	short := slices.Index(keys, "items_sent") + 1
	if ld != nil {
		keys = slices.Insert(append([]string{"loss"}, keys...), short+1, "loss_tolerated")
		short++
	}
	t := &plots.Table{Keys: keys}
	for i, d := range designs {
		for j, a := range d.Rows {
			var feasible any
			if c.Deadline > 0 {
				feasible = a.Feasible
			}
			ac := a.Accuracy
			row := []any{a.Exchange, a.Method.String(), a.PReach, a.Mean, a.SD, a.Q05, a.Q25, a.Q50, a.Q75, a.Q95, a.TConfidence, a.PDeadline, feasible, a.ItemsSent,
				ac.Bound, ac.SEMean, ac.SESD, ac.SEPDeadline, ac.SEPReach, ac.DevMean, ac.DevSD, ac.DevPDeadline}
			if !lossy {
				row = slices.Delete(slices.Delete(row, 18, 19), 2, 3)
			}
			if ld != nil {
				row = slices.Insert(append([]any{ld.Losses[i]}, row...), short, any(ld.Tolerated[j]))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t, short
}

// Header is the design's one-line statement of the model and the
// columns' meaning.
func (d *Design) Header() string {
	if d == nil {
		return ""
	}
	return header(d.Config, "")
}

// Header is the loss design's one-line statement.
func (ld *LossDesign) Header() string {
	if !ld.consistent() {
		return ""
	}
	return header(ld.Config, "ε over the grid "+grid(ld.Losses))
}

func header(c Config, eps string) string {
	var h strings.Builder
	fmt.Fprintf(&h, "Time T_L to coverage L = %g (%d of N = %d nodes), n = %d, c = %d, K = %d, %v time, P_drop %v; t_confidence = the %g-quantile",
		c.Level, c.count(), c.Nodes, c.Shuffle.Items, c.Shuffle.Cache, c.initial(), c.Time, c.PDrop, c.confidence())
	if c.Deadline > 0 {
		fmt.Fprintf(&h, "; deadline D = %g rounds", c.Deadline)
	}
	if c.Topology.Kind != sim.Full {
		fmt.Fprintf(&h, "; topology %v (Monte Carlo only)", c.Topology)
	}
	if eps == "" && c.Loss == 0 {
		h.WriteString(". Rounds; items_sent = 2s·N·mean.")
		return h.String()
	}
	if eps == "" {
		eps = fmt.Sprintf("ε = %g", c.Loss)
	}
	fmt.Fprintf(&h, "; message loss %s: T_L = ∞ when the item dies out first, p_reach = P(T_L < ∞), mean, sd and quantiles given T_L < ∞, p_deadline = P(T_L ≤ D), the item surviving. Rounds; items_sent = (2−ε)s·N·mean (the reply is sent when the request arrives).", eps)
	return h.String()
}

// Choice is the design's choice in words: the best and the cheapest s.
func (d *Design) Choice() string {
	if d == nil || d.Best >= len(d.Rows) || d.Cheapest >= len(d.Rows) || d.Best >= 0 && d.Cheapest < 0 {
		return ""
	}
	c := d.Config
	meets := map[bool]string{true: " among the s that meet the deadline", false: ""}[c.Deadline > 0]
	switch {
	case d.Best >= 0:
		b := d.Rows[d.Best]
		s := fmt.Sprintf("Best s = %d (the smallest t_confidence%s): t_confidence %.4g rounds, mean %.4g, items sent %.4g (expected).\n", b.Exchange, meets, b.TConfidence, b.Mean, b.ItemsSent)
		if ch := d.Rows[d.Cheapest]; d.Cheapest != d.Best {
			s += fmt.Sprintf("Cheapest s = %d (the fewest items sent%s): t_confidence %.4g rounds, mean %.4g, items sent %.4g (expected).\n",
				ch.Exchange, map[bool]string{true: " that meets the deadline", false: ""}[c.Deadline > 0], ch.TConfidence, ch.Mean, ch.ItemsSent)
		}
		return s
	case c.Deadline > 0:
		return fmt.Sprintf("No s meets the deadline %g with probability %g.\n", c.Deadline, c.confidence())
	}
	return ""
}

// Choice is the loss design's answer in words: the largest ε each s
// tolerates, how it was found, and the most tolerant s.
func (ld *LossDesign) Choice() string {
	if !ld.consistent() || len(ld.Losses) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Largest loss each s tolerates (meets the deadline %g with probability %g), by a scan of the given grid in ascending ε that stops at the first ε where the s fails; monotonicity in ε is neither assumed between grid points nor checked beyond them:\n",
		ld.Config.Deadline, ld.Config.confidence())
	for j, s := range ld.Exchanges {
		if tol := ld.Tolerated[j]; math.IsNaN(tol) {
			fmt.Fprintf(&b, "  s = %d: none (fails at ε = %g)", s, ld.Losses[0])
		} else {
			fmt.Fprintf(&b, "  s = %d: ε = %g", s, tol)
		}
		if a := ld.Again[j]; !math.IsNaN(a) {
			fmt.Fprintf(&b, "; feasible again at ε = %g: not monotone on the grid", a)
		}
		b.WriteString("\n")
	}
	if i, best, cheapest := ld.Choose(); best >= 0 {
		fmt.Fprintf(&b, "Most tolerant s = %d (ε = %g; the smallest t_confidence there); the cheapest s at that ε: %d.\n", ld.Exchanges[best], ld.Losses[i], ld.Exchanges[cheapest])
	}
	return b.String()
}

// Choose returns, for the largest ε tolerated by any exchange size, its
// index i in Losses, the most tolerant exchange size (Most) and the
// cheapest (fewest ItemsSent at Losses[i]) among those that tolerate as
// much; −1, −1, −1 when none tolerates any ε of the grid.
func (ld *LossDesign) Choose() (i, best, cheapest int) {
	if !ld.consistent() {
		return -1, -1, -1
	}
	m := ld.Most
	if m < 0 {
		return -1, -1, -1
	}
	i = slices.Index(ld.Losses, ld.Tolerated[m])
	rows := ld.Designs[i].Rows
	cheapest = m
	for j := range ld.Exchanges {
		if ld.Tolerated[j] == ld.Tolerated[m] && rows[j].ItemsSent < rows[cheapest].ItemsSent {
			cheapest = j
		}
	}
	return i, m, cheapest
}

// grid writes a grid as 0, 0.05, 0.1 (or 0, 0.05, …, 0.3 (7 values)).
func grid(v []float64) string {
	if len(v) > 4 {
		return fmt.Sprintf("%g, %g, …, %g (%d values)", v[0], v[1], v[len(v)-1], len(v))
	}
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf("%g", x)
	}
	return strings.Join(s, ", ")
}
