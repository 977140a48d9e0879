package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/report"
	"github.com/gossipkit/gossipkit/sim"
)

func runShard(ctx context.Context, e *env, cfg sim.Config, opt sim.Settings, id *shard.ID, out, note string) error {
	opt.Indices = id.Indices(cfg.Reps)
	if len(opt.Indices) == 0 {
		return usagef("--shard %d/%d: no replication falls in this shard (--reps %d)", id.Index, id.Count, cfg.Reps)
	}
	path, err := cli.ShardOut(e, out, shard.FileName(*id))
	if err != nil {
		return err
	}
	res, err := sim.Run(ctx, cfg, opt)
	if err != nil {
		return err
	}
	return cli.WritePart(e, "sim", path, func(w io.Writer) error { return sim.WritePart(w, res, *id) },
		shareText(len(opt.Indices), cfg.Reps, "replications", *id), note)
}

func cmdMerge(fs *cli.FlagSet) cli.Run {
	format, out := fs.Output("csv")
	allowMissing := fs.Bool("allow-missing", false, "merge even if some replications are missing (they are listed on stderr)")
	var maxMemory uint64
	cli.MergeMemoryFlag(fs, &maxMemory, "memory the merge may use, as 500MB, 2GiB or bytes (0: the memory available); a merge whose estimate, 6 times the parts' JSON plus 16 MiB, exceeds it is refused before any part is read")
	return func(ctx context.Context, e *env) error {
		return merge(ctx, e, fs, *format, *out, *allowMissing, maxMemory)
	}
}

func merge(ctx context.Context, e *env, fs *cli.FlagSet, format, out string, allowMissing bool, maxMemory uint64) error {
	files, err := cli.PartFiles(fs.Args, out)
	if err != nil {
		return err
	}
	// The memory, before any part is read: 6 times the parts' JSON as
	// their gzip trailers state it (report.MergeMemoryEstimate).
	need, err := report.MergeMemoryEstimate(files)
	var pe *report.PartError
	if errors.As(err, &pe) {
		return usagef("%s", pe.Msg)
	}
	if maxMemory > 0 && need > maxMemory {
		return usagef("--max-memory %s: merging these %d parts needs about %s (6 times their JSON); raise --max-memory or merge on a machine with more memory", cli.FormatBytes(maxMemory), len(files), cli.FormatBytes(need))
	}
	if avail := sim.AvailableMemory(); maxMemory == 0 && avail > 0 && need > avail {
		return usagef("merging these %d parts needs about %s (6 times their JSON), more than the %s available; merge on a machine with more memory", len(files), cli.FormatBytes(need), cli.FormatBytes(avail))
	}
	m, err := report.MergeFiles(ctx, files, allowMissing)
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &pe):
		return usagef("%s", pe.Msg)
	case err != nil:
		return cli.MergeUsage(err)
	}
	if len(m.Missing) > 0 {
		fmt.Fprintf(e.Stderr, "gossipkit merge: %s\n", m.MissingText())
	}
	if !cli.Given(fs.FlagSet, "format") {
		format = m.Format // as the unsharded command prints
	}
	return output(e, out, func(w io.Writer) error { return m.Write(w, format) })
}

// shareText says which of a run's replications (seeds) a shard ran, as
// plan's part line does: "2 of 4 replications: r mod 2 = 1". (It listed
// them one by one: a shard of 10,000 replications of 20,000 wrote a line
// of 58 KB.)
func shareText(k, total int, unit string, id shard.ID) string {
	return fmt.Sprintf("%d of %d %s: r mod %d = %d", k, total, unit, id.Count, id.Index-1)
}
