// Package cli is the machinery of gossipkit's command line that knows
// nothing of the models: the command table (Program, Command) and its
// help, flags bound to Config fields so that a library's field error names
// its flag, enumeration flags from a library's names, flag parsing in the
// CLI's error form, duplicate flags, output paths checked before work and
// written atomically, formats, the {rows, best, cheapest} design writer,
// shard flags and part files, and progress bars.
//
// # Contract
//
// The functions taking a context: CheckTime refuses a nil one with an
// error, passes a context without a deadline, and refuses at once a run
// whose CPU bound passes the deadline, whatever the workers (below 1 is
// one). WithSignals is the exception: it needs a parent context and
// panics on a nil one, as context.WithCancel does (main gives it
// context.Background()). Flag values are checked by their flag (flagval): a
// bad value is a *UsageError naming the flag and its valid range, exit 2.
// Every int, uint64 and float64 flag is read by flagval's one rule for
// numbers (decimal integers; no real that underflows), put in place when
// the command line is parsed (strictNumbers), as ranges and lists are.
// TestContract checks CheckTime.
package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/atomicfile"
	"github.com/gossipkit/gossipkit/plots"
)

// UsageError is bad input: the CLI prints it on one line and exits with 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a *UsageError with a formatted message.
func Usagef(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// ErrHelp ends a command that printed its help.
var ErrHelp = errors.New("help requested")

// ErrFailed ends a command that already reported its failure (exit 1).
var ErrFailed = errors.New("failed")

// newFlags returns a flag set that reports nothing itself: FlagSet.parse
// turns its errors into one-line usage errors and prints -h to the
// command's stdout.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// flagError rewrites the flag package's errors in the CLI's form:
// "--name VALUE: what is wrong".
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return Usagef("%s: unknown flag (gossipkit help %s lists the flags)", flagName(strings.TrimLeft(name, "-")), fs.Name())
	}
	var value, name string
	if _, scanErr := fmt.Sscanf(msg, "invalid boolean value %q for %s", &value, &name); scanErr == nil {
		return Usagef("%s %q: not true or false", flagName(strings.TrimSuffix(strings.TrimLeft(name, "-"), ":")), value)
	}
	if _, scanErr := fmt.Sscanf(msg, "invalid value %q for flag %s", &value, &name); scanErr == nil {
		name = strings.TrimSuffix(strings.TrimLeft(name, "-"), ":")
		want := "a valid value"
		if f := fs.Lookup(name); f != nil {
			if ev, ok := f.Value.(interface{ ValidValues() string }); ok {
				return Usagef("%s %q: valid values are %s", flagName(name), value, ev.ValidValues())
			}
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
		if want == "a valid value" {
			if _, why, ok := strings.Cut(msg, ": "); ok {
				return Usagef("%s %s", flagName(name), why) // the flag's own message
			}
		}
		return Usagef("%s %q: not %s", flagName(name), value, want)
	}
	return &UsageError{strings.ReplaceAll(msg, "\n", " ")}
}

// FlagName writes a flag as the help does: -N, --seed.
func FlagName(name string) string { return flagName(name) }

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
	seen := map[any]string{}
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
		var key any = f.Name // a value that is no pointer: its name
		if v := reflect.ValueOf(f.Value); v.Kind() == reflect.Pointer {
			key = v.Pointer()
		}
		if prev, dup := seen[key]; dup {
			return Usagef("%s: given twice (first as %s); give each flag once", a, prev)
		}
		seen[key] = a
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) {
			i++ // its value
		}
	}
	return nil
}

