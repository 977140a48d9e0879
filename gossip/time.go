package gossip

import (
	"fmt"

	"github.com/gossipkit/gossipkit/internal/enum"
)

// Time is the clock of a model: how the shuffles of a round follow each
// other. Every package that takes a Time documents which values it accepts
// and refuses the others with an error naming the field.
type Time int

const (
	// Continuous: every node initiates at rate 1, so shuffles come as a
	// Poisson process of rate N per round, each acting on the state it finds
	// (the continuous-time Markov chain; `sim --schedule continuous`).
	Continuous Time = iota
	// Shuffles: exactly N shuffles a round, one after another, each between a
	// uniform ordered pair of nodes (the per-shuffle chain).
	Shuffles
	// Synchronous: rounds in which every shuffle acts on the state at the
	// round's start (the discrete-time map of the mean field).
	Synchronous
)

var timeNames = enum.Names[Time]{"continuous", "shuffles", "synchronous"}

// String returns the name of the time model; it never panics.
func (t Time) String() string { return timeNames.Name(t) }

// Valid reports whether t is one of the time models above.
func (t Time) Valid() bool { return timeNames.Valid(t) }

// ParseTime parses a time model's name.
func ParseTime(s string) (Time, error) {
	t, err := timeNames.Parse("time model", s)
	if err != nil {
		return 0, fmt.Errorf("gossip: %w", err)
	}
	return t, nil
}
