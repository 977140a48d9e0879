package report

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/internal/buildinfo"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/report/part"
	"github.com/gossipkit/gossipkit/sim"
)

// writeGz writes plain, gzipped, to a part file in dir, by Huffman coding
// alone (at most 8:1), as shard.WriteJSON writes a part that would
// otherwise inflate past shard.PlainPerRaw: the hostile parts below are
// runs of one value, which deflate would shrink 1000:1 and which the ratio
// bound would then refuse before the bound each case tests.
func writeGz(t *testing.T, dir, name string, plain ...[]byte) string {
	t.Helper()
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.HuffmanOnly)
	for _, p := range plain {
		zw.Write(p)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReportPartHostile: crafted reproduction parts are refused before
// what they declare is allocated, each with a *PartError naming the file:
// a timing array of 3·10⁶ empty entries (9 MB of JSON in a file of 9 KB;
// decoded whole it took 48 bytes an entry, ≥ 144 MB: the 3·10⁸
// took 13.5 GB), more simulations than a reproduction runs, a run whose
// sim part holds more than its own header allows (sim's limits, as a
// sim part file gets), another build (refused at its header, before the
// rest is read). The allocation is read from runtime.MemStats.TotalAlloc
// (bytes allocated, not a time): at most 32 MB for the timing part, a
// fifth of what the entries alone would take.
func TestReportPartHostile(t *testing.T) {
	dir := t.TempDir()
	id := buildinfo.Identity()
	head := fmt.Sprintf(`{"format":%q,"version":%d,"gossipkit":%q,"scale":{},"shard":{"index":1,"count":1},`, ReportPartFormat, ReportPartVersion, id)
	// A real sim part of 4 replications of 10 rounds, then the same with
	// its replications' trajectories padded past its limits.
	simPlain, i := smallSimPart(t)
	fat := append(append(append([]byte{}, simPlain[:i]...), bytes.Repeat([]byte(`{"x":[0],"y":[0]},`), 200_000)...), simPlain[i:]...)

	timing := []byte(strings.Repeat("{},", 3_000_000) + "{}")
	runs := []byte(strings.Repeat(`{"section":1,"kind":"sim","part":{}},`, part.MaxRuns) + `{"section":1,"kind":"sim","part":{}}`)
	for _, tc := range []struct {
		name  string
		plain [][]byte
		want  string
		alloc uint64 // bytes allocated at most (0: not checked)
	}{
		{"timing", [][]byte{[]byte(head + `"timing":[`), timing, []byte(`],"runs":[]}`)}, "more entries than the report has sections", 32 << 20},
		{"runs", [][]byte{[]byte(head + `"timing":[],"runs":[`), runs, []byte(`]}`)}, fmt.Sprintf("more than %d simulations", part.MaxRuns), 0},
		{"a run beyond its sim limits", [][]byte{[]byte(head + `"timing":[],"runs":[{"section":1,"kind":"sim","part":`), fat, []byte(`}]}`)}, "simulation 1: corrupted part file", 0},
		{"the same run within them", [][]byte{[]byte(head + `"timing":[],"runs":[{"section":1,"kind":"sim","part":`), simPlain, []byte(`}]}`)}, "", 0},
		{"a scale too large", [][]byte{[]byte(strings.Replace(head, `"scale":{}`, `"scale":{"Name":"`+strings.Repeat(" ", 2<<20)+`"}`, 1) + `"timing":[],"runs":[]}`)}, "larger than a reproduction part holds", 0},
		{"another build", [][]byte{[]byte(strings.Replace(head, id, "0.1.0 sha256:0123456789abcdef", 1) + `"timing":[],"runs":[]}`)}, "rerun the shard with this build", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := writeGz(t, dir, strings.ReplaceAll(tc.name, " ", "_")+".gkpart", tc.plain...)
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			_, _, err := readParts([]string{f})
			runtime.ReadMemStats(&m1)
			if tc.want == "" {
				// A valid part of a scale of one shard: readParts accepts it.
				if err != nil {
					t.Fatalf("readParts: %v", err)
				}
				return
			}
			var pe *PartError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), f) {
				t.Fatalf("readParts = %v, want a *PartError naming the file with %q", err, tc.want)
			}
			if a := m1.TotalAlloc - m0.TotalAlloc; tc.alloc > 0 && a > tc.alloc {
				t.Errorf("allocated %d MB, want ≤ %d MB", a>>20, tc.alloc>>20)
			}
		})
	}
}

// smallSimPart is a real sim part of 4 Markov replications of 10 rounds
// at N = 20, uncompressed and trimmed, and the offset just inside its
// "reps" array, where the hostile-part tests splice their padding.
func smallSimPart(t *testing.T) (plain []byte, reps int) {
	t.Helper()
	res, err := sim.Run(context.Background(), sim.Config{Model: sim.Markov, Nodes: 20, Shuffle: sim.DefaultConfig().Shuffle, Rounds: 10, Reps: 4, Seed: 1, Initial: 1}, sim.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	var sp bytes.Buffer
	if err := sim.WritePart(&sp, res, ShardID{Index: 1, Count: 1}); err != nil {
		t.Fatal(err)
	}
	plain, err = shard.Decompress(&sp)
	if err != nil {
		t.Fatal(err)
	}
	plain = bytes.TrimSpace(plain)
	i := bytes.Index(plain, []byte(`"reps":[`))
	if i < 0 {
		t.Fatal("the sim part has no reps array")
	}
	return plain, i + len(`"reps":[`)
}
