package numeric

import (
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValues calls the exported functions with the nastiest values of
// their parameters' types, one at a time (package internal/probe).
func TestNastyValues(t *testing.T) {
	var set probe.Settings
	below := func(x float64) bool { return x < 0.5 }
	probe.Func(t, "TanhSinh", TanhSinh, set, 1.0/16, 44)
	r, err := TanhSinh(1.0/16, 44)
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Rule.Integrate", Rule.Integrate, set, r, func(x, _ float64) float64 { return -math.Log(x) })
	probe.Func(t, "Rule.Tail", Rule.Tail, set, r)
	probe.Func(t, "Bracket", Bracket, set, below, 0.0, 1.0, 1.0, 100)
	probe.Func(t, "Bisect", Bisect, set, below, 0.0, 1.0, 1e-9, 100)
}
