package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/gossipkit/gossipkit/broadcast/internal/asyncsim"
	"github.com/gossipkit/gossipkit/broadcast/internal/ticks"
	"github.com/gossipkit/gossipkit/internal/enum"
	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/stats"
)

// Time is the clock of a broadcast (Config.Time).
//
//   - Rounds (the default): synchronous rounds, every node acting on the
//     state at the start of a round (the package doc).
//   - Async: time as memberlist keeps it. Every live node has a gossip
//     ticker of period one interval at its own phase, drawn uniformly in
//     [0, 1) and independently of the others; the source queues the rumour
//     at t = 0 and sends it at its first tick; a node informed at t acts
//     from its next tick after t; a message arrives at the instant it is
//     sent. At a tick a node does what it does in a round (push to k
//     distinct peers while its budget lasts, or pull from k); fanout,
//     budget, loss and failed nodes are as with Rounds. Times are
//     continuous, in intervals from the source's queueing.
//
// Only the Monte Carlo (SimulateAsync) computes Async; ExactLaw,
// AsymptoticLaw and Simulate refuse it with ErrNotCovered, and Sweep's
// Auto uses the Monte Carlo.
type Time int

const (
	// Rounds is the synchronous-rounds clock.
	Rounds Time = iota
	// Async is every node's ticker at its own uniform phase.
	Async
)

var timeNames = enum.Names[Time]{"rounds", "async"}

// TimeNames are the names of the clocks, in order.
func TimeNames() []string { return append([]string(nil), timeNames...) }

func (t Time) String() string { return timeNames.Name(t) }

// ParseTime parses rounds or async.
func ParseTime(s string) (Time, error) {
	t, err := timeNames.Parse("time model", s)
	if err != nil {
		return 0, fmt.Errorf("broadcast: %w", err)
	}
	return t, nil
}

// roundsOnly refuses an asynchronous configuration for a method of the
// rounds (what names it), with ErrNotCovered.
func roundsOnly(cfg Config, what string) error {
	if cfg.Time == Rounds {
		return nil
	}
	return fmt.Errorf("broadcast: %s: Config.Time = %v is computed by the Monte Carlo only (SimulateAsync): %w", what, cfg.Time, ErrNotCovered)
}

// MaxAsyncNodes bounds Config.Nodes for SimulateAsync: it keeps 9 bytes a
// node in each worker.
const MaxAsyncNodes = 1 << 26

// AsyncLevels are the coverage levels whose times SimulateAsync reports
// in every replication (AsyncReplication.Levels): half, 99 % and all of
// the live nodes, as the memberlist harness measures them.
var AsyncLevels = [3]float64{0.5, 0.99, 1}

// AsyncReplication is the outcome of one replication of SimulateAsync.
type AsyncReplication struct {
	// Index is the replication's number r (its stream).
	Index int `json:"index"`
	// T is T_L in intervals, −1 for T_L = ∞; Levels the times to each of
	// AsyncLevels (−1: never).
	T      float64    `json:"t"`
	Levels [3]float64 `json:"levels"`
	// Missed is the number of live nodes never informed (push with a
	// budget; else 0) and MissedByDeadline those not informed by
	// Config.Deadline (0 without one).
	Missed           int `json:"missed"`
	MissedByDeadline int `json:"missed_by_deadline"`
	// End is the time, in intervals, of the last live node's informing
	// (0 when only the source holds it): the broadcast's end state holds
	// from then on.
	End float64 `json:"end"`
	// Messages is the one-way messages sent, by the rules of the package
	// doc read on the clock: a push without a budget counts the ticks up to
	// T_L, pull's requests and replies run until every live node is
	// informed.
	Messages int64 `json:"messages"`
}

// AsyncSample is the outcome of SimulateAsync, the replications in
// increasing index.
type AsyncSample struct {
	Config Config
	Seed   uint64
	Reps   []AsyncReplication
}

// AsyncTimes are the mean times to the levels of AsyncLevels given that
// they are reached, in intervals, each with its standard error and the
// replications that reached it.
type AsyncTimes struct {
	Level   [3]float64
	Mean    [3]float64
	SE      [3]float64
	Reached [3]int
}

