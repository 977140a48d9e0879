package plan

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/enum"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/sim"
)

// Config is what to compute: the law of T_L, the time until ⌈Level·Nodes⌉
// nodes have held an item inserted at Initial nodes, and the two design
// queries P(T_L ≤ Deadline) and the Confidence-quantile of T_L.
type Config struct {
	// Nodes is N ≥ 2.
	Nodes int
	// Shuffle holds n, c and s. Sweep takes the exchange sizes to try
	// separately and ignores Shuffle.Exchange.
	Shuffle gossip.Shuffle
	// Initial is K, the nodes holding the item at t = 0 (0 means 1).
	Initial int
	// Level is L in (0, 1]; T_L is the first time at which ⌈L·N⌉ nodes
	// have held the item (T_L = 0 when ⌈L·N⌉ ≤ K).
	Level float64
	// Time is gossip.Continuous (shuffles at rate N a round) or
	// gossip.Shuffles (exactly N shuffles a round); Synchronous is refused.
	Time gossip.Time
	// PDrop is the P_drop variant of the pairwise model.
	PDrop approx.Variant
	// Deadline D > 0 asks for P(T_L ≤ D) and whether it is at least
	// Confidence (feasible); 0 asks for neither. Rounds.
	Deadline float64
	// Confidence is P in (0, 1) for the smallest deadline met with
	// probability P (and feasibility); 0 means 0.95.
	Confidence float64
	// Loss is ε in [0, 1) (gossip.Loss): each message of a shuffle, the
	// request and the reply, is lost with probability ε (package doc,
	// "Message loss"). With ε > 0 the item can die out before the level
	// is reached (T_L = ∞): Answer.PReach is P(T_L < ∞), the moments and
	// quantiles are those of T_L given T_L < ∞, and P(T_L ≤ D) counts an
	// item that died as late. The asymptotic law does not cover ε > 0.
	Loss float64
	// Topology is the network of the Monte Carlo (package sim's
	// topologies; the zero value is the complete graph the model
	// assumes). Only MonteCarlo with Model Markov or Protocol covers a
	// topology other than Full: no exact or asymptotic law does.
	Topology sim.Topology
}

// Method is how a law is computed (gossip.Method, shared with package
// broadcast):
//
//   - Auto uses Exact where its estimated work fits Settings.ExactBudget,
//     else Asymptotic where its stated bound is within Settings.Accuracy,
//     else the Monte Carlo of the lumped chain; the Answer says which it
//     used and why (Accuracy.Note). With Config.Loss > 0 it never uses
//     Asymptotic; with a Config.Topology other than the complete graph it
//     runs package sim (Settings.Model).
//   - Exact solves the finite chain (package chain): mean and sd by
//     first-step analysis, the law from the transient pass.
//   - Asymptotic is the limit law of the package doc (without loss, on
//     the complete graph: otherwise ErrNotCovered).
//   - MonteCarlo runs package sim, or samples the lumped chain
//     (Settings.Model, Settings.Reps).
type Method = gossip.Method

// The methods (gossip's).
const (
	Auto       = gossip.Auto
	Exact      = gossip.Exact
	Asymptotic = gossip.Asymptotic
	MonteCarlo = gossip.MonteCarlo
)

// ParseMethod parses auto, exact, asymptotic or mc.
func ParseMethod(s string) (Method, error) {
	m, err := enum.Parse[Method](gossip.MethodNames(), "method", s)
	if err != nil {
		return 0, fmt.Errorf("plan: %w", err)
	}
	return m, nil
}

// The models of the Monte Carlo (package sim's, sim.Model): Markov is
// the pairwise model event by event; Protocol is every cache of the
// protocol; Lumped is the pairwise model on its lumped state (X, Y), event
// by event: the same law as Markov, observed exactly rather than after
// whole rounds, at O(N) events a replication instead of O(N·T) (package
// plan samples it itself, lumped.go).
const (
	Markov   = sim.Markov
	Protocol = sim.Protocol
	Lumped   = sim.Lumped
)

