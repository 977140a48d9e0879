package stats

import (
	"math"
	"testing"
)

func TestMeanSD(t *testing.T) {
	// 1, 2, 3, 4: mean 5/2, sample variance ((9+1+1+9)/4)/3 = 5/3.
	m, sd := MeanSD([]float64{4, 1, 3, 2})
	// sd ≈ 1.29 comes from about ten roundings of half an ulp each
	// (1.1e-16 relative): well within 1e-15 absolute. The mean of small
	// integers is exact.
	if m != 2.5 || math.Abs(sd-math.Sqrt(5.0/3)) > 1e-15 {
		t.Errorf("mean %v sd %v", m, sd)
	}
	if m, sd := MeanSD([]float64{7}); m != 7 || sd != 0 {
		t.Errorf("one value: %v %v", m, sd)
	}
	if m, _ := MeanSD(nil); !math.IsNaN(m) {
		t.Errorf("no value: mean %v, want NaN", m)
	}
	// The standard error is sd/√n: √(5/3)/2 for the four values.
	if m, se := MeanSE([]float64{4, 1, 3, 2}); m != 2.5 || math.Abs(se-math.Sqrt(5.0/3)/2) > 1e-15 {
		t.Errorf("MeanSE: mean %v se %v", m, se)
	}
}
