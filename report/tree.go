package report

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gossipkit/gossipkit/broadcast"

	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// treeRuns runs seeds 0..n−1 of cfg from the study's seed.
func (s *Study) treeRuns(ctx context.Context, cfg tree.Config, n int, fail bool) ([]tree.SeedResult, error) {
	return s.runTree(ctx, tree.Experiment{Cfg: cfg, Fail: fail, Seeds: n, Seed: s.Scale.Seed})
}

// TreePoint is one point of the tree sweep: mean ± sd over seeds.
type TreePoint struct{ Depth, Msgs, Prop tree.Stat }

// Tree is section 8: the tree sweep over k (Figs. 3–4), Table I and
// Tables II–IV of the second source document.
type Tree struct {
	Seeds  int
	Ks     []int
	Curves map[tree.JoinStrategy][]TreePoint
	// Table1: a row per redirect strategy (distance, random).
	Table1 []Table1Row
	// Repairs holds Tables II–IV, in the order breakout, preservation,
	// election: a row per failure share.
	Repairs [][]RepairRow
}

// Table1Row is one redirect strategy of Table I: depth δ, control messages
// per node ν and the largest ν over seeds, beside the document's δ and ν.
type Table1Row struct {
	Redirect             tree.Redirect
	Seeds                int
	Depth, Msgs, MsgsMax tree.Stat
	DepthDoc, MsgsDoc    float64
}

// RepairRow is one row of Tables II–IV: a repair strategy's summary at
// one share of failed nodes.
type RepairRow struct {
	Repair    tree.Repair
	FailedPct float64
	Summary   tree.Summary
}

// table1 renders Table I.
func table1(rows []Table1Row) *plots.Table {
	t := &plots.Table{Keys: []string{"redirect", "depth", "depth_document", "messages_per_node", "messages_document", "messages_max"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.Redirect.String(), r.Depth, r.DepthDoc, r.Msgs, r.MsgsDoc, r.MsgsMax})
	}
	return t
}

// repairTable renders one of Tables II–IV.
func repairTable(rows []RepairRow) *plots.Table {
	t := &plots.Table{Keys: []string{"failed_pct", "depth", "depth_change_pct", "messages_per_node", "repair_messages_pct_of_build", "join_requests_increase_pct", "reconnect_ms", "reconnected"}}
	for _, r := range rows {
		sum := r.Summary
		t.Rows = append(t.Rows, []any{r.FailedPct, sum.Depth, sum.DepthChangePct, sum.MessagesPerNode,
			sum.RepairMessagesPct, sum.JoinRequestsIncreasePct, sum.ReconnectMs, sum.Reconnected})
	}
	return t
}

// trafficTable renders the repair's traffic by kind, a row per strategy
// and failure share (mean ± sd over seeds of each count, and the whole in
// % of the build's traffic).
func trafficTable(repairs [][]RepairRow) *plots.Table {
	t := &plots.Table{Keys: []string{"repair", "failed_pct", "join_msgs", "break_msgs", "election_msgs", "upkeep_msgs", "lookup_msgs", "traffic_increase_pct", "join_requests_increase_pct"}}
	for _, rows := range repairs {
		for _, r := range rows {
			sum := r.Summary
			t.Rows = append(t.Rows, []any{r.Repair.String(), r.FailedPct, sum.JoinMsgs, sum.BreakMsgs, sum.ElectionMsgs, sum.UpkeepMsgs, sum.LookupMsgs, sum.TrafficIncreasePct, sum.JoinRequestsIncreasePct})
		}
	}
	return t
}

// redirect returns Table I's row of strategy red.
func (r *Tree) redirect(red tree.Redirect) Table1Row {
	for _, row := range r.Table1 {
		if row.Redirect == red {
			return row
		}
	}
	return Table1Row{}
}

var treeRepairs = []tree.Repair{tree.Breakout, tree.Preservation, tree.Election}

