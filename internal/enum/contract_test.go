package enum

import (
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: an unknown name is
// refused with an error naming what is parsed and the valid names.
func TestContract(t *testing.T) {
	names := []string{"push", "pull"}
	var calls []probe.Refusal
	for _, s := range []string{"", "\x00", "PUSH ", "other"} {
		calls = append(calls, probe.Refusal{Name: "Parse " + s, Want: "push", Call: func() error { _, err := Parse[int](names, "protocol", s); return err }})
	}
	calls = append(calls, probe.Refusal{Name: "Parse with no names", Call: func() error { _, err := Parse[int](nil, "protocol", "push"); return err }})
	probe.Refuses(t, 0, calls...)
}
