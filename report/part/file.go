package part

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/gossipkit/gossipkit/internal/atomicfile"
	"github.com/gossipkit/gossipkit/internal/shard"
)

// Format and Version identify a reproduction part file.
const (
	Format  = "gossipkit-report-part"
	Version = 1
)

// ID is shard Index of Count; shard I of M runs the replications (and
// tree seeds) r with r mod M = I − 1 of every simulation of the report.
type ID = shard.ID

// File is one shard's share of a reproduction at the scale S, as written
// to a part file (one gzip member of JSON; internal/shard):
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
type File[S any] struct {
	Format    string        `json:"format"`
	Version   int           `json:"version"`
	Gossipkit string        `json:"gossipkit"`
	Scale     S             `json:"scale"`
	Shard     ID            `json:"shard"`
	Timing    []SectionTime `json:"timing"`
	Runs      []Run         `json:"runs"`
}

// SectionTime is the time of one section (numbered from 1) in a part.
type SectionTime struct {
	Section int `json:"section"`
	Time
}

// Time is where one section's time went: wall and CPU time (−1:
// unknown), the CPU time inside its simulations, and the protocol and
// pairwise-Markov shuffles they made (replications × rounds, warm-up
// included, × nodes; under the continuous-time schedule the expected
// number; none for the lumped chain, which simulates only the shuffles
// that change the state).
type Time struct {
	Wall     time.Duration `json:"wall_ns"`
	CPU      time.Duration `json:"cpu_ns"`
	SimCPU   time.Duration `json:"sim_cpu_ns"`
	Protocol float64       `json:"protocol_shuffles"`
	Markov   float64       `json:"markov_shuffles"`
}

// Add adds b to a, an unknown CPU time (−1) absorbing; a nil a is left
// alone.
func (a *Time) Add(b Time) {
	if a == nil {
		return
	}
	a.Wall += b.Wall
	a.CPU = AddCPU(a.CPU, b.CPU)
	a.SimCPU = AddCPU(a.SimCPU, b.SimCPU)
	a.Protocol += b.Protocol
	a.Markov += b.Markov
}

// AddCPU adds CPU times, −1 (unknown) absorbing.
func AddCPU(a, b time.Duration) time.Duration {
	if a < 0 || b < 0 {
		return -1
	}
	return a + b
}

// Run is one simulation of a part: the section that ran it, its kind
// ("sim" or "tree") and the shard's share, the plain JSON of a sim or tree
// part file.
type Run struct {
	Section int             `json:"section"`
	Kind    string          `json:"kind"`
	Part    json.RawMessage `json:"part"`
}

// WriteFile writes f, atomically, as a part file at path.
func WriteFile[S any](ctx context.Context, path string, f *File[S]) error {
	return atomicfile.FromContext(ctx).Write(path, func(w io.Writer) error { return shard.WriteJSON(w, f) })
}

// FileName is the name of shard id's part file in a folder.
func FileName(id ID) string {
	return fmt.Sprintf("reproduce-%06d-of-%06d.gkpart", id.Index, id.Count)
}

// Files lists the reproduction part files in dir (*.gkpart).
func Files(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.gkpart"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	return files, nil
}

// Error is a set of part files that cannot be merged into a report
// (report.PartError).
type Error struct{ Msg string }

func (e *Error) Error() string {
	if e == nil {
		return "report: part error (nil)"
	}
	return "report: " + e.Msg
}

func errorf(format string, a ...any) error { return &Error{fmt.Sprintf(format, a...)} }
