package sim

import (
	"context"
	"fmt"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/internal/hugepage"
	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// Replication is the outcome of one replication: the number of nodes
// holding d (X) and having held d (Y) at t = 0..T, and its counters.
type Replication struct {
	Index int     `json:"index"`
	X     []int32 `json:"x"`
	Y     []int32 `json:"y"`
	// YRound is the round-snapshot coverage: nodes that held d at one of
	// the snapshots 0..t (see the package doc); YRound ≤ Y.
	YRound []int32 `json:"y_round"`
	// Alive is the number of distinct items other than d that some node
	// holds at t = 0, right after d's insertion: n less the items that died
	// in the warm-up (under loss an item B overwrote in a shuffle whose
	// reply was lost may reach no one) or whose last copy the insertion
	// replaced. The protocol records it when Config.Loss > 0; it is 0
	// otherwise (and then absent from a part file, so that lossless parts
	// are unchanged), where no shuffle loses an item.
	Alive int `json:"alive,omitempty"`
	Counters
}

// Extinction returns the round t at which d died, the first t with
// X(t) = 0 (d's last copy vanished during round t; X = 0 is absorbing, no
// node can get d back), or −1 if d is alive at t = Rounds. Only a lossy
// run (Config.Loss > 0) can lose d; a lossless one always returns −1 (as
// does a nil replication).
func (rep *Replication) Extinction() int {
	if rep == nil {
		return -1
	}
	for t, x := range rep.X {
		if x == 0 {
			return t
		}
	}
	return -1
}

// Result is a set of replications of one experiment, in increasing index.
type Result struct {
	Config    Config
	Connected bool // the topology is connected (coverage can reach 1)
	// Reps are the replications (Run); nil in RunSummary's result, which
	// keeps their statistics instead (Replications counts them).
	Reps []Replication
	sum  *summary
}

// Settings control how a run executes; they never change its output. The
// zero value runs every replication on DefaultWorkers() goroutines.
type Settings struct {
	// Workers is the number of replications run at once; 0 means
	// DefaultWorkers().
	Workers int
	// Indices, if not nil, lists the replications to run (a shard);
	// otherwise all of 0..Reps−1.
	Indices []int
	// Progress, if set, is called after each replication with the number
	// of replications done and the total, from one goroutine at a time.
	Progress gossip.Progress
	// Warm, if not nil, keeps the run's warm states (Config.WarmStates >
	// 0) and supplies those an earlier run computed: the replications are
	// the same, byte for byte, with or without it (WarmCache).
	Warm *WarmCache
}

// Validate checks the settings against cfg; a problem is a *FieldError.
func (s Settings) Validate(cfg Config) error {
	if s.Workers < 0 {
		return fielderr.New("sim", "Settings.Workers", "%d: must be ≥ 0 (0: one per CPU)", s.Workers)
	}
	for _, i := range s.Indices {
		if i < 0 || i >= cfg.Reps {
			return fielderr.New("sim", "Settings.Indices", "replication %d: valid range 0..Reps−1 = 0..%d", i, cfg.Reps-1)
		}
	}
	return nil
}

// Run executes the experiment. Replication r draws only from stream r of
// cfg.Seed, so the result does not depend on Workers or on which other
// replications run. It stops with ctx.Err() when ctx is cancelled, and
// returns an *InvariantError if Check mode finds one. Before any work it
// refuses a nil ctx ("sim: nil context") and a cfg or set that fails its
// Validate (a *FieldError naming the field: zero, negative and out-of-range
// values alike); it does not check the memory (Config.CheckMemory does).
func Run(ctx context.Context, cfg Config, set Settings) (*Result, error) {
	set, g, connected, tr, err := prepare(ctx, cfg, set)
	if err != nil {
		return nil, err
	}
	idx := set.Indices
	if idx == nil {
		idx = make([]int, cfg.Reps)
		for i := range idx {
			idx[i] = i
		}
	}
	var warm []*warmState
	if cfg.Model == Protocol && cfg.WarmStates > 0 {
		if warm, err = warmUps(ctx, cfg, g, idx, set.Workers, set.Warm); err != nil {
			return nil, err
		}
	}
	res := &Result{Config: cfg, Connected: connected, Reps: make([]Replication, len(idx))}
	err = parallel.For(ctx, len(idx), set.Workers, func() func(context.Context, int) error {
		sc := new(scratch)
		return func(ctx context.Context, k int) error {
			var w *warmState
			if warm != nil {
				w = warm[warmIndex(idx[k], cfg.WarmStates)]
			}
			rep, err := runOne(ctx, cfg, g, tr, idx[k], w, sc)
			if err == nil {
				res.Reps[k] = *rep
			}
			return err
		}
	}, set.Progress)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// prepare is what Run and RunSummary do before the replications: check
// the context, the configuration and the settings, default the workers,
// build the topology's graph and, for the pairwise models, the transition
// matrix of one shuffle.
func prepare(ctx context.Context, cfg Config, set Settings) (Settings, *graph, bool, approx.Transitions, error) {
	var tr approx.Transitions
	if err := ctxguard.Check("sim", ctx); err != nil {
		return set, nil, false, tr, err
	}
	if err := cfg.Validate(); err != nil {
		return set, nil, false, tr, err
	}
	if err := set.Validate(cfg); err != nil {
		return set, nil, false, tr, err
	}
	if set.Workers == 0 {
		set.Workers = DefaultWorkers()
	}
	g, connected, err := buildGraph(cfg.Topology, cfg.Nodes, cfg.Seed)
	if err != nil {
		return set, nil, false, tr, fielderr.New("sim", "Config.Topology", "%s", err.Error())
	}
	if cfg.Model != Protocol {
		if tr, err = approx.TransitionsLossFor(cfg.PDrop, cfg.Shuffle, cfg.Loss); err != nil {
			return set, nil, false, tr, fielderr.Within("sim", "Config", err)
		}
	}
	return set, g, connected, tr, nil
}

// invariantAsError, deferred, turns a panic with an *InvariantError (Check
// mode's broken invariant) into err, "sim: what i: …", and lets any other
// panic go on.
func invariantAsError(err *error, what string, i int) {
	if p := recover(); p != nil {
		if ie, ok := p.(*InvariantError); ok {
			*err = fmt.Errorf("sim: %s %d: %w", what, i, ie)
			return
		}
		panic(p)
	}
}

// runOne runs replication `index`; a protocol replication starts from a
// copy of warm, if not nil, instead of warming its own caches.
//
// sc, if not nil, is the calling worker's scratch: the Markov model's state
// and the rounds schedule's permutation are taken from it (and left in it
// for the worker's next replication) instead of allocated afresh.
func runOne(ctx context.Context, cfg Config, g *graph, tr approx.Transitions, index int, warm *warmState, sc *scratch) (rep *Replication, err error) {
	defer invariantAsError(&err, "replication", index)
	r := rng.NewStream(cfg.Seed, uint64(index))
	var sched *scheduler
	switch {
	case warm != nil:
		sched = warm.sched.clone()
	case sc != nil:
		sched = sc.scheduler(cfg, g, r)
	default:
		sched = newScheduler(cfg.Schedule, g, cfg.Ticks, r)
	}
	rep = &Replication{Index: index, X: make([]int32, cfg.Rounds+1), Y: make([]int32, cfg.Rounds+1), YRound: make([]int32, cfg.Rounds+1)}
	initial := make([]int32, cfg.Initial)
	pickNodes := func() { pickDistinct(r, cfg.Nodes, initial) }
	switch cfg.Model {
	case Protocol:
		var err error
		switch {
		case warm != nil && narrowItems(cfg.Shuffle.Items):
			err = runProtocol(ctx, cfg, r, sched, warm.st.(*protocolState[uint16]).cloneIn(scratchCaches[uint16](sc, cfg)), false, pickNodes, initial, rep)
		case warm != nil:
			err = runProtocol(ctx, cfg, r, sched, warm.st.(*protocolState[int32]).cloneIn(scratchCaches[int32](sc, cfg)), false, pickNodes, initial, rep)
		case narrowItems(cfg.Shuffle.Items):
			err = runProtocol(ctx, cfg, r, sched, newProtocolStateIn(cfg, r, scratchCaches[uint16](sc, cfg)), true, pickNodes, initial, rep)
		default:
			err = runProtocol(ctx, cfg, r, sched, newProtocolStateIn(cfg, r, scratchCaches[int32](sc, cfg)), true, pickNodes, initial, rep)
		}
		if err != nil {
			return nil, err
		}
	case Markov:
		var st *markovState
		switch {
		case sc == nil:
			st = newMarkovState(cfg.Nodes, tr)
		case sc.markov == nil:
			sc.markov = newMarkovState(cfg.Nodes, tr)
			st = sc.markov
		default:
			st = sc.markov
			st.reset()
		}
		pickNodes()
		for _, v := range initial {
			st.set(v, true)
		}
		failNodes(cfg, r, sched, initial)
		st.tracking = true
		rep.record(0, st.xCount, st.yCount, &st.snap)
		for t := 1; t <= cfg.Rounds; t++ {
			if (t%64 == 0 || cfg.Nodes > bigRound) && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			_, failed := sched.round(r, st)
			st.cnt.Failed += failed
			rep.record(t, st.xCount, st.yCount, &st.snap)
		}
		rep.Counters = st.cnt
	case Lumped:
		if err := runLumped(ctx, cfg, tr, r, rep); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// scratch is what a worker of Run or RunSummary keeps from one
// replication to the next (all of them of one configuration): the Markov
// model's state, the protocol's caches (a []uint16 or []int32) and the
// rounds schedule's permutation, each allocated at the worker's first
// replication that needs it. A run's per-node memory is then its workers'
// scratch, allocated once, and the collector has no replication-sized
// garbage to let pile up.
type scratch struct {
	markov *markovState
	caches any
	perm   []int32
	async  asyncArrays
}

// scheduler is a new replication's schedule on the worker's arrays: the
// rounds schedule's permutation, the async schedule's phases, stamps and
// tick lists.
func (sc *scratch) scheduler(cfg Config, g *graph, r *rng.Rand) *scheduler {
	if cfg.Schedule == Rounds && len(sc.perm) != cfg.Nodes {
		sc.perm = make([]int32, cfg.Nodes)
		hugepage.Advise(sc.perm) // shuffled at random every round
	}
	return newSchedulerIn(cfg.Schedule, g, cfg.Ticks, r, sc.perm, &sc.async)
}

// scratchCaches returns the worker's caches of N·c items, allocated at its
// first replication; nil (newProtocolStateIn allocates) without a scratch.
func scratchCaches[T item](sc *scratch, cfg Config) []T {
	if sc == nil {
		return nil
	}
	if b, ok := sc.caches.([]T); ok && len(b) == cfg.Nodes*cfg.Shuffle.Cache {
		return b
	}
	b := make([]T, cfg.Nodes*cfg.Shuffle.Cache)
	sc.caches = b
	return b
}

// pickDistinct fills initial with distinct nodes of 0..N−1: a partial
// Fisher–Yates shuffle of the identity permutation, initial[i] the value
// swapped into position i, one draw Intn(N − i) each. When few nodes are
// drawn (at most N/16), the permutation is kept sparse, as the positions
// the swaps displaced (a map of at most 2·len(initial) entries instead of
// 4N bytes); the draws and the nodes are the same either way.
func pickDistinct(r *rng.Rand, N int, initial []int32) {
	if len(initial) > N/16 {
		p := make([]int32, N)
		for i := range p {
			p[i] = int32(i)
		}
		for i := range initial {
			j := i + int(r.Intn(uint32(N-i)))
			p[i], p[j] = p[j], p[i]
			initial[i] = p[i]
		}
		return
	}
	moved := make(map[int32]int32, 2*len(initial)) // p[k] where it is not k
	at := func(k int32) int32 {
		if v, ok := moved[k]; ok {
			return v
		}
		return k
	}
	for i := range initial {
		j := int32(i) + int32(r.Intn(uint32(N-i)))
		pi, pj := at(int32(i)), at(j)
		moved[j] = pi // position i is never read again: later draws are beyond it
		initial[i] = pj
	}
}

// record stores the counts at the snapshot after round t.
func (rep *Replication) record(t, x, y int, snap *snapshotCoverage) {
	rep.X[t], rep.Y[t], rep.YRound[t] = int32(x), int32(y), int32(snap.snapshot())
}

// failNodes makes round(FailFraction·N) nodes not holding d fail: they
// leave the schedule (Validate refuses failures under the async schedule).
func failNodes(cfg Config, r *rng.Rand, sched *scheduler, initial []int32) {
	k := int(cfg.FailFraction*float64(cfg.Nodes) + 0.5)
	if k == 0 {
		return
	}
	dead := make([]bool, cfg.Nodes)
	holder := make([]bool, cfg.Nodes)
	for _, v := range initial {
		holder[v] = true
	}
	cand := make([]int32, 0, cfg.Nodes)
	for v := range cfg.Nodes {
		if !holder[v] {
			cand = append(cand, int32(v))
		}
	}
	for i := 0; i < k; i++ {
		j := i + int(r.Intn(uint32(len(cand)-i)))
		cand[i], cand[j] = cand[j], cand[i]
		dead[cand[i]] = true
	}
	sched.fail(dead)
}

// bigRound is the number of nodes above which ctx is checked every round
// rather than every 16 or 64: a round of 2^26 nodes is 2^26 shuffles.
const bigRound = 1 << 12

// runProtocol runs a protocol replication on st: the warm-up if warmUp
// (st is then fresh), d's insertion, the observation rounds.
func runProtocol[T item](ctx context.Context, cfg Config, r *rng.Rand, sched *scheduler, st *protocolState[T], warmUp bool, pickNodes func(), initial []int32, rep *Replication) error {
	if warmUp {
		if err := warmRounds(ctx, cfg, r, sched, st); err != nil {
			return err
		}
	}
	pickNodes()
	st.insert(r, initial)
	if cfg.Loss > 0 {
		rep.Alive = st.alive()
	}
	failNodes(cfg, r, sched, initial)
	st.tracking = true
	rep.record(0, st.xCount, st.yCount, &st.snap)
	for t := 1; t <= cfg.Rounds; t++ {
		if (t%16 == 0 || cfg.Nodes > bigRound) && ctx.Err() != nil {
			return ctx.Err()
		}
		_, failed := sched.round(r, st)
		st.cnt.Failed += failed
		rep.record(t, st.xCount, st.yCount, &st.snap)
	}
	rep.Counters = st.cnt
	return nil
}
