package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPartBombs: a part file is untrusted input, and its size on disk
// bounds what it may cost (shard.PlainPerRaw). For each part reader (merge
// of a sim, broadcast and tree part, reproduce --merge of a reproduction
// part), a part written by this build with 64 MiB of spaces inside its
// first array (valid JSON; 65 KiB of gzip, about 1000:1) is refused with
// exit 2 and one line naming the part file, nothing on stdout, no output
// file, and at most 16 MiB allocated by the whole command (it keeps the
// 65 KiB part, its flate and bufio buffers, its 64 KiB header prefix; 64
// MiB would mean the spaces were inflated into memory). Before the ratio
// bound, such parts with headers claiming large runs (10^6 replications of
// 100 rounds, 10^7 broadcasts, 10^6 seeds) and 1000 MiB of spaces cost
// 3.1–3.4 GB and 38–64 s each before their refusal.
func TestPartBombs(t *testing.T) {
	if testing.Short() {
		t.Skip("writes four parts and inflates four bombs")
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"sim", "-N", "100", "-n", "20", "-c", "5", "-s", "2", "--warmup", "5", "--rounds", "20", "--reps", "4", "--shard", "1/2", "-o", dir + "/sim/"},
		{"plan", "--protocol", "push", "-N", "1000", "--fanout", "2", "--method", "mc", "--reps", "40", "--shard", "1/2", "-o", dir + "/broadcast/"},
		{"tree", "build", "-N", "200", "--seeds", "4", "--shard", "1/2", "-o", dir + "/tree/"},
		{"reproduce", "--scale", "smoke", "--shard", "1/2", "-o", dir + "/report/"},
	} {
		expectOK(t, nil, args...)
	}
	// Claiming its own small run, a bomb is refused by its header's limits
	// or by the ratio, whichever comes first (want ""); claiming a run
	// whose part could hold 64 MiB (edit), only the ratio stops it.
	for _, tc := range []struct{ name, reader, array, edit, want string }{
		{"sim", "sim", "replications", "", ""},
		{"sim claiming 10^6 replications", "sim", "replications", `"reps":4,=>"reps":1000000,`, "decompression bomb"},
		{"broadcast", "broadcast", "replications", "", ""},
		{"broadcast claiming 10^7 replications", "broadcast", "replications", `"reps":40,=>"reps":10000000,`, "decompression bomb"},
		{"tree", "tree", "results", "", ""},
		{"tree claiming 10^6 seeds", "tree", "results", `"Seeds":4,=>"Seeds":1000000,`, "decompression bomb"},
		{"report", "report", "timing", "", "decompression bomb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(dir, tc.reader, "*.gkpart"))
			if len(files) != 1 {
				t.Fatalf("%d parts in %s, want 1", len(files), tc.reader)
			}
			bombDir := filepath.Join(t.TempDir(), "parts")
			os.Mkdir(bombDir, 0o755)
			bomb := filepath.Join(bombDir, filepath.Base(files[0]))
			size := writeBomb(t, files[0], bomb, tc.array, tc.edit, 64)
			out := filepath.Join(t.TempDir(), "out")
			args := []string{"merge", bomb, "-o", out}
			if tc.reader == "report" {
				args = []string{"reproduce", "--merge", bombDir, "--out", out}
			}
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			stdout, stderr, code := runCLI(t, nil, args...)
			runtime.ReadMemStats(&m1)
			alloc := m1.TotalAlloc - m0.TotalAlloc
			t.Logf("%d bytes on disk: exit %d, %d bytes allocated, %q", size, code, alloc, stderr)
			if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, bomb) {
				t.Errorf("exit %d, stdout %q, stderr %q: want exit 2 and one line naming %s (and %q)", code, stdout, stderr, bomb, tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s written (%v), want nothing", out, err)
			}
			if alloc > 16<<20 {
				t.Errorf("%d bytes allocated before the refusal, want ≤ 16 MiB", alloc)
			}
		})
	}
}

