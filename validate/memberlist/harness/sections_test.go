package harness

import "testing"

// TestSplice: a section replaces the one of its heading, in the middle or
// at the end of the document, and is appended when the document has no
// such heading (expected documents written by hand).
func TestSplice(t *testing.T) {
	doc := "# T\n\nintro\n\n## A\n\nold a\n\n## B\n\nold b\n"
	for _, tc := range []struct{ name, section, want string }{
		{"middle", "## A\n\nnew a\n", "# T\n\nintro\n\n## A\n\nnew a\n\n## B\n\nold b\n"},
		{"end", "## B\n\nnew b\nmore\n", "# T\n\nintro\n\n## A\n\nold a\n\n## B\n\nnew b\nmore\n"},
		{"append", "## C\n\nc", "# T\n\nintro\n\n## A\n\nold a\n\n## B\n\nold b\n\n## C\n\nc\n"},
		{"prefix of a heading", "## Al\n\nal\n", "# T\n\nintro\n\n## A\n\nold a\n\n## B\n\nold b\n\n## Al\n\nal\n"},
	} {
		if got := Splice(doc, tc.section); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
