package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/atomicfile"
	"github.com/gossipkit/gossipkit/internal/buildinfo"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/sim"
)

// Scale fixes the sizes of one reproduction. Quick and Paper are the two
// the CLI offers; any other is built field by field.
type Scale struct {
	Name string
	// Seed is the random seed of every simulation.
	Seed uint64
	// Fig. 4: n from c+Fig4Step to Fig4NMax by Fig4Step, for every cache
	// size in Fig4C and exchange size in Fig4S (nil: 250, 500 and
	// 1, 2, 5, 10, 25).
	Fig4NMax, Fig4Step int
	Fig4C, Fig4S       []int
	// ProveS: the γ identity is proved for every s = 1..ProveS.
	ProveS int
	// Figs. 7, 8 and the model comparison: the paper's experiment with
	// Nodes nodes, caches of Cache, exchanges of Exchange and each n in Ns,
	// Warmup + Rounds rounds, Reps protocol and MarkovReps pairwise-Markov
	// replications.
	Nodes, Cache, Exchange int
	Ns                     []int
	Warmup, Rounds, Reps   int
	MarkovReps             int
	// The optimal-s simulation: OptNodes nodes, each exchange size in OptS,
	// OptWarmup + OptRounds rounds, OptReps replications.
	OptNodes                      int
	OptS                          []int
	OptWarmup, OptRounds, OptReps int
	Refined                       []RefinedCase
	TreeSeeds                     int   // seeds per point of the tree sweep
	GossipTreeNs                  []int // group sizes of the gossip-against-tree comparison
	GossipTreeFailNodes           int   // group size of its failure table
	// BroadcastN is the largest N at which the "gossip as deployed"
	// section runs the exact chain of package broadcast (the budget table
	// goes to 100·BroadcastN by the large-N law); 0 means 100.
	BroadcastN int
	// The "real network" section: the experiment of Figs. 7–8 on a random
	// NetDegree-regular graph and on the torus of the same mean degree,
	// at each n of NetNs, NetReps runs of NetWarmup + NetRounds rounds
	// (zero values: the first n of Ns, degree 20, and Reps, Warmup and
	// Rounds).
	NetNs                []int
	NetDegree, NetReps   int
	NetWarmup, NetRounds int
	// Its loss part: the exact chain at each N of LossNs, and the
	// protocol with loss at the last of them, LossReps runs of NetWarmup +
	// LossRounds rounds (zero values: 100 and Nodes, NetReps, NetRounds).
	LossNs               []int
	LossReps, LossRounds int
	// RepsPerWarm is the number of protocol replications that branch from
	// one warm-up (sim.Config.WarmStates = ⌈R/RepsPerWarm⌉ for R
	// replications) in every protocol run with a warm-up on the complete
	// graph, lossless or with loss ε ≤ 0.1, and on the random regular
	// graph (sections 3–4, 6, 7, 9, 12); 0, the quick scale's, warms each
	// replication's caches on its own. Runs on the torus and at ε = 0.3
	// keep a warm-up each: there the replications sharing one are
	// correlated (warmStates).
	RepsPerWarm int
}

// RefinedCase is one validation setting of the refined mean field (section
// 7): N nodes, Initial copies, T rounds; the exact chain in continuous
// time, with Runs pairwise-Markov runs under the continuous-time schedule
// where the joint chain is out of reach (coverage at N > 300), RoundRuns
// under the round schedule, ProtoRuns protocol runs of ProtoT rounds (the
// deviations are over by then). Plot draws its deviation panels.
type RefinedCase struct {
	N, Initial, T              int
	Runs, RoundRuns, ProtoRuns int
	ProtoT                     int
	Plot                       bool
}