// writeBomb writes to dst the part src, its first OLD replaced by NEW
// where edit is "OLD=>NEW", with pad MiB of spaces after "array": (valid
// JSON: whitespace between tokens), gzipped at best compression a MiB at a
// time, and returns its size.
func writeBomb(t *testing.T, src, dst, array, edit string, pad int) int64 {
	t.Helper()
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if o, n, ok := strings.Cut(edit, "=>"); ok {
		if !bytes.Contains(plain, []byte(o)) {
			t.Fatalf("%s has no %s", src, o)
		}
		plain = bytes.Replace(plain, []byte(o), []byte(n), 1)
	}
	key := []byte(`"` + array + `":`)
	at := bytes.Index(plain, key)
	if at < 0 {
		t.Fatalf("%s has no %s", src, key)
	}
	at += len(key)
	f, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	zw.Write(plain[:at])
	spaces := bytes.Repeat([]byte(" "), 1<<20)
	for range pad {
		zw.Write(spaces)
	}
	zw.Write(plain[at:])
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestPartClaims: a part's header may claim a run far larger than what the
// part holds (10^7 replications for a part of a few hundred bytes on disk);
// merge then reports what is missing, or merges what is there with
// --allow-missing, at a cost bounded by what the part holds. Before the
// missing replications were held as spans (shard.Gaps), each took 8 bytes:
// a 550-byte broadcast part claiming 10^7 replications peaked at 94 MB
// resident (1.0 s) to say so, a 416-byte sim part likewise (94 MB); now
// 15 MB, the process's own. Allocation by the whole command, at most 16
// MiB (10^7 indices would be 80 MB).
func TestPartClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("writes three parts and merges each twice")
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"sim", "-N", "20", "-n", "5", "-c", "3", "-s", "2", "--warmup", "0", "--rounds", "1", "--reps", "4", "--shard", "1/1000", "-o", dir + "/sim/"},
		{"plan", "--protocol", "push", "-N", "100", "--fanout", "2", "--method", "mc", "--reps", "40", "--shard", "1/2", "-o", dir + "/broadcast/"},
		{"tree", "build", "-N", "200", "--seeds", "4", "--shard", "1/2", "-o", dir + "/tree/"},
	} {
		expectOK(t, nil, args...)
	}
	for _, tc := range []struct{ name, reader, edit, want string }{
		{"sim claiming 10^7 replications", "sim", `"reps":4,=>"reps":10000000,`, "9999999 of 10000000 replications missing: 1-9999999"},
		{"broadcast claiming 10^7 replications", "broadcast", `"reps":40,=>"reps":10000000,`, "9999980 of 10000000 replications missing: 1, 3, 5,"},
		{"tree claiming 10^6 seeds", "tree", `"Seeds":4,=>"Seeds":1000000,`, "999998 of 1000000 seeds missing: 1, 3-999999"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(dir, tc.reader, "*.gkpart"))
			if len(files) != 1 {
				t.Fatalf("%d parts in %s, want 1", len(files), tc.reader)
			}
			claim := filepath.Join(t.TempDir(), filepath.Base(files[0]))
			size := writeBomb(t, files[0], claim, "format", tc.edit, 0)
			for _, allow := range []bool{false, true} {
				out := filepath.Join(t.TempDir(), "out")
				args := []string{"merge", claim, "-o", out}
				if allow {
					args = append(args, "--allow-missing")
				}
				var m0, m1 runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&m0)
				stdout, stderr, code := runCLI(t, nil, args...)
				runtime.ReadMemStats(&m1)
				alloc := m1.TotalAlloc - m0.TotalAlloc
				t.Logf("%d bytes on disk, --allow-missing %v: exit %d, %d bytes allocated, %.200q", size, allow, code, alloc, stderr)
				wantCode := 2
				if allow {
					wantCode = 0
				}
				if code != wantCode || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
					t.Errorf("--allow-missing %v: exit %d, stdout %q, stderr %.300q: want exit %d and one line with %q", allow, code, stdout, stderr, wantCode, tc.want)
				}
				if _, err := os.Stat(out); allow == os.IsNotExist(err) {
					t.Errorf("--allow-missing %v: %s written: %v", allow, out, err == nil)
				}
				if alloc > 16<<20 {
					t.Errorf("--allow-missing %v: %d bytes allocated, want ≤ 16 MiB", allow, alloc)
				}
			}
		})
	}
}