// Tree computes section 8.
func (s *Study) Tree(ctx context.Context) (*Tree, error) {
	if err := s.ready(false); err != nil {
		return nil, err
	}
	seeds := s.Scale.TreeSeeds
	r := &Tree{Seeds: seeds, Ks: []int{2, 4, 8, 16, 32, 64}, Curves: map[tree.JoinStrategy][]TreePoint{}}
	depth := func(x tree.SeedResult) float64 { return float64(x.Build.Depth) }
	for _, join := range []tree.JoinStrategy{tree.JoinRoot, tree.JoinFirst} {
		for _, k := range r.Ks {
			s.step(fmt.Sprintf("tree: %v join, k = %d", join, k))
			cfg := tree.DefaultConfig()
			cfg.Join, cfg.Degree = join, k
			res, err := s.treeRuns(ctx, cfg, seeds, false)
			if err != nil {
				return nil, err
			}
			r.Curves[join] = append(r.Curves[join], TreePoint{
				Depth: tree.Over(res, depth),
				Msgs:  tree.Over(res, func(x tree.SeedResult) float64 { return x.Build.MessagesMean }),
				Prop:  tree.Over(res, func(x tree.SeedResult) float64 { return x.Build.PropagationMs }),
			})
		}
	}
	// Table I.
	doc := map[tree.Redirect][2]float64{tree.RedirectDistance: {6.93, 7.68}, tree.RedirectRandom: {6.00, 7.20}}
	for _, red := range []tree.Redirect{tree.RedirectDistance, tree.RedirectRandom} {
		s.step("tree: Table I, " + red.String())
		cfg := tree.DefaultConfig()
		cfg.Redirect = red
		res, err := s.treeRuns(ctx, cfg, 5*seeds, false)
		if err != nil {
			return nil, err
		}
		r.Table1 = append(r.Table1, Table1Row{Redirect: red, Seeds: 5 * seeds,
			Depth: tree.Over(res, depth), DepthDoc: doc[red][0],
			Msgs: tree.Over(res, func(x tree.SeedResult) float64 { return x.Build.MessagesMean }), MsgsDoc: doc[red][1],
			MsgsMax: tree.Over(res, func(x tree.SeedResult) float64 { return float64(x.Build.MessagesMax) })})
	}
	// Tables II–IV.
	for _, rep := range treeRepairs {
		var rows []RepairRow
		for _, f := range []float64{0.01, 0.05, 0.10, 0.20, 0.50} {
			s.step(fmt.Sprintf("tree: %v at %.0f%%", rep, 100*f))
			cfg := tree.DefaultConfig()
			cfg.Repair, cfg.FailFraction = rep, f
			x := tree.Experiment{Cfg: cfg, Fail: true, Seeds: seeds, Seed: s.Scale.Seed}
			res, err := s.runTree(ctx, x)
			if err != nil {
				return nil, err
			}
			rows = append(rows, RepairRow{Repair: rep, FailedPct: 100 * f, Summary: x.Summarize(res)})
		}
		r.Repairs = append(r.Repairs, rows)
	}
	return r, nil
}

