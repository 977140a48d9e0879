package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/gossipkit/gossipkit/internal/atomicfile"
	"github.com/gossipkit/gossipkit/internal/cli"
)

// runEnv runs a command with its output checked, whatever the command does
// with write errors: stdout keeps its first write error, which turns exit 0
// into exit 1 with one line on stderr (the text and Markdown tables, for
// one, ignore their writer's errors); after a signal nothing more is
// written to it. A run that does not succeed removes every folder it
// created (a part folder, the parents of --out) and every temporary file
// still in place.
//
// A closed standard output cannot be detected: the Go runtime reopens a
// closed descriptor 0, 1 or 2 on /dev/null before main runs, so output to
// a closed stdout is discarded as with >/dev/null.
func runEnv(ctx context.Context, e *env, args []string) int {
	defer atomicfile.Reset()
	cli.ResetFinal()
	stdout := &cli.Stdout{Ctx: ctx, W: e.stdout}
	checked := *e
	checked.stdout = stdout
	code := runCommand(ctx, &checked, args)
	if code == 0 && stdout.Err != nil {
		name := "gossipkit"
		if len(args) > 0 {
			name += " " + args[0]
		}
		if errors.Is(stdout.Err, context.Canceled) {
			c, what := cli.Interrupted(ctx)
			cli.Final(func() { fmt.Fprintf(e.stderr, "%s: %s; no output written\n", name, what) })
			code = c
		} else {
			fmt.Fprintf(e.stderr, "%s: writing the output: %v\n", name, stdout.Err)
			code = 1
		}
	}
	if code != 0 {
		atomicfile.Cleanup()
	}
	return code
}
