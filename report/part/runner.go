package part

import (
	"bytes"
	"context"

	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// Runner executes the report's simulations, in call order: in full (a nil
// Runner, or one of neither kind), a shard's share, recording it
// (ShardRunner), or from merged parts (MergeRunner). This needs that no
// simulation's configuration depends on an earlier simulation's result;
// none of the report's does (every configuration is built from the Scale
// alone), and a change that broke it would be caught at the merge: the
// shards, which saw partial results, would have asked for other
// configurations than the merge asks for.
type Runner struct {
	// Section is the section being computed (numbered from 1), recorded
	// with each of a shard's shares.
	Section int
	shard   *ID
	calls   int
	runs    []Run // a shard's shares, in call order
	merge   *Merger
}

// ShardRunner returns the runner of shard id: it runs id's share of each
// simulation and records it (Runs).
func ShardRunner(id ID) *Runner { return &Runner{shard: &id} }

// MergeRunner returns the runner of a merge: it serves each simulation
// from the parts m read.
func MergeRunner(m *Merger) *Runner { return &Runner{merge: m} }

// Sharding reports whether r runs a shard's share.
func (r *Runner) Sharding() bool { return r != nil && r.shard != nil }

// Merger is the merge r serves from, or nil.
func (r *Runner) Merger() *Merger {
	if r == nil {
		return nil
	}
	return r.merge
}

// Runs are a shard's shares recorded so far, in call order.
func (r *Runner) Runs() []Run {
	if r == nil {
		return nil
	}
	return r.runs
}

// Indices are the replications of a simulation of reps replications that
// r runs when it runs those from `from` on (each is what it would be in
// the whole run: replication i draws from stream i of the seed alone):
// nil for all of them; a shard's share of them, not nil. It lists them
// and bounds nothing: reps is a simulation's configured replications
// (TestNastyValues does not call it with 2⁶³ − 1 of them).
func (r *Runner) Indices(reps, from int) []int {
	var idx []int
	if from > 0 {
		for i := from; i < reps; i++ {
			idx = append(idx, i)
		}
	}
	if r.Sharding() {
		all := r.shard.Indices(reps)
		idx = []int{} // none of the replications: count none
		for _, i := range all {
			if i >= from {
				idx = append(idx, i)
			}
		}
	}
	return idx
}

// Sim runs (or serves) one simulation of the report: the replications
// from..cfg.Reps−1 of cfg, set.Indices those r runs (Indices). A shard
// runs its share of them; a merge checks that the parts hold exactly
// them.
func (r *Runner) Sim(ctx context.Context, cfg sim.Config, set sim.Settings, from int) (*sim.Result, error) {
	if r == nil {
		return sim.Run(ctx, cfg, set)
	}
	k := r.calls
	r.calls++
	if r.merge != nil {
		return r.merge.sim(k, cfg, from)
	}
	if r.shard == nil {
		return sim.Run(ctx, cfg, set)
	}
	res := &sim.Result{Config: cfg, Connected: true}
	if len(set.Indices) > 0 {
		var err error
		if res, err = sim.Run(ctx, cfg, set); err != nil {
			return nil, err
		}
	} else if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := sim.WritePart(&buf, res, *r.shard); err != nil {
		return nil, err
	}
	if err := r.record("sim", &buf); err != nil {
		return nil, err
	}
	if len(res.Reps) == 0 {
		// This shard owns none of the replications: the compute step,
		// whose output a shard discards, gets one replication that never
		// sees d spread, of the right length.
		zero := make([]int32, cfg.Rounds+1)
		res = &sim.Result{Config: cfg, Connected: true, Reps: []sim.Replication{{X: zero, Y: zero, YRound: zero}}}
	}
	return res, nil
}

// Tree runs (or serves) one tree experiment of the report.
func (r *Runner) Tree(ctx context.Context, x tree.Experiment) ([]tree.SeedResult, error) {
	if r == nil {
		return x.Run(ctx, tree.Settings{})
	}
	k := r.calls
	r.calls++
	if r.merge != nil {
		return r.merge.tree(k, x)
	}
	if r.shard == nil {
		return x.Run(ctx, tree.Settings{})
	}
	var res []tree.SeedResult
	// nil Indices would run every seed: a shard that owns none runs none.
	if idx := x.Indices(r.shard); len(idx) > 0 {
		var err error
		if res, err = x.Run(ctx, tree.Settings{Indices: idx}); err != nil {
			return nil, err
		}
	} else if err := x.Validate(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := tree.WritePart(&buf, x, *r.shard, res); err != nil {
		return nil, err
	}
	return res, r.record("tree", &buf)
}

// record keeps a shard's share of the current call (a sim or tree part
// file in buf) as its plain JSON.
func (r *Runner) record(kind string, buf *bytes.Buffer) error {
	plain, err := shard.Decompress(buf)
	if err != nil {
		return err
	}
	r.runs = append(r.runs, Run{Section: r.Section, Kind: kind, Part: bytes.TrimSpace(plain)})
	return nil
}
