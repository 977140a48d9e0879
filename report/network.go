package report

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/report/internal/claim"
	"github.com/gossipkit/gossipkit/sim"
)

// Network is the section "The shuffle protocol on a real network": the
// experiment of Figs. 7–8 on partial views beside the complete graph.
//
//   - Views: the protocol of Figs. 7–8 (N = Scale.Nodes, c, s, each n of
//     Scale.NetNs) on the complete graph (the runs of sections 3–4), on a
//     random NetDegree-regular graph (a Cyclon-like partial view: each node
//     knows NetDegree others, a partner drawn uniformly among them) and on
//     a random geometric graph on the unit torus (a wireless network: the
//     nodes within a radius chosen so that the mean degree is NetDegree),
//     against the ODE's x(t) and y(t). Each is graded by the growth times
//     of replication and coverage (rounds from 10 % to 90 % of the
//     plateau), which leave out the random delay of the take-off that the
//     mean of the runs smears (section 4).
type Network struct {
	Nodes, Cache, Exchange int
	Degree                 int
	Radius                 float64
	Ns                     []int
	// ODE curves per n (in the order of Ns), at every round of the
	// longest horizon.
	ODET, ODEX, ODEY [][]float64
	Views            []NetworkView
	// Optima: the exact argmaxes of Sec. 3.5's transition probabilities.
	Optima []OptimaRow
	// LossChain, LossMC: part (b), message loss, with LossItems items;
	// Uniformity: part (c).
	LossItems  int
	LossChain  []LossChainRow
	LossMC     []LossMCRow
	Uniformity []UniformityRow
}

// NetworkView is one network's runs: its topology, mean degree, whether
// the graph is connected, and per n (in the order of Network.Ns) the mean
// curves and the row of the table.
type NetworkView struct {
	Name       string
	Topology   sim.Topology
	MeanDegree float64
	Connected  bool
	Warmup     int
	Reused     bool // the runs of Figs. 7–8 (sections 3–4)
	X, Y       []sim.Trajectory
	Rows       []NetworkRow
}

// NetworkRow compares the protocol on one network at one n with the ODE:
// the largest gaps of the mean curves, the time to 90 % coverage (mean ±
// standard error over the runs; the ODE's), the late mean of x against
// c/n, and the growth times of x and y.
type NetworkRow struct {
	Topology           string
	N, Runs            int
	GapX, GapY         sim.Gap
	T90ODE             float64
	T90Mean, T90SE     float64
	XLateMean, XLateSE float64
	GrowthX, GrowthY   NetGrowth
}

// The section's settings and rules.
const (
	// netDegree: the partial views' degree when Scale.NetDegree is 0
	// (Cyclon's default view holds 20 descriptors).
	netDegree = 20
)

// netScale returns the sizes of the network section, the defaults for
// zero fields: the first n of Ns, the degree netDegree, and the
// replications, warm-up and rounds of Figs. 7–8.
func (sc Scale) netScale() (ns []int, degree, reps, warmup, rounds int) {
	ns, degree, reps, warmup, rounds = sc.NetNs, sc.NetDegree, sc.NetReps, sc.NetWarmup, sc.NetRounds
	if len(ns) == 0 {
		ns = sc.Ns[:1]
	}
	if degree <= 0 {
		degree = netDegree
	}
	if reps <= 0 {
		reps = sc.Reps
	}
	if warmup <= 0 {
		warmup = sc.Warmup
	}
	if rounds <= 0 {
		rounds = sc.Rounds
	}
	return
}

// torusRadius is the radius at which a node of the unit torus has mean
// degree d among N nodes, (N − 1)·π·r² = d, rounded to 3 significant
// digits (so that `sim --topology torus:R` repeats it as written).
func torusRadius(N, d int) float64 {
	r := math.Sqrt(float64(d) / (math.Pi * float64(N-1)))
	r, _ = strconv.ParseFloat(strconv.FormatFloat(r, 'g', 3, 64), 64)
	return r
}

