package main

import (
	"io"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/plots"
)

// The CLI's machinery lives in internal/cli; these names keep commands short.
var (
	usagef       = cli.Usagef
	errFailed    = cli.ErrFailed
	pdropFlag    = cli.PDropFlag
	timeFlag     = cli.TimeFlag
	topologyFlag = cli.TopologyFlag
)

func output(e *env, path string, write func(io.Writer) error) error {
	return cli.Output(e, path, write)
}

func outputTable(e *env, path, format string, t *plots.Table) error {
	return cli.OutputTable(e, path, format, t)
}

func buffered(e *env, path string, print func(io.Writer) error) error {
	return cli.Buffered(e, path, print)
}

func newProgress(e *env, label string) gossip.Progress {
	return cli.Progress(e, label)
}
