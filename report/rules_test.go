package report

import (
	"testing"

	"github.com/gossipkit/gossipkit/sim"
)

// Every rule at and around its thresholds, on constructed inputs.
func TestRules(t *testing.T) {
	cases := []struct {
		name string
		got  string
		want string
	}{
		{"sd share 1", sdRule(1), holds},
		{"sd share 0.95", sdRule(0.95), holds},
		{"sd share 0.94", sdRule(0.94), qualified},
		{"sd share 0.68", sdRule(0.68), qualified},
		{"sd share 0.67", sdRule(0.67), fails},
		{"transitions within 4 se", transRule(sim.TransitionTest{MaxDiff: 0.05, MaxZ: 4}), holds},
		{"transitions beyond 4 se, small", transRule(sim.TransitionTest{MaxDiff: 0.009, MaxZ: 4.1}), qualified},
		{"transitions beyond 4 se, large", transRule(sim.TransitionTest{MaxDiff: 0.01, MaxZ: 4.1}), fails},
		{"steady within 3 se", steadyRule(3), holds},
		{"steady beyond 3 se", steadyRule(3.01), fails},
		{"coverage reaches 0.99", reachRule(0.99), holds},
		{"coverage short of 0.99", reachRule(0.989), unchecked},
		{"|E − S| below 1e-2", nearRule(-2.01), holds},
		{"|E − S| at 1e-2", nearRule(-2), qualified},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("%s, want %s", c.got, c.want)
			}
		})
	}
	for _, c := range []struct {
		a, b float64
		want bool
	}{{1.5, 1, true}, {1.51, 1, false}, {1, 1.5, true}, {1, 1.51, false}} {
		if got := similarGaps(c.a, c.b); got != c.want {
			t.Errorf("similarGaps(%v, %v) = %v", c.a, c.b, got)
		}
	}
}
