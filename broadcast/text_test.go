package broadcast

import (
	"strings"
	"testing"
)

// TestChoiceReachNearOne: the choice line shows P(reach) near 1 by its
// distance from 1 (prob), so 1 − 10⁻¹⁰ is not printed as "1" (%.4g did).
func TestChoiceReachNearOne(t *testing.T) {
	d := &Design{
		Config:   Config{Nodes: 3000, Protocol: Push, Fanout: 3, Budget: 16, Level: 1},
		Rows:     []Answer{{Fanout: 3, Budget: 16, TConfidence: 12, Mean: 9.5, PReach: 1 - 1e-10, Messages: 16}},
		Best:     0,
		Cheapest: 0,
	}
	c := d.Choice()
	if !strings.Contains(c, "P(reach) 1 − 1e-10") {
		t.Errorf("choice line %q: want P(reach) 1 − 1e-10", c)
	}
	d.Rows[0].PReach = 0.5
	if c := d.Choice(); !strings.Contains(c, "P(reach) 0.5,") {
		t.Errorf("choice line %q: want P(reach) 0.5", c)
	}
}
