package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/internal/flagval"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/sim"
)

// The CLI's machinery lives in internal/cli; these names keep commands short.
var (
	usagef    = cli.Usagef
	errFailed = cli.ErrFailed
)

func output(e *env, path string, write func(io.Writer) error) error {
	return cli.Output(e.Stdout, path, write)
}

func outputTable(e *env, path, format string, t *plots.Table) error {
	return cli.OutputTable(e.Stdout, path, format, t)
}

func buffered(e *env, path string, print func(io.Writer) error) error {
	return cli.Buffered(e.Stdout, path, print)
}

func newProgress(e *env, label string) gossip.Progress {
	return cli.NewProgress(e.Stderr, e.Terminal, label)
}

// The flag groups, each declared once.

// shuffleFlags declares -n, -c and (withS) -s, bound to sh, whose Go path
// in the command's Config is at; help from gossip's parameter table.
func shuffleFlags(fs *cli.FlagSet, sh *gossip.Shuffle, at string, withS bool) {
	params := []gossip.Param{gossip.Items, gossip.Cache, gossip.Exchange}
	for i, p := range []*int{&sh.Items, &sh.Cache, &sh.Exchange} {
		if i < 2 || withS {
			fs.IntField(p, params[i].Symbol, at+params[i].Field, params[i].Usage())
		}
	}
}

// pdropFlag declares --pdrop, the P_drop variant, bound to v and field.
func pdropFlag(fs *cli.FlagSet, v *approx.Variant, field string) {
	cli.Enum(fs, v, "pdrop", field, "P_drop variant")
}

// timeFlag declares --time, the clock of the model, among allowed.
func timeFlag(fs *cli.FlagSet, t *gossip.Time, field string, allowed ...gossip.Time) *cli.EnumValue[gossip.Time] {
	return cli.Enum(fs, t, "time", field, "time model (go doc ./gossip Time)", allowed...)
}

// lossFlag declares --loss, ε (gossip.Loss: its help; a value out of its
// range is refused by the library's Config.Loss, which names the flag),
// bound to field and, with dst, to *dst; with grid it also takes a grid
// LO:HI:STEP (plan). It returns the values given (0 by default).
func lossFlag(fs *cli.FlagSet, dst *float64, field string, grid bool) *[]float64 {
	vals := &[]float64{0}
	usage := gossip.Loss.Usage()
	if grid {
		usage += ", or (the shuffle, with --deadline) a grid LO:HI:STEP: each ε, and the largest ε each s tolerates"
	}
	cli.Parsed(fs, vals, "loss", field, usage, func(s string) ([]float64, error) {
		v, err := flagval.FloatRange(s)
		switch {
		case err != nil:
			return nil, err
		case len(v) > 1 && !grid:
			return nil, fmt.Errorf("%q: one value ε (%s)", s, gossip.Loss.Range)
		case dst != nil: // the range is the library's (Config.Loss)
			*dst = v[0]
		}
		return v, nil
	}, func(v []float64) string { return strings.Trim(fmt.Sprint(v), "[]") })
	return vals
}

// topologyFlag declares --topology (sim.ParseTopology's syntax), bound to
// t and Config.Topology.
func topologyFlag(fs *cli.FlagSet, t *sim.Topology, usage string) {
	cli.Parsed(fs, t, "topology", "Config.Topology", usage, func(s string) (sim.Topology, error) {
		t, err := sim.ParseTopology(s)
		return t, errors.Unwrap(err)
	}, sim.Topology.String)
}

// mcFlags declares the Monte Carlo settings that are not nil: --reps,
// --seed and --workers (checked by checkWorkers).
func mcFlags(fs *cli.FlagSet, reps *int, repsField string, seed *uint64, workers *int) {
	if reps != nil {
		fs.IntField(reps, "reps", repsField, "replications R (≥ 1)")
	}
	if seed != nil {
		fs.Uint64Var(seed, "seed", *seed, "random seed; replication r uses stream r of it")
	}
	if workers != nil {
		workersFlag(fs, workers)
	}
}

// workersFlag declares --workers, one per CPU by default (the help says
// so rather than this machine's count).
func workersFlag(fs *cli.FlagSet, p *int) {
	cli.Parsed(fs, p, "workers", "Settings.Workers", "worker goroutines (1..4096); the output does not depend on it", func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("%q: not an integer", s)
		}
		return n, nil
	}, func(n int) string { return map[bool]string{true: "one per CPU", false: strconv.Itoa(n)}[n == 0] })
	*p = sim.DefaultWorkers()
}

func checkWorkers(w int) error {
	if w < 1 || w > 4096 {
		return usagef("--workers %d: valid range 1..4096", w)
	}
	return nil
}
