package broadcast

import (
	"context"
	"io"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValuesWrite: Design.Write through internal/probe, as
// TestNastyValues does the other entry points: a nil or damaged design, a
// failing writer and a bad format are errors, never a panic.
func TestNastyValuesWrite(t *testing.T) {
	cfg := Config{Protocol: Push, Nodes: 50, Level: 1, Deadline: 10}
	d, err := Sweep(context.Background(), cfg, []int{2, 3}, []int{0}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Design.Write", (*Design).Write, probe.Settings{}, d, io.Discard, "markdown")
}
