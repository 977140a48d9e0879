package numeric_test

import (
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/internal/numeric"
)

// The mean of −ln U for U uniform, ∫₀¹ −ln q dq = 1, despite the
// singularity at 0; the 0.9-quantile of the exponential law, −ln 0.1.
func Example() {
	r, err := numeric.TanhSinh(1.0/16, 44)
	if err != nil {
		panic(err)
	}
	fmt.Printf("∫ −ln q dq = %.8f (δ = %.1e)\n", r.Integrate(func(q, _ float64) float64 { return -math.Log(q) }), r.Tail())
	below := func(x float64) bool { return -math.Expm1(-x) < 0.9 }
	lo, hi, _ := numeric.Bracket(below, 0, 1, 1, 100)
	fmt.Printf("q(0.9) = %.8f (−ln 0.1 = %.8f)\n", numeric.Bisect(below, lo, hi, 1e-12, 100), -math.Log(0.1))
	// Output:
	// ∫ −ln q dq = 1.00000000 (δ = 1.1e-11)
	// q(0.9) = 2.30258509 (−ln 0.1 = 2.30258509)
}
