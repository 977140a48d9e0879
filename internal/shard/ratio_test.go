package shard

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// bomb is a part of a format whose header allows a TiB: a valid header,
// then pad MiB of spaces inside its array (valid JSON), gzipped at best
// compression, written a MiB at a time so that the test never holds the
// plain part.
func bomb(t *testing.T, format string, padMiB int) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	fmt.Fprintf(zw, `{"format":%q,"items":[`, format)
	spaces := bytes.Repeat([]byte(" "), 1<<20)
	for range padMiB {
		zw.Write(spaces)
	}
	zw.Write([]byte("]}"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRatioBomb: a part whose header allows far more than its size on
// disk (here a TiB, as a hostile header claiming a huge run would) and
// that inflates 1000:1 — 64 MiB of spaces in 65 KiB of gzip — is refused
// by Decompress and Stream once its plain bytes pass MaxRatio of the
// compressed bytes read, with at most a few MiB allocated (the 65 KiB
// kept, the bufio and flate buffers, the 64 KiB header prefix: 2 MiB is
// 20 times those), never the 64 MiB; the header's own limits would have
// let it through. The same part made of a tenth of the spaces and
// compressed as WriteJSON compresses is accepted, so the refusal is the
// ratio's.
func TestRatioBomb(t *testing.T) {
	const format = "gossipkit-test-ratio"
	RegisterLimits(format, func([]byte) (Limits, error) { return Limits{Bytes: 1 << 40, Objects: 1 << 40}, nil })
	raw := bomb(t, format, 64)
	t.Logf("bomb: 64 MiB of spaces, %d bytes of gzip (%.0f:1)", len(raw), float64(64<<20)/float64(len(raw)))
	for _, tc := range []struct {
		name string
		read func([]byte) error
	}{
		{"Decompress", func(raw []byte) error { _, err := Decompress(bytes.NewReader(raw)); return err }},
		{"Stream", func(raw []byte) error { _, err := Stream(raw); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			err := tc.read(raw)
			runtime.ReadMemStats(&m1)
			if err == nil || !strings.Contains(err.Error(), "decompression bomb") {
				t.Fatalf("%s = %v, want the ratio's refusal", tc.name, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("the refusal %q spans lines, want one", err)
			}
			alloc := m1.TotalAlloc - m0.TotalAlloc
			t.Logf("%s: %v; %d bytes allocated", tc.name, err, alloc)
			if alloc > 2<<20 {
				t.Errorf("%s allocated %d bytes before refusing, want ≤ 2 MiB", tc.name, alloc)
			}
		})
	}
	// The plain bytes counted when it stops: at most MaxRatio of what was
	// read, plus the 32 KiB io.Copy writes at a time.
	cnt := &counter{lim: &Limits{}}
	rd := bytes.NewReader(raw)
	cnt.raw = func() int64 { return rd.Size() - int64(rd.Len()) }
	if err := member(bufioReader(rd), cnt, true); err == nil {
		t.Fatal("member accepted the bomb")
	}
	if limit := MaxRatio(int64(len(raw))) + 32<<10; cnt.n > limit {
		t.Errorf("counted %d plain bytes before refusing, want ≤ MaxRatio(%d) + 32 KiB = %d", cnt.n, len(raw), limit)
	}
	small := bomb(t, format, 0)
	plain, err := Decompress(bytes.NewReader(small))
	if err != nil {
		t.Fatal(err)
	}
	spaced := append(plain[:len(plain)-2:len(plain)-2], append(bytes.Repeat([]byte(" "), 6<<20), "]}"...)...)
	z, err := compress(func(w io.Writer) error { _, err := w.Write(spaced); return err })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decompress(bytes.NewReader(z)); err != nil {
		t.Errorf("6 MiB of spaces as WriteJSON compresses them (%d bytes): %v, want accepted", len(z), err)
	}
}

// TestWriteJSONWithinRatio: a part that deflate would compress 1000:1 (a
// trajectory stuck at one value) is written with Huffman coding alone,
// within MaxRatio at every point (Decompress accepts it and returns it
// whole), and is at most 8 times smaller than its JSON plus a block
// header each 64 KiB (Huffman spends a bit a byte at least); a part of
// ordinary entropy (random counts) keeps best compression, byte for byte
// what gzip.BestCompression writes.
func TestWriteJSONWithinRatio(t *testing.T) {
	stuck := make([]int32, 2_000_000)
	for i := range stuck {
		stuck[i] = 2500
	}
	r := rand.New(rand.NewPCG(1, 2))
	noisy := make([]int32, 200_000)
	for i := range noisy {
		noisy[i] = r.Int32N(100_000)
	}
	for _, tc := range []struct {
		name string
		v    any
		best bool // written at best compression
	}{
		{"stuck", map[string]any{"format": "x", "y": stuck}, false},
		{"noisy", map[string]any{"format": "x", "y": noisy}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := WriteJSON(&out, tc.v); err != nil {
				t.Fatal(err)
			}
			plain, err := Decompress(bytes.NewReader(out.Bytes()))
			if err != nil {
				t.Fatalf("Decompress of what WriteJSON wrote: %v", err)
			}
			ratio := float64(len(plain)) / float64(out.Len())
			t.Logf("%d bytes of JSON in %d of gzip (%.1f:1)", len(plain), out.Len(), ratio)
			if int64(len(plain)) > MaxRatio(int64(out.Len())) {
				t.Errorf("%d bytes of JSON from %d: beyond MaxRatio", len(plain), out.Len())
			}
			var best bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&best, gzip.BestCompression)
			zw.Write(plain)
			zw.Close()
			if got := bytes.Equal(out.Bytes(), best.Bytes()); got != tc.best {
				t.Errorf("written at best compression: %v, want %v (best compression: %d bytes, %.0f:1)", got, tc.best, best.Len(), float64(len(plain))/float64(best.Len()))
			}
			if !tc.best && ratio > 8.1 {
				t.Errorf("Huffman coding alone at %.1f:1, want ≤ 8:1 and a little for the block headers", ratio)
			}
		})
	}
}

func bufioReader(r *bytes.Reader) *bufio.Reader { return bufio.NewReaderSize(r, 32<<10) }

// TestWriteJSONArray: the part written an element at a time is byte for
// byte the one WriteJSON writes with the array in place (gzip's output is
// a function of the bytes written, whatever their chunks), for several
// elements and for none; a value whose last field is not the array is
// refused.
func TestWriteJSONArray(t *testing.T) {
	type elem struct {
		I int    `json:"i"`
		S string `json:"s"`
	}
	type part struct {
		Format string `json:"format"`
		Items  []elem `json:"items"`
	}
	for _, n := range []int{0, 1, 3, 1000} {
		items := make([]elem, n)
		for i := range items {
			items[i] = elem{i, strings.Repeat("<&>", i%5)}
		}
		var whole, streamed bytes.Buffer
		if err := WriteJSON(&whole, part{"x", items}); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSONArray(&streamed, part{Format: "x"}, "items", n, func(i int) any { return items[i] }); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			// WriteJSON of an empty, non-nil slice: [].
			whole.Reset()
			WriteJSON(&whole, part{"x", []elem{}})
		}
		if !bytes.Equal(whole.Bytes(), streamed.Bytes()) {
			a, _ := Decompress(bytes.NewReader(whole.Bytes()))
			b, _ := Decompress(bytes.NewReader(streamed.Bytes()))
			t.Errorf("n = %d: streamed part differs:\n%.200s\n%.200s", n, a, b)
		}
	}
	if err := WriteJSONArray(io.Discard, map[string]int{"a": 1}, "items", 0, nil); err == nil {
		t.Error("a value without the array last: accepted, want an error")
	}
}
