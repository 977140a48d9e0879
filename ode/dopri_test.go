package ode

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// logistic: y' = r·y(1 − y/K), y(t) = K / (1 + (K/y0 − 1)e^{−rt}).
const (
	lr, lK, ly0 = 0.8, 2.0, 0.001
)

func logistic(_ float64, y, dy []float64) { dy[0] = lr * y[0] * (1 - y[0]/lK) }

func logisticExact(t float64) float64 { return lK / (1 + (lK/ly0-1)*math.Exp(-lr*t)) }

// checkLogistic integrates the logistic at rtol (atol = rtol·1e-3) and
// returns the worst error over 201 dense-output points on [0, 30] in units
// of rtol·max|y| and of the local tolerance atol + rtol·|y(t)|.
func checkLogistic(t *testing.T, rtol float64) (scaled, local float64, st Stats) {
	t.Helper()
	atol := rtol * 1e-3
	sol, err := DormandPrince(logistic, 0, []float64{ly0}, 30, Settings{RTol: rtol, ATol: atol})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i <= 200; i++ {
		tt := 30 * float64(i) / 200
		got := sol.At(tt, nil)[0]
		want := logisticExact(tt)
		local = math.Max(local, math.Abs(got-want)/(atol+rtol*math.Abs(want)))
		scaled = math.Max(scaled, math.Abs(got-want)/(rtol*lK))
	}
	return scaled, local, sol.Stats
}

func TestDormandPrinceLogisticTolerance(t *testing.T) {
	// A method with local error control bounds the error per step, not the
	// global error. Measured here at 200 dense-output points: the global
	// error is 0.45–0.85 × rtol·max|y| for rtol ≥ 1e-6 and 2–4.5 × for smaller
	// rtol, because errors made in the exponential phase are amplified before
	// the solution saturates (1–11 × the pointwise local tolerance
	// atol + rtol·|y(t)|). Asserted: below 5·rtol·max|y| for every rtol, so a
	// regression in the controller or the coefficients (which would cost
	// orders of magnitude) fails.
	for _, rtol := range []float64{1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12} {
		t.Run(fmt.Sprintf("rtol=%g", rtol), func(t *testing.T) {
			scaled, local, st := checkLogistic(t, rtol)
			if scaled > 5 {
				t.Errorf("error %.3g × rtol·max|y|, want ≤ 5", scaled)
			}
			t.Logf("max error %.3g × rtol·max|y| (%.3g × local tolerance), %d evaluations, %d accepted, %d rejected", scaled, local, st.Evaluations, st.Accepted, st.Rejected)
		})
	}
}

// order estimates p from errors at steps h and h/2: p = log2(e(h)/e(h/2)).
func TestConvergenceOrder(t *testing.T) {
	const T = 10.0
	dpErr := func(h float64) float64 {
		sol, err := DormandPrince(logistic, 0, []float64{ly0}, T, Settings{FixedStep: h})
		if err != nil {
			t.Fatal(err)
		}
		return math.Abs(sol.At(T, nil)[0] - logisticExact(T))
	}
	rkErr := func(h float64) float64 {
		var last float64
		if _, err := RK4(logistic, 0, []float64{ly0}, T, h, func(_ float64, y []float64) { last = y[0] }); err != nil {
			t.Fatal(err)
		}
		return math.Abs(last - logisticExact(T))
	}
	for _, tc := range []struct {
		name  string
		err   func(float64) float64
		order float64
	}{{"DP5", dpErr, 5}, {"RK4", rkErr, 4}} {
		t.Run(tc.name, func(t *testing.T) {
			// Steps small enough for the asymptotic regime, large enough that
			// rounding (1e-16) does not dominate.
			e1, e2, e3 := tc.err(0.2), tc.err(0.1), tc.err(0.05)
			p1, p2 := math.Log2(e1/e2), math.Log2(e2/e3)
			t.Logf("%s: errors %.3g %.3g %.3g, observed orders %.3f %.3f", tc.name, e1, e2, e3, p1, p2)
			// The observed order is p + O(h) (the next term of the error
			// expansion): measured 4.94 for DP5 and 3.96 for RK4 at these
			// steps. ±0.25 is a quarter of the distance to the next wrong
			// order, which a broken coefficient would give.
			if !scalar.EqualWithinAbs(p2, tc.order, 0.25) {
				t.Errorf("%s: observed order %.3f, want %.0f ± 0.25", tc.name, p2, tc.order)
			}
		})
	}
}

