package broadcast

import (
	"context"
	"fmt"

	"github.com/gossipkit/gossipkit/gossip"
)

// SimSettings are the Monte Carlo's knobs (zero value: documented
// defaults).
type SimSettings struct {
	Reps     int
	Seed     uint64
	Workers  int
	Progress gossip.Progress
}

// Sample is the outcome of Simulate. (To be written.)
type Sample struct{}

// Law is the sample's law of T_L.
func (s *Sample) Law() *Law { return &Law{} }

// Simulate runs the protocol node by node. (To be written.)
func Simulate(ctx context.Context, cfg Config, set SimSettings) (*Sample, error) {
	return nil, fmt.Errorf("broadcast: monte carlo: %w", ErrNotCovered)
}