// Settings are the numerical knobs; the zero value of every field means its
// documented default.
type Settings struct {
	// Method: default Auto.
	Method Method
	// ExactBudget bounds, for Auto, the estimated work of the exact chain
	// in state-steps (ExactCost, chain.Estimate); default 2·10⁹, about
	// 10 s of CPU at package chain's measured 5–6 ns a state-step (N = 300
	// takes about 2·10⁸, N = 1000 about 3·10⁹ at n = 500, c = 100, s = 50).
	ExactBudget float64
	// Reps is the number of Monte Carlo replications; default 1000.
	Reps int
	// Model is what the Monte Carlo simulates: sim.Markov, sim.Protocol
	// or sim.Lumped (Markov, Protocol, Lumped here). The zero value is
	// sim.Protocol, package sim's; the command line's default is Markov.
	Model sim.Model
	// Seed of the Monte Carlo; runs are reproducible from it.
	Seed uint64
	// Workers for the Monte Carlo; default the number of CPUs. Results do
	// not depend on it.
	Workers int
	// Progress, if not nil, is called now and then (exact: steps of the
	// uniformized chain, as chain.Settings.Progress; mc: replications).
	Progress gossip.Progress
	// Accuracy is the accuracy Auto asks of the asymptotic law, in rounds:
	// where the law's largest stated deviation (Accuracy.Largest: mean,
	// sd and quantiles) exceeds it, Auto runs the Monte Carlo of the
	// lumped chain instead, with enough replications (at least Reps) that
	// two standard errors of the mean are within it. 0 means
	// DefaultAccuracy, one round.
	Accuracy float64
}

// DefaultExactBudget is ExactBudget's default.
const DefaultExactBudget = 2e9

// MaxNodes bounds Config.Nodes: the asymptotic law has no limit of its own;
// 2^40 keeps N·s and the costs in float64's exact integers.
const MaxNodes = 1 << 40

func (s Settings) withDefaults() Settings {
	if s.ExactBudget <= 0 {
		s.ExactBudget = DefaultExactBudget
	}
	if s.Reps <= 0 {
		s.Reps = 1000
	}
	return s
}

// ErrNotCovered is wrapped by the error of a method asked for by name
// that has no law for the configuration: the asymptotic law with message
// loss, the exact or asymptotic law or the lumped chain on a topology
// other than the complete graph.
var ErrNotCovered = errors.New("not covered by this method")

// FieldError is an invalid field of Config or Settings (the one type of
// every package, internal/fielderr).
type FieldError = fielderr.Error

func fieldErr(field, format string, a ...any) error {
	return fmt.Errorf("plan: %w", &FieldError{Field: field, Msg: fmt.Sprintf(format, a...)})
}

// The numeric parameters of Config and Settings, each stated once:
// Validate and Check check them and a program (the command line) writes
// its flags' help from them. Initial and Confidence read 0 as their
// Default, which is outside their range: a front end that cannot tell 0
// from "not set" refuses it (the command line does). ExactNodes is the
// range of Nodes with Settings.Method Exact (the joint chain,
// chain.MaxNodesJoint). AutoAccuracy is Settings.Accuracy (Accuracy is
// the type of an answer's error bars); its range also takes +Inf, which
// Check allows beyond the Param's finite bounds.
var (
	Nodes        = gossip.Param{Field: "Nodes", Symbol: "N", Meaning: "number of nodes", Range: "2..2^40", Lo: gossip.AtLeast(2), Hi: gossip.AtMost(MaxNodes)}
	ExactNodes   = gossip.Param{Field: "Nodes", Symbol: "N", Meaning: "number of nodes of the exact method", Range: "2..5000", Lo: gossip.AtLeast(2), Hi: gossip.AtMost(maxExactNodes)}
	Initial      = gossip.Param{Field: "Initial", Symbol: "K", Meaning: "initial holders, the nodes holding the item at t = 0", Range: "1..N", Default: "1", Lo: gossip.AtLeast(1)}
	Level        = gossip.Param{Field: "Level", Symbol: "L", Meaning: "coverage level", Range: "(0, 1]", Lo: gossip.Above(0), Hi: gossip.AtMost(1)}
	Deadline     = gossip.Param{Field: "Deadline", Symbol: "D", Meaning: "deadline", Unit: "rounds", Range: "≥ 0 (0: none)", Lo: gossip.AtLeast(0)}
	Confidence   = gossip.Param{Field: "Confidence", Symbol: "P", Meaning: "confidence", Range: "(0, 1)", Default: "0.95", Lo: gossip.Above(0), Hi: gossip.Below(1)}
	AutoAccuracy = gossip.Param{Field: "Accuracy", Meaning: "accuracy auto asks of the asymptotic law", Unit: "rounds",
		Range: "≥ 0 (0: 1; +Inf: the asymptotic law wherever the exact chain does not fit)", Default: "1", Lo: gossip.AtLeast(0)}
)