func printFlags(w io.Writer, fs *flag.FlagSet, usage string) {
	fmt.Fprintf(w, "Usage: gossipkit %s\n\nFlags:\n", usage)
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

// CheckOut checks that a file can be written at path: its folder exists
// and is writable, path is absent or a regular file (not a device, FIFO,
// socket, folder or symbolic link: see atomicfile), and the temporary file
// the write will use can be created (a probe of that name is created there
// and removed), so that a name too long for the file system is refused
// before any work.
func CheckOut(flagName, path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return Usagef("%s %q: the folder %q does not exist", flagName, path, dir)
	case !st.IsDir():
		return Usagef("%s %q: %q is not a folder", flagName, path, dir)
	case IsDir(path):
		return Usagef("%s %q: is a folder; a file is wanted", flagName, path)
	}
	err = atomicfile.CheckTarget(path)
	if err == nil {
		err = atomicfile.Probe(path)
	}
	if errors.Is(err, atomicfile.ErrNotRegular) {
		return Usagef("%s %q: exists and is not a regular file (a device, FIFO, socket or symbolic link); give a new name or a regular file", flagName, path)
	}
	if err != nil {
		if errors.Is(err, syscall.ENAMETOOLONG) {
			return Usagef("%s %q: the name is too long for the file system (with the temporary suffix; at most %d bytes)", flagName, path, maxName)
		}
		return Usagef("%s %q: the folder %q is not writable", flagName, path, dir)
	}
	return nil
}

// maxName is the longest file name that -o accepts: NAME_MAX (255) less
// the temporary name's additions (".", ".tmp" and 10 digits).
const maxName = 255 - 15

// Buffered runs print into a buffer and writes it to -o FILE or stdout;
// print's error (e.g. errFailed after a verdict is printed) is returned
// after the output is written.
func Buffered(e *Env, path string, print func(w io.Writer) error) error {
	var b bytes.Buffer
	perr := print(&b)
	if err := Output(e, path, func(w io.Writer) error { _, err := w.Write(b.Bytes()); return err }); err != nil {
		return err
	}
	return perr
}

func CheckFormat(f string) error {
	if !plots.ValidFormat(f) {
		return Usagef("--format %q: valid values are %s", f, strings.Join(plots.Formats, ", "))
	}
	return nil
}

func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Output writes with write to -o FILE (atomically, through e.Files: a
// failed or interrupted write leaves no partial file) or, for "" and "-",
// to e.Stdout.
func Output(e *Env, path string, write func(w io.Writer) error) error {
	if path == "" || path == "-" {
		return write(e.Stdout)
	}
	return e.Files.Write(path, write)
}

// OutputTable writes a table in format to -o FILE or e.Stdout.
func OutputTable(e *Env, path, format string, t *plots.Table) error {
	return Output(e, path, func(w io.Writer) error { return t.Write(w, format) })
}

// NewProgress returns a progress callback that draws a bar with count,
// rate and ETA on stderr when it is a terminal (schollz/progressbar, which
// locks, so replications finishing on several goroutines may call it),
// and does nothing otherwise. The bar is made on the first call, which
// brings the total.
func NewProgress(stderr io.Writer, terminal bool, label string) gossip.Progress {
	if !terminal {
		return func(int64, int64) {}
	}
	var once sync.Once
	var bar *progressbar.ProgressBar
	return func(done, total int64) {
		once.Do(func() {
			bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription(label),
				progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetPredictTime(true),
				progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(200*time.Millisecond))
		})
		bar.Set64(min(done, total))
	}
}

