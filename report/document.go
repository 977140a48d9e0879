package report

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gossipkit/gossipkit/internal/atomicfile"
	"github.com/gossipkit/gossipkit/plots"
)

// Doc collects a report's Markdown and writes its tables and figures into
// a folder.
type Doc struct {
	dir string
	buf bytes.Buffer
	// figs are the figures written, in order (REPORT.md lists a
	// section's beside its claims).
	figs []string
}

// NewDoc returns a Doc writing its files into dir.
func NewDoc(dir string) *Doc { return &Doc{dir: dir} }

// Markdown returns the text so far.
func (d *Doc) Markdown() []byte {
	if d == nil {
		return nil
	}
	return d.buf.Bytes()
}

func (d *Doc) printf(format string, a ...any) { fmt.Fprintf(&d.buf, format, a...) }

func (d *Doc) path(name string) string { return filepath.Join(d.dir, name) }

func (d *Doc) heading(number int, title string) { d.printf("\n## %d. %s\n\n", number, title) }

// table writes name.csv and name.md and embeds the Markdown in the report.
func (d *Doc) table(name string, t *plots.Table) error {
	if err := atomicfile.Write(d.path(name+".csv"), func(w io.Writer) error { return t.Write(w, "csv") }); err != nil {
		return err
	}
	var md bytes.Buffer
	if err := t.Write(&md, "markdown"); err != nil {
		return err
	}
	if err := atomicfile.WriteBytes(d.path(name+".md"), md.Bytes()); err != nil {
		return err
	}
	d.printf("\n%s\n(`%s.csv`, `%s.md`)\n", md.String(), name, name)
	return nil
}

// inlineTable embeds t's Markdown in the report without writing files.
func (d *Doc) inlineTable(t *plots.Table) error {
	var md bytes.Buffer
	if err := t.Write(&md, "markdown"); err != nil {
		return err
	}
	d.printf("\n%s", md.String())
	return nil
}

// figure writes name.png and name.svg (one panel, or several in a grid) and
// shows it in the report.
func (d *Doc) figure(name string, specs ...*plots.Spec) error {
	if err := saveFigure(d.path(name), specs...); err != nil {
		return err
	}
	d.figs = append(d.figs, name)
	d.printf("\n![%s](%s.png)\n\n(`%s.png`, `%s.svg`)\n", name, name, name, name)
	return nil
}

// claimFigure writes the claim a figure checks, the figure, and the
// heading of what was measured.
func (d *Doc) claimFigure(claim, name string, specs ...*plots.Spec) error {
	d.printf("%s", claim)
	if err := d.figure(name, specs...); err != nil {
		return err
	}
	d.printf("**Measured:**\n\n")
	return nil
}

// saveFigure writes one figure (its panels in a grid with one legend),
// after plots.CheckLegend: a figure whose legend leaves a mark unexplained
// is an error, not a file.
func saveFigure(base string, specs ...*plots.Spec) error {
	if err := plots.CheckLegend(specs...); err != nil {
		return fmt.Errorf("report: figure %s: %w", filepath.Base(base), err)
	}
	var err error
	if len(specs) == 1 {
		_, err = specs[0].Save(base)
	} else {
		_, err = plots.SaveGrid(base, specs...)
	}
	return err
}
