package chain

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
	sh := gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}
	base := Config{Nodes: 12, Shuffle: sh, TMax: 5, Dt: 1, Level: 0.9, Loss: 0.2}
	repl := base
	repl.ReplicationOnly, repl.Level = true, 0
	type entry struct {
		name string
		cfg  Config
		// ignores holds the fields the function documents as not used.
		ignores map[string]bool
		call    func(context.Context, Config) error
	}
	entries := []entry{
		{"Solve", base, nil, func(ctx context.Context, c Config) error { _, err := Solve(ctx, c, Settings{}); return err }},
		{"HittingMoments", base, nil, func(ctx context.Context, c Config) error { _, _, err := HittingMoments(ctx, c); return err }},
		{"ReachProbability", base, nil, func(ctx context.Context, c Config) error { _, err := ReachProbability(ctx, c); return err }},
		{"MeanTimeToLevel", base, nil, func(ctx context.Context, c Config) error { _, _, err := MeanTimeToLevel(ctx, c); return err }},
		{"TimeToLevel", base, map[string]bool{"TMax": true, "Dt": true}, func(ctx context.Context, c Config) error { _, err := TimeToLevel(ctx, c, Settings{}); return err }},
		{"ReplicationTime", repl, nil, func(ctx context.Context, c Config) error { _, _, err := ReplicationTime(ctx, c, 3); return err }},
		{"Lifetime", repl, map[string]bool{"TMax": true, "Dt": true}, func(ctx context.Context, c Config) error { _, _, err := Lifetime(ctx, c); return err }},
		{"QuasiStationary", repl, map[string]bool{"TMax": true, "Dt": true}, func(ctx context.Context, c Config) error { _, err := QuasiStationary(ctx, c); return err }},
	}
	bad := []struct {
		field string
		set   func(*Config)
	}{
		{"Nodes", func(c *Config) { c.Nodes = 0 }},
		{"Nodes", func(c *Config) { c.Nodes = -1 }},
		{"Nodes", func(c *Config) { c.Nodes = math.MaxInt }},
		{"Shuffle", func(c *Config) { c.Shuffle = gossip.Shuffle{} }},
		{"Exchange", func(c *Config) { c.Shuffle.Exchange = -1 }},
		{"Loss", func(c *Config) { c.Loss = math.NaN() }},
		{"Loss", func(c *Config) { c.Loss = 1 }},
		{"TMax", func(c *Config) { c.TMax = math.NaN() }},
		{"TMax", func(c *Config) { c.TMax = math.Inf(1) }},
		{"Dt", func(c *Config) { c.Dt = -1 }},
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