// Network computes the section.
func (s *Study) Network(ctx context.Context) (*Network, error) {
	if err := s.ready(true); err != nil {
		return nil, err
	}
	sc := s.Scale
	ns, degree, reps, warmup, rounds := sc.netScale()
	degree = min(degree, sc.Nodes-1)
	if sc.Nodes*degree%2 != 0 {
		degree-- // a regular graph needs N·degree even
	}
	r := &Network{Nodes: sc.Nodes, Cache: sc.Cache, Exchange: sc.Exchange, Degree: degree, Radius: torusRadius(sc.Nodes, degree), Ns: ns}
	full := NetworkView{Name: "complete graph", Topology: sim.Topology{Kind: sim.Full}, MeanDegree: float64(sc.Nodes - 1), Connected: true, Warmup: sc.Warmup}
	regular := NetworkView{Name: fmt.Sprintf("random %d-regular graph", degree), Topology: sim.Topology{Kind: sim.Regular, Degree: degree}, Warmup: warmup}
	torus := NetworkView{Name: fmt.Sprintf("random geometric graph on the torus (radius %g)", r.Radius), Topology: sim.Topology{Kind: sim.Torus, Radius: r.Radius}, Warmup: warmup}
	views := []*NetworkView{&full, &regular, &torus}
	var f *Fig78
	for _, n := range ns {
		m, err := approx.NewModel(approx.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}, PDrop: approx.Simplified, Initial: 1})
		if err != nil {
			return nil, err
		}
		T := max(rounds, sc.Rounds)
		var tt, mx, my []float64
		for t := 0; t <= T; t++ {
			tt, mx, my = append(tt, float64(t)), append(mx, m.X(float64(t))), append(my, m.Y(float64(t)))
		}
		r.ODET, r.ODEX, r.ODEY = append(r.ODET, tt), append(r.ODEX, mx), append(r.ODEY, my)
		for _, v := range views {
			var res *sim.Result
			if v.Topology.Kind == sim.Full && containsInt(sc.Ns, n) {
				// The runs of Figs. 7–8 (sections 3–4).
				if f == nil {
					if f, err = s.Fig78(ctx); err != nil {
						return nil, err
					}
				}
				res, v.Reused = f.Runs[n], true
			} else {
				s.step(fmt.Sprintf("real network: protocol on the %s, n = %d", v.Name, n))
				cfg := sim.DefaultConfig()
				cfg.Model, cfg.Nodes, cfg.Shuffle = sim.Protocol, sc.Nodes, gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}
				cfg.Warmup, cfg.Rounds, cfg.Reps, cfg.Topology = warmup, rounds, reps, v.Topology
				if v.Topology.Kind == sim.Torus && sc.TorusReps > 0 {
					cfg.Reps = sc.TorusReps
				}
				if v.Topology.Kind == sim.Full {
					cfg.Warmup = sc.Warmup
				}
				if res, err = s.simulate(ctx, cfg); err != nil {
					return nil, err
				}
			}
			v.Connected = res.Connected
			if v.Topology.Kind == sim.Torus {
				v.MeanDegree = float64(sc.Nodes-1) * math.Pi * r.Radius * r.Radius
			} else if v.Topology.Kind == sim.Regular {
				v.MeanDegree = float64(degree)
			}
			v.Rows = append(v.Rows, netRow(v.Name, m, res, mx, my))
			x, y := res.Trajectories()
			v.X, v.Y = append(v.X, x), append(v.Y, y)
		}
	}
	r.Views = []NetworkView{full, regular, torus}
	if err := s.loss(ctx, r); err != nil {
		return nil, err
	}
	if s.run.Sharding() {
		// A shard's output is thrown away and the work below goes through
		// no runner: only the merge does it.
		return r, nil
	}
	if err := s.uniformity(ctx, r); err != nil {
		return nil, err
	}
	s.step("real network: the exact optima of Sec. 3.5")
	var err error
	if r.Optima, err = optima(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

func containsInt(v []int, x int) bool {
	for _, y := range v {
		if y == x {
			return true
		}
	}
	return false
}

// netRow measures the runs of res against the ODE m (its curves mx, my at
// every round, at least as long as the runs).
func netRow(name string, m approx.Model, res *sim.Result, mx, my []float64) NetworkRow {
	sx, sy := res.Trajectories()
	T := len(sx.T)
	row := NetworkRow{Topology: name, N: m.Shuffle.Items, Runs: len(res.Reps),
		GapX: sim.CompareTrajectory(mx[:T], sx), GapY: sim.CompareTrajectory(my[:T], sy),
		T90ODE: m.TimeToCoverage(0.9)}
	row.T90Mean, row.T90SE = claim.MeanSE(res.TimesToCoverage(0.9 * float64(res.Config.Nodes)))
	row.XLateMean, row.XLateSE = res.LateMean()
	N := float64(res.Config.Nodes)
	K := m.Steady()
	var xs, ys [][]int32
	for _, rep := range res.Reps {
		xs, ys = append(xs, rep.X), append(ys, rep.Y)
	}
	row.GrowthX = claim.MeasureGrowth(xs, claim.GrowthLo*K*N, claim.GrowthHi*K*N, m.TimeToReplication(claim.GrowthHi*K)-m.TimeToReplication(claim.GrowthLo*K))
	row.GrowthY = claim.MeasureGrowth(ys, claim.GrowthLo*N, claim.GrowthHi*N, m.TimeToCoverage(claim.GrowthHi)-m.TimeToCoverage(claim.GrowthLo))
	return row
}

// netRule judges "the ODE describes the protocol on the view" by the
// growth distances of replication and coverage at every n (claim.GradeBands).
func netRule(v NetworkView) string {
	var gs []NetGrowth
	for _, row := range v.Rows {
		gs = append(gs, row.GrowthX, row.GrowthY)
	}
	return claim.GrowthRule(gs)
}

func netRuleText() string {
	return claim.GrowthDistText("at every n, replication and coverage")
}

// netVerdict is the verdict row of one view.
func (r *Network) netVerdict(v NetworkView) Verdict {
	var m []string
	need := math.NaN()
	for _, row := range v.Rows {
		m = append(m, fmt.Sprintf("n = %d: replication %s, coverage %s", row.N, row.GrowthX.Describe(), row.GrowthY.Describe()))
		for _, g := range []NetGrowth{row.GrowthX, row.GrowthY} {
			if n := g.RepsToDecide(); !math.IsNaN(n) {
				need = math.Max(claim.NanToZero(need), n)
			}
		}
	}
	verdict := netRule(v)
	measured := fmt.Sprintf("%s (mean degree %.1f%s), %d runs per n: %s", v.Name, v.MeanDegree, map[bool]string{true: "", false: ", not connected"}[v.Connected], v.Rows[0].Runs, strings.Join(m, "; "))
	if verdict == claim.Undecided && !math.IsNaN(need) {
		measured += "; " + claim.DecideText(need, "runs per n")
	}
	var gs []NetGrowth
	for _, row := range v.Rows {
		gs = append(gs, row.GrowthX, row.GrowthY)
	}
	return Verdict{Claim: fmt.Sprintf("the model's ODE describes the protocol on the %s", v.Name), Verdict: verdict, Rule: netRuleText(), Measured: measured,
		Short: claim.GrowthShort(verdict, gs, fmt.Sprintf("%d runs per n", v.Rows[0].Runs))}
}

// Verdicts are the section's claims.
func (r *Network) Verdicts() (v []Verdict) {
	defer incompleteVerdicts(&v)
	if r == nil {
		return nil
	}
	var out []Verdict
	for _, v := range r.Views {
		out = append(out, r.netVerdict(v))
	}
	out = append(out, r.lossVerdict())
	out = append(out, r.uniformityVerdicts()...)
	return append(out, r.optimaVerdict())
}

func (r *Network) viewTable() *plots.Table {
	t := &plots.Table{Keys: []string{"topology", "mean_degree", "connected", "warmup", "n", "runs", "max_gap_x", "at_t_x", "max_gap_y", "at_t_y", "t90_ode", "t90_mean", "t90_se",
		"x_late_mean", "x_late_se", "growth_x_ode", "growth_x_mean", "growth_x_se", "growth_x_ratio", "growth_x_lo", "growth_x_hi", "growth_y_ode", "growth_y_mean", "growth_y_se", "growth_y_ratio", "growth_y_lo", "growth_y_hi", "censored"}}
	for _, v := range r.Views {
		for _, row := range v.Rows {
			hi := func(g NetGrowth) any {
				if math.IsInf(g.Hi, 1) {
					return nil
				}
				return g.Hi
			}
			t.Rows = append(t.Rows, []any{v.Topology.String(), v.MeanDegree, v.Connected, v.Warmup, row.N, row.Runs, row.GapX.Max, row.GapX.At, row.GapY.Max, row.GapY.At, row.T90ODE, row.T90Mean, row.T90SE,
				row.XLateMean, row.XLateSE, row.GrowthX.ODE, row.GrowthX.Mean, row.GrowthX.SE, row.GrowthX.Ratio, row.GrowthX.Lo, hi(row.GrowthX), row.GrowthY.ODE, row.GrowthY.Mean, row.GrowthY.SE, row.GrowthY.Ratio, row.GrowthY.Lo, hi(row.GrowthY), row.GrowthX.Censored + row.GrowthY.Censored})
		}
	}
	t.TextCell = func(col int, v any) string {
		if f, ok := v.(float64); ok && !math.IsNaN(f) {
			if col == 1 { // the mean degree
				return fmt.Sprintf("%.1f", f)
			}
			if col == 13 || col == 14 || col == 6 || col == 8 {
				return fmt.Sprintf("%.4f", f)
			}
			return fmt.Sprintf("%.2f", f)
		}
		return plots.Cell(v)
	}
	return t
}

// specs are the figure's panels: per n, x(t) and y(t), the ODE beside the
// protocol's mean on each network, up to the latest round any of them
// needs to reach the plateau.
func (r *Network) specs() []*plots.Spec {
	var out []*plots.Spec
	for i, n := range r.Ns {
		horizon := 0.0
		for _, v := range r.Views {
			for _, g := range []float64{v.Rows[i].T90Mean, r.Views[0].Rows[i].T90ODE} {
				if !math.IsNaN(g) {
					horizon = math.Max(horizon, 1.6*g)
				}
			}
		}
		cut := func(ts, ys []float64) ([]float64, []float64) {
			k := len(ts)
			for k > 1 && horizon > 0 && ts[k-1] > horizon {
				k--
			}
			return ts[:k], ys[:k]
		}
		panel := func(what, ylabel string, ode []float64, sims func(NetworkView) sim.Trajectory) *plots.Spec {
			sp := &plots.Spec{Title: fmt.Sprintf("%s, N = %d, n = %d, c = %d, s = %d", what, r.Nodes, n, r.Cache, r.Exchange), XLabel: "t (rounds)", YLabel: ylabel}
			x, y := cut(r.ODET[i], ode)
			sp.Series = append(sp.Series, plots.Series{Name: "ODE", X: x, Y: y, Color: 6})
			for j, v := range r.Views {
				tr := sims(v)
				x, y := cut(tr.T, tr.Mean)
				sp.Series = append(sp.Series, plots.Series{Name: "protocol mean, " + v.Name, X: x, Y: y, Color: j, Dashed: j == 0, Dotted: j == 2})
			}
			return sp
		}
		out = append(out, panel("Replication", "x(t)", r.ODEX[i], func(v NetworkView) sim.Trajectory { return v.X[i] }))
		cov := panel("Coverage", "y(t)", r.ODEY[i], func(v NetworkView) sim.Trajectory { return v.Y[i] })
		cov.Probability = true
		out = append(out, cov)
	}
	return out
}

// Render writes the section.
func (r *Network) Render(d *Doc) (err error) {
	defer incomplete("Network.Render", &err)
	if r == nil || d == nil {
		return nilRender("Network")
	}
	reg, tor := r.Views[1], r.Views[2]
	d.printf("**Question:** the paper's model, and everything this toolkit builds on it, lets every node shuffle with every other. The paper's own Sec. 5 says its Figs. 7–8 experiments \"assume full connectivity; that is, for each node, all other nodes are within reach\", \"unlike the experiments in Sec. 4\", whose network our text of the paper does not describe (it passes from Sec. 3.5 to Sec. 5; docs/MODEL.md): it was not complete, and that is all we know of it. Where the protocol runs, a node shuffles with the few peers it knows: a partial view (Cyclon keeps about %d), or the nodes within radio range. How far is the ODE from the protocol there?\n", netDegree)
	d.printf("\n**(a) Partial views.** The experiment of Figs. 7–8 (N = %d, c = %d, s = %d; one copy of d at t = 0) on three networks: the complete graph (%s%d warm-up rounds); a %s (each node's partner drawn uniformly among its %d neighbours); and a random geometric graph on the unit torus, the nodes within radius %g of each other (mean degree %.1f, a wireless-like network: the nodes within radio range)%s. The partial views run %d warm-up rounds (`sim --topology regular:%d` and `--topology torus:%g`). The mean of the runs lags the ODE on every network, the complete graph included (the take-off from one copy is delayed by a random time, section 4); the verdict grades what the ODE claims once d has taken off, the growth times of replication and coverage (rounds from %g %% to %g %% of the plateau), which leave that delay out.\n",
		r.Nodes, r.Cache, r.Exchange, map[bool]string{true: "the runs of sections 3–4, ", false: ""}[r.Views[0].Reused], r.Views[0].Warmup, reg.Name, r.Degree, r.Radius, tor.MeanDegree, map[bool]string{true: "", false: " (not connected: coverage cannot reach 1)"}[tor.Connected], reg.Warmup, r.Degree, r.Radius, 100*claim.GrowthLo, 100*claim.GrowthHi)
	if err := d.figure("network", r.specs()...); err != nil {
		return err
	}
	for i, n := range r.Ns {
		var parts []string
		for _, v := range r.Views {
			row := v.Rows[i]
			parts = append(parts, fmt.Sprintf("%s: T₉₀ %.1f ± %.1f rounds (ODE %.1f), coverage growth %.2f× the ODE's, replication growth %.2f×, largest |x̄ − x_ODE| %.4f, |ȳ − y_ODE| %.3f", v.Name, row.T90Mean, row.T90SE, row.T90ODE, row.GrowthY.Ratio, row.GrowthX.Ratio, row.GapX.Max, row.GapY.Max))
		}
		d.printf("- n = %d: %s.\n", n, strings.Join(parts, "; "))
	}
	d.printf("\nRule: %s.\n", netRuleText())
	if err := d.table("network", r.viewTable()); err != nil {
		return err
	}
	if err := r.renderLoss(d); err != nil {
		return err
	}
	if err := r.renderUniformity(d); err != nil {
		return err
	}
	return r.renderOptima(d)
}

// renderOptima writes part (d), the claim of Sec. 3.5.
func (r *Network) renderOptima(d *Doc) error {
	v := r.optimaVerdict()
	d.printf("\n**(d) The optima of Sec. 3.5.** The paper: \"the probabilities P(11|01) and P(11|10) should be optimized (then P(01|11) and P(10|11) are optimized as well, intuitively because for each duplicated item in a shuffle, another item must be dropped)\". By Fig. 1, P(11|10) = p(1 − q) and P(01|11) = P(10|11) = p(1 − p)q (p = s/c, q = P_drop). Under S = (n−c)/(n−s), 1 − q = (c−s)/(n−s), so P(01|11) = ((n−c)/c)·P(11|10) at every s: the two are maximised by the same s, and \"optimized\" there means that the exchange size that copies d fastest also makes a holder lose its copy most often. Under formula (1), q = S·(1 − 1/C(n,s)); with loss ε, P(11|10) = a·p·(a(1 − q) + ε) (a = 1 − ε: a lost reply leaves d at A and gives it to B, a copy made without a drop) while P(10|11) = a·p(1 − p)q and P(01|11) = a²·p(1 − p)q keep their lossless argmax, so the two part ways (the net replication rate, f·k with f = (1 − ε)(1 − ε/2) free of s, keeps its maximum at s*). Exact integer argmaxes (rational arithmetic, every s; ties to the smallest s): **%s** (%s).\n", v.Verdict, v.Measured)
	return d.table("network_optima", optimaTable(r.Optima))
}
