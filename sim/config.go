package sim

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/enum"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// Model selects what is simulated.
type Model int

const (
	// Protocol simulates every cache and every shuffle of the protocol
	// (docs/MODEL.md §1).
	Protocol Model = iota
	// Markov simulates one item only: each node is 0/1 for d and each
	// shuffle applies the transition probabilities of Fig. 1
	// (docs/MODEL.md §3).
	Markov
	// Lumped is the Markov model under the Continuous schedule on the full
	// graph, simulated on the number of nodes in each class (holding d or
	// not, seen at a snapshot or not, ever covered or not) one state change
	// at a time: the same law of X, Y and YRound as Markov, at a cost that
	// grows with the changes (about X a round) rather than the N shuffles
	// a round. It needs Schedule Continuous, the Full topology and no
	// failures.
	Lumped
)

var modelNames = enum.Names[Model]{"protocol", "markov", "lumped"}

// String returns the model's name; it never panics.
func (m Model) String() string { return modelNames.Name(m) }

// ParseModel maps "protocol", "markov" or "lumped" to a Model.
func ParseModel(s string) (Model, error) {
	m, err := modelNames.Parse("model", s)
	if err != nil {
		return 0, fmt.Errorf("sim: %w", err)
	}
	return m, nil
}

// Schedule is the order in which shuffles happen; see the package doc. It is
// not a gossip.Time: Rounds and Async are orders of the protocol that no
// model clock describes; Continuous is gossip.Continuous.
type Schedule int

const (
	// Rounds: each round every node initiates once, in a fresh random order,
	// shuffles one after another.
	Rounds Schedule = iota
	// Async: each node gossips once per round at its own random phase
	// (tick); a shuffle needs both nodes free in its tick.
	Async
	// Continuous: shuffles at total rate N per round, initiator uniform,
	// partner uniform among its neighbours (a Poisson clock; the
	// gossip.Continuous clock of the models).
	Continuous
)

var scheduleNames = enum.Names[Schedule]{"rounds", "async", "continuous"}

// String returns the schedule's name; it never panics.
func (s Schedule) String() string { return scheduleNames.Name(s) }

// ParseSchedule maps "rounds", "async" or "continuous" to a Schedule.
func ParseSchedule(s string) (Schedule, error) {
	v, err := scheduleNames.Parse("schedule", s)
	if err != nil {
		return 0, fmt.Errorf("sim: %w", err)
	}
	return v, nil
}

// MaxItems is the largest Shuffle.Items a simulation takes (items are int32
// in the caches, and 8·(n+1) bytes of stamps are kept per worker).
const MaxItems = 1 << 24

// Config describes an experiment: Reps replications of Warmup rounds of
// mixing, then the insertion of d at Initial random nodes at t = 0, then
// Rounds rounds of observation.
type Config struct {
	Model Model
	Nodes int // N, 2 ≤ N ≤ 2^26
	// Shuffle holds n, c and s (Items ≤ MaxItems).
	Shuffle gossip.Shuffle
	Warmup  int // W ≥ 0 (protocol only; the Markov models have no caches to mix)
	// WarmStates is the number k of independent warm-ups the protocol's
	// replications branch from: 0 (the default) warms every replication's
	// caches on its own stream, as gossipkit always did; k in 1..Reps runs
	// k warm-ups, warm-up j on its own stream (distinct from every
	// replication's), and replication r copies warm state r mod k and
	// continues, from d's insertion on, with its own stream r. The
	// estimates stay unbiased (each warm state has the law of a warm-up);
	// replications sharing a warm state may be correlated, which inflates
	// the standard error of a mean over R replications by
	// √(1 + (R/k − 1)ρ), ρ the intraclass correlation (see the package
	// doc). The Markov models have no warm-up and ignore it.
	WarmStates int
	Rounds     int // T ≥ 1
	Reps       int // R ≥ 1
	Seed       uint64
	Initial    int // copies of d at t = 0, 1..N (default 1)
	Schedule   Schedule
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
	// Loss is ε in [0, 1): each message of a shuffle (the request and the
	// reply) is lost independently with probability ε (gossip.Loss;
	// docs/MODEL.md, "The shuffle protocol under loss"). 0 is lossless and
	// gives today's outputs.
	Loss float64
}

