package report

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/internal/buildinfo"
)

// TestReportPartRunBounded: one run entry of a reproduction part is
// bounded while it is read (runReader), not after it is held whole. Each
// crafted part holds 16 MiB of spaces in one run, written by Huffman
// coding alone (2 MB on disk: at best compression, 16 KB, the ratio bound
// shard.PlainPerRaw would refuse it before the run's bound is reached):
// inside a small sim part, after its header (which allows some 45 KB), and
// between the run's "section" and its "part". Before, json.Decoder held
// the run whole, at least its 16 MiB (the 1000 MiB took 3.1 GB and
// 42 s); now each is refused with a *PartError naming the file after
// allocating at most 16 MB, read from runtime.MemStats.TotalAlloc (bytes
// allocated, not a time: the decompression's count of the part's plain
// bytes, shard.Stream, allocates little). The same run without the spaces
// is accepted (the bound does not refuse what our writer writes).
func TestReportPartRunBounded(t *testing.T) {
	dir := t.TempDir()
	id := buildinfo.Identity()
	head := fmt.Sprintf(`{"format":%q,"version":%d,"gossipkit":%q,"scale":{},"shard":{"index":1,"count":1},"timing":[],"runs":[`, ReportPartFormat, ReportPartVersion, id)
	simPlain, i := smallSimPart(t)
	const spaces = 16 << 20
	write := func(name string, parts ...any) string {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.HuffmanOnly)
		blank := bytes.Repeat([]byte(" "), 1<<20)
		for _, p := range parts {
			switch p := p.(type) {
			case []byte:
				zw.Write(p)
			case string:
				zw.Write([]byte(p))
			case int: // that many bytes of spaces
				for range p >> 20 {
					zw.Write(blank)
				}
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, name+".gkpart")
		if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	run := `{"section":1,"kind":"sim","part":`
	for _, tc := range []struct {
		name string
		file string
		want string // "" for a part readParts accepts
	}{
		{"spaces inside the run's part", write("inside", head, run, simPlain[:i], spaces, simPlain[i:], "}]}"), "simulation 1: corrupted part file: more bytes of JSON than its header allows"},
		{"spaces before the run's part", write("before", head, `{"section":1,`, spaces, `"kind":"sim","part":`, simPlain, "}]}"), "simulation 1: its part does not begin within its first 4096 bytes"},
		{"the same run without them", write("plain", head, run, simPlain, "}]}"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := os.Stat(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			t0 := time.Now()
			_, _, err = readParts([]string{tc.file})
			wall := time.Since(t0)
			runtime.ReadMemStats(&m1)
			alloc := m1.TotalAlloc - m0.TotalAlloc
			t.Logf("%d bytes on disk: %v, %.1f MB allocated, %v", st.Size(), err, float64(alloc)/(1<<20), wall.Round(time.Millisecond))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("readParts: %v", err)
				}
				return
			}
			var pe *PartError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.file) {
				t.Fatalf("readParts = %v, want a *PartError naming the file with %q", err, tc.want)
			}
			if alloc > 16<<20 {
				t.Errorf("allocated %.1f MB, want ≤ 16 MB (the run's %d MiB of spaces are not held)", float64(alloc)/(1<<20), spaces>>20)
			}
		})
	}
}
