package ode

import (
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/gossip"
)

// The parameters of Settings that a caller tunes, each stated once:
// Settings.Validate checks them and the command line writes its flags'
// help from them. A zero field means its default.
var (
	// RTol is the relative tolerance. Below about 50 units of round-off
	// (2^−53 ≈ 1.1e−16) no step can meet it: the step size underflows
	// and the solution becomes NaN.
	RTol = gossip.Param{Field: "Settings.RTol", Meaning: "relative tolerance of the integrator", Range: "[1e-14, 1)",
		Default: "1e-6", Lo: gossip.AtLeast(1e-14), Hi: gossip.Below(1)}
	// ATol is the absolute tolerance. The integrator's users (meanfield)
	// integrate fractions and −ln(1 − y), quantities of order 1: an
	// absolute tolerance above 1 accepts any answer.
	ATol = gossip.Param{Field: "Settings.ATol", Meaning: "absolute tolerance of the integrator", Range: "[0, 1]",
		Default: "RTol·1e-3", Lo: gossip.AtLeast(0), Hi: gossip.AtMost(1)}
	// MaxSteps bounds the attempted steps; a negative value is a field
	// error, not the default.
	MaxSteps = gossip.Param{Field: "Settings.MaxSteps", Meaning: "most attempted steps of the integrator", Range: "≥ 0 (0: 10^6)",
		Default: "10^6", Lo: gossip.AtLeast(0)}
)

// DefaultMaxSteps is the default of Settings.MaxSteps.
const DefaultMaxSteps = 1_000_000

// Validate checks the fields of s that have a range (RTol, ATol,
// MaxSteps, and that the steps are finite); a problem is a *FieldError
// of package ode naming Settings.Field. The zero value is valid.
func (s Settings) Validate() error {
	if s.RTol != 0 {
		if err := RTol.Check("ode", "", s.RTol); err != nil {
			return err
		}
	}
	if err := ATol.Check("ode", "", s.ATol); err != nil {
		return err
	}
	if err := MaxSteps.CheckInt("ode", "", s.MaxSteps); err != nil {
		return err
	}
	for _, h := range []struct {
		name string
		v    float64
	}{{"MaxStep", s.MaxStep}, {"FixedStep", s.FixedStep}, {"InitialStep", s.InitialStep}} {
		if math.IsNaN(h.v) || math.IsInf(h.v, 0) {
			return &gossip.FieldError{Pkg: "ode", Field: "Settings." + h.name, Msg: fmt.Sprintf("= %g: need a finite step", h.v)}
		}
	}
	return nil
}

// StepLimit is the step limit s.MaxSteps sets: DefaultMaxSteps for 0.
// (A negative MaxSteps is refused by Validate.)
func (s Settings) StepLimit() int {
	if s.MaxSteps == 0 {
		return DefaultMaxSteps
	}
	return s.MaxSteps
}