// Validate checks the configuration; a problem is an error "plan:
// Config.Field …" wrapping a *FieldError.
func (c Config) Validate() error {
	const pkg, at = "plan", "Config"
	switch {
	case !Nodes.In(float64(c.Nodes)):
		return Nodes.CheckInt(pkg, at, c.Nodes)
	case c.Initial != 0 && (!Initial.In(float64(c.Initial)) || c.Initial > c.Nodes):
		return Initial.Errorf(pkg, at, "= %d: valid range %s = 1..%d", c.Initial, Initial.Range, c.Nodes)
	case !Level.In(c.Level):
		return Level.Check(pkg, at, c.Level)
	case c.Time != gossip.Continuous && c.Time != gossip.Shuffles:
		return fieldErr("Config.Time", "%v: valid values are continuous, shuffles", c.Time)
	case c.PDrop < 0 || int(c.PDrop) >= len(approx.Variants):
		return fieldErr("Config.PDrop", "%d: not a variant", int(c.PDrop))
	case !Deadline.In(c.Deadline):
		return Deadline.Check(pkg, at, c.Deadline)
	case c.Confidence != 0 && !Confidence.In(c.Confidence):
		return Confidence.Errorf(pkg, at, "= %g: valid range %s (0: %s)", c.Confidence, Confidence.Range, Confidence.Default)
	case !gossip.ValidLoss(c.Loss):
		return gossip.Loss.Check(pkg, at, c.Loss)
	}
	if err := c.Shuffle.Validate(); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			return fieldErr("Config."+fe.Field, "%s", fe.Msg)
		}
		return fmt.Errorf("plan: %w", err)
	}
	return nil
}

func (c Config) initial() int { return max(c.Initial, 1) }

func (c Config) confidence() float64 {
	if c.Confidence == 0 {
		return 0.95
	}
	return c.Confidence
}

// count is ⌈L·N⌉, with a margin for the rounding of L·N (as package chain).
func (c Config) count() int {
	return int(math.Ceil(c.Level*float64(c.Nodes) - 1e-9))
}

// Answer is the law of T_L for one exchange size and the answers to the
// queries, all in rounds.
type Answer struct {
	Exchange int
	// Method is the method used (never Auto).
	Method Method
	// PReach is P(T_L < ∞): 1 without loss; with Config.Loss > 0 the
	// chance that the level is reached before the item dies out.
	PReach float64
	// Mean and SD of T_L given T_L < ∞; Q05…Q95 its 5, 25, 50, 75 and
	// 95 % quantiles given T_L < ∞ (without loss, T_L < ∞ always).
	Mean, SD                float64
	Q05, Q25, Q50, Q75, Q95 float64
	// TConfidence is the smallest t with P(T_L ≤ t) ≥ Config.Confidence,
	// counting T_L = ∞ as late (NaN when PReach < Confidence).
	TConfidence float64
	// PDeadline is P(T_L ≤ Config.Deadline), NaN without a deadline: the
	// chance that the item survives and reaches the level by the deadline
	// (T_L = ∞ counts as late). PDeadlineLow is the lower end of the
	// interval PDeadline is claimed to be within (Accuracy): PDeadline −
	// Bound (exact), − DevPDeadline (asymptotic), Wilson's lower end at
	// z = 3 of the runs on time (mc: R/(R + 9) when every run of R was on
	// time, so a thousand runs never show a confidence of 1 − 10⁻⁶).
	// Feasible is PDeadlineLow ≥ Confidence (false without a deadline).
	PDeadline    float64
	PDeadlineLow float64
	Feasible     bool
	// ItemsSent is the expected number of items sent until the level is
	// reached (given that it is): s in the request, s in the reply, which
	// is sent when the request arrives (probability 1 − ε), N shuffles a
	// round: (2 − ε)·s·N·Mean.
	ItemsSent float64
	Accuracy  Accuracy
}

