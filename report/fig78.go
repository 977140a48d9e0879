package report

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/meanfield"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/report/internal/claim"
	"github.com/gossipkit/gossipkit/report/tables"
	"github.com/gossipkit/gossipkit/sim"
)

// Fig78 is the protocol simulation of Figs. 7 and 8 at every n of the
// scale beside the ODE's closed forms (sections 3 and 4 share it).
type Fig78 struct {
	N, C, S, T int
	Ns         []int
	Runs       map[int]*sim.Result
	// per n (in the order of Ns)
	ModelT, ModelX, ModelY [][]float64
	SimX, SimY             []sim.Trajectory
	// SimYRound is the round-snapshot coverage (the paper's measure).
	SimYRound []sim.Trajectory
	// SimXBand, SimYBand: the 5–95 % quantiles of x and y over the runs.
	SimXBand, SimYBand []Band
	// Rows: the ODE against the protocol at each n (ode_vs_sim).
	Rows []ODEvsSimRow
	// Trans: the measured transitions of d at Ns[0] against Fig. 1's
	// matrix at the items of the simulated network (protocolItems: n + 1,
	// so P_drop = S(n+1, c, s)), in standard errors of the spread between
	// replications (transitionsByRep); TransPaper: the same against the
	// matrix at n, as the paper evaluates it.
	Trans, TransPaper sim.TransitionTest
	// LastCopy is the largest over n of sim.ItemsAfterInsertion's pFewer, the chance that
	// d's insertion overwrote the last copy of an item (which would leave
	// n, not n + 1, items).
	LastCopy float64
	// ShareX, ShareY, ShareYRound: bootstrap intervals (bootLevel, over the
	// replications) of the smallest take-off share over n of x, per-event
	// and round-snapshot coverage, the quantity the verdicts of Figs. 7
	// and 8 grade.
	ShareX, ShareY, ShareYRound Interval
	// DistX, DistY, DistYRound: the take-off distance θ (takeoff.go) of
	// x, per-event and round-snapshot coverage over every n, with its
	// simultaneous interval: the quantity the verdicts of Figs. 7 and 8
	// grade.
	DistX, DistY, DistYRound TakeOffDistance
}

// ODEvsSimRow is the ODE against the protocol at one n: the steady state
// (the paper's c/n, and c/Items, the protocol's: Items = n + 1 distinct
// items once d is inserted, protocolItems) against the late mean of x (±
// its standard error), the gaps of x, of
// per-event coverage y and of round-snapshot coverage, the times at which
// the ODE's y and the simulated mean reach 50, 90 and 99 %, the final mean
// coverage, and the gap between the two coverage records. WindowX, WindowY
// and WindowYRound compare x, per-event and round-snapshot coverage over
// the take-off, where the claims of Figs. 7 and 8 live (takeOff).
type ODEvsSimRow struct {
	N                     int
	SteadyCOverN          float64
	Items                 int
	SteadyProtocol        float64
	XLateMean, XLateSE    float64
	GapX, GapY, GapYRound sim.Gap
	T50ODE, T50Sim        float64
	T90ODE, T90Sim        float64
	T99ODE, T99Sim        float64
	YFinal                float64
	Records               sim.Gap // per-event mean against the snapshot mean
	WindowX, WindowY      Window
	WindowYRound          Window
	// CIX, CIY, CIYRound: bootstrap intervals of the three windows' shares
	// at this n alone.
	CIX, CIY, CIYRound Interval
	// GrowthX, GrowthY, GrowthYRound: the growth times of x, per-event
	// and round-snapshot coverage (from claim.GrowthLo to claim.GrowthHi of the
	// plateau) against the ODE's, with their growth distances
	// (growthdist.go): the quantities the verdicts of Figs. 7 and 8 grade.
	// The ODE is the model of the network simulated (n + 1 items,
	// protocolItems), whose plateau the runs approach.
	GrowthX, GrowthY, GrowthYRound NetGrowth
}