// DefaultConfig returns the paper's experiment (docs/MODEL.md §1).
func DefaultConfig() Config {
	return Config{Model: Protocol, Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50},
		Warmup: 1000, Rounds: 1000, Reps: 100, Seed: 1, Initial: 1, Ticks: 100}
}

// FieldError is an invalid field of Config or Settings; Field names it
// (Config.Nodes, Config.Shuffle.Exchange). It is one type with gossip's,
// tree's and chain's FieldError.
type FieldError = fielderr.Error

// The numeric parameters of Config, each stated once: Validate checks
// them (its messages print the value without "= ", as sim always has) and
// a program (the command line) writes its help from them. WarmStates' and
// Initial's upper ends are other fields (Reps, Nodes); RoundsObserved is
// Config.Rounds (Rounds is a Schedule).
var (
	Nodes          = gossip.Param{Field: "Nodes", Symbol: "N", Meaning: "number of nodes", Range: "2..67108864", Lo: gossip.AtLeast(2), Hi: gossip.AtMost(1 << 26)}
	Warmup         = gossip.Param{Field: "Warmup", Symbol: "W", Meaning: "warm-up rounds, run before d is inserted", Range: "0..10000000", Lo: gossip.AtLeast(0), Hi: gossip.AtMost(1e7)}
	WarmStates     = gossip.Param{Field: "WarmStates", Symbol: "K", Meaning: "independent warm-ups, replication r branching from warm-up r mod K", Range: "0..Reps", Default: "every replication warms its own caches", Lo: gossip.AtLeast(0)}
	RoundsObserved = gossip.Param{Field: "Rounds", Symbol: "T", Meaning: "rounds observed, after the insertion", Range: "1..10000000", Lo: gossip.AtLeast(1), Hi: gossip.AtMost(1e7)}
	Reps           = gossip.Param{Field: "Reps", Symbol: "R", Meaning: "replications", Range: "1..10000000", Lo: gossip.AtLeast(1), Hi: gossip.AtMost(1e7)}
	Initial        = gossip.Param{Field: "Initial", Meaning: "copies of d at t = 0, placed at distinct random nodes", Range: "1..N", Lo: gossip.AtLeast(1)}
	Ticks          = gossip.Param{Field: "Ticks", Meaning: "ticks per round of the async schedule", Range: "2..1000000", Lo: gossip.AtLeast(2), Hi: gossip.AtMost(1e6)}
	FailFraction   = gossip.Param{Field: "FailFraction", Meaning: "fraction of the nodes that fail at t = 0, right after d is inserted (not its holders)", Range: "[0, 1)", Lo: gossip.AtLeast(0), Hi: gossip.Below(1)}
)

