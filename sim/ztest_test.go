package sim

import (
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
)

func TestTransitionZ(t *testing.T) {
	// From state 10, 100 shuffles: 30 to 11 against p = 0.25 (and 70 stay
	// against 0.75). By hand: |0.30 − 0.25| = 0.05, se = √(0.25·0.75/100)
	// = √0.001875 ≈ 0.0433, z = 0.05/0.0433 = 1.1547 (both targets give
	// the same distance and se).
	var model approx.Transitions
	model[approx.S10][approx.S11], model[approx.S10][approx.S10] = 0.25, 0.75
	// State 11 stays with probability 1: no variance, skipped even though
	// the count disagrees.
	model[approx.S11][approx.S11] = 1
	var counts [4][4]int64
	counts[approx.S10][approx.S11], counts[approx.S10][approx.S10] = 30, 70
	counts[approx.S11][approx.S01] = 5
	got := TransitionZ(counts, model)
	wantZ := 0.05 / math.Sqrt(0.25*0.75/100)
	// 1e-15: MaxDiff is 0.3 − 0.25 in float64, one ulp of 0.3 (5.6e-17); 1e-12 on MaxZ: the same difference divided by a square root, ~1e-15 relative of z ≈ 1.15.
	if math.Abs(got.MaxDiff-0.05) > 1e-15 || math.Abs(got.MaxZ-wantZ) > 1e-12 {
		t.Errorf("got %+v, want diff 0.05 and z %.6f", got, wantZ)
	}
	// A state never seen contributes nothing.
	if got := TransitionZ([4][4]int64{}, model); got != (TransitionTest{}) {
		t.Errorf("no shuffles: %+v", got)
	}
}