// Render writes section 8.
func (r *Tree) Render(d *Doc) (err error) {
	defer incomplete("Tree.Render", &err)
	if r == nil || d == nil {
		return nilRender("Tree")
	}
	d.printf("A discrete-event simulation of the document's tree (`go doc ./tree` states every choice where the document is open). 4000 nodes, %d seeds per point unless stated.\n", r.Seeds)
	kx := make([]float64, len(r.Ks))
	for i, k := range r.Ks {
		kx[i] = float64(k)
	}
	series := func(get func(TreePoint) tree.Stat) []plots.Series {
		var out []plots.Series
		for i, join := range []tree.JoinStrategy{tree.JoinRoot, tree.JoinFirst} {
			var y, lo, hi []float64
			for _, p := range r.Curves[join] {
				s := get(p)
				y, lo, hi = append(y, s.Mean), append(lo, s.Mean-s.SD), append(hi, s.Mean+s.SD)
			}
			over := fmt.Sprintf("mean ± sd of %d seeds", r.Seeds)
			if r.Seeds == 1 {
				over = "one seed"
			}
			out = append(out, plots.Series{Name: fmt.Sprintf("join strategy %q, %s", join.String(), over), X: kx, Y: y, Lo: lo, Hi: hi, Points: true, Color: i})
			out = append(out, plots.Series{X: kx, Y: y, Color: i, Dashed: i == 1})
		}
		return out
	}
	d.printf("\n**Document (Figs. 3–4):** messages and depth fall as k grows, most steeply up to k = 8, the best trade-off; \"first\" is better than \"root\", which gives slightly lower depth.\n")
	if err := d.figure("tree_fig3",
		&plots.Spec{Title: "Fig. 3 (analogue): control messages per node ν against k", XLabel: "node degree k", YLabel: "ν, mean over nodes", Series: series(func(p TreePoint) tree.Stat { return p.Msgs })},
		&plots.Spec{Title: "Fig. 3 (analogue): tree depth δ against k", XLabel: "node degree k", YLabel: "depth δ", Series: series(func(p TreePoint) tree.Stat { return p.Depth })},
	); err != nil {
		return err
	}
	if err := d.figure("tree_fig4", &plots.Spec{Title: "Fig. 4 (analogue): propagation delay π against k", XLabel: "node degree k", YLabel: "π (ms)", Series: series(func(p TreePoint) tree.Stat { return p.Prop })}); err != nil {
		return err
	}
	k8 := r.Curves[tree.JoinFirst][slices.Index(r.Ks, 8)]
	d.printf("**Measured:** at k = 8, first strategy: δ = %v, ν = %v, π = %v ms. Under this package's reading of \"first\" (the earliest registration under the group key, which is the root while nothing fails) building with first and root gives the same tree, so the two curves coincide; the document's small differences between them cannot be reproduced without knowing what its lookup returned (a reading that takes the member XOR-closest to the group identifier gives depth ≈ 21, see `go doc ./tree`).\n", k8.Depth, k8.Msgs, k8.Prop)
	d.printf("\nTable I (analogue): redirect strategies, 4000 nodes, k = 8, first, %d seeds (the document: 50). ν counts join requests and answers delivered; the document does not say which messages it counted, and its ν is about 0.6 lower, consistent with counting one message fewer per join.\n", 5*r.Seeds)
	if err := d.table("tree_table1", table1(r.Table1)); err != nil {
		return err
	}
	d.printf("\n**Document (Tables II–IV):** after failures of 1–50 %% of the nodes, breakout keeps the depth small but requests grow by up to 427 %%; preservation raises depth by up to 44.26 %% and traffic by up to 163.7 %%; recursive election changes depth slightly with a very limited rise in requests. 4000 nodes, k = 8, first, random.\n")
	for i, rep := range treeRepairs {
		d.printf("\nTable %s (analogue): %v.\n", []string{"II", "III", "IV"}[i], rep)
		if err := d.table("tree_"+rep.String(), repairTable(r.Repairs[i])); err != nil {
			return err
		}
	}
	cfg := tree.DefaultConfig()
	d.printf("\n**The repair's traffic.** Join requests alone miss what a repair costs: the election sends no join request at all. Counted by kind (the rules are in docs/MODEL.md §5): the join requests and answers of the re-joins; the break notices of breakout; the election's messages (ELECTION, OK, COORDINATOR) and each winner's attachment; the upkeep of the sibling and grandparent references that the election needs \"fresh and constantly updated\" (one message to each live child whenever a parent's children change during the repair, and one refresh every %g ms to every node with a sibling, over the periods from one before the failure to the reconnection; none under breakout and preservation, which need no such references); and the DHT look-ups of the re-joins, %d messages each at N = %d (2⌈log₂ N⌉). The upkeep is also a standing cost while nothing fails: about one message per node with a sibling per refresh period (%.0f per node per minute at %g ms). The traffic is the whole in %% of the build's counted alike (its ν and its look-ups); the three repair verdicts are judged on it.\n",
		float64(tree.DefaultSiblingRefreshMs), tree.LookupCost(cfg.Nodes), cfg.Nodes, 60000.0/tree.DefaultSiblingRefreshMs, float64(tree.DefaultSiblingRefreshMs))
	return d.table("tree_repair_traffic", trafficTable(r.Repairs))
}