// Validate checks the configuration; a problem is a *FieldError. It does
// not look at the machine: MemoryEstimate says what a run needs.
func (c Config) Validate() error {
	f := func(field, format string, a ...any) error { return fielderr.New("sim", field, format, a...) }
	n, cache, s := c.Shuffle.Items, c.Shuffle.Cache, c.Shuffle.Exchange
	switch {
	case !Nodes.In(float64(c.Nodes)):
		return f("Config.Nodes", "%d: valid range %s", c.Nodes, Nodes.Range)
	case cache < 1:
		return f("Config.Shuffle.Cache", "%d: valid range 1..n", cache)
	case n < cache || n > MaxItems:
		return f("Config.Shuffle.Items", "%d: valid range c..%d (c = %d)", n, MaxItems, cache)
	case s < 1 || s > cache || s >= n:
		return f("Config.Shuffle.Exchange", "%d: valid range 1..min(c, n−1) = 1..%d", s, min(cache, n-1))
	case !Warmup.In(float64(c.Warmup)):
		return f("Config.Warmup", "%d: valid range %s", c.Warmup, Warmup.Range)
	case !RoundsObserved.In(float64(c.Rounds)):
		return f("Config.Rounds", "%d: valid range %s", c.Rounds, RoundsObserved.Range)
	case !Reps.In(float64(c.Reps)):
		return f("Config.Reps", "%d: valid range %s", c.Reps, Reps.Range)
	case !WarmStates.In(float64(c.WarmStates)) || c.WarmStates > c.Reps:
		return f("Config.WarmStates", "%d: valid range %s = 0..%d (0: every replication warms its own caches)", c.WarmStates, WarmStates.Range, c.Reps)
	case !Initial.In(float64(c.Initial)) || c.Initial > c.Nodes:
		return f("Config.Initial", "%d: valid range %s = 1..%d", c.Initial, Initial.Range, c.Nodes)
	case c.Schedule == Async && !Ticks.In(float64(c.Ticks)):
		return f("Config.Ticks", "%d: valid range %s", c.Ticks, Ticks.Range)
	case !modelNames.Valid(c.Model):
		return f("Config.Model", "%v: not a model", c.Model)
	case !scheduleNames.Valid(c.Schedule):
		return f("Config.Schedule", "%v: not a schedule", c.Schedule)
	case !topologyNames.Valid(c.Topology.Kind):
		return f("Config.Topology", "%v: not a topology", c.Topology.Kind)
	}
	if !FailFraction.In(c.FailFraction) {
		return f("Config.FailFraction", "%g: valid range %s", c.FailFraction, FailFraction.Range)
	}
	if !gossip.ValidLoss(c.Loss) {
		return f("Config.Loss", "%g: valid range %s", c.Loss, gossip.Loss.Range)
	}
	if c.Model == Lumped && (c.Schedule != Continuous || c.Topology.Kind != Full || c.FailFraction != 0) {
		return f("Config.Model", "lumped: needs the continuous schedule, the full topology and no failures (schedule %v, topology %v, failures %g)", c.Schedule, c.Topology, c.FailFraction)
	}
	if c.FailFraction > 0 && (c.Topology.Kind != Full || c.Schedule == Async || c.Nodes-int(c.FailFraction*float64(c.Nodes)+0.5) < 2) {
		return f("Config.FailFraction", "%g: needs the full topology, the rounds or continuous schedule, and at least 2 survivors", c.FailFraction)
	}
	if c.Topology.Kind == Regular && (c.Topology.Degree >= c.Nodes || c.Nodes*c.Topology.Degree%2 != 0) {
		return f("Config.Topology", "regular:%d: need degree < N and N·degree even (N = %d)", c.Topology.Degree, c.Nodes)
	}
	if err := c.checkLimits(); err != nil {
		return err
	}
	return nil
}

// MemoryEstimate returns the bytes a run needs with `workers` replications
// in flight: `workers` times WorkerMemory (a replication's per-node state),
// plus for the whole run R replications of repBytes each (the Replication
// and its three trajectories) and 8 bytes of index, and the printed
// summary, ~700·(T+1) bytes: L bytes live. Each replication also leaves
// garbage (its Replication as runOne returned it, copied into the result,
// and the draw of its initial nodes: G in all), and Go's collector lets
// garbage grow to the live heap before it runs (GOGC = 100), so the
// estimate is L + min(L, G). Measured (peak resident memory, the runtime
// included): Markov at N = 100, 2·10^6 replications of 1 round, 1.20 GB
// estimated for 1.11 GB (as before); N = 10, 3·10^5 of 400 rounds,
// 3.42 GB before (the replications counted twice) for 1.82 GB, now
// 1.81 GB (TestMemoryPeak; TestMemoryEstimate measures the live heap).
// With WarmStates = k > 0 the protocol also keeps the k warm states for
// the whole run (warmBytes each: the caches, stamps and per-node arrays; a
// shard keeps only those its replications need, at most k). A program
// compares it with the memory it has (the CLI does before it starts). It
// does not validate c: negative fields and workers count as 0, and an
// out-of-range configuration gets what the formula gives, never a panic.
func (c Config) MemoryEstimate(workers int) uint64 {
	// Per round of the output ~700 bytes (the summary, and a table row of
	// 16 boxed values).
	var warm uint64
	if c.Model == Protocol && c.WarmStates > 0 {
		warm = uint64(c.WarmStates) * c.warmBytes()
	}
	R := uint64(max(c.Reps, 0))
	live := c.WorkerMemory()*uint64(max(workers, 0)) + warm + (repBytes(c.Rounds)+8)*R + 700*uint64(max(c.Rounds, 0)+1) +
		uint64(c.topologyPairs()*bytesPerEdge)
	// A replication's garbage: its Replication struct and the initial
	// nodes' slice (rounded up to 8 bytes), and 64 bytes of closures.
	garbage := R * (uint64(unsafe.Sizeof(Replication{})) + 4*uint64(max(c.Initial, 0)) + 8 + 64)
	return live + min(live, garbage)
}

