package broadcast

import (
	"context"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: every function taking a
// context refuses a nil one, and a zero, negative, NaN or huge field, with
// an error (naming the field) within a short time, never a panic.
func TestContract(t *testing.T) {
	base := Config{Nodes: 50, Protocol: Push, Fanout: 3, Level: 0.9, Deadline: 10}
	budget := base
	budget.Budget = 4
	async := base
	async.Time = Async
	repair := base
	repair.SyncInterval = 30
	type entry struct {
		name string
		cfg  Config
		// ignores holds the fields the function documents as ignored.
		ignores map[string]bool
		call    func(context.Context, Config) error
	}
	entries := []entry{
		{"Solve", base, nil, func(ctx context.Context, c Config) error { _, err := Solve(ctx, c, Settings{}); return err }},
		{"Sweep", base, map[string]bool{"Fanout": true}, func(ctx context.Context, c Config) error {
			_, err := Sweep(ctx, c, []int{1, 2}, []int{0}, Settings{})
			return err
		}},
		{"SmallestBudget", base, map[string]bool{"Deadline": true}, func(ctx context.Context, c Config) error {
			_, err := SmallestBudget(ctx, c, 0.01, Settings{Reps: 10})
			return err
		}},
		{"MissChance", budget, map[string]bool{"Deadline": true}, func(ctx context.Context, c Config) error {
			_, err := MissChance(ctx, c, Settings{Reps: 10})
			return err
		}},
		{"AsymptoticLaw", base, nil, func(ctx context.Context, c Config) error { _, err := AsymptoticLaw(ctx, c); return err }},
		{"ExactLaw", base, nil, func(ctx context.Context, c Config) error { _, err := ExactLaw(ctx, c); return err }},
		{"Simulate", base, nil, func(ctx context.Context, c Config) error {
			_, err := Simulate(ctx, c, SimSettings{Reps: 10})
			return err
		}},
		{"SimulateAsync", async, nil, func(ctx context.Context, c Config) error {
			_, err := SimulateAsync(ctx, c, SimSettings{Reps: 10})
			return err
		}},
		{"SimulateRepair", repair, nil, func(ctx context.Context, c Config) error {
			_, err := SimulateRepair(ctx, c, SimSettings{Reps: 10}, []float64{0, 30})
			return err
		}},
	}
	bad := []struct {
		field string
		set   func(*Config)
	}{
		{"Nodes", func(c *Config) { c.Nodes = 0 }},
		{"Nodes", func(c *Config) { c.Nodes = -1 }},
		{"Nodes", func(c *Config) { c.Nodes = math.MaxInt }},
		{"Fanout", func(c *Config) { c.Fanout = -1 }},
		{"Loss", func(c *Config) { c.Loss = math.NaN() }},
		{"Loss", func(c *Config) { c.Loss = 1 }},
		{"Failed", func(c *Config) { c.Failed = math.NaN() }},
		{"Level", func(c *Config) { c.Level = math.NaN() }},
		{"Level", func(c *Config) { c.Level = 2 }},
		{"Deadline", func(c *Config) { c.Deadline = math.NaN() }},
		{"Deadline", func(c *Config) { c.Deadline = -1 }},
		{"Confidence", func(c *Config) { c.Confidence = math.NaN() }},
	}
	var calls []probe.Refusal
	for _, e := range entries {
		cfg, call := e.cfg, e.call
		calls = append(calls, probe.Refusal{Name: e.name + "(nil ctx)", Want: "nil context",
			Call: func() error { return call(nil, cfg) }}) //nolint:staticcheck // the nil context is the point
		for _, b := range bad {
			if e.ignores[b.field] {
				continue
			}
			c := cfg
			b.set(&c)
			calls = append(calls, probe.Refusal{Name: e.name + "/" + b.field, Want: b.field, Field: true,
				Call: func() error { return call(context.Background(), c) }})
		}
	}
	probe.Refuses(t, 0, calls...)
}
