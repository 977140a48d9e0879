package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestStream: Stream refuses what Decompress refuses (not gzip, zeros, a
// second member, a count beyond the format's limits) and otherwise gives
// back the plain JSON byte for byte.
func TestStream(t *testing.T) {
	const format = "gossipkit-test-stream"
	RegisterLimits(format, func(header []byte) (Limits, error) {
		var h struct{ N int64 }
		if err := json.Unmarshal(header, &h); err != nil {
			return Limits{}, err
		}
		return Limits{Bytes: 100 + 3*h.N, Objects: h.N + 1}, nil
	})
	part := func(n, items int) []byte {
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"format":%q,"n":%d,"items":[`, format, n)
		for i := range items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("{}")
		}
		b.WriteString("]}")
		return b.Bytes()
	}
	ok := part(10, 10)
	for _, tc := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"within", gz(t, ok), ""},
		{"objects beyond the declared count", gz(t, part(10, 1_000_000)), "more"},
		{"gzipped zeros", gz(t, make([]byte, 1<<20)), "not an object"},
		{"not gzip", []byte("plain text"), "not gzip"},
		{"two members", append(gz(t, ok), gz(t, ok)...), "data after the end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Stream(tc.raw)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("Stream = %v, want an error containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, ok) {
				t.Errorf("Stream gave %q, %v; want %q", got, err, ok)
			}
		})
	}
	// CheckLimits applies the same limits to a part held in another.
	if err := CheckLimits(ok); err != nil {
		t.Errorf("CheckLimits(within) = %v", err)
	}
	if err := CheckLimits(part(10, 11)); err == nil {
		t.Error("CheckLimits: 11 objects where the header allows 10 + 1: no error")
	}
	if err := CheckLimits([]byte(`"    "`)); err == nil {
		t.Error("CheckLimits of a string: no error")
	}
	if err := CheckLimits([]byte(`{"format":"no-limits"}`)); err != nil {
		t.Errorf("CheckLimits of a format without limits = %v", err)
	}
}

// TestCapReader: reads stop with Err after Left bytes, and go on once Left
// is set again.
func TestCapReader(t *testing.T) {
	stop := errors.New("stop")
	c := &CapReader{R: strings.NewReader(strings.Repeat("x", 100)), Left: 30, Err: stop}
	b, err := io.ReadAll(c)
	if len(b) != 30 || err != stop {
		t.Errorf("read %d bytes, error %v; want 30 and stop", len(b), err)
	}
	c.Left = 1000
	if b, err = io.ReadAll(c); len(b) != 70 || err != nil {
		t.Errorf("after Left = 1000: read %d bytes, error %v; want the other 70", len(b), err)
	}
}
