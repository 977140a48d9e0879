package roundmf

import (
	"fmt"
	"math"
	"testing"
)

// Demers ends for every λ (bisection to 10⁻¹⁷ never ended once hi and lo
// were adjacent floats above 10⁻¹⁷ apart, as near s = 0.2) and returns the
// root of s = e^(−λ(1−s)) in (0, 1): the residual at the root is within
// a few ulps, and λ = 2 gives s = 0.20318786997998 (the root of
// s = e^(2s−2): at 0.2031 the right side is larger, at 0.2032 smaller, and
// bisection of that bracket in 40-digit decimal arithmetic (Python's
// decimal module) gives 0.2031878699799799538…).
func TestDemersEnds(t *testing.T) {
	for _, lam := range []float64{1.0001, 1.5, 2, 2.7, 3, 8, 12, 24, 100, 1e4} {
		t.Run(fmt.Sprintf("λ=%g", lam), func(t *testing.T) {
			s := Demers(lam)
			if !(s >= 0 && s < 1) {
				t.Fatalf("λ = %g: s = %g", lam, s)
			}
			if r := s - math.Exp(-lam*(1-s)); math.Abs(r) > 1e-15 {
				t.Errorf("λ = %g: s = %.17g, residual %g", lam, s, r)
			}
		})
	}
	// A residual r moves the root by r/|1 − λs| = r/0.594: the 1e-15
	// above allows 1.7e-15; the literal's 14 digits add 5e-15.
	if s := Demers(2); math.Abs(s-0.20318786997998) > 7e-15 {
		t.Errorf("λ = 2: s = %.16f, want 0.20318786997998", s)
	}
}
