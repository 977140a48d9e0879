package broadcast

import (
	"context"
	"math"
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

// TestUnderflowNotExact: push–pull at N 3000, fanout 3, deadline 30: a
// given node is still uninformed at round 30 with a chance far below the
// smallest float64 (each round's miss chance falls doubly exponentially),
// so every watched run's weight is 0. The answer may print 0, but not as
// exact: the relative error is unbounded and P(T_L > D) has a floor above
// 0 (it was "1 (exact)", rel err 0).
func TestUnderflowNotExact(t *testing.T) {
	cfg := Config{Nodes: 3000, Protocol: PushPull, Fanout: 3, Deadline: 30, Level: 1}
	a, err := Solve(context.Background(), cfg, Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a.PLate != 0 || a.ResidueDeadline != 0 {
		t.Skipf("P(T_L > 30) = %g, residue_deadline %g: the weights did not underflow", a.PLate, a.ResidueDeadline)
	}
	if a.PLateRelErr == 0 || !(a.PLateFloor > 0) {
		t.Errorf("P(T_L > 30) = 0 claimed exact (rel err %g, floor %g)", a.PLateRelErr, a.PLateFloor)
	}
	if a.ResidueDeadlineRelErr == 0 {
		t.Error("residue_deadline 0 claimed exact")
	}
	if c := deadlineCell(*a); strings.Contains(c, "exact") {
		t.Errorf("deadline cell %q", c)
	}
}

// TestExactZeroNotExact: the exact chain of push–pull at N 300, fanout 2,
// deadline 12 truncates the chance that a node is uninformed at round 12
// to 0 (it is positive: every round each of a node's pulls and the pushes
// to it miss with a positive chance). It printed residue_deadline "0
// (exact)" and p_deadline "1 − 3.33e-15 (rel err 7.1e+02)", the noise of
// 1 − Σ PMF; both now state the chain's bound: "0 (≤ b)" and "1 (≥ 1 −
// b)", b the mass the chain dropped by D (9.4e-22 here; the Bound, 2.4e-12,
// before residueDHi).
func TestExactZeroNotExact(t *testing.T) {
	cfg := Config{Nodes: 300, Protocol: PushPull, Fanout: 2, Deadline: 12, Level: 1}
	a, err := Solve(context.Background(), cfg, Settings{Method: Exact})
	if err != nil {
		t.Fatal(err)
	}
	if a.ResidueDeadline != 0 {
		t.Skipf("residue_deadline %g: the chain did not truncate it", a.ResidueDeadline)
	}
	if !math.IsInf(a.ResidueDeadlineRelErr, 1) {
		t.Errorf("residue_deadline 0 with rel err %g, want unbounded", a.ResidueDeadlineRelErr)
	}
	// The cell states the mass the chain dropped by D, which bounds the
	// chance a given node is uninformed; that chance is at most P(T₁ >
	// D), whose stated upper end (PLateFloor, the same chain's dropped
	// mass read off its curve) it may not exceed, nor the law's Bound.
	hi := a.residueDHi
	if !(hi > 0 && hi <= a.Accuracy.Bound && hi <= a.PLateFloor*(1+1e-9)) {
		t.Errorf("residue_deadline 0 within %g: want 0 < it ≤ Bound %g and ≤ P(T_L > D)'s upper end %g", hi, a.Accuracy.Bound, a.PLateFloor)
	}
	if c := residueDeadlineCell(*a); c != "0 (≤ "+g2(hi)+")" {
		t.Errorf("residue_deadline cell %q, want 0 (≤ %s)", c, g2(hi))
	}
	if c := deadlineCell(*a); !strings.HasPrefix(c, "1 (≥ 1 − ") {
		t.Errorf("deadline cell %q, want 1 (≥ 1 − …)", c)
	}
}
