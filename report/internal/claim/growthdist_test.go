package claim

import (
	"math"
	"testing"
)

// deltaInterval against its closed form, and its half-width shrinking
// like 1/√R: with R four times larger the half-width TCrit(R)·√(1/R +
// δ²/(2(R − 1))) is about half (exactly half in the limit; the Student
// quantile and the R − 1 move the ratio by under 3 % at R ≥ 100).
func TestDeltaInterval(t *testing.T) {
	t.Parallel()
	d, lo, hi := deltaInterval(11, 2, 10, 10)
	h := TCrit(ZDecide, 10) * math.Sqrt(1.0/10+0.25/18)
	if d != 0.5 || math.Abs(lo-(0.5-h)) > 1e-12 || math.Abs(hi-(0.5+h)) > 1e-12 {
		t.Errorf("δ %v [%v, %v], want 0.5 ± %v", d, lo, hi, h)
	}
	half := func(R int) float64 { _, lo, hi := deltaInterval(11, 2, 10, R); return (hi - lo) / 2 }
	for _, R := range []int{100, 400, 1600} {
		if r := half(4*R) / half(R); math.Abs(r-0.5) > 0.015 {
			t.Errorf("half-width at %d over at %d runs: %v, want about 1/2", 4*R, R, r)
		}
	}
	for _, c := range []struct {
		mean, sd, t0 float64
		R            int
	}{{1, 0, 1, 10}, {1, 1, 0, 10}, {1, 1, 1, 1}} {
		if d, _, _ := deltaInterval(c.mean, c.sd, c.t0, c.R); !math.IsNaN(d) {
			t.Errorf("%+v: δ = %v, want NaN (no spread, no ODE time or one run)", c, d)
		}
	}
}

// The grading of growth distances on synthetic measurements: a protocol
// whose mean growth time equals the ODE's (clearly true), one 3 sd slower
// (clearly false), and one exactly 1 sd slower (on the threshold, which
// no number of runs decides between holds and qualified: qualified, the
// weaker form shown, at every R); each through deltaInterval at R runs.
func TestGrowthDistanceDecisions(t *testing.T) {
	t.Parallel()
	verdict := func(mean float64, R int) string {
		d, lo, hi := deltaInterval(mean, 2, 10, R)
		g := Growth{Delta: d, DLo: lo, DHi: hi, Runs: R}
		return GrowthRule([]Growth{g})
	}
	for _, c := range []struct {
		name string
		mean float64
		R    int
		want string
	}{
		// ±1.3 (t(9) at 3 normal se is 4.09, ×√(1/10)): within two shown.
		{"equal, 10 runs: interval ±1.3", 10, 10, Qualified},
		{"equal, 40 runs", 10, 40, Holds},
		{"3 sd slower, 10 runs", 16, 10, Undecided},
		{"3 sd slower, 40 runs: across 2 (se √(1/40 + 9/78))", 16, 40, Undecided},
		{"3 sd slower, 100 runs", 16, 100, Fails},
		{"1.5 sd faster, 400 runs", 7, 400, Qualified},
		{"on 1 sd, 40 runs", 12, 40, Qualified},
		{"on 1 sd, 10⁵ runs", 12, 100000, Qualified},
		// On 2 sd: across 2 at every R, undecided.
		{"on 2 sd, 10⁵ runs", 14, 100000, Undecided},
	} {
		if got := verdict(c.mean, c.R); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// GradeBands and absBand at their edges.
func TestGradeBands(t *testing.T) {
	t.Parallel()
	if a, b := absBand(-0.5, 1.5); a != 0 || b != 1.5 {
		t.Errorf("absBand(−0.5, 1.5) = %v, %v", a, b)
	}
	if a, b := absBand(-1.8, -1.2); a != 1.2 || b != 1.8 {
		t.Errorf("absBand(−1.8, −1.2) = %v, %v", a, b)
	}
	for _, c := range []struct {
		bands [][2]float64
		want  string
	}{
		{nil, Unchecked},
		// Clearly true: every interval within one sd.
		{[][2]float64{{0, 1}}, Holds},
		{[][2]float64{{0, 0.4}, {0.2, 0.9}}, Holds},
		// On the threshold of one sd (the truth at 1: any interval around
		// it lies across 1): the weaker form, within two sd, is shown.
		{[][2]float64{{1, 2}}, Qualified},
		{[][2]float64{{0.46, 1.76}, {0.1, 0.6}}, Qualified},
		{[][2]float64{{1.01, 2}}, Qualified},
		{[][2]float64{{1.2, 1.5}, {0, 0.5}}, Qualified},
		// Clearly false: some interval wholly beyond two sd, whatever the
		// others are.
		{[][2]float64{{2.01, 3}, {0, 5}}, Fails},
		{[][2]float64{{0, 5}, {2.5, math.Inf(1)}}, Fails},
		// On the threshold of two sd: undecided, even beside a part that
		// holds.
		{[][2]float64{{1.5, 2.5}}, Undecided},
		{[][2]float64{{0, 0.5}, {0.8, 2.01}}, Undecided},
		{[][2]float64{{0.2, math.Inf(1)}}, Undecided},
		// Not a number: cannot be checked, whatever else was measured.
		{[][2]float64{{0, 0.5}, {math.NaN(), 1}}, Unchecked},
	} {
		if got := GradeBands(c.bands); got != c.want {
			t.Errorf("gradeBands(%v) = %s, want %s", c.bands, got, c.want)
		}
	}
}
