package gossip_test

import (
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValues calls every exported entry point of the package with the
// nastiest values of its parameters' types, one at a time (package
// internal/probe): none may panic or run on past its context.
func TestNastyValues(t *testing.T) {
	var set probe.Settings
	sh := gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}
	probe.Func(t, "Shuffle.Validate", gossip.Shuffle.Validate, set, sh)
	probe.Func(t, "Shuffle.String", gossip.Shuffle.String, set, sh)
	probe.Func(t, "ParseTime", gossip.ParseTime, set, "continuous")
	probe.Func(t, "Time.String", gossip.Time.String, set, gossip.Continuous)
	probe.Func(t, "Time.Valid", gossip.Time.Valid, set, gossip.Continuous)
	probe.Func(t, "ParseMethod", gossip.ParseMethod, set, "auto")
	probe.Func(t, "Method.String", gossip.Method.String, set, gossip.Method(0))
	probe.Func(t, "Method.Valid", gossip.Method.Valid, set, gossip.Method(0))
	probe.Func(t, "MethodNames", gossip.MethodNames, set)
	probe.Func(t, "ValidLoss", gossip.ValidLoss, set, 0.1)
	probe.Func(t, "Param.Usage", gossip.Param.Usage, set, gossip.Loss)
	probe.Func(t, "Param.In", gossip.Param.In, set, gossip.Loss, 0.5)
	probe.Func(t, "Param.Check", gossip.Param.Check, set, gossip.Loss, "pkg", "Config", 0.5)
	probe.Func(t, "Param.CheckInt", gossip.Param.CheckInt, set, gossip.Workers, "pkg", "Settings", 4)
	probe.Func(t, "Param.Path", gossip.Param.Path, set, gossip.Loss, "Config")
	probe.Func(t, "Param.Errorf", gossip.Param.Errorf, set, gossip.Loss, "pkg", "Config", "= %g", []any{0.5})
	probe.Func(t, "AtLeast", gossip.AtLeast, set, 1.0)
	probe.Func(t, "Above", gossip.Above, set, 1.0)
	probe.Func(t, "AtMost", gossip.AtMost, set, 1.0)
	probe.Func(t, "Below", gossip.Below, set, 1.0)
}
