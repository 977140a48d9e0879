package numeric

import "math"

// MaxSteps bounds the steps of Bracket and Bisect whatever the caller
// asks: 2100 doublings take any nonzero float64 step past the largest
// float64, and 2100 halvings any float64 interval to adjacent float64s
// (2^1024·2 / 2^−1074 = 2^2099).
const MaxSteps = 2100

// Bracket widens [lo, hi] until it holds the point x* where the monotone
// predicate below turns false (below(x) true for x < x*): while below(lo)
// is false, lo moves left by step, 2·step, 4·step, …; then, while
// below(hi) is true, hi moves right likewise; each end at most
// min(steps, MaxSteps) times. ok reports whether below(hi) is false at the
// end (below(lo) may still be false after the steps: then x* ≤ lo, and
// Bisect returns a point near lo). A nil below gives ok false.
//
// The k-th move is 2^k·step, exactly (a power of two scales without
// rounding): a caller that moved by 2^k/u moves by the same amounts with
// step = 1/u, barring underflow of 1/u.
func Bracket(below func(float64) bool, lo, hi, step float64, steps int) (a, b float64, ok bool) {
	if below == nil {
		return lo, hi, false
	}
	steps = min(steps, MaxSteps)
	d := step
	for i := 0; i < steps && !below(lo); i++ {
		lo -= d
		d *= 2
	}
	d = step
	for i := 0; i < steps && below(hi); i++ {
		hi += d
		d *= 2
	}
	return lo, hi, !below(hi)
}

// Bisect returns the right end of [lo, hi] halved min(steps, MaxSteps)
// times at most, keeping below(lo) true and below(hi) false (as Bracket
// leaves them; they are not evaluated), until hi − lo ≤ tol·max(1, |hi|)
// (tol relative above 1, absolute below; tol 0: to the end of the steps)
// or the midpoint is no longer strictly inside (adjacent float64s). For
// below(x) = F(x) < p this is the smallest x with F(x) ≥ p, from above,
// within the width of the last interval. A nil below gives NaN.
func Bisect(below func(float64) bool, lo, hi, tol float64, steps int) float64 {
	if below == nil {
		return math.NaN()
	}
	steps = min(steps, MaxSteps)
	for i := 0; i < steps && hi-lo > tol*math.Max(1, math.Abs(hi)); i++ {
		mid := (lo + hi) / 2
		if !(mid > lo && mid < hi) {
			break
		}
		if below(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}
