package shard

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseAndIndices(t *testing.T) {
	id, err := Parse("2/3")
	if err != nil || id != (ID{Index: 2, Count: 3}) {
		t.Fatalf("%v %v", id, err)
	}
	// r mod 3 = 1 among 0..9.
	if got := id.Indices(10); !slices.Equal(got, []int{1, 4, 7}) {
		t.Errorf("Indices = %v", got)
	}
	for _, bad := range []string{"", "1", "0/3", "4/3", "1/0", "a/b", "1/1000001", "-1/2"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		vars  map[string]string
		count int
		want  *ID
		err   bool
	}{
		{map[string]string{}, 3, nil, false},
		{map[string]string{"JOB_COMPLETION_INDEX": "0"}, 3, &ID{1, 3}, false},
		{map[string]string{"JOB_COMPLETION_INDEX": "3"}, 3, nil, true},
		{map[string]string{"JOB_COMPLETION_INDEX": "x"}, 3, nil, true},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "4"}, 0, &ID{3, 4}, false},
		{map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "1"}, 2, &ID{2, 2}, false},
	} {
		t.Run(fmt.Sprint(tc.vars, tc.count), func(t *testing.T) {
			got, _, err := FromEnv(env(tc.vars), tc.count)
			if (err != nil) != tc.err || (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("%v: %v %v, want %v (error %v)", tc.vars, got, err, tc.want, tc.err)
			}
		})
	}
	if _, _, err := FromEnv(env(map[string]string{"JOB_COMPLETION_INDEX": "0"}), 0); !errors.Is(err, ErrNeedCount) {
		t.Errorf("no count: %v", err)
	}
}

func TestRangesAndMissing(t *testing.T) {
	if got := Ranges([]int{0, 1, 2, 3, 7, 9, 10}); got != "0-3, 7, 9-10" {
		t.Errorf("Ranges = %q", got)
	}
	for _, tc := range []struct {
		n    int
		have []int
		want Spans
		text string
	}{
		{5, []int{0, 2, 4}, Spans{{1, 1}, {3, 3}}, "1, 3"},
		{5, nil, Spans{{0, 4}}, "0-4"},
		{5, []int{0, 1, 2, 3, 4}, nil, ""},
		{10, []int{-1, 3, 3, 2, 9, 12}, Spans{{0, 2}, {4, 8}}, "0-2, 4-8"},
		{0, nil, nil, ""},
	} {
		got := Gaps(tc.n, slices.Values(tc.have))
		if !slices.Equal(got, tc.want) || got.String() != tc.text {
			t.Errorf("Gaps(%d, %v) = %v %q, want %v %q", tc.n, tc.have, got, got.String(), tc.want, tc.text)
		}
		if !slices.IsSorted(tc.have) {
			continue
		}
		k := 0
		for i := range tc.n {
			if got.Contains(i) == slices.Contains(tc.have, i) {
				t.Errorf("Gaps(%d, %v).Contains(%d) = %v", tc.n, tc.have, i, got.Contains(i))
			}
			if got.Contains(i) {
				k++
			}
		}
		if got.Len() != k {
			t.Errorf("Gaps(%d, %v).Len() = %d, want %d", tc.n, tc.have, got.Len(), k)
		}
	}
	// The spans are bounded by the indices held, not by n.
	if got := Gaps(1e7, slices.Values([]int{5})); len(got) != 2 || got.Len() != 1e7-1 {
		t.Errorf("Gaps(1e7, {5}) = %v (Len %d)", got, got.Len())
	}
}

func TestPartEnvelope(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, map[string]any{"format": "x", "v": 1}); err != nil {
		t.Fatal(err)
	}
	format, plain, err := ReadFormat(b.Bytes())
	if err != nil || format != "x" || !bytes.Contains(plain, []byte(`"v":1`)) {
		t.Fatalf("%q %q %v", format, plain, err)
	}
	raw := b.Bytes()
	for _, bad := range [][]byte{nil, []byte("not gzip"), raw[:len(raw)-3]} {
		if _, _, err := ReadFormat(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Decompress reads one bounded gzip member and nothing after it.
func TestDecompressRefuses(t *testing.T) {
	var one bytes.Buffer
	if err := WriteJSON(&one, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := Decompress(bytes.NewReader(one.Bytes())); err != nil {
		t.Fatalf("a valid member: %v", err)
	}
	two := append(append([]byte{}, one.Bytes()...), one.Bytes()...)
	trailing := append(append([]byte{}, one.Bytes()...), 'x')
	for name, raw := range map[string][]byte{"two members": two, "a trailing byte": trailing} {
		if _, err := Decompress(bytes.NewReader(raw)); err == nil || !strings.Contains(err.Error(), "after the end") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A bomb: 1 MiB of JSON (about 1 KiB compressed) against a 64 KiB limit.
	defer func(v int64) { maxPlain = v }(maxPlain)
	maxPlain = 64 << 10
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zw.Write([]byte(`{"format":"x","pad":"`))
	zw.Write(bytes.Repeat([]byte("a"), 1<<20))
	zw.Write([]byte(`"}`))
	zw.Close()
	if _, err := Decompress(bytes.NewReader(bomb.Bytes())); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("bomb: %v", err)
	}
}

// ReadFile refuses what is not a regular file instead of reading it forever.
// A FIFO with no writer is refused at once: a plain open blocks until a
// writer comes, which hung merge (the test runs ReadFile in a goroutine and
// fails after 10 s rather than hanging the suite).
func TestReadFileRefusesDevices(t *testing.T) {
	if _, err := ReadFile("/dev/zero"); err == nil {
		t.Error("/dev/zero was read")
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "zero.gkpart")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(link); err == nil {
		t.Error("a symbolic link to /dev/zero was read")
	}
	fifo := filepath.Join(dir, "fifo.gkpart")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadFile(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadFile on a FIFO with no writer still blocks after 10 s")
	}
}

// The zero ID and other invalid IDs own nothing and list nothing (they
// used to loop forever and divide by zero).
func TestInvalidIDOwnsNothing(t *testing.T) {
	for _, id := range []ID{{}, {Index: 0, Count: 3}, {Index: 4, Count: 3}, {Index: 1, Count: -1}} {
		if id.Indices(10) != nil || id.Owns(0) || id.Owns(3) {
			t.Errorf("%v: Indices %v", id, id.Indices(10))
		}
	}
	if got := (ID{1, 3}).Indices(-5); got != nil {
		t.Errorf("R = -5: %v", got)
	}
}
