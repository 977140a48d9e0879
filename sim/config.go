package sim

import (
	"fmt"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/gossipkit/gossipkit/approx"
)

// Model selects what is simulated.
type Model int

const (
	// Protocol simulates every cache and every shuffle of MODEL.md §1.
	Protocol Model = iota
	// Markov simulates one item only: each node is 0/1 for d and each
	// shuffle applies the transition probabilities of MODEL.md §3.
	Markov
)

func (m Model) String() string { return [...]string{"protocol", "markov"}[m] }

// ParseModel maps "protocol" or "markov" to a Model.
func ParseModel(s string) (Model, error) {
	switch s {
	case "protocol":
		return Protocol, nil
	case "markov":
		return Markov, nil
	}
	return 0, fmt.Errorf("unknown model %q (valid: protocol, markov)", s)
}

// Schedule is the order in which shuffles happen; see the package doc.
type Schedule int

const (
	// Rounds: each round every node initiates once, in a fresh random order,
	// shuffles one after another.
	Rounds Schedule = iota
	// Async: each node gossips once per round at its own random phase
	// (tick); a shuffle needs both nodes free in its tick.
	Async
	// Continuous: shuffles at total rate N per round, initiator uniform,
	// partner uniform among its neighbours (a Poisson clock).
	Continuous
)

func (s Schedule) String() string { return [...]string{"rounds", "async", "continuous"}[s] }

// ParseSchedule maps "rounds", "async" or "continuous" to a Schedule.
func ParseSchedule(s string) (Schedule, error) {
	for _, v := range []Schedule{Rounds, Async, Continuous} {
		if v.String() == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown schedule %q (valid: rounds, async, continuous)", s)
}

// Config describes an experiment: Reps replications of Warmup rounds of
// mixing, then the insertion of d at Initial random nodes at t = 0, then
// Rounds rounds of observation.
type Config struct {
	Model    Model
	Nodes    int // N ≥ 2
	Items    int // n ≥ c
	Cache    int // c ≥ 1
	Exchange int // s, 1 ≤ s ≤ c, s < n
	Warmup   int // W ≥ 0 (protocol only; the Markov model has no caches to mix)
	Rounds   int // T ≥ 1
	Reps     int // R ≥ 1
	Seed     uint64
	Initial  int // copies of d at t = 0, 1..N (default 1)
	Schedule Schedule
	// Ticks is the number of ticks per round of the Async schedule (≥ 2).
	Ticks    int
	Topology Topology
	// PDrop is the P_drop variant of the Markov model.
	PDrop approx.Variant
	// Check verifies the protocol's invariants after every shuffle (slow).
	Check bool
	// FailFraction of the nodes, chosen uniformly among those not holding d,
	// fail at t = 0 right after the insertion and take no further part
	// (full topology only): what share of the survivors d still reaches.
	FailFraction float64
}

// DefaultConfig returns the paper's experiment (MODEL.md §1).
func DefaultConfig() Config {
	return Config{Model: Protocol, Nodes: 2500, Items: 500, Cache: 100, Exchange: 50,
		Warmup: 1000, Rounds: 1000, Reps: 100, Seed: 1, Initial: 1, Ticks: 100}
}

// FieldError is an invalid field of Config; Field names it (Config.Nodes).
// It is one type with tree's, sim's and chain's FieldError.
type FieldError = fielderr.Error

// Validate checks the configuration, including its memory estimate for
// `workers` concurrent replications against what the machine has.
func (c Config) Validate(workers int) error {
	f := func(field, format string, a ...any) error {
		return &FieldError{Field: field, Msg: fmt.Sprintf(format, a...)}
	}
	switch {
	case c.Nodes < 2 || c.Nodes > 1<<26:
		return f("Config.Nodes", "%d: valid range 2..%d", c.Nodes, 1<<26)
	case c.Cache < 1:
		return f("Config.Cache", "%d: valid range 1..n", c.Cache)
	case c.Items < c.Cache || c.Items > 1<<24:
		return f("Config.Items", "%d: valid range c..%d (c = %d)", c.Items, 1<<24, c.Cache)
	case c.Exchange < 1 || c.Exchange > c.Cache || c.Exchange >= c.Items:
		return f("Config.Exchange", "%d: valid range 1..min(c, n−1) = 1..%d", c.Exchange, min(c.Cache, c.Items-1))
	case c.Warmup < 0 || c.Warmup > 1e7:
		return f("Config.Warmup", "%d: valid range 0..10000000", c.Warmup)
	case c.Rounds < 1 || c.Rounds > 1e7:
		return f("Config.Rounds", "%d: valid range 1..10000000", c.Rounds)
	case c.Reps < 1 || c.Reps > 1e7:
		return f("Config.Reps", "%d: valid range 1..10000000", c.Reps)
	case c.Initial < 1 || c.Initial > c.Nodes:
		return f("Config.Initial", "%d: valid range 1..N = 1..%d", c.Initial, c.Nodes)
	case c.Schedule == Async && (c.Ticks < 2 || c.Ticks > 1e6):
		return f("Config.Ticks", "%d: valid range 2..1000000", c.Ticks)
	}
	if !(c.FailFraction >= 0 && c.FailFraction < 1) {
		return f("Config.FailFraction", "%g: valid range [0, 1)", c.FailFraction)
	}
	if c.FailFraction > 0 && (c.Topology.Kind != Full || c.Schedule == Async || c.Nodes-int(c.FailFraction*float64(c.Nodes)+0.5) < 2) {
		return f("Config.FailFraction", "%g: needs the full topology, the rounds or continuous schedule, and at least 2 survivors", c.FailFraction)
	}
	if c.Topology.Kind == Regular && (c.Topology.Degree >= c.Nodes || c.Nodes*c.Topology.Degree%2 != 0) {
		return f("Config.Topology", "regular:%d: need degree < N and N·degree even (N = %d)", c.Topology.Degree, c.Nodes)
	}
	if workers < 1 {
		return f("Options.Workers", "%d: must be ≥ 1", workers)
	}
	need := c.MemoryEstimate(workers)
	if avail := availableMemory(); avail > 0 && need > avail {
		return f("Config.Nodes", "%d with n = %d, c = %d: the run needs about %s of memory, the machine has %s available", c.Nodes, c.Items, c.Cache, bytesString(need), bytesString(avail))
	}
	return nil
}

// MemoryEstimate returns the bytes a run needs with `workers` replications
// in flight: per worker the caches (N·c·4 bytes at most: int32 items, or
// 2 bytes when n ≤ 65535) and two stamp arrays (8·(n+1) bytes) for the
// protocol, plus 3N bytes of per-node flags; and for the whole run the
// per-replication trajectories, 12·(T+1)·R bytes, and the printed
// summary, ~700·(T+1) bytes. It is an upper bound.
func (c Config) MemoryEstimate(workers int) uint64 {
	N := uint64(c.Nodes)
	per := N * 3
	if c.Model == Protocol {
		per += N*uint64(c.Cache)*4 + 8*uint64(c.Items+1)
	}
	// Per replication 12 bytes a round (x, y, y_round); per round of the
	// output ~700 bytes (the summary, and a table row of 16 boxed values).
	return per*uint64(workers) + 12*uint64(c.Rounds+1)*uint64(c.Reps) + 700*uint64(c.Rounds+1)
}

func availableMemory() uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}

func bytesString(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", b/1024)
}

// DefaultWorkers is the number of CPUs.
func DefaultWorkers() int { return runtime.NumCPU() }
