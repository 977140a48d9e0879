package shard

import (
	"bytes"
	"testing"
)

// FuzzParse: no input panics; an accepted shard is valid.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1/3", "0/3", "4/3", "a/b", "1/1000001", "/", "", "3/3/3", "-1/-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if id, err := Parse(s); err == nil && !id.Valid() {
			t.Fatalf("%q accepted as %+v", s, id)
		}
	})
}

// FuzzReadFormat: no bytes panic the part-file envelope reader.
func FuzzReadFormat(f *testing.F) {
	var b bytes.Buffer
	WriteJSON(&b, map[string]any{"format": "gossipkit-sim-part", "version": 2})
	f.Add(b.Bytes())
	f.Add([]byte{})
	f.Add([]byte{0x1f, 0x8b})
	f.Add(b.Bytes()[:b.Len()/2])
	f.Fuzz(func(t *testing.T, raw []byte) {
		ReadFormat(raw)
	})
}
