package tree

import (
	"context"
	"testing"
)

// FuzzConfigValidateBuild feeds arbitrary values to Config.Validate and,
// when it accepts them and the tree is tiny (N ≤ 16), to Build and Fail:
// none may panic or hang (NaN and negative timings used to), and Build
// must succeed on what Validate accepted.
func FuzzConfigValidateBuild(f *testing.F) {
	f.Add(10, 2, 0, 0, 0.2, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(16, 1, 2, 1, 0.5, 2, 1, 50.0, 500.0, 100.0, 5.0, 30.0, 1000.0)
	f.Add(3, 8, 1, 0, 0.0, 1, 0, -1.0, 0.0, 0.0, 40.0, 20.0, 0.0)
	f.Fuzz(func(t *testing.T, nodes, degree, join, redirect int, fail float64, repair, elect int, arrival, period, timeout, tauMin, tauMax, failAt float64) {
		cfg := Config{Nodes: nodes, Degree: degree, Join: JoinStrategy(join), Redirect: Redirect(redirect), Seed: 1,
			FailFraction: fail, Repair: Repair(repair), Elect: Elect(elect),
			ArrivalMs: arrival, PingPeriodMs: period, PingTimeoutMs: timeout, TauMinMs: tauMin, TauMaxMs: tauMax, FailAtMs: failAt}
		if cfg.Validate() != nil || nodes > 16 {
			return
		}
		s, _, err := Build(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%+v: Validate accepted, Build: %v", cfg, err)
		}
		if fail > 0 {
			s.Fail(fail, cfg.Repair, cfg.Elect)
		}
	})
}