// odeVsSimTable renders the rows of ode_vs_sim.
func odeVsSimTable(rows []ODEvsSimRow) *plots.Table {
	t := &plots.Table{Keys: []string{"n", "steady_c_over_n", "items_after_insertion", "steady_protocol", "x_late_mean", "x_late_se", "max_gap_x", "at_t_x", "max_gap_y", "at_t_y", "y_within_1sd", "t50_ode", "t50_sim", "t90_ode", "t90_sim", "t99_ode", "t99_sim", "y_final",
		"max_gap_y_round", "at_t_y_round", "y_round_within_1sd", "max_event_minus_round", "at_t_records",
		"x_window_from", "x_window_to", "x_within_window", "y_window_from", "y_window_to", "y_within_window", "y_round_within_window"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.N, r.SteadyCOverN, r.Items, r.SteadyProtocol, r.XLateMean, r.XLateSE, r.GapX.Max, r.GapX.At, r.GapY.Max, r.GapY.At, r.GapY.WithinSD,
			r.T50ODE, r.T50Sim, r.T90ODE, r.T90Sim, r.T99ODE, r.T99Sim, r.YFinal,
			r.GapYRound.Max, r.GapYRound.At, r.GapYRound.WithinSD, r.Records.Max, r.Records.At,
			windowEnd(r.WindowX.From), windowEnd(r.WindowX.To), r.WindowX.Within, windowEnd(r.WindowY.From), windowEnd(r.WindowY.To), r.WindowY.Within, r.WindowYRound.Within})
	}
	return t
}

// windowEnd is a window's first or last round, nil (an empty cell) when
// the window is empty.
func windowEnd(t int) any {
	if t < 0 {
		return nil
	}
	return t
}

// Fig78 runs (once per study) the protocol simulations of Figs. 7 and 8:
// the compute step of sections 3 (replication) and 4 (coverage).
func (s *Study) Fig78(ctx context.Context) (*Fig78, error) {
	if err := s.ready(true); err != nil {
		return nil, err
	}
	if s.fig78 != nil {
		return s.fig78, nil
	}
	sc := s.Scale
	runs := map[int]*sim.Result{}
	more := map[int]*sim.Result{}
	for i, n := range sc.Ns {
		s.step(fmt.Sprintf("Figs. 7–8: protocol simulation, n = %d", n))
		res, err := s.experiment(ctx, sim.Protocol, sc.Nodes, n, sc.Cache, sc.Exchange, sc.Warmup, sc.Rounds, sc.Reps)
		if err != nil {
			return nil, err
		}
		runs[n] = res
		if i >= len(sc.GrowthReps) || sc.GrowthReps[i] <= sc.Reps {
			continue
		}
		s.step(fmt.Sprintf("Figs. 7–8: growth replications, n = %d", n))
		cfg, err := growthConfig(sc, n, sc.GrowthReps[i])
		if err != nil {
			return nil, err
		}
		if more[n], err = s.runSimFrom(ctx, cfg, sc.Reps); err != nil {
			return nil, err
		}
	}
	f, err := newFig78(sc, runs, more)
	if err != nil {
		return nil, err
	}
	s.fig78 = f
	return f, nil
}

// growthRepsPerWarm is the number of Figs. 7–8's growth replications
// beyond the figures' (Scale.GrowthReps) that branch from one warm-up:
// on the complete graph at N = 2500 the intraclass correlation of
// replications sharing a warm state is between −0.02 and +0.02 (se
// 0.01–0.02; testdata/README.md, "Warm states"), so a growth distance's
// standard error is inflated by √(1 + 4ρ), 2 % or less at the estimates;
// the warm-up was 200 of each such replication's 340 to 800 rounds.
const growthRepsPerWarm = 5

// growthConfig is the protocol run of Figs. 7–8 at n with reps
// replications, of which Fig78 runs those from Scale.Reps on
// (runSimFrom): the experiment's configuration with warm-ups shared by
// growthRepsPerWarm replications, observed for growthHorizon rounds.
func growthConfig(sc Scale, n, reps int) (sim.Config, error) {
	m, err := approx.NewModel(approx.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: protocolItems(n), Cache: sc.Cache, Exchange: sc.Exchange}, PDrop: approx.Simplified, Initial: 1})
	if err != nil {
		return sim.Config{}, err
	}
	cfg := sim.DefaultConfig()
	cfg.Model, cfg.Nodes, cfg.Shuffle = sim.Protocol, sc.Nodes, gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}
	cfg.Warmup, cfg.Rounds, cfg.Reps, cfg.Seed = sc.Warmup, growthHorizon(m, sc.Rounds), reps, sc.Seed
	cfg.WarmStates = max(1, (reps-sc.Reps+growthRepsPerWarm-1)/growthRepsPerWarm)
	return cfg, nil
}

