package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/report"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

func runShard(ctx context.Context, e *env, cfg sim.Config, opt sim.Settings, id *shard.ID, out, note string) error {
	opt.Indices = id.Indices(cfg.Reps)
	if len(opt.Indices) == 0 {
		return usagef("--shard %d/%d: no replication falls in this shard (--reps %d)", id.Index, id.Count, cfg.Reps)
	}
	path, err := cli.ShardOut(out, shard.FileName(*id))
	if err != nil {
		return err
	}
	res, err := sim.Run(ctx, cfg, opt)
	if err != nil {
		return err
	}
	return cli.WritePart(e, "sim", path, func(w io.Writer) error { return sim.WritePart(w, res, *id) },
		fmt.Sprintf("replications %s of %d", shard.Ranges(opt.Indices), cfg.Reps), note)
}

func cmdMerge(fs *cli.FlagSet) cli.Run {
	format, out := fs.Output("csv")
	allowMissing := fs.Bool("allow-missing", false, "merge even if some replications are missing (they are listed on stderr)")
	return func(ctx context.Context, e *env) error { return merge(ctx, e, fs, *format, *out, *allowMissing) }
}

func merge(ctx context.Context, e *env, fs *cli.FlagSet, format, out string, allowMissing bool) error {
	files, err := cli.PartFiles(fs.Args, out)
	if err != nil {
		return err
	}
	parts := make([]*sim.Part, 0, len(files))
	var tparts []*tree.Part
	var bparts []*broadcast.Part
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		format, plain, err := cli.ReadPart(f)
		if err != nil {
			return err
		}
		if format == broadcast.PartFormat {
			p, err := broadcast.DecodePart(plain)
			if err != nil {
				return usagef("%q: %v", f, err)
			}
			bparts = append(bparts, p)
			continue
		}
		if format == tree.PartFormat {
			p, err := tree.DecodePart(plain)
			if err != nil {
				return usagef("%q: %v", f, err)
			}
			tparts = append(tparts, p)
			continue
		}
		p, err := sim.DecodePart(plain)
		if err != nil {
			return usagef("%q: %v", f, err)
		}
		parts = append(parts, p)
	}
	if len(bparts) > 0 {
		if len(parts)+len(tparts) > 0 {
			return usagef("%q: broadcast parts cannot be merged with other parts", files[0])
		}
		smp, missing, err := broadcast.MergeParts(bparts, files, allowMissing)
		if err != nil {
			return cli.MergeUsage(err)
		}
		if len(missing) > 0 {
			fmt.Fprintf(e.Stderr, "gossipkit merge: %d of %d replications missing: %s\n", len(missing), smp.Total, shard.Ranges(missing))
		}
		if !cli.Given(fs.FlagSet, "format") {
			format = "text" // as `gossipkit plan` prints
		}
		a := smp.Law().Answer(smp.Config)
		a.Method = broadcast.MonteCarlo
		d := broadcast.NewDesign(smp.Config, []broadcast.Answer{a})
		return output(e, out, func(w io.Writer) error { return d.Write(w, format) })
	}
	if len(tparts) > 0 {
		if len(parts) > 0 {
			return usagef("%q: simulation and tree parts cannot be merged together", files[0])
		}
		x, res, missing, err := tree.Merge(tparts, files, allowMissing)
		if err != nil {
			return cli.MergeUsage(err)
		}
		if len(missing) > 0 {
			fmt.Fprintf(e.Stderr, "gossipkit merge: %d of %d seeds missing: %s\n", len(missing), x.Seeds, shard.Ranges(missing))
		}
		if !cli.Given(fs.FlagSet, "format") {
			format = "text" // as `gossipkit tree` prints
		}
		return outputTable(e, out, format, report.TreeTable(x.Summarize(res)))
	}
	res, missing, err := sim.Merge(parts, files, allowMissing)
	if err != nil {
		return cli.MergeUsage(err)
	}
	if len(missing) > 0 {
		fmt.Fprintf(e.Stderr, "gossipkit merge: %d of %d replications missing: %s\n", len(missing), res.Config.Reps, shard.Ranges(missing))
	}
	return writeSimResult(e, res, format, out)
}
