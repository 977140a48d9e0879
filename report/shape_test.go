package report

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gossipkit/gossipkit/report/internal/claim"
)

// The shape of REPORT.md, which a person reads in five minutes (issue
// 39): at most maxReportBytes, opening (after its title and the scale) with
// the claims table, whose measured cells are at most claim.MaxShort characters
// and whose section cells link to the section's file beside it; then the
// operator table; no line longer than maxLine characters outside code
// blocks.
const (
	maxReportBytes = 40 << 10
	maxLine        = 400
)

// checkShape checks REPORT.md (report, in dir) against the shape above.
func checkShape(t *testing.T, dir string, report []byte) {
	t.Helper()
	if len(report) > maxReportBytes {
		t.Errorf("REPORT.md is %d bytes, more than %d", len(report), maxReportBytes)
	}
	text := string(report)
	claims := strings.Index(text, "\n## The claims\n")
	if claims < 0 || strings.Count(text[:claims], "\n## ") != 0 {
		t.Fatal("REPORT.md does not open with the claims (no heading before it but the title)")
	}
	if strings.Contains(text[:claims], "\n|") {
		t.Error("a table comes before the claims table")
	}
	if op := strings.Index(text, "\n## For an operator"); op < claims || op > strings.Index(text, "\n## The sections") {
		t.Error("the operator table does not follow the claims table")
	}
	lines := strings.Split(text[claims:], "\n")
	rows := 0
	header := false
	for _, line := range lines {
		if !strings.HasPrefix(line, "|") {
			if header {
				break // the end of the first table
			}
			continue
		}
		if !header {
			header = true
			if line != "| claim | verdict | measured | section |" {
				t.Fatalf("the first table's header is %q", line)
			}
			continue
		}
		if strings.HasPrefix(line, "|:") {
			continue
		}
		rows++
		cells := splitRow(line)
		if len(cells) != 4 {
			t.Errorf("claims row with %d cells: %q", len(cells), line)
			continue
		}
		if n := utf8.RuneCountInString(cells[2]); n > claim.MaxShort+10 { // escaped "|"s
			t.Errorf("measured cell of %d characters: %q", n, cells[2])
		}
		link := cells[3]
		i, j := strings.Index(link, "]("), strings.LastIndex(link, ")")
		if i < 0 || j < i {
			t.Errorf("section cell %q is not a link", link)
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, link[i+2:j])); err != nil {
			t.Errorf("section link %q: %v", link, err)
		}
	}
	if rows != 30 {
		t.Errorf("the claims table has %d rows, want 30 (verdicts.csv's)", rows)
	}
	fenced := false
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if n := utf8.RuneCountInString(line); !fenced && n > maxLine {
			t.Errorf("REPORT.md line %d has %d characters: %.80q…", i+1, n, line)
		}
	}
}

// splitRow splits a Markdown table row into its cells, keeping an escaped
// "\|" inside its cell.
func splitRow(line string) []string {
	line = strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteString("\\|")
			i++
		case strings.HasPrefix(line[i:], " | "):
			cells = append(cells, cur.String())
			cur.Reset()
			i += 2
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(cells, cur.String())
}

// TestTinyIsSmoke: the whole-report test's scale (tiny, TestRunTiny, which
// checks the shape) is the smoke scale under another name, so the shape is
// the smoke scale's.
func TestTinyIsSmoke(t *testing.T) {
	sc := tiny()
	sc.Name = "smoke"
	if !reflect.DeepEqual(sc, Smoke()) {
		t.Errorf("tiny() = %+v is not Smoke() = %+v", sc, Smoke())
	}
}

// TestShapeOfSmokeRun checks the shape test itself on a report written by
// `gossipkit reproduce --scale smoke` if GOSSIPKIT_SMOKE_DIR names one
// (skipped otherwise): TestRunTiny runs the same checks on its own run.
func TestShapeOfSmokeRun(t *testing.T) {
	dir := os.Getenv("GOSSIPKIT_SMOKE_DIR")
	if dir == "" {
		t.Skip("GOSSIPKIT_SMOKE_DIR not set")
	}
	b, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, dir, b)
}

// TestWrapProse: prose is wrapped at wrapWidth, tables, headings, code
// and images are not, and no line starts with a list marker it did not
// start with.
func TestWrapProse(t *testing.T) {
	long := strings.Repeat("alpha beta 1. gamma - delta ", 20)
	in := "# " + long + "\n\n" + long + "\n| " + long + " |\n```\n" + long + "\n```\n![x](x.png)\n"
	out := string(wrapProse([]byte(in)))
	lines := strings.Split(out, "\n")
	if lines[0] != "# "+long {
		t.Error("a heading was wrapped")
	}
	if !strings.Contains(out, "\n| "+long+" |\n```\n"+long+"\n```\n") {
		t.Error("a table row or code was wrapped")
	}
	if strings.Join(strings.Fields(out), " ") != strings.Join(strings.Fields(in), " ") {
		t.Error("wrapping changed the words")
	}
	for _, l := range lines[2:] {
		if l == long || strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "```") || strings.HasPrefix(l, "![") {
			continue // the code line, kept
		}
		if utf8.RuneCountInString(l) > wrapWidth {
			t.Errorf("line of %d characters", utf8.RuneCountInString(l))
		}
		if strings.HasPrefix(l, "1. ") || strings.HasPrefix(l, "- ") {
			t.Errorf("wrapped line starts with a list marker: %q", l)
		}
	}
}
