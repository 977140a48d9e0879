package sim

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
	sh := gossip.Shuffle{Items: 20, Cache: 6, Exchange: 3}
	base := Config{Model: Protocol, Nodes: 16, Shuffle: sh, Warmup: 2, Rounds: 3, Reps: 2, Seed: 1, Initial: 1}
	run := func(ctx context.Context, c Config) error { _, err := Run(ctx, c, Settings{}); return err }
	sum := func(ctx context.Context, c Config) error { _, err := RunSummary(ctx, c, Settings{}); return err }
	bad := []struct {
		field string
		set   func(*Config)
	}{
		{"Nodes", func(c *Config) { c.Nodes = 0 }},
		{"Nodes", func(c *Config) { c.Nodes = -1 }},
		{"Nodes", func(c *Config) { c.Nodes = 1 << 40 }},
		{"Shuffle", func(c *Config) { c.Shuffle = gossip.Shuffle{} }},
		{"Shuffle.Exchange", func(c *Config) { c.Shuffle.Exchange = -1 }},
		{"Warmup", func(c *Config) { c.Warmup = -1 }},
		{"Rounds", func(c *Config) { c.Rounds = 0 }},
		{"Rounds", func(c *Config) { c.Rounds = math.MaxInt }},
		{"Reps", func(c *Config) { c.Reps = 0 }},
		{"Reps", func(c *Config) { c.Reps = -1 }},
		{"Initial", func(c *Config) { c.Initial = -1 }},
		{"FailFraction", func(c *Config) { c.FailFraction = math.NaN() }},
		{"Loss", func(c *Config) { c.Loss = math.NaN() }},
		{"Loss", func(c *Config) { c.Loss = 1 }},
	}
	var calls []probe.Refusal
	for name, call := range map[string]func(context.Context, Config) error{"Run": run, "RunSummary": sum} {
		calls = append(calls, probe.Refusal{Name: name + "(nil ctx)", Want: "nil context",
			Call: func() error { return call(nil, base) }}) //nolint:staticcheck // the nil context is the point
		for _, b := range bad {
			c := base
			b.set(&c)
			calls = append(calls, probe.Refusal{Name: name + "/" + b.field, Want: b.field, Field: true,
				Call: func() error { return call(context.Background(), c) }})
		}
	}
	// Huge but valid work is refused by its estimate before it starts.
	huge := base
	huge.Reps = math.MaxInt / 2
	for name, call := range map[string]func(context.Context, Config) error{"Run": run, "RunSummary": sum} {
		calls = append(calls, probe.Refusal{Name: name + "/huge Reps", Call: func() error { return call(context.Background(), huge) }})
	}
	ub := UniformityConfig{Nodes: 16, Shuffle: sh, Warmup: 2, Snapshots: 2, Spacing: 1, Reps: 2, Seed: 1}
	uni := func(ctx context.Context, c UniformityConfig) error {
		_, err := Uniformity(ctx, c, UniformitySettings{})
		return err
	}
	calls = append(calls, probe.Refusal{Name: "Uniformity(nil ctx)", Want: "nil context",
		Call: func() error { return uni(nil, ub) }}) //nolint:staticcheck // the nil context is the point
	for _, b := range []struct {
		field string
		set   func(*UniformityConfig)
	}{
		{"Nodes", func(c *UniformityConfig) { c.Nodes = 0 }},
		{"Nodes", func(c *UniformityConfig) { c.Nodes = 1 << 40 }},
		{"Shuffle", func(c *UniformityConfig) { c.Shuffle = gossip.Shuffle{} }},
		{"Snapshots", func(c *UniformityConfig) { c.Snapshots = 0 }},
		{"Spacing", func(c *UniformityConfig) { c.Spacing = -1 }},
		{"Reps", func(c *UniformityConfig) { c.Reps = 0 }},
		{"Reps", func(c *UniformityConfig) { c.Reps = math.MaxInt }},
		{"Loss", func(c *UniformityConfig) { c.Loss = math.NaN() }},
	} {
		c := ub
		b.set(&c)
		calls = append(calls, probe.Refusal{Name: "Uniformity/" + b.field, Want: b.field, Field: true,
			Call: func() error { return uni(context.Background(), c) }})
	}
	probe.Refuses(t, 0, calls...)
}
