package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/gossipkit/gossipkit/broadcast/internal/antientropy"
	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// Anti-entropy repair (docs/MODEL.md §6): after the broadcast, every live
// node starts a full-state sync (memberlist's push–pull) once per scaled
// sync interval S' = PushPullScale(Config.SyncInterval, N), at its own
// phase, uniform in [0, S') and independent of the others', with one peer
// drawn uniformly among the N − 1 others (a failed node among them: that
// sync does nothing). The initiator's state goes to the peer, and the
// peer's state (as it was before the sync) comes back. The packet loss ε
// does not touch a sync: memberlist's push–pull runs over a stream (TCP),
// which retransmits a lost segment, so a loss delays the exchange rather
// than losing it; an exchange fails as a whole only when the dial or a
// read outlasts memberlist's TCPTimeout (10 s on a LAN): Config.SyncFail
// is that chance per sync, independent of the rest (0: none; measured
// with the real library at a LAN's TCPTimeout, about 0.017 at ε = 0.2 and
// 0.068 at 0.3, docs/MODEL.md §6, which also sets out the delays a
// completed sync takes and this model leaves out). A node
// that holds the update after the sync keeps it; it does not gossip it
// again (Serf's MergeRemoteState takes the user events of a sync into its
// buffer without rebroadcasting them).
//
// Which messages a sync carries: Serf puts its recent user events (its
// 512-event buffer) in the push–pull state, so a user event missed by the
// broadcast is repaired while it is in that buffer; a Serf query and a
// plain memberlist user broadcast (Delegate.GetBroadcasts) are not in the
// state and are never repaired: for them the broadcast's residue is final.
//
// Time t is measured from the source's queueing. Where the broadcast takes
// time (Config.Interval > 0, a push with a budget) the syncs run during
// its spread too (internal/antientropy/spread.go: a sync reaches a node
// before the gossip does, and a node informed by a sync does not
// forward): the
// Monte Carlo plays both on one clock, and the mean field starts from the
// law of the broadcast's end state with the syncs of the spread counted
// (RepairCurveFrom, LateShare). Otherwise the broadcast is taken as
// instantaneous against S' and the syncs start at t = 0 from its end
// state.

// Repair is the chance that a given live node still lacks the update t
// seconds after the broadcast, for the messages a sync carries (a Serf
// user event in its buffer; never repaired: a Serf query, a plain
// memberlist broadcast).
type Repair struct {
	// SyncInterval is the configured interval and Scaled the interval of
	// each node's syncs, PushPullScale(SyncInterval, Nodes), in seconds.
	SyncInterval, Scaled float64
	// Residue is the chance at Start: the broadcast's residue, or where
	// the syncs of its spread are counted (RepairCurveFrom) the share
	// lacking the update at its end.
	Residue float64
	// Start is when the mean field's syncs start, in seconds from the
	// queueing (RepairCurve, RepairCurveFrom); the chance is Residue until
	// then, and Lack[n] is at Start + n·Step.
	Start float64
	// Step is the curve's grid step, Scaled/256, in seconds; Lack[n] is
	// the chance at n·Step, until it falls below 10⁻¹⁵ (then 0) or for
	// 4,096 scaled intervals.
	Step float64
	Lack []float64
	// Iterations of the mean field's fixed point and the largest change
	// of the curve in the last one (its convergence).
	Iterations int
	Change     float64
}

// MissLaw is one point of the law of a broadcast's end: with probability
// P, a share Share of the live nodes missed it.
type MissLaw struct{ Share, P float64 }

