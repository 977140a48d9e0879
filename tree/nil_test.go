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
}
