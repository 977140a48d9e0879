package main

import (
	"context"
	"errors"

	"io"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/report"
	"github.com/gossipkit/gossipkit/sim"
)

// simFlags parses the experiment flags shared by sim (and its shards).
type simFlags struct {
	model, schedule, topology, pdrop *string
	cfg                              sim.Config
	seed                             *uint64
	workers                          *int
}

func addSimFlags(fs interface {
	Int(string, int, string) *int
	IntVar(*int, string, int, string)
	String(string, string, string) *string
	Uint64(string, uint64, string) *uint64
	BoolVar(*bool, string, bool, string)
	Float64Var(*float64, string, float64, string)
}) *simFlags {
	d := sim.DefaultConfig()
	f := &simFlags{cfg: d}
	f.model = fs.String("model", "protocol", "what to simulate: protocol, markov, or lumped (markov's law on class counts, event by event: continuous schedule, full topology, no --fail)")
	fs.IntVar(&f.cfg.Nodes, "N", d.Nodes, "number of nodes N (≥ 2)")
	fs.IntVar(&f.cfg.Shuffle.Items, "n", d.Shuffle.Items, "number of distinct items n (≥ c)")
	fs.IntVar(&f.cfg.Shuffle.Cache, "c", d.Shuffle.Cache, "cache size c (1 ≤ c ≤ n)")
	fs.IntVar(&f.cfg.Shuffle.Exchange, "s", d.Shuffle.Exchange, "exchange size s (1 ≤ s ≤ c, s < n)")
	fs.IntVar(&f.cfg.Warmup, "warmup", d.Warmup, "warm-up rounds W before d is inserted (≥ 0; protocol only)")
	fs.IntVar(&f.cfg.Rounds, "rounds", d.Rounds, "rounds T observed after the insertion (≥ 1)")
	fs.IntVar(&f.cfg.Reps, "reps", d.Reps, "replications R (≥ 1)")
	fs.IntVar(&f.cfg.Initial, "initial", 1, "copies of d at t = 0, placed at distinct random nodes (1..N)")
	fs.IntVar(&f.cfg.Ticks, "ticks", d.Ticks, "ticks per round of the async schedule (≥ 2)")
	f.seed = fs.Uint64("seed", 1, "random seed; replication r uses stream r of it")
	f.workers = fs.Int("workers", sim.DefaultWorkers(), "worker goroutines (≥ 1); the output does not depend on it")
	f.schedule = fs.String("schedule", "rounds", "rounds, async or continuous (see `go doc ./sim`)")
	f.topology = fs.String("topology", "full", "full, regular:DEG or torus:RADIUS")
	f.pdrop = fs.String("pdrop", "simplified", "P_drop variant of the markov and lumped models: simplified, gamma or exact")
	fs.BoolVar(&f.cfg.Check, "check", false, "verify the protocol's invariants after every shuffle (slow)")
	fs.Float64Var(&f.cfg.FailFraction, "fail", 0, "fraction of the nodes, in [0, 1), that fail at t = 0 right after d is inserted (not its holders; full topology)")
	return f
}

// config resolves the string flags; errors are usage errors naming the flag.
func (f *simFlags) config() (sim.Config, int, error) {
	cfg := f.cfg
	var err error
	if cfg.Model, err = sim.ParseModel(*f.model); err != nil {
		return cfg, 0, usagef("--model %q: valid values are protocol, markov, lumped", *f.model)
	}
	if cfg.Schedule, err = sim.ParseSchedule(*f.schedule); err != nil {
		return cfg, 0, usagef("--schedule %q: valid values are rounds, async, continuous", *f.schedule)
	}
	if cfg.Topology, err = sim.ParseTopology(*f.topology); err != nil {
		return cfg, 0, usagef("--topology %v", errors.Unwrap(err))
	}
	if cfg.PDrop, err = approx.ParseVariant(*f.pdrop); err != nil {
		return cfg, 0, usagef("--pdrop %q: valid values are simplified, gamma, exact", *f.pdrop)
	}
	cfg.Seed = *f.seed
	if *f.workers < 1 || *f.workers > 4096 {
		return cfg, 0, usagef("--workers %d: valid range 1..4096", *f.workers)
	}
	if err := checkSimConfig(cfg, *f.workers); err != nil {
		return cfg, 0, err
	}
	return cfg, *f.workers, nil
}

// checkSimConfig validates cfg and checks that a run with `workers`
// replications in flight fits in the memory the machine has available.
func checkSimConfig(cfg sim.Config, workers int) error {
	if err := cfg.Validate(); err != nil {
		return usagef("%v", fieldUsage(err, fieldFlags))
	}
	need := cfg.MemoryEstimate(workers)
	if avail := cli.AvailableMemory(); avail > 0 && need > avail {
		if topo := cfg.MemoryEstimate(workers) - (sim.Config{Nodes: cfg.Nodes, Shuffle: cfg.Shuffle, Model: cfg.Model, Rounds: cfg.Rounds, Reps: cfg.Reps}).MemoryEstimate(workers); topo > need/2 {
			return usagef("--topology %v with -N %d: building the graph needs about %s of memory, the machine has %s available", cfg.Topology, cfg.Nodes, cli.Bytes(topo), cli.Bytes(avail))
		}
		return usagef("-N %d with n = %d, c = %d: the run needs about %s of memory, the machine has %s available",
			cfg.Nodes, cfg.Shuffle.Items, cfg.Shuffle.Cache, cli.Bytes(need), cli.Bytes(avail))
	}
	return nil
}

func cmdSim(ctx context.Context, e *env, args []string) error {
	fs := newFlags("sim")
	f := addSimFlags(fs)
	format := fs.String("format", "csv", "output format: csv (per-round table), json, text or markdown (summary and table)")
	out := fs.String("o", "", "write to FILE instead of standard output (atomically)")
	shardFlag := fs.String("shard", "", "run only shard I/M (replications r with r mod M = I−1) and write a part file for `gossipkit merge` to -o (a file, or a directory ending in /)")
	shards := fs.Int("shards", 0, "number of shards M when the shard index comes from JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX (Slurm: SLURM_ARRAY_TASK_COUNT)")
	ignoreEnv := fs.Bool("no-scheduler-env", false, "ignore JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID and AWS_BATCH_JOB_ARRAY_INDEX")
	if err := parseFormatted(fs, e, args, format); err != nil {
		return err
	}
	cfg, workers, err := f.config()
	if err != nil {
		return err
	}
	if err := checkShards(fs, *shards); err != nil {
		return err
	}
	sh, note, err := resolveShard(e, *shardFlag, *out, *shards, !*ignoreEnv)
	if err != nil {
		return err
	}
	if err := shardsUsed(*shards, sh); err != nil {
		return err
	}
	set := sim.Settings{Workers: workers, Progress: newProgress(e, "sim")}
	if sh != nil {
		return runShard(ctx, e, cfg, set, sh, *out, note)
	}
	res, err := sim.Run(ctx, cfg, set)
	if err != nil {
		return fieldUsage(err, fieldFlags)
	}
	return writeSimResult(e, res, *format, *out)
}

// writeSimResult prints a result in the chosen format to -o FILE or stdout.
func writeSimResult(e *env, res *sim.Result, format, path string) error {
	return output(e, path, func(w io.Writer) error { return report.WriteSim(w, res, format) })
}
