package exact

import (
	"context"
	"math/big"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValuesTransitions is TestNastyValues for the entry points of
// transitions.go and optima.go (kept in a file of their own): none may
// panic or run on past its context.
func TestNastyValuesTransitions(t *testing.T) {
	var set probe.Settings
	sh := gossip.Shuffle{Items: 5, Cache: 3, Exchange: 2}
	probe.Func(t, "EnumerateTransitions", EnumerateTransitions, set, sh, big.NewRat(1, 3))
	probe.Func(t, "TransitionOptima", TransitionOptima, set, context.Background(), 50, 10, DropFormula1)
	probe.Func(t, "ParseDropFormula", ParseDropFormula, set, "formula1")
	probe.Func(t, "DropFormula.String", DropFormula.String, set, DropFormula1)
}
