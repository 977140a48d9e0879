package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/report/part"
	"github.com/gossipkit/gossipkit/report/tables"
)

// Merged is the answer merged from the part files of one sharded run
// (MergeFiles): a simulation's result, a tree experiment's summary or a
// broadcast protocol's Monte Carlo design, as the unsharded run prints it.
type Merged struct {
	// Missing are the replications (or seeds) no part held, of Total;
	// Unit names them ("replications" or "seeds").
	Missing shard.Spans
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
// Carlo) and merges them into the answer the single run gives, exactly
// (part.MergeFiles), printed as that run prints it. Parts of different
// kinds are refused. A file that cannot be read or decoded, or of another
// kind, is a *PartError naming it; an incomplete or inconsistent set is
// the merging package's error (a *shard.MergeError where it is one),
// unless allowMissing lets missing replications pass (they are in
// Missing).
func MergeFiles(ctx context.Context, files []string, allowMissing bool) (*Merged, error) {
	m, err := part.MergeFiles(ctx, files, allowMissing)
	if err != nil {
		return nil, err
	}
	out := &Merged{Missing: m.Missing, Total: m.Total, Unit: m.Unit}
	switch {
	case m.Design != nil:
		out.Format, out.write = "text", m.Design.Write
	case m.Tree != nil:
		out.Format, out.write = "text", tables.TreeTable(m.Tree.Summarize(m.Seeds)).Write
	default:
		out.Format = "csv"
		out.write = func(w io.Writer, format string) error { return tables.WriteSim(w, m.Sim, format) }
	}
	return out, nil
}

// MergeMemoryEstimate returns the bytes MergeFiles needs to merge files
// (part.MergeMemoryEstimate: 6 times the parts' plain JSON plus 16 MiB,
// read from their gzip trailers before any work); a file it cannot read
// is a *PartError.
func MergeMemoryEstimate(files []string) (uint64, error) { return part.MergeMemoryEstimate(files) }

// ReportMergeBase is the memory Merge needs beyond its parts': the
// report's own computations (the exact chains, the mean fields, the
// verdicts) and its figures, run at the parts' scale. Measured (the
// merge's peak resident memory less version's, 13.5 MB): 27–49 MB at the
// smoke scale (the collector's timing moves it; parts of 0.35 MB of JSON,
// estimate 119.5 MB); 122 MB at the quick scale (2 parts, 33.6 MB of
// JSON, estimate 318.9 MB, 173 s). Not measured at the paper scale.
const ReportMergeBase uint64 = 96 << 20

// MergeDirMemoryEstimate returns the bytes MergeDir needs to merge the
// part files in partDir into the report, before any part is read, and
// the number of parts: what merging their simulations needs
// (MergeMemoryEstimate: 6 times the parts' plain JSON as their gzip
// trailers state it, at most what their size on disk may inflate to,
// plus 16 MiB) plus ReportMergeBase. A partDir that is no directory or
// holds no part file, or a file it cannot read, is a *PartError.
func MergeDirMemoryEstimate(partDir string) (need uint64, parts int, err error) {
	if st, err := os.Stat(partDir); err != nil || !st.IsDir() {
		return 0, 0, partErrorf("not a directory")
	}
	files, err := PartFiles(partDir)
	if err == nil && len(files) == 0 {
		return 0, 0, partErrorf("no part files (*.gkpart) in this directory")
	}
	if err != nil {
		return 0, 0, err
	}
	need, err = part.MergeMemoryEstimate(files)
	if err != nil {
		return 0, 0, err
	}
	return need + ReportMergeBase, len(files), nil
}

// MissingText says what is missing, e.g. "3 of 10 replications missing:
// 2, 5-6" (the ranges as internal/shard writes them).
func (m *Merged) MissingText() string {
	if m == nil {
		return "nothing merged"
	}
	return fmt.Sprintf("%d of %d %s missing: %s", m.Missing.Len(), m.Total, m.Unit, m.Missing)
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
