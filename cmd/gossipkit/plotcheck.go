package main

import (
	"flag"
	"slices"
	"strings"

	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/report"
)

// plotFlagsApply refuses a flag given for a figure that does not use it
// (`plot fig4 --reps 0` was accepted and ignored): a flag's help starts
// with the figures that use it ("fig7, fig8: replications"); a flag
// without such a prefix applies to every figure.
func plotFlagsApply(fs *flag.FlagSet, fig string) error {
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
			if !slices.Contains(report.Figures, p) {
				return // not a figure list: the flag applies to all
			}
			figs = append(figs, p)
		}
		if strings.Contains(f.Usage, "("+fig+":") || slices.Contains(figs, fig) {
			return
		}
		bad = usagef("%s: not used by %s (only by %s)", flagName(f.Name), fig, strings.Join(figs, ", "))
	})
	return bad
}

func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// plotInputs checks what the figure's compute step needs, before any work.
func plotInputs(fig string, sc report.Scale) error {
	switch fig {
	case "fig4":
		return fig4Curves(sc)
	case "optimal":
		if len(sc.Ns) == 0 || sc.Cache < 1 || sc.Cache >= sc.Ns[0] {
			return usagef("-c %d, --ns %v: the optimum needs 1 ≤ c < n (n: the first of --ns)", sc.Cache, sc.Ns)
		}
	}
	return nil
}

// fig4Curves refuses, before any work, a Fig. 4 with no curve to draw: a
// curve (c, s) needs s ≤ c (and s ≤ exact.MaxS) and at least one n from
// c + step to n-max. It names the flags.
func fig4Curves(sc report.Scale) error {
	for _, s := range sc.Fig4S {
		if s < 1 || s > exact.MaxS {
			return usagef("--ss %d: valid range 1..%d", s, exact.MaxS)
		}
	}
	for _, c := range sc.Fig4C {
		if c < 1 {
			return usagef("--cs %d: cache sizes must be ≥ 1", c)
		}
	}
	for _, c := range sc.Fig4C {
		for _, s := range sc.Fig4S {
			if s <= c && c+sc.Fig4Step <= sc.Fig4NMax {
				return nil
			}
		}
	}
	return usagef("--cs, --ss, --n-max, --step: no curve to draw (each needs s ≤ c and c + step ≤ n-max; got cs %v, ss %v, n-max %d, step %d)", sc.Fig4C, sc.Fig4S, sc.Fig4NMax, sc.Fig4Step)
}

// checkShards checks --shards M (0: not given).
func checkShards(fs *flag.FlagSet, shards int) error {
	if shards < 0 || shards > shard.MaxCount || shards == 0 && cli.Given(fs, "shards") {
		return usagef("--shards %d: valid range 1..%d", shards, shard.MaxCount)
	}
	return nil
}

// shardsUsed refuses --shards M when no scheduler index variable made this
// run a shard: the count alone says nothing of which shard to run
// (`sim --shards 3` used to run the whole experiment).
func shardsUsed(shards int, id *shard.ID) error {
	if shards > 0 && id == nil {
		return usagef("--shards %d: no shard index: set by a batch scheduler (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX), or give --shard I/M instead", shards)
	}
	return nil
}

// plotFlag renames sim's -n, which plot calls --ns, in a usage error.
func plotFlag(err error) error {
	if ue, ok := err.(*usageError); ok {
		if rest, found := strings.CutPrefix(ue.Msg, "-n "); found {
			return usagef("--ns (n = %s", strings.Replace(rest, ":", "):", 1))
		}
	}
	return err
}
