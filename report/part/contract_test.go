package part

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/internal/buildinfo"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// testScale stands for the report's Scale: any value JSON encodes.
type testScale struct {
	Name string
	Seed uint64
	Ns   []int
}

func describe(s testScale) string { return s.Name }

// TestContract: what cannot be merged is refused with an *Error (the
// report's PartError) naming the file, before any work; a nil context is
// refused; nil receivers do not panic.
func TestContract(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, f File[testScale]) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := WriteFile(context.Background(), p, &f); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// timing and runs are arrays, never null: the report writes every
	// section's time and its runs.
	file := func(sc testScale, i, m int) File[testScale] {
		return File[testScale]{Format: Format, Version: Version, Gossipkit: buildinfo.Identity(), Scale: sc, Shard: ID{Index: i, Count: m}, Timing: []SectionTime{}, Runs: []Run{}}
	}
	quick := testScale{Name: "quick", Seed: 1, Ns: []int{100, 200}}
	one := write("one.gkpart", file(quick, 1, 2))
	two := write("two.gkpart", file(quick, 2, 2))
	other := write("other.gkpart", file(testScale{Name: "other", Seed: 1, Ns: []int{100, 200}}, 2, 2))
	old := file(quick, 2, 2)
	old.Version = Version + 1
	oldName := write("old.gkpart", old)

	// A complete set reads back its scale (the round trip of WriteFile
	// and Read) and counts its parts.
	sc, m, err := Read([]string{two, one}, 12, describe)
	if err != nil || !reflect.DeepEqual(sc, quick) || m.Parts() != 2 {
		t.Fatalf("Read = %+v, %d parts, %v; want %+v, 2 parts", sc, m.Parts(), err, quick)
	}
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"none", nil, "no part files to merge"},
		{"missing file", []string{filepath.Join(dir, "absent.gkpart")}, "absent.gkpart: cannot read"},
		{"missing shard", []string{one}, "1 of 2 shards missing: 2"},
		{"twice", []string{one, one}, "shard 1/2 is both"},
		{"other scale", []string{one, other}, "different scales or seeds (quick; other)"},
		{"other version", []string{oldName}, "part format version 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Read(tc.files, 12, describe)
			var pe *Error
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "report: ") {
				t.Errorf("Read = %v, want a *Error with %q", err, tc.want)
			}
		})
	}

	var nilCtx context.Context
	if _, err := MergeFiles(nilCtx, []string{one}, false); err == nil || !strings.Contains(err.Error(), "nil context") {
		t.Errorf("MergeFiles(nil context) = %v, want a nil-context error", err)
	}
	var pe *Error
	if _, err := MergeFiles(context.Background(), nil, false); !errors.As(err, &pe) {
		t.Errorf("MergeFiles(no files) = %v, want a *Error", err)
	}
	// A reproduction part is no sim, tree or broadcast part.
	if _, err := MergeFiles(context.Background(), []string{one}, false); err == nil {
		t.Error("MergeFiles accepted a reproduction part")
	}

	var nm *Merger
	var nr *Runner
	var ne *Error
	if sum, wall := nm.TaskTimes(); nm.Parts() != 0 || nm.MaxTaskWall() != 0 || len(sum)+len(wall) != 0 {
		t.Error("a nil Merger is not empty")
	}
	if nr.Sharding() || nr.Merger() != nil || nr.Runs() != nil || ne.Error() != "report: part error (nil)" {
		t.Error("a nil Runner or Error is not empty")
	}
	var nt *Time
	nt.Add(Time{Wall: 1}) // a nil *Time is left alone, not a panic (issue 42's probe)
	// A shard that owns none of the replications runs none (not all).
	if idx := ShardRunner(ID{Index: 2, Count: 2}).Indices(1, 0); idx == nil || len(idx) != 0 {
		t.Errorf("shard 2/2 of one replication runs %v, want none", idx)
	}
}

// TestNastyValues calls the package's entry points with the nastiest
// values of their arguments' types, one at a time (internal/probe): none
// may panic or hang.
func TestNastyValues(t *testing.T) {
	var set probe.Settings
	dir := t.TempDir()
	probe.Func(t, "FileName", FileName, set, ID{Index: 1, Count: 2})
	probe.Func(t, "Files", Files, set, dir)
	probe.Func(t, "MergeFiles", MergeFiles, set, context.Background(), []string{filepath.Join(dir, "none.gkpart")}, false)
	probe.Func(t, "Read", Read[testScale], set, []string{filepath.Join(dir, "none.gkpart")}, 12, describe)
	probe.Func(t, "MergeMemoryEstimate", MergeMemoryEstimate, set, []string{filepath.Join(dir, "none.gkpart")})
}
