package tree

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
	base := DefaultConfig()
	base.Nodes = 50
	type entry struct {
		name string
		call func(context.Context, Config) error
	}
	entries := []entry{
		{"Build", func(ctx context.Context, c Config) error { _, _, err := Build(ctx, c); return err }},
		{"RunSeed", func(ctx context.Context, c Config) error { _, err := RunSeed(ctx, c, 1, 0, true); return err }},
		{"Experiment.Run", func(ctx context.Context, c Config) error {
			_, err := Experiment{Cfg: c, Fail: true, Seeds: 2, Seed: 1}.Run(ctx, Settings{})
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
		{"Degree", func(c *Config) { c.Degree = 0 }},
		{"FailFraction", func(c *Config) { c.FailFraction = math.NaN() }},
		{"FailFraction", func(c *Config) { c.FailFraction = 1 }},
		{"PingPeriodMs", func(c *Config) { c.PingPeriodMs = -1 }},
		{"ArrivalMs", func(c *Config) { c.ArrivalMs = math.NaN() }},
		{"TauMaxMs", func(c *Config) { c.TauMaxMs = math.Inf(1) }},
	}
	var calls []probe.Refusal
	for _, e := range entries {
		call := e.call
		calls = append(calls, probe.Refusal{Name: e.name + "(nil ctx)", Want: "nil context",
			Call: func() error { return call(nil, base) }}) //nolint:staticcheck // the nil context is the point
		for _, b := range bad {
			c := base
			b.set(&c)
			calls = append(calls, probe.Refusal{Name: e.name + "/" + b.field, Want: b.field, Field: true,
				Call: func() error { return call(context.Background(), c) }})
		}
	}
	bg := context.Background()
	for _, seeds := range []int{0, -1, math.MaxInt} {
		calls = append(calls, probe.Refusal{Name: "Experiment.Run/Seeds", Want: "Seeds", Field: true, Call: func() error {
			_, err := Experiment{Cfg: base, Seeds: seeds}.Run(bg, Settings{})
			return err
		}})
	}
	probe.Refuses(t, 0, calls...)
}
