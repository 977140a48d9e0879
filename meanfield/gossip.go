package meanfield

import (
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/ode"
)

// checkModel checks an approx.Model, which a caller may write by hand: its
// Config (approx.Config.Validate) and P, Q, X0 and Y0 in [0, 1]. A problem
// is a *FieldError naming the field (Model.Config.Nodes, Model.P).
func checkModel(m approx.Model) error {
	if err := m.Config.Validate(); err != nil {
		return fielderr.Within("meanfield", "Model", err)
	}
	for _, f := range [...]struct {
		name string
		v    float64
	}{{"P", m.P}, {"Q", m.Q}, {"X0", m.X0}, {"Y0", m.Y0}} {
		if !(f.v >= 0 && f.v <= 1) {
			return fielderr.New("meanfield", "Model."+f.name, "= %g: need a probability in [0, 1]", f.v)
		}
	}
	return nil
}

// nanFunc is the right-hand side of an invalid model: NaN everywhere.
func nanFunc(_ float64, _, ds []float64) { nanFill(ds) }

// XY returns the right-hand side of the replication–coverage system
// of approx.Model (state y = (x, y)):
//
//	dx/dt = f·2p[(1−q)·x(1−x) − (1−p)q·x²],   dy/dt = f·2p·x·(1 − y),
//
// with f = approx.LossFactor(m.Loss), 1 without message loss. For a Model
// that does not validate (see Solve), or a state or output of fewer than
// two components, it sets every component of the output to NaN.
func XY(m approx.Model) ode.Func {
	if checkModel(m) != nil {
		return nanFunc
	}
	return func(_ float64, s, ds []float64) {
		if len(s) < 2 || len(ds) < 2 {
			nanFill(ds)
			return
		}
		ds[0], ds[1] = m.Drift(s[0], s[1])
	}
}

// XZ is XY in the variables (x, z) with z = −ln(1 − y), the integrated
// log of the uncovered share:
//
//	dx/dt = f·2p[(1−q)·x(1−x) − (1−p)q·x²],   dz/dt = f·2p·x,
//
// since dz/dt = (dy/dt)/(1 − y). Coverage is y = 1 − e^{−z} = −expm1(−z)
// (Coverage of z), which lies in [0, 1] whatever the integrator's error in
// z, where integrating y itself overshoots 1 by up to ~rtol (1.0000004 at
// rtol = 1e-6); and 1 − y = e^{−z} keeps its relative accuracy as y → 1.
// The start is z0 = −log1p(−y0). It is NaN where XY is.
func XZ(m approx.Model) ode.Func {
	if checkModel(m) != nil {
		return nanFunc
	}
	return func(_ float64, s, ds []float64) {
		if len(s) < 2 || len(ds) < 2 {
			nanFill(ds)
			return
		}
		ds[0], ds[1] = m.Drift(s[0], 0) // dy at y = 0 is 2p·x
	}
}

// CoverageOfZ returns y = 1 − e^{−z}, the coverage of XZ's second
// variable, in [0, 1] for z ≥ 0.
func CoverageOfZ(z float64) float64 { return -math.Expm1(-z) }

// zOfCoverage is −ln(1 − y), the inverse of CoverageOfZ, at most zFull:
// y = 1 (every node covered at t = 0: ode -N 2 --initial 2) would start the
// integrator at z = +Inf, whose error estimate is NaN.
func zOfCoverage(y float64) float64 { return math.Min(-math.Log1p(-y), zFull) }

// zFull is a z whose coverage 1 − e^{−z} rounds to 1 (e^{−40} ≈ 4·10⁻¹⁸ is
// below half an ulp of 1).
const zFull = 40

// MaxRounds is the most rounds Map and Curves compute (they take no
// context): Curves keeps 24 bytes a round and evaluates the closed forms at
// each, 24 MB and about 0.4 s at 10⁶ rounds (3.9 s at 10⁷, measured on a
// loaded machine); the models settle within a few hundred.
const MaxRounds = 1e6

// Map is the synchronous discrete-time model: one round is one step in
// which every shuffle acts on the state at the round's start, so the mean
// moves by the whole round's drift at once,
//
//	x_{t+1} = x_t + f·2p[(1−q)x_t(1−x_t) − (1−p)q·x_t²],
//	y_{t+1} = 1 − (1 − y_t)(1 − a·p·x_t)(1 − a²·p·x_t),
//
// with a = 1 − ε and f = a(1 − ε/2) under message loss ε (a = f = 1
// without), the coverage line because an uncovered node takes part in two
// shuffles a round on average: one it is chosen for, which hands it d with
// probability a·p·x_t (the request carrying d must arrive), and one it
// initiates, a²·p·x_t (its request and the reply carrying d must arrive).
// It returns x and y at t = 0..T, or nil when T is not in [0, MaxRounds]
// or m does not validate (see Solve).
func Map(m approx.Model, T int) (xs, ys []float64) {
	if T < 0 || T > MaxRounds || checkModel(m) != nil {
		return nil, nil // out of range: no trajectory
	}
	xs, ys = make([]float64, T+1), make([]float64, T+1)
	xs[0], ys[0] = m.X0, m.Y0
	for t := 0; t < T; t++ {
		dx, _ := m.Drift(xs[t], ys[t])
		xs[t+1] = xs[t] + dx
		// a·p and a·a·p are p exactly at ε = 0: the lossless map is unchanged.
		a := 1 - m.Loss
		r1, r2 := 1-a*m.P*xs[t], 1-a*a*m.P*xs[t]
		ys[t+1] = 1 - (1-ys[t])*r1*r2
	}
	return xs, ys
}
