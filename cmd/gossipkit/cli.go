package main

import (
	"errors"
	"flag"
	"io"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/sim"
)

// The CLI's machinery lives in internal/cli; these names keep commands short.
type usageError = cli.UsageError

var (
	usagef    = cli.Usagef
	errHelp   = cli.ErrHelp
	errFailed = cli.ErrFailed
	newFlags  = cli.NewFlags
	outFlag   = cli.OutFlag
)

func parseEnv(fs *flag.FlagSet, e *env, args []string) error { return cli.Parse(fs, e.stdout, args) }

func parseFormatted(fs *flag.FlagSet, e *env, args []string, format *string) error {
	return cli.ParseFormatted(fs, e.stdout, args, format)
}

func output(e *env, path string, write func(io.Writer) error) error {
	return cli.Output(e.stdout, path, write)
}

func outputTable(e *env, path, format string, t *plots.Table) error {
	return cli.OutputTable(e.stdout, path, format, t)
}

func buffered(e *env, path string, print func(io.Writer) error) error {
	return cli.Buffered(e.stdout, path, print)
}

func newProgress(e *env, label string) gossip.Progress {
	return cli.NewProgress(e.stderr, e.terminal, label)
}

// fieldFlags maps the fields library errors name (sim, chain) to flags.
var fieldFlags = map[string]string{
	"Config.Nodes": "-N", "Config.Items": "-n", "Config.Cache": "-c", "Config.Exchange": "-s",
	"Config.Shuffle.Items": "-n", "Config.Shuffle.Cache": "-c", "Config.Shuffle.Exchange": "-s",
	"Config.TMax": "--t-max", "Config.Dt": "--dt", "Config.Level": "--level",
	"Config.Warmup": "--warmup", "Config.Rounds": "--rounds", "Config.Reps": "--reps",
	"Config.Initial": "--initial", "Config.Ticks": "--ticks", "Config.FailFraction": "--fail",
	"Config.Topology": "--topology", "Settings.Workers": "--workers", "Config.Model": "--model",
}

// treeFieldFlags maps tree.Config and tree.Experiment fields to flags.
var treeFieldFlags = map[string]string{
	"Config.Nodes": "-N", "Config.Degree": "--degree", "Config.FailFraction": "--fraction", "Experiment.Seeds": "--seeds",
}

// fieldUsage turns a library error that names a field (field + " " + msg)
// into a usage error that names its flag; other errors pass unchanged.
func fieldUsage(err error, flags map[string]string) error {
	var fe *sim.FieldError // = tree.FieldError = chain.FieldError
	if errors.As(err, &fe) {
		return usagef("%s %s", flagOf(fe.Field, flags), fe.Msg)
	}
	return err
}

func flagOf(field string, flags map[string]string) string {
	if f, ok := flags[field]; ok {
		return f
	}
	return field // a field the CLI has no flag for
}
