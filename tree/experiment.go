package tree

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/internal/shard"
)

// ShardID is shard Index of Count (1 ≤ Index ≤ Count); shard I of M runs
// the seeds i with i mod M = I − 1. It is the same type as sim.ShardID.
type ShardID = shard.ID

// MaxSeeds bounds Experiment.Seeds.
const MaxSeeds = 1_000_000

// Experiment is a tree build (or, with Fail, build-fail-repair) experiment
// over the seeds Seed, Seed+1, …, Seed+Seeds−1; seed i runs RunSeed(ctx, Cfg,
// Seed, i, Fail). Cfg.Seed is ignored.
type Experiment struct {
	Cfg   Config
	Fail  bool
	Seeds int
	Seed  uint64
}

// Validate checks the experiment; a problem is a *FieldError.
func (x Experiment) Validate() error {
	if err := x.Cfg.Validate(); err != nil {
		return err
	}
	return Seeds.CheckInt("tree", "Experiment", x.Seeds)
}

// Indices returns the seed indices of shard id (nil: every seed), in order.
func (x Experiment) Indices(id *ShardID) []int {
	if x.Seeds < 0 || x.Seeds > MaxSeeds {
		return nil // Validate refuses the experiment
	}
	if id != nil {
		return id.Indices(x.Seeds)
	}
	all := make([]int, x.Seeds)
	for i := range all {
		all[i] = i
	}
	return all
}

// Settings control how an experiment runs; they never change its results.
// The zero value runs every seed and reports no progress.
type Settings struct {
	// Indices, if not nil, lists the seeds to run (a shard:
	// Experiment.Indices); otherwise all of 0..Seeds−1.
	Indices []int
	// Progress, if set, is called after each seed with the number of
	// seeds done and the total.
	Progress gossip.Progress
}

// Run runs the seeds of set.Indices (nil: all of them) in seed order and
// returns their results. ctx is checked between seeds and every few
// thousand events within one.
func (x Experiment) Run(ctx context.Context, set Settings) ([]SeedResult, error) {
	if err := ctxguard.Check("tree", ctx); err != nil {
		return nil, err
	}
	if err := x.Validate(); err != nil {
		return nil, err
	}
	indices := set.Indices
	if indices == nil {
		indices = x.Indices(nil)
	}
	for _, i := range indices {
		if i < 0 || i >= x.Seeds {
			return nil, fielderr.New("tree", "Settings.Indices", "seed %d: valid range 0..Seeds−1 = 0..%d", i, x.Seeds-1)
		}
	}
	res := make([]SeedResult, 0, len(indices))
	for k, i := range indices {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := RunSeed(ctx, x.Cfg, x.Seed, i, x.Fail)
		if err != nil {
			return nil, err
		}
		res = append(res, r)
		if set.Progress != nil {
			set.Progress(int64(k+1), int64(len(indices)))
		}
	}
	return res, nil
}

// DepthChangePct is the repaired tree's depth change, in % of the built
// tree's depth (NaN without a repair).
func (r SeedResult) DepthChangePct() float64 {
	return r.pct(func(m Metrics) float64 { return float64(m.Depth) }, func(m Metrics) float64 { return float64(m.Depth) })
}

// JoinRequestsIncreasePct is the rise in join requests that the repair
// caused, in % of the build's join requests (NaN without a repair).
func (r SeedResult) JoinRequestsIncreasePct() float64 {
	return r.pct(func(m Metrics) float64 { return float64(m.JoinRequests) }, func(m Metrics) float64 { return float64(m.JoinRequests) })
}

// RepairMessagesPct is the repair's messages in % of the build's (NaN
// without a repair).
func (r SeedResult) RepairMessagesPct() float64 {
	if r.Repair == nil {
		return math.NaN()
	}
	return 100 * float64(r.Repair.RepairMsgs) / float64(r.Build.MessagesTotal)
}

// TrafficIncreasePct is the repair's traffic (RepairTraffic.Total) in %
// of the build's (Metrics.BuildTraffic), both by the same counting rules
// with look-ups of lookupMessages messages each (NaN without a repair).
func (r SeedResult) TrafficIncreasePct(lookupMessages int) float64 {
	if r.Repair == nil {
		return math.NaN()
	}
	return 100 * float64(r.Repair.Traffic.Total()) / float64(r.Build.BuildTraffic(lookupMessages))
}

// pct is 100·(after − before)/before of one metric.
func (r SeedResult) pct(after, before func(Metrics) float64) float64 {
	if r.Repair == nil {
		return math.NaN()
	}
	return 100 * (after(*r.Repair) - before(r.Build)) / before(r.Build)
}

// Over summarises one quantity over seeds, in the order given.
func Over(res []SeedResult, f func(SeedResult) float64) Stat {
	if f == nil {
		return StatOf(nil)
	}
	v := make([]float64, len(res))
	for i, x := range res {
		v[i] = f(x)
	}
	return StatOf(v)
}

