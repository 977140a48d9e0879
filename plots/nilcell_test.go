package plots

import (
	"bytes"
	"math/big"
	"strings"
	"testing"
)

// TestNilPointerCells: a nil *big.Rat or *big.Int cell is a value that does
// not exist, written as a nil cell is (empty in CSV, null in JSON, – in
// text), never a panic (it panicked in every format).
func TestNilPointerCells(t *testing.T) {
	for _, tc := range []struct{ format, want string }{
		{"csv", "a,b\n,\n"},
		{"json", `null`},
		{"text", "–"},
		{"markdown", "–"},
	} {
		var b bytes.Buffer
		tab := &Table{Keys: []string{"a", "b"}, Rows: [][]any{{(*big.Rat)(nil), (*big.Int)(nil)}}}
		if err := tab.Write(&b, tc.format); err != nil {
			t.Errorf("%s: %v", tc.format, err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s: %q, want it to contain %q", tc.format, b.String(), tc.want)
		}
	}
}