// Quick is the default scale: under 3 minutes on 2 cores.
func Quick() Scale {
	return Scale{Name: "quick", Seed: 1, Fig4NMax: 3000, Fig4Step: 25, ProveS: 60,
		Nodes: 2500, Cache: 100, Exchange: 50, Ns: []int{500, 1000, 2000}, Warmup: 200, Rounds: 500, Reps: 10, MarkovReps: 200,
		OptNodes: 1000, OptS: []int{10, 20, 30, 40, 50, 53, 60, 70, 80, 90}, OptWarmup: 100, OptRounds: 400, OptReps: 4,
		// At N = 100 the continuous-time reference is the exact chain (no
		// runs); the refined error there, about 5·10⁻⁴ with 5 copies, is
		// seen without noise. At N = 2500 the protocol runs 150 rounds (the
		// deviations are over by then): 20 runs over 300 rounds left
		// standard errors of 0.04 in coverage, 40 over 150 bring them to
		// about 0.025 within the time budget.
		Refined:   refinedCases([3]int{0, 20000, 400}, [3]int{0, 20000, 400}, [3]int{200, 200, 40}, 150),
		TreeSeeds: 10, GossipTreeNs: []int{100, 500, 1000, 2000, 4000}, GossipTreeFailNodes: 1000,
		BroadcastN: 1000,
		// Section 12 in about 14 s of CPU: two partial views × 10 runs ×
		// 170 rounds at N = 2500, 8.4 s (n = 500 covers the torus within
		// about 125 rounds); the protocol with loss, 2 × 20 runs × 180
		// rounds at N = 500, 3 s.
		NetNs: []int{500}, NetReps: 10, NetWarmup: 30, NetRounds: 140,
		LossNs: []int{100, 500}, LossReps: 20, LossRounds: 150}
}

// Paper runs the paper's 100 replications of 1000 + 1000 rounds: 39.4
// CPU-minutes and 21 min 11 s of wall time on 2 idle cores (measured on
// 2026-12-02; docs/PERFORMANCE.md lists each section against its floor); as 16
// array tasks (RunShard), at most 2 min 45 s of wall time a task (measured
// before the warm states were shared).
func Paper() Scale {
	sc := Quick()
	sc.Name, sc.Fig4NMax, sc.Fig4Step, sc.ProveS = "paper", 5000, 10, 120
	sc.Warmup, sc.Rounds, sc.Reps, sc.MarkovReps = 1000, 1000, 100, 1000
	sc.OptNodes, sc.OptWarmup, sc.OptRounds, sc.OptReps = 2500, 1000, 1000, 20
	sc.OptS = []int{5, 10, 20, 30, 40, 45, 50, 53, 55, 60, 65, 70, 80, 90}
	// N = 2500: 2000 round-schedule Markov runs bring the standard error
	// of their mean to 5·10⁻⁴ (x) and 2.6·10⁻³ (y), a ninth of the
	// departures from the expansion they show (about 5·10⁻³ and 2·10⁻²);
	// the 20000 of earlier versions cost 10 CPU-minutes for a precision
	// nothing reads. The protocol runs 150 rounds, as in the quick scale.
	sc.Refined = refinedCases([3]int{0, 100000, 2000}, [3]int{0, 100000, 2000}, [3]int{20000, 2000, 200}, 150)
	// Section 12: the paper's three n with its warm-up and rounds, 20
	// runs each on the two partial views, and 40 runs with loss at N =
	// 2500: 600 CPU-seconds measured before its runs on the regular graph
	// and at ε = 0.1 branched (467 measured alone since).
	sc.NetNs, sc.NetReps, sc.NetWarmup, sc.NetRounds = sc.Ns, 20, 1000, 1000
	sc.LossNs, sc.LossReps, sc.LossRounds = []int{100, 2500}, 40, 500
	// Five replications branch from each warm-up (sections 3–4, 6, 7, 9,
	// and 12's runs on the regular graph and at ε = 0.1: warmStates): the
	// warm-ups were 1000 of each run's 1100 to 2000 rounds. The
	// intraclass correlation of replications sharing a warm state,
	// measured at N = 2500 on the complete graph (testdata/README.md,
	// "Warm states"), is
	// ρ̂ between −0.02 and +0.02, se 0.01–0.02, every 95 % interval
	// containing 0 (upper bounds up to 0.09): the standard errors'
	// inflation √(1 + 4ρ) is 2 % or less at the estimates, at most 16 % at
	// the bounds. Ten a warm-up would save about 200 CPU-seconds more and
	// inflate them by 4 % (35 %). The take-off bootstrap resamples warm
	// states (bootstrapMinShare).
	sc.RepsPerWarm = 5
	return sc
}