// Summary aggregates an experiment's per-seed results (mean ± sd over
// seeds). The metrics are the repaired tree's for a failure experiment and
// the built tree's otherwise.
type Summary struct {
	Exp                                                           Experiment
	Seeds                                                         int // seeds aggregated
	Depth, MessagesPerNode, MessagesMax, PropagationMs, Reach99Ms Stat
	// Failure experiment only.
	Failed                                         Stat
	Reconnected                                    bool // in every seed
	ReconnectMs, RepairMessages, RepairMessagesPct Stat
	JoinRequestsIncreasePct, DepthChangePct, Pings Stat
	// The repair's traffic by kind (RepairTraffic) and in % of the
	// build's (SeedResult.TrafficIncreasePct).
	JoinMsgs, BreakMsgs, ElectionMsgs, UpkeepMsgs, LookupMsgs Stat
	TrafficIncreasePct                                        Stat
}

// Summarize aggregates res (in seed order, as Run and Merge return them).
// Results that Run cannot have returned for x (a failure experiment's
// without the repaired tree's metrics) give the summary of no seeds: Seeds
// 0 and every Stat NaN.
func (x Experiment) Summarize(res []SeedResult) Summary {
	if x.Fail && slices.ContainsFunc(res, func(r SeedResult) bool { return r.Repair == nil }) {
		res = nil
	}
	m := func(r SeedResult) Metrics {
		if x.Fail {
			return *r.Repair
		}
		return r.Build
	}
	s := Summary{Exp: x, Seeds: len(res),
		Depth:           Over(res, func(r SeedResult) float64 { return float64(m(r).Depth) }),
		MessagesPerNode: Over(res, func(r SeedResult) float64 { return m(r).MessagesMean }),
		MessagesMax:     Over(res, func(r SeedResult) float64 { return float64(m(r).MessagesMax) }),
		PropagationMs:   Over(res, func(r SeedResult) float64 { return m(r).PropagationMs }),
		Reach99Ms:       Over(res, func(r SeedResult) float64 { return m(r).Reach99Ms }),
	}
	if x.Fail {
		s.Reconnected = true
		for _, r := range res {
			s.Reconnected = s.Reconnected && r.Repair.Reconnected
		}
		s.Failed = Over(res, func(r SeedResult) float64 { return float64(r.Repair.Failed) })
		s.ReconnectMs = Over(res, func(r SeedResult) float64 { return r.Repair.ReconnectMs })
		s.RepairMessages = Over(res, func(r SeedResult) float64 { return float64(r.Repair.RepairMsgs) })
		s.RepairMessagesPct = Over(res, SeedResult.RepairMessagesPct)
		s.JoinRequestsIncreasePct = Over(res, SeedResult.JoinRequestsIncreasePct)
		s.DepthChangePct = Over(res, SeedResult.DepthChangePct)
		s.Pings = Over(res, func(r SeedResult) float64 { return float64(r.Repair.Pings) })
		tr := func(f func(RepairTraffic) float64) Stat {
			return Over(res, func(r SeedResult) float64 { return f(r.Repair.Traffic) })
		}
		s.JoinMsgs = tr(func(t RepairTraffic) float64 { return float64(t.Join) })
		s.BreakMsgs = tr(func(t RepairTraffic) float64 { return float64(t.Break) })
		s.ElectionMsgs = tr(func(t RepairTraffic) float64 { return float64(t.Election) })
		s.UpkeepMsgs = tr(func(t RepairTraffic) float64 { return float64(t.Upkeep()) })
		s.LookupMsgs = tr(func(t RepairTraffic) float64 { return float64(t.LookupMessages) })
		c := x.Cfg
		c.defaults()
		s.TrafficIncreasePct = Over(res, func(r SeedResult) float64 { return r.TrafficIncreasePct(c.LookupMessages) })
	}
	return s
}

// PartFormat and PartVersion identify a tree part file.
const (
	PartFormat  = "gossipkit-tree-part"
	PartVersion = 1
)

// Part is one shard's share of an Experiment, as written to a part file:
// gzip-compressed JSON with the format name, the version, the experiment
// (every configuration field, the first seed and the number of seeds), the
// shard, and each of its seeds' metrics. A merge reorders the seeds and
// summarises them exactly as a single run does.
type Part struct {
	Format  string       `json:"format"`
	Version int          `json:"version"`
	Exp     Experiment   `json:"experiment"`
	Shard   ShardID      `json:"shard"`
	Results []SeedResult `json:"results"`
}

// WritePart writes the results of shard id as a part file.
func WritePart(w io.Writer, x Experiment, id ShardID, res []SeedResult) error {
	return shard.WriteJSON(w, Part{Format: PartFormat, Version: PartVersion, Exp: x, Shard: id, Results: res})
}

