package chain

import (
	"errors"
	"fmt"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/enum"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// Config is one chain to solve: what to compute.
type Config struct {
	// Nodes is N, the number of nodes.
	Nodes int
	// Shuffle holds the items n, the cache c and the exchange s.
	Shuffle gossip.Shuffle
	// Initial is the number of nodes holding d at t = 0 (0 means 1).
	Initial int
	PDrop   approx.Variant
	// ReplicationOnly solves the chain of X alone (no coverage).
	ReplicationOnly bool
	// Time is gossip.Continuous (shuffles at rate N per round, every node
	// initiating at rate 1, as `sim --schedule continuous`) or
	// gossip.Shuffles (the per-shuffle chain, N shuffles a round); the
	// chain has no synchronous rounds, and Validate refuses them.
	Time gossip.Time
	// Output times 0, Dt, 2Dt, …, TMax (rounds).
	TMax, Dt float64
	// Level, if in (0, 1], asks for the law of the time to coverage Level
	// and P(Y(t) ≥ ⌈Level·N⌉) at every output time (not with
	// ReplicationOnly).
	Level float64
	// Loss is ε in [0, 1): each message of a shuffle (the request and the
	// reply) is lost independently with probability ε (gossip.Loss). With
	// loss d can die (X = 0, absorbing, Y frozen): Row.PExtinct,
	// LevelTime.PReach, Lifetime and QuasiStationary describe it.
	Loss float64
}

// Limits of Solve: the joint chain keeps three dense (N+2)² arrays of
// float64; every chain is refused above MaxSteps shuffles to TMax.
const (
	MaxNodesJoint       = 5000
	MaxNodesReplication = 10_000_000
	MaxSteps            = 2e9
)

func fieldErr(field, format string, a ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, a...)}
}

// FieldError is an invalid field of Config; Field names it (Config.Nodes).
// It is one type with tree's, sim's and chain's FieldError.
type FieldError = fielderr.Error

// Validate checks the configuration and the limits; a problem is an error
// "chain: Config.Field …" that wraps a *FieldError (errors.As finds it).
func (c Config) Validate() error {
	if err := c.validate(); err != nil {
		return fmt.Errorf("chain: %w", err)
	}
	return nil
}

// The parameters of Config, each stated once: validate checks them and
// the command line writes its flags' help from them.
var (
	Nodes   = gossip.Param{Field: "Nodes", Symbol: "N", Meaning: "number of nodes", Range: "2..5000 for the joint chain of X and Y, 2..10^7 for X alone", Lo: gossip.AtLeast(2), Hi: gossip.AtMost(MaxNodesReplication)}
	Initial = gossip.Param{Field: "Initial", Meaning: "nodes holding d at t = 0", Range: "1..N", Default: "1", Lo: gossip.AtLeast(1)}
	TMax    = gossip.Param{Field: "TMax", Meaning: "last output time", Unit: "rounds", Range: "> 0", Lo: gossip.Above(0)}
	Dt      = gossip.Param{Field: "Dt", Meaning: "output spacing", Unit: "rounds", Range: "0 < dt ≤ t-max", Lo: gossip.Above(0)}
	Level   = gossip.Param{Field: "Level", Symbol: "L", Meaning: "coverage level", Range: "(0, 1]", Lo: gossip.Above(0), Hi: gossip.AtMost(1)}
)