// IsDir reports whether p is an existing folder.
func IsDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// SplitArgs separates positional arguments from flags when they are mixed
// (merge PART… -o FILE): a flag of fs that takes a value keeps the next
// argument with it.
func SplitArgs(fs *flag.FlagSet, args []string) (positional, flags []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if f == nil || hasValue || i+1 == len(args) {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !(ok && b.IsBoolFlag()) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	return positional, flags
}

// signalError is the cause of a context cancelled by a signal.
type signalError struct{ sig os.Signal }

func (s *signalError) Error() string { return s.sig.String() }

// code is 128 + the signal number: 130 for SIGINT, 143 for SIGTERM (what
// Kubernetes and Slurm send).
func (s *signalError) code() int {
	if s.sig == syscall.SIGTERM {
		return 143
	}
	return 130
}

// Grace is how long a command has, after the first SIGINT or SIGTERM, to
// stop at one of its checks and clean up by itself. Past it the signal
// handler removes every temporary file and folder in progress and every
// folder the run created (it aborts the atomicfile scope WithSignals puts
// in the context, of which every run's scope is a child), prints the
// command's one line and exits, so that a computation that does not check
// its context often enough still stops within Grace.
var Grace = 2 * time.Second

// WithSignals returns a context that SIGINT and SIGTERM cancel, so that a
// command stops at its next check and its deferred clean-up removes
// temporary files and folders. The context carries the process's
// atomicfile scope: from the first signal on, no output is put in place
// (the scope is stopped: commits fail with a context.Canceled error).
//
// Further signals do not cut the clean-up short: GNU timeout, a terminal's
// Ctrl-C and batch schedulers signal the process and then its whole group,
// so one stop request often arrives twice. Whatever their number, the
// process ends at most Grace after the first signal: if the command has
// not returned by then, the handler aborts the scope (removing every run's
// files), prints "<name>: terminated; no output written" (or interrupted)
// on stderr and exits 143 (or 130). The returned stop function ends the handling.
func WithSignals(parent context.Context, stderr io.Writer, name string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ctx, files := atomicfile.NewContext(ctx)
	sigs := make(chan os.Signal, 8)
	done := make(chan struct{})
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		var first *signalError
		select {
		case s := <-sigs:
			first = &signalError{s}
		case <-done:
			return
		}
		files.Stop()
		cancel(first)
		timer := time.NewTimer(Grace)
		for {
			select {
			case <-sigs: // the same request again (group signal): keep cleaning up
			case <-done:
				return
			case <-timer.C:
				what := "interrupted"
				if first.code() == 143 {
					what = "terminated"
				}
				if !Final(func() {
					files.Abort()
					fmt.Fprintf(stderr, "%s: %s; no output written\n", name, what)
				}) {
					return // the command is printing its own last line
				}
				os.Exit(first.code())
			}
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() { signal.Stop(sigs); close(done); cancel(nil) })
	}
}

// final guards the last line of an interrupted run, which the command
// (when it stops in time) and the signal handler (when it does not) both
// want to print.
var final struct {
	sync.Mutex
	done bool
}

// Final runs f unless another Final has run since ResetFinal, and reports
// whether it ran: the interrupted command's one line is printed once.
func Final(f func()) bool {
	final.Lock()
	defer final.Unlock()
	if final.done {
		return false
	}
	final.done = true
	f()
	return true
}

// ResetFinal lets the next Final run (a process running several commands:
// tests).
func ResetFinal() {
	final.Lock()
	final.done = false
	final.Unlock()
}

// Stdout is the standard output a command writes to: it keeps the first
// write error (a full disk, /dev/full) so that the exit status reports it
// even when the code that printed ignored it, and it refuses every write
// once Ctx is cancelled (a command stopped by a signal writes nothing
// more).
type Stdout struct {
	Ctx context.Context
	W   io.Writer
	Err error
}

func (s *Stdout) Write(p []byte) (int, error) {
	if s.Err != nil {
		return 0, s.Err
	}
	if err := s.Ctx.Err(); err != nil {
		return 0, err
	}
	n, err := s.W.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	s.Err = err
	return n, err
}

// Interrupted returns the exit status and word for a command cancelled by
// ctx: 143 "terminated" after SIGTERM, 130 "interrupted" otherwise.
func Interrupted(ctx context.Context) (int, string) {
	var se *signalError
	if errors.As(context.Cause(ctx), &se) && se.code() == 143 {
		return 143, "terminated"
	}
	return 130, "interrupted"
}

// Given reports whether the flag was set on the command line.
func Given(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// FlagsApply refuses a flag given for a subcommand that does not use it
// (`plot fig4 --reps 0` was accepted and ignored): a flag's help starts
// with the subcommands that use it ("fig7, fig8: replications"); a flag
// without such a prefix applies to every one of subs.
func FlagsApply(fs *flag.FlagSet, fig string, subs []string) error {
	var bad error
	fs.Visit(func(f *flag.Flag) {
		if bad != nil {
			return
		}
		prefix, _, ok := strings.Cut(f.Usage, ": ")
		if !ok {
			return
		}
		var figs []string
		for _, p := range strings.Split(prefix, ",") {
			p = strings.TrimSpace(p)
			if !slices.Contains(subs, p) {
				return // not a figure list: the flag applies to all
			}
			figs = append(figs, p)
		}
		if strings.Contains(f.Usage, "("+fig+":") || slices.Contains(figs, fig) {
			return
		}
		bad = Usagef("%s: not used by %s (only by %s)", flagName(f.Name), fig, strings.Join(figs, ", "))
	})
	return bad
}
