package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/enum"
)

// Method is how a law is computed (gossip.Method, shared with package
// plan):
//
//   - Auto uses Exact where ExactCost fits Settings.ExactBudget, else
//     Asymptotic where it covers the configuration, else MonteCarlo; but
//     where Asymptotic does not state the chances of a miss asked (a
//     deadline's, a budgeted push's) within MaxRelErr, Exact where
//     ExactCost fits 20 times ExactBudget, or 200 times where the watched
//     runs would not state them within MaxRelErr either (deepExact). The
//     Answer says which it used.
//   - Exact solves the count chain (ExactLaw).
//   - Asymptotic is the limit law at large N (AsymptoticLaw).
//   - MonteCarlo simulates every node (Simulate).
type Method = gossip.Method

// The methods (gossip's).
const (
	Auto       = gossip.Auto
	Exact      = gossip.Exact
	Asymptotic = gossip.Asymptotic
	MonteCarlo = gossip.MonteCarlo
)

// MethodNames are the names of the methods, in order.
func MethodNames() []string { return gossip.MethodNames() }

// ParseMethod parses auto, exact, asymptotic or mc.
func ParseMethod(s string) (Method, error) {
	m, err := enum.Parse[Method](gossip.MethodNames(), "method", s)
	if err != nil {
		return 0, fmt.Errorf("broadcast: %w", err)
	}
	return m, nil
}

// ErrNotCovered is returned (wrapped) by a method that has no law for a
// configuration (the asymptotic law where its derivation does not hold,
// the exact chain beyond its size).
var ErrNotCovered = errors.New("not covered by this method")

// Settings are the numerical knobs; the zero value of every field means its
// documented default.
type Settings struct {
	// Method: default Auto.
	Method Method
	// ExactBudget bounds, for Auto, ExactCost (default DefaultExactBudget;
	// 20 or 200 times it where the chances of a miss asked need it:
	// Method).
	ExactBudget float64
	// Reps is the number of Monte Carlo replications; default 1000.
	Reps int
	// Seed of the Monte Carlo; runs are reproducible from it.
	Seed uint64
	// Workers for the Monte Carlo and the exact chain's rows; default the
	// number of CPUs. Results do not depend on it.
	Workers int
	// Progress, if not nil, is called now and then (exact: thousandths of
	// ExactCost's estimate of the work, 1000 at the end; mc: replications).
	Progress gossip.Progress
}

// DefaultExactBudget is ExactBudget's default: about a second of CPU.
const DefaultExactBudget = 1e9

// DefaultReps is Reps' default.
const DefaultReps = 1000

func (s Settings) withDefaults() Settings {
	if s.ExactBudget <= 0 || math.IsNaN(s.ExactBudget) {
		s.ExactBudget = DefaultExactBudget
	}
	if s.Reps <= 0 {
		s.Reps = DefaultReps
	}
	return s
}

// Design is the answer over a range of fanouts and budgets.
type Design struct {
	Config Config
	Rows   []Answer
	// Best indexes the feasible row (every row without a deadline) with
	// the smallest TConfidence, ties to fewer messages, then to the
	// earlier row; Cheapest the feasible row with the fewest expected
	// messages, ties to the smaller TConfidence, then to the earlier row.
	// −1 when no row qualifies. With a deadline or MaxMiss, the rows
	// that qualify are the feasible ones (Answer.Feasible).
	Best, Cheapest int
	// Smallest lists, for each fanout with a feasible row, in the order
	// of the rows, the pair {fanout, smallest feasible budget} (budget 0,
	// no limit, counts as the largest); nil without a target.
	Smallest [][2]int
}

// MaxSettings bounds the fanouts times budgets one Sweep computes: each is
// a law of its own (up to a second of CPU for the exact chain, more for
// the Monte Carlo), so a million settings would run for days whatever the
// context; they are refused before any work. The CLI takes as many.
const MaxSettings = 10_000

// Solve computes the answer for cfg.Fanout and cfg.Budget.
func Solve(ctx context.Context, cfg Config, set Settings) (*Answer, error) {
	d, err := Sweep(ctx, cfg, []int{cfg.Fanout}, []int{cfg.Budget}, set)
	if err != nil {
		return nil, err
	}
	return &d.Rows[0], nil
}

