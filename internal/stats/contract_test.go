package stats

import (
	"math"
	"testing"
)

// TestContract: MeanSD of no values is (NaN, 0), of one value its value
// with sd 0, and a NaN among them gives a NaN mean; never a panic.
func TestContract(t *testing.T) {
	if m, sd := MeanSD(nil); !math.IsNaN(m) || sd != 0 {
		t.Errorf("MeanSD(nil) = %g, %g; want NaN, 0", m, sd)
	}
	if m, sd := MeanSD([]float64{3}); m != 3 || sd != 0 {
		t.Errorf("MeanSD([3]) = %g, %g; want 3, 0", m, sd)
	}
	if m, _ := MeanSD([]float64{1, math.NaN()}); !math.IsNaN(m) {
		t.Errorf("MeanSD with a NaN = %g, want NaN", m)
	}
	for _, n := range []int{0, -1} {
		if lo, hi := Wilson(0.5, n, 3); !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("Wilson(0.5, %d, 3) = %g, %g; want NaN, NaN", n, lo, hi)
		}
	}
}