// GossipVsTree is section 9: one notification delivered by the tree and
// by the shuffle protocol, without and with failures.
type GossipVsTree struct {
	Items, Cache, Exchange int
	FailNodes              int
	// TreeSeeds trees are built per N (gossipTreeSeeds, and
	// gossipTreeFailSeeds with failures); the protocol runs GossipRuns
	// replications per point.
	TreeSeeds, TreeFailSeeds, GossipRuns int
	Rows                                 []GossipTreeRow
	Failures                             []GossipTreeFailRow
	// AllReached: the protocol reached every survivor in every run.
	AllReached bool
}

// GossipTreeRow is one group size N: the tree's times to reach 99 % and
// all of the nodes and its messages per node, the protocol's rounds to
// 99 % coverage, in ms at 1 s a round, and its messages per node, and
// push broadcast's (memberlist's fanout 3, no budget) law of T_0.99 in
// rounds (package broadcast), in ms at memberlist's 200 ms a round, and
// its messages per node until then.
type GossipTreeRow struct {
	N                              int
	TreeReach99Ms, TreeAllMs       tree.Stat
	TreeMsgsPerNode                float64
	GossipT99                      tree.Stat // rounds
	GossipT99Ms, GossipMsgsPerNode float64
	PushT99                        tree.Stat // rounds
	PushMethod                     string
	PushT99Ms, PushMsgsPerNode     float64
}

// GossipTreeFailRow is one failure share: the share of survivors that the
// tree and the protocol reach, and the protocol's rounds to 99 % of them.
type GossipTreeFailRow struct {
	FailedPct              float64
	TreeShare, GossipShare tree.Stat
	GossipT99              tree.Stat
}

// gossipTreeTable renders gossip_vs_tree.
func gossipTreeTable(rows []GossipTreeRow) *plots.Table {
	t := &plots.Table{Keys: []string{"N", "tree_reach99_ms", "tree_all_ms", "tree_msgs_per_node", "gossip_t99_rounds", "gossip_t99_ms", "gossip_msgs_per_node",
		"push_t99_rounds", "push_t99_ms", "push_msgs_per_node", "push_method"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.N, r.TreeReach99Ms, r.TreeAllMs, r.TreeMsgsPerNode, r.GossipT99, r.GossipT99Ms, r.GossipMsgsPerNode,
			r.PushT99, r.PushT99Ms, r.PushMsgsPerNode, r.PushMethod})
	}
	return t
}

// gossipTreeFailTable renders gossip_vs_tree_failures.
func gossipTreeFailTable(rows []GossipTreeFailRow) *plots.Table {
	t := &plots.Table{Keys: []string{"failed_pct", "tree_share_reached", "gossip_share_reached", "gossip_t99_rounds"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.FailedPct, r.TreeShare, r.GossipShare, r.GossipT99})
	}
	return t
}

type gossipStats struct{ t99, share tree.Stat }

// The trees built per group size, and per failure share, in section 9.
const gossipTreeSeeds, gossipTreeFailSeeds = 3, 5

// gossipRuns is the protocol's replications per point of section 9.
func gossipRuns(sc Scale) int { return max(2, sc.OptReps) }

// gossipCoverage runs the protocol at N nodes with a failure share and
// returns the rounds to 99 % coverage of the survivors and the final share.
func (s *Study) gossipCoverage(ctx context.Context, N int, frac float64) (gossipStats, error) {
	sc := s.Scale
	cfg := sim.DefaultConfig()
	cfg.Nodes, cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Shuffle.Exchange = N, sc.Ns[0], sc.Cache, sc.Exchange
	cfg.Warmup, cfg.Rounds, cfg.Reps, cfg.FailFraction = sc.OptWarmup, 2*sc.OptRounds/3, gossipRuns(sc), frac
	cfg.Shuffle.Cache = min(cfg.Shuffle.Cache, cfg.Shuffle.Items)
	res, err := s.simulate(ctx, cfg)
	if err != nil {
		return gossipStats{}, err
	}
	alive := float64(N - int(frac*float64(N)+0.5))
	share := make([]float64, len(res.Reps))
	for i, rep := range res.Reps {
		share[i] = float64(rep.Y[len(rep.Y)-1]) / alive
	}
	return gossipStats{t99: tree.StatOf(res.TimesToCoverage(0.99 * alive)), share: tree.StatOf(share)}, nil
}

