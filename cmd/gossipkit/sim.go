package main

import (
	"context"

	"fmt"
	"io"
	"strconv"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/plots"
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
	f.model = fs.String("model", "protocol", "what to simulate: protocol or markov")
	fs.IntVar(&f.cfg.Nodes, "N", d.Nodes, "number of nodes N (≥ 2)")
	fs.IntVar(&f.cfg.Items, "n", d.Items, "number of distinct items n (≥ c)")
	fs.IntVar(&f.cfg.Cache, "c", d.Cache, "cache size c (1 ≤ c ≤ n)")
	fs.IntVar(&f.cfg.Exchange, "s", d.Exchange, "exchange size s (1 ≤ s ≤ c, s < n)")
	fs.IntVar(&f.cfg.Warmup, "warmup", d.Warmup, "warm-up rounds W before d is inserted (≥ 0; protocol only)")
	fs.IntVar(&f.cfg.Rounds, "rounds", d.Rounds, "rounds T observed after the insertion (≥ 1)")
	fs.IntVar(&f.cfg.Reps, "reps", d.Reps, "replications R (≥ 1)")
	fs.IntVar(&f.cfg.Initial, "initial", 1, "copies of d at t = 0, placed at distinct random nodes (1..N)")
	fs.IntVar(&f.cfg.Ticks, "ticks", d.Ticks, "ticks per round of the async schedule (≥ 2)")
	f.seed = fs.Uint64("seed", 1, "random seed; replication r uses stream r of it")
	f.workers = fs.Int("workers", sim.DefaultWorkers(), "worker goroutines (≥ 1); the output does not depend on it")
	f.schedule = fs.String("schedule", "rounds", "rounds, async or continuous (see `go doc ./sim`)")
	f.topology = fs.String("topology", "full", "full, regular:DEG or torus:RADIUS")
	f.pdrop = fs.String("pdrop", "simplified", "P_drop variant of the markov model: simplified, gamma or exact")
	fs.BoolVar(&f.cfg.Check, "check", false, "verify the protocol's invariants after every shuffle (slow)")
	fs.Float64Var(&f.cfg.FailFraction, "fail", 0, "fraction of the nodes, in [0, 1), that fail at t = 0 right after d is inserted (not its holders; full topology)")
	return f
}

// config resolves the string flags; errors are usage errors naming the flag.
func (f *simFlags) config() (sim.Config, int, error) {
	cfg := f.cfg
	var err error
	if cfg.Model, err = sim.ParseModel(*f.model); err != nil {
		return cfg, 0, usagef("--model %q: valid values are protocol, markov", *f.model)
	}
	if cfg.Schedule, err = sim.ParseSchedule(*f.schedule); err != nil {
		return cfg, 0, usagef("--schedule %q: valid values are rounds, async, continuous", *f.schedule)
	}
	if cfg.Topology, err = sim.ParseTopology(*f.topology); err != nil {
		return cfg, 0, usagef("--topology %v", err)
	}
	if cfg.PDrop, err = approx.ParseVariant(*f.pdrop); err != nil {
		return cfg, 0, usagef("--pdrop %q: valid values are simplified, gamma, exact", *f.pdrop)
	}
	cfg.Seed = *f.seed
	if *f.workers < 1 || *f.workers > 4096 {
		return cfg, 0, usagef("--workers %d: valid range 1..4096", *f.workers)
	}
	if err := cfg.Validate(*f.workers); err != nil {
		return cfg, 0, usagef("%v", fieldUsage(err, fieldFlags))
	}
	return cfg, *f.workers, nil
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
	if *shards < 0 || *shards > shard.MaxCount {
		return usagef("--shards %d: valid range 1..%d", *shards, shard.MaxCount)
	}
	sh, err := resolveShard(e, *shardFlag, *shards, !*ignoreEnv)
	if err != nil {
		return err
	}
	opt := sim.Options{Workers: workers}
	prog := newProgress(e, "sim")
	opt.Progress = prog.update
	if sh != nil {
		return runShard(ctx, e, cfg, opt, sh, *out)
	}
	res, err := sim.Run(ctx, cfg, opt)
	if err != nil {
		return fieldUsage(err, fieldFlags)
	}
	return writeSimResult(e, res, *format, *out)
}

// writeSimResult prints a result in the chosen format to -o FILE or stdout.
func writeSimResult(e *env, res *sim.Result, format, path string) error {
	return output(e, path, func(w io.Writer) error { return renderSim(w, res, format) })
}

// roundsTable is the per-round table: mean, sd and 5/50/95 % quantiles of
// x and y over the replications, as fractions of N.
func roundsTable(res *sim.Result) *plots.Table {
	t := &plots.Table{Keys: []string{"t", "x_mean", "x_sd", "y_mean", "y_sd", "x_q05", "x_q50", "x_q95", "y_q05", "y_q50", "y_q95"}}
	for _, r := range res.Summary() {
		t.Rows = append(t.Rows, []any{r.T, r.XMean, r.XSD, r.YMean, r.YSD, r.XQ05, r.XQ50, r.XQ95, r.YQ05, r.YQ50, r.YQ95})
	}
	return t
}

