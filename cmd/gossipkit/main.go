// Command gossipkit computes, simulates and plots information dissemination
// in gossip shuffle protocols and spanning-tree notification systems.
//
// Usage:
//
//	gossipkit <command> [flags]
//
// Run "gossipkit help" for the list of commands and "gossipkit help <command>"
// for the flags of one.
//
// # Contract
//
// Bad input: exit 2, nothing on stdout, one line on stderr naming the flag
// and the valid range; every flag, a flag given twice and -o are checked
// before any work. SIGINT and SIGTERM: the command stops at its next check,
// prints one line and exits 130 or 143, leaving no partial or temporary
// file and no output folder it created. Exit 1: a verified check failed
// (gamma-check) or an internal error. Every command that prints a table
// takes --format text|json|csv|markdown and -o FILE (written atomically);
// CSV and JSON carry numbers (mean ± sd as two columns, a missing quantity
// as an empty cell or null). Progress shows on stderr only when it is a
// terminal.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/gossipkit/gossipkit/internal/buildinfo"
	"github.com/gossipkit/gossipkit/internal/cli"
)

// version is the toolkit's version, printed by "gossipkit version".
const version = buildinfo.Version

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// command is one subcommand of the CLI.
type command struct {
	name    string
	summary string
	// run executes the command; it returns a *usageError for bad input.
	run func(ctx context.Context, env *env, args []string) error
}

// env is what a command sees of the outside world.
type env struct {
	stdout, stderr io.Writer
	// getenv reads environment variables (scheduler index variables).
	getenv func(string) string
	// terminal reports whether stderr is a terminal (progress is shown then).
	terminal bool
}

// commands are the subcommands, by name (help lists them sorted).
func commands() map[string]*command {
	m := map[string]*command{}
	for _, c := range []*command{
		{name: "pdrop", summary: "exact drop probability: formula (1), γ form, simplified, enumeration", run: cmdPDrop},
		{name: "gamma-check", summary: "verify the γ form against formula (1) on a grid", run: cmdGammaCheck},
		{name: "transitions", summary: "the 4×4 transition matrix of one item in one shuffle (Fig. 1)", run: cmdTransitions},
		{name: "ode", summary: "integrate replication x(t) and coverage y(t); compare with the closed forms", run: cmdODE},
		{name: "optimal", summary: "the optimal exchange size s* and its integer counterparts", run: cmdOptimal},
		{name: "chain", summary: "the pairwise model solved exactly: laws of x(t), y(t) and of the time to a coverage level", run: cmdChain},
		{name: "plan", summary: "design answers: the law of the time to coverage L at any N, P(T ≤ D), the best exchange size s", run: cmdPlan},
		{name: "sim", summary: "Monte Carlo of the shuffle protocol or its pairwise-Markov model", run: cmdSim},
		{name: "merge", summary: "combine the part files of a sharded sim or tree run, exactly", run: cmdMerge},
		{name: "tree", summary: "spanning-tree notification simulator: build, fail, sweep", run: cmdTree},
		{name: "plot", summary: "draw one figure (fig4, fig7, fig8, optimal) with custom parameters", run: cmdPlot},
		{name: "reproduce", summary: "regenerate the paper's results: figures, tables and REPORT.md", run: cmdReproduce},
		{name: "serve", summary: "serve the one-page explorer and its API (the answers of plan, ode, sim, pdrop) on loopback", run: cmdServe},
		{name: "version", summary: "print the version", run: cmdVersion},
	} {
		m[c.name] = c
	}
	return m
}

func run(args []string, stdout, stderr io.Writer) int {
	name := "gossipkit"
	if len(args) > 0 {
		name += " " + args[0]
	}
	ctx, stop := cli.WithSignals(context.Background(), stderr, name)
	defer stop()
	e := &env{stdout: stdout, stderr: stderr, getenv: os.Getenv, terminal: cli.IsTerminal(stderr)}
	return runEnv(ctx, e, args)
}

// runCommand runs one command (runEnv adds the checks of its output).
func runCommand(ctx context.Context, e *env, args []string) int {
	cmds := commands()
	if len(args) == 0 {
		printHelp(e.stderr, cmds)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(args) > 1 && args[1] != "help" {
			c, ok := cmds[args[1]]
			if !ok {
				fmt.Fprintf(e.stderr, "gossipkit help: unknown command %q (valid: %s)\n", args[1], strings.Join(names(cmds), ", "))
				return 2
			}
			// help plot fig7, help tree fail: the subcommand's flags.
			sub := append(append([]string{}, args[2:]...), "-h")
			err := c.run(ctx, &env{stdout: e.stdout, stderr: e.stdout, getenv: e.getenv}, sub)
			var ue *usageError
			if errors.As(err, &ue) {
				fmt.Fprintf(e.stderr, "gossipkit help %s: %v\n", args[1], ue)
				return 2
			}
			return 0
		}
		printHelp(e.stdout, cmds)
		return 0
	}
	c, ok := cmds[name]
	if !ok {
		fmt.Fprintf(e.stderr, "gossipkit: unknown command %q (valid: %s)\n", name, strings.Join(names(cmds), ", "))
		return 2
	}
	err := c.run(ctx, e, args[1:])
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "gossipkit %s: %v\n", name, ue)
		return 2
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		code, what := cli.Interrupted(ctx)
		cli.Final(func() { fmt.Fprintf(e.stderr, "gossipkit %s: %s; no output written\n", name, what) })
		return code
	case errors.Is(err, errFailed):
		return 1
	default:
		fmt.Fprintf(e.stderr, "gossipkit %s: %v\n", name, err)
		return 1
	}
}

func names(cmds map[string]*command) []string { return slices.Sorted(maps.Keys(cmds)) }

func printHelp(w io.Writer, cmds map[string]*command) {
	fmt.Fprintf(w, "gossipkit %s: numerical analysis of information dissemination in peer-to-peer systems\n\nUsage: gossipkit <command> [flags]\n\nCommands:\n", version)
	for _, n := range names(cmds) {
		fmt.Fprintf(w, "  %-12s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintf(w, "  %-12s %s\n\nEvery command takes --format text|json|csv|markdown where it prints a table.\n", "help", "help [command]: the flags of one command")
}

func cmdVersion(_ context.Context, e *env, args []string) error {
	fs := newFlags("version")
	if err := parseEnv(fs, e, args); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "gossipkit %s\n", version)
	return nil
}