// Sweep computes the answer for every fanout and budget (fanout-major
// order) and picks the best and the cheapest. cfg.Fanout and cfg.Budget are
// ignored. ctx is checked between settings and inside each method.
func Sweep(ctx context.Context, cfg Config, fanouts, budgets []int, set Settings) (*Design, error) {
	if ctx == nil {
		return nil, errors.New("broadcast: nil context")
	}
	if len(fanouts) == 0 {
		return nil, fieldErr("Config.Fanout", "no fanout given")
	}
	if len(budgets) == 0 {
		budgets = []int{0}
	}
	if n := len(fanouts) * len(budgets); len(fanouts) > MaxSettings || len(budgets) > MaxSettings || n > MaxSettings {
		return nil, fieldErr("Config.Fanout", "%d fanouts × %d budgets: %d settings, at most %d (MaxSettings)", len(fanouts), len(budgets), n, MaxSettings)
	}
	set = set.withDefaults()
	if !set.Method.Valid() {
		return nil, fieldErr("Settings.Method", "= %d: not a method", int(set.Method))
	}
	if set.Reps > MaxReps {
		return nil, fieldErr("Settings.Reps", "= %d: valid range 1..%d", set.Reps, MaxReps)
	}
	d := &Design{Config: cfg, Best: -1, Cheapest: -1}
	for _, k := range fanouts {
		for _, b := range budgets {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			c := cfg
			c.Fanout, c.Budget = k, b
			if err := c.Validate(); err != nil {
				return nil, err
			}
			a, err := solveOne(ctx, c, set)
			if err != nil {
				return nil, err
			}
			d.Rows = append(d.Rows, *a)
		}
	}
	d.pick()
	return d, nil
}

// NewDesign is the design of cfg's rows (answers computed elsewhere, say
// from the merged shards of a Monte Carlo run), with Best and Cheapest
// picked by Sweep's rule.
func NewDesign(cfg Config, rows []Answer) *Design {
	d := &Design{Config: cfg, Rows: rows, Best: -1, Cheapest: -1}
	d.pick()
	return d
}

// MaxReps bounds Settings.Reps.
const MaxReps = 10_000_000

func (d *Design) pick() {
	targets := d.Config.Deadline > 0 || d.Config.MaxMiss > 0
	d.Smallest = nil
	for i, r := range d.Rows {
		if targets && r.Feasible {
			j := slices.IndexFunc(d.Smallest, func(s [2]int) bool { return s[0] == r.Fanout })
			switch {
			case j < 0:
				d.Smallest = append(d.Smallest, [2]int{r.Fanout, r.Budget})
			case r.Budget > 0 && (d.Smallest[j][1] == 0 || r.Budget < d.Smallest[j][1]):
				d.Smallest[j][1] = r.Budget
			}
		}
		// A feasible row whose TConfidence the method does not resolve
		// (NaN) still qualifies; it ranks after every resolved one.
		if math.IsNaN(r.TConfidence) && !targets || targets && !r.Feasible {
			continue
		}
		if b := d.Best; b < 0 || tBefore(r.TConfidence, d.Rows[b].TConfidence) ||
			tSame(r.TConfidence, d.Rows[b].TConfidence) && r.Messages < d.Rows[b].Messages {
			d.Best = i
		}
		if c := d.Cheapest; c < 0 || r.Messages < d.Rows[c].Messages ||
			r.Messages == d.Rows[c].Messages && tBefore(r.TConfidence, d.Rows[c].TConfidence) {
			d.Cheapest = i
		}
	}
}

