package broadcast

import (
	"context"
	"errors"
	"math"
	"testing"
)

// FuzzSimulate runs both engines on arbitrary small configurations: an
// invalid one must be refused with a *FieldError, never a panic; a valid
// one must give replications within their ranges (0 ≤ T, or T = −1 only
// for push with a budget; 0 ≤ missed < M, and missed = 0 without a
// budget on push alone; T = −1 exactly when the level is not met at the
// stop), and the same sample on 1 and 3 workers.
func FuzzSimulate(f *testing.F) {
	f.Add(2, 0, 1, 0.0, 0.0, 0, 1.0, uint64(1))
	f.Add(3, 0, 1, 0.3, 0.5, 1, 1.0, uint64(2))
	f.Add(40, 2, 20, 0.5, 0.1, 0, 0.9, uint64(3))
	f.Add(25, 0, 3, 0.2, 0.3, 7, 0.5, uint64(4))
	f.Add(10, 1, 9, 0.0, 0.0, 0, 1.0, uint64(5))
	f.Add(10, 0, 8, 0.0, 0.1, 3, 1e-9, uint64(6))
	f.Add(0, 7, -1, math.NaN(), math.Inf(1), -3, 2.0, uint64(7))
	f.Fuzz(func(t *testing.T, nodes, proto, fanout int, loss, failed float64, budget int, level float64, seed uint64) {
		nodes = nodes % 200 // keep a run small; negative sizes stay negative
		cfg := Config{Nodes: nodes, Protocol: Protocol(proto), Fanout: fanout, Loss: loss, Failed: failed, Budget: budget % 50, Level: level}
		for _, literal := range []bool{false, true} {
			s, err := Simulate(context.Background(), cfg, SimSettings{Reps: 4, Seed: seed, Workers: 1, Literal: literal})
			if cfg.Validate() != nil {
				var fe *FieldError
				if !errors.As(err, &fe) {
					t.Fatalf("%+v: %v, want a FieldError", cfg, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%+v: %v", cfg, err)
			}
			M, target := cfg.Live(), cfg.Target()
			budgeted := cfg.Protocol == Push && cfg.Budget > 0
			for _, r := range s.Reps {
				switch {
				case r.T < -1 || r.T == -1 && !budgeted:
					t.Fatalf("%+v: T = %d", cfg, r.T)
				case r.Missed < 0 || r.Missed >= M || r.Missed > 0 && !budgeted:
					t.Fatalf("%+v: missed %d of %d", cfg, r.Missed, M)
				case (r.T == -1) != (M-r.Missed < target):
					t.Fatalf("%+v: T = %d with %d of %d informed (level %d)", cfg, r.T, M-r.Missed, M, target)
				case r.Messages < 0:
					t.Fatalf("%+v: %d messages", cfg, r.Messages)
				}
			}
			s3, err := Simulate(context.Background(), cfg, SimSettings{Reps: 4, Seed: seed, Workers: 3, Literal: literal})
			if err != nil || len(s3.Reps) != len(s.Reps) {
				t.Fatalf("%+v: 3 workers: %v", cfg, err)
			}
			for i := range s.Reps {
				if s.Reps[i] != s3.Reps[i] {
					t.Fatalf("%+v: 1 and 3 workers differ", cfg)
				}
			}
		}
	})
}
