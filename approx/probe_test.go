package approx

import (
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValues calls every exported entry point of the package with the
// nastiest values of its parameters' types, one at a time (package
// internal/probe): none may panic or run on past its context. A Model's
// methods are called on a built model and on each of its one-field
// variants (a Model written by hand need not come from NewModel).
func TestNastyValues(t *testing.T) {
	var set probe.Settings
	sh := gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}
	probe.Func(t, "Variant.String", Variant.String, set, Exact)
	probe.Func(t, "ParseVariant", ParseVariant, set, "gamma")
	probe.Func(t, "PSelect", PSelect, set, sh)
	probe.Func(t, "PDrop", PDrop, set, Gamma, sh)
	probe.Func(t, "State.String", State.String, set, S10)
	probe.Func(t, "NewTransitions", NewTransitions, set, 0.5, 0.9)
	probe.Func(t, "TransitionsFor", TransitionsFor, set, Exact, sh)
	probe.Func(t, "NewTransitionsLoss", NewTransitionsLoss, set, 0.5, 0.9, 0.1)
	probe.Func(t, "TransitionsLossFor", TransitionsLossFor, set, Simplified, sh, 0.1)
	tr := NewTransitionsLoss(0.5, 0.9, 0.1)
	probe.Func(t, "Transitions.Check", Transitions.Check, set, tr, 1e-12)
	probe.Func(t, "Transitions.CheckLoss", Transitions.CheckLoss, set, tr, 1e-12)
	probe.Func(t, "P11Given10", P11Given10, set, Gamma, sh)
	probe.Func(t, "SStar", SStar, set, 500, 100)
	probe.Func(t, "ArgmaxP11", ArgmaxP11, set, Exact, 500, 100)
	cfg := Config{Nodes: 100, Shuffle: sh, Initial: 2, Loss: 0.1}
	probe.Func(t, "Config.Validate", Config.Validate, set, cfg)
	probe.Func(t, "LossFactor", LossFactor, set, 0.1)
	probe.Func(t, "NewModel", NewModel, set, cfg)
	m, err := NewModel(cfg)
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Model.Rate", Model.Rate, set, m)
	probe.Func(t, "Model.Steady", Model.Steady, set, m)
	probe.Func(t, "Model.Drift", Model.Drift, set, m, 0.1, 0.2)
	probe.Func(t, "Model.X", Model.X, set, m, 10.0)
	probe.Func(t, "Model.Y", Model.Y, set, m, 10.0)
	probe.Func(t, "Model.TimeToReplication", Model.TimeToReplication, set, m, 0.1)
	probe.Func(t, "Model.TimeToCoverage", Model.TimeToCoverage, set, m, 0.9)
	probe.Func(t, "Model.Reference", Model.Reference, set, m, 10.0)
	probe.Func(t, "DxDs", DxDs, set, 10.0, 100, sh)
}
