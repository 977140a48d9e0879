package main

import (
	"context"
	"io"

	"github.com/gossipkit/gossipkit/internal/serve"
)

// cmdServe serves the one-page explorer and its API (package
// internal/serve, which holds the command's flags and server) until
// SIGINT or SIGTERM: requests in flight are cancelled, the server stops,
// and the command exits 130 or 143.
func cmdServe(ctx context.Context, e *env, args []string) error {
	fs := newFlags("serve")
	f := serve.AddFlags(fs)
	if err := parseEnv(fs, e, args); err != nil {
		return err
	}
	return serve.Command(ctx, e.stderr, f, serveRunner())
}

// serveRunner runs a command line in this process, as the CLI would, with
// no scheduler environment (a request never becomes a shard run); a
// command shows progress when the server asks for it.
func serveRunner() serve.Runner {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		return runEnv(ctx, &env{stdout: stdout, stderr: stderr, getenv: func(string) string { return "" }, terminal: serve.WantsProgress(stderr)}, args)
	}
}