// MissLawOf is the law of the share missed in a sample of the
// asynchronous Monte Carlo (one point per distinct count, each
// replication weighing 1/R).
func MissLawOf(s *AsyncSample) []MissLaw {
	if s == nil || len(s.Reps) == 0 {
		return nil
	}
	counts := map[int]int{}
	for _, r := range s.Reps {
		counts[r.Missed]++
	}
	keys := make([]int, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var law []MissLaw
	M, R := float64(s.Config.Live()), float64(len(s.Reps))
	for _, k := range keys {
		law = append(law, MissLaw{Share: float64(k) / M, P: float64(counts[k]) / R})
	}
	return law
}

// MeanEnd is the mean time, in intervals, at which a sample's broadcasts
// reached their end state (AsyncReplication.End).
func MeanEnd(s *AsyncSample) float64 {
	if s == nil || len(s.Reps) == 0 {
		return 0
	}
	m := 0.0
	for _, r := range s.Reps {
		m += r.End
	}
	return m / float64(len(s.Reps))
}

// RepairCurve is the mean field of the repair from the law of the
// broadcast's end (end; a single point {residue, 1} where only the
// residue is known), the syncs counted from start seconds after the
// queueing at uniform phases (0: the broadcast taken as instantaneous;
// RepairCurveFrom counts the syncs of a broadcast that takes time). The chance at
// t ≥ start is Σ P·Share·g(t − start | Share) (the residue before), where
// g(t | u₀) is the chance that a node X that missed the broadcast still
// lacks the update at t when a share u₀ missed it. For g: with n(s) live
// nodes other than X holding the update at time s, X's own sync at s
// repairs it with probability q(s) = n(s)/(N − 1), the chance that its
// peer is one of them, and each of them, at each of its own syncs, picks
// X with probability 1/(N − 1) and repairs it (a sync is not lost).
// Averaging over the phases,
//
//	g(t) = E_ψ[ Π_{own syncs s ≤ t} (1 − q(s)) ] · exp(∫₀ᵗ n(s) d log F(s)),
//
// F(t) = E_ψ[(1 − 1/(N−1))^{syncs by t}] for one node at a uniform
// phase. The closure (the mean field) takes the others as independent of
// X with X's own chance: n(s) = M − 1 − (M·u₀ − 1)·g(s) (none below one
// other missing), solved by iterating g on a grid of S'/256 until it
// changes by less than 10⁻¹² of u₀. With one node missing n = M − 1 is
// exact and g is the closed form [(1 − f)(1 − a)^m + f(1 − a)^{m+1}]·
// [(1 − f)(1 − c)^m + f(1 − c)^{m+1}]^{M−1}, t = (m + f)S', a = (M − 1)/
// (N − 1), c = 1/(N − 1) (TestRepairSingleMiss). The
// closure is weakest where few nodes hold the update (a broadcast that
// ended with few holders): the repair is then an epidemic whose start is
// random, and the curve comes out low, the more so the later, whatever
// share of the residue it has fallen to. Against the Monte Carlo of the
// same rules (SimulateRepair), measured at N = 50–1,000, B = 2–3,
// ε = 0–0.3: within 3 % up to half a scaled interval, up to 8 % low at one,
// up to 14 % at 1.5, up to 29 % at two (N = 50, ε = 0.3: 0.063 where the
// Monte Carlo has 0.088) and up to 73 % at three; never above it beyond
// its standard error. The errors shrink with N (at N = 1,000, 2 % at four
// scaled intervals). Where the tail matters at small N, SimulateRepair is
// the answer (TestRepairSpreadAgainstMC holds these bounds, with margin,
// at N = 50).
func RepairCurve(cfg Config, end []MissLaw, start float64) (*Repair, error) {
	return repairCurveLate(cfg, end, start, -1)
}

// RepairStart is the state the mean field of the repair starts from when
// the syncs of the broadcast's own spread are counted (RepairCurveFrom).
type RepairStart struct {
	// Law is the law of the share of live nodes lacking the update at the
	// broadcast's end, syncs of the spread included.
	Law []MissLaw
	// Start is the broadcast's end, in seconds from the queueing.
	Start float64
	// Late is the share of the nodes lacking the update at Start whose
	// next sync comes in the last Start seconds of the scaled interval
	// after Start: those whose sync fell during the spread and found no
	// holder (LateShare). A node at a uniform phase unconditioned on the
	// spread has Start/S'; a negative Late means that.
	Late float64
}

// RepairCurveFrom is RepairCurve from st: the mean field from the law of
// the share lacking the update at the broadcast's end st.Start, each
// lacking node's next own sync uniform in [Start, S') with probability
// 1 − st.Late and in [S', S' + Start) with probability st.Late (its phase
// fell during the spread, and that sync found no holder), the others'
// syncs at uniform phases. RepairCurve(cfg, end, start) is
// RepairCurveFrom(cfg, RepairStart{end, start, −1}).
func RepairCurveFrom(cfg Config, st RepairStart) (*Repair, error) {
	if !(st.Late <= 1) || math.IsNaN(st.Late) {
		return nil, fieldErr("RepairStart.Late", "= %g: valid range ≤ 1 (negative: unconditioned)", st.Late)
	}
	return repairCurveLate(cfg, st.Law, st.Start, st.Late)
}

// LateShare is RepairStart.Late for a broadcast that ends at end seconds
// after the queueing, span its mean Σ (end − tᵢ) over the live nodes
// holding the update at the end (RepairSample.Span; tᵢ the first
// receipt): a node lacking the update at the end had its phase in the
// spread, [0, end), with probability f = end/S'; a sync there repaired it
// with probability P = (1 − Config.SyncFail)·span/((N − 1)·S') (its peer
// a holder at a uniform time in the spread, and the sync not failed), so
// Late = (f − P)/(1 − P), the others' syncs taken as independent of its
// phase. 0 when end = 0, −1 (unconditioned) when the spread is a whole
// scaled interval or longer.
func LateShare(cfg Config, end, span float64) float64 {
	S := PushPullScale(cfg.SyncInterval, cfg.Nodes)
	if !(end > 0) || !(S > 0) {
		return 0
	}
	f := end / S
	if f >= 1 {
		return -1
	}
	P := (1 - cfg.SyncFail) * span / (float64(cfg.Nodes-1) * S)
	P = math.Min(math.Max(P, 0), f)
	return (f - P) / (1 - P)
}

func repairCurveLate(cfg Config, end []MissLaw, start, late float64) (*Repair, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if !(cfg.SyncInterval > 0) {
		return nil, fieldErr("Config.SyncInterval", "= %g: the repair needs a sync interval > 0", cfg.SyncInterval)
	}
	if len(end) == 0 {
		return nil, fieldErr("end", "no point given")
	}
	if !(start >= 0 && start <= 1e12) {
		return nil, fieldErr("start", "= %g: valid range [0, 1e12] seconds", start)
	}
	residue, tot := 0.0, 0.0
	for i, e := range end {
		if !(e.Share >= 0 && e.Share <= 1) || !(e.P >= 0 && e.P <= 1) {
			return nil, fieldErr(fmt.Sprintf("end[%d]", i), "= {%g, %g}: share and probability in [0, 1]", e.Share, e.P)
		}
		residue += e.Share * e.P
		tot += e.P
	}
	if !(math.Abs(tot-1) <= 1e-9) {
		return nil, fieldErr("end", "probabilities sum to %g, not 1", tot)
	}
	S := PushPullScale(cfg.SyncInterval, cfg.Nodes)
	rp := &Repair{SyncInterval: cfg.SyncInterval, Scaled: S, Residue: residue, Step: S / antientropy.Steps, Start: start}
	var lack []float64
	wt := antientropy.LateWeights(S, start, late)
	for _, e := range end {
		if e.Share == 0 || e.P == 0 {
			continue
		}
		g, it, change := antientropy.MeanField(cfg.Nodes, cfg.Live(), S, e.Share, cfg.SyncFail, wt)
		rp.Iterations, rp.Change = max(rp.Iterations, it), math.Max(rp.Change, change)
		for n, v := range g {
			if n == len(lack) {
				lack = append(lack, 0)
			}
			lack[n] += e.P * v
		}
	}
	if len(lack) == 0 {
		lack = []float64{0}
	}
	if last := lack[len(lack)-1]; last < antientropy.Floor {
		lack[len(lack)-1] = 0
	}
	rp.Lack = lack
	return rp, nil
}

// At is the chance that a given live node still lacks the update t
// seconds after the broadcast (linear between grid points; 0 past the
// curve's end when it fell below 10⁻¹⁵, the last value past 4,096 scaled
// intervals).
func (r *Repair) At(t float64) float64 {
	if r == nil || len(r.Lack) == 0 || math.IsNaN(t) {
		return math.NaN()
	}
	if t <= r.Start {
		return r.Residue
	}
	x := (t - r.Start) / r.Step
	n := int(math.Min(math.Floor(x), float64(len(r.Lack))))
	if n >= len(r.Lack)-1 {
		return r.Lack[len(r.Lack)-1]
	}
	f := x - float64(n)
	return r.Lack[n]*(1-f) + r.Lack[n+1]*f
}

// Below is the first time, in seconds, after which the chance is below p
// (0 when the residue already is; NaN if the curve never gets there),
// linear between grid points.
func (r *Repair) Below(p float64) float64 {
	if r == nil || len(r.Lack) == 0 || !(p > 0) {
		return math.NaN()
	}
	if r.Residue < p {
		return 0
	}
	for n := 1; n < len(r.Lack); n++ {
		if r.Lack[n] < p {
			a, b := r.Lack[n-1], r.Lack[n]
			return r.Start + (float64(n-1)+(a-p)/(a-b))*r.Step
		}
	}
	return math.NaN()
}

// RepairSample is the outcome of SimulateRepair: Lack[i] is the mean over
// the replications of the share of live nodes lacking the update at
// Times[i], SE its standard error, Residue the mean share lacking at the
// broadcast's end (every queue empty; with the syncs of its spread where
// Config.Interval > 0).
type RepairSample struct {
	Config    Config
	Seed      uint64
	Reps      int
	Times     []float64
	Lack, SE  []float64
	Residue   float64
	ResidueSE float64
	Scaled    float64
	// End is the broadcast's mean end, its last gossip tick (every queue
	// empty), in seconds from the queueing (0: instantaneous,
	// Config.Interval = 0); Span the mean of Σ (end − tᵢ)
	// over the live nodes holding the update at the end, tᵢ its first
	// receipt (the area between the holders' count and its final value,
	// in node-seconds); Late the share of the nodes lacking it at the end
	// whose sync phase fell before the end (their next sync is a whole
	// scaled interval after that one), NaN when none lacked it.
	End, Span, Late float64
	// EndLaw is the law of the share lacking at the end (MissLaw, in
	// increasing share), and ByEnd[m] the replications that ended with m
	// live nodes lacking the update (absent: none did): their number and the mean and variance of the count still
	// lacking it at each of Times (the conditional law a run of the real
	// library is compared with, broadcast by broadcast).
	EndLaw []MissLaw
	ByEnd  map[int]RepairGroup
}

// RepairGroup is the replications of a RepairSample that ended with the
// same number of live nodes lacking the update (RepairSample.ByEnd).
type RepairGroup struct {
	Reps      int
	Lack, Var []float64
}

// Start is where RepairCurveFrom starts from the sample: the law of the
// share lacking at the broadcast's end, the mean end, and the share of the
// lacking nodes whose next sync comes late (RepairStart.Late), from the
// sample's mean end and span (LateShare).
func (s *RepairSample) Start() RepairStart {
	if s == nil {
		return RepairStart{}
	}
	return RepairStart{Law: s.EndLaw, Start: s.End, Late: LateShare(s.Config, s.End, s.Span)}
}

// SimulateRepair is the Monte Carlo of the repair's rules (the comments at
// the top of repair.go and internal/antientropy/spread.go): replication r
// draws from stream r of set.Seed and records the share of live nodes
// lacking the update at each of times (seconds from the source's
// queueing, increasing). Where Config.Interval > 0 and the protocol is a
// push with a budget, the broadcast (asynchronous clock, Config.Interval
// seconds a gossip interval) and the syncs run on one clock from the
// queueing (antientropy.Spread); otherwise the broadcast is taken as
// instantaneous and the syncs start from its end state at t = 0.
func SimulateRepair(ctx context.Context, cfg Config, set SimSettings, times []float64) (*RepairSample, error) {
	return simulateRepair(ctx, cfg, set, times, true)
}

// maxIntervalPerSync bounds the gossip interval in scaled sync intervals
// where the repair's Monte Carlo plays the spread: every live node syncs
// once per scaled interval until the broadcast ends, so a gossip interval
// of many of them (memberlist's is about 1 % of one) would make a
// replication's syncs unbounded (Config.Interval 1e308, SyncInterval
// 1e-300).
const maxIntervalPerSync = 100

// spreads reports whether the repair's Monte Carlo plays the broadcast's
// spread and the syncs on one clock.
func spreads(cfg Config) bool {
	return cfg.Interval > 0 && cfg.Protocol == Push && cfg.Budget > 0
}

// simulateRepair is SimulateRepair; without needTimes, times may be empty
// (the end state only).
func simulateRepair(ctx context.Context, cfg Config, set SimSettings, times []float64, needTimes bool) (*RepairSample, error) {
	if ctx == nil {
		return nil, errors.New("broadcast: nil context")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if !(cfg.SyncInterval > 0) {
		return nil, fieldErr("Config.SyncInterval", "= %g: the repair needs a sync interval > 0", cfg.SyncInterval)
	}
	if cfg.Nodes > MaxAsyncNodes {
		return nil, fieldErr("Config.Nodes", "= %d: the repair's Monte Carlo runs N ≤ 2^26", cfg.Nodes)
	}
	if S := PushPullScale(cfg.SyncInterval, cfg.Nodes); spreads(cfg) && !(cfg.Interval <= maxIntervalPerSync*S) {
		return nil, fieldErr("Config.Interval", "= %g: with the repair's syncs every %g s (Config.SyncInterval = %g, scaled) the gossip interval must be at most %g of them", cfg.Interval, S, cfg.SyncInterval, float64(maxIntervalPerSync))
	}
	if err := set.validate(cfg); err != nil {
		return nil, err
	}
	if (needTimes || len(times) > 0) && (len(times) == 0 || !slices.IsSorted(times) || !(times[0] >= 0) || math.IsInf(times[len(times)-1], 0) || math.IsNaN(times[len(times)-1])) {
		return nil, fieldErr("times", "must be finite, ≥ 0 and increasing (%d given)", len(times))
	}
	if set.Reps == 0 {
		set.Reps = DefaultReps
	}
	if set.Workers == 0 {
		set.Workers = runtime.NumCPU()
	}
	acfg := cfg
	acfg.Time, acfg.Deadline, acfg.Level = Async, 0, 1
	S := PushPullScale(cfg.SyncInterval, cfg.Nodes)
	M := cfg.Live()
	per := make([][]float64, set.Reps)
	endLack := make([]int, set.Reps)
	late := make([]int, set.Reps)
	ends := make([]float64, set.Reps)
	spans := make([]float64, set.Reps)
	err := parallel.For(ctx, set.Reps, set.Workers, func() func(context.Context, int) error {
		if spreads(cfg) {
			b := antientropy.NewSpreadBuf(cfg.Nodes)
			return func(ctx context.Context, j int) error {
				o := antientropy.Spread(cfg.Nodes, cfg.Live(), cfg.Fanout, cfg.Budget, cfg.Loss, cfg.Interval, S, cfg.SyncFail, rng.NewStream(set.Seed, uint64(j)), times, b)
				per[j] = make([]float64, len(times))
				for i, l := range o.Lack {
					per[j][i] = float64(l) / float64(M)
				}
				endLack[j], late[j], ends[j] = o.EndLack, o.EndLate, o.End
				spans[j] = float64(M-o.EndLack)*o.End - o.EndInformed
				return nil
			}
		}
		a := newAsyncEngine(acfg, set.Seed)
		return func(ctx context.Context, j int) error {
			rep, err := a.run(ctx, j)
			if err != nil {
				return err
			}
			endLack[j] = rep.Missed
			// The sync's draws from a stream of their own for replication j.
			per[j] = antientropy.Run(cfg.Nodes, cfg.Live(), S, rep.Missed, cfg.SyncFail, rng.NewStream(set.Seed^0x5eed5eed5eed5eed, uint64(j)), times, a.Informed)
			return nil
		}
	}, set.Progress)
	if err != nil {
		return nil, err
	}
	s := &RepairSample{Config: cfg, Seed: set.Seed, Reps: set.Reps, Times: slices.Clone(times), Scaled: S}
	R := float64(set.Reps)
	meanSE := func(x func(j int) float64) (float64, float64) {
		var m, ss float64
		for j := range set.Reps {
			m += x(j)
		}
		m /= R
		for j := range set.Reps {
			d := x(j) - m
			ss += d * d
		}
		if set.Reps < 2 {
			return m, math.NaN()
		}
		return m, math.Sqrt(ss / (R - 1) / R)
	}
	s.Residue, s.ResidueSE = meanSE(func(j int) float64 { return float64(endLack[j]) / float64(M) })
	for i := range times {
		m, se := meanSE(func(j int) float64 { return per[j][i] })
		s.Lack, s.SE = append(s.Lack, m), append(s.SE, se)
	}
	s.End, _ = meanSE(func(j int) float64 { return ends[j] })
	s.Span, _ = meanSE(func(j int) float64 { return spans[j] })
	lacked, lateN := 0, 0
	groups := map[int]*RepairGroup{}
	for j := range set.Reps {
		lacked += endLack[j]
		lateN += late[j]
		g := groups[endLack[j]]
		if g == nil {
			g = &RepairGroup{Lack: make([]float64, len(times)), Var: make([]float64, len(times))}
			groups[endLack[j]] = g
		}
		g.Reps++
		for i, v := range per[j] {
			x := v * float64(M)
			g.Lack[i] += x
			g.Var[i] += x * x
		}
	}
	s.Late = math.NaN()
	if lacked > 0 && spreads(cfg) {
		s.Late = float64(lateN) / float64(lacked)
	}
	keys := make([]int, 0, len(groups))
	for m := range groups {
		keys = append(keys, m)
	}
	slices.Sort(keys)
	s.ByEnd = make(map[int]RepairGroup, len(groups))
	for _, m := range keys {
		g := groups[m]
		s.EndLaw = append(s.EndLaw, MissLaw{Share: float64(m) / float64(M), P: float64(g.Reps) / R})
		for i := range g.Lack {
			g.Lack[i] /= float64(g.Reps)
			g.Var[i] = math.Max(g.Var[i]/float64(g.Reps)-g.Lack[i]*g.Lack[i], 0)
		}
		s.ByEnd[m] = *g
	}
	return s, nil
}

// String is the sample in one line (for logs).
func (s *RepairSample) String() string {
	if s == nil {
		return "repair MC: no sample (nil)"
	}
	return fmt.Sprintf("repair MC: %d reps, residue %.4g ± %.2g, S' = %g s", s.Reps, s.Residue, s.ResidueSE, s.Scaled)
}

// repair fills a.Repair where cfg.SyncInterval > 0: from end, the law of
// the broadcast's misses of a Monte Carlo, where its mean is the answer's
// residue, else from the residue alone (a single point, which the closure
// reads as one node missing where the residue is below 1/M: exact for a
// broadcast that misses at most one node).
func (a *Answer) repair(cfg Config, end []MissLaw, start float64) error {
	if !(cfg.SyncInterval > 0) {
		return nil
	}
	mean := math.NaN()
	if len(end) > 0 {
		mean = 0
		for _, e := range end {
			mean += e.Share * e.P
		}
	}
	if !(math.Abs(mean-a.Residue) <= 1e-12) {
		if math.IsNaN(a.Residue) {
			return nil
		}
		end = []MissLaw{{Share: a.Residue, P: 1}}
	}
	rp, err := RepairCurve(cfg, end, start)
	if err != nil {
		return err
	}
	a.Repair = rp
	return nil
}

// spreadSeed separates the streams of the repair's Monte Carlo in an
// answer from those of the broadcast's (SimulateAsync, same Settings.Seed).
const spreadSeed = 0x5072656164537e1d

// repairAsync fills a.Repair for an asynchronous answer from its Monte
// Carlo s: where the broadcast takes time (Config.Interval > 0, a push with
// a budget) the mean field starts from the broadcast's end with the syncs
// of its spread counted (RepairCurveFrom, from SimulateRepair's end state,
// its own replications from Settings.Seed ^ spreadSeed); where a's residue
// is not s's (the rounds' more accurate one, a.repair), that residue is
// taken as the share lacking at the end, one point (the syncs of the
// spread then neither repair nor suppress: a first-order error of the
// share of the scaled interval the spread lasts). Otherwise as a.repair
// with the syncs from t = 0.
func (a *Answer) repairAsync(ctx context.Context, cfg Config, set Settings, s *AsyncSample) error {
	if !(cfg.SyncInterval > 0) {
		return nil
	}
	if !spreads(cfg) {
		return a.repair(cfg, MissLawOf(s), MeanEnd(s)*cfg.Interval)
	}
	rs, err := simulateRepair(ctx, cfg, SimSettings{Reps: set.Reps, Seed: set.Seed ^ spreadSeed, Workers: set.Workers}, nil, false)
	if err != nil {
		return err
	}
	st := rs.Start()
	mean := math.NaN()
	if law := MissLawOf(s); len(law) > 0 {
		mean = 0
		for _, e := range law {
			mean += e.Share * e.P
		}
	}
	if !(math.Abs(mean-a.Residue) <= 1e-12) {
		if math.IsNaN(a.Residue) {
			return nil
		}
		st.Law = []MissLaw{{Share: a.Residue, P: 1}}
	}
	rp, err := RepairCurveFrom(cfg, st)
	if err != nil {
		return err
	}
	a.Repair = rp
	return nil
}

// repairKeys are the columns the repair adds to Design.Table: the scaled
// sync interval, the chance a given live node still lacks the update 1, 2
// and 4 scaled intervals after the broadcast, and the times after which
// that chance is below 10⁻³, 10⁻⁶ and MaxMiss (if set).
func repairKeys(c Config) []string {
	if !(c.SyncInterval > 0) {
		return nil
	}
	k := []string{"sync_interval_s", "lack_at_1x", "lack_at_2x", "lack_at_4x", "t_lack_1e-3_s", "t_lack_1e-6_s"}
	if c.MaxMiss > 0 {
		k = append(k, "t_lack_max_miss_s")
	}
	return k
}

// repairCells are a row's cells of repairKeys.
func repairCells(c Config, a Answer) []any {
	if !(c.SyncInterval > 0) {
		return nil
	}
	r := a.Repair
	nan := math.NaN()
	if r == nil {
		r = &Repair{Scaled: nan, Residue: nan}
	}
	row := []any{r.Scaled, r.At(r.Scaled), r.At(2 * r.Scaled), r.At(4 * r.Scaled), r.Below(1e-3), r.Below(1e-6)}
	if c.MaxMiss > 0 {
		row = append(row, r.Below(c.MaxMiss))
	}
	return row
}

// spreadNote is what repairHeader adds where the syncs of the broadcast's
// own spread are counted (spreads).
func spreadNote(c Config) string {
	if !(c.Interval > 0) || c.Protocol != Push || c.Time != Async {
		return ""
	}
	return " at its end, with a budget the syncs during its spread counted; times from the source's queueing"
}

// tcpLossNote states what the repair leaves out under packet loss:
// measured, not modelled (docs/memberlist-validation.md, the TCP section,
// the run of 2026-12-06).
const tcpLossNote = "; not modelled: under packet loss memberlist's TCP syncs take time and may fail (a dial's SYN retried after 1, 2, 4 s, TCPTimeout 10 s; segments retransmitted), and a node's next sync waits for its last: measured with memberlist v0.7.0 at N = 50 and a scaled sync interval of 10 s, a sync kept its node busy 1.2 s at ε = 0.2 and 2.5 s at 0.3, and the share of live nodes still lacking the update within two scaled intervals was higher than this model's by up to 0.03 and 0.09; at the LAN's 30 s, scaled, the same seconds are a few % of the interval, about a stretch of it by that much (docs/MODEL.md §6, Syncs under packet loss)"

// repairHeader is the header's statement of the repair.
func repairHeader(c Config) string {
	if !(c.SyncInterval > 0) {
		return ""
	}
	S := PushPullScale(c.SyncInterval, c.Nodes)
	s := fmt.Sprintf("; anti-entropy: every live node syncs its full state with one random peer every sync_interval_s = %g s (%g s scaled ×%g above 32 nodes, as memberlist does), at its own phase, both directions, over a stream that the packet loss ε delays but does not lose (TCP); lack_at_Kx = the chance a given live node still lacks the update K·%g s after the broadcast (mean field from the broadcast's misses%s; against a Monte Carlo of the same rules it is low, the more so the later: within 3 %% up to half a scaled interval, by up to 8 %% at one, 30 %% at two and 75 %% at three at N = 50, less at larger N), t_lack_P_s = the time after which that chance is below P", S, c.SyncInterval, S/c.SyncInterval, S, spreadNote(c))
	if c.MaxMiss > 0 {
		s += fmt.Sprintf(" (max_miss: %g)", c.MaxMiss)
	}
	if c.SyncFail > 0 {
		s += fmt.Sprintf("; each sync fails as a whole with probability %g (its TCP dial or a read outlasting TCPTimeout)", c.SyncFail)
	}
	if c.Loss > 0 {
		s += tcpLossNote
	}
	return s + "; a sync carries Serf's user events while they are in its 512-event buffer, so these are repaired; a Serf query or a plain memberlist user broadcast is never repaired: its residue is final"
}
