package meanfield

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
)

// The integrator's event time against the closed-form inverse, and the
// argmin over s against a direct search of the closed form.
func TestCoverageTimeMatchesClosedForm(t *testing.T) {
	res, err := Optimize(context.Background(), OptimizeConfig{Nodes: 2500, Items: 500, Cache: 100, Level: 0.99})
	if err != nil {
		t.Fatal(err)
	}
	best, bestT := 0, math.Inf(1)
	for s := 1; s < 100; s++ {
		m, _ := approx.NewModel(approx.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: s}, PDrop: approx.Simplified, Initial: 1})
		ct := m.TimeToCoverage(0.99)
		// rtol 1e-10 integration (global error up to ~5·rtol, see
		// ode.TestDormandPrinceLogisticTolerance), event located to 1e-12
		// relative: 1e-9 relative on the time.
		if math.Abs(res.Times[s-1]-ct) > 1e-9*ct {
			t.Errorf("s=%d: event %v, closed form %v", s, res.Times[s-1], ct)
		}
		if ct < bestT {
			best, bestT = s, ct
		}
	}
	if res.SBestTime != best {
		t.Errorf("s_best_time %d, closed-form search %d", res.SBestTime, best)
	}
}

func TestOptimizeRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		N, n, c int
		level   float64
	}{{1, 500, 100, 0.99}, {2500, 100, 100, 0.99}, {2500, 500, 0, 0.99}, {2500, 500, 100, 1}, {2500, 500, 100, 0}} {
		t.Run(fmt.Sprintf("%+v", tc), func(t *testing.T) {
			if _, err := Optimize(context.Background(), OptimizeConfig{Nodes: tc.N, Items: tc.n, Cache: tc.c, Level: tc.level}); err == nil {
				t.Errorf("%+v accepted", tc)
			}
		})
	}
}

func TestModelCurves(t *testing.T) {
	m, _ := approx.NewModel(approx.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, PDrop: approx.Simplified, Initial: 1})
	ts, xs, ys := Curves(m, 10)
	if len(ts) != 11 || xs[0] != 1.0/2500 || ys[0] != 1.0/2500 {
		t.Errorf("t=0: x=%v y=%v", xs[0], ys[0])
	}
}
