package sim

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/internal/shard"
)

// A part file is untrusted input. Each case rewrites a valid part's JSON
// (one field, or the replications replaced by a flood of empty objects)
// and must be refused by the header check, naming why, before the
// replications are decoded.
func TestReadPartRefusesHostileParts(t *testing.T) {
	cfg := small()
	cfg.Reps, cfg.Rounds = 4, 5
	res, err := Run(context.Background(), cfg, Settings{Workers: 1, Indices: []int{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WritePart(&buf, res, ShardID{Index: 2, Count: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPart(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatalf("the valid part: %v", err)
	}
	plain, err := shard.Decompress(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	rewrite := func(edit func(m map[string]json.RawMessage)) []byte {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(plain, &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		var out bytes.Buffer
		if err := shard.WriteJSON(&out, m); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	// Within the size its shard allows, but far more objects than it holds
	// (a few MB of gzip spell 10^8 of them).
	flood := "[" + strings.Repeat("{},", 1000) + "{}]"
	for _, tc := range []struct {
		name, want string
		edit       func(m map[string]json.RawMessage)
	}{
		{"another build", "another build", func(m map[string]json.RawMessage) { m["build"] = json.RawMessage(`"0.1.0 sha256:0123456789abcdef"`) }},
		{"no build", "another build", func(m map[string]json.RawMessage) { delete(m, "build") }},
		{"version 2", "version 2", func(m map[string]json.RawMessage) { m["version"] = json.RawMessage(`2`) }},
		{"a flood of empty objects", "more JSON objects", func(m map[string]json.RawMessage) { m["reps"] = json.RawMessage(flood) }},
		{"too large for its shard", "more than its shard can hold", func(m map[string]json.RawMessage) {
			m["padding"] = json.RawMessage(`"` + strings.Repeat("x", 100_000) + `"`)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadPart(bytes.NewReader(rewrite(tc.edit)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestReadPartFloodBeforeAllocation: a part whose header is valid and
// whose replications are 3·10^7 empty objects (90 MB of JSON, 90 kB of
// gzip) is refused while shard.Decompress counts it, by the limits its
// header allows (partBounds: 2 replications of 6 rounds and 3·6 moments:
// 24 objects, 8844 bytes), before the 90 MB are held: the run allocates less than 16 MiB in all
// (the gzip reader's window and buffers, the header's 64 KiB), where
// holding the plain JSON alone would take 90 MB.
func TestReadPartFloodBeforeAllocation(t *testing.T) {
	cfg := small()
	cfg.Reps, cfg.Rounds = 4, 5
	res, err := Run(context.Background(), cfg, Settings{Workers: 1, Indices: []int{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WritePart(&buf, res, ShardID{Index: 2, Count: 2}); err != nil {
		t.Fatal(err)
	}
	plain, err := shard.Decompress(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	// The valid part's text up to its replications, then the flood.
	head, _, ok := bytes.Cut(plain, []byte(`"reps":[`))
	if !ok {
		t.Fatal(`no "reps" in the part`)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(head)
	zw.Write([]byte(`"reps":[`))
	chunk := bytes.Repeat([]byte("{},"), 1<<20)
	for range 30 {
		zw.Write(chunk)
	}
	zw.Write([]byte("{}]}"))
	zw.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = ReadPart(bytes.NewReader(gz.Bytes()))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "than its header allows") {
		t.Errorf("err = %v, want the header's limit", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("allocated %.1f MiB before refusing, want < 16 MiB", float64(alloc)/(1<<20))
	}
}
