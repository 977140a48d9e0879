package report

import (
	"context"
	"math"
	"testing"
)

func TestFig4Data(t *testing.T) {
	s := NewStudy(Scale{Fig4C: []int{20}, Fig4S: []int{1, 2}, Fig4NMax: 60, Fig4Step: 10}, Options{})
	curves, err := s.Fig4Curves(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// s = 1: E − S = (n−c)/n − (n−c)/(n−1) = −(n−c)/(n(n−1)) (hand derivation,
	// exact.TestPDropSEqualsOne), so log10|E−S| = log10((n−c)/(n(n−1))).
	c1 := curves[0]
	if c1.S != 1 || len(c1.N) != 4 { // n = 30, 40, 50, 60
		t.Fatalf("curve %+v", c1)
	}
	for i, n := range c1.N {
		want := math.Log10((n - 20) / (n * (n - 1)))
		// 1e-12: log10 of a ratio of three small integers in float64, a few ulp of values ~2 to 3 in absolute terms.
		if math.Abs(c1.Log10Diff[i]-want) > 1e-12 {
			t.Errorf("n=%v: %v, want %v", n, c1.Log10Diff[i], want)
		}
	}
	for _, cu := range curves {
		// n = 30, 40, 50, 60: every fourth point (n = 30) is a γ check.
		if cu.GammaMismatches != 0 || len(cu.GammaN) != 1 {
			t.Errorf("c=%d s=%d: %d γ mismatches, %d check points", cu.C, cu.S, cu.GammaMismatches, len(cu.GammaN))
		}
	}
	if specs := Fig4Specs(curves); len(specs) != 1 || len(specs[0].Series) != 4 {
		t.Errorf("Fig4 built %d panels", len(specs))
	}
}
