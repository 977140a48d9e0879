package tree

import "testing"

// TestNilSim: the methods of a nil *Sim that report return an error or
// false instead of panicking.
func TestNilSim(t *testing.T) {
	var s *Sim
	if err := s.Check(); err == nil {
		t.Error("nil Sim: Check passed")
	}
	if s.AllConnected() {
		t.Error("nil Sim: AllConnected")
	}
	// The zero Sim (not made by Build): an error, not an index panic
	// (issue 42's probe).
	if err := new(Sim).Check(); err == nil {
		t.Error("zero Sim: Check passed")
	}
	if new(Sim).AllConnected() != true {
		t.Error("zero Sim: AllConnected (no node) should hold")
	}
}
