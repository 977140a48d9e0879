package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/internal/shard"
)

// SimSettings are the Monte Carlo's knobs (zero value: documented
// defaults). Only Reps, Seed and Literal change what is computed; Workers,
// Indices and Progress never do.
type SimSettings struct {
	// Reps is the number of replications R, 1..MaxReps; 0 means
	// DefaultReps.
	Reps int
	// Seed: replication r draws only from stream r of Seed
	// (internal/rng), so a run is reproducible from it and its result does
	// not depend on Workers or on which other replications run.
	Seed uint64
	// Workers is the number of replications run at once; 0 means one per
	// CPU.
	Workers int
	// Indices, if not nil, lists the replications to run, each in
	// 0..Reps−1, increasing (a shard: ShardID.Indices); otherwise all of
	// 0..Reps−1.
	Indices []int
	// Literal runs the rules message by message, node by node, as the
	// package doc states them (the reference engine, about as fast as a
	// plain implementation); the default engine draws only the messages
	// that can change a node's state, with the same law (Simulate). The
	// two engines use the streams differently: their samples are
	// different draws of one law.
	Literal bool
	// Progress, if set, is called after each replication with the
	// replications done and the total, from one goroutine at a time.
	Progress gossip.Progress
}

// ShardID is shard Index of Count; shard I of M runs the replications r
// with r mod M = I − 1 (ShardID.Indices gives SimSettings.Indices). It is
// the type of sim.ShardID.
type ShardID = shard.ID

// MaxSimNodes bounds Config.Nodes for Simulate: node indices and the
// bounded draws are 32-bit.
const MaxSimNodes = 1 << 30

// Replication is the outcome of one replication.
type Replication struct {
	// Index is the replication's number r (its stream).
	Index int `json:"index"`
	// T is T_L in rounds, −1 for T_L = ∞.
	T int `json:"t"`
	// Messages is the number of one-way messages of rounds 1..T_L (every
	// round until no node can act when T_L = ∞), counted by the rule of
	// the package doc.
	Messages int64 `json:"messages"`
	// Missed is the number of live nodes never informed: those uninformed
	// when no node can act (push with a budget), else 0 (every live node
	// is informed eventually, with probability 1).
	Missed int `json:"missed"`
}

// Sample is the outcome of Simulate: the replications it ran, in
// increasing index. Samples of shards of one run merge into the run's
// (MergeSamples).
type Sample struct {
	Config  Config
	Seed    uint64
	Total   int  // R, the replications of the whole run
	Literal bool // the engine (SimSettings.Literal)
	Reps    []Replication
}

// Law is the sample's law of T_L: the PMF and Never are the shares of the
// replications with each T_L; Residue, PMiss and Messages (per live node)
// are sample means, MessagesSD the sample standard deviation (divisor
// R − 1). Reps is the number of replications in the sample; Law.Answer
// adds the standard errors. Every sum runs over the replications in index
// order, so a merged sample gives the single run's law bit for bit.
func (s *Sample) Law() *Law {
	l := &Law{Reps: len(s.Reps), Accuracy: NoAccuracy()}
	R := len(s.Reps)
	if R == 0 {
		return l
	}
	M := float64(s.Config.Live())
	maxT := -1
	for _, r := range s.Reps {
		maxT = max(maxT, r.T)
	}
	hist := make([]int, maxT+1)
	never, miss := 0, 0
	var resid, msgs float64
	for _, r := range s.Reps {
		if r.T < 0 {
			never++
		} else {
			hist[r.T]++
		}
		if r.Missed > 0 {
			miss++
		}
		resid += float64(r.Missed) / M
		msgs += float64(r.Messages) / M
	}
	fR := float64(R)
	l.PMF = make([]float64, len(hist))
	for t, c := range hist {
		l.PMF[t] = float64(c) / fR
	}
	l.Never = float64(never) / fR
	l.PMiss = float64(miss) / fR
	l.Residue = resid / fR
	l.Messages = msgs / fR
	if R > 1 {
		var ss float64
		for _, r := range s.Reps {
			d := float64(r.Messages)/M - l.Messages
			ss += d * d
		}
		l.MessagesSD = math.Sqrt(ss / float64(R-1))
	}
	engine := "draws only the messages that can change a node's state"
	if s.Literal {
		engine = "literal, message by message"
	}
	l.Accuracy.Note = fmt.Sprintf("Monte Carlo, %d replications of seed %d (engine: %s); standard errors in the fields SE*", R, s.Seed, engine)
	return l
}