func (c Config) validate() error {
	f := func(p gossip.Param, format string, a ...any) error { return p.Errorf("", "Config", format, a...) }
	sh := c.Shuffle
	maxN := MaxNodesJoint
	if c.ReplicationOnly {
		maxN = MaxNodesReplication
	}
	initial := max(c.Initial, 1)
	shErr := sh.Validate()
	switch {
	case c.Nodes < 2 || c.Nodes > maxN:
		return f(Nodes, "%d: valid range 2..%d (the joint chain of X and Y has N²/2 states, %d bytes each, kept three times)", c.Nodes, maxN, 8)
	case sh.Cache < 1:
		return fieldErr("Config.Shuffle.Cache", "%d: valid range 1..n", sh.Cache)
	case sh.Items < sh.Cache:
		return fieldErr("Config.Shuffle.Items", "%d: valid range c.. (c = %d)", sh.Items, sh.Cache)
	case sh.Exchange < 1 || sh.Exchange > sh.Cache || sh.Exchange >= sh.Items:
		return fieldErr("Config.Shuffle.Exchange", "%d: valid range 1..min(c, n−1) = 1..%d", sh.Exchange, min(sh.Cache, sh.Items-1))
	case shErr != nil: // what the checks above leave to the shuffle's rule (Items ≤ gossip.MaxItems)
		return fielderr.Within("", "Config", shErr)
	case c.Initial < 0 || initial > c.Nodes:
		return f(Initial, "%d: valid range %s = 1..%d", c.Initial, Initial.Range, c.Nodes)
	case !TMax.In(c.TMax):
		return f(TMax, "%g: must be %s", c.TMax, TMax.Range)
	case !Dt.In(c.Dt) || c.Dt > c.TMax:
		return f(Dt, "%g: valid range (0, TMax] = (0, %g]", c.Dt, c.TMax)
	case c.TMax/c.Dt > 2e5:
		// Each output row is printed as a table row of up to 17 values.
		return f(Dt, "%g: at most 2·10^5 output times (TMax/Dt = %g)", c.Dt, c.TMax/c.Dt)
	case float64(c.Nodes)*c.TMax > MaxSteps:
		return f(TMax, "%g: N·TMax = %g shuffles, more than the %g this solver takes (minutes of work)", c.TMax, float64(c.Nodes)*c.TMax, float64(MaxSteps))
	case c.Level != 0 && (c.ReplicationOnly || !Level.In(c.Level)):
		return f(Level, "%g: valid range %s, and not with ReplicationOnly", c.Level, Level.Range)
	case c.Time != gossip.Continuous && c.Time != gossip.Shuffles:
		return fieldErr("Config.Time", "%v: valid values are %s", c.Time, enum.List(gossip.Continuous, gossip.Shuffles))
	case !enum.Of[approx.Variant]().Valid(c.PDrop):
		return fieldErr("Config.PDrop", "%v: valid values are %s", c.PDrop, enum.List[approx.Variant]())
	case !gossip.ValidLoss(c.Loss):
		return gossip.Loss.Check("", "Config", c.Loss)
	}
	return nil
}

// Jumps are the per-shuffle probabilities of the chain, up to the factor
// X(·)/D of each jump (see the package doc): Up = T(11|10) + T(11|01),
// Move = T(01|10) + T(10|01), Drop = T(01|11) + T(10|11).
type Jumps struct {
	Up, Move, Drop float64
	// Lose = T(00|10) + T(00|01) is the chance, up to the factor X(N−X)/D,
	// that a holder paired with a non-holder loses d with no copy made:
	// zero without message loss (approx.NewTransitionsLoss).
	Lose float64
}

// JumpsFor derives the jump probabilities of shuffle sh from the
// transition matrix of approx.TransitionsFor.
func JumpsFor(v approx.Variant, sh gossip.Shuffle) (Jumps, error) {
	return JumpsLossFor(v, sh, 0)
}

// JumpsLossFor derives the jump probabilities of shuffle sh when each
// message is lost with probability eps, from approx.TransitionsLossFor.
func JumpsLossFor(v approx.Variant, sh gossip.Shuffle, eps float64) (Jumps, error) {
	tr, err := approx.TransitionsLossFor(v, sh, eps)
	if err != nil {
		return Jumps{}, fielderr.Within("chain", "", err)
	}
	var j Jumps
	j.Up, j.Move, j.Drop, j.Lose = tr.Summed()
	return j, nil
}

// jumps returns the jump probabilities of cfg (with its loss).
func (c Config) jumps() (Jumps, error) {
	return JumpsLossFor(c.PDrop, c.Shuffle, c.Loss)
}