// Accuracy states how far the answer may be from the pairwise model's
// exact law. Fields that do not apply to the method are NaN.
type Accuracy struct {
	// Bound (exact): every probability is within Bound of the exact one
	// (the chain's bound on the CDF of T_L).
	Bound float64
	// Grid (mc): coverage is observed after whole rounds, and the
	// quantiles are interpolated in the CDF between times Grid rounds
	// apart.
	Grid float64
	// SEMean, SESD, SEPDeadline (mc): standard errors of the Monte Carlo
	// estimates: sd/√R; √(μ₄ − σ⁴)/(2σ√R) from the sample's fourth
	// moment; √(p(1−p)/R). With loss, the mean and sd are over the R' ≤ R
	// replications that reached the level (R' in place of R).
	SEMean, SESD, SEPDeadline float64
	// SEPReach (mc, with loss): √(p(1−p)/R) of PReach; NaN otherwise.
	SEPReach float64
	// DevMean, DevSD (asymptotic): the stated bounds on the error of the
	// mean and the sd, 1/(u·C) and 1.5/(u·√C) rounds with C = x∞·N the
	// holders at equilibrium (package doc: measured on a training set of
	// configurations, checked on a separate one); a p-quantile is within
	// DevQuantile(p).
	DevMean, DevSD float64
	// DevPDeadline (asymptotic, with a deadline): the stated bound on the
	// error of PDeadline, the change of the law's CDF over Deadline ±
	// DevQuantile.
	DevPDeadline float64
	// Note says the same in words.
	Note string
}

// DevQuantile (asymptotic) is the stated bound on the error of the
// p-quantile: DevMean + z_p·DevSD, z_p the larger standardised p-quantile
// of the Gumbel and the normal law (package doc); NaN for other methods.
// p is taken within [10⁻⁶, 1 − 10⁻⁶]: the bound is validated on the
// quantiles a design reads, and the normal z_p grows without bound in
// the far tails, where it made the bound on P(T_L ≤ D) at a deadline far
// from the law 1 (a CDF of 0 moved by an infinite quantile error) instead
// of about 0.
func (a Accuracy) DevQuantile(p float64) float64 {
	p = math.Min(1-1e-6, math.Max(1e-6, p))
	return a.DevMean + quantileZ(p)*a.DevSD
}

// quantileZ is |z_p|: the larger of the standardised p-quantiles of the
// Gumbel law (−u·G for K = 1: P(−ln W ≤ x) = exp(−e^{−x}), mean γ, sd
// π/√6) and of the normal law (the shift's law as K grows); a law that
// moves by Δmean and stretches by Δsd moves its p-quantile by Δmean +
// z_p·Δsd.
func quantileZ(p float64) float64 {
	// The extreme quantiles of a law whose CDF rounds to 0 or 1.
	p = math.Min(1-1e-15, math.Max(1e-300, p))
	zG := (-math.Log(-math.Log(p)) - 0.57721566490153286) * math.Sqrt(6) / math.Pi
	zN := math.Sqrt2 * math.Erfinv(2*p-1)
	return math.Max(math.Abs(zG), math.Abs(zN))
}

func noAccuracy() Accuracy {
	n := math.NaN()
	return Accuracy{Bound: n, Grid: n, SEMean: n, SESD: n, SEPDeadline: n, SEPReach: n, DevMean: n, DevSD: n, DevPDeadline: n}
}

// Design is the answer over a range of exchange sizes.
type Design struct {
	Config Config
	Rows   []Answer
	// Best indexes the row with the smallest TConfidence among the
	// feasible rows (all rows without a deadline); ties go to the smaller
	// s. −1 when no row is feasible.
	Best int
	// Cheapest indexes the feasible row with the smallest expected cost,
	// ItemsSent (ties to the smaller s): the s that meets the deadline
	// with the fewest items, which need not be the fastest. −1 when no row
	// is feasible.
	Cheapest int
}

