package rng

import "testing"

// TestContract: the zero arguments the package doc names give 0 or do
// nothing, never a panic.
func TestContract(t *testing.T) {
	r := NewStream(0, 0)
	if v := r.Intn(0); v != 0 {
		t.Errorf("Intn(0) = %d, want 0", v)
	}
	if v := r.Bounded(12345, 0); v != 0 {
		t.Errorf("Bounded(u, 0) = %d, want 0", v)
	}
	r.Perm(nil)
	r.Fill(nil)
	r.Fill(make([]uint32, 1))
}