// Smoke is a scale of seconds for checking an installation or a
// deployment (the array job of deploy/): every section and every kind of
// simulation runs, on sizes too small for its numbers to mean anything.
func Smoke() Scale {
	return Scale{Name: "smoke", Seed: 1, Fig4NMax: 700, Fig4Step: 100, ProveS: 5,
		Nodes: 200, Cache: 20, Exchange: 10, Ns: []int{100, 200}, Warmup: 10, Rounds: 60, Reps: 3, MarkovReps: 10,
		OptNodes: 100, OptS: []int{5, 10, 15}, OptWarmup: 5, OptRounds: 60, OptReps: 2,
		Refined:   []RefinedCase{{N: 50, Initial: 5, T: 40, Runs: 50, RoundRuns: 50, ProtoRuns: 5, ProtoT: 40, Plot: true}},
		TreeSeeds: 1, GossipTreeNs: []int{50, 100}, GossipTreeFailNodes: 100,
		// Two replications a warm-up, so that the branching runs (and
		// their shards and merge) are exercised as at the paper scale.
		RepsPerWarm: 2}
}

// refinedCases are the four settings of section 7: N = 100 with 5 and 1
// initial copies over 100 rounds, N = 2500 with 5 and 1 over 300 (the
// protocol over protoT2500); each [3]int is (Runs, RoundRuns, ProtoRuns).
// The 5-copy cases are plotted.
func refinedCases(n100x5, n100x1, n2500 [3]int, protoT2500 int) []RefinedCase {
	c := func(N, initial, T, protoT int, runs [3]int) RefinedCase {
		return RefinedCase{N: N, Initial: initial, T: T, Runs: runs[0], RoundRuns: runs[1], ProtoRuns: runs[2], ProtoT: protoT, Plot: initial == 5}
	}
	return []RefinedCase{c(100, 5, 100, 100, n100x5), c(100, 1, 100, 100, n100x1), c(2500, 5, 300, protoT2500, n2500), c(2500, 1, 300, protoT2500, n2500)}
}

// Options control how a reproduction runs, never what it computes.
type Options struct {
	// Workers is the number of simulation goroutines (0: sim.DefaultWorkers).
	Workers int
	// StepStart, if not nil, is told the name of each step as it starts.
	// It is a log hook, not a progress count: the report's steps differ
	// too much in cost for a done/total fraction (gossip.Progress) to mean
	// anything, and StepDone reports each step's time.
	StepStart func(step string)
	// StepDone, if not nil, is told the time of each step of Run as it
	// finishes (for a log line per step in a batch job).
	StepDone func(StepTime)
}

// Study is the shared state of one reproduction: its scale and options and
// the simulations that several sections read (run once, on first use).
type Study struct {
	Scale Scale
	opt   Options
	// protocol runs of Figs. 7/8 by n
	fig78 *Fig78
	clock *clock  // the step timer of Run, RunShard and Merge (nil otherwise)
	run   *runner // shard or merge (nil: every simulation in full)
	// warm keeps the warm states that later runs use again (warmCache).
	warm *sim.WarmCache
}

// NewStudy returns a study of sc.
func NewStudy(sc Scale, opt Options) *Study {
	if opt.Workers < 1 {
		opt.Workers = sim.DefaultWorkers()
	}
	return &Study{Scale: sc, opt: opt}
}

// ready refuses a nil Study, and, for a section that runs the paper's
// experiment (experiment), a Scale without one: no n in Ns, fewer than 2
// nodes, or an (n, Cache, Exchange) that is not a shuffle; and values no
// section can take: an OptS entry below 1, a Refined case's T outside
// 2..10⁶, Rounds or NetRounds above 10⁷. A section would index or divide
// by these (the zero Scale panicked in eight sections); the CLI's scales
// always have them.
func (s *Study) ready(experiment bool) error {
	if s == nil {
		return errors.New("report: nil Study (make one with NewStudy)")
	}
	if !experiment {
		return nil
	}
	sc := s.Scale
	if len(sc.Ns) == 0 {
		return fielderr.New("report", "Scale.Ns", "is empty: the experiment needs at least one number of items n")
	}
	if sc.Nodes < 2 {
		return fielderr.New("report", "Scale.Nodes", "= %d: need at least 2 nodes", sc.Nodes)
	}
	for _, n := range sc.Ns {
		if err := (gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}).Validate(); err != nil {
			return fielderr.Within("report", "Scale", err)
		}
	}
	// The section on a real network draws the ODE over every round before
	// any simulation refuses them: at most sim's 10⁷.
	if sc.Rounds > 10_000_000 {
		return fielderr.New("report", "Scale.Rounds", "= %d: valid range up to 10⁷ rounds", sc.Rounds)
	}
	if sc.NetRounds > 10_000_000 {
		return fielderr.New("report", "Scale.NetRounds", "= %d: valid range up to 10⁷ rounds", sc.NetRounds)
	}
	// The entries of the lists, where there are any: an exchange size
	// indexes the chain's results by s − 1, and a refined case's T rounds
	// are T + 1 output times and its deviations' peak (section 7).
	for i, sz := range sc.OptS {
		if sz < 1 {
			return fielderr.New("report", fmt.Sprintf("Scale.OptS[%d]", i), "= %d: need an exchange size ≥ 1", sz)
		}
	}
	for i, rc := range sc.Refined {
		// At most 10⁶ rounds, meanfield.MaxIntervals (the chain and the
		// integrator keep every round).
		if rc.T < 2 || rc.T > 1_000_000 {
			return fielderr.New("report", fmt.Sprintf("Scale.Refined[%d].T", i), "= %d: need 2 ≤ T ≤ 10⁶ rounds", rc.T)
		}
	}
	return nil
}

