package approx

import (
	"errors"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestConfigValidate: each invalid field is reported as a *FieldError that
// names it as a Go program writes it, with the package prefix.
func TestConfigValidate(t *testing.T) {
	ok := Config{Nodes: 100, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}}
	for _, tc := range []struct {
		name  string
		edit  func(*Config)
		field string // "" means valid
	}{
		{"valid", func(*Config) {}, ""},
		{"initial 0 means 1", func(c *Config) { c.Initial = 0 }, ""},
		{"initial = nodes", func(c *Config) { c.Initial = 100 }, ""},
		{"one node", func(c *Config) { c.Nodes = 1 }, "Config.Nodes"},
		{"s > c", func(c *Config) { c.Shuffle.Exchange = 101 }, "Config.Shuffle.Exchange"},
		{"c > n", func(c *Config) { c.Shuffle.Cache = 501 }, "Config.Shuffle.Cache"},
		{"initial > nodes", func(c *Config) { c.Initial = 101 }, "Config.Initial"},
		{"bad variant", func(c *Config) { c.PDrop = 7 }, "Config.PDrop"},
		{"loss 0.5", func(c *Config) { c.Loss = 0.5 }, ""},
		{"loss just below 1", func(c *Config) { c.Loss = math.Nextafter(1, 0) }, ""},
		{"loss 1", func(c *Config) { c.Loss = 1 }, "Config.Loss"},
		{"negative loss", func(c *Config) { c.Loss = -1e-300 }, "Config.Loss"},
		{"NaN loss", func(c *Config) { c.Loss = math.NaN() }, "Config.Loss"},
		{"infinite loss", func(c *Config) { c.Loss = math.Inf(1) }, "Config.Loss"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			err := c.Validate()
			if tc.field == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				m, err := NewModel(c)
				if err != nil || m.Initial < 1 || m.X0 != float64(m.Initial)/float64(m.Nodes) {
					t.Fatalf("NewModel: %+v, %v", m, err)
				}
				return
			}
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || fe.Pkg != "approx" {
				t.Fatalf("Validate: %v, want an approx FieldError on %s", err, tc.field)
			}
			if _, err := NewModel(c); err == nil {
				t.Fatal("NewModel accepted it")
			}
		})
	}
	if got := Variant(9).String(); got != "approx.Variant(9)" {
		t.Errorf("Variant(9).String() = %q", got)
	}
}
