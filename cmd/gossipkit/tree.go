package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/tree"
)

func init() {
	moreCommands = append(moreCommands,
		&command{name: "tree", summary: "spanning-tree notification simulator: build, fail, sweep", run: cmdTree},
	)
}

func cmdTree(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || (args[0] != "build" && args[0] != "fail" && args[0] != "sweep" && args[0] != "-h" && args[0] != "--help") {
		what := ""
		if len(args) > 0 {
			what = fmt.Sprintf("%q: ", args[0])
		}
		return usagef("%svalid subcommands are build, fail, sweep (gossipkit tree build --help)", what)
	}
	if args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(e.stdout, "Usage: gossipkit tree build|fail|sweep [flags]; gossipkit tree build --help for the flags")
		return errHelp
	}
	sub := args[0]
	fs := newFlags("tree " + sub)
	cfg := tree.DefaultConfig()
	fs.IntVar(&cfg.Nodes, "nodes", cfg.Nodes, "number of nodes (≥ 1)")
	fs.IntVar(&cfg.Degree, "degree", cfg.Degree, "k, the most children a node accepts (≥ 1)")
	join := fs.String("join", "first", "entry point: first, root or closest (see `go doc ./tree`)")
	redirect := fs.String("redirect", "random", "alternative named by a full node: random or distance")
	seeds := fs.Int("seeds", 10, "number of seeds (runs) to aggregate (≥ 1)")
	seed := fs.Uint64("seed", 1, "first seed; run i uses seed + i")
	format := fs.String("format", "text", "output format: text, json, csv or markdown")
	out := fs.String("o", "", "write to FILE instead of standard output")
	fraction := fs.Float64("fraction", 0.1, "fail: fraction of nodes failing at once, in [0, 1)")
	repair := fs.String("repair", "election", "fail: breakout, preservation or election")
	elect := fs.String("elect", "xor", "fail with election: priority xor (distance to the group id) or lifetime")
	shard := fs.String("shard", "", "run only seeds i with i mod M = I−1 and write a part file for `gossipkit merge`")
	outDir := fs.String("out", "out/tree", "sweep: output directory")
	if err := parseFormatted(fs, e, args[1:], format); err != nil {
		return err
	}
	var err error
	if cfg.Join, err = tree.ParseJoin(*join); err != nil {
		return usagef("--join %q: valid values are first, root, closest", *join)
	}
	if cfg.Redirect, err = tree.ParseRedirect(*redirect); err != nil {
		return usagef("--redirect %q: valid values are random, distance", *redirect)
	}
	if cfg.Repair, err = tree.ParseRepair(*repair); err != nil {
		return usagef("--repair %q: valid values are breakout, preservation, election", *repair)
	}
	if cfg.Elect, err = tree.ParseElect(*elect); err != nil {
		return usagef("--elect %q: valid values are xor, lifetime", *elect)
	}
	switch {
	case cfg.Nodes < 1 || cfg.Nodes > 1<<22:
		return usagef("--nodes %d: valid range 1..%d", cfg.Nodes, 1<<22)
	case cfg.Degree < 1 || cfg.Degree > 65536:
		return usagef("--degree %d: valid range 1..65536", cfg.Degree)
	case *seeds < 1 || *seeds > 1_000_000:
		return usagef("--seeds %d: valid range 1..1000000", *seeds)
	case !(*fraction >= 0 && *fraction < 1):
		return usagef("--fraction %g: valid range [0, 1)", *fraction)
	}
	cfg.FailFraction = *fraction
	if sub == "sweep" {
		return treeSweep(ctx, e, *outDir, *seeds, *seed)
	}
	exp := treeExperiment{Cfg: cfg, Fail: sub == "fail", Seeds: *seeds, Seed: *seed}
	indices := make([]int, *seeds)
	for i := range indices {
		indices[i] = i
	}
	id, err := resolveShard(e, *shard, 0, false)
	if err != nil {
		return err
	}
	if id != nil {
		indices = id.Indices(*seeds)
		if len(indices) == 0 {
			return usagef("--shard %d/%d: no seed falls in this shard (--seeds %d)", id.Index, id.Count, *seeds)
		}
	}
	res, err := exp.run(ctx, e, indices)
	if err != nil {
		return err
	}
	if id != nil {
		path := partPath(*out, *id)
		return writeFileAtomic(path, func(w io.Writer) error { return writeTreePart(w, exp, *id, res) })
	}
	return output(e, *out, *format, exp.table(res))
}