func (s *Study) step(name string) {
	if s.opt.StepStart != nil {
		s.opt.StepStart(name)
	}
	if s.clock != nil {
		s.clock.step(name)
	}
}

// simulate runs one simulation of the study's seed with its workers (and
// the scale's warm states: warmStates).
func (s *Study) simulate(ctx context.Context, cfg sim.Config) (*sim.Result, error) {
	cfg.Seed = s.Scale.Seed
	cfg.WarmStates = warmStates(s.Scale, cfg)
	return s.runSim(ctx, cfg)
}

// warmStates is the number of warm states of a run of cfg at scale sc:
// ⌈Reps/RepsPerWarm⌉ for a protocol run with a warm-up on the complete
// graph with loss ε ≤ warmLossMax, or on a random regular graph without
// loss, else 0 (a warm-up per replication). The intraclass correlation ρ
// of replications sharing a warm state was measured on each kind
// (testdata/README.md, "Warm states"), on the quantities the report reads:
// on the 20-regular graph and at ε = 0.1, ρ̂ between −0.06 and +0.04 in
// two batches of 160 and 320 runs, the 95 % upper bounds 0.04–0.16. On the
// torus (a random geometric graph) ρ̂ = +0.10 for the growth time of
// replication, its interval above 0, and at ε = 0.3 ρ̂ = +0.11 to +0.22
// for the growth times in both batches (one interval above 0): those runs
// do not branch. Under loss the replications of a warm state share the
// items alive at t = 0; each mean stays unbiased (every warm state has the
// law of a warm-up), and at the paper's N·c/n = 500 copies an item none
// dies in the warm-up (500 alive in every measured run). ρ was measured at
// n = 500 only; the paper scale's regular-graph runs at n = 1000 and 2000
// branch too, an extrapolation (on the complete graph ρ̂ was as small at
// n = 2000 as at 500).
func warmStates(sc Scale, cfg sim.Config) int {
	if sc.RepsPerWarm <= 0 || cfg.Model != sim.Protocol || cfg.Warmup == 0 || cfg.Reps < 1 || !(cfg.Loss <= warmLossMax) ||
		(cfg.Topology.Kind != sim.Full && (cfg.Topology.Kind != sim.Regular || cfg.Loss != 0)) {
		return 0
	}
	return (cfg.Reps + sc.RepsPerWarm - 1) / sc.RepsPerWarm
}

// warmLossMax is the largest message loss at which protocol runs branch
// from shared warm-ups (warmStates): measured at 0.1, correlated at 0.3.
const warmLossMax = 0.1

