package meanfield

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/internal/ctxguard"

	"github.com/gossipkit/gossipkit/gossip"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/ode"
)

// RefinedCurves are the refined mean field of replication and coverage at
// output times T: the corrected means x + V_x/N, y + V_y/N and the
// predicted standard deviations √(W_kk/N).
type RefinedCurves struct {
	T, X, Y, XSD, YSD []float64
	// Classic is the underlying refined solution (classic mean field X, V, W).
	Classic *Refined
}

// MaxSynchronousRounds bounds RefineGrid's tMax in synchronous time: the
// recursion keeps every round (about 100 bytes a round), so 10⁷ rounds is
// a gigabyte; the models settle within a few hundred.
const MaxSynchronousRounds = 10_000_000

// RefineGrid computes the refined mean field of m's replication–coverage
// model at t = 0, dt, …, tMax (the last point clipped to tMax) under the
// clock tm: gossip.Continuous by integrating x, V and W with set;
// gossip.Synchronous by the synchronous recursion with steps of one round,
// so dt must then be a whole number of rounds. Other clocks are refused.
// It refuses a Model that does not validate (see Solve) and more than
// MaxIntervals output intervals. ctx is checked before the work and
// during it: every 64 rounds in synchronous time, every accepted step of
// the integrator in continuous time (which does not change the solution).
func RefineGrid(ctx context.Context, m approx.Model, tMax, dt float64, tm gossip.Time, set ode.Settings) (*RefinedCurves, error) {
	if err := ctxguard.Check("meanfield", ctx); err != nil {
		return nil, err
	}
	if err := checkModel(m); err != nil {
		return nil, err
	}
	if err := checkGrid(tMax, dt); err != nil {
		return nil, err
	}
	if tm != gossip.Continuous && tm != gossip.Synchronous {
		return nil, fmt.Errorf("meanfield: time model %v: the refined mean field is continuous or synchronous", tm)
	}
	if tm == gossip.Synchronous && math.Abs(dt-math.Round(dt)) > 1e-9 {
		return nil, Dt.Errorf("meanfield", "", "= %g: with synchronous time the output spacing is a whole number of rounds", dt)
	}
	if err := checkPoints(tMax, dt); err != nil {
		return nil, err
	}
	ts := ode.Grid(tMax, dt)
	if ts == nil {
		return nil, fmt.Errorf("meanfield: tMax = %g, dt = %g: need a finite tMax and at most %g output intervals", tMax, dt, float64(ode.MaxGrid))
	}
	if tm == gossip.Synchronous && tMax > MaxSynchronousRounds {
		return nil, fmt.Errorf("meanfield: tMax = %g: the synchronous recursion takes at most %d rounds", tMax, MaxSynchronousRounds)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pop := Coverage(m)
	var ref *Refined
	if tm == gossip.Synchronous {
		full, err := RefinedDiscrete(ctx, SynchronousSteps{P: pop, H: 1}, []float64{m.X0, m.Y0}, int(math.Ceil(tMax)))
		if err != nil {
			return nil, err
		}
		ref = &Refined{}
		for _, t := range ts {
			k := int(math.Round(t))
			ref.T = append(ref.T, t)
			ref.X, ref.V, ref.W = append(ref.X, full.X[k]), append(ref.V, full.V[k]), append(ref.W, full.W[k])
		}
	} else {
		var err error
		if ref, err = refinedContinuous(ctx, pop, []float64{m.X0, m.Y0}, ts, set); err != nil {
			return nil, err
		}
	}
	out := &RefinedCurves{T: ts, Classic: ref}
	for i := range ts {
		mean, sd := ref.Mean(i, m.Nodes), ref.SD(i, m.Nodes)
		out.X, out.Y = append(out.X, mean[0]), append(out.Y, mean[1])
		out.XSD, out.YSD = append(out.XSD, sd[0]), append(out.YSD, sd[1])
	}
	return out, nil
}

// The arguments tMax and dt of Solve and RefineGrid, each stated once:
// checkGrid checks them and the command line writes its flags' help from
// them. Their field errors name the argument (tMax, dt).
var (
	TMax = gossip.Param{Field: "tMax", Meaning: "last time", Unit: "rounds", Range: "> 0", Lo: gossip.Above(0)}
	Dt   = gossip.Param{Field: "dt", Meaning: "output spacing", Unit: "rounds", Range: "0 < dt ≤ t-max", Lo: gossip.Above(0)}
)

// checkGrid checks 0 < tMax < ∞ and 0 < dt ≤ tMax.
func checkGrid(tMax, dt float64) error {
	if err := TMax.Check("meanfield", "", tMax); err != nil {
		return err
	}
	if !Dt.In(dt) || dt > tMax {
		return Dt.Errorf("meanfield", "", "= %g: valid range (0, t-max] = (0, %g]", dt, tMax)
	}
	return nil
}

// MaxIntervals is the most output intervals, round(tMax/dt), that Solve
// and RefineGrid compute (the command line's limit of 10⁶ rows): each
// point keeps five values in Solve and about 200 bytes in RefineGrid (x,
// V, W and the curves), and Solve, which takes no context, evaluates the
// closed forms at each (5.3 s at 10⁷ points, measured on a loaded
// machine; ode.Grid's own limit, ode.MaxGrid, is 10⁸).
const MaxIntervals = 1e6

// checkPoints refuses, before any work, an infinite tMax and a grid of
// more than MaxIntervals intervals.
func checkPoints(tMax, dt float64) error {
	if math.IsInf(tMax, 0) {
		return fmt.Errorf("meanfield: tMax = %g: need a finite tMax", tMax)
	}
	if n := math.Round(tMax / dt); !(n <= MaxIntervals) {
		return fmt.Errorf("meanfield: dt = %g: %.3g output intervals to tMax = %g, more than MaxIntervals = %g: %w", dt, n, tMax, float64(MaxIntervals), gossip.ErrTooLarge)
	}
	return nil
}

// Solution is the classic mean field integrated on an output grid, beside
// its closed forms.
type Solution struct {
	T, X, Y, XClosed, YClosed []float64
	// MaxDiff is the largest |integrated − closed form| over x and y and
	// the grid, at MaxDiffAt.
	MaxDiff, MaxDiffAt float64
	Stats              ode.Stats
}

// Solve integrates the system of m with DormandPrince and set, in the form
// XZ so that the coverage y stays within [0, 1], and evaluates it and the
// closed forms on ode.Grid(tMax, dt). The tolerances apply to x and to
// z = −ln(1 − y). Like every function of this package that takes an
// approx.Model, which a caller may write by hand, it refuses one whose
// Config does not validate or whose P, Q, X0 or Y0 is not in [0, 1] (a
// *FieldError naming Model.Config.Nodes, Model.P); a grid of more than
// MaxIntervals intervals; and a tMax whose plateau alone needs more steps
// than its step limit (PlateauSteps). The step limit is set.MaxSteps
// capped at MaxSolveSteps, 0 meaning MaxSolveSteps; a negative MaxSteps is
// a field error on Settings.MaxSteps (the one rule, stepLimit). tMax and
// dt are checked by their parameters TMax and Dt.
func Solve(m approx.Model, tMax, dt float64, set ode.Settings) (*Solution, error) {
	if err := checkModel(m); err != nil {
		return nil, err
	}
	if err := checkGrid(tMax, dt); err != nil {
		return nil, err
	}
	limit, err := stepLimit(set)
	if err != nil {
		return nil, err
	}
	if err := checkPoints(tMax, dt); err != nil {
		return nil, err
	}
	if err := checkPlateauSteps(m, tMax, limit); err != nil {
		return nil, err
	}
	set.MaxSteps = limit
	sol, err := ode.DormandPrince(XZ(m), 0, []float64{m.X0, zOfCoverage(m.Y0)}, tMax, set)
	if err != nil {
		return nil, fmt.Errorf("meanfield: %w", err)
	}
	out := &Solution{T: ode.Grid(tMax, dt), Stats: sol.Stats}
	y := make([]float64, 2)
	for _, t := range out.T {
		sol.At(t, y)
		y[1] = CoverageOfZ(y[1])
		xc, yc := m.X(t), m.Y(t)
		if d := math.Max(math.Abs(y[0]-xc), math.Abs(y[1]-yc)); d > out.MaxDiff {
			out.MaxDiff, out.MaxDiffAt = d, t
		}
		out.X, out.Y = append(out.X, y[0]), append(out.Y, y[1])
		out.XClosed, out.YClosed = append(out.XClosed, xc), append(out.YClosed, yc)
	}
	return out, nil
}