// treeExperiment is a tree build or failure experiment over seeds.
type treeExperiment struct {
	Cfg   tree.Config
	Fail  bool
	Seeds int
	Seed  uint64
}

func (x treeExperiment) run(ctx context.Context, e *env, indices []int) ([]tree.SeedResult, error) {
	prog := newProgress(e, "tree")
	var res []tree.SeedResult
	for k, i := range indices {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := tree.RunSeed(x.Cfg, x.Seed, i, x.Fail)
		if err != nil {
			return nil, err
		}
		res = append(res, r)
		prog.update(k+1, len(indices))
	}
	return res, nil
}

// table aggregates per-seed results (in seed order) into one record.
func (x treeExperiment) table(res []tree.SeedResult) *plots.Table {
	c := x.Cfg
	col := func(f func(tree.SeedResult) float64) tree.Stat {
		v := make([]float64, len(res))
		for i, r := range res {
			v[i] = f(r)
		}
		return tree.StatOf(v)
	}
	m := func(r tree.SeedResult) tree.Metrics {
		if x.Fail {
			return *r.Repair
		}
		return r.Build
	}
	t := &plots.Table{Single: true,
		Keys: []string{"nodes", "degree", "join", "redirect", "seeds", "depth", "messages_per_node", "messages_max", "propagation_ms", "reach99_ms"},
	}
	row := []any{c.Nodes, c.Degree, c.Join.String(), c.Redirect.String(), len(res),
		col(func(r tree.SeedResult) float64 { return float64(m(r).Depth) }),
		col(func(r tree.SeedResult) float64 { return m(r).MessagesMean }),
		col(func(r tree.SeedResult) float64 { return float64(m(r).MessagesMax) }),
		col(func(r tree.SeedResult) float64 { return m(r).PropagationMs }),
		col(func(r tree.SeedResult) float64 { return m(r).Reach99Ms }),
	}
	if x.Fail {
		all := true
		for _, r := range res {
			all = all && r.Repair.Reconnected
		}
		t.Keys = append(t.Keys, "fraction", "repair", "elect", "failed", "reconnected", "reconnect_ms", "repair_messages", "messages_increase_pct", "join_requests_increase_pct", "depth_change_pct", "pings")
		row = append(row, c.FailFraction, c.Repair.String(), c.Elect.String(),
			col(func(r tree.SeedResult) float64 { return float64(r.Repair.Failed) }), all,
			col(func(r tree.SeedResult) float64 { return r.Repair.ReconnectMs }),
			col(func(r tree.SeedResult) float64 { return float64(r.Repair.RepairMsgs) }),
			col(func(r tree.SeedResult) float64 {
				return 100 * float64(r.Repair.RepairMsgs) / float64(r.Build.MessagesTotal)
			}),
			col(func(r tree.SeedResult) float64 {
				return 100 * float64(r.Repair.JoinRequests-r.Build.JoinRequests) / float64(r.Build.JoinRequests)
			}),
			col(func(r tree.SeedResult) float64 {
				return 100 * float64(r.Repair.Depth-r.Build.Depth) / float64(r.Build.Depth)
			}),
			col(func(r tree.SeedResult) float64 { return float64(r.Repair.Pings) }),
		)
	}
	t.Rows = [][]any{row}
	return t
}
