package numeric

import (
	"fmt"
	"math"
	"testing"
)

// Bracket and Bisect against quantiles with closed forms: the final
// interval holds the quantile x* (below(lo) true, below(hi) false, below
// monotone) and is at most tol·max(1, |hi|) wide, so |hi − x*| is within
// that, plus where F is evaluated in float64 the x at which the rounded F
// crosses p may differ from x* by about 2⁻⁵²/f(x*) (f the density); the
// cases keep that below 10⁻¹⁴.
func TestBisectQuantiles(t *testing.T) {
	t.Parallel()
	const tol = 1e-12
	cases := []struct {
		name  string
		below func(x float64) bool
		want  float64
	}{
		// Exponential: F(x) = 1 − e^−x, x* = −ln(1 − p).
		{"exp 0.5", func(x float64) bool { return -math.Expm1(-x) < 0.5 }, math.Ln2},
		{"exp 1e-9", func(x float64) bool { return -math.Expm1(-x) < 1e-9 }, -math.Log1p(-1e-9)},
		// The upper tail on the survival function: e^−x > 1e-12.
		{"exp sf 1e-12", func(x float64) bool { return math.Exp(-x) > 1e-12 }, 12 * math.Ln10},
		// Gumbel: F(x) = exp(−e^−x), x* = −ln(−ln p).
		{"gumbel 0.95", func(x float64) bool { return math.Exp(-math.Exp(-x)) < 0.95 }, -math.Log(-math.Log(0.95))},
		// A step: F jumps to 1 at 3 (a law on one point).
		{"step 3", func(x float64) bool { return x < 3 }, 3},
		// A quantile far from the start: x* = 1e6 (uniform on [0, 2e6]).
		{"far", func(x float64) bool { return x/2e6 < 0.5 }, 1e6},
		{"far left", func(x float64) bool { return x < -5e5 }, -5e5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lo, hi, ok := Bracket(c.below, 0, 1, 1, 200)
			if !ok || !c.below(lo) || c.below(hi) {
				t.Fatalf("Bracket = [%g, %g], %v: does not hold x* = %g", lo, hi, ok, c.want)
			}
			got := Bisect(c.below, lo, hi, tol, 200)
			if c.below(got) || math.Abs(got-c.want) > tol*math.Max(1, math.Abs(c.want))+1e-14 {
				t.Errorf("Bisect = %.17g, want %.17g within %.2g", got, c.want, tol*math.Max(1, math.Abs(c.want)))
			}
		})
	}
}

// A predicate true everywhere has no quantile: Bracket says so after its
// steps, and no call runs past MaxSteps whatever steps it is given.
func TestBracketBounded(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		step  float64
		steps int
	}{{"doubling", 1, math.MaxInt}, {"zero step", 0, math.MaxInt}, {"NaN step", math.NaN(), 50}} {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			always := func(float64) bool { calls++; return true }
			if _, _, ok := Bracket(always, 0, 1, c.step, c.steps); ok {
				t.Error("ok for a predicate that never turns false")
			}
			// One call at lo, at most MaxSteps + 1 at hi, one for ok.
			if calls > MaxSteps+3 {
				t.Errorf("%d calls, more than MaxSteps + 3", calls)
			}
			calls = 0
			Bisect(always, 0, 1, 0, c.steps)
			if calls > MaxSteps {
				t.Errorf("Bisect: %d calls, more than MaxSteps", calls)
			}
		})
	}
	if !math.IsNaN(Bisect(nil, 0, 1, 0, 10)) {
		t.Error("Bisect(nil) is not NaN")
	}
	if _, _, ok := Bracket(nil, 0, 1, 1, 10); ok {
		t.Error("Bracket(nil) ok")
	}
}

// Bisect makes the very halvings of the plain loops it replaced in
// package chain (60 halvings, no tolerance) and package plan (halvings to
// 1e-9 relative, at most 200), so their answers are unchanged to the bit:
// the loops are copied here as they were, and the midpoint that Bisect
// refuses (not strictly inside) leaves them where they are.
func TestBisectAsPlainLoops(t *testing.T) {
	t.Parallel()
	for _, p := range []float64{1e-300, 1e-9, 0.05, 0.5, 0.95, 1 - 1e-12, 1} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			F := func(x float64) float64 { return 1 - math.Exp(-x*x/3) } // Rayleigh
			// chain: a, b := 0, span; 60 times: b = mid if F(mid) ≥ p.
			a, b := 0.0, 1e6 // wide enough that 60 halvings stay above the resolution
			for range 60 {
				mid := (a + b) / 2
				if F(mid) >= p {
					b = mid
				} else {
					a = mid
				}
			}
			if got := Bisect(func(x float64) bool { return !(F(x) >= p) }, 0, 1e6, 0, 60); got != b {
				t.Errorf("chain's loop: Bisect %v, loop %v", got, b)
			}
			// plan: bisection to 1e-9·max(1, |hi|), at most 200.
			below := func(x float64) bool { return F(x) < p }
			lo, hi := 0.25, 40.0
			for i := 0; i < 200 && hi-lo > 1e-9*math.Max(1, math.Abs(hi)); i++ {
				mid := (lo + hi) / 2
				if below(mid) {
					lo = mid
				} else {
					hi = mid
				}
			}
			if got := Bisect(below, 0.25, 40, 1e-9, 200); got != hi {
				t.Errorf("plan's loop: Bisect %v, loop %v", got, hi)
			}
		})
	}
}
