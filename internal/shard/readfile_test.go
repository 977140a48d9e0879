package shard

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReadFileBounded: ReadFile refuses a file that is not gzip after its
// first two bytes, not after reading it whole (64 MiB of zeros allocated
// ≥ 64 MiB before, 911 MB of peak memory for 400 MB through the CLI), and
// reads a part into one buffer of its size (io.ReadAll's doubling
// allocated about twice the file). The allocations are read from
// runtime.MemStats.TotalAlloc (bytes, not a time).
func TestReadFileBounded(t *testing.T) {
	dir := t.TempDir()
	zeros := filepath.Join(dir, "zeros.gkpart")
	if err := os.WriteFile(zeros, make([]byte, 64<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	// 4 MiB of random bytes gzipped: incompressible, a 4 MiB file.
	noise := make([]byte, 4<<20)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	part := filepath.Join(dir, "noise.gkpart")
	if err := os.WriteFile(part, gz(t, noise), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(part)
	alloc := func(f func()) uint64 {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		f()
		runtime.ReadMemStats(&m1)
		return m1.TotalAlloc - m0.TotalAlloc
	}
	var err error
	a := alloc(func() { _, err = ReadFile(zeros) })
	if err == nil || !strings.Contains(err.Error(), "not gzip") {
		t.Errorf("ReadFile(64 MiB of zeros) = %v, want a refusal as not gzip", err)
	}
	if a > 64<<10 {
		t.Errorf("ReadFile(64 MiB of zeros) allocated %d bytes, want ≤ 64 KiB", a)
	}
	var got []byte
	a = alloc(func() { got, err = ReadFile(part) })
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := os.ReadFile(part); !bytes.Equal(got, want) {
		t.Errorf("ReadFile returned %d bytes, want the file's %d", len(got), len(want))
	}
	t.Logf("a %d-byte part: %d bytes allocated", st.Size(), a)
	if limit := uint64(st.Size()) + 64<<10; a > limit {
		t.Errorf("ReadFile of a %d-byte part allocated %d bytes, want ≤ its size + 64 KiB", st.Size(), a)
	}
}
