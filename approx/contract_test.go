package approx

import (
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: a zero, negative, NaN or
// huge argument is refused with an error (naming the field), never a panic.
func TestContract(t *testing.T) {
	good := gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}
	var calls []probe.Refusal
	for _, sh := range []gossip.Shuffle{{}, {Items: -1, Cache: 10, Exchange: 5}, {Items: 50, Cache: 10, Exchange: 11},
		{Items: math.MaxInt, Cache: 10, Exchange: 5}} {
		for _, v := range []Variant{Simplified, Gamma, Exact} {
			calls = append(calls,
				probe.Refusal{Name: "PDrop " + sh.String(), Field: true, Call: func() error { _, err := PDrop(v, sh); return err }},
				probe.Refusal{Name: "P11Given10 " + sh.String(), Field: true, Call: func() error { _, err := P11Given10(v, sh); return err }},
				probe.Refusal{Name: "TransitionsFor " + sh.String(), Field: true, Call: func() error { _, err := TransitionsFor(v, sh); return err }})
		}
	}
	for _, eps := range []float64{-0.1, 1, math.NaN(), math.Inf(1)} {
		calls = append(calls, probe.Refusal{Name: "TransitionsLossFor eps", Call: func() error { _, err := TransitionsLossFor(Simplified, good, eps); return err }})
	}
	calls = append(calls,
		probe.Refusal{Name: "PDrop/variant -1", Call: func() error { _, err := PDrop(Variant(-1), good); return err }},
		probe.Refusal{Name: "ArgmaxP11/n 0", Call: func() error { _, _, err := ArgmaxP11(Simplified, 0, 10); return err }},
		probe.Refusal{Name: "ArgmaxP11/c -1", Call: func() error { _, _, err := ArgmaxP11(Simplified, 50, -1); return err }},
		probe.Refusal{Name: "ArgmaxP11/c huge, Exact", Call: func() error { _, _, err := ArgmaxP11(Exact, 1<<40, 1<<30); return err }},
		probe.Refusal{Name: "ParseVariant empty", Call: func() error { _, err := ParseVariant(""); return err }},
	)
	base := Config{Nodes: 100, Shuffle: good}
	for _, b := range []struct {
		field string
		set   func(*Config)
	}{
		{"Nodes", func(c *Config) { c.Nodes = 0 }},
		{"Nodes", func(c *Config) { c.Nodes = -1 }},
		{"Shuffle", func(c *Config) { c.Shuffle = gossip.Shuffle{} }},
		{"Initial", func(c *Config) { c.Initial = -1 }},
		{"Initial", func(c *Config) { c.Initial = 101 }},
		{"Loss", func(c *Config) { c.Loss = math.NaN() }},
		{"Loss", func(c *Config) { c.Loss = 1 }},
	} {
		c := base
		b.set(&c)
		calls = append(calls, probe.Refusal{Name: "NewModel/" + b.field, Want: b.field, Field: true,
			Call: func() error { _, err := NewModel(c); return err }})
	}
	m, err := NewModel(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []float64{-1, math.NaN(), math.Inf(1)} {
		calls = append(calls, probe.Refusal{Name: "Model.Reference t", Call: func() error { _, _, err := m.Reference(tt); return err }})
	}
	calls = append(calls, probe.Refusal{Name: "zero Model.Reference", Call: func() error { _, _, err := Model{}.Reference(1); return err }})
	probe.Refuses(t, 0, calls...)
}