// warmCache is the cache of warm states for a run of cfg: the study's for
// a run with warm states whose warm-up is that of one of section 7's
// protocol runs (N of a Refined case, n = Ns[0], the scale's c and s,
// OptWarmup rounds, lossless, on the complete graph, under the rounds
// schedule), nil for any other. Warm state j is a function of the seed, j
// and the warm-up alone (sim.WarmCache), so those runs (section 7's with
// one and with five initial copies, and at N = Nodes the runs of Figs.
// 7–8 at n = Ns[0] and section 6's at s = Exchange when their warm-up is
// as long; section 9's at N = 100) compute each state once, and every
// replication is what it would be without the cache. Other states are
// not kept: the cache holds only those used again (at the paper scale 40
// states of 0.5 MB at N = 2500 and 400 of 20 kB at N = 100).
func (s *Study) warmCache(cfg sim.Config) *sim.WarmCache {
	sc := s.Scale
	if cfg.WarmStates == 0 || cfg.Model != sim.Protocol || cfg.Loss != 0 || cfg.Topology.Kind != sim.Full || cfg.Schedule != sim.Rounds || len(sc.Ns) == 0 ||
		cfg.Shuffle != (gossip.Shuffle{Items: sc.Ns[0], Cache: sc.Cache, Exchange: sc.Exchange}) || cfg.Warmup != sc.OptWarmup {
		return nil
	}
	for _, rc := range sc.Refined {
		if rc.ProtoRuns > 0 && rc.N == cfg.Nodes {
			if s.warm == nil {
				s.warm = sim.NewWarmCache()
			}
			return s.warm
		}
	}
	return nil
}

// experiment runs the protocol (or Markov) experiment with given sizes.
func (s *Study) experiment(ctx context.Context, model sim.Model, N, n, c, sz, W, T, R int) (*sim.Result, error) {
	cfg := sim.DefaultConfig()
	cfg.Model, cfg.Nodes, cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Shuffle.Exchange = model, N, n, c, sz
	cfg.Warmup, cfg.Rounds, cfg.Reps = W, T, R
	return s.simulate(ctx, cfg)
}

// A Renderer is a section's computed result; Render writes its text,
// tables and figures.
type Renderer interface {
	Render(d *Doc) error
}

// Section is one numbered section of REPORT.md: a title and the compute
// step that returns its result.
type Section struct {
	Title   string
	Compute func(ctx context.Context, s *Study) (Renderer, error)
	// Exact: the section runs no simulation, so a shard (RunShard) skips
	// it and only the merge computes it.
	Exact bool
}

// typed adapts a typed compute step to a Section's.
func typed[R Renderer](f func(*Study, context.Context) (R, error)) func(context.Context, *Study) (Renderer, error) {
	return func(ctx context.Context, s *Study) (Renderer, error) {
		r, err := f(s, ctx)
		if err != nil {
			return nil, err
		}
		return r, nil
	}
}

// view is a Renderer made of a render function over a shared result.
type view struct {
	render   func(d *Doc) error
	verdicts []Verdict
}

func (v view) Render(d *Doc) error { return v.render(d) }

// Verdicts are the claims this view judges.
func (v view) Verdicts() []Verdict { return v.verdicts }

// fig78Section is a section that renders one side of the shared Fig78 and
// judges the claims of that side.
func fig78Section(render func(*Fig78, *Doc) error, verdicts func(*Fig78) []Verdict) func(context.Context, *Study) (Renderer, error) {
	return func(ctx context.Context, s *Study) (Renderer, error) {
		f, err := s.Fig78(ctx)
		if err != nil {
			return nil, err
		}
		return view{render: func(d *Doc) error { return render(f, d) }, verdicts: verdicts(f)}, nil
	}
}

// Verdict judges one claim of the source documents: Verdict is one of
// "holds", "holds with a qualification", "does not hold", "cannot be
// checked"; Rule states how it was decided (the constants are in
// rules.go); Measured is the figure behind it.
type Verdict struct {
	Claim, Verdict, Rule, Measured string
}

// A Judge is a section result that judges claims.
type Judge interface {
	Verdicts() []Verdict
}

// verdictTable lists the verdicts with the sections that show them.
func verdictTable(results []Renderer) *plots.Table {
	t := &plots.Table{Keys: []string{"claim", "verdict", "rule", "measured", "section"}}
	for i, r := range results {
		if j, ok := r.(Judge); ok {
			for _, v := range j.Verdicts() {
				t.Rows = append(t.Rows, []any{v.Claim, v.Verdict, v.Rule, v.Measured, i + 1})
			}
		}
	}
	return t
}

