package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// Merged is the answer merged from the part files of one sharded run
// (MergeFiles): a simulation's result, a tree experiment's summary or a
// broadcast protocol's Monte Carlo design, as the unsharded run prints it.
type Merged struct {
	// Missing are the replications (or seeds) no part held, of Total;
	// Unit names them ("replications" or "seeds").
	Missing []int
	Total   int
	Unit    string
	// Format is the format the unsharded command prints by default:
	// "text" for a tree experiment or a broadcast design, "csv" for a
	// simulation.
	Format string
	write  func(w io.Writer, format string) error
}

// Write writes the merged answer in format (text, json, csv or markdown).
func (m *Merged) Write(w io.Writer, format string) error {
	if m == nil || m.write == nil || w == nil {
		return errors.New("report: Merged.Write: nothing merged or no writer")
	}
	return m.write(w, format)
}

// MergeFiles reads the part files written by the shards of one run of
// `gossipkit sim`, `gossipkit tree` or `gossipkit plan` (broadcast, Monte
// Carlo) and merges them into the answer the single run gives, exactly.
// Parts of different kinds are refused. A file that cannot be read or
// decoded, or of another kind, is a *PartError naming it; an incomplete or
// inconsistent set is the merging package's error (a *shard.MergeError
// where it is one), unless allowMissing lets missing replications pass
// (they are in Missing).
func MergeFiles(ctx context.Context, files []string, allowMissing bool) (*Merged, error) {
	if ctx == nil {
		return nil, errors.New("report: MergeFiles: nil context")
	}
	if len(files) == 0 {
		return nil, &PartError{Msg: "no part files"}
	}
	var parts []*sim.Part
	var tparts []*tree.Part
	var bparts []*broadcast.Part
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		raw, err := shard.ReadFile(f)
		if err != nil {
			if u := errors.Unwrap(err); u != nil {
				err = u
			}
			return nil, partErrorf("%q: cannot read: %v", f, err)
		}
		format, plain, err := shard.ReadFormat(raw)
		if err != nil {
			return nil, partErrorf("%q: %v", f, err)
		}
		switch format {
		case broadcast.PartFormat:
			var p *broadcast.Part
			if p, err = broadcast.DecodePart(plain); err == nil {
				bparts = append(bparts, p)
			}
		case tree.PartFormat:
			var p *tree.Part
			if p, err = tree.DecodePart(plain); err == nil {
				tparts = append(tparts, p)
			}
		default:
			var p *sim.Part
			if p, err = sim.DecodePart(plain); err == nil {
				parts = append(parts, p)
			}
		}
		if err != nil {
			return nil, partErrorf("%q: %v", f, err)
		}
	}
	switch {
	case len(bparts) > 0:
		if len(parts)+len(tparts) > 0 {
			return nil, partErrorf("%q: broadcast parts cannot be merged with other parts", files[0])
		}
		smp, missing, err := broadcast.MergeParts(bparts, files, allowMissing)
		if err != nil {
			return nil, err
		}
		a := smp.Law().Answer(smp.Config)
		a.Method = broadcast.MonteCarlo
		d := broadcast.NewDesign(smp.Config, []broadcast.Answer{a})
		return &Merged{Missing: missing, Total: smp.Total, Unit: "replications", Format: "text", write: d.Write}, nil
	case len(tparts) > 0:
		if len(parts) > 0 {
			return nil, partErrorf("%q: simulation and tree parts cannot be merged together", files[0])
		}
		x, res, missing, err := tree.Merge(tparts, files, allowMissing)
		if err != nil {
			return nil, err
		}
		t := TreeTable(x.Summarize(res))
		return &Merged{Missing: missing, Total: x.Seeds, Unit: "seeds", Format: "text", write: t.Write}, nil
	}
	res, missing, err := sim.Merge(parts, files, allowMissing)
	if err != nil {
		return nil, err
	}
	return &Merged{Missing: missing, Total: res.Config.Reps, Unit: "replications", Format: "csv",
		write: func(w io.Writer, format string) error { return WriteSim(w, res, format) }}, nil
}

// MissingText says what is missing, e.g. "3 of 10 replications missing:
// 2, 5-6" (the ranges as internal/shard writes them).
func (m *Merged) MissingText() string {
	if m == nil {
		return "nothing merged"
	}
	return fmt.Sprintf("%d of %d %s missing: %s", len(m.Missing), m.Total, m.Unit, shard.Ranges(m.Missing))
}

// MergeDir merges the part files (*.gkpart, PartFiles) in partDir into the
// report in dir (Merge) and returns how many it merged. A partDir that is
// no directory or holds no part file is a *PartError saying so.
func MergeDir(ctx context.Context, dir, partDir string, opt Options) (int, error) {
	if err := ctxguard.Check("report", ctx); err != nil {
		return 0, err
	}
	if st, err := os.Stat(partDir); err != nil || !st.IsDir() {
		return 0, partErrorf("not a directory")
	}
	files, err := PartFiles(partDir)
	if err == nil && len(files) == 0 {
		return 0, partErrorf("no part files (*.gkpart) in this directory")
	}
	if err == nil {
		err = Merge(ctx, dir, files, opt)
	}
	return len(files), err
}
