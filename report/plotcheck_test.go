package report

import (
	"errors"
	"testing"

	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestCheckFigure: each rule of CheckFigure refuses its case and names
// the field(s) it broke; the Quick scale passes for every figure.
func TestCheckFigure(t *testing.T) {
	quick := Quick() // the figure's lists, as plot's flags give them by default
	quick.Fig4C, quick.Fig4S, quick.Ns, quick.OptS = []int{250, 500}, []int{1, 2, 5, 10, 25}, []int{500, 1000, 2000}, []int{10, 20, 30}
	with := func(edit func(*Scale)) Scale { sc := quick; edit(&sc); return sc }
	for _, tc := range []struct {
		name, fig string
		sc        Scale
		field     string // "": no error
	}{
		{"quick fig4", "fig4", quick, ""},
		{"quick fig7", "fig7", quick, ""},
		{"quick optimal", "optimal", quick, ""},
		{"step 0", "fig4", with(func(s *Scale) { s.Fig4Step = 0 }), "Scale.Fig4NMax, Scale.Fig4Step"},
		{"too many points", "fig4", with(func(s *Scale) { s.Fig4NMax, s.Fig4Step = 1_000_000, 1 }), "Scale.Fig4NMax, Scale.Fig4Step"},
		{"s too large", "fig4", with(func(s *Scale) { s.Fig4S = []int{6000} }), "Scale.Fig4S"},
		{"c zero", "fig4", with(func(s *Scale) { s.Fig4C = []int{0} }), "Scale.Fig4C"},
		{"no curve: s > c", "fig4", with(func(s *Scale) { s.Fig4C, s.Fig4S, s.Fig4NMax = []int{250}, []int{300}, 400 }), "Scale.Fig4C, Scale.Fig4S, Scale.Fig4NMax, Scale.Fig4Step"},
		{"no curve: c + step > n-max", "fig4", with(func(s *Scale) { s.Fig4C, s.Fig4S, s.Fig4NMax, s.Fig4Step = []int{100}, []int{1}, 100, 1 }), "Scale.Fig4C, Scale.Fig4S, Scale.Fig4NMax, Scale.Fig4Step"},
		{"c ≥ n", "optimal", with(func(s *Scale) { s.Cache = s.Ns[0] }), "Scale.Cache, Scale.Ns"},
		{"no n", "optimal", with(func(s *Scale) { s.Ns = nil }), "Scale.Cache, Scale.Ns"},
		{"s ≥ c", "optimal", with(func(s *Scale) { s.OptS = []int{s.Cache} }), "Scale.OptS"},
		{"no s", "optimal", with(func(s *Scale) { s.OptS = nil }), "Scale.OptS"},
		{"chain too large", "optimal", with(func(s *Scale) { s.OptNodes = 5001 }), "Config.Nodes"},
		{"sim nodes", "fig8", with(func(s *Scale) { s.Nodes = 1 }), "Config.Nodes"},
		{"sim exchange", "fig7", with(func(s *Scale) { s.Exchange = s.Cache + 1 }), "Config.Shuffle.Exchange"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.sc.CheckFigure(tc.fig, 2)
			if tc.field == "" {
				if err != nil {
					t.Fatalf("unexpected %v", err)
				}
				return
			}
			var fe *fielderr.Error
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Errorf("got %v, want a field error on %s", err, tc.field)
			}
		})
	}
}

// TestNastyValuesCheckFigure: CheckFigure through internal/probe.
func TestNastyValuesCheckFigure(t *testing.T) {
	var set probe.Settings
	for _, fig := range Figures {
		probe.Func(t, "Scale.CheckFigure "+fig, Scale.CheckFigure, set, Quick(), fig, 2)
	}
}
