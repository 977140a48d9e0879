package main

import (
	"context"
	"io"

	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/internal/serve"
)

// serve registers itself (program.Commands is the command table of
// main.go).
func init() {
	program.Commands = append(program.Commands, &cli.Command{
		Name: "serve", Short: "serve the one-page explorer and its API (the answers of plan, ode, sim, pdrop) on loopback", Flags: cmdServe,
	})
}

// cmdServe serves the one-page explorer and its API (package
// internal/serve, which holds the command's flags and server) until
// SIGINT or SIGTERM: requests in flight are cancelled, the server stops,
// and the command exits 130 or 143.
func cmdServe(fs *cli.FlagSet) cli.Run {
	f := serve.AddFlags(fs.FlagSet)
	return func(ctx context.Context, e *env) error { return serve.Command(ctx, e.Stderr, f, serveRunner()) }
}

// serveRunner runs a command line in this process, as the CLI would, with
// no scheduler environment (a request never becomes a shard run); a
// command shows progress when the server asks for it (runArgs with a
// terminal when progress is wanted).
func serveRunner() serve.Runner {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		return runEnv(ctx, &env{Stdout: stdout, Stderr: stderr, Getenv: func(string) string { return "" }, Terminal: serve.WantsProgress(stderr)}, args)
	}
}
