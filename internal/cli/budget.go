package cli

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/gossipkit/gossipkit/gossip"
)

// CheckTime refuses, before any work, a run that cannot end before ctx's
// deadline: cpu is a lower bound of the run's CPU time in seconds (its
// counts times a measured speed, with a margin for a faster machine),
// spread over at most workers CPUs (and no more than GOMAXPROCS). A
// context without a deadline (the command line) passes: a user may run
// for as long as they like; a server gives each request a deadline
// (serve's --timeout), so that a request whose cost is known to exceed it
// is refused at once rather than after the whole time limit. The error
// wraps gossip.ErrTooLarge (the CLI's exit 2) and names the work, what it
// needs, the time left and what to lower. A nil ctx is an error.
func CheckTime(ctx context.Context, cpu float64, workers int, what, lower string) error {
	if ctx == nil {
		return errors.New("cli: nil context")
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		return nil
	}
	w := max(1, min(workers, runtime.GOMAXPROCS(0)))
	wall := cpu / float64(w)
	left := time.Until(deadline)
	if !(wall > left.Seconds()) { // NaN passes: no estimate
		return nil
	}
	return fmt.Errorf("%s needs at least %s of CPU (%s on %d CPUs), beyond the %s left before the time limit; lower %s: %w",
		what, seconds(cpu), seconds(wall), w, left.Round(time.Second), lower, gossip.ErrTooLarge)
}

// seconds writes a duration in seconds the way a person reads it: 3.2 s,
// 41 min, 7.5 h, 3.1e+04 days.
func seconds(s float64) string {
	switch {
	case math.IsInf(s, 1):
		return "forever"
	case s < 60:
		return fmt.Sprintf("%.2g s", s)
	case s < 3600:
		return fmt.Sprintf("%.2g min", s/60)
	case s < 86400:
		return fmt.Sprintf("%.2g h", s/3600)
	}
	return fmt.Sprintf("%.2g days", s/86400)
}
