package report

import (
	"context"

	"github.com/gossipkit/gossipkit/internal/atomicfile"
	"github.com/gossipkit/gossipkit/internal/buildinfo"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/report/internal/claim"
	"github.com/gossipkit/gossipkit/report/internal/clock"
)

// Run writes the whole reproduction into dir (created if missing; files of
// the same name are replaced): every figure (PNG and SVG), the tables (CSV
// and Markdown) and REPORT.md. The files are built in a hidden folder
// inside dir and moved in only when every section has succeeded, so an
// error or a cancelled ctx leaves dir as it was. A folder that cannot be
// created or written to is a *DirError.
func Run(ctx context.Context, dir string, sc Scale, opt Options) error {
	if err := ctxguard.Check("report", ctx); err != nil {
		return err
	}
	if err := sc.check(); err != nil {
		return err
	}
	return NewStudy(sc, opt).write(ctx, dir)
}

// computeAll runs every section's compute step, timing each.
func (s *Study) computeAll(ctx context.Context) ([]Renderer, []string, error) {
	var results []Renderer
	var titles []string
	for i, sec := range Sections() {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if sec.Exact && s.run.Sharding() {
			results = append(results, nil)
			titles = append(titles, sec.Title)
			continue // the merge computes it
		}
		s.clock.Begin(i+1, sec.Title)
		if s.run != nil {
			s.run.Section = i + 1
		}
		r, err := sec.Compute(ctx, s)
		if err != nil {
			return nil, nil, err
		}
		s.clock.End()
		results = append(results, r)
		titles = append(titles, sec.Title)
	}
	return results, titles, nil
}

// write computes and writes the whole report into dir (Run, Merge):
// REPORT.md, which a person reads in minutes (the claims table, the
// operator table, each section's claims beside its figures, the time),
// and beside it a file per section (section-NN.md) with the section's
// measurements, tables and rules, rules.md and verdicts.md.
func (s *Study) write(ctx context.Context, dir string) error {
	sc := s.Scale
	_, err := atomicfile.FromContext(ctx).BuildDir(dir, ".reproduce-", func(tmp string) error {
		s.clock = clock.New(s.opt.StepDone)
		d := NewDoc(tmp)
		d.printf("# gossipkit reproduction report\n\n")
		d.printf("Scale `%s`, seed %d, gossipkit %s. Every number below was computed by this run. It judges the claims of the paper (Bakhshi, Gavidia, Fokkink, van Steen, *An analytical model of information dissemination for a gossip-based protocol*) and of the spanning-tree document; each section's file sets its figures beside the claims they check.\n", sc.Name, sc.Seed, buildinfo.Version)
		d.printf("\nSimulations: N = %d nodes, c = %d, s = %d, %d warm-up + %d rounds, %d replications per setting (the paper: 1000 + 1000 rounds, 100 replications; `--scale paper`).\n", sc.Nodes, sc.Cache, sc.Exchange, sc.Warmup, sc.Rounds, sc.Reps)
		if sc.RepsPerWarm > 0 {
			d.printf("\nWarm states: in the protocol runs on the complete graph (lossless or with loss ε ≤ %g) and on the random regular graph, %d replications branch from each warm-up (`sim.Config.WarmStates`): they share the caches at d's insertion and go on with their own random streams. Each mean stays unbiased; its standard error, computed as if the replications were independent, is low by the factor √(1 + (%d − 1)ρ), ρ the intraclass correlation of replications sharing a warm state (measured in testdata/README.md); the runs on the torus and at ε = 0.3, where ρ is not small, warm up each replication.\n", warmLossMax, sc.RepsPerWarm, sc.RepsPerWarm)
		}
		// Every section is computed first, so that the verdicts can open
		// the report.
		results, titles, err := s.computeAll(ctx)
		if err != nil {
			return err
		}
		if s.computed != nil {
			s.computed(results)
		}
		s.clock.Begin(0, "operator table: memberlist's defaults")
		ops, err := s.Operator(ctx)
		if err != nil {
			return err
		}
		s.clock.Step("rendering tables and figures")
		// Each section into its own file, so that REPORT.md can list
		// the figures each drew.
		secs := make([]*Doc, len(results))
		for i, sec := range Sections() {
			sd := NewDoc(tmp)
			sd.printf("# %d. %s\n\n([REPORT.md](REPORT.md) has the verdicts at a glance; `rules.md` states each rule once.)\n\n", i+1, sec.Title)
			if err := results[i].Render(sd); err != nil {
				return err
			}
			if err := atomicfile.WriteBytes(sd.path(sectionFile(i+1)), wrapProse(sd.Markdown())); err != nil {
				return err
			}
			secs[i] = sd
		}
		d.printf("\n## The claims\n\nEach claim of the two source documents, and each finding of this toolkit (marked so), judged by this run; the measured column is the headline of the measurement, whose whole is in the section's file. A verdict that rests on Monte Carlo is decided only where the interval of the quantity it grades lies on one side of its threshold; otherwise it reads \"%s\" and names the replications or seeds that would decide it.\n", claim.Undecided)
		vt := verdictTable(results)
		if err := d.verdicts(vt); err != nil {
			return err
		}
		if err := d.operator(ops); err != nil {
			return err
		}
		d.printf("\n## The sections\n\nEach section's claims beside its figures; its file holds the measurements, the tables and the rules.\n")
		for i, sec := range Sections() {
			d.printf("\n### %d. [%s](%s)\n\n", i+1, sec.Title, sectionFile(i+1))
			for _, row := range vt.Rows {
				if row[4].(int) == i+1 {
					d.printf("- %s: **%s**\n", row[0], row[1])
				}
			}
			for _, f := range secs[i].figs {
				d.printf("\n![%s](%s.png)\n", f, f)
			}
		}
		s.clock.End()
		if err := s.timing(d, titles); err != nil {
			return err
		}
		return atomicfile.WriteBytes(d.path("REPORT.md"), wrapProse(d.Markdown()))
	})
	return err
}
