package sim

import (
	"math"

	"github.com/gossipkit/gossipkit/approx"
)

// TransitionTest sets the measured transitions of d's state beside the
// model's: MaxDiff is the largest |measured − model| and MaxZ the largest
// in binomial standard errors, over the states holding d and the targets
// whose model probability p lies strictly inside (0, 1).
type TransitionTest struct {
	MaxDiff, MaxZ float64
}

// TestTransitions is TransitionZ of the run's transition counts against the
// model's probabilities (Measure's TransModel).
func (r *Result) TestTransitions() TransitionTest {
	return TransitionZ(r.Totals().Transitions, r.Measure().TransModel)
}

// TransitionZ compares counts[from][to] (shuffles in which d went from one
// state to another) with the model's P(to | from). From a state seen in m
// shuffles, the count of a target of probability p is Binomial(m, p) under
// the model, so the measured frequency has standard error √(p(1−p)/m) and
// z = |frequency − p| / √(p(1−p)/m). Targets of probability 0 or 1 carry
// no binomial variance and are skipped, as are states never seen; state
// 00 (d held by neither node) is not a transition of d.
func TransitionZ(counts [4][4]int64, model approx.Transitions) TransitionTest {
	var t TransitionTest
	for i := 1; i < 4; i++ {
		var row int64
		for j := range 4 {
			row += counts[i][j]
		}
		for j := range 4 {
			p := model[i][j]
			if row == 0 || p <= 0 || p >= 1 {
				continue
			}
			d := math.Abs(float64(counts[i][j])/float64(row) - p)
			t.MaxDiff = math.Max(t.MaxDiff, d)
			t.MaxZ = math.Max(t.MaxZ, d/math.Sqrt(p*(1-p)/float64(row)))
		}
	}
	return t
}
