package tables

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestWriteTransitions: the text line carries P_select = s/c = 2/4 and
// P_drop; other formats are the table alone (4 states + header in CSV).
func TestWriteTransitions(t *testing.T) {
	sh := gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}
	tr, err := approx.TransitionsFor(approx.Simplified, sh)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteTransitions(&b, approx.Simplified, sh, tr, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "P(to | from) for n=7 c=4 s=2: P_select = 0.5, P_drop (") {
		t.Errorf("text: %s", b.String())
	}
	b.Reset()
	if err := WriteTransitions(&b, approx.Simplified, sh, tr, "csv"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != 5 || !strings.HasPrefix(b.String(), "from,to_00") {
		t.Errorf("csv (%d lines): %s", n, b.String())
	}
	var set probe.Settings
	probe.Func(t, "WriteTransitions", WriteTransitions, set, &b, approx.Simplified, sh, tr, "text")
}
