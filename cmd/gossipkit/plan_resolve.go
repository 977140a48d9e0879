package main

import (
	"fmt"
	"strings"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/plan"
)

// planResolvable refuses, before any work, a broadcast Monte Carlo
// (--method mc) asked to decide --deadline at a --confidence its count
// of late replications cannot resolve: below the level 1 the watched runs
// do not state P(T_L > D), and with no late replication among R the
// interval's upper end is 9/(R + 9).
func planResolvable(cfg broadcast.Config, set broadcast.Settings) error {
	if set.Method != plan.MonteCarlo || !(cfg.Deadline > 0) || cfg.Target() == cfg.Live() {
		return nil
	}
	conf := cfg.ConfidenceOrDefault()
	r := float64(max(set.Reps, 1))
	if floor := 9 / (r + 9); floor > 1-conf {
		return planUnresolved(&broadcast.UnresolvedError{Method: set.Method, Confidence: conf, Floor: floor,
			Reps: broadcast.RepsToResolve(conf), Watched: true}, set.Reps, false)
	}
	return nil
}

// planUnresolved is the one line that refuses a design some row's
// method cannot decide (broadcast.Design.Unresolved), naming what could.
func planUnresolved(u *broadcast.UnresolvedError, reps int, where bool) error {
	var could []string
	switch {
	case u.Method == plan.MonteCarlo && u.Reps > 0:
		could = append(could, fmt.Sprintf("--reps %d or more", u.Reps))
	case u.Reps > 0:
		could = append(could, fmt.Sprintf("--method mc --reps %d or more", u.Reps))
	}
	if u.Watched {
		could = append(could, "--level 1 (the watched runs resolve any chance of a live node not informed by D)")
	}
	switch u.Method {
	case plan.MonteCarlo:
		could = append(could, "--method exact or asymptotic where its stated bound is below 1 − P")
	case plan.Asymptotic:
		could = append(could, "--method exact where it fits (its bound is far smaller)")
	}
	if len(could) == 0 {
		could = append(could, "a smaller --confidence (no method here resolves this one)")
	}
	what := fmt.Sprintf("--method %v", u.Method)
	if u.Method == plan.MonteCarlo {
		what = fmt.Sprintf("--method mc with --reps %d (about 9/(R + 9) = %.2g with no late replication)", reps, u.Floor)
	} else {
		what += fmt.Sprintf(" (its stated accuracy %.2g)", u.Floor)
	}
	at := ""
	if where {
		at = fmt.Sprintf(" at --fanout %d --budget %d", u.Fanout, u.Budget)
	}
	return usagef("--confidence %g: 1 − P = %.3g is below the smallest chance of being late that %s resolves%s; use %s",
		u.Confidence, 1-u.Confidence, what, at, strings.Join(could, ", or "))
}