// GossipVsTree computes section 9.
func (s *Study) GossipVsTree(ctx context.Context) (*GossipVsTree, error) {
	if err := s.ready(true); err != nil {
		return nil, err
	}
	sc := s.Scale
	r := &GossipVsTree{Items: sc.Ns[0], Cache: sc.Cache, Exchange: sc.Exchange, FailNodes: sc.GossipTreeFailNodes,
		TreeSeeds: gossipTreeSeeds, TreeFailSeeds: gossipTreeFailSeeds, GossipRuns: gossipRuns(sc)}
	for _, N := range sc.GossipTreeNs {
		s.step(fmt.Sprintf("gossip against tree, N = %d", N))
		cfg := tree.DefaultConfig()
		cfg.Nodes = N
		res, err := s.treeRuns(ctx, cfg, gossipTreeSeeds, false)
		if err != nil {
			return nil, err
		}
		t99 := tree.Over(res, func(x tree.SeedResult) float64 { return x.Build.Reach99Ms })
		tall := tree.Over(res, func(x tree.SeedResult) float64 { return x.Build.PropagationMs })
		g, err := s.gossipCoverage(ctx, N, 0)
		if err != nil {
			return nil, err
		}
		push, err := broadcast.Solve(ctx, broadcast.Config{Nodes: N, Protocol: broadcast.Push, Fanout: pushFanout, Level: 0.99}, broadcast.Settings{Seed: sc.Seed})
		if err != nil {
			return nil, err
		}
		r.Rows = append(r.Rows, GossipTreeRow{N: N, TreeReach99Ms: t99, TreeAllMs: tall, TreeMsgsPerNode: float64(N-1) / float64(N),
			GossipT99: g.t99, GossipT99Ms: math.Round(1000 * g.t99.Mean), GossipMsgsPerNode: math.Round(2 * g.t99.Mean),
			PushT99: tree.Stat{Mean: push.Mean, SD: push.SD}, PushMethod: push.Method.String(), PushT99Ms: math.Round(1000 * pushInterval * push.Mean), PushMsgsPerNode: push.Messages})
	}
	N := sc.GossipTreeFailNodes
	r.AllReached = true
	for _, frac := range []float64{0.1, 0.2, 0.5} {
		s.step(fmt.Sprintf("gossip against tree with %.0f%% failures", 100*frac))
		cfg := tree.DefaultConfig()
		cfg.Nodes = N
		share := make([]float64, 0, gossipTreeFailSeeds)
		for i := range gossipTreeFailSeeds {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			cfg.Seed = sc.Seed + uint64(i)
			t, _, err := tree.Build(ctx, cfg)
			if err != nil {
				return nil, err
			}
			share = append(share, t.ReachWithFailures(frac))
		}
		g, err := s.gossipCoverage(ctx, N, frac)
		if err != nil {
			return nil, err
		}
		r.Failures = append(r.Failures, GossipTreeFailRow{FailedPct: 100 * frac, TreeShare: tree.StatOf(share), GossipShare: g.share, GossipT99: g.t99})
		r.AllReached = r.AllReached && g.share.Mean == 1 && g.share.SD == 0
	}
	return r, nil
}

// Push broadcast as memberlist runs it: fanout 3, a round every 200 ms.
const (
	pushFanout   = 3
	pushInterval = 0.2 // seconds
)

