package cli

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract for the functions taking
// a context: a nil one is an error, never a panic; a run that cannot end
// before the deadline is refused at once, whatever the workers.
func TestContract(t *testing.T) {
	var nilCtx context.Context
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	calls := []probe.Refusal{{Name: "CheckTime(nil ctx)", Want: "nil context", Call: func() error { return CheckTime(nilCtx, 1, 1, "x", "y") }}}
	for _, w := range []int{0, -1, math.MaxInt} {
		calls = append(calls, probe.Refusal{Name: "CheckTime/huge cpu", Want: "lower y", Call: func() error { return CheckTime(ctx, math.Inf(1), w, "x", "y") }})
	}
	probe.Refuses(t, 0, calls...)
}
