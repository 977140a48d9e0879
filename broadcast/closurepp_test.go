package broadcast

import (
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/broadcast/internal/lumped"
)

// watchedCurve is the mean and standard error, by the end of each round
// t = 1, 2, …, to, of the chance that a given live node other than the
// source is uninformed: n watched runs of cfg (one watched node) with
// their curves recorded, the forced stall's among them, summed as the
// Monte Carlo sums them (Curves.Moments).
func watchedCurve(t *testing.T, cfg Config, n, to int, seed uint64) (mean, se []float64) {
	t.Helper()
	e := newWatchEngine(cfg, seed, 1)
	e.curveOn = true
	var c Curves
	for i := range n {
		if _, _, err := e.runWatched(context.Background(), i, 0); err != nil {
			t.Fatal(err)
		}
		c.AddRun(e.curve, nil, e.lateCurve, e.lateShare(e.live-1), e.curveCapped)
	}
	mean, se = make([]float64, to+1), make([]float64, to+1)
	for r := 1; r <= to; r++ {
		mean[r], se[r], _ = c.Moments(1, r)
	}
	return mean, se
}

// TestClosureScanBudgetPushPull is the measurement behind closureKappa
// (lumped.go) for a budgeted push–pull whose budget binds by the deadline
// (sumsLaw: the large-N law's runs from the source, stratified by its
// stall): the law's chance that a node is uninformed at D against the
// watched runs (an independent estimator of the finite-N protocol,
// unbiased, with the source's stall forced; stalls.go), for k 1–3, ε 0
// and 0.2, φ 0 and 0.05, R = B/k 2 and 4, N 1,000 and 2,500, at every
// deadline from R on whose chance lies in [10⁻¹³, 10⁻²], by 20,000
// watched runs of seed 11 with their curves. For each it takes κ =
// (|ln(law/runs)| − 3 standard errors of each, relative − the watch's
// term)·M/ln(1/q) and fails where κ exceeds closureKappa/2. A case whose
// runs' standard error exceeds 10 % of their value (10 of 625) is not
// counted: the weights are heavy-tailed there, and the sample's spread
// understates its error (N 2,500, k 1, ε 0, φ 0, B 4, D 12: 2.49e-12
// ± 33 % by these runs, 1.03e-11 ± 18 % by 100,000 of seed 5; the law
// 1.15e-11). On 2026-12-07 every one of the 615 cases needed κ 0; the
// differences' z (law against runs) had mean +0.31 and rms 1.01. About
// 18 minutes on two cores: GOSSIPKIT_LONG=closurepp go test ./broadcast
// -run TestClosureScanBudgetPushPull -timeout 2h -v (GOSSIPKIT_RUNS,
// GOSSIPKIT_SEED and GOSSIPKIT_ONLY, a part of the setting's name, change
// the runs, their seed and the settings; GOSSIPKIT_LAW=entry measures
// lumped.Model.DeadlineLaw's chance, from the start computed, instead).
// With GOSSIPKIT_LAW=entry on 2026-12-07 (48 minutes): 615 cases, the
// largest κ 1.30 (N 1,000, k 3, φ 0.05, B 6, D 7: 2.40e-12 against the
// runs' 1.97e-12, the closure's at 951 live nodes), the z mean +0.38 and
// rms 1.18; before the runs from a source still alone at the cut forced
// its stall, N 1,000, k 1, φ 0.05, B 2 failed from D 22 on (κ up to 1,167:
// 1.8e-30 against 1.1e-13 at D 32).
func TestClosureScanBudgetPushPull(t *testing.T) {
	if os.Getenv("GOSSIPKIT_LONG") != "closurepp" {
		t.Skip("long: GOSSIPKIT_LONG=closurepp")
	}
	ctx := context.Background()
	runs := 20_000
	if s := os.Getenv("GOSSIPKIT_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
	}
	seed := uint64(11)
	if s := os.Getenv("GOSSIPKIT_SEED"); s != "" {
		v, _ := strconv.Atoi(s)
		seed = uint64(v)
	}
	worst, cases := 0.0, 0
	for _, N := range []int{1000, 2500} {
		for _, k := range []int{1, 2, 3} {
			for _, eps := range []float64{0, 0.2} {
				for _, phi := range []float64{0, 0.05} {
					for _, R := range []int{2, 4} {
						base := Config{Nodes: N, Protocol: PushPull, Fanout: k, Loss: eps, Failed: phi, Budget: R * k, Level: 1}
						if only := os.Getenv("GOSSIPKIT_ONLY"); only != "" && !strings.Contains(cfgName(base), only) {
							continue
						}
						const to = 60
						w, wse := watchedCurve(t, base, runs, to, seed)
						share := float64(base.Live()-1) / float64(base.Live())
						for D := R; D <= to; D++ {
							q := share * w[D]
							if q > 1e-2 {
								continue
							}
							if q < 1e-13 || w[D] == 0 {
								break
							}
							cfg := base
							cfg.Deadline = float64(D)
							m := newLumped(cfg)
							var r lumped.Est
							if os.Getenv("GOSSIPKIT_LAW") == "entry" {
								_, er, _, err := m.DeadlineLaw(ctx)
								if err != nil {
									t.Fatal(err)
								}
								r = er
							} else {
								s, ts, err := m.Law(ctx)
								if err != nil {
									t.Fatal(err)
								}
								_, r = s.Deadline()
								if ts != nil && ts.N > 0 {
									if _, tr := ts.Deadline(); tr.V > 0 && (r.V == 0 || tr.SE/tr.V < r.SE/r.V) {
										r = tr
									}
								}
							}
							if wse[D] > 0.1*w[D] {
								t.Logf("%s D %d: runs %.4g ± %.2g%% (one standard error): not counted", cfgName(cfg), D, q, 100*wse[D]/w[D])
								continue
							}
							watch := watchErr(cfg, m, cfg.Budget)
							scale := float64(cfg.Live()) / math.Log(1/q)
							kappa := math.Max(math.Abs(math.Log(r.V/q))-3*r.SE/r.V-3*wse[D]/w[D]-watch-r.Hole/r.V, 0) * scale
							cases++
							worst = math.Max(worst, kappa)
							t.Logf("%s D %d: law %.4g ± %.2g%% (hole %.2g), watched %.4g ± %.2g%%: ratio %.4f κ %.3f",
								cfgName(cfg), D, r.V, 100*r.SE/r.V, r.Hole, q, 100*wse[D]/w[D], r.V/q, kappa)
							if kappa > closureKappa/2 {
								t.Errorf("%s D %d: κ %.3f beyond closureKappa/2", cfgName(cfg), D, kappa)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d cases, largest κ %.3f", cases, worst)
}