// verdicts writes the verdict table: verdicts.csv with every column, the
// rule included; verdicts.md and the report with claim, verdict, measured
// and section, and below it each distinct rule once with the sections and
// claims it judges.
func (d *Doc) verdicts(t *plots.Table) error {
	if err := atomicfile.Write(d.path("verdicts.csv"), func(w io.Writer) error { return t.Write(w, "csv") }); err != nil {
		return err
	}
	glance := &plots.Table{Keys: []string{"claim", "verdict", "measured", "section"}}
	var rules []string
	judged := map[string][]string{}
	for _, row := range t.Rows {
		glance.Rows = append(glance.Rows, []any{row[0], row[1], row[3], row[4]})
		rule := row[2].(string)
		if _, seen := judged[rule]; !seen {
			rules = append(rules, rule)
		}
		judged[rule] = append(judged[rule], fmt.Sprintf("%v (section %v)", row[0], row[4]))
	}
	md := glanceMarkdown(glance)
	if err := atomicfile.WriteBytes(d.path("verdicts.md"), md.Bytes()); err != nil {
		return err
	}
	d.printf("\n%s\n(`verdicts.csv` with the rules, `verdicts.md`)\n\n**The rules of the verdicts**, each once, with the claims it judges:\n\n", md.String())
	for i, rule := range rules {
		d.printf("%d. %s. *Judges:* %s.\n", i+1, rule, strings.Join(judged[rule], "; "))
	}
	return nil
}

// glanceMarkdown writes t as a Markdown table without padding: a cell is
// as wide as its text, so that no column is widened to its longest cell
// (the table reads at a glance however it is rendered), and a "|" in a
// cell (|E − S|) is escaped so that it does not split the cell.
func glanceMarkdown(t *plots.Table) *bytes.Buffer {
	var b bytes.Buffer
	cell := func(v any) string { return strings.ReplaceAll(plots.Cell(v), "|", "\\|") }
	b.WriteString("| " + strings.Join(t.Keys, " | ") + " |\n|")
	for range t.Keys {
		b.WriteString(":---|")
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		var cs []string
		for _, v := range row {
			cs = append(cs, cell(v))
		}
		b.WriteString("| " + strings.Join(cs, " | ") + " |\n")
	}
	return &b
}

// Sections returns the report's sections in order; section i+1 is
// Sections()[i].
func Sections() []Section {
	return []Section{
		{"Drop probability (Fig. 4)", typed((*Study).DropProbability), true},
		{"Transition matrix (Fig. 1)", typed((*Study).Transitions), true},
		{"Replication x(t) (Fig. 7)", fig78Section((*Fig78).renderReplication, (*Fig78).replicationVerdicts), false},
		{"Coverage y(t) (Fig. 8)", fig78Section((*Fig78).renderCoverage, (*Fig78).coverageVerdicts), false},
		{"What the mean-field model misses", typed((*Study).ModelComparison), false},
		{"Optimal exchange size", typed((*Study).Optimal), false},
		{"Refined mean field: the 1/N correction", typed((*Study).Refined), false},
		{treeTitle, typed((*Study).Tree), false},
		{"Gossip against tree: one notification to a group of N nodes", typed((*Study).GossipVsTree), false},
		// Its Monte Carlo is the lumped chain through package plan (seconds
		// of CPU, not split by shards): only the merge computes it.
		{"Design answers: the time to coverage at any N", typed((*Study).DesignAnswers), true},
		// Package broadcast's laws and its own Monte Carlo (seconds of
		// CPU): only the merge computes it.
		{"Gossip as deployed: push, pull and push–pull broadcast", typed((*Study).Deployed), true},
		{networkTitle, typed((*Study).Network), false},
	}
}

const treeTitle = "Spanning-tree notification (second source document)"

const networkTitle = "The shuffle protocol on a real network"

// Doc collects a report's Markdown and writes its tables and figures into
// a folder.
type Doc struct {
	dir string
	buf bytes.Buffer
}

// NewDoc returns a Doc writing its files into dir.
func NewDoc(dir string) *Doc { return &Doc{dir: dir} }

// Markdown returns the text so far.
func (d *Doc) Markdown() []byte {
	if d == nil {
		return nil
	}
	return d.buf.Bytes()
}

func (d *Doc) printf(format string, a ...any) { fmt.Fprintf(&d.buf, format, a...) }

func (d *Doc) path(name string) string { return filepath.Join(d.dir, name) }

func (d *Doc) heading(number int, title string) { d.printf("\n## %d. %s\n\n", number, title) }

