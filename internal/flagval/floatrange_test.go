package flagval

import (
	"math"
	"slices"
	"testing"
)

// The grids written out by hand; the rounding to 12 digits gives the
// decimal values (0.1 + 2·0.1 would be 0.30000000000000004).
func TestFloatRange(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []float64
	}{
		{"0.25", []float64{0.25}}, {"0:0.3:0.1", []float64{0, 0.1, 0.2, 0.3}}, {"0.05:0.2:0.05", []float64{0.05, 0.1, 0.15, 0.2}},
		{"0:0.25:0.1", []float64{0, 0.1, 0.2}}, {"0.5:0.5:1", []float64{0.5}}, {"NaN", []float64{math.NaN()}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			// Exact equality: the grid is rounded to 12 digits, which gives
			// the float64 nearest each decimal written above.
			got, err := FloatRange(tc.in)
			if err != nil || !slices.EqualFunc(got, tc.want, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
				t.Errorf("%q: %v, %v; want %v", tc.in, got, err, tc.want)
			}
		})
	}
	// 0:1:1e-9 asks for 10⁹ + 1 points, beyond MaxPoints.
	for _, bad := range []string{"", "x", "0:1", "0:1:0", "0:1:-0.1", "1:0:0.1", "0:1:2:3", "NaN:1:0.1", "0:NaN:0.1", "0:1:NaN", "Inf", "0:1:1e-9"} {
		t.Run("bad "+bad, func(t *testing.T) {
			if v, err := FloatRange(bad); err == nil {
				t.Errorf("%q accepted as %v", bad, v)
			}
		})
	}
}