// Solve computes the answer for cfg.Shuffle.Exchange.
func Solve(ctx context.Context, cfg Config, set Settings) (*Answer, error) {
	d, err := Sweep(ctx, cfg, []int{cfg.Shuffle.Exchange}, set)
	if err != nil {
		return nil, err
	}
	return &d.Rows[0], nil
}

// Sweep computes the answer for every exchange size in exchanges (the
// law of B in the asymptotic method is shared by all of them) and picks
// the best. ctx is checked between exchange sizes and inside the exact
// chain and the Monte Carlo.
func Sweep(ctx context.Context, cfg Config, exchanges []int, set Settings) (*Design, error) {
	if err := ctxguard.Check("plan", ctx); err != nil {
		return nil, err
	}
	if err := Check(cfg, exchanges, set); err != nil {
		return nil, err
	}
	return sweep(ctx, cfg, exchanges, set)
}

// sweep is Sweep on a configuration Check has passed.
func sweep(ctx context.Context, cfg Config, exchanges []int, set Settings) (*Design, error) {
	set = set.withDefaults()
	d := &Design{Config: cfg, Best: -1, Cheapest: -1}
	var shared []float64 // coverage exponents of B, shared by every s
	for _, s := range exchanges {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := cfg
		c.Shuffle.Exchange = s
		a, err := solveOne(ctx, c, set, &shared)
		if err != nil {
			return nil, err
		}
		d.Rows = append(d.Rows, *a)
	}
	for i, r := range d.Rows {
		if math.IsNaN(r.TConfidence) || cfg.Deadline > 0 && !r.Feasible {
			continue
		}
		if d.Best < 0 || r.TConfidence < d.Rows[d.Best].TConfidence {
			d.Best = i
		}
		if d.Cheapest < 0 || r.ItemsSent < d.Rows[d.Cheapest].ItemsSent {
			d.Cheapest = i
		}
	}
	return d, nil
}

// MaxSettings bounds the settings one Sweep or LossSweep computes
// (exchange sizes, times loss probabilities): each is a law of its own, up
// to about 10 s of CPU for the exact chain, so more would run for days
// whatever the context; they are refused before any work.
const MaxSettings = 10_000

// Check refuses, before any work, what Sweep would refuse for cfg at each
// of the exchange sizes (Sweep and LossSweep call it first): a field out
// of its range (Config.Validate at each s; Settings), and a method asked
// for by name that has no law for the configuration, a field error on
// the Config field that rules it out, naming the Settings field in its
// message, which also wraps ErrNotCovered where a method does not cover
// the topology or the loss:
//
//   - Config.Topology other than the complete graph with Settings.Method
//     Exact or Asymptotic, or Settings.Model Lumped (only package sim's
//     Markov and Protocol models run on a graph);
//   - Config.Loss > 0 with Settings.Method Asymptotic (the law's bound is
//     validated without loss);
//   - Config.Nodes above the joint chain's limit with Settings.Method
//     Exact;
//   - Config.Shuffle.Exchange = Cache (no copy is ever made, u = 0) with
//     any Settings.Method but Exact: the time to the level is then the
//     exact chain's alone, slow to mix (at N = 1000, c = 100 about a
//     minute of CPU), which Auto does not choose by itself.
func Check(cfg Config, exchanges []int, set Settings) error {
	if len(exchanges) == 0 {
		return fieldErr("Config.Shuffle.Exchange", "no exchange size given")
	}
	if len(exchanges) > MaxSettings {
		return fieldErr("Config.Shuffle.Exchange", "%d exchange sizes, at most %d (MaxSettings)", len(exchanges), MaxSettings)
	}
	set = set.withDefaults()
	switch {
	case set.Method < Auto || set.Method > MonteCarlo:
		return fieldErr("Settings.Method", "%d: not a method", int(set.Method))
	case set.Model < Protocol || set.Model > Lumped:
		return fieldErr("Settings.Model", "%d: not a model", int(set.Model))
	case !(set.Accuracy >= 0): // +Inf is in the range (AutoAccuracy)
		return AutoAccuracy.Errorf("plan", "Settings", "= %g: valid range %s", set.Accuracy, AutoAccuracy.Range)
	}
	for _, s := range exchanges {
		c := cfg
		c.Shuffle.Exchange = s
		if err := c.Validate(); err != nil {
			return err
		}
	}
	topo := cfg.Topology.Kind != sim.Full
	switch {
	case topo && (set.Method == Exact || set.Method == Asymptotic):
		return notCovered("Config.Topology", "%v with Settings.Method %v: no exact or asymptotic law covers a topology other than the complete graph; use Settings.Method mc (Settings.Model markov or protocol)", cfg.Topology, set.Method)
	case topo && set.Model == Lumped:
		return notCovered("Config.Topology", "%v with Settings.Model lumped: the lumped chain is the complete graph's; use Settings.Model markov or protocol", cfg.Topology)
	case cfg.Loss > 0 && set.Method == Asymptotic:
		return notCovered("Config.Loss", "%g with Settings.Method asymptotic: the asymptotic law does not cover message loss; use Settings.Method exact, mc or auto", cfg.Loss)
	case set.Method == Exact && cfg.Nodes > maxExactNodes:
		return ExactNodes.Errorf("plan", "Config", "= %d: valid range %s with Settings.Method exact (the joint chain)", cfg.Nodes, ExactNodes.Range)
	}
	if set.Method == Exact {
		return nil
	}
	for _, s := range exchanges {
		if s == cfg.Shuffle.Cache {
			c := cfg
			c.Shuffle.Exchange = s
			return noCopies(c, set)
		}
	}
	return nil
}

