package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gossipkit/gossipkit/internal/atomicfile"
	"github.com/gossipkit/gossipkit/plots"
)

// sectionFile is the file of section number i beside REPORT.md.
func sectionFile(i int) string { return fmt.Sprintf("section-%02d.md", i) }

// verdictTable lists the verdicts with the sections that show them.
func verdictTable(results []Renderer) *plots.Table {
	t := &plots.Table{Keys: []string{"claim", "verdict", "rule", "measured", "section", "short"}}
	for i, r := range results {
		if j, ok := r.(Judge); ok {
			for _, v := range j.Verdicts() {
				t.Rows = append(t.Rows, []any{v.Claim, v.Verdict, v.Rule, v.Measured, i + 1, v.Phrase()})
			}
		}
	}
	return t
}

// verdicts writes the verdicts: verdicts.csv with every column, the rule
// and the full measurement included; verdicts.md with claim, verdict, the
// full measurement and section; rules.md with each distinct rule once and
// the claims it judges; and into the report the claims table (claim,
// verdict, the short measured phrase, a link to the section's file).
func (d *Doc) verdicts(t *plots.Table) error {
	csvT := &plots.Table{Keys: t.Keys[:5]}
	full := &plots.Table{Keys: []string{"claim", "verdict", "measured", "section"}}
	glance := &plots.Table{Keys: []string{"claim", "verdict", "measured", "section"}}
	var rules []string
	judged := map[string][]string{}
	for _, row := range t.Rows {
		csvT.Rows = append(csvT.Rows, row[:5])
		full.Rows = append(full.Rows, []any{row[0], row[1], row[3], row[4]})
		glance.Rows = append(glance.Rows, []any{row[0], row[1], row[5], fmt.Sprintf("[%d](%s)", row[4], sectionFile(row[4].(int)))})
		rule := row[2].(string)
		if _, seen := judged[rule]; !seen {
			rules = append(rules, rule)
		}
		judged[rule] = append(judged[rule], fmt.Sprintf("%v (section %v)", row[0], row[4]))
	}
	if err := atomicfile.Write(d.path("verdicts.csv"), func(w io.Writer) error { return csvT.Write(w, "csv") }); err != nil {
		return err
	}
	md := glanceMarkdown(full)
	if err := atomicfile.WriteBytes(d.path("verdicts.md"), md.Bytes()); err != nil {
		return err
	}
	var r bytes.Buffer
	r.WriteString("# The rules of the verdicts\n\nEach rule once, with the claims it judges ([REPORT.md](REPORT.md) has the verdicts).\n\n")
	for i, rule := range rules {
		fmt.Fprintf(&r, "%d. %s. *Judges:* %s.\n", i+1, rule, strings.Join(judged[rule], "; "))
	}
	if err := atomicfile.WriteBytes(d.path("rules.md"), wrapProse(r.Bytes())); err != nil {
		return err
	}
	d.printf("\n%s\n(The full measurements: `verdicts.md`; each rule once with the claims it judges: `rules.md`; both: `verdicts.csv`.)\n", glanceMarkdown(glance).String())
	return nil
}

// glanceMarkdown writes t as a Markdown table without padding: a cell is
// as wide as its text, so that no column is widened to its longest cell
// (the table reads at a glance however it is rendered), and a "|" in a
// cell (|E − S|) is escaped so that it does not split the cell.
func glanceMarkdown(t *plots.Table) *bytes.Buffer {
	var b bytes.Buffer
	cell := func(v any) string { return strings.ReplaceAll(plots.Cell(v), "|", "\\|") }
	b.WriteString("| " + strings.Join(t.Keys, " | ") + " |\n|")
	for range t.Keys {
		b.WriteString(":---|")
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		var cs []string
		for _, v := range row {
			cs = append(cs, cell(v))
		}
		b.WriteString("| " + strings.Join(cs, " | ") + " |\n")
	}
	return &b
}

// wrapWidth is the width prose is wrapped to in the report's Markdown
// files; Markdown joins the lines of a paragraph again.
const wrapWidth = 100

// wrapProse wraps the paragraphs of Markdown text at word boundaries to
// wrapWidth characters: headings, table rows, indented and fenced code,
// images and blank lines are left as they are (a heading or a table row is
// one line by Markdown's rules), so the rendering is unchanged.
func wrapProse(md []byte) []byte {
	var out bytes.Buffer
	fenced := false
	lines := strings.Split(string(md), "\n")
	for i, line := range lines {
		if i > 0 {
			out.WriteByte('\n')
		}
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "```") {
			fenced = !fenced
		}
		if fenced || strings.HasPrefix(trim, "```") || utf8.RuneCountInString(line) <= wrapWidth || strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") ||
			strings.HasPrefix(trim, "#") || strings.HasPrefix(trim, "|") || strings.HasPrefix(trim, "![") {
			out.WriteString(line)
			continue
		}
		width := 0
		for j, w := range strings.Fields(line) {
			n := utf8.RuneCountInString(w)
			switch {
			case j == 0:
			case width+1+n > wrapWidth && !listMarker(w):
				out.WriteByte('\n')
				width = 0
			default:
				out.WriteByte(' ')
				width++
			}
			out.WriteString(w)
			width += n
		}
	}
	return out.Bytes()
}

// listMarker reports whether a word would start a list or a heading if it
// began a line ("-", "*", "+", "1.", "#"), so that wrapping never puts it
// there.
func listMarker(w string) bool {
	switch w {
	case "-", "*", "+", ">", "=", "#":
		return true
	}
	if strings.HasSuffix(w, ".") || strings.HasSuffix(w, ")") {
		digits := strings.TrimRight(w[:len(w)-1], "0123456789")
		return digits == "" && len(w) > 1
	}
	return false
}
