package sim

import (
	"math"
	"testing"
)

// TestParamsBounds: Validate checks each numeric field against its Param,
// at and just past each end, with the messages sim has always given (the
// expected strings are written by hand from the ranges of the Params'
// doc: 2..2^26 nodes, 0..10^7 warm-up rounds, 1..10^7 rounds and
// replications, 2..10^6 ticks, φ in [0, 1)).
func TestParamsBounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want string // "" if accepted
	}{
		{"nodes below", func(c *Config) { c.Nodes = 1 }, "sim: Config.Nodes 1: valid range 2..67108864"},
		{"nodes above", func(c *Config) { c.Nodes = 1<<26 + 1 }, "sim: Config.Nodes 67108865: valid range 2..67108864"},
		{"warmup below", func(c *Config) { c.Warmup = -1 }, "sim: Config.Warmup -1: valid range 0..10000000"},
		{"warmup above", func(c *Config) { c.Warmup = 10000001 }, "sim: Config.Warmup 10000001: valid range 0..10000000"},
		{"warmup 0", func(c *Config) { c.Warmup = 0 }, ""},
		{"rounds below", func(c *Config) { c.Rounds = 0 }, "sim: Config.Rounds 0: valid range 1..10000000"},
		{"rounds above", func(c *Config) { c.Rounds = 10000001 }, "sim: Config.Rounds 10000001: valid range 1..10000000"},
		{"rounds 1", func(c *Config) { c.Rounds = 1 }, ""},
		{"reps below", func(c *Config) { c.Reps = 0 }, "sim: Config.Reps 0: valid range 1..10000000"},
		{"reps above", func(c *Config) { c.Reps = 10000001 }, "sim: Config.Reps 10000001: valid range 1..10000000"},
		{"reps 1", func(c *Config) { c.Reps = 1 }, ""},
		{"warm states above reps", func(c *Config) { c.Reps, c.WarmStates = 3, 4 }, "sim: Config.WarmStates 4: valid range 0..Reps = 0..3 (0: every replication warms its own caches)"},
		{"warm states below", func(c *Config) { c.WarmStates = -1 }, "sim: Config.WarmStates -1: valid range 0..Reps = 0..6 (0: every replication warms its own caches)"},
		{"warm states = reps", func(c *Config) { c.Reps, c.WarmStates = 3, 3 }, ""},
		{"initial below", func(c *Config) { c.Initial = 0 }, "sim: Config.Initial 0: valid range 1..N = 1..200"},
		{"initial above", func(c *Config) { c.Initial = 201 }, "sim: Config.Initial 201: valid range 1..N = 1..200"},
		{"initial N", func(c *Config) { c.Initial = 200 }, ""},
		{"ticks below", func(c *Config) { c.Schedule, c.Ticks = Async, 1 }, "sim: Config.Ticks 1: valid range 2..1000000"},
		{"ticks above", func(c *Config) { c.Schedule, c.Ticks = Async, 1000001 }, "sim: Config.Ticks 1000001: valid range 2..1000000"},
		{"ticks 2", func(c *Config) { c.Schedule, c.Ticks = Async, 2 }, ""},
		{"ticks unread off async", func(c *Config) { c.Ticks = 0 }, ""},
		{"fail 1", func(c *Config) { c.FailFraction = 1 }, "sim: Config.FailFraction 1: valid range [0, 1)"},
		{"fail NaN", func(c *Config) { c.FailFraction = math.NaN() }, "sim: Config.FailFraction NaN: valid range [0, 1)"},
		{"fail negative", func(c *Config) { c.FailFraction = -0.5 }, "sim: Config.FailFraction -0.5: valid range [0, 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := small()
			tc.set(&cfg)
			err := cfg.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}
