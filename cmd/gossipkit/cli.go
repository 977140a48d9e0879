package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/internal/atomicfile"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// usageError is bad input: the CLI prints it on one line and exits with 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// errHelp ends a command that printed its help.
var errHelp = errors.New("help requested")

// errFailed ends a command that already reported its failure (exit 1).
var errFailed = errors.New("failed")

// newFlags returns a flag set that reports nothing itself: parseEnv turns
// its errors into one-line usage errors and prints -h to the command's
// stdout.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseEnv parses args; -h prints the flags to the command's stdout
// (errHelp); any other problem becomes a one-line usage error.
func parseEnv(fs *flag.FlagSet, e *env, args []string) error {
	if err := duplicateFlag(fs, args); err != nil {
		return err
	}
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		printFlags(e.stdout, fs)
		return errHelp
	}
	if err != nil {
		return flagError(fs, err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// flagError rewrites the flag package's errors in the CLI's form:
// "--name VALUE: what is wrong".
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return usagef("%s: unknown flag (gossipkit help %s lists the flags)", name, fs.Name())
	}
	var value, name string
	if _, scanErr := fmt.Sscanf(msg, "invalid value %q for flag %s", &value, &name); scanErr == nil {
		name = strings.TrimSuffix(strings.TrimLeft(name, "-"), ":")
		want := "a valid value"
		if f := fs.Lookup(name); f != nil {
			switch fmt.Sprintf("%T", f.Value) {
			case "*flag.intValue":
				want = "an integer"
			case "*flag.uint64Value":
				want = "a whole number ≥ 0"
			case "*flag.float64Value":
				want = "a number"
			case "*flag.boolValue":
				want = "true or false"
			}
		}
		return usagef("%s %s: not %s", flagName(name), value, want)
	}
	return &usageError{strings.ReplaceAll(msg, "\n", " ")}
}

// flagName writes a flag as the help does: -N, --seed.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// duplicateFlag refuses a flag given twice, under one name or two names
// of the same variable (-N and --nodes): the flag package would silently
// keep the last value.
func duplicateFlag(fs *flag.FlagSet, args []string) error {
	seen := map[uintptr]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			break // the flag package stops here too
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			continue // fs.Parse reports it
		}
		key := reflect.ValueOf(f.Value).Pointer()
		if prev, dup := seen[key]; dup {
			return usagef("%s: given twice (first as %s); give each flag once", a, prev)
		}
		seen[key] = a
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) {
			i++ // its value
		}
	}
	return nil
}

func printFlags(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: gossipkit %s [flags]\n\nFlags:\n", fs.Name())
	fs.VisitAll(func(f *flag.Flag) {
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		def := ""
		if f.DefValue != "" && f.DefValue != "false" {
			def = fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "  %s%s\n      %s%s\n", dash, f.Name, f.Usage, def)
	})
}