func renderSim(w io.Writer, res *sim.Result, format string) error {
	t := roundsTable(res)
	if format == "csv" {
		return t.Write(w, "csv")
	}
	m := res.Measure()
	c := res.Config
	var pdrop any // null for the Markov model, which draws drops from the model
	if c.Model == sim.Protocol {
		pdrop = m.PDrop
	}
	sum := res.Summary()
	last := sum[len(sum)-1]
	if format == "json" {
		params := &plots.Table{Single: true, Keys: []string{"model", "N", "n", "c", "s", "warmup", "rounds", "reps", "seed", "initial", "schedule", "topology", "connected"},
			Rows: [][]any{{c.Model.String(), c.Nodes, c.Items, c.Cache, c.Exchange, c.Warmup, c.Rounds, c.Reps, strconv.FormatUint(c.Seed, 10), c.Initial, c.Schedule.String(), c.Topology.String(), res.Connected}}}
		trans := &plots.Table{Keys: []string{"from", "to", "measured", "model"}}
		for i := 1; i < 4; i++ {
			for j := range 4 {
				trans.Rows = append(trans.Rows, []any{approx.State(i).String(), approx.State(j).String(), m.Trans[i][j], m.TransModel[i][j]})
			}
		}
		meas := &plots.Table{Single: true, Keys: []string{"p_select", "p_select_model", "p_drop", "p_drop_simplified", "p_drop_formula1", "shuffles", "failed_attempts", "x_mean_final", "y_mean_final"},
			Rows: [][]any{{m.PSelect, m.PSelectModel, pdrop, m.PDropSimplified, m.PDropFormula1, m.Shuffles, m.Failed, last.XMean, last.YMean}}}
		fmt.Fprint(w, "{\n\"parameters\": ")
		if err := params.Write(w, "json"); err != nil {
			return err
		}
		fmt.Fprint(w, ",\n\"measured\": ")
		if err := meas.Write(w, "json"); err != nil {
			return err
		}
		fmt.Fprint(w, ",\n\"transitions\": ")
		if err := trans.Write(w, "json"); err != nil {
			return err
		}
		fmt.Fprint(w, ",\n\"rounds\": ")
		if err := t.Write(w, "json"); err != nil {
			return err
		}
		_, err := fmt.Fprint(w, "}\n")
		return err
	}
	// text and markdown: a summary, then the table.
	fmt.Fprintf(w, "%s simulation: N=%d n=%d c=%d s=%d, %d warm-up + %d rounds, %d replications, seed %d, %s schedule, %s topology\n\n",
		c.Model, c.Nodes, c.Items, c.Cache, c.Exchange, c.Warmup, c.Rounds, c.Reps, c.Seed, c.Schedule, c.Topology)
	if !res.Connected {
		fmt.Fprintln(w, "warning: the topology is not connected; coverage cannot reach every node")
	}
	fmt.Fprintf(w, "steady state x = c/n = %.6g predicted; x_mean(T) = %.6g ± %.2g (sd over replications); y_mean(T) = %.6g\n",
		float64(c.Cache)/float64(c.Items), last.XMean, last.XSD, last.YMean)
	fmt.Fprintf(w, "P_select: measured %.6g, model s/c = %.6g\n", m.PSelect, m.PSelectModel)
	if pdrop != nil {
		fmt.Fprintf(w, "P_drop (per item of S_B \\ S_A): measured %.6g; simplified (n−c)/(n−s) = %.6g; formula (1) = %.6g\n", m.PDrop, m.PDropSimplified, m.PDropFormula1)
	}
	if c.Schedule == sim.Async {
		fmt.Fprintf(w, "async: %d shuffles, %d failed attempts (%.3g%%)\n", m.Shuffles, m.Failed, 100*float64(m.Failed)/float64(m.Failed+m.Shuffles))
	}
	fmt.Fprintln(w, "\nTransitions of d in shuffles (measured / model with simplified P_drop):")
	for i := 1; i < 4; i++ {
		fmt.Fprintf(w, "  from %v:", approx.State(i))
		for j := range 4 {
			fmt.Fprintf(w, "  →%v %.4f/%.4f", approx.State(j), m.Trans[i][j], m.TransModel[i][j])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	if format == "text" {
		// Every step-th round keeps the text readable; csv has all.
		step := max(1, c.Rounds/20)
		thin := &plots.Table{Keys: t.Keys}
		for i, row := range t.Rows {
			if i%step == 0 || i == len(t.Rows)-1 {
				thin.Rows = append(thin.Rows, row)
			}
		}
		fmt.Fprintf(w, "Per round (every %d rounds; --format csv for all):\n", step)
		t = thin
	}
	return t.Write(w, format)
}