// notCovered is a field error on field that also wraps ErrNotCovered.
func notCovered(field, format string, a ...any) error {
	return fmt.Errorf("plan: %w: %w", &FieldError{Field: field, Msg: fmt.Sprintf(format, a...)}, ErrNotCovered)
}

// noCopies refuses s = c for a method other than the exact chain.
func noCopies(cfg Config, set Settings) error {
	return fieldErr("Config.Shuffle.Exchange", "%d: with s = c no copy is ever made; only Settings.Method exact applies (valid range for Settings.Method %v: 1..%d)", cfg.Shuffle.Exchange, set.Method, cfg.Shuffle.Cache-1)
}

// solveOne answers one configuration Check has passed.
func solveOne(ctx context.Context, cfg Config, set Settings, shared *[]float64) (*Answer, error) {
	N, K, m := cfg.Nodes, cfg.initial(), cfg.count()
	if m <= K {
		// The level is met at t = 0.
		a := &Answer{Exchange: cfg.Shuffle.Exchange, Method: set.Method, PReach: 1, PDeadline: math.NaN(), Accuracy: noAccuracy()}
		if a.Method == Auto {
			a.Method = Exact
		}
		a.Accuracy.Note = fmt.Sprintf("⌈L·N⌉ = %d ≤ K = %d: T_L = 0 exactly", m, K)
		if cfg.Deadline > 0 {
			a.PDeadline, a.PDeadlineLow, a.Feasible = 1, 1, true
		}
		return a, nil
	}
	// The exact chain's estimated work, once (+Inf above maxExactNodes).
	cost := ExactCost(cfg)
	exactFits := cost <= set.ExactBudget
	if cfg.Topology.Kind != sim.Full || cfg.Loss > 0 && !(set.Method == Exact || set.Method == Auto && exactFits) {
		// Only a Monte Carlo covers these (lossy, covered above).
		return solveOther(ctx, cfg, set)
	}
	var asym *asymptotic
	mf, err := meanField(cfg)
	if err != nil {
		return nil, err
	}
	if mf.Rate() > 0 {
		if *shared == nil {
			*shared = betaQuantiles(m-K, N-m+1)
		}
		asym = newAsymptotic(N, K, *shared, mf)
	}
	method := set.Method
	if method == Auto {
		method = Asymptotic
		if exactFits {
			method = Exact
		}
	}
	if asym == nil && method != Exact {
		return nil, noCopies(cfg, set) // u = 0 (Check refuses s = c before any work)
	}
	var a *Answer
	if method == Asymptotic && set.Method == Auto {
		// Auto: the limit law where its stated bound meets the requested
		// accuracy, else the lumped chain's Monte Carlo (autoChoice).
		a, err = autoChoice(ctx, cfg, set, asym, mf)
		if err != nil {
			return nil, err
		}
		method = a.Method
	}
	switch {
	case a != nil:
	case method == Exact:
		a, err = solveExact(ctx, cfg, set)
		if err == nil && set.Method == Auto && cfg.Loss > 0 {
			a.Accuracy.Note = fmt.Sprintf("auto: the exact chain fits the budget (about %.2g of %.2g state-steps; the asymptotic law does not cover loss): %s", cost, set.ExactBudget, a.Accuracy.Note)
		}
	case method == MonteCarlo:
		if set.Model == Lumped {
			a, err = solveLumped(ctx, cfg, set)
		} else {
			a, err = solveMC(ctx, cfg, set, asym)
		}
	default:
		a = answerAsymptotic(cfg, asym)
	}
	if err != nil {
		return nil, err
	}
	a.Exchange, a.Method = cfg.Shuffle.Exchange, method
	return finish(cfg, a), nil
}

