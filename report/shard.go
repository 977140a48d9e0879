package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"time"

	"github.com/gossipkit/gossipkit/internal/atomicfile"
	"github.com/gossipkit/gossipkit/internal/buildinfo"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// The report as an array job. Every simulation of the report (sim.Run and
// tree experiments) goes through one runner held by the Study, in call
// order. A single run runs each in full. A shard (RunShard) runs only its
// share of each one's replications (or seeds), records that share, and
// hands the partial result to the section's compute step, whose output is
// thrown away; the part file holds every share, keyed by call number and
// configuration. A merge (Merge) runs the same compute steps, and the
// runner serves call k the merge of every shard's share of call k (sim.Merge,
// tree.Merge: the single run's result, replication for replication), after
// checking that call k asks for the configuration the shards ran. So the
// merged report's tables and figures equal the single run's byte for byte.
//
// This needs that no simulation's configuration depends on an earlier
// simulation's result; none does (every configuration is built from the
// Scale alone), and a change that broke it would be caught at the merge:
// the shards, which saw partial results, would have asked for other
// configurations than the merge asks for.

// ReportPartFormat and ReportPartVersion identify a reproduction part file.
const (
	ReportPartFormat  = "gossipkit-report-part"
	ReportPartVersion = 1
)

// ShardID is shard Index of Count; shard I of M runs the replications (and
// tree seeds) r with r mod M = I − 1 of every simulation of the report.
type ShardID = shard.ID

// reportPart is one shard's share of a reproduction, as written to a part
// file (one gzip member of JSON; internal/shard):
//
//	format     "gossipkit-report-part"
//	version    1
//	gossipkit  the build's identity (buildinfo.Identity: version, VCS
//	           revision, hash of the executable); a merge refuses parts of
//	           another build than its own
//	scale      the Scale, every field
//	shard      {"index": I, "count": M}
//	timing     per section: wall and CPU time, CPU time in simulations
//	           (nanoseconds, −1: unknown), protocol and Markov shuffles
//	runs       per simulation of the report in call order: its section,
//	           its kind ("sim" or "tree") and the shard's share as the
//	           content of a sim or tree part file
type reportPart struct {
	Format    string          `json:"format"`
	Version   int             `json:"version"`
	Gossipkit string          `json:"gossipkit"`
	Scale     Scale           `json:"scale"`
	Shard     ShardID         `json:"shard"`
	Timing    []sectionTiming `json:"timing"`
	Runs      []runPart       `json:"runs"`
}

type sectionTiming struct {
	Section int `json:"section"`
	sectionTime
}

type runPart struct {
	Section int             `json:"section"`
	Kind    string          `json:"kind"`
	Part    json.RawMessage `json:"part"`
}

// runner executes the report's simulations: in full (shard and merged both
// nil), a shard's share (recording it), or from merged parts.
type runner struct {
	shard   *ShardID
	section int // the section being computed
	calls   int
	runs    []runPart // a shard's shares, in call order
	merge   *merger
}

// sim runs (or serves) one simulation of the report.
func (s *Study) runSim(ctx context.Context, cfg sim.Config) (*sim.Result, error) {
	return s.runSimFrom(ctx, cfg, 0)
}

