package claim

import (
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/sim"
)

// Window compares a model curve with a simulated mean over the take-off:
// the rounds at which the model lies between WindowLo and WindowHi of its
// plateau (its value at the last round). From and To are the first and
// last such round (−1 when there is none), Rounds their number, Within the
// share of them at which |model − mean| ≤ sd + tol (NaN for an empty
// window), and Max the largest |model − mean| among them, at At.
type Window struct {
	From, To, Rounds int
	Within, Max, At  float64
}

// TakeOff compares model with tr over its take-off window with tolerance
// tol (half a node: 0.5/N).
func TakeOff(model []float64, tr sim.Trajectory, tol float64) Window {
	w := Window{From: -1, To: -1, Within: math.NaN()}
	plateau := model[len(tr.T)-1]
	in := 0
	for i := range tr.T {
		if v := model[i] / plateau; v < WindowLo || v > WindowHi {
			continue
		}
		if w.From < 0 {
			w.From = i
		}
		w.To = i
		w.Rounds++
		d := math.Abs(model[i] - tr.Mean[i])
		if d <= tr.SD[i]+tol {
			in++
		}
		if d > w.Max {
			w.Max, w.At = d, tr.T[i]
		}
	}
	if w.Rounds > 0 {
		w.Within = float64(in) / float64(w.Rounds)
	}
	return w
}

// span writes the window's rounds, "from–to", or "none".
func (w Window) Span() string {
	if w.Rounds == 0 {
		return "none"
	}
	return fmt.Sprintf("%d–%d", w.From, w.To)
}

// pct writes a share as a whole percentage, "–" when it is NaN.
func Pct(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*v)
}

// PowerOfTen writes n as 10^k when it is a power of ten, else in digits.
func PowerOfTen(n int) string {
	k := 0
	for m := n; m >= 10 && m%10 == 0; m /= 10 {
		k++
	}
	if n > 1 && n == int(math.Pow10(k)) {
		return fmt.Sprintf("10^%d", k)
	}
	return fmt.Sprint(n)
}
