package report

import (
	"bytes"
	"math/big"
	"strings"
	"testing"
)

// The enumerated per-item probability has a numeric twin in CSV: 3/5 (the
// per-item enumeration at n = 7, c = 4, s = 2, which equals S = (7−4)/(7−2)
// by hand) is 0.6; an infeasible enumeration leaves both cells empty.
func TestPDropTableEnumeratedTwin(t *testing.T) {
	rows := []PDropRow{
		{N: 7, C: 4, S: 2, Formula1: 4.0 / 7, Simplified: 0.6, GammaMinusFormula1: new(big.Rat), Enumerated: big.NewRat(3, 5), Log10AbsDiff: -1.544},
		{N: 700, C: 4, S: 2, Formula1: 0.5, Simplified: 0.5, GammaMinusFormula1: new(big.Rat), Log10AbsDiff: -3},
	}
	var b bytes.Buffer
	if err := pdropTable(rows).Write(&b, "csv"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if !strings.Contains(lines[0], ",enumerated_per_item,enumerated_per_item_float,") {
		t.Fatalf("header %q", lines[0])
	}
	if !strings.Contains(lines[1], ",3/5,0.600000000000,") {
		t.Errorf("row %q: want 3/5 and its twin 0.600000000000", lines[1])
	}
	if !strings.Contains(lines[2], ",,,") {
		t.Errorf("row %q: want two empty cells for an infeasible enumeration", lines[2])
	}
}
