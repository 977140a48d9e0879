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
	entries := []probe.ConfigEntry[Config]{
		{Name: "Solve", Cfg: base, Ignores: nil, Call: func(ctx context.Context, c Config) error { _, err := Solve(ctx, c, Settings{}); return err }},
		{Name: "Sweep", Cfg: base, Ignores: map[string]bool{"Exchange": true}, Call: func(ctx context.Context, c Config) error {
			_, err := Sweep(ctx, c, []int{2, 3}, Settings{})
			return err
		}},
		{Name: "LossSweep", Cfg: base, Ignores: map[string]bool{"Exchange": true, "Loss": true}, Call: func(ctx context.Context, c Config) error {
			_, err := LossSweep(ctx, c, []int{3}, []float64{0, 0.1}, Settings{})
			return err
		}},
	}
	bad := []probe.BadField[Config]{
		{Field: "Nodes", Set: func(c *Config) { c.Nodes = 0 }},
		{Field: "Nodes", Set: func(c *Config) { c.Nodes = -1 }},
		{Field: "Nodes", Set: func(c *Config) { c.Nodes = math.MaxInt }},
		{Field: "Items", Set: func(c *Config) { c.Shuffle.Items = 0 }},
		{Field: "Exchange", Set: func(c *Config) { c.Shuffle.Exchange = -1 }},
		{Field: "Level", Set: func(c *Config) { c.Level = math.NaN() }},
		{Field: "Level", Set: func(c *Config) { c.Level = 2 }},
		{Field: "Deadline", Set: func(c *Config) { c.Deadline = math.NaN() }},
		{Field: "Deadline", Set: func(c *Config) { c.Deadline = -1 }},
		{Field: "Confidence", Set: func(c *Config) { c.Confidence = math.NaN() }},
		{Field: "Loss", Set: func(c *Config) { c.Loss = math.NaN() }},
		{Field: "Loss", Set: func(c *Config) { c.Loss = 1 }},
	}
	calls := probe.ConfigRefusals(entries, bad)

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
