package broadcast

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestSpreadTwoNodes checks the spread's Monte Carlo (SimulateRepair with
// Config.Interval > 0) against a law derived by hand. N = 2, k = 1,
// B = 1, no loss: node 1 lacks the update at t until the first of the
// source's gossip tick (U·iv, U uniform) and the two nodes' first syncs
// (ψ₀, ψ₁ uniform in [0, S'), each an exchange with the other node), so
// for t below iv and S' the chance is (1 − t/iv)(1 − t/S')², and it is 0
// from iv on. The share lacking is that over M = 2; within 4 SE.
func TestSpreadTwoNodes(t *testing.T) {
	cfg := Config{Nodes: 2, Protocol: Push, Fanout: 1, Budget: 1, Level: 1, SyncInterval: 2, Interval: 1}
	S := PushPullScale(cfg.SyncInterval, cfg.Nodes) // 2: no scaling at 2 nodes
	times := []float64{0.3, 0.7, 1.2}
	const R = 40000
	s, err := SimulateRepair(context.Background(), cfg, SimSettings{Reps: R, Seed: testSeed}, times)
	if err != nil {
		t.Fatal(err)
	}
	for i, tm := range times {
		want := 0.0
		if tm < cfg.Interval {
			want = (1 - tm/cfg.Interval) * (1 - tm/S) * (1 - tm/S) / 2
		}
		p := want * 2
		se := math.Sqrt(p*(1-p)/R) / 2
		if !(math.Abs(s.Lack[i]-want) <= asyncZ*se) {
			t.Errorf("t = %g: lacking %.5f, by hand %.5f (SE %.2g)", tm, s.Lack[i], want, se)
		}
	}
	if s.Residue != 0 {
		t.Errorf("residue at the end %g, want 0 (node 1 always gets it, by gossip or by a sync)", s.Residue)
	}
}

// TestSpreadNoSyncs: with a sync interval far longer than the spread,
// the spread's Monte Carlo's share lacking at the broadcast's end is the
// asynchronous broadcast's residue (SimulateAsync, different streams):
// within 4 standard errors of the difference.
func TestSpreadNoSyncs(t *testing.T) {
	cfg := Config{Nodes: 60, Protocol: Push, Fanout: 2, Budget: 3, Loss: 0.2, Failed: 0.1, Level: 1, SyncInterval: 1e7, Interval: 0.2}
	const R = 20000
	ctx := context.Background()
	s, err := SimulateRepair(ctx, cfg, SimSettings{Reps: R, Seed: testSeed}, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	ac := cfg
	ac.Time = Async
	as, err := SimulateAsync(ctx, ac, SimSettings{Reps: R, Seed: testSeed + 1})
	if err != nil {
		t.Fatal(err)
	}
	var m, ss float64
	M := float64(cfg.Live())
	for _, r := range as.Reps {
		x := float64(r.Missed) / M
		m += x
		ss += x * x
	}
	m /= R
	se := math.Sqrt((ss/R - m*m) / R)
	if d := math.Hypot(se, s.ResidueSE); !(math.Abs(s.Residue-m) <= asyncZ*d) {
		t.Errorf("residue with syncs %g s apart: %.5f ± %.2g, asynchronous broadcast %.5f ± %.2g", cfg.SyncInterval, s.Residue, s.ResidueSE, m, se)
	}
	// The spread ends at its last gossip tick (every queue empty), after
	// its last informing (AsyncReplication.End).
	if !(s.End/cfg.Interval > MeanEnd(as)) {
		t.Errorf("mean end %.3f intervals, before the asynchronous broadcast's last informing %.3f", s.End/cfg.Interval, MeanEnd(as))
	}
}

// TestRepairSpreadAgainstMC checks the mean field from the spread's end
// state (RepairCurveFrom of RepairSample.Start) against the Monte Carlo
// of the same rules, same replications, at 0.25–3 scaled intervals after
// the queueing, for the accuracy RepairCurve states: never more than 4
// standard errors above it, and low by no more than a share that grows
// with the time (the broadcasts that end with few holders repair as a
// random epidemic, which the closure ignores): 4 % up to half a scaled
// interval, 10 % at one, 18 % at 1.5, 35 % at two, 85 % at three, plus 4
// standard errors. Measured (seed testSeed): at N = 50, B = 2, 10 % down,
// 0.3–1.5 %, 6.3 %, 9.8 %, 21 % and 62 %; at N = 50, B = 2, ε = 0.3,
// 1.3–2.5 %, 7.7 %, 14 %, 29 %, 73 % (the harness's setting of
// TestRepairUnderLoss, where memberlist agreed with the Monte Carlo, not
// the mean field); at N = 100 and 200 within 0.1–3 % up to 1.5 scaled
// intervals, 8–10 % at two, 38–45 % at three. The bounds are about 1.2
// times the worst measured, so a closure that got worse fails. The share
// of the lacking nodes whose next sync comes late, LateShare (analytic),
// is within 20 % of the share counted (measured 2 %, 0.5 %, 16 % and 9 %
// at N = 100, 50, 50 with ε = 0.3, and 200). Power: the mean field with the syncs counted from
// the end and uniform phases (RepairCurve from the end law, the rule
// before the spread was modelled) is more than 10 % high at one scaled
// interval at N = 100 (measured +15 %).
func TestRepairSpreadAgainstMC(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		cfg   Config
		reps  int
		power bool
	}{
		{Config{Nodes: 100, Protocol: Push, Fanout: 2, Budget: 3, Failed: 0.1, Level: 1, SyncInterval: 5, Interval: 0.2}, 40000, true},
		{Config{Nodes: 50, Protocol: Push, Fanout: 2, Budget: 2, Failed: 0.1, Level: 1, SyncInterval: 5, Interval: 0.2}, 40000, false},
		{Config{Nodes: 50, Protocol: Push, Fanout: 2, Budget: 2, Loss: 0.3, Level: 1, SyncInterval: 5, Interval: 0.2}, 40000, false},
		{Config{Nodes: 200, Protocol: Push, Fanout: 3, Budget: 3, Loss: 0.2, Failed: 0.1, Level: 1, SyncInterval: 1, Interval: 0.02}, 10000, false},
	} {
		cfg := tc.cfg
		S := PushPullScale(cfg.SyncInterval, cfg.Nodes)
		pts := []float64{0.25, 0.5, 1, 1.5, 2, 3}
		low := []float64{0.04, 0.04, 0.10, 0.18, 0.35, 0.85} // the stated bounds, by point
		var times []float64
		for _, p := range pts {
			times = append(times, p*S)
		}
		s, err := SimulateRepair(ctx, cfg, SimSettings{Reps: tc.reps, Seed: testSeed}, times)
		if err != nil {
			t.Fatal(err)
		}
		st := s.Start()
		if !(math.Abs(st.Late-s.Late) <= 0.20*s.Late) {
			t.Errorf("N = %d: late share analytic %.4f, counted %.4f", cfg.Nodes, st.Late, s.Late)
		}
		rc, err := RepairCurveFrom(cfg, st)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("N = %d: %v; end %.3f s, late share %.4f (counted %.4f, uniform %.4f)", cfg.Nodes, s, s.End, st.Late, s.Late, s.End/S)
		for i, p := range pts {
			mc, se, mf := s.Lack[i], s.SE[i], rc.At(p*S)
			ok := mf <= mc+asyncZ*se && mc-mf <= low[i]*mc+asyncZ*se
			if !ok {
				t.Errorf("N = %d, ε = %g, %g scaled intervals: mean field %.5g, Monte Carlo %.5g ± %.2g (%+.1f %%, bound −%g %%)", cfg.Nodes, cfg.Loss, p, mf, mc, se, 100*(mf-mc)/mc, 100*low[i])
			} else {
				t.Logf("N = %d, ε = %g, %g scaled intervals: mean field %.5g, Monte Carlo %.5g ± %.2g (%+.1f %%)", cfg.Nodes, cfg.Loss, p, mf, mc, se, 100*(mf-mc)/mc)
			}
		}
		if tc.power {
			old, err := RepairCurve(cfg, st.Law, st.Start)
			if err != nil {
				t.Fatal(err)
			}
			if o := old.At(S); !(o > 1.1*s.Lack[2]) {
				t.Errorf("power: the uniform-phase mean field from the end gives %.5g at one scaled interval, within 10 %% of the Monte Carlo's %.5g", o, s.Lack[2])
			}
		}
	}
}

