package report

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValues calls the package's exported functions of plain
// arguments with the nastiest values of their parameters' types, one at a
// time (package internal/probe): none may panic. The table writers are
// report/tables' TestNastyValues.
func TestNastyValues(t *testing.T) {
	var set probe.Settings
	probe.Func(t, "PartFiles", PartFiles, set, t.TempDir())
	probe.Func(t, "Fig4Specs", Fig4Specs, set, nil)
}

// TestSectionsRefuseNoStudy: every section of a nil Study, and every
// section that runs the paper's experiment with the zero Scale (no n, no
// nodes), returns an error instead of panicking (they indexed Ns[0]).
func TestSectionsRefuseNoStudy(t *testing.T) {
	ctx := context.Background()
	sections := map[string]func(*Study) error{
		"DropProbability": func(s *Study) error { _, err := s.DropProbability(ctx); return err },
		"Transitions":     func(s *Study) error { _, err := s.Transitions(ctx); return err },
		"Fig78":           func(s *Study) error { _, err := s.Fig78(ctx); return err },
		"ModelComparison": func(s *Study) error { _, err := s.ModelComparison(ctx); return err },
		"Optimal":         func(s *Study) error { _, err := s.Optimal(ctx); return err },
		"Refined":         func(s *Study) error { _, err := s.Refined(ctx); return err },
		"Tree":            func(s *Study) error { _, err := s.Tree(ctx); return err },
		"GossipVsTree":    func(s *Study) error { _, err := s.GossipVsTree(ctx); return err },
		"DesignAnswers":   func(s *Study) error { _, err := s.DesignAnswers(ctx); return err },
		"Deployed":        func(s *Study) error { _, err := s.Deployed(ctx); return err },
		"Network":         func(s *Study) error { _, err := s.Network(ctx); return err },
		"Fig4Curves":      func(s *Study) error { _, err := s.Fig4Curves(ctx); return err },
	}
	experiment := map[string]bool{"Transitions": true, "Fig78": true, "ModelComparison": true, "Optimal": true, "Refined": true, "GossipVsTree": true, "DesignAnswers": true, "Network": true}
	for name, run := range sections {
		if err := run(nil); err == nil {
			t.Errorf("%s of a nil Study: no error", name)
		}
		if experiment[name] {
			if err := run(NewStudy(Scale{}, Options{})); err == nil {
				t.Errorf("%s with the zero Scale: no error", name)
			}
		}
	}
}
