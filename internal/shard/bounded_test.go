package shard

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// zeros is /dev/zero as a reader: endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func gz(t *testing.T, parts ...[]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	for _, p := range parts {
		if _, err := zw.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDecompressReadsNoMoreThanItNeeds: what is not a part is refused
// after its first bytes, not after MaxRaw of input or MaxPlain of output.
// The bound on the input read is the 32 KiB read buffer (the gzip header
// is refused in the first read); on the output, the plain prefix of
// HeaderBytes (64 KiB) and gzip's 32 KiB window.
func TestDecompressReadsNoMoreThanItNeeds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		r       io.Reader
		want    string
		maxRead int64
	}{
		{"endless zeros (/dev/zero)", zeros{}, "not gzip", 32 << 10},
		{"endless text", strings.NewReader(strings.Repeat("not gzip ", 1<<20)), "not gzip", 32 << 10},
		// 1 GiB of zeros gzipped (1 MiB here; the refusal comes at the
		// first plain byte, so the size does not matter).
		{"gzipped zeros", bytes.NewReader(gz(t, make([]byte, 64<<20))), "not an object", 1 << 20},
		{"gzipped spaces", bytes.NewReader(gz(t, bytes.Repeat([]byte(" "), 64<<20))), "not an object", 1 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cr := &countingReader{r: tc.r}
			_, err := Decompress(cr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Decompress = %v, want an error containing %q", err, tc.want)
			}
			if cr.n > tc.maxRead {
				t.Errorf("read %d bytes before refusing, want ≤ %d", cr.n, tc.maxRead)
			}
		})
	}
}

// TestDecompressLimits: the limits a format registers bound the count of
// plain bytes and objects before anything of that size is allocated.
func TestDecompressLimits(t *testing.T) {
	const format = "gossipkit-test-limits"
	RegisterLimits(format, func(header []byte) (Limits, error) {
		var h struct{ N, Slack int64 }
		if err := json.Unmarshal(header, &h); err != nil {
			return Limits{}, err
		}
		if h.N < 0 {
			return Limits{}, fmt.Errorf("n = %d: refused by the header", h.N)
		}
		// {"format":…,"n":N,"slack":S,"pad":…,"items":[{},…]}: N objects
		// of 3 bytes, the part's own object, 100 bytes and the slack S for
		// the rest.
		return Limits{Bytes: 100 + 3*h.N + h.Slack, Objects: h.N + 1}, nil
	})
	part := func(n, slack, items, pad int) []byte {
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"format":%q,"n":%d,"slack":%d,"pad":"%s","items":[`, format, n, slack, strings.Repeat("p", pad))
		for i := range items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("{}")
		}
		b.WriteString("]}")
		return b.Bytes()
	}
	for _, tc := range []struct {
		name  string
		plain []byte
		want  string
	}{
		{"within", part(10, 0, 10, 0), ""},
		{"a long header, within", part(100_000, HeaderBytes, 100_000, HeaderBytes-200), ""},
		{"objects beyond the declared count", part(10, 10<<20, 1_000_000, 0), "more JSON objects than its header allows (11)"},
		{"bytes beyond", part(10, 0, 10, 1000), "more bytes of JSON than its header allows (130)"},
		{"refused by the header", part(-1, 0, 0, 0), "n = -1: refused by the header"},
		// The pad cut by HeaderBytes: the header holds n and slack.
		{"header beyond the prefix", part(10, 0, 10, 2*HeaderBytes), "more bytes of JSON than its header allows (130)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// As WriteJSON compresses a part: these parts of runs of one
			// value would compress 700:1 at best compression.
			z, err := compress(func(w io.Writer) error { _, err := w.Write(tc.plain); return err })
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decompress(bytes.NewReader(z))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Decompress: %v", err)
			case tc.want == "" && !bytes.Equal(got, tc.plain):
				t.Errorf("Decompress returned %d bytes, want the %d written", len(got), len(tc.plain))
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Decompress = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestHeaderOf(t *testing.T) {
	for _, tc := range []struct {
		prefix, format, header string
		err                    bool
	}{
		{`{"format":"f","version":3,"config":{"N":5,"list":[1,2]},"reps":[{"x":1}],"shard":{"index":1}}`, "f", `{"format":"f","version":3,"config":{"N":5,"list":[1,2]},"shard":{"index":1}}`, false},
		{`{"reps":[{"x":1}],"format":"f","cut":[1,2`, "f", `{"format":"f"}`, false},
		{`{"a":1,"format":"g","b":"cut`, "g", `{"a":1,"format":"g"}`, false},
		{` {"format": "h" , "x" : [1]`, "h", `{"format":"h"}`, false},
		{`{}`, "", `{}`, false},
		{`[1,2]`, "", "", true},
		{"\x00\x00", "", "", true},
		{``, "", "", true},
	} {
		format, header, err := HeaderOf([]byte(tc.prefix))
		if (err != nil) != tc.err || format != tc.format || string(header) != tc.header {
			t.Errorf("HeaderOf(%q) = %q, %s, %v; want %q, %s, error %v", tc.prefix, format, header, err, tc.format, tc.header, tc.err)
		}
	}
}
