package report

import (
	"context"
	"fmt"

	"github.com/gossipkit/gossipkit/internal/buildinfo"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/report/internal/clock"
	"github.com/gossipkit/gossipkit/report/part"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// The report as an array job. Every simulation of the report (sim.Run and
// tree experiments) goes through one runner held by the Study, in call
// order (part.Runner). A single run runs each in full. A shard (RunShard)
// runs only its share of each one's replications (or seeds), records that
// share, and hands the partial result to the section's compute step, whose
// output is thrown away; the part file holds every share, keyed by call
// number and configuration. A merge (Merge) runs the same compute steps,
// and the runner serves call k the merge of every shard's share of call k
// (sim.Merge, tree.Merge: the single run's result, replication for
// replication), after checking that call k asks for the configuration the
// shards ran. So the merged report's tables and figures equal the single
// run's byte for byte.
//
// This needs that no simulation's configuration depends on an earlier
// simulation's result; none does (every configuration is built from the
// Scale alone), and a change that broke it would be caught at the merge:
// the shards, which saw partial results, would have asked for other
// configurations than the merge asks for. The part file's format, its
// bounded reading and the runner are package part's.

// ReportPartFormat and ReportPartVersion identify a reproduction part file
// (part.Format, part.Version).
const (
	ReportPartFormat  = part.Format
	ReportPartVersion = part.Version
)

// ShardID is shard Index of Count; shard I of M runs the replications (and
// tree seeds) r with r mod M = I − 1 of every simulation of the report.
type ShardID = shard.ID

// PartError is a set of part files that cannot be merged into a report.
type PartError = part.Error

func partErrorf(format string, a ...any) error { return &PartError{Msg: fmt.Sprintf(format, a...)} }

// runSim runs (or serves) one simulation of the report.
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
	opt := sim.Settings{Workers: s.opt.Workers, Warm: s.warmCache(cfg), Indices: s.run.Indices(cfg.Reps, from)}
	if s.clock != nil && s.run.Merger() == nil {
		cpu0, w0 := clock.CPUTime(), opt.Warm.Computed()
		defer func() {
			// The warm-ups computed: those the run needs less those it
			// found in the cache.
			w := cfg.WarmUps(opt.Indices)
			if opt.Warm != nil {
				w = opt.Warm.Computed() - w0
			}
			s.clock.SimulatedWarm(cfg, opt.Indices, cpu0, w)
		}()
	}
	return s.run.Sim(ctx, cfg, opt, from)
}

// runTree runs (or serves) one tree experiment of the report.
func (s *Study) runTree(ctx context.Context, x tree.Experiment) ([]tree.SeedResult, error) {
	if s.clock != nil && s.run.Merger() == nil {
		cpu0 := clock.CPUTime()
		defer s.clock.TreeSimulated(cpu0)
	}
	return s.run.Tree(ctx, x)
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
	s.run = part.ShardRunner(id)
	s.clock = clock.New(opt.StepDone)
	if _, _, err := s.computeAll(ctx); err != nil {
		return err
	}
	p := part.File[Scale]{Format: ReportPartFormat, Version: ReportPartVersion, Gossipkit: buildinfo.Identity(), Scale: sc, Shard: id, Runs: s.run.Runs()}
	for sec := 1; sec <= len(Sections()); sec++ {
		p.Timing = append(p.Timing, part.SectionTime{Section: sec, Time: *s.clock.Of(sec)})
	}
	return part.WriteFile(ctx, path, &p)
}

// PartFileName is the name of shard id's part file in a folder.
func PartFileName(id ShardID) string { return part.FileName(id) }

// PartFiles lists the reproduction part files in dir (*.gkpart).
func PartFiles(dir string) ([]string, error) { return part.Files(dir) }

// readParts reads and checks the part files of a reproduction
// (part.Read): their scale and the merger that serves their simulations.
func readParts(files []string) (Scale, *part.Merger, error) {
	return part.Read(files, len(Sections()), func(sc Scale) string { return fmt.Sprintf("%s, seed %d", sc.Name, sc.Seed) })
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
	sc, m, err := readParts(files)
	if err != nil {
		return err
	}
	s := NewStudy(sc, opt)
	s.run = part.MergeRunner(m)
	return s.write(ctx, dir)
}
