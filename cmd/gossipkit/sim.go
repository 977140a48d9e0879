package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/report/tables"
	"github.com/gossipkit/gossipkit/sim"
)

// simFlags declares the experiment flags of sim, bound to cfg's fields.
func simFlags(fs *cli.FlagSet, cfg *sim.Config, workers *int) {
	*cfg = sim.DefaultConfig()
	cfg.Initial = 1
	cli.Enum(fs, &cfg.Model, "model", "Config.Model", "what to simulate (lumped: markov's law on class counts, event by event: continuous schedule, full topology, no --fail)")
	fs.IntParam(&cfg.Nodes, "N", "Config", sim.Nodes)
	cli.ShuffleFlags(fs, &cfg.Shuffle, "Config.", true)
	fs.IntParam(&cfg.Warmup, "warmup", "Config", sim.Warmup, "protocol only")
	fs.IntParam(&cfg.WarmStates, "warm-states", "Config", sim.WarmStates, "protocol only; 0: each replication warms its own caches")
	fs.IntParam(&cfg.Rounds, "rounds", "Config", sim.RoundsObserved)
	fs.IntParam(&cfg.Initial, "initial", "Config", sim.Initial)
	fs.IntParam(&cfg.Ticks, "ticks", "Config", sim.Ticks)
	cfg.Seed = 1
	cli.MCFlags(fs, &cfg.Reps, "Config", sim.Reps, &cfg.Seed, workers, sim.DefaultWorkers())
	cli.Enum(fs, &cfg.Schedule, "schedule", "Config.Schedule", "schedule (see `go doc ./sim`)")
	topologyFlag(fs, &cfg.Topology, "full, regular:DEG or torus:RADIUS")
	cli.LossFlag(fs, &cfg.Loss, "Config.Loss", false)
	pdropFlag(fs, &cfg.PDrop, "Config.PDrop")
	fs.BoolVar(&cfg.Check, "check", false, "verify the protocol's invariants after every shuffle (slow)")
	fs.FloatParam(&cfg.FailFraction, "fail", "Config", sim.FailFraction, "full topology")
}

func cmdSim(fs *cli.FlagSet) cli.Run {
	var cfg sim.Config
	var workers int
	simFlags(fs, &cfg, &workers)
	format, out := fs.Output("csv")
	var maxMemory uint64
	cli.MaxMemoryFlag(fs, &maxMemory)
	sh := cli.ShardFlags(fs, "run only shard I/M (replications r with r mod M = I−1) and write a part file for `gossipkit merge` to -o (a file, or a directory ending in /)")
	return func(ctx context.Context, e *env) error {
		if err := cli.CheckWorkers(workers); err != nil {
			return err
		}
		// Validate, then the memory: with one worker the run must fit in
		// --max-memory (or what the machine has); the workers are lowered
		// to what fits (the output does not depend on them): within
		// --max-memory, or else within cli.WorkerMemory, so that the
		// memory does not grow with --workers.
		id, note, err := sh.Resolve(e, fs.FlagSet, *out)
		if err != nil {
			return err
		}
		// A shard keeps its replications (its part file holds them); a
		// whole run streams them into the statistics (RunSummary), so its
		// memory does not grow with --reps.
		need, check, fit := cfg.SummaryMemoryEstimate, cfg.CheckSummaryMemory, cfg.FitSummaryWorkers
		if id != nil {
			need, check, fit = cfg.MemoryEstimate, cfg.CheckMemory, cfg.FitWorkers
		}
		budget := sim.AvailableMemory()
		if maxMemory > 0 {
			if err := cfg.Validate(); err != nil {
				return err
			}
			if need := need(1); need > maxMemory {
				return usagef("--max-memory %s: the run needs about %s with one worker; lower -N, --reps or --rounds, or raise --max-memory", cli.FormatBytes(maxMemory), cli.FormatBytes(need))
			}
			budget = maxMemory
		} else if err := check(1, budget); err != nil {
			return err
		}
		share, why := budget, ""
		if maxMemory == 0 && (budget == 0 || budget > cli.WorkerMemory) {
			share, why = cli.WorkerMemory, ", what the workers share without --max-memory"
		}
		switch w := fit(workers, share); {
		case w == 0 && workers > 1:
			// Only without --max-memory (one worker fits the budget,
			// checked above): one runs, as it fits what the machine has.
			fmt.Fprintf(e.Stderr, "gossipkit sim: --workers %d lowered to 1: one replication in flight needs about %s, more than the %s the workers share without --max-memory (the output does not depend on the workers)\n",
				workers, cli.FormatBytes(need(1)), cli.FormatBytes(share))
			workers = 1
		case w > 0 && w < workers:
			fmt.Fprintf(e.Stderr, "gossipkit sim: --workers %d lowered to %d to stay within %s of memory%s (the run needs about %s; the output does not depend on the workers)\n",
				workers, w, cli.FormatBytes(share), why, cli.FormatBytes(need(w)))
			workers = w
		}
		// Under a deadline (serve), a run that cannot end in time is refused at once.
		if err := cli.CheckTime(ctx, cfg.MinCPUSeconds(), workers, fmt.Sprintf("the simulation (%d replications of %d rounds at N = %d)", cfg.Reps, cfg.Rounds+cfg.Warmup, cfg.Nodes), "--reps, --rounds or -N"); err != nil {
			return err
		}
		set := sim.Settings{Workers: workers, Progress: newProgress(e, "sim")}
		if id != nil {
			return runShard(ctx, e, cfg, set, id, *out, note)
		}
		res, err := sim.RunSummary(ctx, cfg, set)
		if err != nil {
			return err
		}
		return writeSimResult(e, res, *format, *out)
	}
}

// writeSimResult prints a result in the chosen format to -o FILE or stdout.
func writeSimResult(e *env, res *sim.Result, format, path string) error {
	return output(e, path, func(w io.Writer) error { return tables.WriteSim(w, res, format) })
}
