package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/internal/shard"

	"github.com/gossipkit/gossipkit/sim"
)

// reportBody is REPORT.md without its timing lines.
func reportBody(t *testing.T, dir string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte("\n---\n\n## Where the time goes"))
	if i < 0 {
		t.Fatalf("%s/REPORT.md has no timing table", dir)
	}
	return b[:i]
}

// sameReport compares two report folders: every file byte for byte,
// REPORT.md up to its timing lines.
func sameReport(t *testing.T, want, got string) {
	t.Helper()
	entries, err := os.ReadDir(want)
	if err != nil {
		t.Fatal(err)
	}
	gotEntries, _ := os.ReadDir(got)
	if len(gotEntries) != len(entries) {
		t.Errorf("%d files, the single run wrote %d", len(gotEntries), len(entries))
	}
	for _, e := range entries {
		if e.Name() == "REPORT.md" {
			if !bytes.Equal(reportBody(t, want), reportBody(t, got)) {
				t.Errorf("REPORT.md differs from the single run's above the timing lines")
			}
			continue
		}
		a, _ := os.ReadFile(filepath.Join(want, e.Name()))
		b, err := os.ReadFile(filepath.Join(got, e.Name()))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs from the single run's (%v)", e.Name(), err)
		}
	}
}

// TestShardMerge: the report run as M = 1 and 3 shards and merged equals
// the single run byte for byte (REPORT.md above its timing lines), and
// the single run logs every section's steps and ends with the timing
// table.
func TestShardMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the tiny report five times")
	}
	ctx := context.Background()
	root := t.TempDir()
	single, _ := tinyRun(t) // the single run, shared (sections_test.go)
	for i := 0; i <= len(Sections()); i++ {
		if !tinySeen[i] {
			t.Errorf("no step of section %d was logged", i)
		}
	}
	rep, _ := os.ReadFile(filepath.Join(single, "REPORT.md"))
	// the timing table: a row per section, the rendering and the total
	for _, want := range []string{"| 1. Drop probability (Fig. 4) ", "| rendering (tables, figures) ", "| total "} {
		if !bytes.Contains(rep, []byte(want)) {
			t.Errorf("REPORT.md's timing table lacks %q", want)
		}
	}
	// One shard (a part holding every run) and three (uneven shares, the
	// middle one between two others); two shards, the even case that three
	// already crosses, were dropped to keep the suite within five minutes
	// (this test took 84 s of its 314 s on 2 idle cores, 2026-12-06).
	for _, M := range []int{1, 3} {
		t.Run(fmt.Sprint("M=", M), func(t *testing.T) {
			parts := filepath.Join(root, fmt.Sprint("parts", M))
			os.MkdirAll(parts, 0o755)
			for i := 1; i <= M; i++ {
				id := ShardID{Index: i, Count: M}
				// workers differ between shards: results do not depend on them
				if err := RunShard(ctx, filepath.Join(parts, PartFileName(id)), tiny(), id, Options{Workers: i}); err != nil {
					t.Fatal(err)
				}
			}
			files, err := PartFiles(parts)
			if err != nil || len(files) != M {
				t.Fatalf("%d part files, %v", len(files), err)
			}
			merged := filepath.Join(root, fmt.Sprint("merged", M))
			if err := Merge(ctx, merged, files, Options{Workers: 1}); err != nil {
				t.Fatal(err)
			}
			sameReport(t, single, merged)
			if b, _ := os.ReadFile(filepath.Join(merged, "REPORT.md")); !bytes.Contains(b, []byte(fmt.Sprintf("merged from %d array tasks", M))) {
				t.Error("the merged REPORT.md does not say it was merged")
			}
		})
	}
}

// TestMergeRefuses: a missing shard, a shard given twice, parts of another
// scale or seed and a file that is no part are refused before anything is
// written.
func TestMergeRefuses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs tiny report shards")
	}
	ctx := context.Background()
	root := t.TempDir()
	// The probes' scale of seconds on 40 nodes (as TestRunTiny's rerun):
	// what is refused does not depend on the scale.
	sc := tinyScale()
	sc.Nodes, sc.LossNs = 40, []int{40}
	part := func(name string, sc Scale, id ShardID) string {
		p := filepath.Join(root, name)
		if err := RunShard(ctx, p, sc, id, Options{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := part("a.gkpart", sc, ShardID{Index: 1, Count: 2})
	b := part("b.gkpart", sc, ShardID{Index: 2, Count: 2})
	other := sc
	other.Seed = 2
	c := part("c.gkpart", other, ShardID{Index: 2, Count: 2})
	d := part("d.gkpart", sc, ShardID{Index: 1, Count: 3})
	junk := filepath.Join(root, "junk.gkpart")
	os.WriteFile(junk, []byte("not gzip"), 0o644)
	// b as another build of the same version wrote it: its identity's
	// hash differs (a part of another build "that also says 0.1.0" was
	// merged silently).
	foreign := filepath.Join(root, "foreign.gkpart")
	{
		raw, err := shard.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := shard.Decompress(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(plain, &m); err != nil {
			t.Fatal(err)
		}
		m["gossipkit"] = json.RawMessage(`"0.1.0 sha256:0123456789abcdef"`)
		var out bytes.Buffer
		if err := shard.WriteJSON(&out, m); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(foreign, out.Bytes(), 0o644)
	}
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"missing", []string{a}, "1 of 2 shards missing: 2"},
		{"twice", []string{a, b, b}, "shard 2/2 is both"},
		{"seed", []string{a, c}, "different scales or seeds"},
		{"count", []string{a, d}, "one of 2 shards"},
		{"junk", []string{a, junk}, "not a gossipkit part file"},
		{"another build", []string{a, foreign}, "rerun the shard with this build"},
		{"none", nil, "no part files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(root, "out-"+tc.name)
			err := Merge(ctx, out, tc.files, Options{})
			var pe *PartError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a *PartError with %q", err, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("the output folder was created")
			}
		})
	}
	// The right parts' merge is TestShardMerge's (its work, the exact
	// sections and the operator table's refined watched runs, took 14 of
	// this test's 20 CPU-seconds).
}

// TestRunPrefix: a run's first rounds do not depend on how many follow,
// which section 6 relies on when it observes its runs only up to a
// horizon from the exact chain.
func TestRunPrefix(t *testing.T) {
	for _, model := range []sim.Model{sim.Protocol, sim.Markov} {
		for _, sched := range []sim.Schedule{sim.Rounds, sim.Continuous} {
			cfg := sim.DefaultConfig()
			cfg.Model, cfg.Schedule, cfg.Nodes, cfg.Warmup, cfg.Reps = model, sched, 60, 5, 3
			cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Shuffle.Exchange = 40, 10, 5
			run := func(rounds int) *sim.Result {
				c := cfg
				c.Rounds = rounds
				res, err := sim.Run(context.Background(), c, sim.Settings{Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			short, long := run(20), run(50)
			for i := range short.Reps {
				a, b := short.Reps[i], long.Reps[i]
				if !slices.Equal(a.X, b.X[:21]) || !slices.Equal(a.Y, b.Y[:21]) || !slices.Equal(a.YRound, b.YRound[:21]) {
					t.Errorf("%v, %v: replication %d's first 20 rounds differ between a 20- and a 50-round run", model, sched, i)
				}
			}
		}
	}
}
