package plots

import (
	"bytes"
	"math/big"
	"path/filepath"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValues calls every exported entry point of the package with the
// nastiest values of its parameters' types, one at a time (package
// internal/probe): none may panic or run on past its context.
func TestNastyValues(t *testing.T) {
	var set probe.Settings
	tab := &Table{Keys: []string{"a", "b"}, Rows: [][]any{{1, 2.5}, {big.NewRat(1, 3), nil}}}
	for _, f := range []string{"text", "json", "csv", "markdown"} {
		probe.Func(t, "Table.Write "+f, (*Table).Write, set, tab, &bytes.Buffer{}, f)
	}
	probe.Func(t, "Cell", Cell, set, 1.5)
	probe.Func(t, "TextCell", TextCell, set, big.NewRat(1, 3))
	probe.Func(t, "ShortFraction", ShortFraction, set, 0, big.NewRat(1, 3))
	probe.Func(t, "ValidFormat", ValidFormat, set, "json")
	spec := &Spec{Title: "t", XLabel: "x", YLabel: "y",
		Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{0.5, 0.7}}}}
	probe.Func(t, "Spec.Build", (*Spec).Build, set, spec)
	// Save and SaveGrid draw as Build does and then write files: their
	// own parameters are the path and the specs (each variant of a Spec's
	// fields is Build's, probed above; writing ~60 PNGs more would take
	// seconds for nothing).
	base := filepath.Join(t.TempDir(), "fig")
	save := func(s *Spec, base string) ([]string, error) { return s.Save(base) }
	probe.Func(t, "Spec.Save", save, set, (*Spec)(nil), base)
	probe.Func(t, "SaveGrid", SaveGrid, set, base, (*Spec)(nil))
}