// TestLateShareEdges: no spread, no late share; a spread of a whole scaled
// interval or more, unconditioned (−1); the share never exceeds end/S'.
func TestLateShareEdges(t *testing.T) {
	cfg := Config{Nodes: 100, Protocol: Push, Fanout: 2, Budget: 3, Level: 1, SyncInterval: 5, Interval: 0.2}
	if got := LateShare(cfg, 0, 0); got != 0 {
		t.Errorf("LateShare(end 0) = %g, want 0", got)
	}
	if got := LateShare(cfg, 15, 10); got != -1 {
		t.Errorf("LateShare(end = S') = %g, want −1", got)
	}
	if got := LateShare(cfg, 1.5, 0); math.Abs(got-0.1) > 1e-12 {
		t.Errorf("LateShare(no holder during the spread) = %g, want end/S' = 0.1", got)
	}
	if got := LateShare(cfg, 1.5, 1e9); got != 0 {
		t.Errorf("LateShare(every spread sync repairs) = %g, want 0", got)
	}
	if _, err := RepairCurveFrom(cfg, RepairStart{Law: []MissLaw{{0.1, 1}}, Start: 1, Late: math.NaN()}); err == nil {
		t.Error("RepairCurveFrom accepted a NaN late share")
	}
}

// TestSpreadRefusesLongInterval: a gossip interval of more than 100
// scaled sync intervals is a field error naming Config.Interval (the
// spread's syncs would be unbounded: at 1e308 s, or syncs every 1e-300 s,
// the Monte Carlo ran without end), and 100 of them is accepted.
func TestSpreadRefusesLongInterval(t *testing.T) {
	ctx := context.Background()
	base := Config{Nodes: 20, Protocol: Push, Fanout: 2, Budget: 2, Level: 1, SyncInterval: 1, Interval: 0.2}
	for _, c := range []struct{ iv, sync float64 }{{1e308, 1}, {0.2, 1e-300}, {100.5, 1}} {
		cfg := base
		cfg.Interval, cfg.SyncInterval = c.iv, c.sync
		_, err := SimulateRepair(ctx, cfg, SimSettings{Reps: 2}, []float64{1})
		var fe *FieldError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "Config.Interval") {
			t.Errorf("Interval %g, SyncInterval %g: error %v, want a field error naming Config.Interval", c.iv, c.sync, err)
		}
	}
	cfg := base
	cfg.Interval = 100 // S' = 1 s at N = 20
	if _, err := SimulateRepair(ctx, cfg, SimSettings{Reps: 2}, []float64{1}); err != nil {
		t.Errorf("Interval = 100 scaled sync intervals refused: %v", err)
	}
}