// tBefore orders TConfidence values, NaN (not resolved) after every
// number; tSame is its equality.
func tBefore(a, b float64) bool { return a < b || !math.IsNaN(a) && math.IsNaN(b) }
func tSame(a, b float64) bool   { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// solveOne answers one validated configuration by the method of set.
func solveOne(ctx context.Context, cfg Config, set Settings) (*Answer, error) {
	if cfg.Time == Async {
		return solveAsync(ctx, cfg, set)
	}
	method := set.Method
	var law *Law
	var err error
	switch method {
	case Exact:
		law, err = exactLaw(ctx, cfg, set.Progress, set.Workers)
	case Asymptotic:
		law, err = AsymptoticLaw(ctx, cfg)
	case MonteCarlo:
		law, err = simulateLaw(ctx, cfg, set, false)
	default:
		method = Exact
		if ExactCost(cfg) > set.ExactBudget {
			method = Asymptotic
		}
		if method == Exact {
			law, err = exactLaw(ctx, cfg, set.Progress, set.Workers)
		} else if law, err = AsymptoticLaw(ctx, cfg); (err == nil || errors.Is(err, ErrNotCovered)) && deepExact(cfg, set, law.boundTail(cfg), err) {
			method = Exact
			law, err = exactLaw(ctx, cfg, set.Progress, set.Workers)
		} else if errors.Is(err, ErrNotCovered) {
			method = MonteCarlo
			// Where the large-N law states the misses within MaxRelErr/5
			// and no deadline asks for the watched runs' other answers,
			// the replications skip them; not at the level 1, where their
			// curves state the CDF whether or not a deadline is asked (so
			// that it is the same with and without one).
			res, pm, ok := budgetMissLaw(cfg)
			skip := ok && deadlineRounds(cfg) == 0 && !curvesWanted(cfg) && res.relErr() <= MaxRelErr/5 && pm.relErr() <= MaxRelErr/5
			law, err = simulateLaw(ctx, cfg, set, skip)
			if err == nil && ok {
				law.setResidue(better(ivOf(law.Residue, law.ResidueRelErr), res))
				law.setPMiss(better(ivOf(law.PMiss, law.PMissRelErr), pm))
				law.Accuracy.Note += "; residue and p_miss from the large-N law of a budgeted push where more accurate (its stated bound)"
			}
		}
	}
	if err != nil {
		return nil, err
	}
	law.boundTail(cfg)
	if method == Exact && set.Method == Auto && !law.accurate(cfg, MaxRelErr) {
		// The exact chain's error bound is absolute, so it says little
		// of a deep tail's chance; the large-N law states one
		// relatively, where it covers (push).
		if err := law.setLumpedDeadline(ctx, cfg); err != nil {
			return nil, err
		}
	}
	if method != MonteCarlo && NeedWatched(cfg) {
		if law, err = supplement(ctx, cfg, set, law); err != nil {
			return nil, err
		}
	}
	if set.Method == Auto && NeedWatched(cfg) {
		if law, err = refine(ctx, cfg, set, law); err != nil {
			return nil, err
		}
	}
	if method == MonteCarlo {
		if err := law.guardStalls(ctx, cfg, set.Method == Auto); err != nil {
			return nil, err
		}
	}
	a := law.Answer(cfg)
	a.Method = method
	if err := a.repair(cfg, nil, 0); err != nil {
		return nil, err
	}
	return &a, nil
}

// deepExactFactor: where a question's chances of a miss are not stated
// within MaxRelErr by the law (or it does not cover cfg), Auto would run
// watched runs for them, up to maxWatchWork (about 20 s on one core); it
// runs the exact chain instead where ExactCost fits deepExactFactor times
// Settings.ExactBudget (about 20 s of CPU at the default). The chain is
// exact to its relative rounding where the runs state 5 %: at N 3,000,
// push–pull, k 2, ε 0.1, D 10, level 1, Auto took 17 s for P(T_L > D)
// within 4.7 % and takes 2.7 s for it exact.
//
// lastExactFactor: where the runs would not state them within MaxRelErr
// with confidence either, the chain runs where it fits lastExactFactor
// times ExactBudget (about 200 s of CPU, its rows shared by the cores):
// for a protocol with pulls, whose watched runs' weights are heavy-tailed
// deep in the tail (at N 3,000, push–pull, k 2, ε 0.1, D 10, 12 seeds of
// 64,000 runs each stated the chance a node is uninformed as far as 2.98
// of their standard errors below the truth, −0.63 on average; from 10⁴
// live nodes Auto keeps the law's deadline chances, deadlineKept), and
// where the runs are beyond maxWatchWork. At N 12,000, push–pull, k 2,
// ε 0.1, D 12 the law stated the chance a node is uninformed, 8.26e-12,
// within 9.6 % and the chain gave 8.2220e-12 in 47 s on 2 cores (92 s of
// CPU); with the closure's error as measured (closureKappa) and the runs
// cut into cells (internal/lumped, entry.go) the law states 8.230e-12
// within 2.7 % in 0.6 s, and the chain no longer runs there.
const (
	deepExactFactor = 20
	lastExactFactor = 200
)

// deepExact reports whether Auto runs the exact chain for cfg in place of
// law (the large-N law's answer, or its error lawErr): where cfg asks for chances of a miss that law does not
// state within MaxRelErr and the chain fits deepExactFactor times
// set.ExactBudget, or lastExactFactor times it where the watched runs
// would not state them within MaxRelErr either; never where ExactLaw
// would refuse the chain (exactReach).
func deepExact(cfg Config, set Settings, law *Law, lawErr error) bool {
	if !NeedWatched(cfg) {
		return false
	}
	cost, err := exactReach(cfg)
	switch {
	case err != nil, lawErr == nil && law.within(cfg, MaxRelErr, false):
		return false
	case cost <= deepExactFactor*set.ExactBudget:
		return true
	}
	return cost <= lastExactFactor*set.ExactBudget && (cfg.Protocol.pulls() || !watchAffordable(cfg, set.Reps))
}

func simulateLaw(ctx context.Context, cfg Config, set Settings, skipWatched bool) (*Law, error) {
	s, err := Simulate(ctx, cfg, SimSettings{Reps: set.Reps, Seed: set.Seed, Workers: set.Workers, Progress: set.Progress, SkipWatched: skipWatched})
	if err != nil {
		return nil, err
	}
	return s.Law(), nil
}
