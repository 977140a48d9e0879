package part

import (
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"time"

	"github.com/gossipkit/gossipkit/internal/buildinfo"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// Merger serves the merged simulations to a merge's compute steps
// (MergeRunner).
type Merger struct {
	runs   [][]Run         // by shard index − 1
	timing [][]SectionTime // by shard index − 1
	names  []string
}

// Read reads and checks the part files of a reproduction at a scale S of
// the given number of sections: each a reproduction part of this format
// and version, all of one gossipkit, scale and shard count, every shard
// 1..M once, with the same simulations in the same order. It returns
// their scale and the merger that serves their simulations; describe
// names a scale in the error that two parts' scales differ.
func Read[S any](files []string, sections int, describe func(S) string) (S, *Merger, error) {
	var scale S
	if len(files) == 0 {
		return scale, nil, errorf("no part files to merge")
	}
	byShard := map[int]string{}
	var count int
	type read struct {
		p    *File[S]
		name string
	}
	var all []read
	for _, f := range files {
		raw, err := shard.ReadFile(f) // a regular file, bounded: not /dev/zero, not a FIFO
		if err != nil {
			if u := errors.Unwrap(err); u != nil {
				err = u
			}
			return scale, nil, errorf("%s: cannot read: %v", f, err)
		}
		plain, err := shard.Stream(raw) // counted within its limits, not kept
		if err != nil {
			return scale, nil, errorf("%s: %v", f, err)
		}
		pp, err := decode[S](plain, sections)
		if pp != nil && pp.Format != Format {
			return scale, nil, errorf("%s: not a reproduction part file (format %q)", f, pp.Format)
		}
		if err != nil {
			return scale, nil, errorf("%s: not a reproduction part file: %v", f, err)
		}
		p := *pp
		if p.Version != Version {
			return scale, nil, errorf("%s: part format version %d, this gossipkit reads version %d", f, p.Version, Version)
		}
		if !p.Shard.Valid() {
			return scale, nil, errorf("%s: bad shard %d/%d", f, p.Shard.Index, p.Shard.Count)
		}
		if id := buildinfo.Identity(); p.Gossipkit != id {
			return scale, nil, errorf("%s is from gossipkit %s, this is %s: rerun the shard with this build", f, p.Gossipkit, id)
		}
		if len(all) == 0 {
			count = p.Shard.Count
		}
		if len(all) > 0 {
			ref := all[0]
			switch {
			case p.Gossipkit != ref.p.Gossipkit:
				return scale, nil, errorf("%s is from gossipkit %s, %s from %s", ref.name, ref.p.Gossipkit, f, p.Gossipkit)
			case !reflect.DeepEqual(p.Scale, ref.p.Scale):
				return scale, nil, errorf("%s and %s are of different scales or seeds (%s; %s)", ref.name, f, describe(ref.p.Scale), describe(p.Scale))
			case p.Shard.Count != count:
				return scale, nil, errorf("%s is one of %d shards, %s one of %d", ref.name, count, f, p.Shard.Count)
			case len(p.Runs) != len(ref.p.Runs):
				return scale, nil, errorf("%s holds %d simulations, %s %d", ref.name, len(ref.p.Runs), f, len(p.Runs))
			}
		}
		if prev, dup := byShard[p.Shard.Index]; dup {
			return scale, nil, errorf("shard %d/%d is both %s and %s", p.Shard.Index, count, prev, f)
		}
		byShard[p.Shard.Index] = f
		all = append(all, read{&p, f})
	}
	sort.Slice(all, func(a, b int) bool { return all[a].p.Shard.Index < all[b].p.Shard.Index })
	// As spans of shard indices 1..count: count is a part's claim (up to
	// shard.MaxCount), the spans are bounded by the parts read.
	if missing := shard.Gaps(count+1, func(yield func(int) bool) {
		yield(0)
		for _, r := range all {
			if !yield(r.p.Shard.Index) {
				return
			}
		}
	}); len(missing) > 0 {
		return scale, nil, errorf("%d of %d shards missing: %s", missing.Len(), count, missing)
	}
	m := &Merger{}
	for _, r := range all {
		m.runs, m.timing, m.names = append(m.runs, r.p.Runs), append(m.timing, r.p.Timing), append(m.names, r.name)
	}
	return all[0].p.Scale, m, nil
}

// Parts is the number of parts merged.
func (m *Merger) Parts() int {
	if m == nil {
		return 0
	}
	return len(m.runs)
}

// shares returns every shard's share of call k, checking its kind, and
// releases them from the parts.
func (m *Merger) shares(k int, kind string) ([]json.RawMessage, error) {
	if k >= len(m.runs[0]) {
		return nil, errorf("the report runs more simulations than the parts hold (%d): were they written by another version?", len(m.runs[0]))
	}
	out := make([]json.RawMessage, len(m.runs))
	for i, runs := range m.runs {
		if runs[k].Kind != kind {
			return nil, errorf("%s: simulation %d is a %s run, the report asks for a %s run", m.names[i], k+1, runs[k].Kind, kind)
		}
		out[i], runs[k].Part = runs[k].Part, nil
	}
	return out, nil
}

// sim merges the shares of call k, a run of cfg's replications
// from..cfg.Reps−1 (Runner.Sim).
func (m *Merger) sim(k int, cfg sim.Config, from int) (*sim.Result, error) {
	raws, err := m.shares(k, "sim")
	if err != nil {
		return nil, err
	}
	parts := make([]*sim.Part, len(raws))
	for i, raw := range raws {
		if parts[i], err = sim.DecodePart(raw); err != nil {
			return nil, errorf("%s: simulation %d: %v", m.names[i], k+1, err)
		}
	}
	res, missing, err := sim.Merge(parts, m.names, from > 0)
	if err != nil {
		return nil, errorf("simulation %d: %v", k+1, err)
	}
	// Missing must be exactly 0..from−1.
	if missing.Len() != from || (from > 0 && (len(missing) != 1 || missing[0].Lo != 0)) {
		return nil, errorf("simulation %d: the parts hold replications %d..%d less %d, the report asks for %d..%d", k+1, 0, cfg.Reps-1, missing.Len(), from, cfg.Reps-1)
	}
	want := cfg
	want.Check = false // not part of a part file; the report never sets it
	if !reflect.DeepEqual(res.Config, want) {
		return nil, errorf("simulation %d: the parts ran %+v, the report asks for %+v", k+1, res.Config, want)
	}
	return res, nil
}

func (m *Merger) tree(k int, x tree.Experiment) ([]tree.SeedResult, error) {
	raws, err := m.shares(k, "tree")
	if err != nil {
		return nil, err
	}
	parts := make([]*tree.Part, len(raws))
	for i, raw := range raws {
		if parts[i], err = tree.DecodePart(raw); err != nil {
			return nil, errorf("%s: simulation %d: %v", m.names[i], k+1, err)
		}
	}
	got, res, _, err := tree.Merge(parts, m.names, false)
	if err != nil {
		return nil, errorf("simulation %d: %v", k+1, err)
	}
	if !reflect.DeepEqual(got, x) {
		return nil, errorf("simulation %d: the parts ran the tree experiment %+v, the report asks for %+v", k+1, got, x)
	}
	return res, nil
}

// TaskTimes sums the tasks' section times, and gives the largest wall
// time of a task by section.
func (m *Merger) TaskTimes() (sum map[int]*Time, wallMax map[int]time.Duration) {
	sum, wallMax = map[int]*Time{}, map[int]time.Duration{}
	if m == nil {
		return sum, wallMax
	}
	for _, timing := range m.timing {
		for _, t := range timing {
			if sum[t.Section] == nil {
				sum[t.Section] = &Time{}
			}
			sum[t.Section].Add(t.Time)
			wallMax[t.Section] = max(wallMax[t.Section], t.Wall)
		}
	}
	return sum, wallMax
}

// MaxTaskWall is the largest total wall time of one task.
func (m *Merger) MaxTaskWall() time.Duration {
	var worst time.Duration
	if m == nil {
		return worst
	}
	for _, timing := range m.timing {
		var w time.Duration
		for _, t := range timing {
			w += t.Wall
		}
		worst = max(worst, w)
	}
	return worst
}
