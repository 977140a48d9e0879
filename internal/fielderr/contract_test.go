package fielderr

import "testing"

// TestContract: Within of a nil error is nil (it was "pkg: %!w(<nil>)"), a
// nil *Error prints without a panic, New names its field.
func TestContract(t *testing.T) {
	if err := Within("sim", "Config", nil); err != nil {
		t.Errorf("Within(nil) = %v, want nil", err)
	}
	if s := (*Error)(nil).Error(); s != "field error (nil)" {
		t.Errorf("nil *Error prints %q", s)
	}
	if s := New("sim", "Config.Nodes", "= %d: need ≥ 2", 1).Error(); s != "sim: Config.Nodes = 1: need ≥ 2" {
		t.Errorf("New prints %q", s)
	}
}
