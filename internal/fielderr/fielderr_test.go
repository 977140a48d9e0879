package fielderr_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gossipkit/gossipkit/internal/fielderr"
)

func TestWithin(t *testing.T) {
	inner := fielderr.New("gossip", "Shuffle.Exchange", "= 9: need Exchange ≤ Cache = 4")
	for _, tc := range []struct {
		err       error
		wantField string // "" : not a field error
		wantText  string
	}{
		{fielderr.Within("sim", "Config", inner), "Config.Shuffle.Exchange", "sim: Config.Shuffle.Exchange = 9: need Exchange ≤ Cache = 4"},
		{fielderr.Within("sim", "Config", fmt.Errorf("wrapped: %w", inner)), "Config.Shuffle.Exchange", "sim: Config.Shuffle.Exchange = 9: need Exchange ≤ Cache = 4"},
		{fielderr.Within("sim", "Config", errors.New("plain")), "", "sim: plain"},
	} {
		t.Run(tc.wantText, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.wantText {
				t.Errorf("Error() = %q, want %q", got, tc.wantText)
			}
			var fe *fielderr.Error
			if ok := errors.As(tc.err, &fe); ok != (tc.wantField != "") || (ok && fe.Field != tc.wantField) {
				t.Errorf("errors.As = %v %+v, want field %q", ok, fe, tc.wantField)
			}
		})
	}
}

func ExampleNew() {
	err := fielderr.New("tree", "Config.Degree", "%d: valid range 1..65536", 0)
	var fe *fielderr.Error
	fmt.Println(err)
	fmt.Println(errors.As(err, &fe), fe.Pkg, fe.Field, fe.Msg)
	// Output:
	// tree: Config.Degree 0: valid range 1..65536
	// true tree Config.Degree 0: valid range 1..65536
}

// Within with no parent changes the reporting package and keeps the path.
func TestWithinNoParent(t *testing.T) {
	err := fielderr.Within("approx", "", fielderr.New("exact", "Shuffle.Exchange", "= 9: too large"))
	if err.Error() != "approx: Shuffle.Exchange = 9: too large" {
		t.Errorf("got %q", err)
	}
	err = fielderr.Within("chain", "Config", err)
	if err.Error() != "chain: Config.Shuffle.Exchange = 9: too large" {
		t.Errorf("got %q", err)
	}
}

// TestNilErrors: a nil *Error (and shard's *MergeError, sim's
// *InvariantError: the same guard) prints a message, not a panic.
func TestNilErrors(t *testing.T) {
	var e *fielderr.Error
	if e.Error() == "" {
		t.Error("nil *Error: empty message")
	}
}
