package tree

import (
	"bytes"
	"context"
	"testing"
)

// FuzzReadPart: no bytes panic the tree part reader.
func FuzzReadPart(f *testing.F) {
	cfg := DefaultConfig()
	cfg.Nodes = 30
	x := Experiment{Cfg: cfg, Seeds: 2, Seed: 1}
	id := ShardID{Index: 1, Count: 2}
	res, err := x.Run(context.Background(), Settings{Indices: x.Indices(&id)})
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePart(&b, x, id, res); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add(b.Bytes()[:b.Len()/2])
	f.Add([]byte{0x1f, 0x8b, 0x08})
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := ReadPart(bytes.NewReader(raw))
		if err == nil && !p.Shard.Valid() {
			t.Fatal("accepted an invalid shard")
		}
	})
}