// growthHorizon is the rounds a growth replication of the ODE m runs, at
// most rounds: the ODE's time for x to reach claim.GrowthHi of its plateau,
// plus 11/k for a run's lag behind it (k the logistic rate, ln 81 over
// the ODE's growth time). The lag is mostly the random delay of the
// take-off, whose upper tail falls like e^(−k·t); at seed 1 one run in 40
// at n = 2000 lagged more than 5.8/k (the 500 rounds of an earlier quick
// scale), so 11/k leaves about e^(−5.2)/40, 1.4·10⁻⁴ a run: 176 rounds
// at n = 500 and 356 at n = 1000 at the quick scale, and all 600 at
// n = 2000. A run not there by then is censored, and leaves its interval
// open above (claim.MeasureGrowth).
func growthHorizon(m approx.Model, rounds int) int {
	K := m.Steady()
	lo, hi := m.TimeToReplication(claim.GrowthLo*K), m.TimeToReplication(claim.GrowthHi*K)
	k := math.Log(81) / (hi - lo)
	return min(rounds, int(math.Ceil(hi+11/k)))
}

// newFig78 computes sections 3 and 4 from the protocol runs of the scale
// sc, one per n of sc.Ns.
func newFig78(sc Scale, runs, more map[int]*sim.Result) (*Fig78, error) {
	f := &Fig78{N: sc.Nodes, C: sc.Cache, S: sc.Exchange, T: sc.Rounds, Ns: sc.Ns, Runs: runs}
	var cases [3][]claim.ShareCase // x, per-event y, round-snapshot y over n
	for _, n := range sc.Ns {
		res := runs[n]
		m, err := approx.NewModel(approx.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}, PDrop: approx.Simplified, Initial: 1})
		if err != nil {
			return nil, err
		}
		tt, mx, my := meanfield.Curves(m, sc.Rounds)
		sx, sy := res.Trajectories()
		syr := res.RoundCoverage()
		f.ModelT, f.ModelX, f.ModelY = append(f.ModelT, tt), append(f.ModelX, mx), append(f.ModelY, my)
		f.SimX, f.SimY, f.SimYRound = append(f.SimX, sx), append(f.SimY, sy), append(f.SimYRound, syr)
		bx, by := quantileBands(res)
		f.SimXBand, f.SimYBand = append(f.SimXBand, bx), append(f.SimYBand, by)
		items, pFewer := sim.ItemsAfterInsertion(sc.Nodes, gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange})
		row := ODEvsSimRow{N: n, SteadyCOverN: float64(sc.Cache) / float64(n), Items: items, SteadyProtocol: float64(sc.Cache) / float64(items),
			GapX: sim.CompareTrajectory(mx, sx), GapY: sim.CompareTrajectory(my, sy), GapYRound: sim.CompareTrajectory(my, syr),
			// The two records against each other: CompareTrajectory of the
			// per-event mean as the "model" gives max |per-event − snapshot|.
			Records: sim.CompareTrajectory(sy.Mean, syr),
			YFinal:  sy.Mean[len(sy.Mean)-1]}
		f.LastCopy = math.Max(f.LastCopy, pFewer)
		tol := claim.ResolutionNodes / float64(sc.Nodes)
		row.WindowX, row.WindowY, row.WindowYRound = claim.TakeOff(mx, sx, tol), claim.TakeOff(my, sy, tol), claim.TakeOff(my, syr, tol)
		cx, cy, cr := claim.ShareCases(res, mx, my, row.WindowX, row.WindowY, row.WindowYRound, tol)
		cases[0], cases[1], cases[2] = append(cases[0], cx), append(cases[1], cy), append(cases[2], cr)
		row.CIX = claim.BootstrapMinShare([]claim.ShareCase{cx}, sc.Seed)
		row.CIY = claim.BootstrapMinShare([]claim.ShareCase{cy}, sc.Seed)
		row.CIYRound = claim.BootstrapMinShare([]claim.ShareCase{cr}, sc.Seed)
		row.XLateMean, row.XLateSE = res.LateMean()
		if err := fig78Growth(&row, res, more[n], sc); err != nil {
			return nil, err
		}
		row.T50ODE, row.T50Sim = sim.FirstReach(tt, my, 0.5), sim.FirstReach(sy.T, sy.Mean, 0.5)
		row.T90ODE, row.T90Sim = sim.FirstReach(tt, my, 0.9), sim.FirstReach(sy.T, sy.Mean, 0.9)
		row.T99ODE, row.T99Sim = sim.FirstReach(tt, my, 0.99), sim.FirstReach(sy.T, sy.Mean, 0.99)
		f.Rows = append(f.Rows, row)
	}
	var err error
	if f.Trans, f.TransPaper, err = protocolTransitions(runs[sc.Ns[0]]); err != nil {
		return nil, err
	}
	f.ShareX = claim.BootstrapMinShare(cases[0], sc.Seed)
	f.ShareY = claim.BootstrapMinShare(cases[1], sc.Seed)
	f.ShareYRound = claim.BootstrapMinShare(cases[2], sc.Seed)
	f.DistX = claim.MeasureTakeOff(cases[0], sc.Ns, sc.Seed)
	f.DistY = claim.MeasureTakeOff(cases[1], sc.Ns, sc.Seed)
	f.DistYRound = claim.MeasureTakeOff(cases[2], sc.Ns, sc.Seed)
	return f, nil
}