// Render writes section 9.
func (r *GossipVsTree) Render(d *Doc) (err error) {
	defer incomplete("GossipVsTree.Render", &err)
	if r == nil || d == nil {
		return nilRender("GossipVsTree")
	}
	d.printf("Tree: built as in section 8 (k = 8 children per node, join \"first\", random redirection) but over N nodes rather than 4000, %d seeds per N; the root sends the notification; time to reach 99 %% of the nodes and to reach all (π), and notification messages per node ((N−1)/N). Shuffle protocol: c = %d, s = %d, n = %d items, %d runs per N; the notification is a new item inserted at one node; time in rounds to 99 %% coverage, converted at an assumed gossip period of 1 s, and messages per node up to then (every node initiates one shuffle a round: 2 messages delivered per node per round, each carrying s items; the gossip runs anyway, the notification rides on it). Push broadcast as memberlist and Serf deploy it (package `broadcast`, section 11): fanout 3, one round every 200 ms, no budget, no loss; the law of T_0.99 (mean ± sd, by the method `push_method` names) and the messages per node until then. Each tree and shuffle cell is the mean ± sd over those seeds or runs. Failures: a share of the nodes (not the source) fails as dissemination starts, with no time for repair in the tree; reported is the share of surviving nodes that receive the notification.\n", r.TreeSeeds, r.Cache, r.Exchange, r.Items, r.GossipRuns)
	lo, hi := 50.0, 200000.0 // decades 100 ms … 100 s labelled
	var ns []float64
	for _, row := range r.Rows {
		ns = append(ns, float64(row.N))
	}
	if err := d.figure("gossip_vs_tree", &plots.Spec{Title: "Time to deliver one notification to 99 % of N nodes", XLabel: "group size N (log scale)", YLabel: "ms (shuffle: 1 s a round, push: 200 ms; log scale)", LogX: true, XTicks: ns, LogY: true, YMin: &lo, YMax: &hi,
		Series: r.series(lo)}); err != nil {
		return err
	}
	if err := d.table("gossip_vs_tree", gossipTreeTable(r.Rows)); err != nil {
		return err
	}
	d.printf("\nFailures during dissemination, N = %d (tree: %d seeds; gossip: %d runs; mean ± sd):\n", r.FailNodes, r.TreeFailSeeds, r.GossipRuns)
	if err := d.table("gossip_vs_tree_failures", gossipTreeFailTable(r.Failures)); err != nil {
		return err
	}
	reach := "reaches every survivor in every run"
	if !r.AllReached {
		reach = "does not reach every survivor within the simulated rounds in every run (see the table)"
	}
	d.printf("\nThe tree delivers in tens to hundreds of milliseconds with one message per node but loses every node below a failed one until the repair (seconds later, section 8); the shuffle protocol needs tens of rounds and far more (if shared) traffic, and %s; push broadcast at memberlist's settings reaches 99 %% within about two seconds at every N here, with a few messages per node (the table), and under failures and loss the chance that a live node is never reached is section 11's question.\n", reach)
	return nil
}

// series draws the two delivery times against N: a marker at each mean
// with an error bar of ± one sd over the seeds (tree) or runs (gossip),
// joined by a line; a bar's lower end is kept above floor (the log axis
// cannot show 0).
func (r *GossipVsTree) series(floor float64) []plots.Series {
	var ns []float64
	var t, g, p [3][]float64 // mean, lo, hi
	add := func(v *[3][]float64, s tree.Stat, scale float64) {
		m, sd := scale*s.Mean, scale*s.SD
		v[0], v[1], v[2] = append(v[0], m), append(v[1], math.Max(m-sd, floor)), append(v[2], m+sd)
	}
	for _, row := range r.Rows {
		ns = append(ns, float64(row.N))
		add(&t, row.TreeReach99Ms, 1)
		add(&g, row.GossipT99, 1000)
		add(&p, row.PushT99, 1000*pushInterval)
	}
	return []plots.Series{
		{Name: fmt.Sprintf("spanning tree (k = 8), mean ± sd of %d seeds", r.TreeSeeds), X: ns, Y: t[0], Lo: t[1], Hi: t[2], Points: true, Color: 0}, {X: ns, Y: t[0], Color: 0},
		{Name: fmt.Sprintf("shuffle protocol, mean ± sd of %d runs", r.GossipRuns), X: ns, Y: g[0], Lo: g[1], Hi: g[2], Points: true, Color: 1}, {X: ns, Y: g[0], Color: 1, Dashed: true},
		{Name: "push broadcast (fanout 3, 200 ms a round), mean ± sd of its law", X: ns, Y: p[0], Lo: p[1], Hi: p[2], Points: true, Color: 2}, {X: ns, Y: p[0], Color: 2, Dotted: true},
	}
}
