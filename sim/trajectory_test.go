package sim

import (
	"math"
	"testing"
)

func TestCompareTrajectoryAndFirstReach(t *testing.T) {
	tr := Trajectory{T: []float64{0, 1, 2, 3}, Mean: []float64{0, 0.2, 0.6, 1}, SD: []float64{0, 0.1, 0.1, 0}}
	model := []float64{0, 0.25, 0.9, 1}
	g := CompareTrajectory(model, tr)
	// 1e-15: |0.9 − 0.6| in float64 is 0.3 to within one ulp of 1 (1.1e-16).
	if math.Abs(g.Max-0.3) > 1e-15 || g.At != 2 || g.WithinSD != 0.75 {
		t.Errorf("gap %+v, want max 0.3 at t=2, 3/4 within sd", g)
	}
	// A model evaluated further on is compared over the trajectory's
	// times (the report's refined table compares 40-round protocol runs
	// with longer model curves); a shorter one has no gap.
	if g2 := CompareTrajectory(append(model, 5, 7), tr); g2 != g {
		t.Errorf("longer model: gap %+v, want %+v", g2, g)
	}
	if g2 := CompareTrajectory(model[:3], tr); !math.IsNaN(g2.Max) {
		t.Errorf("shorter model: gap %+v, want NaN", g2)
	}
	// Linear interpolation: 0.5 is reached between t=1 (0.2) and t=2 (0.6) at 1.75.
	// 1e-15: the interpolation 1 + (0.5−0.2)/(0.6−0.2) is a few operations on numbers ≤ 2: a few ulp.
	if got := FirstReach(tr.T, tr.Mean, 0.5); math.Abs(got-1.75) > 1e-15 {
		t.Errorf("FirstReach = %v, want 1.75", got)
	}
	if !math.IsNaN(FirstReach(tr.T, tr.Mean, 2)) {
		t.Error("an unreached level returned a time")
	}
}
