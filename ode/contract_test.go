package ode

import (
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: a nil Func, an empty or
// NaN state, a NaN, infinite or reversed interval, a zero or negative step,
// a bad setting or too many steps are refused with an error, within a short
// time, never a panic.
func TestContract(t *testing.T) {
	f := Func(func(_ float64, y, dy []float64) { dy[0] = -y[0] })
	y0 := []float64{1}
	nan, inf := math.NaN(), math.Inf(1)
	rk := func(f Func, t0 float64, y0 []float64, t1, h float64) func() error {
		return func() error { _, err := RK4(f, t0, y0, t1, h, func(float64, []float64) {}); return err }
	}
	dp := func(f Func, t0 float64, y0 []float64, t1 float64, set Settings) func() error {
		return func() error { _, err := DormandPrince(f, t0, y0, t1, set); return err }
	}
	calls := []probe.Refusal{
		{Name: "RK4/nil Func", Call: rk(nil, 0, y0, 1, 0.1)},
		{Name: "RK4/empty y0", Call: rk(f, 0, nil, 1, 0.1)},
		{Name: "RK4/t1 NaN", Call: rk(f, 0, y0, nan, 0.1)},
		{Name: "RK4/t1 Inf", Call: rk(f, 0, y0, inf, 0.1)},
		{Name: "RK4/t1 < t0", Call: rk(f, 1, y0, 0, 0.1)},
		{Name: "RK4/h 0", Call: rk(f, 0, y0, 1, 0)},
		{Name: "RK4/h -1", Call: rk(f, 0, y0, 1, -1)},
		{Name: "RK4/h NaN", Call: rk(f, 0, y0, 1, nan)},
		{Name: "RK4/too many steps", Call: rk(f, 0, y0, 1e300, 1e-300)},
		{Name: "DormandPrince/nil Func", Call: dp(nil, 0, y0, 1, Settings{})},
		{Name: "DormandPrince/empty y0", Call: dp(f, 0, nil, 1, Settings{})},
		{Name: "DormandPrince/y0 NaN", Call: dp(f, 0, []float64{nan}, 1, Settings{})},
		{Name: "DormandPrince/t1 NaN", Call: dp(f, 0, y0, nan, Settings{})},
		{Name: "DormandPrince/t1 < t0", Call: dp(f, 1, y0, 0, Settings{})},
		{Name: "DormandPrince/RTol NaN", Want: "RTol", Call: dp(f, 0, y0, 1, Settings{RTol: nan})},
		{Name: "DormandPrince/RTol 2", Want: "RTol", Call: dp(f, 0, y0, 1, Settings{RTol: 2})},
		{Name: "DormandPrince/ATol -1", Want: "ATol", Call: dp(f, 0, y0, 1, Settings{ATol: -1})},
		{Name: "DormandPrince/MaxSteps -1", Want: "MaxSteps", Call: dp(f, 0, y0, 1, Settings{MaxSteps: -1})},
		{Name: "DormandPrince/MaxStep tiny", Want: "MaxStep", Call: dp(f, 0, y0, 1e300, Settings{MaxStep: 1e-300})},
	}
	probe.Refuses(t, 0, calls...)
}