func TestEventLocation(t *testing.T) {
	// The logistic crosses K/2 at t = ln(K/y0 − 1)/r exactly.
	want := math.Log(lK/ly0-1) / lr
	ev := Event{G: func(_ float64, y []float64) float64 { return y[0] - lK/2 }, Direction: 1, Terminal: true}
	sol, err := DormandPrince(logistic, 0, []float64{ly0}, 50, Settings{RTol: 1e-12, ATol: 1e-15}, ev)
	if err != nil {
		t.Fatal(err)
	}
	if len(sol.Hits) != 1 {
		t.Fatalf("%d hits", len(sol.Hits))
	}
	// Error budget: y is within 5·rtol·K = 1e-11 of the truth
	// (TestDormandPrinceLogisticTolerance's bound), which moves the crossing
	// by 1e-11 / y'(T) = 1e-11 / (r·K/4) = 2.5e-11; locate stops within
	// 1e-12·T ≈ 1e-11. Sum 3.5e-11 < 1e-10.
	if got := sol.Hits[0].T; math.Abs(got-want) > 1e-10 {
		t.Errorf("event at %.15g, want %.15g (diff %.2g)", got, want, got-want)
	}
	if sol.TEnd != sol.Hits[0].T {
		t.Errorf("terminal event did not stop the integration: TEnd %g", sol.TEnd)
	}
	// A falling-only event never fires on a rising solution.
	sol, _ = DormandPrince(logistic, 0, []float64{ly0}, 50, Settings{}, Event{G: ev.G, Direction: -1})
	if len(sol.Hits) != 0 {
		t.Errorf("falling event fired %d times", len(sol.Hits))
	}
}

func TestHarmonicOscillatorDense(t *testing.T) {
	// y'' = −y: (sin, cos); many oscillations test the step controller and
	// the interpolant between steps. Zero crossings of sin at t = kπ.
	f := func(_ float64, y, dy []float64) { dy[0], dy[1] = y[1], -y[0] }
	ev := Event{G: func(_ float64, y []float64) float64 { return y[0] }}
	sol, err := DormandPrince(f, 0, []float64{0, 1}, 20, Settings{RTol: 1e-11, ATol: 1e-13}, ev)
	if err != nil {
		t.Fatal(err)
	}
	// |y| ≤ 1, so the local tolerance is ≈ rtol = 1e-11 per step; on an
	// oscillator the global error grows linearly with the ~3 periods (no
	// exponential amplification). 1e-9 = 100·rtol bounds it with room.
	for i := 0; i <= 1000; i++ {
		tt := 20 * float64(i) / 1000
		y := sol.At(tt, nil)
		if math.Abs(y[0]-math.Sin(tt)) > 1e-9 || math.Abs(y[1]-math.Cos(tt)) > 1e-9 {
			t.Fatalf("t=%g: %v vs (%g, %g)", tt, y, math.Sin(tt), math.Cos(tt))
		}
	}
	if len(sol.Hits) != 6 { // π, 2π, …, 6π < 20
		t.Fatalf("%d zero crossings, want 6", len(sol.Hits))
	}
	// A crossing moves by the error in y (|sin'| = 1 there), plus the
	// locator's 1e-12·T ≤ 2e-11: 1e-10 = 10·rtol.
	for i, h := range sol.Hits {
		if math.Abs(h.T-float64(i+1)*math.Pi) > 1e-10 {
			t.Errorf("crossing %d at %.15g, want %.15g", i, h.T, float64(i+1)*math.Pi)
		}
	}
}

func TestBadSettings(t *testing.T) {
	for _, tc := range []struct {
		name   string
		t0, t1 float64
		set    Settings
	}{
		{"RTol=1", 0, 1, Settings{RTol: 1}},
		{"RTol<0", 0, 1, Settings{RTol: -1}},
		{"ATol<0", 0, 1, Settings{RTol: 1e-6, ATol: -1}},
		{"empty interval", 1, 1, Settings{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := DormandPrince(logistic, tc.t0, []float64{1}, tc.t1, tc.set); err == nil {
				t.Errorf("[%g, %g] %+v accepted", tc.t0, tc.t1, tc.set)
			}
		})
	}
}