// SimMemoryEstimate returns the bytes Simulate needs for cfg and set: per
// worker, the default engine's bitset of the uninformed nodes (M/8 bytes)
// and its stamps for wide fanouts (4M bytes), or the literal engine's
// per-node state, budget, sender lists and stamps (17N bytes); and 32
// bytes per replication kept. It is an upper bound; Simulate refuses no
// value of it (a program compares it with the memory it has), only
// N > MaxSimNodes.
func SimMemoryEstimate(cfg Config, set SimSettings) uint64 {
	N := uint64(max(cfg.Nodes, 0))
	per := N/8 + 4*N + 1024
	if set.Literal {
		per = 17*N + 1024
	}
	reps := uint64(max(set.Reps, 0))
	if reps == 0 {
		reps = DefaultReps
	}
	if set.Indices != nil {
		reps = uint64(len(set.Indices))
	}
	w := uint64(max(set.Workers, 0))
	if w == 0 {
		w = uint64(runtime.NumCPU())
	}
	return per*min(w, max(reps, 1)) + 32*reps
}

// validate checks the settings against cfg; a problem is a *FieldError.
func (s SimSettings) validate(cfg Config) error {
	f := func(field, format string, a ...any) error { return fielderr.New("broadcast", field, format, a...) }
	switch {
	case s.Reps < 0 || s.Reps > MaxReps:
		return f("Settings.Reps", "= %d: valid range 1..%d (0: %d)", s.Reps, MaxReps, DefaultReps)
	case s.Workers < 0:
		return f("Settings.Workers", "= %d: must be ≥ 0 (0: one per CPU)", s.Workers)
	case cfg.Nodes > MaxSimNodes:
		return f("Config.Nodes", "= %d: the Monte Carlo runs N ≤ 2^30 (it would need about %.1f GiB; SimMemoryEstimate)",
			cfg.Nodes, float64(SimMemoryEstimate(cfg, s))/(1<<30))
	}
	R := s.Reps
	if R == 0 {
		R = DefaultReps
	}
	for i, r := range s.Indices {
		if r < 0 || r >= R {
			return f("Settings.Indices", "replication %d: valid range 0..Reps−1 = 0..%d", r, R-1)
		}
		if i > 0 && r <= s.Indices[i-1] {
			return f("Settings.Indices", "must increase (replication %d after %d)", r, s.Indices[i-1])
		}
	}
	return nil
}

