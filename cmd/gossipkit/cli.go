package main

import (
	"errors"
	"io"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/cli"
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

// pdropFlag declares --pdrop, the P_drop variant, bound to v and field.
func pdropFlag(fs *cli.FlagSet, v *approx.Variant, field string) {
	cli.Enum(fs, v, "pdrop", field, "P_drop variant")
}

// timeFlag declares --time, the clock of the model, among allowed.
func timeFlag(fs *cli.FlagSet, t *gossip.Time, field string, allowed ...gossip.Time) *cli.EnumValue[gossip.Time] {
	return cli.Enum(fs, t, "time", field, "time model (go doc ./gossip Time)", allowed...)
}

// topologyFlag declares --topology (sim.ParseTopology's syntax), bound to
// t and Config.Topology.
func topologyFlag(fs *cli.FlagSet, t *sim.Topology, usage string) {
	cli.Parsed(fs, t, "topology", "Config.Topology", usage, func(s string) (sim.Topology, error) {
		t, err := sim.ParseTopology(s)
		return t, errors.Unwrap(err)
	}, sim.Topology.String)
}
