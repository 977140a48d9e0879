package sim

import (
	"bytes"
	"context"
	"testing"
)

// FuzzReadPart: no bytes panic the part reader; whatever it accepts is
// internally consistent (the reader checks moments against trajectories).
func FuzzReadPart(f *testing.F) {
	cfg := small()
	cfg.Reps, cfg.Rounds = 2, 5
	res, err := Run(context.Background(), cfg, Settings{Workers: 1, Indices: []int{1}})
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePart(&b, res, ShardID{Index: 2, Count: 2}); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add(b.Bytes()[:b.Len()-8])
	// A lossy part: its config carries "loss" and its replications "alive".
	cfg.Loss, cfg.Nodes = 0.3, 10
	lossy, err := Run(context.Background(), cfg, Settings{Workers: 1, Indices: []int{1}})
	if err != nil {
		f.Fatal(err)
	}
	var lb bytes.Buffer
	if err := WritePart(&lb, lossy, ShardID{Index: 2, Count: 2}); err != nil {
		f.Fatal(err)
	}
	f.Add(lb.Bytes())
	f.Add([]byte("not a part"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := ReadPart(bytes.NewReader(raw))
		if err == nil && len(p.Reps) != len(p.Replications) {
			t.Fatal("accepted an inconsistent part")
		}
	})
}
