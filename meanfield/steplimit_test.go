package meanfield

import (
	"errors"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/ode"
)

// TestStepLimit checks the one rule for Settings.MaxSteps, in stepLimit
// and through Solve and RefineGrid: a negative value is a field error on
// Settings.MaxSteps, 0 means MaxSolveSteps, a value above MaxSolveSteps
// is capped at it. (Before, checkPlateauSteps read −1 as the default
// while the integrator was handed −1 and failed at its first step.)
func TestStepLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		maxSteps int
		want     int // the limit; −1 for a field error
	}{
		{"negative", -1, -1},
		{"most negative", -1 << 62, -1},
		{"zero is the default", 0, MaxSolveSteps},
		{"small", 10, 10},
		{"above the cap", 1 << 40, MaxSolveSteps},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := stepLimit(ode.Settings{MaxSteps: tc.maxSteps})
			var fe *gossip.FieldError
			switch {
			case tc.want < 0 && (!errors.As(err, &fe) || fe.Field != "Settings.MaxSteps" || fe.Pkg != "meanfield"):
				t.Errorf("stepLimit(%d) = %d, %v; want a meanfield field error on Settings.MaxSteps", tc.maxSteps, got, err)
			case tc.want >= 0 && (err != nil || got != tc.want):
				t.Errorf("stepLimit(%d) = %d, %v; want %d", tc.maxSteps, got, err, tc.want)
			}
		})
	}
	m, err := approx.NewModel(approx.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Initial: 1})
	if err != nil {
		t.Fatal(err)
	}
	set := ode.Settings{MaxSteps: -1}
	var fe *gossip.FieldError
	if _, err := Solve(m, 10, 1, set); !errors.As(err, &fe) || fe.Field != "Settings.MaxSteps" {
		t.Errorf("Solve with MaxSteps = -1: %v, want a field error on Settings.MaxSteps", err)
	}
	if _, err := RefineGrid(t.Context(), m, 10, 1, gossip.Continuous, set); !errors.As(err, &fe) || fe.Field != "Settings.MaxSteps" {
		t.Errorf("RefineGrid with MaxSteps = -1: %v, want a field error on Settings.MaxSteps", err)
	}
	// 10 steps cannot reach t = 300 on the plateau (300·k/3.3 ≫ 10): the
	// limit is the one checkPlateauSteps uses.
	if _, err := Solve(m, 300, 1, ode.Settings{MaxSteps: 10}); !errors.Is(err, gossip.ErrTooLarge) {
		t.Errorf("Solve with MaxSteps = 10 to t = 300: %v, want ErrTooLarge", err)
	}
}
