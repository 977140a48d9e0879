package report

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/report/tables"
	"github.com/gossipkit/gossipkit/sim"
)

// TestMergeFiles: two shards of a simulation merge into the output of the
// single run (an independent computation: one sim.Run of every
// replication), one shard alone is refused unless allowMissing (then the
// missing replications are listed), and an unreadable file is a
// *PartError.
func TestMergeFiles(t *testing.T) {
	ctx := context.Background()
	cfg := sim.Config{Nodes: 10, Shuffle: gossip.Shuffle{Items: 8, Cache: 4, Exchange: 2}, Rounds: 3, Reps: 4, Initial: 1, Seed: 7}
	whole, err := sim.Run(ctx, cfg, sim.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := tables.WriteSim(&want, whole, "csv"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for i := 1; i <= 2; i++ {
		id := sim.ShardID{Index: i, Count: 2}
		res, err := sim.Run(ctx, cfg, sim.Settings{Indices: id.Indices(cfg.Reps)})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := sim.WritePart(&b, res, id); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, filepath.Base(t.Name())+string(rune('0'+i))+".gkpart")
		if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	t.Run("all shards", func(t *testing.T) {
		m, err := MergeFiles(ctx, files, false)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := m.Write(&got, m.Format); err != nil {
			t.Fatal(err)
		}
		if m.Format != "csv" || len(m.Missing) != 0 || got.String() != want.String() {
			t.Errorf("format %q, missing %v, merged output differs from the single run's:\n%s\nwant\n%s", m.Format, m.Missing, got.String(), want.String())
		}
	})
	t.Run("one shard", func(t *testing.T) {
		if _, err := MergeFiles(ctx, files[:1], false); err == nil {
			t.Error("half the replications merged without allowMissing")
		}
		m, err := MergeFiles(ctx, files[:1], true)
		if err != nil {
			t.Fatal(err)
		}
		// shard 1/2 holds r mod 2 = 0: replications 0 and 2 of 4; 1 and 3 are missing.
		if m.Total != 4 || m.Missing.Len() != 2 {
			t.Errorf("total %d, missing %v; want 4 and two", m.Total, m.Missing)
		}
	})
	t.Run("unreadable", func(t *testing.T) {
		var pe *PartError
		if _, err := MergeFiles(ctx, []string{filepath.Join(dir, "none.gkpart")}, false); !errors.As(err, &pe) {
			t.Errorf("got %v, want a *PartError", err)
		}
	})
}

// TestNastyValuesMerge: MergeFiles and Merged.Write through internal/probe.
func TestNastyValuesMerge(t *testing.T) {
	var set probe.Settings
	var b bytes.Buffer
	probe.Func(t, "MergeFiles", MergeFiles, set, context.Background(), []string{"none.gkpart"}, false)
	probe.Func(t, "Merged.Write", (*Merged).Write, set, &Merged{}, &b, "csv")
	probe.Func(t, "Merged.MissingText", (*Merged).MissingText, set, &Merged{Missing: shard.Spans{{Lo: 1, Hi: 1}}, Total: 2, Unit: "seeds"})
}

// TestMergeDir: a path that is no directory, or a directory without part
// files, is a *PartError before any work.
func TestMergeDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, parts, want string }{
		{"a file", file, "report: not a directory"},
		{"missing", filepath.Join(dir, "none"), "report: not a directory"},
		{"empty", dir, "report: no part files (*.gkpart) in this directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := MergeDir(context.Background(), filepath.Join(dir, "out"), tc.parts, Options{})
			var pe *PartError
			if !errors.As(err, &pe) || err.Error() != tc.want {
				t.Errorf("got %v, want a *PartError %q", err, tc.want)
			}
		})
	}
}