// SimulateAsync is the Monte Carlo of the asynchronous clock (Time's doc;
// cfg.Time must be Async). Replication r draws from stream r of set.Seed
// (internal/rng), so a run is reproducible from the seed and does not
// depend on the workers; set.Literal and set.SkipWatched do not apply.
//
// The replication is event by event: the informed live nodes that can
// still act (and, for pull, the uninformed ones) wait in a heap on their
// next tick. The failed nodes are the last ⌊φ(N−1)⌋ of nodes 1..N−1 and
// the source is node 0; as peers are drawn uniformly, which nodes fail
// does not matter. For push alone a node's phase is drawn when it is
// informed: its next tick is then t + U, U uniform in (0, 1], which is
// the law of the first tick after t of a ticker at a uniform phase drawn
// independently of t. For pull and push–pull every live node's phase is
// drawn at the start (it pulls from its first tick on). The k distinct
// peers of a tick are drawn uniformly among the N − 1 others by
// rejection; each message is lost with probability ε.
//
// A push without a budget runs until every live node is informed and
// counts its messages up to T_L; pull and push–pull run until every live
// node is informed and, with a budget, until every push is made. Work is
// O(messages · log N) a replication; ctx is checked every 4,096 events.
func SimulateAsync(ctx context.Context, cfg Config, set SimSettings) (*AsyncSample, error) {
	if ctx == nil {
		return nil, errors.New("broadcast: nil context")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Time != Async {
		return nil, fieldErr("Config.Time", "= %v: SimulateAsync runs the asynchronous clock (Simulate the rounds)", cfg.Time)
	}
	if err := set.validate(cfg); err != nil {
		return nil, err
	}
	if cfg.Nodes > MaxAsyncNodes {
		return nil, fieldErr("Config.Nodes", "= %d: the asynchronous Monte Carlo runs N ≤ 2^26 (9 bytes a node a worker)", cfg.Nodes)
	}
	if set.Reps == 0 {
		set.Reps = DefaultReps
	}
	if set.Workers == 0 {
		set.Workers = runtime.NumCPU()
	}
	idx := set.Indices
	if idx == nil {
		idx = make([]int, set.Reps)
		for i := range idx {
			idx[i] = i
		}
	}
	s := &AsyncSample{Config: cfg, Seed: set.Seed, Reps: make([]AsyncReplication, len(idx))}
	err := parallel.For(ctx, len(idx), set.Workers, func() func(context.Context, int) error {
		a := newAsyncEngine(cfg, set.Seed)
		return func(ctx context.Context, j int) error {
			rep, err := a.run(ctx, idx[j])
			s.Reps[j] = rep
			return err
		}
	}, set.Progress)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// tick is one node's next tick (package internal/ticks).
type tick = ticks.Tick

// asyncEngine is one worker's engine of the asynchronous Monte Carlo for
// cfg (package internal/asyncsim), with its seed.
type asyncEngine struct {
	*asyncsim.Engine
	cfg  Config
	seed uint64
	p    asyncsim.Params
}

func newAsyncEngine(cfg Config, seed uint64) *asyncEngine {
	p := asyncsim.Params{N: cfg.Nodes, M: cfg.Live(), K: cfg.Fanout, B: cfg.Budget, Eps: cfg.Loss,
		Push: cfg.Protocol.pushes(), Pull: cfg.Protocol.pulls(), Target: cfg.Target(), Deadline: cfg.Deadline}
	for i, l := range AsyncLevels {
		c := cfg
		c.Level = l
		p.Targets[i] = c.Target()
	}
	return &asyncEngine{Engine: asyncsim.New(cfg.Nodes), cfg: cfg, seed: seed, p: p}
}

// run is replication index (its stream of a.seed) as an AsyncReplication.
func (a *asyncEngine) run(ctx context.Context, index int) (AsyncReplication, error) {
	r, err := a.Run(ctx, a.p, a.seed, index)
	return AsyncReplication{Index: index, T: r.T, Levels: r.Levels, Missed: r.Missed, MissedByDeadline: r.MissedByDeadline,
		End: r.End, Messages: r.Messages}, err
}

// Answer reads the answers off the sample, as Law.Answer does for the
// rounds, with continuous times: the mean, sd and quantiles of T_L given
// T_L < ∞ (the quantile q the ⌈q·R'⌉-th smallest of the R' times
// reached), TConfidence the ⌈P·R⌉-th smallest time (NaN if fewer reach),
// P(T_L ≤ D), the residue and p_miss with their relative errors (zValue
// standard errors; Wilson's interval for p_miss and p_late), the messages
// per live node, and the standard errors in Accuracy. Times is the mean
// time to each of AsyncLevels.
func (s *AsyncSample) Answer() (Answer, *AsyncTimes) {
	nan := math.NaN()
	if s == nil {
		s = &AsyncSample{}
	}
	cfg := s.Config
	a := Answer{Fanout: cfg.Fanout, Budget: cfg.Budget, Method: MonteCarlo, Residue: nan, PMiss: nan, Messages: nan,
		ResidueRelErr: nan, PMissRelErr: nan, ResidueDeadline: nan, ResidueDeadlineRelErr: nan, PLate: nan, PLateRelErr: nan,
		Mean: nan, SD: nan, Q05: nan, Q25: nan, Q50: nan, Q75: nan, Q95: nan, TConfidence: nan, PDeadline: nan,
		Seconds: nan, TConfidenceSeconds: nan, BytesPerNode: nan, BytesPerNodePerSecond: nan, Accuracy: NoAccuracy()}
	times := &AsyncTimes{Level: AsyncLevels}
	R := len(s.Reps)
	if R == 0 {
		return a, times
	}
	fR, M := float64(R), float64(cfg.Live())
	var reached, resid, residD, msgs []float64
	miss, late := 0, 0
	for _, r := range s.Reps {
		if r.T >= 0 {
			reached = append(reached, r.T)
		}
		if r.T < 0 || cfg.Deadline > 0 && r.T > cfg.Deadline {
			late++
		}
		if r.Missed > 0 {
			miss++
		}
		resid = append(resid, float64(r.Missed)/M)
		residD = append(residD, float64(r.MissedByDeadline)/M)
		msgs = append(msgs, float64(r.Messages)/M)
	}
	slices.Sort(reached)
	a.PReach = float64(len(reached)) / fR
	a.Accuracy.SEPReach = seShare(a.PReach, R)
	if n := len(reached); n > 0 {
		a.Mean, a.SD = stats.MeanSD(reached)
		if n < 2 {
			a.SD = nan
		}
		q := func(p float64) float64 { return reached[max(int(math.Ceil(p*float64(n)-1e-9)), 1)-1] }
		a.Q05, a.Q25, a.Q50, a.Q75, a.Q95 = q(0.05), q(0.25), q(0.5), q(0.75), q(0.95)
		if n >= 2 {
			a.Accuracy.SEMean = a.SD / math.Sqrt(float64(n))
			var m4 float64
			for _, x := range reached {
				d := x - a.Mean
				m4 += d * d * d * d
			}
			m4 /= float64(n)
			if v := m4 - math.Pow(a.SD, 4); a.SD > 0 && v >= 0 {
				a.Accuracy.SESD = math.Sqrt(v) / (2 * a.SD * math.Sqrt(float64(n)))
			} else {
				a.Accuracy.SESD = 0
			}
		}
	}
	if j := max(int(math.Ceil(cfg.ConfidenceOrDefault()*fR-1e-9)), 1); j <= len(reached) {
		a.TConfidence = reached[j-1]
	}
	budgeted := cfg.Protocol == Push && cfg.Budget > 0
	if budgeted {
		iv, _ := meanIv(resid)
		a.Residue, a.ResidueRelErr = split(iv)
		if a.Residue == 0 {
			a.ResidueRelErr = math.Inf(1) // no miss seen: no relative bound
		}
		a.PMiss, a.PMissRelErr = split(wilson(miss, R))
	} else {
		a.Residue, a.PMiss, a.ResidueRelErr, a.PMissRelErr = 0, 0, 0, 0
	}
	if cfg.Deadline > 0 {
		a.PLate, a.PLateRelErr = split(wilson(late, R))
		if late == 0 {
			a.PLateFloor = wilson(0, R).hi // no late run: the interval's upper end
		}
		a.PDeadline = 1 - a.PLate
		a.Accuracy.SEPDeadline = seShare(a.PDeadline, R)
		iv, _ := meanIv(residD)
		if iv.v == 0 && iv.hi == 0 {
			// No run left a node uninformed by D: not exactly 0, and at
			// most the chance that some node is (Wilson's upper end).
			iv.hi = wilson(late, R).hi
		}
		a.ResidueDeadline, a.ResidueDeadlineRelErr = split(iv)
	}
	var msd float64
	a.Messages, msd = stats.MeanSD(msgs)
	a.Accuracy.SEMessages = msd / math.Sqrt(fR)
	a.Feasible = feasible(cfg, a)
	if cfg.Interval > 0 {
		a.Seconds, a.TConfidenceSeconds = a.Mean*cfg.Interval, a.TConfidence*cfg.Interval
	}
	if cfg.MessageBytes > 0 {
		a.BytesPerNode = a.Messages * float64(cfg.MessageBytes)
		if a.Seconds > 0 {
			a.BytesPerNodePerSecond = a.BytesPerNode / a.Seconds
		}
	}
	for i := range AsyncLevels {
		var x []float64
		for _, r := range s.Reps {
			if r.Levels[i] >= 0 {
				x = append(x, r.Levels[i])
			}
		}
		times.Reached[i] = len(x)
		times.Mean[i], times.SE[i] = nan, nan
		if len(x) > 0 {
			m, sd := stats.MeanSD(x)
			times.Mean[i] = m
			if len(x) >= 2 {
				times.SE[i] = sd / math.Sqrt(float64(len(x)))
			}
		}
	}
	a.Accuracy.Note = fmt.Sprintf("Monte Carlo of the asynchronous clock (every ticker at its own uniform phase; times in intervals from the source's queueing), %d replications of seed %d; standard errors in the fields SE*; residue and p_miss within their *_rel_err (%d standard errors)", R, s.Seed, zValue)
	a.Async = times
	return a, times
}

// solveAsync answers an asynchronous configuration: the Monte Carlo
// (SimulateAsync) for Auto and MonteCarlo; Exact and Asymptotic refuse it
// with ErrNotCovered. Under Auto, for push with a budget, the residue and
// p_miss are taken from the rounds' methods where their stated error is
// smaller: who is informed in the end does not depend on the clock (every
// informed live node makes all its transmits, to peers drawn the same
// way, whenever it makes them), which TestAsyncEndMatchesRounds checks.
func solveAsync(ctx context.Context, cfg Config, set Settings) (*Answer, error) {
	switch set.Method {
	case Exact:
		return nil, roundsOnly(cfg, "exact law")
	case Asymptotic:
		return nil, roundsOnly(cfg, "asymptotic law")
	}
	s, err := SimulateAsync(ctx, cfg, SimSettings{Reps: set.Reps, Seed: set.Seed, Workers: set.Workers, Progress: set.Progress})
	if err != nil {
		return nil, err
	}
	a, _ := s.Answer()
	if set.Method == Auto {
		grown, err := countLateAsync(ctx, cfg, set, s, a)
		if err != nil {
			return nil, err
		}
		if grown != s {
			s = grown
			a, _ = s.Answer()
		}
	}
	if set.Method == Auto && cfg.Protocol == Push && cfg.Budget > 0 {
		rc := cfg
		rc.Time, rc.Deadline, rc.MaxMiss = Rounds, 0, 0
		rset := set
		rset.Progress = nil
		ra, err := solveOne(ctx, rc, rset)
		if err != nil {
			return nil, err
		}
		res := better(ivOf(a.Residue, a.ResidueRelErr), ivOf(ra.Residue, ra.ResidueRelErr))
		pm := better(ivOf(a.PMiss, a.PMissRelErr), ivOf(ra.PMiss, ra.PMissRelErr))
		a.Residue, a.ResidueRelErr = split(res)
		a.PMiss, a.PMissRelErr = split(pm)
		a.Accuracy.Note += fmt.Sprintf("; residue and p_miss from the rounds' %v where more accurate (who is informed in the end does not depend on the clock)", ra.Method)
	}
	if set.Method == Auto {
		if err := a.improveAsync(ctx, cfg, set.withDefaults(), s); err != nil {
			return nil, err
		}
	}
	if cfg.Protocol == Push && cfg.Budget > 0 && set.Method == Auto {
		// Every informed node makes its B transmits: the messages follow.
		B := float64(cfg.Budget)
		a.Messages = B * (1 - a.Residue)
		a.Accuracy.SEMessages = B * a.Residue * a.ResidueRelErr / zValue
		// At level 1, T_L = ∞ exactly when some live node is missed (as
		// Law.Answer reads it).
		if cfg.Target() == cfg.Live() && !math.IsNaN(a.PMiss) {
			a.PReach = 1 - a.PMiss
			a.Accuracy.SEPReach = a.PMiss * a.PMissRelErr / zValue
			if cfg.ConfidenceOrDefault() > a.PReach {
				a.TConfidence, a.TConfidenceSeconds = math.NaN(), math.NaN()
			}
		}
	}
	a.Feasible = feasible(cfg, a)
	if err := a.repairAsync(ctx, cfg, set, s); err != nil {
		return nil, err
	}
	return &a, nil
}

// asyncKeys are the columns the asynchronous clock adds to Design.Table:
// the mean time to each of AsyncLevels and its standard error (none for
// the rounds).
func asyncKeys(c Config) []string {
	if c.Time != Async {
		return nil
	}
	return []string{"t50", "t50_se", "t99", "t99_se", "t100", "t100_se"}
}

// asyncCells are a row's cells of asyncKeys.
func asyncCells(c Config, a Answer) []any {
	if c.Time != Async {
		return nil
	}
	nan := math.NaN()
	if a.Async == nil {
		return []any{nan, nan, nan, nan, nan, nan}
	}
	t := a.Async
	return []any{t.Mean[0], t.SE[0], t.Mean[1], t.SE[1], t.Mean[2], t.SE[2]}
}

// asyncHeader is the header's statement of the clock for Async, in place
// of the rounds'.
func asyncHeader(c Config) string {
	s := ". Clock: asynchronous (every node's gossip ticker at its own uniform phase; the source queues at t = 0 and sends at its first tick; a node informed at t acts at its next tick): times (mean, quantiles, t_confidence, D) are continuous, in gossip intervals from the source's queueing"
	if c.Interval > 0 {
		s += fmt.Sprintf(", of %g s", c.Interval)
	}
	return s + "; t50, t99, t100 = the mean time until 50, 99 and 100 % of the live nodes are informed, given that they are, each with its standard error (*_se)" + probeNote
}

// probeNote states what the clock leaves out where memberlist probes (its
// default): measured, not modelled (docs/memberlist-validation.md, the
// run of 2026-12-06).
const probeNote = "; not modelled: memberlist also sends queued broadcasts on its failure detector's pings and acks (ProbeInterval, on by default: 1 s in DefaultLANConfig); measured with memberlist v0.7.0 at a probe every 5 gossip intervals, the times to 50, 99 and 100 % were 0.15–0.46 interval shorter than with probing off, and the residue, p_miss and transmits within about 2 standard errors in each run (pooled over three runs at N 200, ε 0.2, the residue 4.6 % higher, z 2.8: not established; docs/MODEL.md §6, Probing)"

// unit is the unit of the clock's times: rounds or intervals.
func (t Time) unit() string {
	if t == Async {
		return "intervals"
	}
	return "rounds"
}

// meanEvents is the work of one of s's replications, in events: its
// messages and a tick for each live node.
func (s *AsyncSample) meanEvents() float64 {
	e := float64(s.Config.Live())
	for _, r := range s.Reps {
		e += float64(r.Messages) / float64(len(s.Reps))
	}
	return e
}

// countLateAsync runs more plain replications where P(T_L > D) is common
// but not yet within MaxRelErr: the watched runs' bracket is vacuous
// there (S₁ ≥ 1), and the count states it within MaxRelErr at about
// z²·(1 − p)/(p·MaxRelErr²) runs. It grows the sample up to maxRefine
// times and maxAsyncWatchWork events (the plain runs' mean), and returns
// s itself where it adds none.
func countLateAsync(ctx context.Context, cfg Config, set Settings, s *AsyncSample, a Answer) (*AsyncSample, error) {
	R := len(s.Reps)
	if !(cfg.Deadline > 0) || R == 0 || !(a.PLateRelErr > MaxRelErr) || a.PLate == 0 {
		return s, nil
	}
	p := a.PLate
	need := int(math.Ceil(zValue * zValue * (1 - p) / (p * (0.9 * MaxRelErr) * (0.9 * MaxRelErr))))
	need = min(need, maxRefine*R, int(maxAsyncWatchWork/s.meanEvents()))
	if need <= R {
		return s, nil
	}
	idx := make([]int, need-R)
	for i := range idx {
		idx[i] = R + i
	}
	more, err := SimulateAsync(ctx, cfg, SimSettings{Reps: need, Seed: set.Seed, Workers: set.Workers, Indices: idx})
	if err != nil {
		return nil, err
	}
	out := *s
	out.Reps = append(slices.Clip(s.Reps), more.Reps...)
	return &out, nil
}
