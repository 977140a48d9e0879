package plan

import (
	"context"
	"io"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValuesWrite: the design writers (Design.Write,
// LossDesign.Write) through internal/probe, as TestNastyValues does the
// others: a nil or damaged design, a failing writer and a bad format are
// errors or empty designs, never a panic.
func TestNastyValuesWrite(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Nodes: 30, Shuffle: gossip.Shuffle{Items: 60, Cache: 10, Exchange: 3}, Level: 0.9, Deadline: 20, Loss: 0.1}
	var set probe.Settings
	d, err := Sweep(ctx, cfg, []int{2, 3}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Design.Write", (*Design).Write, set, d, io.Discard, "text")
	ld, err := LossSweep(ctx, cfg, []int{3}, []float64{0, 0.1}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "LossDesign.Write", (*LossDesign).Write, set, ld, io.Discard, "json")
}
