package ode

import (
	"errors"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestSettingsValidate: each field out of the range its parameter states
// (RTol, ATol, MaxSteps) is a field error naming it, the zero value and
// the values at the ends of the ranges are valid, and DormandPrince
// refuses what Validate refuses.
func TestSettingsValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		set   Settings
		field string // "" for valid
	}{
		{"zero value", Settings{}, ""},
		{"smallest rtol", Settings{RTol: 1e-14}, ""},
		{"rtol below 1e-14", Settings{RTol: 1e-15}, "Settings.RTol"},
		{"rtol 1", Settings{RTol: 1}, "Settings.RTol"},
		{"rtol negative", Settings{RTol: -1}, "Settings.RTol"},
		{"atol 1", Settings{ATol: 1}, ""},
		{"atol above 1", Settings{ATol: 1.5}, "Settings.ATol"},
		{"atol NaN", Settings{ATol: math.NaN()}, "Settings.ATol"},
		{"negative MaxSteps", Settings{MaxSteps: -1}, "Settings.MaxSteps"},
		{"infinite MaxStep", Settings{MaxStep: math.Inf(1)}, "Settings.MaxStep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.set.Validate()
			var fe *gossip.FieldError
			switch {
			case tc.field == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field || fe.Pkg != "ode"):
				t.Errorf("Validate() = %v, want an ode field error on %s", err, tc.field)
			}
			_, derr := DormandPrince(func(_ float64, y, dy []float64) { dy[0] = -y[0] }, 0, []float64{1}, 1, tc.set)
			if (derr != nil) != (err != nil) {
				t.Errorf("DormandPrince: %v, Validate: %v", derr, err)
			}
		})
	}
	if got := (Settings{}).StepLimit(); got != DefaultMaxSteps {
		t.Errorf("StepLimit of 0 = %d, want %d", got, DefaultMaxSteps)
	}
}
