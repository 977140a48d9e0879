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
// before any work. Integers are decimal (-N 010 is ten, 0x10 is refused);
// a real that underflows (1e-400) is refused, not read as 0; an empty
// -o "" or --out "" is refused, not read as not given. SIGINT and SIGTERM: the command stops at its next check,
// prints one line and exits 130 or 143, leaving no partial or temporary
// file and no output folder it created. Exit 1: a verified check failed
// (gamma-check) or an internal error. Every command that prints a table
// takes --format text|json|csv|markdown and -o FILE (written atomically);
// CSV and JSON carry numbers (mean ± sd as two columns, a missing quantity
// as an empty cell or null). Progress: a bar with rate and ETA on stderr
// when it is a terminal; otherwise (a batch log) one line every 10 s of a
// long run (cli.BatchInterval) and none from a shorter one.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gossipkit/gossipkit/internal/buildinfo"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/plots"
)

// version is the toolkit's version, printed by "gossipkit version".
const version = buildinfo.Version

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// env is what a command sees of the outside world.
type env = cli.Env

// program is the CLI as data: every command, its help and its flags.
// Another file may register a command in its init function by appending
// to program.Commands (serve.go does).
var program = &cli.Program{
	Name: "gossipkit", Version: version,
	Summary: "numerical analysis of information dissemination in peer-to-peer systems",
	Footer:  "Every command takes --format " + strings.Join(plots.Formats, "|") + " where it prints a table.",
	Commands: []*cli.Command{
		{Name: "pdrop", Short: "exact drop probability: formula (1), γ form, simplified, enumeration", Flags: cmdPDrop},
		{Name: "gamma-check", Short: "verify the γ form against formula (1) on a grid", Flags: cmdGammaCheck},
		{Name: "transitions", Short: "the 4×4 transition matrix of one item in one shuffle (Fig. 1)", Flags: cmdTransitions},
		{Name: "ode", Short: "integrate replication x(t) and coverage y(t); compare with the closed forms", Flags: cmdODE},
		{Name: "optimal", Short: "the optimal exchange size s* and its integer counterparts", Flags: cmdOptimal},
		{Name: "chain", Short: "the pairwise model solved exactly: laws of x(t), y(t) and of the time to a coverage level", Flags: cmdChain},
		{Name: "plan", Short: "design answers: the law of the time to coverage L at any N, P(T ≤ D), the best exchange size s (or the best fanout and budget of push, pull and push–pull broadcast)", Flags: cmdPlan},
		{Name: "sim", Short: "Monte Carlo of the shuffle protocol or its pairwise-Markov model", Flags: cmdSim},
		{Name: "merge", Short: "combine the part files of a sharded sim, tree or broadcast (plan --shard) run, exactly", Flags: cmdMerge, Positional: true, UsageLine: "merge PART|DIR... [-o FILE] [flags]"},
		{Name: "tree", Short: "spanning-tree notification simulator: build, fail, sweep", Noun: "subcommand", Subs: treeCommands()},
		{Name: "plot", Short: "draw one figure (fig4, fig7, fig8, optimal) with custom parameters", Noun: "figure", Subs: plotCommands()},
		{Name: "reproduce", Short: "regenerate the paper's results: figures, tables and REPORT.md", Flags: cmdReproduce},
		{Name: "version", Short: "print the version", Flags: func(*cli.FlagSet) cli.Run {
			return func(_ context.Context, e *env) error {
				_, err := fmt.Fprintf(e.Stdout, "gossipkit %s\n", version)
				return err
			}
		}},
	},
}

func run(args []string, stdout, stderr io.Writer) int {
	name := "gossipkit"
	if len(args) > 0 {
		name += " " + args[0]
	}
	ctx, stop := cli.WithSignals(context.Background(), stderr, name)
	defer stop()
	started()
	return runEnv(ctx, &env{Stdout: stdout, Stderr: stderr, Getenv: os.Getenv, Terminal: cli.IsTerminal(stderr), BatchEvery: cli.BatchInterval}, args)
}

// started is called once the signal handler is in place: a test that
// signals the command waits for it, so that no verdict depends on how long
// the process takes to start.
var started = func() {}

// runEnv runs the command args name in-process and returns its exit
// status (cli.Program.Run: the contract of the package doc). It is the
// entry point of tests and of other front ends (serve).
func runEnv(ctx context.Context, e *env, args []string) int { return program.Run(ctx, e, args) }

// runArgs is runEnv with plain writers, no environment variables and no
// terminal: the runner another front end (serve) calls in-process.
func runArgs(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runEnv(ctx, &env{Stdout: stdout, Stderr: stderr, Getenv: func(string) string { return "" }}, args)
}