// protocolItems is the number of distinct items in the lossless protocol's
// network once d is inserted, for n items before, at the report's scales:
// n + 1, sim.ItemsAfterInsertion where N·c > n, as at every scale of the
// report (sections 3–4 take the count from it, per n). The warm-up starts
// from all n items (sim's initial placement gives each ⌊cN/n⌋ or ⌈cN/n⌉
// copies), and a lossless shuffle never loses one (what B overwrites, A
// has just received; sim.TestInvariants). d, a new item, then overwrites a
// uniform slot of a uniform node, a copy of some item: n + 1 items, or n
// if that copy was its item's last, with a chance of about (1 − c/n)^(N−1)
// from binomial replica counts, at most 10⁻⁹ at every scale of the report
// (smoke: N = 200, c/n = 0.1). Every item, d included, enters the shuffle
// alike, so the stationary law of the caches is unchanged by relabelling
// items; the N·c slots are shared by n + 1 items, and at steady state each
// holds in expectation c/(n + 1) of the nodes: the plateau of x, exactly
// as t → ∞. The paper's c/n is its n → ∞ reading, c/n − c/(n + 1) =
// c/(n(n + 1)) above it (4·10⁻⁴ at n = 500, c = 100). The same count
// enters the model of one shuffle: P_drop = S at n + 1 items (the per-item
// drop probability S is exact for uniform caches over the items present,
// enumeration in section 1), whose mean field has K = c/(n + 1).
func protocolItems(n int) int { return n + 1 }

// protocolTransitions compares the measured transitions of d in the
// protocol run res (transitionsByRep) with Fig. 1's matrix (simplified
// P_drop, the run's loss) at the protocolItems of the simulated network
// (at) and at the run's n, as the paper evaluates it (paper). P_select =
// s/c does not depend on the items; P_drop = (n+1−c)/(n+1−s) does.
func protocolTransitions(res *sim.Result) (at, paper sim.TransitionTest, err error) {
	model, _, err := tables.NetworkTransitions(res.Config)
	if err != nil {
		return at, paper, err
	}
	return claim.TransitionsByRep(res, model), claim.TransitionsByRep(res, res.Measure().TransModel), nil
}

func (f *Fig78) names() []string {
	var names []string
	for _, n := range f.Ns {
		names = append(names, fmt.Sprintf("n=%d", n))
	}
	return names
}

func (f *Fig78) fig7() *plots.Spec {
	sp := timeSeriesSpec(fmt.Sprintf("Fig. 7: replication, N=%d, c=%d, s=%d", f.N, f.C, f.S), "x(t): fraction of nodes holding d", f.names(), f.ModelT, f.ModelX, f.SimX, f.SimXBand, "ODE", "protocol mean, 5–95 % of runs")
	// A little room above the highest band (the legend is below the axes).
	top := 0.0
	for i := range f.SimXBand {
		top = math.Max(top, floats.Max(f.SimXBand[i].Hi))
		top = math.Max(top, floats.Max(f.ModelX[i]))
	}
	lo, hi := 0.0, 1.05*top
	sp.YMin, sp.YMax = &lo, &hi
	return sp
}

func (f *Fig78) fig8() *plots.Spec {
	sp := timeSeriesSpec(fmt.Sprintf("Fig. 8: coverage, N=%d, c=%d, s=%d", f.N, f.C, f.S), "y(t): fraction of nodes that have held d", f.names(), f.ModelT, f.ModelY, f.SimY, f.SimYBand, "ODE", "protocol, per event, mean, 5–95 % of runs")
	for i, name := range f.names() {
		sp.Series = append(sp.Series, plots.Series{Name: name + " protocol, round snapshots, mean", X: f.SimYRound[i].T, Y: f.SimYRound[i].Mean, Color: i, Dotted: true})
	}
	sp.Probability = true
	return sp
}

