package meanfield

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/ode"
)

// coverageSettings are the integrator tolerances of CoverageTime: the
// event time agrees with approx.Model.TimeToCoverage to 1e-9 relative
// (TestCoverageTimeMatchesClosedForm).
var coverageSettings = ode.Settings{RTol: 1e-10, ATol: 1e-13}

// CoverageTime integrates the (x, y) system of m until y reaches level and
// returns that time, located by an event on the dense output; +Inf when y
// never reaches level (level ≥ 1, or a horizon beyond 10⁹ rounds).
func CoverageTime(m approx.Model, level float64) (float64, error) {
	// The closed form sets the horizon only; the time reported is the
	// integrator's event.
	horizon := 2*m.TimeToCoverage(level) + 10
	if math.IsInf(horizon, 0) || math.IsNaN(horizon) || horizon > 1e9 {
		return math.Inf(1), nil
	}
	ev := ode.Event{G: func(_ float64, s []float64) float64 { return s[1] - level }, Direction: 1, Terminal: true}
	sol, err := ode.DormandPrince(XY(m), 0, []float64{m.X0, m.Y0}, horizon, coverageSettings, ev)
	if err != nil {
		return 0, err
	}
	if len(sol.Hits) == 0 {
		return math.Inf(1), nil
	}
	return sol.Hits[0].T, nil
}

// Optimum is the optimal exchange size for given N, n, c and coverage level.
type Optimum struct {
	N, Items, Cache int
	Level           float64
	// SStar is n − √(n(n−c)), the real maximiser of P(11|10).
	SStar float64
	// SInt is the integer argmax of P(11|10) with the simplified P_drop;
	// SIntGamma with the γ form where c ≤ approx.MaxArgmaxGammaC
	// (HasSIntGamma), SIntExact with formula (1) where
	// c ≤ approx.MaxArgmaxExactC (HasSIntExact).
	SInt, SIntGamma, SIntExact int
	HasSIntGamma, HasSIntExact bool
	// P11 is P(11|10) at SInt.
	P11 float64
	// SBestTime minimises the ODE's time to coverage Level over s = 1..c−1;
	// BestTime is that time and TimeAtSInt the time at SInt (rounds).
	SBestTime            int
	BestTime, TimeAtSInt float64
	// Times[s−1] is the time to coverage Level at s, for s = 1..c−1.
	Times []float64
}

// Optimize computes the Optimum for N nodes, n items and caches of c
// (2 ≤ N, 1 ≤ c < n, 0 < level < 1): the argmax of P(11|10) and the scan
// of CoverageTime over every s = 1..c−1 (simplified P_drop, one initial
// copy). It checks ctx between exchange sizes.
func Optimize(ctx context.Context, N, n, c int, level float64) (*Optimum, error) {
	switch {
	case N < 2:
		return nil, fmt.Errorf("meanfield: N = %d: need N ≥ 2", N)
	case c < 1 || c >= n:
		return nil, fmt.Errorf("meanfield: c = %d: need 1 ≤ c < n = %d for an interior optimum", c, n)
	case !(level > 0 && level < 1):
		return nil, fmt.Errorf("meanfield: level = %g: need 0 < level < 1", level)
	}
	r := &Optimum{N: N, Items: n, Cache: c, Level: level, SStar: approx.SStar(n, c)}
	var err error
	if r.SInt, r.P11, err = approx.ArgmaxP11(approx.Simplified, n, c); err != nil {
		return nil, err
	}
	if c <= approx.MaxArgmaxGammaC {
		if r.SIntGamma, _, err = approx.ArgmaxP11(approx.Gamma, n, c); err != nil {
			return nil, err
		}
		r.HasSIntGamma = true
	}
	if c <= approx.MaxArgmaxExactC {
		if r.SIntExact, _, err = approx.ArgmaxP11(approx.Exact, n, c); err != nil {
			return nil, err
		}
		r.HasSIntExact = true
	}
	r.BestTime = math.Inf(1)
	for s := 1; s < c; s++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m, err := approx.NewModel(N, n, c, s, approx.Simplified, 1)
		if err != nil {
			return nil, err
		}
		tc, err := CoverageTime(m, level)
		if err != nil {
			return nil, err
		}
		r.Times = append(r.Times, tc)
		if tc < r.BestTime {
			r.BestTime, r.SBestTime = tc, s
		}
		if s == r.SInt {
			r.TimeAtSInt = tc
		}
	}
	return r, nil
}

// Curves evaluates the closed forms x(t), y(t) of m at t = 0, 1, …, T.
func Curves(m approx.Model, T int) (ts, xs, ys []float64) {
	for t := 0; t <= T; t++ {
		ts = append(ts, float64(t))
		xs = append(xs, m.X(float64(t)))
		ys = append(ys, m.Y(float64(t)))
	}
	return ts, xs, ys
}
