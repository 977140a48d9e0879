package tree

import (
	"bytes"
	"compress/gzip"
	"context"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/internal/shard"
)

// TestReadPartLimits: a part whose header declares 2 seeds (shard 1/2
// owns 1) and whose results are 10^6 empty objects (2 MB of JSON) is
// refused while it is counted, by the limits its header allows (64 + 5
// objects for one seed), and a valid part still reads.
func TestReadPartLimits(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Nodes = 30
	x := Experiment{Cfg: cfg, Seeds: 2, Seed: 1}
	id := ShardID{Index: 1, Count: 2}
	res, err := x.Run(context.Background(), Settings{Indices: x.Indices(&id)})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePart(&b, x, id, res); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPart(bytes.NewReader(b.Bytes())); err != nil {
		t.Fatalf("the valid part: %v", err)
	}
	plain, err := shard.Decompress(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	head, _, ok := bytes.Cut(plain, []byte(`"results":[`))
	if !ok {
		t.Fatal(`no "results" in the part`)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(head)
	zw.Write([]byte(`"results":[`))
	zw.Write(bytes.Repeat([]byte(`{},`), 1_000_000))
	zw.Write([]byte(`{}]}`))
	zw.Close()
	_, err = ReadPart(bytes.NewReader(gz.Bytes()))
	if err == nil || !strings.Contains(err.Error(), "more JSON objects than its header allows (69)") {
		t.Errorf("err = %v, want the header's limit of 69 objects", err)
	}
}