// timeSeriesSpec draws model curves (solid) and simulated means (dashed)
// with their 5–95 % bands, one colour per case.
func timeSeriesSpec(title, ylabel string, names []string, ts [][]float64, model [][]float64, sims []sim.Trajectory, bands []Band, modelName, simName string) *plots.Spec {
	sp := &plots.Spec{Title: title, XLabel: "t (rounds)", YLabel: ylabel}
	for i := range names {
		sp.Series = append(sp.Series, plots.Series{Name: names[i] + " " + modelName, X: ts[i], Y: model[i], Color: i})
		sp.Series = append(sp.Series, band(names[i]+" "+simName, sims[i], bands[i], i))
	}
	return sp
}

// Band is a simulated curve's 5 % and 95 % quantiles over the runs, per
// round: unlike mean ± sd it stays within the curve's range [0, 1].
type Band struct{ Lo, Hi []float64 }

// quantileBands returns the 5–95 % bands of x and of per-event y.
func quantileBands(res *sim.Result) (x, y Band) {
	for _, r := range res.Summary() {
		x.Lo, x.Hi = append(x.Lo, r.XQ05), append(x.Hi, r.XQ95)
		y.Lo, y.Hi = append(y.Lo, r.YQ05), append(y.Hi, r.YQ95)
	}
	return x, y
}

// band is a simulated mean (dashed) with its 5–95 % band.
func band(name string, tr sim.Trajectory, b Band, color int) plots.Series {
	return plots.Series{Name: name, X: tr.T, Y: tr.Mean, Lo: b.Lo, Hi: b.Hi, Color: color, Dashed: true}
}

// renderReplication writes section 3 (Fig. 7).
func (r *Fig78) renderReplication(d *Doc) error {
	if err := d.claimFigure("**Paper (Sec. 5.1):** the simulations show \"the same initial increase in replicas\" as x(t) and \"in all cases the steady state reaches precisely the expected value c/n\".\n", "fig7", r.fig7()); err != nil {
		return err
	}
	d.printf("The plateau: d's insertion overwrites a copy of an item already there (the source's protocol), and a lossless shuffle loses none, so the network simulated holds n + 1 distinct items after t = 0 (n only if the copy overwritten was its item's last: probability about %.1g here, from binomial replica counts (an approximation, not a bound)). The shuffle treats items alike, so at steady state each of them, d included, is held by c/(n+1) of the nodes in expectation: the protocol's exact plateau. The paper's c/n, the plateau of its ODE (drawn here as the paper's), is the n → ∞ reading, c/(n(n+1)) higher.\n", r.LastCopy)
	for i, n := range r.Ns {
		row := r.Rows[i]
		w := row.WindowX
		d.printf("- n = %d: steady state: c/(n+1) = %.4g (the protocol's), c/n = %.4g (the paper's), %.4g ± %.2g measured (mean over the last fifth of the rounds and the replications ± its standard error: %.1f and %.1f standard errors from the two). Take-off (ODE between %g %% and %g %% of c/n): t = %s, where the ODE lies within one sd + half a node of the protocol mean at %s of the rounds (bootstrap interval %s; largest gap %.4f at t = %.0f; over all rounds: %.0f%%).\n",
			n, row.SteadyProtocol, row.SteadyCOverN, row.XLateMean, row.XLateSE, math.Abs(row.XLateMean-row.SteadyProtocol)/row.XLateSE, math.Abs(row.XLateMean-row.SteadyCOverN)/row.XLateSE,
			100*claim.WindowLo, 100*claim.WindowHi, w.Span(), claim.Pct(w.Within), claim.IntervalText(row.CIX), w.Max, w.At, 100*row.GapX.WithinSD)
	}
	return nil
}

