package sim

import (
	"errors"
	"testing"
)

// TestInvariantAsError: a Check-mode panic with an *InvariantError becomes
// the error "sim: WHAT I: invariant broken: …" wrapping it (the message
// written out by hand); any other panic goes on.
func TestInvariantAsError(t *testing.T) {
	run := func(p any) (err error) {
		defer invariantAsError(&err, "warm state", 3)
		panic(p)
	}
	ie := &InvariantError{Msg: "item 7 twice in node 2"}
	err := run(ie)
	if err == nil || err.Error() != "sim: warm state 3: invariant broken: item 7 twice in node 2" || !errors.Is(err, ie) {
		t.Errorf("got %v", err)
	}
	defer func() {
		if p := recover(); p != "other" {
			t.Errorf("another panic became %v", p)
		}
	}()
	_ = run("other")
	t.Error("another panic was swallowed")
}
