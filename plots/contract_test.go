package plots

import (
	"bytes"
	"math"
	"path/filepath"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: a nil or empty Spec,
// Table or Design, an unknown format, a nil writer or a path that cannot
// be written are refused with an error, never a panic.
func TestContract(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "fig")
	var w bytes.Buffer
	nan := math.NaN()
	tab := &Table{Keys: []string{"a"}, Rows: [][]any{{1}}}
	calls := []probe.Refusal{
		{Name: "nil Spec.Build", Call: func() error { _, err := (*Spec)(nil).Build(); return err }},
		{Name: "nil Spec.Save", Call: func() error { _, err := (*Spec)(nil).Save(base); return err }},
		{Name: "Spec.Save/no folder", Call: func() error {
			_, err := (&Spec{Series: []Series{{}}}).Save(filepath.Join(dir, "none", "fig"))
			return err
		}},
		{Name: "SaveGrid/no specs", Call: func() error { _, err := SaveGrid(base); return err }},
		{Name: "SaveGrid/nil spec", Call: func() error { _, err := SaveGrid(base, nil); return err }},
		{Name: "Spec.Build/YMin NaN", Call: func() error { _, err := (&Spec{YMin: &nan}).Build(); return err }},
		{Name: "nil Table.Write", Call: func() error { return (*Table)(nil).Write(&w, "text") }},
		{Name: "Table.Write/format", Call: func() error { return tab.Write(&w, "yaml") }},
		{Name: "Table.Write/nil writer", Call: func() error { return tab.Write(nil, "text") }},
		{Name: "nil Design.Write", Call: func() error { return (*Design)(nil).Write(&w, "text") }},
		{Name: "Design.Write/no table", Call: func() error { return (&Design{}).Write(&w, "json") }},
	}
	probe.Refuses(t, 0, calls...)
}
