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
	entries := []probe.ConfigEntry[Config]{
		{Name: "Solve", Cfg: base, Ignores: nil, Call: func(ctx context.Context, c Config) error { _, err := Solve(ctx, c, Settings{}); return err }},
		{Name: "Sweep", Cfg: base, Ignores: map[string]bool{"Fanout": true}, Call: func(ctx context.Context, c Config) error {
			_, err := Sweep(ctx, c, []int{1, 2}, []int{0}, Settings{})
			return err
		}},
		{Name: "SmallestBudget", Cfg: base, Ignores: map[string]bool{"Deadline": true}, Call: func(ctx context.Context, c Config) error {
			_, err := SmallestBudget(ctx, c, 0.01, Settings{Reps: 10})
			return err
		}},
		{Name: "MissChance", Cfg: budget, Ignores: map[string]bool{"Deadline": true}, Call: func(ctx context.Context, c Config) error {
			_, err := MissChance(ctx, c, Settings{Reps: 10})
			return err
		}},
		{Name: "AsymptoticLaw", Cfg: base, Ignores: nil, Call: func(ctx context.Context, c Config) error { _, err := AsymptoticLaw(ctx, c); return err }},
		{Name: "ExactLaw", Cfg: base, Ignores: nil, Call: func(ctx context.Context, c Config) error { _, err := ExactLaw(ctx, c); return err }},
		{Name: "Simulate", Cfg: base, Ignores: nil, Call: func(ctx context.Context, c Config) error {
			_, err := Simulate(ctx, c, SimSettings{Reps: 10})
			return err
		}},
		{Name: "SimulateAsync", Cfg: async, Ignores: nil, Call: func(ctx context.Context, c Config) error {
			_, err := SimulateAsync(ctx, c, SimSettings{Reps: 10})
			return err
		}},
		{Name: "SimulateRepair", Cfg: repair, Ignores: nil, Call: func(ctx context.Context, c Config) error {
			_, err := SimulateRepair(ctx, c, SimSettings{Reps: 10}, []float64{0, 30})
			return err
		}},
	}
	bad := []probe.BadField[Config]{
		{Field: "Nodes", Set: func(c *Config) { c.Nodes = 0 }},
		{Field: "Nodes", Set: func(c *Config) { c.Nodes = -1 }},
		{Field: "Nodes", Set: func(c *Config) { c.Nodes = math.MaxInt }},
		{Field: "Fanout", Set: func(c *Config) { c.Fanout = -1 }},
		{Field: "Loss", Set: func(c *Config) { c.Loss = math.NaN() }},
		{Field: "Loss", Set: func(c *Config) { c.Loss = 1 }},
		{Field: "Failed", Set: func(c *Config) { c.Failed = math.NaN() }},
		{Field: "Level", Set: func(c *Config) { c.Level = math.NaN() }},
		{Field: "Level", Set: func(c *Config) { c.Level = 2 }},
		{Field: "Deadline", Set: func(c *Config) { c.Deadline = math.NaN() }},
		{Field: "Deadline", Set: func(c *Config) { c.Deadline = -1 }},
		{Field: "Confidence", Set: func(c *Config) { c.Confidence = math.NaN() }},
	}
	calls := probe.ConfigRefusals(entries, bad)

	probe.Refuses(t, 0, calls...)
}

// TestNilSamples: the methods of a nil *AsyncSample and *RepairSample
// answer (no sample: NaN answers, a line saying so) rather than panic
// (h43's probe of every exported method on nil receivers found these two).
func TestNilSamples(t *testing.T) {
	var a *AsyncSample
	ans, times := a.Answer()
	if !math.IsNaN(ans.Mean) || times == nil {
		t.Errorf("nil AsyncSample: mean %v, times %v", ans.Mean, times)
	}
	var r *RepairSample
	if s := r.String(); s == "" {
		t.Error("nil RepairSample: empty String")
	}
}
