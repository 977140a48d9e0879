package broadcast

import (
	"fmt"
	"math"
)

// UnresolvedError is a design whose deadline answer some row's method
// cannot resolve: 1 − Confidence is below the smallest P(T_L > D) it
// states (Answer.PLateFloor), so no outcome of it could show the setting
// feasible, and a "not feasible" would say nothing of the setting.
type UnresolvedError struct {
	Fanout, Budget int
	Method         Method
	// Confidence is the P asked and Floor the row's PLateFloor.
	Confidence, Floor float64
	// Reps is the smallest number of Monte Carlo replications whose
	// count resolves 1 − Confidence (RepsToResolve); 0 beyond MaxReps.
	Reps int
	// Watched: the level is below 1, where the watched runs (which
	// resolve any chance of a live node not being informed) do not state
	// P(T_L > D).
	Watched bool
}

func (e *UnresolvedError) Error() string {
	if e == nil {
		return "broadcast: unresolved (nil error)"
	}
	return fmt.Sprintf("broadcast: Config.Confidence = %g: 1 − P = %.3g is below what the %v method resolves for P(T_L ≤ D) at fanout %d, budget %d (its smallest stated chance of being late is %.3g)",
		e.Confidence, 1-e.Confidence, e.Method, e.Fanout, e.Budget, e.Floor)
}

// RepsToResolve is the smallest number R of replications with z²/(R + z²)
// ≤ 1 − conf (z = 3: the upper end of Wilson's interval when no
// replication is late), 0 if it is above MaxReps or conf is not in
// (0, 1).
func RepsToResolve(conf float64) int {
	if !(conf > 0 && conf < 1) {
		return 0
	}
	z2 := float64(zValue * zValue)
	r := math.Ceil(z2 * conf / (1 - conf) * (1 - 1e-12)) // the rounding of the ratio may pass an integer
	for z2/(r+z2) > 1-conf {
		r++
	}
	if r > MaxReps {
		return 0
	}
	return int(r)
}

// Unresolved returns, for a design with a deadline, the first row whose
// method cannot resolve 1 − Confidence for P(T_L ≤ D) (its PLateFloor
// is above it); nil when every row's can, or without a deadline.
func (d *Design) Unresolved() *UnresolvedError {
	if d == nil || !(d.Config.Deadline > 0) {
		return nil
	}
	conf := d.Config.ConfidenceOrDefault()
	for _, r := range d.Rows {
		if r.PLateFloor > 1-conf {
			return &UnresolvedError{Fanout: r.Fanout, Budget: r.Budget, Method: r.Method, Confidence: conf, Floor: r.PLateFloor,
				Reps: RepsToResolve(conf), Watched: d.Config.Target() < d.Config.Live()}
		}
	}
	return nil
}
