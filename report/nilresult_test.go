package report

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestNilResults: every exported method of a result type (Render,
// Verdicts), of a nil *Study, *Doc, *Merged and *PartError, called with a
// nil receiver, a nil Doc or on a zero-value result, returns an error (or
// nothing) and never panics (issue 42: 38 such calls panicked across the
// packages). A nil receiver's Render must be an error.
func TestNilResults(t *testing.T) {
	ctx := context.Background()
	try := func(name string, f func() error) {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: panic %v", name, r)
			}
		}()
		if err := f(); err != nil && strings.Contains(err.Error(), "no error") {
			t.Errorf("%s: %v", name, err)
		}
	}
	var s *Study
	var doc *Doc
	d := NewDoc(t.TempDir())
	try("Study.Deployed", func() error { _, err := s.Deployed(ctx); return err })
	try("Study.DesignAnswers", func() error { _, err := s.DesignAnswers(ctx); return err })
	try("Study.Fig4Curves", func() error { _, err := s.Fig4Curves(ctx); return err })
	try("Study.DropProbability", func() error { _, err := s.DropProbability(ctx); return err })
	try("Study.Transitions", func() error { _, err := s.Transitions(ctx); return err })
	try("Study.Fig78", func() error { _, err := s.Fig78(ctx); return err })
	try("Study.ModelComparison", func() error { _, err := s.ModelComparison(ctx); return err })
	try("Study.Optimal", func() error { _, err := s.Optimal(ctx); return err })
	try("Study.Network", func() error { _, err := s.Network(ctx); return err })
	try("Study.Refined", func() error { _, err := s.Refined(ctx); return err })
	try("Study.Tree", func() error { _, err := s.Tree(ctx); return err })
	try("Study.GossipVsTree", func() error { _, err := s.GossipVsTree(ctx); return err })
	for _, r := range []interface {
		Render(*Doc) error
	}{(*Deployed)(nil), (*DesignAnswers)(nil), (*DropProbability)(nil), (*Transitions)(nil), (*ModelComparison)(nil), (*Optimal)(nil), (*Network)(nil), (*Refined)(nil), (*Tree)(nil), (*GossipVsTree)(nil),
		&Deployed{}, &DesignAnswers{}, &DropProbability{}, &Transitions{}, &ModelComparison{}, &Optimal{}, &Network{}, &Refined{}, &Tree{}, &GossipVsTree{}} {
		try(fmt.Sprintf("%T.Render(nil)", r), func() error {
			if err := r.Render(doc); err == nil {
				return fmt.Errorf("Render with a nil Doc: no error")
			}
			return nil
		})
		try(fmt.Sprintf("%T.Render(doc)", r), func() error { return r.Render(d) })
		if v, ok := r.(interface{ Verdicts() []Verdict }); ok {
			try(fmt.Sprintf("%T.Verdicts", r), func() error { v.Verdicts(); return nil })
		}
	}
	try("Doc.Markdown", func() error { doc.Markdown(); return nil })
	var m *Merged
	try("Merged.Write", func() error { return m.Write(io.Discard, "text") })
	try("Merged.MissingText", func() error { m.MissingText(); return nil })
	try("Merged{}.Write", func() error { return (&Merged{}).Write(io.Discard, "text") })
	var pe *PartError
	try("PartError.Error", func() error { _ = pe.Error(); return nil })
}
