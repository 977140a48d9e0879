package sim

import (
	"context"
	"reflect"
	"testing"
)

// TestWarmCacheSameReplications: a run given a cache returns the
// replications of the run without one, byte for byte, whether it finds its
// warm states there or computes them; runs that differ only in what acts
// after d's insertion (Initial, Rounds, Reps, WarmStates, FailFraction)
// share warm states, and runs that differ in what the warm-up reads (the
// warm-up's length, the loss, the topology, the exchange size, the seed)
// share none (a key that left one out would hand them a wrong state, and
// their replications would differ from the uncached run's).
func TestWarmCacheSameReplications(t *testing.T) {
	ctx := context.Background()
	base := small()
	base.Reps, base.WarmStates, base.Rounds = 6, 3, 20
	plain := func(t *testing.T, cfg Config) []Replication {
		t.Helper()
		res, err := Run(ctx, cfg, Settings{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return res.Reps
	}
	cache := new(WarmCache) // the zero value is an empty cache
	run := func(t *testing.T, cfg Config, computed int) {
		t.Helper()
		before := cache.Computed()
		res, err := Run(ctx, cfg, Settings{Workers: 2, Warm: cache})
		if err != nil {
			t.Fatal(err)
		}
		if got := cache.Computed() - before; got != computed {
			t.Errorf("%d warm-ups computed, want %d", got, computed)
		}
		if !reflect.DeepEqual(res.Reps, plain(t, cfg)) {
			t.Error("the replications differ from the run without a cache")
		}
	}
	with := func(f func(*Config)) Config { c := base; f(&c); return c }
	steps := []struct {
		name     string
		cfg      Config
		computed int
	}{
		{"first run computes all", base, 3},
		{"same run again: all found", base, 0},
		{"other Initial, Rounds, Reps, k, failures: states 0..2 found, 3 computed", with(func(c *Config) {
			c.Initial, c.Rounds, c.Reps, c.WarmStates, c.FailFraction = 4, 33, 9, 4, 0.2
		}), 1},
		{"Reps 8, k = 4: all four found", with(func(c *Config) { c.Reps, c.WarmStates = 8, 4 }), 0},
		{"other warm-up length", with(func(c *Config) { c.Warmup = 31 }), 3},
		{"other loss", with(func(c *Config) { c.Loss = 0.1 }), 3},
		{"other topology", with(func(c *Config) { c.Topology = Topology{Kind: Regular, Degree: 6} }), 3},
		{"other exchange size", with(func(c *Config) { c.Shuffle.Exchange = 4 }), 3},
		{"other seed", with(func(c *Config) { c.Seed = 2 }), 3},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) { run(t, st.cfg, st.computed) })
	}
	if got, want := cache.Len(), 3+1+5*3; got != want {
		t.Errorf("cache holds %d states, want %d", got, want)
	}
	var nilCache *WarmCache
	if nilCache.Computed() != 0 || nilCache.Len() != 0 {
		t.Error("a nil cache reports states")
	}
}