// finish fills the fields every method shares: feasibility and cost.
func finish(cfg Config, a *Answer) *Answer {
	if cfg.Loss == 0 {
		a.PReach = 1 // X ≥ 1 for ever: only a lost reply removes a last copy
	}
	if cfg.Deadline > 0 {
		if a.Method != MonteCarlo {
			// A computed law: its stated error (a Monte Carlo set
			// Wilson's end where it counted the runs).
			a.PDeadlineLow = a.PDeadline
			for _, e := range []float64{a.Accuracy.Bound, a.Accuracy.DevPDeadline} {
				if e > 0 {
					a.PDeadlineLow = math.Max(a.PDeadline-e, 0)
				}
			}
		}
		a.Feasible = a.PDeadlineLow >= cfg.confidence()
	}
	a.ItemsSent = (2 - cfg.Loss) * float64(cfg.Shuffle.Exchange) * float64(cfg.Nodes) * a.Mean
	return a
}

// meanField is the mean-field model of cfg (package approx).
func meanField(cfg Config) (approx.Model, error) {
	mf, err := approx.NewModel(approx.Config{Nodes: cfg.Nodes, Shuffle: cfg.Shuffle, PDrop: cfg.PDrop, Initial: cfg.initial()})
	if err != nil {
		return approx.Model{}, fmt.Errorf("plan: %w", err)
	}
	return mf, nil
}

// answerAsymptotic reads the queries off the limit law.
func answerAsymptotic(cfg Config, a *asymptotic) *Answer {
	ans := &Answer{PDeadline: math.NaN(), Accuracy: noAccuracy()}
	ans.Mean, ans.SD = a.Moments()
	ans.Q05, ans.Q25, ans.Q50, ans.Q75, ans.Q95 = a.Quantile(0.05), a.Quantile(0.25), a.Quantile(0.5), a.Quantile(0.75), a.Quantile(0.95)
	ans.TConfidence = a.Quantile(cfg.confidence())
	if cfg.Deadline > 0 {
		ans.PDeadline = a.CDF(cfg.Deadline)
	}
	ans.Accuracy.DevMean, ans.Accuracy.DevSD = a.deviation()
	if cfg.Deadline > 0 {
		ans.Accuracy.DevPDeadline = a.devP(cfg.Deadline, ans.Accuracy)
	}
	ans.Accuracy.Note = fmt.Sprintf("asymptotic law of the pairwise model with the finite-level shift; stated bound (%s, %.3g copies at the level, %.3g at equilibrium): |Δmean| ≤ %.2g, |Δsd| ≤ %.2g rounds, a p-quantile within |Δmean| + z_p·|Δsd| (%.2g at p = 0.05, %.2g at 0.95)",
		boundSource, a.copies, a.capacity, ans.Accuracy.DevMean, ans.Accuracy.DevSD, ans.Accuracy.DevQuantile(0.05), ans.Accuracy.DevQuantile(0.95))
	if cfg.Deadline > 0 {
		ans.Accuracy.Note += fmt.Sprintf(", P(T_L ≤ D) within %.2g", ans.Accuracy.DevPDeadline)
	}
	return ans
}
