package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/gossipkit/gossipkit/internal/atomicfile"
)

// DirUsage makes an unusable output folder (atomicfile.DirError) a usage
// error naming flag; other errors pass unchanged.
func DirUsage(err error, flag string) error {
	var de *atomicfile.DirError
	if errors.As(err, &de) {
		return Usagef("%s %v", flag, de)
	}
	return err
}

// StepPrinter shows a long run's current step on a terminal (nil when
// stderr is not one); ClearLine erases it.
func StepPrinter(e *Env, label string, start time.Time) func(string) {
	if !e.Terminal {
		return nil
	}
	return func(step string) {
		fmt.Fprintf(e.Stderr, "\r\033[K%s: %s (%.0f s)", label, step, time.Since(start).Seconds())
	}
}

// StepLogger writes one line per finished step of a long run when stderr
// is not a terminal (a batch log): the label, then the step's String
// (report.StepTime's); nil on a terminal, where StepPrinter shows steps.
func StepLogger[T fmt.Stringer](e *Env, label string) func(T) {
	if e.Terminal {
		return nil
	}
	return func(t T) { fmt.Fprintf(e.Stderr, "%s: %v\n", label, t) }
}

// ClearLine erases the line StepPrinter draws.
func ClearLine(e *Env) {
	if e.Terminal {
		fmt.Fprint(e.Stderr, "\r\033[K")
	}
}

// StepStarts is the StepStart of a long run that has no StepDone log
// (plot, tree sweep): StepPrinter on a terminal; on a batch log with
// e.BatchEvery > 0, one line "label: step (T s)" for the step running when
// each BatchEvery has passed (none from a run shorter than it); else nil.
func StepStarts(e *Env, label string, start time.Time) func(string) {
	if e.Terminal {
		return StepPrinter(e, label, start)
	}
	if e.BatchEvery <= 0 {
		return nil
	}
	next := start.Add(e.BatchEvery)
	return func(step string) {
		if t := time.Now(); !t.Before(next) {
			next = t.Add(e.BatchEvery)
			fmt.Fprintf(e.Stderr, "%s: %s (%.0f s)\n", label, step, t.Sub(start).Seconds())
		}
	}
}