// runSimFrom runs (or serves) the replications from..cfg.Reps−1 of one
// simulation of the report: each is what it would be in the whole run
// (replication r draws from stream r of the seed alone), so a simulation
// can add replications to an earlier one's without running those again.
// A shard runs its share of them; a merge checks that the parts hold
// exactly them.
func (s *Study) runSimFrom(ctx context.Context, cfg sim.Config, from int) (*sim.Result, error) {
	r := s.run
	opt := sim.Settings{Workers: s.opt.Workers, Warm: s.warmCache(cfg)}
	if from > 0 {
		for i := from; i < cfg.Reps; i++ {
			opt.Indices = append(opt.Indices, i)
		}
	}
	if r != nil && r.shard != nil {
		all := r.shard.Indices(cfg.Reps)
		opt.Indices = []int{} // none of the replications: count none
		for _, i := range all {
			if i >= from {
				opt.Indices = append(opt.Indices, i)
			}
		}
	}
	if s.clock != nil && (r == nil || r.merge == nil) {
		cpu0, w0 := cpuTime(), opt.Warm.Computed()
		defer func() {
			// The warm-ups computed: those the run needs less those it
			// found in the cache.
			w := cfg.WarmUps(opt.Indices)
			if opt.Warm != nil {
				w = opt.Warm.Computed() - w0
			}
			s.clock.simulatedWarm(cfg, opt.Indices, cpu0, w)
		}()
	}
	if r == nil {
		return sim.Run(ctx, cfg, opt)
	}
	k := r.calls
	r.calls++
	if r.merge != nil {
		return r.merge.sim(k, cfg, from)
	}
	if r.shard == nil {
		return sim.Run(ctx, cfg, opt)
	}
	res := &sim.Result{Config: cfg, Connected: true}
	if len(opt.Indices) > 0 {
		var err error
		if res, err = sim.Run(ctx, cfg, opt); err != nil {
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

// runTree runs (or serves) one tree experiment of the report.
func (s *Study) runTree(ctx context.Context, x tree.Experiment) ([]tree.SeedResult, error) {
	r := s.run
	if s.clock != nil && (r == nil || r.merge == nil) {
		cpu0 := cpuTime()
		defer s.clock.treeSimulated(cpu0)
	}
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
func (r *runner) record(kind string, buf *bytes.Buffer) error {
	plain, err := shard.Decompress(buf)
	if err != nil {
		return err
	}
	r.runs = append(r.runs, runPart{Section: r.section, Kind: kind, Part: bytes.TrimSpace(plain)})
	return nil
}

// RunShard runs shard id's share of every simulation of the reproduction
// at scale sc and writes it, atomically, as one part file at path; Merge
// turns the parts of shards 1..M into the report. The exact computations
// of the report are left to the merge; the compute steps still run in a
// shard, on its partial results, and their output is discarded.
func RunShard(ctx context.Context, path string, sc Scale, id ShardID, opt Options) error {
	if err := ctxguard.Check("report", ctx); err != nil {
		return err
	}
	if !id.Valid() {
		return fmt.Errorf("report: shard %d/%d: need 1 ≤ Index ≤ Count ≤ %d", id.Index, id.Count, shard.MaxCount)
	}
	s := NewStudy(sc, opt)
	s.run = &runner{shard: &id}
	s.clock = newClock(opt.StepDone)
	if _, _, err := s.computeAll(ctx); err != nil {
		return err
	}
	p := reportPart{Format: ReportPartFormat, Version: ReportPartVersion, Gossipkit: buildinfo.Identity(), Scale: sc, Shard: id, Runs: s.run.runs}
	for sec := 1; sec <= len(Sections()); sec++ {
		p.Timing = append(p.Timing, sectionTiming{Section: sec, sectionTime: *s.clock.of(sec)})
	}
	return atomicfile.FromContext(ctx).Write(path, func(w io.Writer) error { return shard.WriteJSON(w, &p) })
}

// PartFileName is the name of shard id's part file in a folder.
func PartFileName(id ShardID) string {
	return fmt.Sprintf("reproduce-%06d-of-%06d.gkpart", id.Index, id.Count)
}

// PartError is a set of part files that cannot be merged into a report.
type PartError struct{ Msg string }

func (e *PartError) Error() string {
	if e == nil {
		return "report: part error (nil)"
	}
	return "report: " + e.Msg
}

func partErrorf(format string, a ...any) error { return &PartError{fmt.Sprintf(format, a...)} }

// merger serves the merged simulations to a merge's compute steps.
type merger struct {
	parts []*reportPart // by shard index − 1
	names []string
}

// readParts reads and checks the part files: each a reproduction part of
// this format and version, all of one gossipkit, scale and shard count,
// every shard 1..M once, with the same simulations in the same order.
func readParts(files []string) (*merger, error) {
	if len(files) == 0 {
		return nil, partErrorf("no part files to merge")
	}
	m := &merger{}
	byShard := map[int]string{}
	var count int
	type read struct {
		p    *reportPart
		name string
	}
	var all []read
	for _, f := range files {
		raw, err := shard.ReadFile(f) // a regular file, bounded: not /dev/zero, not a FIFO
		if err != nil {
			if u := errors.Unwrap(err); u != nil {
				err = u
			}
			return nil, partErrorf("%s: cannot read: %v", f, err)
		}
		plain, err := shard.Stream(raw) // counted within its limits, not kept
		if err != nil {
			return nil, partErrorf("%s: %v", f, err)
		}
		pp, err := decodeReportPart(plain)
		if pp != nil && pp.Format != ReportPartFormat {
			return nil, partErrorf("%s: not a reproduction part file (format %q)", f, pp.Format)
		}
		if err != nil {
			return nil, partErrorf("%s: not a reproduction part file: %v", f, err)
		}
		p := *pp
		if p.Version != ReportPartVersion {
			return nil, partErrorf("%s: part format version %d, this gossipkit reads version %d", f, p.Version, ReportPartVersion)
		}
		if !p.Shard.Valid() {
			return nil, partErrorf("%s: bad shard %d/%d", f, p.Shard.Index, p.Shard.Count)
		}
		if id := buildinfo.Identity(); p.Gossipkit != id {
			return nil, partErrorf("%s is from gossipkit %s, this is %s: rerun the shard with this build", f, p.Gossipkit, id)
		}
		if len(all) == 0 {
			count = p.Shard.Count
		}
		if len(all) > 0 {
			ref := all[0]
			switch {
			case p.Gossipkit != ref.p.Gossipkit:
				return nil, partErrorf("%s is from gossipkit %s, %s from %s", ref.name, ref.p.Gossipkit, f, p.Gossipkit)
			case !reflect.DeepEqual(p.Scale, ref.p.Scale):
				return nil, partErrorf("%s and %s are of different scales or seeds (%s, seed %d; %s, seed %d)", ref.name, f, ref.p.Scale.Name, ref.p.Scale.Seed, p.Scale.Name, p.Scale.Seed)
			case p.Shard.Count != count:
				return nil, partErrorf("%s is one of %d shards, %s one of %d", ref.name, count, f, p.Shard.Count)
			case len(p.Runs) != len(ref.p.Runs):
				return nil, partErrorf("%s holds %d simulations, %s %d", ref.name, len(ref.p.Runs), f, len(p.Runs))
			}
		}
		if prev, dup := byShard[p.Shard.Index]; dup {
			return nil, partErrorf("shard %d/%d is both %s and %s", p.Shard.Index, count, prev, f)
		}
		byShard[p.Shard.Index] = f
		all = append(all, read{&p, f})
	}
	if missing := shard.Missing(count, func(i int) bool { _, ok := byShard[i+1]; return ok }); len(missing) > 0 {
		for i := range missing {
			missing[i]++
		}
		return nil, partErrorf("%d of %d shards missing: %s", len(missing), count, shard.Ranges(missing))
	}
	sort.Slice(all, func(a, b int) bool { return all[a].p.Shard.Index < all[b].p.Shard.Index })
	for _, r := range all {
		m.parts, m.names = append(m.parts, r.p), append(m.names, r.name)
	}
	return m, nil
}

// shares returns every shard's share of call k, checking its kind, and
// releases them from the parts.
func (m *merger) shares(k int, kind string) ([]json.RawMessage, error) {
	if k >= len(m.parts[0].Runs) {
		return nil, partErrorf("the report runs more simulations than the parts hold (%d): were they written by another version?", len(m.parts[0].Runs))
	}
	out := make([]json.RawMessage, len(m.parts))
	for i, p := range m.parts {
		if p.Runs[k].Kind != kind {
			return nil, partErrorf("%s: simulation %d is a %s run, the report asks for a %s run", m.names[i], k+1, p.Runs[k].Kind, kind)
		}
		out[i], p.Runs[k].Part = p.Runs[k].Part, nil
	}
	return out, nil
}

// sim merges the shares of call k, a run of cfg's replications
// from..cfg.Reps−1 (runSimFrom).
func (m *merger) sim(k int, cfg sim.Config, from int) (*sim.Result, error) {
	raws, err := m.shares(k, "sim")
	if err != nil {
		return nil, err
	}
	parts := make([]*sim.Part, len(raws))
	for i, raw := range raws {
		if parts[i], err = sim.DecodePart(raw); err != nil {
			return nil, partErrorf("%s: simulation %d: %v", m.names[i], k+1, err)
		}
	}
	res, missing, err := sim.Merge(parts, m.names, from > 0)
	if err != nil {
		return nil, partErrorf("simulation %d: %v", k+1, err)
	}
	if len(missing) != from || (from > 0 && missing[from-1] != from-1) {
		return nil, partErrorf("simulation %d: the parts hold replications %d..%d less %d, the report asks for %d..%d", k+1, 0, cfg.Reps-1, len(missing), from, cfg.Reps-1)
	}
	want := cfg
	want.Check = false // not part of a part file; the report never sets it
	if !reflect.DeepEqual(res.Config, want) {
		return nil, partErrorf("simulation %d: the parts ran %+v, the report asks for %+v", k+1, res.Config, want)
	}
	return res, nil
}

func (m *merger) tree(k int, x tree.Experiment) ([]tree.SeedResult, error) {
	raws, err := m.shares(k, "tree")
	if err != nil {
		return nil, err
	}
	parts := make([]*tree.Part, len(raws))
	for i, raw := range raws {
		if parts[i], err = tree.DecodePart(raw); err != nil {
			return nil, partErrorf("%s: simulation %d: %v", m.names[i], k+1, err)
		}
	}
	got, res, _, err := tree.Merge(parts, m.names, false)
	if err != nil {
		return nil, partErrorf("simulation %d: %v", k+1, err)
	}
	if !reflect.DeepEqual(got, x) {
		return nil, partErrorf("simulation %d: the parts ran the tree experiment %+v, the report asks for %+v", k+1, got, x)
	}
	return res, nil
}

// taskTimes sums the tasks' section times, and gives the largest wall
// time of a task by section.
func (m *merger) taskTimes() (sum map[int]*sectionTime, wallMax map[int]time.Duration) {
	sum, wallMax = map[int]*sectionTime{}, map[int]time.Duration{}
	for _, p := range m.parts {
		for _, t := range p.Timing {
			if sum[t.Section] == nil {
				sum[t.Section] = &sectionTime{}
			}
			sum[t.Section].add(t.sectionTime)
			wallMax[t.Section] = max(wallMax[t.Section], t.Wall)
		}
	}
	return sum, wallMax
}

// PartFiles lists the reproduction part files in dir (*.gkpart).
func PartFiles(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.gkpart"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	return files, nil
}

// Merge checks the part files of a sharded reproduction (RunShard) and
// writes the report into dir as Run does: the same files, whose tables and
// figures are byte for byte those of a single run at the parts' scale;
// REPORT.md differs only in its timing lines, which give the merge's own
// time and the tasks'. Parts of different gossipkit builds, scales or
// seeds, or shard counts, a missing shard or one given twice are a
// *PartError; nothing is written then.
func Merge(ctx context.Context, dir string, files []string, opt Options) error {
	if err := ctxguard.Check("report", ctx); err != nil {
		return err
	}
	m, err := readParts(files)
	if err != nil {
		return err
	}
	s := NewStudy(m.parts[0].Scale, opt)
	s.run = &runner{merge: m}
	return s.write(ctx, dir)
}

// maxTaskWall is the largest total wall time of one task.
func (m *merger) maxTaskWall() time.Duration {
	var worst time.Duration
	for _, p := range m.parts {
		var w time.Duration
		for _, t := range p.Timing {
			w += t.Wall
		}
		worst = max(worst, w)
	}
	return worst
}