// parseFormatted parses a command's flags and checks its --format and, if
// it has one, its -o FILE (checkOut) before any work starts. A -o that
// names a folder (ending in /, or existing) is left to the command (shard
// part files go there).
func parseFormatted(fs *flag.FlagSet, e *env, args []string, format *string) error {
	if err := parseEnv(fs, e, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if f := fs.Lookup("o"); f != nil {
		p := f.Value.String()
		// A folder is a valid -o only for commands that write shard parts.
		shardDir := fs.Lookup("shard") != nil && (strings.HasSuffix(p, "/") || isDir(p))
		if p != "" && p != "-" && !shardDir {
			return checkOut("-o", p)
		}
	}
	return nil
}

// checkOut checks that a file can be written at path: its folder exists
// and is writable (a probe file is created there and removed), and path is
// not a folder.
func checkOut(flagName, path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return usagef("%s %s: the folder %s does not exist", flagName, path, dir)
	case !st.IsDir():
		return usagef("%s %s: %s is not a folder", flagName, path, dir)
	case isDir(path):
		return usagef("%s %s: is a folder; a file is wanted", flagName, path)
	}
	probe, err := os.CreateTemp(dir, ".gossipkit-probe-*")
	if err != nil {
		return usagef("%s %s: the folder %s is not writable", flagName, path, dir)
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// outFlag adds the -o FILE flag.
func outFlag(fs *flag.FlagSet) *string {
	return fs.String("o", "", "write to FILE instead of standard output (atomically; checked before any work)")
}

// buffered runs print into a buffer and writes it to -o FILE or stdout;
// print's error (e.g. errFailed after a verdict is printed) is returned
// after the output is written.
func buffered(e *env, path string, print func(w io.Writer) error) error {
	var b bytes.Buffer
	perr := print(&b)
	if err := output(e, path, func(w io.Writer) error { _, err := w.Write(b.Bytes()); return err }); err != nil {
		return err
	}
	return perr
}

func checkFormat(f string) error {
	if !plots.ValidFormat(f) {
		return usagef("--format %q: valid values are %s", f, strings.Join(plots.Formats, ", "))
	}
	return nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// output writes with write to -o FILE (atomically: a failed or interrupted
// write leaves no partial file) or, for "" and "-", to stdout.
func output(e *env, path string, write func(w io.Writer) error) error {
	if path == "" || path == "-" {
		return write(e.stdout)
	}
	return atomicfile.Write(path, write)
}

// outputTable writes a table in format to -o FILE or stdout.
func outputTable(e *env, path, format string, t *plots.Table) error {
	return output(e, path, func(w io.Writer) error { return t.Write(w, format) })
}

// fieldFlags maps the fields that library errors name (sim.Config,
// chain.Config) to this CLI's flags.
var fieldFlags = map[string]string{
	"Config.Nodes": "-N", "Config.Items": "-n", "Config.Cache": "-c", "Config.Exchange": "-s",
	"Config.TMax": "--t-max", "Config.Dt": "--dt", "Config.Level": "--level",
	"Config.Warmup": "--warmup", "Config.Rounds": "--rounds", "Config.Reps": "--reps",
	"Config.Initial": "--initial", "Config.Ticks": "--ticks", "Config.FailFraction": "--fail",
	"Config.Topology": "--topology", "Options.Workers": "--workers",
}

// treeFieldFlags maps tree.Config and tree.Experiment fields to flags.
var treeFieldFlags = map[string]string{
	"Config.Nodes": "-N", "Config.Degree": "--degree", "Config.FailFraction": "--fraction", "Experiment.Seeds": "--seeds",
}

// fieldUsage turns a library error that names a field (field + " " + msg)
// into a usage error that names its flag; other errors pass unchanged.
func fieldUsage(err error, flags map[string]string) error {
	var se *sim.FieldError
	var te *tree.FieldError
	var ce *chain.FieldError
	switch {
	case errors.As(err, &se):
		return usagef("%s %s", flagOf(se.Field, flags), se.Msg)
	case errors.As(err, &te):
		return usagef("%s %s", flagOf(te.Field, flags), te.Msg)
	case errors.As(err, &ce):
		return usagef("%s %s", flagOf(ce.Field, flags), ce.Msg)
	}
	return err
}

func flagOf(field string, flags map[string]string) string {
	if f, ok := flags[field]; ok {
		return f
	}
	return field
}

// newProgress returns a progress callback that draws a bar with count,
// rate and ETA on stderr when it is a terminal (schollz/progressbar, which
// locks, so replications finishing on several goroutines may call it),
// and does nothing otherwise. The bar is made on the first call, which
// brings the total.
func newProgress(e *env, label string) func(done, total int) {
	if !e.terminal {
		return func(int, int) {}
	}
	var once sync.Once
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		once.Do(func() {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(e.stderr), progressbar.OptionSetDescription(label),
				progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetPredictTime(true),
				progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(200*time.Millisecond))
		})
		bar.Set(done)
	}
}
