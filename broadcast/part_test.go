package broadcast

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/internal/shard"
)

// partRun is a small budgeted push run (T = ∞ and missed nodes occur) and
// its 3 shards written as part files in dir.
func partRun(t *testing.T, dir string) (*Sample, []string) {
	t.Helper()
	cfg := Config{Nodes: 60, Protocol: Push, Fanout: 2, Loss: 0.2, Failed: 0.1, Budget: 2, Level: 1, Deadline: 9}
	const R = 40
	full, err := Simulate(context.Background(), cfg, SimSettings{Reps: R, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for i := 1; i <= 3; i++ {
		id := ShardID{Index: i, Count: 3}
		s, err := Simulate(context.Background(), cfg, SimSettings{Reps: R, Seed: 11, Indices: id.Indices(R)})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WritePart(&b, s, id); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, shard.FileName(id))
		if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return full, files
}

// TestPartsMerge writes 3 shards' part files, reads them back and merges
// them in another order: the sample and its law (every bit of every
// float) are the single run's.
func TestPartsMerge(t *testing.T) {
	full, files := partRun(t, t.TempDir())
	var parts []*Part
	var names []string
	for _, i := range []int{2, 0, 1} {
		p, err := ReadPartFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
		names = append(names, filepath.Base(files[i]))
	}
	merged, missing, err := MergeParts(parts, names, false)
	if err != nil || len(missing) > 0 {
		t.Fatal(err, missing)
	}
	if a, b := fmt.Sprintf("%#v", *merged.Law()), fmt.Sprintf("%#v", *full.Law()); a != b {
		t.Errorf("merged law\n%s\nsingle run's\n%s", a, b)
	}
	never := 0
	for _, r := range merged.Reps {
		if r.T < 0 {
			never++
		}
	}
	if never == 0 {
		t.Error("no replication stopped short: the part's T = ∞ path is untested")
	}
	if _, _, err := MergeParts([]*Part{parts[0], parts[0]}, []string{"a", "b"}, true); err == nil || !strings.Contains(err.Error(), "in both a and b") {
		t.Errorf("duplicate part: %v", err)
	}
	if _, missing, err := MergeParts(parts[:2], names, false); err == nil || len(missing) == 0 {
		t.Errorf("missing part: %v", err)
	}
	other := *parts[1]
	other.Seed = "12"
	if _, _, err := MergeParts([]*Part{parts[0], &other}, names, true); err == nil {
		t.Error("parts of two seeds merged")
	}
	build := *parts[1]
	build.Build = "0.0.0 (elsewhere)"
	if _, _, err := MergeParts([]*Part{parts[0], &build}, names, true); !strings.Contains(fmt.Sprint(err), "different builds") {
		t.Errorf("parts of two builds: %v", err)
	}
}

// rewrite decompresses a part file, lets edit change its JSON object and
// compresses it again.
func rewrite(t *testing.T, raw []byte, edit func(map[string]any)) []byte {
	t.Helper()
	plain, err := shard.Decompress(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(plain, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	var b bytes.Buffer
	if err := shard.WriteJSON(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestHostileParts feeds ReadPartFile and ReadPart what a part file must
// not be, each refused with an error saying why: not a regular file, too
// large, not gzip, truncated, two parts concatenated, of another build,
// format or version, an unknown field, and values out of range.
func TestHostileParts(t *testing.T) {
	dir := t.TempDir()
	_, files := partRun(t, dir)
	good, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPart(bytes.NewReader(good)); err != nil {
		t.Fatalf("the good part: %v", err)
	}
	// Files.
	if _, err := ReadPartFile(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := ReadPartFile("/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("/dev/zero: %v", err)
		}
	}
	huge := filepath.Join(dir, "huge.gkpart")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, shard.MaxRaw+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	if _, err := ReadPartFile(huge); err == nil || !strings.Contains(err.Error(), "larger than any part file") {
		t.Errorf("oversized: %v", err)
	}
	// Contents.
	rows := []struct {
		name string
		raw  []byte
		want string
	}{
		{"not gzip", []byte(`{"format":"gossipkit-broadcast-part"}`), "not gzip"},
		{"truncated", good[:len(good)-9], "truncated"},
		{"concatenated", append(append([]byte{}, good...), good...), "after the end"},
		{"another build", rewrite(t, good, func(m map[string]any) { m["build"] = "0.0.1 (deadbeef)" }), "rerun the shard"},
		{"another format", rewrite(t, good, func(m map[string]any) { m["format"] = "gossipkit-sim-part" }), "format"},
		{"another version", rewrite(t, good, func(m map[string]any) { m["version"] = PartVersion + 1 }), fmt.Sprintf("version %d", PartVersion+1)},
		{"version 1", rewrite(t, good, func(m map[string]any) { m["version"] = 1 }), "version 1"}, // no w1_late, w1_miss
		{"no build", rewrite(t, good, func(m map[string]any) { delete(m, "build") }), "another build"},
		{"padded", rewrite(t, good, func(m map[string]any) { m["engine"] = strings.Repeat(" ", 800_000) }), "bytes of JSON"}, // beyond the bound with the curves (about 540 KB), refused while counted (partlimits.go)
		{"many objects", rewrite(t, good, func(m map[string]any) {
			r := m["replications"].([]any)
			for range 20 {
				r = append(r, map[string]any{})
			}
			m["replications"] = r
		}), "more JSON objects"},
		{"unknown field", rewrite(t, good, func(m map[string]any) { m["extra"] = 1 }), "unknown field"},
		{"bad config", rewrite(t, good, func(m map[string]any) { m["config"].(map[string]any)["fanout"] = 0 }), "Config.Fanout"},
		{"bad protocol", rewrite(t, good, func(m map[string]any) { m["config"].(map[string]any)["protocol"] = "shout" }), "protocol"},
		{"bad seed", rewrite(t, good, func(m map[string]any) { m["seed"] = "-1" }), "seed"},
		{"bad engine", rewrite(t, good, func(m map[string]any) { m["engine"] = "fast" }), "engine"},
		{"bad shard", rewrite(t, good, func(m map[string]any) { m["shard"] = map[string]any{"index": 4, "count": 3} }), "shard"},
		{"foreign replication", rewrite(t, good, func(m map[string]any) {
			m["replications"].([]any)[0].(map[string]any)["index"] = 1
		}), "does not belong"},
		{"replication past reps", rewrite(t, good, func(m map[string]any) { m["reps"] = 3 }), "corrupted part file"},
		{"unordered", rewrite(t, good, func(m map[string]any) {
			r := m["replications"].([]any)
			r[0], r[1] = r[1], r[0]
		}), "increasing"},
		{"negative messages", rewrite(t, good, func(m map[string]any) {
			m["replications"].([]any)[0].(map[string]any)["messages"] = -5
		}), "messages"},
		{"T below −1", rewrite(t, good, func(m map[string]any) { m["replications"].([]any)[0].(map[string]any)["t"] = -2 }), "T = -2"},
		{"missed too many", rewrite(t, good, func(m map[string]any) {
			m["replications"].([]any)[0].(map[string]any)["missed"] = 60
		}), "missed"},
		{"curves of other runs", rewrite(t, good, func(m map[string]any) { m["curves"].(map[string]any)["runs"] = 99 }), "curves of 99 watched runs"},
		{"curves' sum beyond the runs", rewrite(t, good, func(m map[string]any) {
			m["curves"].(map[string]any)["sums"].([]any)[0].([]any)[0] = "ffffffffffffffff.0.0.0.0"
		}), "a sum beyond"},
		{"curves' sum not hexadecimal", rewrite(t, good, func(m map[string]any) {
			m["curves"].(map[string]any)["sums"].([]any)[0].([]any)[0] = "1e3"
		}), "5 hexadecimal words"},
		{"no curves at level 1", rewrite(t, good, func(m map[string]any) { delete(m, "curves") }), "no curves"},
		{"curves' squares beyond the values", rewrite(t, good, func(m map[string]any) {
			sums := m["curves"].(map[string]any)["sums"].([]any)
			sums[0].([]any)[0], sums[1].([]any)[0] = "0.0.0.0.0", "0.1.0.0.0"
		}), "a sum of squares beyond"},
		// A law holds one entry a round up to its largest T_L: 2^26 here
		// cost 5.9 GB to merge (PartMaxT).
		{"T beyond the run's reach", rewrite(t, good, func(m map[string]any) {
			r := m["replications"].([]any)[0].(map[string]any)
			r["t"], r["messages"] = MaxLawRounds, 1<<40
		}), "beyond the 7168 a run of this configuration can reach (about 6.01 expected"},
		{"T beyond its messages", rewrite(t, good, func(m map[string]any) {
			r := m["replications"].([]any)[0].(map[string]any)
			r["t"], r["messages"] = 30, 29
		}), "T = 30 rounds with 29 messages"},
		{"never with level reached", rewrite(t, good, func(m map[string]any) {
			r := m["replications"].([]any)[0].(map[string]any)
			r["t"], r["missed"] = -1, 0
		}), "T = ∞"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			_, err := ReadPart(bytes.NewReader(row.raw))
			if err == nil || !strings.Contains(err.Error(), row.want) || !strings.HasPrefix(err.Error(), "broadcast: ") {
				t.Errorf("%v, want an error with %q", err, row.want)
			}
		})
	}
}

// TestPartMaxT: the replications of genuine runs, near total loss among
// them, keep within what a part may state (T_L ≤ PartMaxT, at least one
// message a round before T_L), for every protocol, with and without a
// budget, with both engines.
func TestPartMaxT(t *testing.T) {
	for _, cfg := range []Config{
		{Nodes: 60, Protocol: Push, Fanout: 2, Loss: 0.2, Failed: 0.1, Budget: 2, Level: 1},
		{Nodes: 50, Protocol: Push, Fanout: 1, Loss: 0.99, Level: 1},
		{Nodes: 50, Protocol: Pull, Fanout: 1, Loss: 0.9, Level: 1},
		{Nodes: 200, Protocol: PushPull, Fanout: 2, Loss: 0.5, Failed: 0.3, Level: 0.9},
		{Nodes: 30, Protocol: Push, Fanout: 3, Loss: 0.7, Budget: 3, Level: 1},
		{Nodes: 300, Protocol: Push, Fanout: 2, Loss: 0.3, Budget: 4, Level: 0.5},
		{Nodes: 2, Protocol: Pull, Fanout: 1, Loss: 0.99, Level: 1},
	} {
		cfg.Confidence = 0.95
		maxT := PartMaxT(cfg)
		for _, literal := range []bool{false, true} {
			s, err := Simulate(context.Background(), cfg, SimSettings{Reps: 200, Seed: 3, Literal: literal, SkipWatched: true})
			if err != nil {
				t.Fatalf("%+v: %v", cfg, err)
			}
			top := 0
			for _, r := range s.Reps {
				top = max(top, r.T)
				if r.T > maxT || int64(r.T) > r.Messages {
					t.Errorf("%+v literal %v: replication %d has T %d, %d messages (PartMaxT %d)", cfg, literal, r.Index, r.T, r.Messages, maxT)
				}
			}
			t.Logf("%v N %d k %d loss %g budget %d literal %v: largest T %d, MeanRounds %.3g, PartMaxT %d", cfg.Protocol, cfg.Nodes, cfg.Fanout, cfg.Loss, cfg.Budget, literal, top, MeanRounds(cfg), maxT)
		}
	}
}
