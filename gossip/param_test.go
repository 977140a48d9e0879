package gossip_test

import (
	"errors"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestParamUsage: the help line is written from the parameter's parts, in
// the forms the command line shows (expected strings written by hand).
func TestParamUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		p    gossip.Param
		want string
	}{
		{"symbol and range", gossip.Items, "number of distinct items n (≥ c)"},
		{"unit", gossip.Param{Meaning: "last output time", Unit: "rounds", Range: "> 0"}, "last output time, in rounds (> 0)"},
		{"interval", gossip.Param{Meaning: "absolute tolerance", Range: "[0, 1]"}, "absolute tolerance, in [0, 1]"},
		{"symbol and interval", gossip.Param{Meaning: "coverage level", Symbol: "L", Range: "(0, 1]"}, "coverage level L, in (0, 1]"},
		{"meaning only", gossip.Param{Meaning: "seed"}, "seed"},
		{"symbol after the head", gossip.Param{Meaning: "fanout, the peers: each round", Symbol: "k", Range: "≥ 1"}, "fanout k, the peers: each round (≥ 1)"},
		{"symbol before a colon", gossip.Param{Meaning: "fraction failed: the rest, live", Symbol: "φ", Range: "[0, 1)"}, "fraction failed φ: the rest, live, in [0, 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.Usage(); got != tc.want {
				t.Errorf("Usage() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestParamCheck: In and Check against bounds written out by hand, at
// and around each end, open and closed, and the non-finite values.
func TestParamCheck(t *testing.T) {
	t.Parallel()
	closedOpen := gossip.Param{Field: "Loss", Range: "[0, 1)", Lo: gossip.AtLeast(0), Hi: gossip.Below(1)}
	openClosed := gossip.Param{Field: "Level", Range: "(0, 1]", Lo: gossip.Above(0), Hi: gossip.AtMost(1)}
	lower := gossip.Param{Field: "TMax", Range: "> 0", Lo: gossip.Above(0)}
	for _, tc := range []struct {
		name string
		p    gossip.Param
		v    float64
		in   bool
	}{
		{"[0,1) at 0", closedOpen, 0, true},
		{"[0,1) below 0", closedOpen, -1e-300, false},
		{"[0,1) at 1", closedOpen, 1, false},
		{"[0,1) just below 1", closedOpen, math.Nextafter(1, 0), true},
		{"(0,1] at 0", openClosed, 0, false},
		{"(0,1] at 1", openClosed, 1, true},
		{"(0,1] above 1", openClosed, math.Nextafter(1, 2), false},
		{"> 0 huge", lower, math.MaxFloat64, true},
		{"> 0 +Inf", lower, math.Inf(1), false},
		{"> 0 NaN", lower, math.NaN(), false},
		{"[0,1) NaN", closedOpen, math.NaN(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.In(tc.v); got != tc.in {
				t.Errorf("In(%g) = %v, want %v", tc.v, got, tc.in)
			}
			err := tc.p.Check("pkg", "Config", tc.v)
			var fe *gossip.FieldError
			switch {
			case tc.in && err != nil:
				t.Errorf("Check(%g) = %v, want nil", tc.v, err)
			case !tc.in && (!errors.As(err, &fe) || fe.Pkg != "pkg" || fe.Field != "Config."+tc.p.Field):
				t.Errorf("Check(%g) = %v, want a field error of pkg on Config.%s", tc.v, err, tc.p.Field)
			}
		})
	}
	if err := closedOpen.Check("chain", "Config", 1); err == nil || err.Error() != "chain: Config.Loss = 1: valid range [0, 1)" {
		t.Errorf("Check(1) = %v", err)
	}
	seeds := gossip.Param{Field: "Seeds", Range: "1..10^6", Lo: gossip.AtLeast(1), Hi: gossip.AtMost(1e6)}
	if err := seeds.CheckInt("tree", "Experiment", 0); err == nil || err.Error() != "tree: Experiment.Seeds = 0: valid range 1..10^6" {
		t.Errorf("CheckInt(0) = %v", err)
	}
	if !gossip.ValidLoss(0) || gossip.ValidLoss(1) || gossip.ValidLoss(math.NaN()) {
		t.Error("ValidLoss disagrees with 0 ≤ ε < 1")
	}
}