// table writes name.csv and name.md and embeds the Markdown in the report.
func (d *Doc) table(name string, t *plots.Table) error {
	if err := atomicfile.Write(d.path(name+".csv"), func(w io.Writer) error { return t.Write(w, "csv") }); err != nil {
		return err
	}
	var md bytes.Buffer
	if err := t.Write(&md, "markdown"); err != nil {
		return err
	}
	if err := atomicfile.WriteBytes(d.path(name+".md"), md.Bytes()); err != nil {
		return err
	}
	d.printf("\n%s\n(`%s.csv`, `%s.md`)\n", md.String(), name, name)
	return nil
}

// inlineTable embeds t's Markdown in the report without writing files.
func (d *Doc) inlineTable(t *plots.Table) error {
	var md bytes.Buffer
	if err := t.Write(&md, "markdown"); err != nil {
		return err
	}
	d.printf("\n%s", md.String())
	return nil
}

// figure writes name.png and name.svg (one panel, or several in a grid) and
// shows it in the report.
func (d *Doc) figure(name string, specs ...*plots.Spec) error {
	if err := saveFigure(d.path(name), specs...); err != nil {
		return err
	}
	d.printf("\n![%s](%s.png)\n\n(`%s.png`, `%s.svg`)\n", name, name, name, name)
	return nil
}

// claimFigure writes the claim a figure checks, the figure, and the
// heading of what was measured.
func (d *Doc) claimFigure(claim, name string, specs ...*plots.Spec) error {
	d.printf("%s", claim)
	if err := d.figure(name, specs...); err != nil {
		return err
	}
	d.printf("**Measured:**\n\n")
	return nil
}

func saveFigure(base string, specs ...*plots.Spec) error {
	var err error
	if len(specs) == 1 {
		_, err = specs[0].Save(base)
	} else {
		_, err = plots.SaveGrid(base, specs...)
	}
	return err
}

// Run writes the whole reproduction into dir (created if missing; files of
// the same name are replaced): every figure (PNG and SVG), the tables (CSV
// and Markdown) and REPORT.md. The files are built in a hidden folder
// inside dir and moved in only when every section has succeeded, so an
// error or a cancelled ctx leaves dir as it was. A folder that cannot be
// created or written to is a *DirError.
func Run(ctx context.Context, dir string, sc Scale, opt Options) error {
	if err := sc.check(); err != nil {
		return err
	}
	return NewStudy(sc, opt).write(ctx, dir)
}

// computeAll runs every section's compute step, timing each.
func (s *Study) computeAll(ctx context.Context) ([]Renderer, []string, error) {
	var results []Renderer
	var titles []string
	for i, sec := range Sections() {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if sec.Exact && s.run != nil && s.run.shard != nil {
			results = append(results, nil)
			titles = append(titles, sec.Title)
			continue // the merge computes it
		}
		s.clock.begin(i+1, sec.Title)
		if s.run != nil {
			s.run.section = i + 1
		}
		r, err := sec.Compute(ctx, s)
		if err != nil {
			return nil, nil, err
		}
		s.clock.end()
		results = append(results, r)
		titles = append(titles, sec.Title)
	}
	return results, titles, nil
}

