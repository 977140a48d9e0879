package meanfield

import (
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/ode"
)

// dopriStability is the length of the real stability interval of the
// Dormand–Prince pair: on the negative real axis a step h is stable for
// h·|λ| ≤ 3.3 (Hairer, Nørsett and Wanner, Solving ODEs I, Sec. II.5/IV.2).
const dopriStability = 3.3

// PlateauSteps is the number of steps the integrator must take on the
// plateau of x up to tMax: there x'(x) = k(1 − 2x/K) = −k, an eigenvalue
// that limits the step of an explicit method to 3.3/k whatever the
// tolerance, so integrating to tMax takes at least tMax·k/3.3 steps (k =
// m.Rate()). Measured: 3403 steps for tMax·k/3.3 = 3367 (n = 500, c = 100,
// s = 50, tMax = 10^5) and 4995 for 4959 (n = 200, c = 100, s = 90); the
// transient adds tens to a few hundred steps (more at tight tolerances).
// It is NaN when m does not validate (see Solve).
func PlateauSteps(m approx.Model, tMax float64) float64 {
	if checkModel(m) != nil {
		return math.NaN()
	}
	return tMax * m.Rate() / dopriStability
}

// MaxSolveSteps bounds the integrator steps Solve may need, whatever
// set.MaxSteps allows: Solve takes no context, and 10⁶ steps of its
// two-dimensional system (the integrator's default limit) take about a
// second and 80 MB of dense output.
const MaxSolveSteps = 1_000_000

// stepLimit is the one rule for Solve's step limit from set.MaxSteps: a
// negative MaxSteps is a field error (ode.MaxSteps, as ode.DormandPrince
// refuses it), 0 means MaxSolveSteps (ode's default), and a larger value
// than MaxSolveSteps is capped at it. checkPlateauSteps and the
// integration both use it.
func stepLimit(set ode.Settings) (int, error) {
	if err := set.Validate(); err != nil {
		return 0, fielderr.Within("meanfield", "", err)
	}
	return min(set.StepLimit(), MaxSolveSteps), nil
}

// checkPlateauSteps refuses, before any work, an integration that must
// take more steps than limit (stepLimit): it would run to the limit and
// fail.
func checkPlateauSteps(m approx.Model, tMax float64, limit int) error {
	if n := PlateauSteps(m, tMax); !(n <= float64(limit)) {
		return fmt.Errorf("meanfield: tMax = %g needs at least %.3g integrator steps (tMax·k/3.3: the plateau limits the step to 3.3/k = %.3g rounds), more than the %d allowed: %w",
			tMax, n, dopriStability/m.Rate(), limit, gossip.ErrTooLarge)
	}
	return nil
}
