package broadcast

import (
	"math"
	"testing"
)

// demers ends for every λ (bisection to 10⁻¹⁷ never ended once hi and lo
// were adjacent floats above 10⁻¹⁷ apart, as near s = 0.2) and returns the
// root of s = e^(−λ(1−s)) in (0, 1): the residual at the root is within
// a few ulps, and λ = 2 gives s = 0.2031878699 (the root of s = e^(2s−2),
// bracketed by hand: at 0.2031 the right side is larger, at 0.2032
// smaller).
func TestDemersEnds(t *testing.T) {
	for _, lam := range []float64{1.0001, 1.5, 2, 2.7, 3, 8, 12, 24, 100, 1e4} {
		s := demers(lam)
		if !(s >= 0 && s < 1) {
			t.Fatalf("λ = %g: s = %g", lam, s)
		}
		if r := s - math.Exp(-lam*(1-s)); math.Abs(r) > 1e-15 {
			t.Errorf("λ = %g: s = %.17g, residual %g", lam, s, r)
		}
	}
	if s := demers(2); math.Abs(s-0.2031878699) > 1e-9 {
		t.Errorf("λ = 2: s = %.10f, want 0.2031878699", s)
	}
}
