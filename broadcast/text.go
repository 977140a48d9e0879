package broadcast

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gossipkit/gossipkit/plots"
)

// TextTable is the design as text and Markdown show it: one row per
// fanout and budget, every value with its accuracy: "v ± e" (e one
// standard error for a Monte Carlo, the stated bound for a computed
// law), "v (rel err r)" for the chances of a miss, a quantile "t (a–b)"
// where the accuracy leaves it anywhere from round a to round b, and a
// probability near 1 as "1 − q". CSV and JSON carry the same numbers in
// full (Table).
func (d *Design) TextTable() *plots.Table {
	if d == nil {
		d = &Design{}
	}
	c := d.Config
	targets := c.Deadline > 0 || c.MaxMiss > 0
	keys := []string{"fanout", "budget", "method", "p_reach", "mean", "sd", "q05", "q25", "q50", "q75", "q95", "t_confidence"}
	if c.Deadline > 0 {
		keys = append(keys, "p_deadline")
	}
	if targets {
		keys = append(keys, "feasible")
	}
	keys = append(keys, "residue", "p_miss")
	if c.Deadline > 0 {
		keys = append(keys, "residue_deadline")
	}
	keys = append(keys, "messages_per_node")
	keys = append(keys, asyncKeys(c)...)  // each time beside its *_se
	keys = append(keys, repairKeys(c)...) // a mean field: no error stated
	if c.Interval > 0 {
		keys = append(keys, "seconds", "t_confidence_seconds")
	}
	if c.MessageBytes > 0 {
		keys = append(keys, "bytes_per_node", "bytes_per_node_per_second")
	}
	t := &plots.Table{Keys: keys}
	for _, a := range d.Rows {
		surely := !(c.Protocol == Push && a.Budget > 0) // every live node is informed eventually
		me, sp := a.MomentErr, a.Spread
		if me == [2]float64{} { // an Answer made by hand, not by Law.Answer
			me = [2]float64{a.Accuracy.SEMean, a.Accuracy.SESD}
			if math.IsNaN(me[0]) {
				me = [2]float64{a.Accuracy.DevMean, a.Accuracy.DevSD}
			}
		}
		if sp == [6][2]float64{} { // likewise: no spread stated
			for i, v := range []float64{a.Q05, a.Q25, a.Q50, a.Q75, a.Q95, a.TConfidence} {
				sp[i] = [2]float64{v, v}
			}
		}
		row := []any{a.Fanout, a.Budget, a.Method.String(), reachCell(a, surely), pm(a.Mean, me[0]), pm(a.SD, me[1])}
		for i, q := range []float64{a.Q05, a.Q25, a.Q50, a.Q75, a.Q95} {
			row = append(row, roundsCell(q, sp[i]))
		}
		tc := roundsCell(a.TConfidence, sp[5])
		if math.IsNaN(a.TConfidence) && !(1-c.ConfidenceOrDefault() >= a.TConfidenceFloor) {
			tc = "– (not resolved)"
		}
		row = append(row, tc)
		if c.Deadline > 0 {
			row = append(row, deadlineCell(a))
		}
		if targets {
			row = append(row, strconv.FormatBool(a.Feasible))
		}
		row = append(row, relCell(a.Residue, a.ResidueRelErr), relCell(a.PMiss, a.PMissRelErr))
		if c.Deadline > 0 {
			row = append(row, residueDeadlineCell(a))
		}
		row = append(row, pm(a.Messages, a.Accuracy.SEMessages))
		row = append(row, asyncCells(c, a)...)
		row = append(row, repairCells(c, a)...)
		if c.Interval > 0 {
			row = append(row, pm(a.Seconds, me[0]*c.Interval), roundsCell(a.TConfidenceSeconds, [2]float64{sp[5][0] * c.Interval, sp[5][1] * c.Interval}))
		}
		if c.MessageBytes > 0 {
			row = append(row, pm(a.BytesPerNode, a.Accuracy.SEMessages*float64(c.MessageBytes)), g6(a.BytesPerNodePerSecond))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// jsonColumns are the columns only JSON carries: each row's distribution
// (Answer.CDF), null where it has none.
func (d *Design) jsonColumns() *plots.Table {
	t := &plots.Table{Keys: []string{"cdf"}}
	if d == nil {
		return t
	}
	for _, a := range d.Rows {
		var v any
		if len(a.CDF) > 0 {
			v = a.CDF
		}
		t.Rows = append(t.Rows, []any{v})
	}
	return t
}

// g6 is a value to six significant digits ("–" where it is not a number).
func g6(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// g2 is an accuracy to two significant digits.
func g2(v float64) string { return strconv.FormatFloat(v, 'g', 2, 64) }

// pm is "v ± e" (plots.PlusMinus).
func pm(v, e float64) string { return plots.PlusMinus(v, e) }

// prob is a probability: near 1 as "1 − q" (q = 1 − p, readable however
// small), else to six significant digits.
func prob(p float64) string {
	if q := 1 - p; p < 1 && q < 1e-2 {
		return "1 − " + strconv.FormatFloat(q, 'g', 3, 64)
	}
	return g6(p)
}

// reachCell is P(T_L < ∞) with its accuracy: 1 exactly where every live
// node is informed eventually; for a Monte Carlo ± its standard error, or
// Wilson's end (z = 3) where every run (or none) reached the level; for a
// computed law ± its stated bound.
func reachCell(a Answer, surely bool) string {
	p := a.PReach
	switch {
	case math.IsNaN(p):
		return "–"
	case surely:
		// By the model; a computed law's sum falls short of it by its
		// truncation, within its bound.
		return "1 (exact)"
	case a.Reps > 0 && (p == 1 || p == 0):
		iv := wilson(int(p)*a.Reps, a.Reps)
		if p == 1 {
			return "1 (≥ 1 − " + g2(1-iv.lo) + ")"
		}
		return "0 (≤ " + g2(iv.hi) + ")"
	case a.Reps > 0:
		return prob(p) + " ± " + g2(a.Accuracy.SEPReach)
	}
	return probPM(p, a.TConfidenceFloor)
}

// probPM is a probability ± an absolute accuracy e: 1 − p is shown only
// where it exceeds e (below it is the law's noise).
func probPM(p, e float64) string {
	switch {
	case !(e > 0):
		return prob(p)
	case 1-p <= e:
		return "1 ± " + g2(e)
	case p <= e:
		return "0 ± " + g2(e)
	case 1-p < 1e-2:
		return prob(p) + " ± " + g2(e)
	}
	return pm(p, e)
}

// roundsCell is a round t with the rounds it may be within the accuracy:
// "t" where determined, "t (a–b)" otherwise ("b" is "…" where no round
// of the law reaches the lower end).
func roundsCell(t float64, s [2]float64) string {
	if math.IsNaN(t) {
		return "–"
	}
	if s[0] == t && s[1] == t {
		return g6(t)
	}
	hi := "…"
	if !math.IsNaN(s[1]) {
		hi = g6(s[1])
	}
	return fmt.Sprintf("%s (%s–%s)", g6(t), g6(s[0]), hi)
}

// deadlineCell is P(T_L ≤ D) with its accuracy, from P(T_L > D) and its
// relative error: "1 − q (rel err r)" near 1, "p ± e" elsewhere, "≥ 1 −
// f" where no late run was seen (f the floor: Wilson's end, the law's
// bound).
func deadlineCell(a Answer) string {
	q, rel := a.PLate, a.PLateRelErr
	switch {
	case math.IsNaN(q):
		return g6(a.PDeadline)
	case q == 0 && rel == 0:
		return "1 (exact)"
	case q == 0 && a.PLateFloor > 0:
		return "1 (≥ 1 − " + g2(a.PLateFloor) + ")"
	case q == 0:
		return "1"
	case q < 1e-2 && rel >= 1:
		// The interval reaches 0 (the law's absolute accuracy, or a
		// sample's spread): its upper end is what is stated.
		return "1 (≥ 1 − " + g2(math.Min(q*(1+rel), 1)) + ")"
	case q < 1e-2:
		return "1 − " + strconv.FormatFloat(q, 'g', 3, 64) + relNote(rel)
	}
	if a.Reps == 0 && a.PLateFloor > 0 && q*rel <= a.PLateFloor*(1+1e-9) {
		return probPM(1-q, a.PLateFloor) // the law's absolute accuracy
	}
	if a.Reps == 0 && q*rel < 1e-6 {
		// An interval too narrow for three digits (the exact chain's,
		// within its rounding): its half-width.
		return probPM(1-q, q*rel)
	}
	// The interval feasible judges (z = 3 for a Monte Carlo).
	lo, hi := 1-math.Min(q*(1+rel), 1), 1-math.Max(q*(1-rel), 0)
	return fmt.Sprintf("%s [%s, %s]", g6(1-q), strconv.FormatFloat(lo, 'g', 3, 64), strconv.FormatFloat(hi, 'g', 3, 64))
}

// residueDeadlineCell is ResidueDeadline with its accuracy (relCell), and
// for a computed law's 0 whose relative error is unbounded (the chain's
// truncation, or a proved bound) the bound it is within: "0 (≤ b)", b the
// proved upper end where there is one (Law.residueDHi), else the law's
// Bound.
func residueDeadlineCell(a Answer) string {
	if a.ResidueDeadline == 0 && math.IsInf(a.ResidueDeadlineRelErr, 1) {
		if hi := residueDUpper(a); hi > 0 {
			return "0 (≤ " + g2(hi) + ")"
		}
	}
	return relCell(a.ResidueDeadline, a.ResidueDeadlineRelErr)
}

// relCell is a chance with its relative error: "v (rel err r)", "v
// (exact)" for rel 0.
func relCell(v, rel float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + relNote(rel)
}

func relNote(rel float64) string {
	switch {
	case rel == 0:
		return " (exact)"
	case math.IsInf(rel, 1):
		return " (rel err unbounded)"
	case math.IsNaN(rel):
		return ""
	case rel < 1e-12:
		// Not exact (that is 0), and no finer than the rounding of the
		// arithmetic that computed it.
		return " (rel err < 1e-12)"
	}
	return " (rel err " + g2(rel) + ")"
}