// renderCoverage writes section 4 (Fig. 8).
func (r *Fig78) renderCoverage(d *Doc) error {
	if err := d.claimFigure("**Paper (Sec. 5.2):** \"the solution y(t) models the behaviour observed in simulations, falling nicely within the standard deviation of the simulation results\", and coverage eventually reaches 1.\n", "fig8", r.fig8()); err != nil {
		return err
	}
	for i, n := range r.Ns {
		row := r.Rows[i]
		at := int(row.GapY.At)
		how := "the mean of the runs lags the ODE (a single initial copy: the take-off time is random, and the mean of delayed logistic curves is flatter than the curve)"
		if r.SimY[i].Mean[at] > r.ModelY[i][at] {
			how = "the mean of the runs is ahead of the ODE"
		}
		d.printf("- n = %d: the ODE lies within one sd of the simulated mean at %.0f%% of the rounds; the largest gap, %.3f, is at t = %d, where %s. Final coverage %.4g.\n",
			n, 100*row.GapY.WithinSD, row.GapY.Max, at, how, row.YFinal)
	}
	d.printf("\n**Two coverage records.** The ODE's y(t) counts a node the moment it receives d: dy/dt = 2p·x(1−y) counts every reception, so it models the *per-event* record. The paper measured coverage from *round snapshots* (Sec. 5.2: at every round the holders are identified and a record kept), which misses a node that receives d and passes it on or drops it within the round; the snapshot record lags while d spreads (dotted curves). Verdict on \"falls nicely within the standard deviation\", per measure, by the rule: %s. The share of the take-off rounds within one sd is shown beside, as a description: it is not graded (its interval spanned 0–100 %% at 10 replications and shrinks in jumps). Over the plateau the runs are all covered, sd = 0 and the ODE is 1 − 10⁻¹³: rounding, not disagreement, which the take-off window and the half-node tolerance leave out.\n\n", claim.GrowthDistText("the growth of coverage at every n"))
	for i, n := range r.Ns {
		row := r.Rows[i]
		we, wr, rec := row.WindowY, row.WindowYRound, row.Records
		ve, vr := claim.GrowthRule([]NetGrowth{row.GrowthY}), claim.GrowthRule([]NetGrowth{row.GrowthYRound})
		d.printf("- n = %d: take-off t = %s; per event **%s** (growth %s; within one sd at %s of the take-off rounds, bootstrap interval %s, largest gap %.3f at t = %.0f; over all rounds within one sd at %.0f%%); round snapshots **%s** (growth %s; %s, interval %s, largest gap %.3f at t = %.0f; all rounds %.0f%%). The two records differ by up to %.3f (t = %.0f).\n",
			n, we.Span(), ve, row.GrowthY.Describe(), claim.Pct(we.Within), claim.IntervalText(row.CIY), we.Max, we.At, 100*row.GapY.WithinSD, vr, row.GrowthYRound.Describe(), claim.Pct(wr.Within), claim.IntervalText(row.CIYRound), wr.Max, wr.At, 100*row.GapYRound.WithinSD, rec.Max, rec.At)
	}
	d.printf("\nODE against protocol simulation (times in rounds; a time is where the mean curve first reaches the level):\n")
	return d.table("ode_vs_sim", odeVsSimTable(r.Rows))
}

// fig78Growth measures the growth times of one n's runs against the ODE of
// the network simulated.
func fig78Growth(row *ODEvsSimRow, res, more *sim.Result, sc Scale) error {
	m, err := approx.NewModel(approx.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: protocolItems(row.N), Cache: sc.Cache, Exchange: sc.Exchange}, PDrop: approx.Simplified, Initial: 1})
	if err != nil {
		return err
	}
	N, K := float64(sc.Nodes), m.Steady()
	var xs, ys, yrs [][]int32
	for _, rep := range res.Reps {
		xs, ys, yrs = append(xs, rep.X), append(ys, rep.Y), append(yrs, rep.YRound)
	}
	if more != nil {
		for _, rep := range more.Reps {
			xs, ys, yrs = append(xs, rep.X), append(ys, rep.Y), append(yrs, rep.YRound)
		}
	}
	tx := m.TimeToReplication(claim.GrowthHi*K) - m.TimeToReplication(claim.GrowthLo*K)
	ty := m.TimeToCoverage(claim.GrowthHi) - m.TimeToCoverage(claim.GrowthLo)
	row.GrowthX = claim.MeasureGrowth(xs, claim.GrowthLo*K*N, claim.GrowthHi*K*N, tx)
	row.GrowthY = claim.MeasureGrowth(ys, claim.GrowthLo*N, claim.GrowthHi*N, ty)
	row.GrowthYRound = claim.MeasureGrowth(yrs, claim.GrowthLo*N, claim.GrowthHi*N, ty)
	return nil
}
