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
	entries := []probe.ConfigEntry[Config]{
		{Name: "Solve", Cfg: base, Ignores: nil, Call: func(ctx context.Context, c Config) error { _, err := Solve(ctx, c, Settings{}); return err }},
		{Name: "HittingMoments", Cfg: base, Ignores: nil, Call: func(ctx context.Context, c Config) error { _, _, err := HittingMoments(ctx, c); return err }},
		{Name: "ReachProbability", Cfg: base, Ignores: nil, Call: func(ctx context.Context, c Config) error { _, err := ReachProbability(ctx, c); return err }},
		{Name: "MeanTimeToLevel", Cfg: base, Ignores: nil, Call: func(ctx context.Context, c Config) error { _, _, err := MeanTimeToLevel(ctx, c); return err }},
		{Name: "TimeToLevel", Cfg: base, Ignores: map[string]bool{"TMax": true, "Dt": true}, Call: func(ctx context.Context, c Config) error { _, err := TimeToLevel(ctx, c, Settings{}); return err }},
		{Name: "ReplicationTime", Cfg: repl, Ignores: nil, Call: func(ctx context.Context, c Config) error { _, _, err := ReplicationTime(ctx, c, 3); return err }},
		{Name: "Lifetime", Cfg: repl, Ignores: map[string]bool{"TMax": true, "Dt": true}, Call: func(ctx context.Context, c Config) error { _, _, err := Lifetime(ctx, c); return err }},
		{Name: "QuasiStationary", Cfg: repl, Ignores: map[string]bool{"TMax": true, "Dt": true}, Call: func(ctx context.Context, c Config) error { _, err := QuasiStationary(ctx, c); return err }},
	}
	bad := []probe.BadField[Config]{
		{Field: "Nodes", Set: func(c *Config) { c.Nodes = 0 }},
		{Field: "Nodes", Set: func(c *Config) { c.Nodes = -1 }},
		{Field: "Nodes", Set: func(c *Config) { c.Nodes = math.MaxInt }},
		{Field: "Shuffle", Set: func(c *Config) { c.Shuffle = gossip.Shuffle{} }},
		{Field: "Exchange", Set: func(c *Config) { c.Shuffle.Exchange = -1 }},
		{Field: "Loss", Set: func(c *Config) { c.Loss = math.NaN() }},
		{Field: "Loss", Set: func(c *Config) { c.Loss = 1 }},
		{Field: "TMax", Set: func(c *Config) { c.TMax = math.NaN() }},
		{Field: "TMax", Set: func(c *Config) { c.TMax = math.Inf(1) }},
		{Field: "Dt", Set: func(c *Config) { c.Dt = -1 }},
	}
	calls := probe.ConfigRefusals(entries, bad)

	probe.Refuses(t, 0, calls...)
}
