package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/gossipkit/gossipkit/gossip"
)

// BatchInterval is Env.BatchEvery as the gossipkit program sets it: a run
// shorter than this logs no progress line at all.
const BatchInterval = 10 * time.Second

// Progress is the progress callback of a command: NewProgress's bar on a
// terminal; on a batch log (stderr not a terminal, e.BatchEvery > 0),
// BatchProgress's line every e.BatchEvery; else nothing.
func Progress(e *Env, label string) gossip.Progress {
	if !e.Terminal && e.BatchEvery > 0 {
		return BatchProgress(e.Stderr, label, e.BatchEvery, time.Now)
	}
	return NewProgress(e.Stderr, e.Terminal, label)
}

// BatchProgress returns a progress callback for a batch log: once every
// interval (measured with now) it writes one line, "label: done/total
// (P%), T s, about R s left", and, if it wrote any since the last such
// line, a last line when done reaches total ("label: total/total (100%),
// T s"); a sweep, whose settings each count from 0 to their total, logs
// each long setting so. T is the time since the start; R is the rest of
// the count at the rate it has gone since its first call (a count that
// goes back, the next setting of a sweep, starts again), and is left out
// until that rate is measured over at least half an interval: a setting
// may work for a while before it first counts (a law, the watched runs),
// so the time since the start says nothing of the count's rate, and a
// count whose first call came just before a line has no rate yet. A run shorter than interval writes
// nothing. It locks, so that replications finishing on several
// goroutines may call it.
func BatchProgress(w io.Writer, label string, every time.Duration, now func() time.Time) gossip.Progress {
	var mu sync.Mutex
	start := now()
	next := start.Add(every)
	wrote := false   // a line since the last 100% line
	var t0 time.Time // the count's first call: at t0, d0 done
	var d0 int64
	// The last call's; both 0 before the first, which (prev ==
	// prevTotal, a finished count) starts a new count.
	var prev, prevTotal int64
	return func(done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		if total <= 0 {
			return
		}
		done = min(max(done, 0), total)
		t := now()
		if done < prev || prev == prevTotal || total != prevTotal {
			t0, d0 = t, done // a new count
		}
		prev, prevTotal = done, total
		last := done == total
		if last && !wrote || !last && t.Before(next) {
			return
		}
		next = t.Add(every)
		wrote = !last
		el := t.Sub(start).Seconds()
		frac := float64(done) / float64(total)
		if last {
			fmt.Fprintf(w, "%s: %d/%d (100%%), %.0f s\n", label, done, total, el)
			return
		}
		left := ""
		if done > d0 && t.Sub(t0) >= every/2 {
			rate := t.Sub(t0).Seconds() / float64(done-d0) // seconds a unit
			left = fmt.Sprintf(", about %.0f s left", rate*float64(total-done))
		}
		fmt.Fprintf(w, "%s: %d/%d (%.0f%%), %.0f s%s\n", label, done, total, 100*frac, el, left)
	}
}