// write computes and writes the whole report into dir (Run, Merge).
func (s *Study) write(ctx context.Context, dir string) error {
	sc := s.Scale
	_, err := atomicfile.FromContext(ctx).BuildDir(dir, ".reproduce-", func(tmp string) error {
		s.clock = newClock(s.opt.StepDone)
		d := NewDoc(tmp)
		d.printf("# gossipkit reproduction report\n\n")
		d.printf("Scale `%s`, seed %d, gossipkit %s. Every number below was computed by this run; each figure stands beside the claim of the paper (Bakhshi, Gavidia, Fokkink, van Steen, *An analytical model of information dissemination for a gossip-based protocol*) that it checks.\n", sc.Name, sc.Seed, buildinfo.Version)
		d.printf("\nSimulations: N = %d nodes, c = %d, s = %d, %d warm-up + %d rounds, %d replications per setting (the paper: 1000 + 1000 rounds, 100 replications; `--scale paper`).\n", sc.Nodes, sc.Cache, sc.Exchange, sc.Warmup, sc.Rounds, sc.Reps)
		if sc.RepsPerWarm > 0 {
			d.printf("\nWarm states: in the protocol runs on the complete graph (lossless or with loss ε ≤ %g) and on the random regular graph, %d replications branch from each warm-up (`sim.Config.WarmStates`): they share the caches at d's insertion and go on with their own random streams. Each mean stays unbiased; its standard error, computed as if the replications were independent, is low by the factor √(1 + (%d − 1)ρ), ρ the intraclass correlation of replications sharing a warm state (measured in testdata/README.md); the runs on the torus and at ε = 0.3, where ρ is not small, warm up each replication.\n", warmLossMax, sc.RepsPerWarm, sc.RepsPerWarm)
		}
		// Every section is computed first, so that the verdicts can open
		// the report.
		results, titles, err := s.computeAll(ctx)
		if err != nil {
			return err
		}
		s.clock.begin(0, "rendering tables and figures")
		d.printf("\n## Verdicts at a glance\n\nEach claim of the two source documents, and each finding of this toolkit (marked so), judged by this run (details in the section named; the rule of each verdict is listed below the table). A verdict that rests on Monte Carlo is decided only where the interval of the quantity it grades lies on one side of its threshold; otherwise it reads \"%s\" and names the replications or seeds that would decide it.\n", undecided)
		if err := d.verdicts(verdictTable(results)); err != nil {
			return err
		}
		for i, sec := range Sections() {
			d.heading(i+1, sec.Title)
			if err := results[i].Render(d); err != nil {
				return err
			}
		}
		s.clock.end()
		if err := s.timing(d, titles); err != nil {
			return err
		}
		return atomicfile.WriteBytes(d.path("REPORT.md"), d.Markdown())
	})
	return err
}

// DirError is an output folder that cannot be created or written to.
type DirError = atomicfile.DirError

// TreeSweep writes the tree section of the report on its own into dir:
// TREE.md, its figures and tables, with seeds seeds per point from seed.
// It returns the names of the files written.
func TreeSweep(ctx context.Context, dir string, seeds int, seed uint64, opt Options) ([]string, error) {
	return atomicfile.FromContext(ctx).BuildDir(dir, ".sweep-", func(tmp string) error {
		sc := Quick()
		sc.TreeSeeds, sc.Seed = seeds, seed
		s := NewStudy(sc, opt)
		d := NewDoc(tmp)
		d.printf("# Spanning-tree notification: sweep\n")
		r, err := s.Tree(ctx)
		if err != nil {
			return err
		}
		d.heading(sectionNumber(treeTitle), treeTitle)
		if err := r.Render(d); err != nil {
			return err
		}
		return atomicfile.WriteBytes(d.path("TREE.md"), d.Markdown())
	})
}

func sectionNumber(title string) int {
	for i, s := range Sections() {
		if s.Title == title {
			return i + 1
		}
	}
	panic("report: no section " + title)
}

// Figures are the names Plot draws.
var Figures = []string{"fig4", "fig7", "fig8", "optimal"}

// Plot computes and draws one figure of the report (one of Figures) with
// the sizes of sc, writing NAME.png and NAME.svg into dir (created if
// missing). It runs only that figure's compute step.
func Plot(ctx context.Context, dir, name string, sc Scale, opt Options) error {
	if !slices.Contains(Figures, name) {
		return fmt.Errorf("report: unknown figure %q (valid: fig4, fig7, fig8, optimal)", name)
	}
	if err := sc.check(name); err != nil {
		return err
	}
	// The folder is created (or found unwritable) before any work.
	_, err := atomicfile.FromContext(ctx).BuildDir(dir, ".plot-", func(tmp string) error {
		s := NewStudy(sc, opt)
		var specs []*plots.Spec
		switch name {
		case "fig4":
			curves, err := s.Fig4Curves(ctx)
			if err != nil {
				return err
			}
			specs = Fig4Specs(curves)
		case "fig7", "fig8":
			f, err := s.Fig78(ctx)
			if err != nil {
				return err
			}
			specs = []*plots.Spec{f.fig7()}
			if name == "fig8" {
				specs = []*plots.Spec{f.fig8()}
			}
		case "optimal":
			o, err := s.optimalFigure(ctx)
			if err != nil {
				return err
			}
			specs = o.specs()
		}
		return saveFigure(filepath.Join(tmp, name), specs...)
	})
	return err
}