// WorkerMemory returns the bytes one worker of Run or RunSummary needs for
// its replication in flight, the part of MemoryEstimate that grows with
// the workers. Per node: three bitsets of N/8 bytes (who holds d, who held
// it at a snapshot, who ever held it); the rounds schedule's permutation
// (4N, the worker's, reused by its next replication); the async schedule's
// phases and stamps (8N) and tick lists (4N, and as much again of spare
// capacity at most: append doubles), the worker's, reused, and a slice
// header a tick; the draw of the initial nodes (4N, counted
// twice, only when Initial > N/16: fewer are drawn on a sparse
// permutation); with FailFraction > 0 the list of live nodes (4N) and the
// draw's flags and candidates (6N, counted twice). The protocol adds its
// caches, N·c·4 bytes (int32 items) or N·c·2 (when n ≤ 65535), the
// worker's, which its next replication reuses (it overwrites them with its
// initial placement or its warm state), and two stamp arrays, 8·(n+1)
// bytes, new each replication (counted twice). Lumped keeps class counts only, 64 bytes. Measured:
// Markov at N = 2^26 under the rounds schedule, 4.375·2^26 bytes = 280 MiB
// estimated, 296 MiB peak resident (302616 KiB, the Go runtime and the
// binary included) for 12 replications on one worker; 12 workers, 3.37 GB
// (TestSimLargeNMemory). It does not validate c: negative fields count as
// 0.
func (c Config) WorkerMemory() uint64 {
	if c.Model == Lumped {
		return 64 // the class counts: a replication needs no per-node state
	}
	N := uint64(max(c.Nodes, 0))
	per := 3*bitsetBytes(c.Nodes) + c.scheduleBytes()
	if c.Initial > c.Nodes/16 {
		per += 2 * 4 * N
	}
	if c.FailFraction > 0 {
		per += 4*N + 2*6*N
	}
	if c.Model == Protocol {
		size := uint64(4)
		if narrowItems(c.Shuffle.Items) {
			size = 2
		}
		per += N*uint64(max(c.Shuffle.Cache, 0))*size + 2*8*uint64(max(c.Shuffle.Items, 0)+1)
	}
	return per
}

// scheduleBytes is what a worker's schedule keeps (WorkerMemory): the
// rounds schedule's permutation, 4N; the async schedule's phases and
// stamps, 8N, its tick lists, 4N and as much again of spare capacity at
// most (append doubles), and a slice header a tick; nothing for the
// continuous schedule.
func (c Config) scheduleBytes() uint64 {
	N := uint64(max(c.Nodes, 0))
	switch c.Schedule {
	case Rounds:
		return 4 * N
	case Async:
		return 16*N + 24*uint64(max(c.Ticks, 0))
	}
	return 0
}

// repBytes is the memory of one Replication of T rounds: the struct (its
// index, three slice headers, Alive and the counters, unsafe.Sizeof = 264 bytes)
// and three int32 trajectories of T+1 values, each an allocation rounded
// up to 8 bytes at least (Go's smallest size classes are 8 and 16 bytes;
// larger ones waste at most 1/8, counted here).
func repBytes(rounds int) uint64 {
	traj := uint64(4 * (rounds + 1))
	traj = max(8, (traj+7)/8*8) * 9 / 8
	return uint64(unsafe.Sizeof(Replication{})) + 3*traj
}

// DefaultWorkers is the number of CPUs.
func DefaultWorkers() int { return runtime.NumCPU() }