// The limits of a part's plain JSON apply while shard.Decompress counts
// it, before the part is held in memory: the seeds its shard owns
// (Experiment.Seeds, at most MaxSeeds), each a result of at most 5
// objects (the result, build and repair metrics and their traffic) and
// 4 KiB (about 50 numbers of at most 24 characters and their keys: 2.3
// KiB; a real result with repair is about 820 bytes), and 64 KiB and 64
// objects for the rest. A header without the experiment or shard (fields
// in another order) gets no limits here: DecodePart checks the part whole.
func init() {
	shard.RegisterLimits(PartFormat, func(header []byte) (shard.Limits, error) {
		var h struct {
			Format  string           `json:"format"`
			Version int              `json:"version"`
			Exp     *json.RawMessage `json:"experiment"`
			Shard   *ShardID         `json:"shard"`
		}
		if json.Unmarshal(header, &h) != nil || h.Exp == nil || h.Shard == nil {
			return shard.Limits{}, nil
		}
		var x Experiment
		if err := json.Unmarshal(*h.Exp, &x); err != nil {
			return shard.Limits{}, fmt.Errorf("tree: not a gossipkit tree part file: %v", err)
		}
		if h.Version != PartVersion {
			return shard.Limits{}, fmt.Errorf("tree: part format version %d, this gossipkit reads version %d", h.Version, PartVersion)
		}
		if x.Seeds < 0 || x.Seeds > MaxSeeds || !h.Shard.Valid() {
			return shard.Limits{}, fmt.Errorf("tree: corrupted part file: %d seeds, shard %d/%d", x.Seeds, h.Shard.Index, h.Shard.Count)
		}
		seeds := int64((x.Seeds - h.Shard.Index + h.Shard.Count) / h.Shard.Count)
		return shard.Limits{Bytes: 64<<10 + 4096*seeds, Objects: 64 + 5*seeds}, nil
	})
}

// ReadPart reads and checks one part file: gzip integrity, format,
// version, and that every seed belongs to the part's shard.
func ReadPart(r io.Reader) (*Part, error) {
	plain, err := shard.Decompress(r)
	if err != nil {
		return nil, err
	}
	return DecodePart(plain)
}

// DecodePart is ReadPart on a part file's decompressed JSON.
func DecodePart(plain []byte) (*Part, error) {
	dec := json.NewDecoder(bytes.NewReader(plain))
	dec.DisallowUnknownFields()
	var p Part
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("tree: not a gossipkit tree part file: %v", err)
	}
	if p.Format != PartFormat {
		return nil, fmt.Errorf("tree: not a gossipkit tree part file (format %q)", p.Format)
	}
	if p.Version != PartVersion {
		return nil, fmt.Errorf("tree: part format version %d, this gossipkit reads version %d", p.Version, PartVersion)
	}
	if !p.Shard.Valid() {
		return nil, fmt.Errorf("tree: bad shard %d/%d in part file", p.Shard.Index, p.Shard.Count)
	}
	for _, r := range p.Results {
		if r.Index >= p.Exp.Seeds || !p.Shard.Owns(r.Index) || (r.Repair == nil) == p.Exp.Fail {
			return nil, fmt.Errorf("tree: corrupted part file: seed %d does not belong to shard %d/%d", r.Index, p.Shard.Index, p.Shard.Count)
		}
	}
	if err := p.checkRanges(); err != nil {
		return nil, err
	}
	return &p, nil
}

// MergeError is a set of parts that cannot be merged (the same type as
// sim.MergeError); Missing lists the seeds missing when that is the
// reason.
type MergeError = shard.MergeError

func mergeErr(format string, a ...any) error {
	return &MergeError{Pkg: "tree", Msg: fmt.Sprintf(format, a...)}
}

// Merge combines the parts of one experiment into the single run's
// results, in seed order. names label the parts in errors. It refuses parts
// of different experiments and seeds present twice; missing seeds are
// returned, and refused unless allowMissing.
func Merge(parts []*Part, names []string, allowMissing bool) (Experiment, []SeedResult, shard.Spans, error) {
	if len(parts) == 0 {
		return Experiment{}, nil, nil, mergeErr("no parts to merge")
	}
	if err := checkMergeable(parts, names); err != nil {
		return Experiment{}, nil, nil, err
	}
	ref, _ := json.Marshal(parts[0].Exp)
	owner := map[int]string{}
	var res []SeedResult
	for i, p := range parts {
		got, _ := json.Marshal(p.Exp)
		if !bytes.Equal(got, ref) {
			return Experiment{}, nil, nil, mergeErr("%s and %s are from different experiments", names[0], names[i])
		}
		for _, r := range p.Results {
			if prev, dup := owner[r.Index]; dup {
				return Experiment{}, nil, nil, mergeErr("seed %d is in both %s and %s", r.Index, prev, names[i])
			}
			owner[r.Index] = names[i]
			res = append(res, r)
		}
	}
	sort.Slice(res, func(a, b int) bool { return res[a].Index < res[b].Index })
	x := parts[0].Exp
	missing := shard.Gaps(x.Seeds, func(yield func(int) bool) {
		for _, r := range res {
			if !yield(r.Index) {
				return
			}
		}
	})
	if len(missing) > 0 && !allowMissing {
		return x, nil, missing, &MergeError{Pkg: "tree", Msg: fmt.Sprintf("%d of %d seeds missing: %s", missing.Len(), x.Seeds, missing), Missing: missing}
	}
	if len(res) == 0 {
		return x, nil, missing, mergeErr("the parts hold no seeds")
	}
	return x, res, missing, nil
}
