package meanfield

import (
	"fmt"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/ode"
)

// TestSolveCoverageInUnitInterval: Solve integrates z = −ln(1 − y), so the
// coverage it returns lies in [0, 1] at every grid point even at loose
// tolerances, where integrating y itself overshot 1 (by 1.0e-3 at
// rtol = 1e-3 and by 4.4e-7 at rtol = 1e-6, N = 50, c = 100, s = 99,
// measured before the change). It also must stay near the closed form: the
// bound is 100·rtol, the integrator's global error (~5·rtol, see
// TestDormandPrinceAgainstReference) with a margin for loose settings.
func TestSolveCoverageInUnitInterval(t *testing.T) {
	for _, tc := range []struct {
		N, n, c, s int
		rtol       float64
	}{
		{2500, 500, 100, 50, 1e-10}, {100, 500, 100, 50, 1e-10}, {2500, 500, 100, 50, 1e-3},
		{50, 500, 100, 99, 1e-6}, {100000, 500, 100, 50, 1e-4}, {2, 1000, 10, 5, 1e-6},
	} {
		t.Run(fmt.Sprintf("%+v", tc), func(t *testing.T) {
			m, err := approx.NewModel(approx.Config{Nodes: tc.N, Shuffle: gossip.Shuffle{Items: tc.n, Cache: tc.c, Exchange: tc.s}})
			if err != nil {
				t.Fatal(err)
			}
			sol, err := Solve(m, 2000, 1, ode.Settings{RTol: tc.rtol, ATol: 1e-13})
			if err != nil {
				t.Fatal(err)
			}
			for i, y := range sol.Y {
				if !(y >= 0 && y <= 1) {
					t.Fatalf("y(%g) = %.17g outside [0, 1]", sol.T[i], y)
				}
				if d := math.Abs(y - sol.YClosed[i]); d > 100*tc.rtol {
					t.Fatalf("y(%g) = %.17g, closed form %.17g: off by %.3g > 100·rtol", sol.T[i], y, sol.YClosed[i], d)
				}
			}
			if last := sol.Y[len(sol.Y)-1]; tc.rtol <= 1e-6 && last < 1-1e-6 {
				t.Errorf("y(2000) = %.17g: coverage should be complete", last)
			}
		})
	}
}

// TestCoverageTimeAtInitialLevel: d starts at Initial nodes, so a level at
// or below y(0) = Initial/N is reached at time 0 exactly (it was +Inf: the
// upward event never fires when the curve starts on or above it), and a
// level just above y(0) takes a small positive time, never −0.
func TestCoverageTimeAtInitialLevel(t *testing.T) {
	for _, initial := range []int{1, 5, 100} {
		m, err := approx.NewModel(approx.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Initial: initial})
		if err != nil {
			t.Fatal(err)
		}
		for _, lv := range []float64{0, m.Y0 / 2, m.Y0} {
			got, err := CoverageTime(m, lv)
			if err != nil || got != 0 || math.Signbit(got) {
				t.Errorf("initial %d, level %g: CoverageTime = %v, %v; want exactly 0", initial, lv, got, err)
			}
			if got := m.TimeToCoverage(lv); got != 0 || math.Signbit(got) {
				t.Errorf("initial %d, level %g: TimeToCoverage = %v, want exactly 0", initial, lv, got)
			}
		}
		above := math.Nextafter(m.Y0, 1)
		if got := m.TimeToCoverage(above); !(got > 0) {
			t.Errorf("initial %d: TimeToCoverage(next float above y0) = %v, want > 0", initial, got)
		}
		if got, err := CoverageTime(m, above); err != nil || math.Signbit(got) || got > 1e-9 {
			t.Errorf("initial %d: CoverageTime(next float above y0) = %v, %v; want a time in [0, 1e-9]", initial, got, err)
		}
	}
}
