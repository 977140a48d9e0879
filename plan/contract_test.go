package plan

import (
	"context"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: every function taking a
// context refuses a nil one, and a zero, negative, NaN or huge field, with
// an error (naming the field) within a short time, never a panic.
func TestContract(t *testing.T) {
	base := Config{Nodes: 30, Shuffle: gossip.Shuffle{Items: 60, Cache: 10, Exchange: 3}, Level: 0.9, Deadline: 20, Loss: 0.1}
	type entry struct {
		name    string
		ignores map[string]bool // fields the function documents as ignored
		call    func(context.Context, Config) error
	}
	entries := []entry{
		{"Solve", nil, func(ctx context.Context, c Config) error { _, err := Solve(ctx, c, Settings{}); return err }},
		{"Sweep", map[string]bool{"Exchange": true}, func(ctx context.Context, c Config) error {
			_, err := Sweep(ctx, c, []int{2, 3}, Settings{})
			return err
		}},
		{"LossSweep", map[string]bool{"Exchange": true, "Loss": true}, func(ctx context.Context, c Config) error {
			_, err := LossSweep(ctx, c, []int{3}, []float64{0, 0.1}, Settings{})
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
		{"Items", func(c *Config) { c.Shuffle.Items = 0 }},
		{"Exchange", func(c *Config) { c.Shuffle.Exchange = -1 }},
		{"Level", func(c *Config) { c.Level = math.NaN() }},
		{"Level", func(c *Config) { c.Level = 2 }},
		{"Deadline", func(c *Config) { c.Deadline = math.NaN() }},
		{"Deadline", func(c *Config) { c.Deadline = -1 }},
		{"Confidence", func(c *Config) { c.Confidence = math.NaN() }},
		{"Loss", func(c *Config) { c.Loss = math.NaN() }},
		{"Loss", func(c *Config) { c.Loss = 1 }},
	}
	var calls []probe.Refusal
	for _, e := range entries {
		call := e.call
		calls = append(calls, probe.Refusal{Name: e.name + "(nil ctx)", Want: "nil context",
			Call: func() error { return call(nil, base) }}) //nolint:staticcheck // the nil context is the point
		for _, b := range bad {
			if e.ignores[b.field] {
				continue
			}
			c := base
			b.set(&c)
			calls = append(calls, probe.Refusal{Name: e.name + "/" + b.field, Want: b.field, Field: true,
				Call: func() error { return call(context.Background(), c) }})
		}
	}
	// The lists are arguments too: an exchange size or loss out of range.
	ctx := context.Background()
	calls = append(calls,
		probe.Refusal{Name: "Sweep/exchange -1", Field: true, Call: func() error { _, err := Sweep(ctx, base, []int{-1}, Settings{}); return err }},
		probe.Refusal{Name: "LossSweep/loss NaN", Field: true, Call: func() error {
			_, err := LossSweep(ctx, base, []int{3}, []float64{math.NaN()}, Settings{})
			return err
		}},
	)
	probe.Refuses(t, 0, calls...)
}
