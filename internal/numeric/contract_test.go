package numeric

import (
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: TanhSinh refuses a bad
// step or size with an error; Bisect and Bracket answer NaN or false for
// a nil predicate or a bad interval, never a panic or a hang.
func TestContract(t *testing.T) {
	nan := math.NaN()
	var calls []probe.Refusal
	for _, c := range []struct {
		h float64
		n int
	}{{0, 10}, {-0.1, 10}, {nan, 10}, {math.Inf(1), 10}, {0.1, -1}, {0.1, math.MaxInt}} {
		calls = append(calls, probe.Refusal{Name: "TanhSinh", Call: func() error { _, err := TanhSinh(c.h, c.n); return err }})
	}
	probe.Refuses(t, 0, calls...)
	if x := Bisect(nil, 0, 1, 0, 10); !math.IsNaN(x) {
		t.Errorf("Bisect(nil) = %g, want NaN", x)
	}
	if _, _, ok := Bracket(nil, 0, 1, 1, 10); ok {
		t.Error("Bracket(nil) ok")
	}
	below := func(x float64) bool { return x < 0.5 }
	// A NaN end or step and the largest step count return (ok is then
	// below(hi)'s answer, as documented): at most MaxSteps moves each.
	for _, c := range [][2]float64{{nan, 1}, {0, nan}, {1, 0}} {
		Bracket(below, c[0], c[1], nan, math.MaxInt)
		Bisect(below, c[0], c[1], nan, math.MaxInt)
	}
}
