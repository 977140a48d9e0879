package tree

import (
	"math"

	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// maxMs bounds every timing of Config (about 11.6 days): a larger or
// non-finite time, or a negative one, made Build hang or run out of memory.
const maxMs = 1e9

// checkTimings checks the timing fields: each is 0 (its default) or
// finite in (0, maxMs], and TauMinMs ≤ TauMaxMs once defaults apply.
func (c Config) checkTimings() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"ArrivalMs", c.ArrivalMs}, {"PingPeriodMs", c.PingPeriodMs}, {"PingTimeoutMs", c.PingTimeoutMs},
		{"TauMinMs", c.TauMinMs}, {"TauMaxMs", c.TauMaxMs}, {"FailAtMs", c.FailAtMs}} {
		if !(f.v >= 0 && f.v <= maxMs) || math.IsNaN(f.v) {
			return fielderr.New("tree", "Config."+f.name, "%g: valid range 0 (the default) or (0, %g]", f.v, maxMs)
		}
	}
	d := c
	d.defaults()
	if d.TauMinMs > d.TauMaxMs {
		return fielderr.New("tree", "Config.TauMinMs", "%g: must be ≤ TauMaxMs = %g", d.TauMinMs, d.TauMaxMs)
	}
	return nil
}
