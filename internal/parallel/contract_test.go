package parallel

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: a nil context or worker
// factory is an error, never a panic; no work and bad worker counts are
// not.
func TestContract(t *testing.T) {
	nw := func() func(context.Context, int) error { return func(context.Context, int) error { return nil } }
	var nilCtx context.Context
	probe.Refuses(t, 0,
		probe.Refusal{Name: "For(nil ctx)", Want: "nil context", Call: func() error { return For(nilCtx, 3, 2, nw, nil) }},
		probe.Refusal{Name: "For(nil newWorker)", Want: "newWorker", Call: func() error { return For(context.Background(), 3, 2, nil, nil) }},
	)
	for _, c := range []struct{ n, workers int }{{0, 2}, {-1, 2}, {3, 0}, {3, -5}} {
		if err := For(context.Background(), c.n, c.workers, nw, nil); err != nil {
			t.Errorf("For(n %d, workers %d) = %v, want nil", c.n, c.workers, err)
		}
	}
}