// Settings are Solve's numerical knobs. The zero value of a field means
// its default.
type Settings struct {
	// Tol bounds the Poisson tail cut from each mixture, in [1e-300, 1);
	// default (and any other value) 1e-14. (Below 1e-300 the windows'
	// cut, Tol·10⁻⁶, would underflow to 0 and a window never end.)
	Tol float64
	// Drop is the mass of an edge of the live region below which it is
	// dropped, in (0, 1); default (and any other value) 1e-18.
	Drop float64
	// Progress, if not nil, is called now and then with the steps done
	// and the steps to TMax (the steps to the level's tail come after).
	Progress gossip.Progress
	// MaxStateSteps bounds the work Solve accepts, in state-steps as
	// Estimate counts them (within a factor 3 of the work done); a
	// configuration estimated above it is refused before any work with
	// an error wrapping gossip.ErrTooLarge. Default DefaultMaxStateSteps.
	MaxStateSteps float64

	rate      float64 // tests: a fixed uniformization rate, never raised
	firstRate float64 // tests: the first rate tried, raised as needed

	// tests: the steps between the level tail's checks for a lower rate
	// (0: retuneEvery; < 0: never, the tail in one piece as without loss)
	retuneEvery int
	// tests: if not nil, Solve records there the terms of the bound where
	// they arise
	ledger *ledger
}

// Stat is a law's mean, standard deviation and 5, 50 and 95 % quantiles
// (the smallest value whose cumulative probability reaches the level).
type Stat struct {
	Mean, SD, Q05, Q50, Q95 float64
}

// Row is the law at one output time: X/N and Y/N (Y zero with
// ReplicationOnly), PLevel = P(Y(t) ≥ ⌈Level·N⌉) and PExtinct =
// P(X(t) = 0) (zero without loss). With loss the law of X includes X = 0,
// and that of Y the frozen Y of the paths on which d died.
type Row struct {
	T        float64
	X, Y     Stat
	PLevel   float64
	PExtinct float64
}

// LevelTime is the law of the time T_L to coverage Level (rounds); Count is
// ⌈Level·N⌉. Mean and SD are exact up to rounding (HittingMoments); the
// quantiles and CDF are within Result.Bound.
//
// With loss, T_L = ∞ when d dies before Count nodes have held it: PReach =
// P(T_L < ∞) (exact up to rounding, first-step analysis), CDF is the
// defective P(T_L ≤ t), and Mean, SD, Q05, Q50 and Q95 are those of T_L
// given T_L < ∞ (the quantiles at levels p·PReach of CDF). P(extinction
// before coverage Level) is 1 − PReach. Without loss PReach = 1.
type LevelTime struct {
	Level  float64
	Count  int
	PReach float64
	Stat
	// Bound bounds the error of CDF (and of the quantiles' levels).
	Bound float64

	tm   gossip.Time
	n    int
	segs []levelSeg
	tol  float64
}

// Stats count the work.
type Stats struct {
	Steps      int64   // steps of the uniformized chain applied
	StateSteps float64 // Σ over the steps of the live region's size (the work)
	MaxStates  int     // largest live region, in states
	Rate       float64 // uniformization rate Λ at the end, per round (N: the per-shuffle chain)
	Attempts   int     // 1 + the times Λ was raised (a segment whose Λ proved too small is run again)
	Retunes    int     // the times the level's tail lowered Λ (with loss; see Solve)
	Killed     float64 // mass sent beyond the states whose exit rate is ≤ Λ (in Bound)
}

// Result is a solved chain.
type Result struct {
	Config Config
	Rows   []Row
	Level  *LevelTime
	// Bound bounds, in total variation, the distance of every law reported
	// from the exact one (so every probability is within Bound and every
	// mean of X/N or Y/N within 2·Bound); Missing is 1 − the mass of the
	// last output law, which Solve checks (for every output law) is at
	// most its bound.
	Bound, Missing float64
	Stats          Stats
}

// ErrMass is returned when the probability mass drifts outside the bound
// (a defect of the solver).
var ErrMass = errors.New("chain: probability mass outside the error bound")

// DefaultMaxStateSteps is MaxStateSteps' default: 10¹² state-steps,
// about 1.5 hours of CPU at the 5–6 ns a state-step measured (the report's
// largest chain, N = 1000, is 3.7·10⁹).
const DefaultMaxStateSteps = 1e12

func (s Settings) withDefaults() Settings {
	if !(s.MaxStateSteps > 0) {
		s.MaxStateSteps = DefaultMaxStateSteps
	}
	// NaN and ±Inf mean the default too: a NaN tolerance cut no Poisson
	// tail and ran out of memory.
	if !(s.Tol >= 1e-300 && s.Tol < 1) {
		s.Tol = 1e-14
	}
	if !(s.Drop > 0 && s.Drop < 1) {
		s.Drop = 1e-18
	}
	return s
}