// Simulate runs the protocol node by node, R replications (SimSettings).
// Replication r draws from stream r of the seed: the source is node 0, the
// ⌊φ(N−1)⌋ failed nodes are drawn uniformly among the others, and the
// rounds follow the package doc's rules until T_L, and, for push with a
// budget, on until no node can act (to count the nodes it misses). Pull and
// push–pull, and push without a budget, stop at T_L: every live node is
// informed eventually, so their residue is 0.
//
// # The default engine
//
// Within a round every node acts on the state at its start, the
// uninformed live nodes are alike (they keep no state; pull askers have no
// memory) and the informed ones differ only by the transmits they have
// left, which is fixed by the round in which they were informed. So a
// replication's state between rounds is the number u of uninformed live
// nodes and the sizes of the cohorts informed in each round, and a round
// is, exactly: each sender (askers alike, with the informed nodes in place
// of the uninformed) takes t distinct peers uniformly among its N − 1
// others; its j-th peer (j = 0, 1, …) is one of the u uninformed nodes
// with probability (u − a)/(N − 1 − j), a the uninformed among its first
// j peers, an integer draw;
// each such message arrives with probability 1 − ε, and the peers it
// reaches are a uniform set of distinct uninformed nodes (Floyd's
// algorithm), marked in a bitset, so that two senders reaching one node
// inform it once. Senders (askers) whose peers include no uninformed
// (informed) node change nothing and are skipped: when the share p₁ of
// senders with one is small (p₁ < 1/4), the engine jumps over the others
// by a geometric draw of parameter p₁ = 1 − ∏ⱼ (1 − u/(N − 1 − j)) and draws
// the position of the first useful peer from its law given that there is
// one, exactly the law of the sequential draws; only the geometric jump
// and this position use floating point (their probabilities are correct
// to the double rounding of p₁, relative 10⁻¹⁵). Messages are counted by
// the rule (every push transmit, every request, one reply per request
// that reaches an informed node) whether drawn or skipped: a push round
// sends Σ t, a pull round u·k requests. The law is the literal rules' law;
// TestEnginesAgree checks the two engines against each other and
// TestSmallByHand both against closed forms. Float results (the skips)
// are bit-reproducible on one architecture.
//
// ctx is checked between replications and every few thousand senders.
func Simulate(ctx context.Context, cfg Config, set SimSettings) (*Sample, error) {
	if ctx == nil {
		return nil, errors.New("broadcast: nil context")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := set.validate(cfg); err != nil {
		return nil, err
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
	s := &Sample{Config: cfg, Seed: set.Seed, Total: set.Reps, Literal: set.Literal, Reps: make([]Replication, len(idx))}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var done int64
	var firstErr error
	var once sync.Once
	for range min(set.Workers, len(idx)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var run func(context.Context, int) (Replication, error)
			if set.Literal {
				run = newLiteral(cfg, set.Seed).run
			} else {
				run = newEngine(cfg, set.Seed).run
			}
			for j := range jobs {
				rep, err := run(ctx, idx[j])
				if err != nil {
					once.Do(func() { firstErr = err; cancel() })
					continue
				}
				s.Reps[j] = rep
				if set.Progress != nil {
					mu.Lock()
					done++
					set.Progress(done, int64(len(idx)))
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for j := range idx {
		select {
		case jobs <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// MergeError is a set of samples or parts that cannot be merged (the type
// of sim.MergeError); Missing lists the replications no part holds when
// that is the reason.
type MergeError = shard.MergeError

func mergeErr(format string, a ...any) error {
	return &MergeError{Pkg: "broadcast", Msg: fmt.Sprintf(format, a...)}
}

// MergeSamples combines samples of shards of one run into the Sample the
// single run would have produced (its Law is then the run's, bit for
// bit). It refuses samples of different runs and replications present
// twice; missing replications are returned, and refused unless
// allowMissing.
func MergeSamples(samples []*Sample, allowMissing bool) (*Sample, []int, error) {
	if len(samples) == 0 {
		return nil, nil, mergeErr("no samples to merge")
	}
	for i, s := range samples {
		if s == nil {
			return nil, nil, mergeErr("sample %d is nil", i)
		}
	}
	ref := samples[0]
	out := &Sample{Config: ref.Config, Seed: ref.Seed, Total: ref.Total, Literal: ref.Literal}
	seen := map[int]bool{}
	for i, s := range samples {
		if s.Config != ref.Config || s.Seed != ref.Seed || s.Total != ref.Total || s.Literal != ref.Literal {
			return nil, nil, mergeErr("samples 0 and %d are from different runs (configuration, seed, replications or engine)", i)
		}
		for _, r := range s.Reps {
			if r.Index < 0 || r.Index >= ref.Total {
				return nil, nil, mergeErr("sample %d holds replication %d, outside 0..%d", i, r.Index, ref.Total-1)
			}
			if seen[r.Index] {
				return nil, nil, mergeErr("replication %d is in two samples", r.Index)
			}
			seen[r.Index] = true
			out.Reps = append(out.Reps, r)
		}
	}
	slices.SortFunc(out.Reps, func(a, b Replication) int { return a.Index - b.Index })
	missing := shard.Missing(ref.Total, func(r int) bool { return seen[r] })
	if len(missing) > 0 && !allowMissing {
		return nil, missing, &MergeError{Pkg: "broadcast", Msg: fmt.Sprintf("%d of %d replications missing: %s", len(missing), ref.Total, shard.Ranges(missing)), Missing: missing}
	}
	if len(out.Reps) == 0 {
		return nil, missing, mergeErr("the samples hold no replications")
	}
	return out, missing, nil
}
