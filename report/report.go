package report

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/atomicfile"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/report/internal/clock"
	"github.com/gossipkit/gossipkit/report/part"
	"github.com/gossipkit/gossipkit/sim"
)

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
	clock *clock.Clock // the step timer of Run, RunShard and Merge (nil otherwise)
	run   *part.Runner // shard or merge (nil: every simulation in full)
	// warm keeps the warm states that later runs use again (warmCache).
	warm *sim.WarmCache
	// computed, where set (by the tests), receives every section's result
	// once write has computed them, so that one run of the tiny scale
	// serves the tests of the files and of the typed results.
	computed func([]Renderer)
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
		s.clock.Step(name)
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
