package report

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/report/internal/claim"
	"github.com/gossipkit/gossipkit/sim"
)

// Parts (b) and (c) of the section "The shuffle protocol on a real
// network": message loss (each message of a shuffle lost with
// probability ε; docs/MODEL.md) and the uniformity the model assumes.

// The loss settings.
var (
	// lossEps: the ε of the exact chain's table.
	lossEps = []float64{0, 0.01, 0.05, 0.1, 0.2, 0.3}
	// lossMCEps: the ε of the protocol Monte Carlo.
	lossMCEps = []float64{0.1, 0.3}
)

// lossLevel: the coverage before which extinction is counted.
const lossLevel = 0.99

// LossChainRow is the exact chain (pairwise model, continuous time, one
// initial copy) at N nodes and loss ε: PExtinct = 1 − P(T_L < ∞), the
// probability that d dies before lossLevel of the nodes have held it; the
// mean and sd of T_L given that it is reached; and the mean and sd of d's
// lifetime (the time to X = 0; +Inf without loss).
type LossChainRow struct {
	N                   int
	Loss                float64
	PExtinct            float64
	TMean, TSD          float64
	LifeMean, LifeSD    float64
	Factor              float64 // f = (1 − ε)(1 − ε/2)
	TMeanTimesF, TMean0 float64
}

// LossMCRow is the protocol Monte Carlo at loss ε (N nodes, Runs runs):
// the share of runs in which d died before lossLevel coverage (± its
// binomial standard error) beside the exact chain's probability, the items
// alive at t = 0, and the growth times of replication and coverage of the
// runs in which d did not die, against the ODE at ε (the lossless one on a
// clock slowed by f).
type LossMCRow struct {
	N, Runs          int
	Loss, Factor     float64
	Alive            float64
	PExtinct, SE     float64
	ChainPExtinct    float64
	GrowthX, GrowthY NetGrowth
}

// UniformityRow is one steady-state study of the replica counts
// (sim.Uniformity): its setting, the variance ratio of an item's replica
// count against the zero-truncated Bin(N, c/n_alive) with its standard
// error and interval, the goodness-of-fit p-values (first snapshot of
// each run; every snapshot pooled), and the lag-1 correlation of the
// counts between snapshots.
type UniformityRow struct {
	What                 string
	N, Items, Cache, S   int
	Loss                 float64
	Topology             string
	Reps                 int
	Alive                float64
	VarRatio, VarRatioSE float64
	Lo, Hi               float64
	FirstPValue, PValue  float64
	Lag1Corr             float64
	Descriptors          bool
}

// lossScale returns the sizes of part (b): the chain's N (the last is the
// Monte Carlo's), runs and rounds (zero values: 100 and Nodes, and
// NetReps and NetRounds).
func (sc Scale) lossScale() (ns []int, reps, rounds int) {
	ns, reps, rounds = sc.LossNs, sc.LossReps, sc.LossRounds
	if len(ns) == 0 {
		ns = []int{min(100, sc.Nodes), sc.Nodes}
		if ns[0] == ns[1] {
			ns = ns[1:]
		}
	}
	_, _, netReps, _, netRounds := sc.netScale()
	if reps <= 0 {
		reps = netReps
	}
	if rounds <= 0 {
		rounds = netRounds
	}
	return
}

// loss computes part (b).
func (s *Study) loss(ctx context.Context, r *Network) error {
	sc := s.Scale
	ns, reps, rounds := sc.lossScale()
	_, _, _, warmup, _ := sc.netScale()
	netNs, _, _, _, _ := sc.netScale()
	n := netNs[0]
	r.LossItems = n
	sh := gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}
	s.step("real network: the exact chain with loss")
	chainPExt := map[[2]float64]float64{}
	chainNs := ns
	if s.run.Sharding() {
		chainNs = nil // a shard's output is thrown away: the merge solves the chains
	}
	for _, N := range chainNs {
		var t0 float64
		for _, eps := range lossEps {
			cfg := chain.Config{Nodes: N, Shuffle: sh, Loss: eps, Level: lossLevel}
			reach, err := chain.ReachProbability(ctx, cfg)
			if err != nil {
				return err
			}
			tm, tsd, err := chain.MeanTimeToLevel(ctx, cfg)
			if err != nil {
				return err
			}
			lm, lsd, err := chain.Lifetime(ctx, cfg)
			if err != nil {
				return err
			}
			if eps == 0 {
				t0 = tm
			}
			f := approx.LossFactor(eps)
			row := LossChainRow{N: N, Loss: eps, PExtinct: 1 - reach, TMean: tm, TSD: tsd, LifeMean: lm, LifeSD: lsd, Factor: f, TMeanTimesF: tm * f, TMean0: t0}
			r.LossChain = append(r.LossChain, row)
			chainPExt[[2]float64{float64(N), eps}] = row.PExtinct
		}
	}
	N := ns[len(ns)-1]
	for _, eps := range lossMCEps {
		s.step(fmt.Sprintf("real network: protocol with loss %g", eps))
		cfg := sim.DefaultConfig()
		cfg.Model, cfg.Nodes, cfg.Shuffle, cfg.Loss = sim.Protocol, N, sh, eps
		cfg.Warmup, cfg.Rounds, cfg.Reps = warmup, rounds, reps
		res, err := s.simulate(ctx, cfg)
		if err != nil {
			return err
		}
		alive, _ := res.AliveMean()
		row := LossMCRow{N: N, Runs: len(res.Reps), Loss: eps, Factor: approx.LossFactor(eps), Alive: alive, ChainPExtinct: chainPExt[[2]float64{float64(N), eps}]}
		// The ODE at ε with the items alive at t = 0 (the model takes n as
		// given).
		items := n
		if !math.IsNaN(alive) && alive >= float64(sc.Cache) {
			items = int(math.Round(alive))
		}
		m, err := approx.NewModel(approx.Config{Nodes: N, Shuffle: gossip.Shuffle{Items: items, Cache: sc.Cache, Exchange: sc.Exchange}, Initial: 1, Loss: eps})
		if err != nil {
			return err
		}
		level := int32(math.Ceil(lossLevel * float64(N)))
		var xs, ys [][]int32
		died := 0
		for _, rep := range res.Reps {
			if t := rep.Extinction(); t >= 0 {
				if reached := firstAtLeast(rep.Y, level); reached < 0 || reached > t {
					died++
				}
				continue // no growth to time in a run whose d died
			}
			xs, ys = append(xs, rep.X), append(ys, rep.Y)
		}
		R := float64(len(res.Reps))
		row.PExtinct = float64(died) / R
		row.SE = math.Sqrt(row.PExtinct * (1 - row.PExtinct) / R)
		K, fN := m.Steady(), float64(N)
		row.GrowthX = claim.MeasureGrowth(xs, claim.GrowthLo*K*fN, claim.GrowthHi*K*fN, m.TimeToReplication(claim.GrowthHi*K)-m.TimeToReplication(claim.GrowthLo*K))
		row.GrowthY = claim.MeasureGrowth(ys, claim.GrowthLo*fN, claim.GrowthHi*fN, m.TimeToCoverage(claim.GrowthHi)-m.TimeToCoverage(claim.GrowthLo))
		r.LossMC = append(r.LossMC, row)
	}
	return nil
}

// firstAtLeast is the first index at which c reaches level, −1 if never.
func firstAtLeast(c []int32, level int32) int {
	for t, v := range c {
		if v >= level {
			return t
		}
	}
	return -1
}

// uniformityCases are the settings of part (c) at N nodes: the paper's
// shuffle (n, c, s), the same with loss 1/10, small caches (c = 20,
// s = 10, n = 10c), and node descriptors with a Cyclon-like view (n = N,
// c = 20, s = 5), whose replica counts are the nodes' in-degrees.
func uniformityCases(N, n, c, s int) []sim.UniformityConfig {
	base := sim.UniformityConfig{Nodes: N, Shuffle: gossip.Shuffle{Items: n, Cache: c, Exchange: s}}
	lossy := base
	lossy.Loss = uniformityLoss
	small := sim.UniformityConfig{Nodes: N, Shuffle: gossip.Shuffle{Items: 200, Cache: 20, Exchange: 10}}
	desc := sim.UniformityConfig{Nodes: N, Shuffle: gossip.Shuffle{Cache: 20, Exchange: 5}, Descriptors: true}
	return []sim.UniformityConfig{base, lossy, small, desc}
}

// uniformity computes part (c).
func (s *Study) uniformity(ctx context.Context, r *Network) error {
	sc := s.Scale
	ns, reps, _ := sc.lossScale()
	_, _, _, warmup, _ := sc.netScale()
	N := ns[len(ns)-1]
	netNs, _, _, _, _ := sc.netScale()
	for _, cfg := range uniformityCases(N, netNs[0], sc.Cache, sc.Exchange) {
		cfg.Warmup, cfg.Snapshots, cfg.Spacing, cfg.Reps, cfg.Seed = min(max(2*warmup, uniformityWarmup), 5*uniformityWarmup), uniformitySnapshots, uniformitySpacing, max(2, reps/2), sc.Seed
		what := "items"
		if cfg.Descriptors {
			what = "node descriptors (in-degree)"
		}
		s.step(fmt.Sprintf("real network: uniformity of %s, N = %d, c = %d, s = %d, loss %g", what, cfg.Nodes, cfg.Shuffle.Cache, cfg.Shuffle.Exchange, cfg.Loss))
		res, err := sim.Uniformity(ctx, cfg, sim.UniformitySettings{Workers: s.opt.Workers})
		if err != nil {
			return err
		}
		h := claim.TCrit(claim.ZDecide, len(res.Reps)) * res.VarRatioSE
		r.Uniformity = append(r.Uniformity, UniformityRow{What: what, N: N, Items: res.Items, Cache: cfg.Shuffle.Cache, S: cfg.Shuffle.Exchange, Loss: cfg.Loss, Topology: cfg.Topology.String(),
			Reps: len(res.Reps), Alive: res.Alive, VarRatio: res.VarRatio, VarRatioSE: res.VarRatioSE, Lo: res.VarRatio - h, Hi: res.VarRatio + h,
			FirstPValue: res.FirstPValue, PValue: res.PValue, Lag1Corr: res.Lag1Corr, Descriptors: cfg.Descriptors})
	}
	return nil
}

const (
	uniformitySnapshots = 5
	uniformitySpacing   = 20
	// uniformityWarmup: the fewest rounds of mixing before the first
	// snapshot (the initial placement gives every item ⌊cN/n⌋ or ⌈cN/n⌉
	// copies, far less spread than the binomial; at c = 20, s = 10 the
	// counts 20 rounds apart still correlate at 0.66); twice the partial
	// views' warm-up where that is more, up to 5 times it.
	uniformityWarmup = 100
	uniformityLoss   = 0.1
	// uniformityTol: the variance ratio "is 1" within ±10 %.
	uniformityTol = 0.10
	// uniformityAlpha: a goodness-of-fit p-value (first snapshots only,
	// independent by construction) below it leaves the claim undecided,
	// below uniformityReject it rejects the binomial.
	uniformityAlpha  = 1e-3
	uniformityReject = 1e-6
)

// uniformityRule judges the binomial law of an item's replica count on
// rows: does not hold if some variance ratio's interval lies wholly
// outside ±uniformityTol of 1 or some first-snapshot p-value is below
// uniformityReject; holds if every interval lies within it and every
// p-value is at least uniformityAlpha; otherwise undecided at this scale.
func uniformityRule(rows []UniformityRow) string {
	if len(rows) == 0 {
		return claim.Unchecked
	}
	v := claim.Holds
	for _, row := range rows {
		switch {
		case claim.Within(Interval{Lo: row.Lo, Hi: row.Hi}, 1-uniformityTol, 1+uniformityTol) == claim.Contradicted || row.FirstPValue < uniformityReject:
			return claim.Fails
		case claim.Within(Interval{Lo: row.Lo, Hi: row.Hi}, 1-uniformityTol, 1+uniformityTol) == claim.Unresolved || !(row.FirstPValue >= uniformityAlpha):
			v = claim.Undecided
		}
	}
	return v
}

func uniformityRuleText() string {
	return fmt.Sprintf("the variance of an item's replica count at steady state over that of the zero-truncated Bin(N, c/n_alive), with its interval over the runs (Student's t at the level of %g normal standard errors), and the χ² goodness of fit at the first snapshot of each run (independent draws): every ratio's interval within ±%g %% of 1 and every p-value ≥ %g holds; a ratio wholly outside or a p-value below %g does not hold; otherwise undecided at this scale",
		float64(claim.ZDecide), 100*uniformityTol, uniformityAlpha, uniformityReject)
}

// uniformityVerdicts judge Sec. 3.2's assumption on the lossless item
// rows, and (a finding of this toolkit) the same under loss; the
// descriptor rows (in-degrees) are shown, not judged.
func (r *Network) uniformityVerdicts() []Verdict {
	var plain, lossy []UniformityRow
	for _, row := range r.Uniformity {
		switch {
		case row.Descriptors:
		case row.Loss > 0:
			lossy = append(lossy, row)
		default:
			plain = append(plain, row)
		}
	}
	m := func(rows []UniformityRow) string {
		var out []string
		for _, row := range rows {
			out = append(out, fmt.Sprintf("N = %d, n = %d, c = %d, s = %d: variance ratio %.3f ± %.3f (interval %.3f–%.3f), p = %.2g (first snapshots), %d runs", row.N, row.Items, row.Cache, row.S, row.VarRatio, row.VarRatioSE, row.Lo, row.Hi, row.FirstPValue, row.Reps))
		}
		return strings.Join(out, "; ")
	}
	return []Verdict{
		{Claim: "Sec. 3.2: \"a uniform distribution of items over the network\" (an item's replica count binomial, Bin(N, c/n))", Verdict: uniformityRule(plain), Rule: uniformityRuleText(), Measured: m(plain)},
		{Claim: fmt.Sprintf("finding of this toolkit: with message loss ε = %g an item's replica count stays binomial", uniformityLoss), Verdict: uniformityRule(lossy), Rule: uniformityRuleText(), Measured: m(lossy)},
	}
}

// lossVerdict judges the time change on the protocol runs with loss.
func (r *Network) lossVerdict() Verdict {
	var gs []NetGrowth
	var m []string
	need := math.NaN()
	for _, row := range r.LossMC {
		gs = append(gs, row.GrowthX, row.GrowthY)
		m = append(m, fmt.Sprintf("ε = %g (f = %.4f, %d of %d runs with d alive): replication %s, coverage %s", row.Loss, row.Factor, row.GrowthX.Runs, row.Runs, row.GrowthX.Describe(), row.GrowthY.Describe()))
		for _, g := range []NetGrowth{row.GrowthX, row.GrowthY} {
			if n := g.RepsToDecide(); !math.IsNaN(n) {
				need = math.Max(claim.NanToZero(need), n)
			}
		}
	}
	v := claim.GrowthRule(gs)
	measured := fmt.Sprintf("protocol, N = %d: %s", r.lossN(), strings.Join(m, "; "))
	if v == claim.Undecided && !math.IsNaN(need) {
		measured += "; " + claim.DecideText(need, "runs with d alive")
	}
	return Verdict{Claim: "finding of this toolkit: with each message lost with probability ε, the ODEs are the lossless ones on a clock slowed by f = (1 − ε)(1 − ε/2) (docs/MODEL.md)", Verdict: v,
		Rule: "as the network rows, on the protocol runs with loss in which d survives, against the ODE at ε: " + netRuleText(), Measured: measured,
		Short: claim.GrowthShort(v, gs, "runs with d alive: "+aliveText(r.LossMC))}
}

// aliveText lists the runs with d alive at each loss.
func aliveText(rows []LossMCRow) string {
	var out []string
	for _, row := range rows {
		out = append(out, fmt.Sprintf("%d of %d at ε = %g", row.GrowthX.Runs, row.Runs, row.Loss))
	}
	return strings.Join(out, ", ")
}

func (r *Network) lossN() int {
	if len(r.LossMC) > 0 {
		return r.LossMC[0].N
	}
	return 0
}

func (r *Network) lossChainTable() *plots.Table {
	t := &plots.Table{Keys: []string{"N", "loss", "f", "p_extinct", "t_mean_given_reach", "t_sd_given_reach", "t_mean_times_f", "t_mean_lossless", "lifetime_mean", "lifetime_sd"}}
	for _, row := range r.LossChain {
		t.Rows = append(t.Rows, []any{row.N, row.Loss, row.Factor, row.PExtinct, row.TMean, row.TSD, row.TMeanTimesF, row.TMean0, infCell(row.LifeMean), infCell(row.LifeSD)})
	}
	t.TextCell = func(col int, v any) string {
		if f, ok := v.(float64); ok && col >= 2 {
			if col >= 8 {
				return strconv.FormatFloat(f, 'g', 3, 64)
			}
			return strconv.FormatFloat(f, 'f', 4, 64)
		}
		return plots.Cell(v)
	}
	return t
}

// infCell is v, or nil (an empty cell) when it is infinite (a lifetime
// without loss, or beyond float64).
func infCell(v float64) any {
	if math.IsInf(v, 0) {
		return nil
	}
	return v
}

func (r *Network) lossMCTable() *plots.Table {
	t := &plots.Table{Keys: []string{"N", "loss", "f", "runs", "items_alive", "p_extinct_mc", "p_extinct_se", "p_extinct_chain", "runs_alive", "growth_x_ode", "growth_x_mean", "growth_x_se", "growth_x_ratio", "growth_y_ode", "growth_y_mean", "growth_y_se", "growth_y_ratio"}, TextCell: fixed(3)}
	for _, row := range r.LossMC {
		t.Rows = append(t.Rows, []any{row.N, row.Loss, row.Factor, row.Runs, row.Alive, row.PExtinct, row.SE, row.ChainPExtinct, row.GrowthY.Runs,
			row.GrowthX.ODE, row.GrowthX.Mean, row.GrowthX.SE, row.GrowthX.Ratio, row.GrowthY.ODE, row.GrowthY.Mean, row.GrowthY.SE, row.GrowthY.Ratio})
	}
	return t
}

func (r *Network) uniformityTable() *plots.Table {
	t := &plots.Table{Keys: []string{"items_are", "N", "n", "c", "s", "loss", "runs", "items_alive", "var_ratio", "var_ratio_se", "var_ratio_lo", "var_ratio_hi", "p_value_first", "p_value_pooled", "lag1_corr"}}
	for _, row := range r.Uniformity {
		what := "items"
		if row.Descriptors {
			what = "descriptors"
		}
		t.Rows = append(t.Rows, []any{what, row.N, row.Items, row.Cache, row.S, row.Loss, row.Reps, row.Alive, row.VarRatio, row.VarRatioSE, row.Lo, row.Hi, row.FirstPValue, row.PValue, row.Lag1Corr})
	}
	t.TextCell = func(col int, v any) string {
		if f, ok := v.(float64); ok && !math.IsNaN(f) {
			if col == 12 || col == 13 {
				return strconv.FormatFloat(f, 'g', 3, 64)
			}
			return strconv.FormatFloat(f, 'f', 3, 64)
		}
		return plots.Cell(v)
	}
	return t
}

// lossSpec draws the probability that d dies before coverage lossLevel
// against ε: the exact chain at each N, and the protocol's share with ±2
// standard errors.
func (r *Network) lossSpec() *plots.Spec {
	sp := &plots.Spec{Title: fmt.Sprintf("Extinction of a new item before %g %% coverage, n = %d, c = %d, s = %d", 100*lossLevel, r.LossItems, r.Cache, r.Exchange),
		XLabel: "message loss ε", YLabel: "P(d dies first)", Probability: true}
	hi := 0.32 // room for the last ε's marker
	sp.XMax = &hi
	byN := map[int]*plots.Series{}
	var order []int
	for _, row := range r.LossChain {
		if byN[row.N] == nil {
			byN[row.N] = &plots.Series{Name: fmt.Sprintf("exact chain, N = %d", row.N), Color: len(order)}
			order = append(order, row.N)
		}
		byN[row.N].X, byN[row.N].Y = append(byN[row.N].X, row.Loss), append(byN[row.N].Y, row.PExtinct)
	}
	for _, N := range order {
		sp.Series = append(sp.Series, *byN[N])
	}
	mc := plots.Series{Name: fmt.Sprintf("protocol, N = %d, ± 2 standard errors", r.lossN()), Points: true, Color: 6}
	for _, row := range r.LossMC {
		mc.X, mc.Y = append(mc.X, row.Loss), append(mc.Y, row.PExtinct)
		mc.Lo, mc.Hi = append(mc.Lo, math.Max(0, row.PExtinct-claim.ZSignificant*row.SE)), append(mc.Hi, math.Min(1, row.PExtinct+claim.ZSignificant*row.SE))
	}
	if len(mc.X) > 0 {
		sp.Series = append(sp.Series, mc)
	}
	return sp
}

// renderLoss writes part (b).
func (r *Network) renderLoss(d *Doc) error {
	v := r.lossVerdict()
	d.printf("\n**(b) Message loss.** Each message of a shuffle, the request and the reply, is lost with probability ε: a lost request changes nothing; a lost reply leaves A's cache as it was while B has taken A's items and dropped what it sent to make room, so those items may reach no one, and d, held by one node that sends it and drops it, can die (01 → 00; docs/MODEL.md). The model's answers: the exact pairwise chain with X = 0 absorbing (`chain`, `gossipkit chain --loss ε`) gives the probability that d dies before %g %% of the nodes have held it (1 − P(T_L < ∞)), the law of T_L given it is reached, and d's lifetime, the time to X = 0 (n = %d, c = %d, s = %d, one initial copy):\n", 100*lossLevel, r.LossItems, r.Cache, r.Exchange)
	if err := d.figure("network_loss", r.lossSpec()); err != nil {
		return err
	}
	if err := d.table("network_loss_chain", r.lossChainTable()); err != nil {
		return err
	}
	d.printf("\nOnce d has taken off it dies only by a fluctuation from the plateau c/n to 0: its mean lifetime (from one copy) %s, growing exponentially with N. It dies, if at all, in its first rounds, while one or two nodes hold it, with a probability that grows about linearly in ε at first (the chance a lone holder loses d in a shuffle, a·ε·p·q, against that of a copy, u). The mean field at ε is the lossless one on a clock slowed by f = (1 − ε)(1 − ε/2) (the plateau c/n unmoved); the chain's mean time to coverage given that d survives is *not* the lossless one divided by f (`t_mean_times_f` against `t_mean_lossless`): the runs that survive are those that started fast. The protocol with loss (%d runs at N = %d per ε, the same warm-up as (a); `items_alive`: distinct items other than d alive at t = 0) against the chain's extinction probability, and its growth times in the runs where d survives against the ODE at ε:\n", r.lifetimeText(), r.lossRuns(), r.lossN())
	if err := d.table("network_loss_mc", r.lossMCTable()); err != nil {
		return err
	}
	d.printf("\nVerdict on the time change: **%s** (%s).\n", v.Verdict, v.Measured)
	return nil
}

// lifetimeText states the range of the finite mean lifetimes with loss at
// each N of the chain's table.
func (r *Network) lifetimeText() string {
	var parts []string
	seen := map[int]bool{}
	for _, first := range r.LossChain {
		N := first.N
		if seen[N] {
			continue
		}
		seen[N] = true
		lo, hi := math.Inf(1), 0.0
		var epsLo, epsHi float64
		for _, row := range r.LossChain {
			if row.N != N || row.Loss == 0 || math.IsInf(row.LifeMean, 0) {
				continue
			}
			if row.LifeMean < lo {
				lo, epsLo = row.LifeMean, row.Loss
			}
			if row.LifeMean > hi {
				hi, epsHi = row.LifeMean, row.Loss
			}
		}
		if hi > 0 {
			parts = append(parts, fmt.Sprintf("from %.3g rounds at ε = %g to %.3g at ε = %g when N = %d", lo, epsLo, hi, epsHi, N))
		}
	}
	if len(parts) == 0 {
		return "is beyond float64 at every ε here"
	}
	return "runs " + strings.Join(parts, ", and ")
}

func (r *Network) lossRuns() int {
	if len(r.LossMC) > 0 {
		return r.LossMC[0].Runs
	}
	return 0
}

// renderUniformity writes part (c).
func (r *Network) renderUniformity(d *Doc) error {
	vs := r.uniformityVerdicts()
	d.printf("\n**(c) The uniformity the model assumes.** The paper's Sec. 3.2 assumes \"a uniform distribution of items over the network\" (\"supported by experiments\"): every cache a uniform sample, so that an item's replica count is binomial, Bin(N, c/n), the exact chain's stationary law (zero-truncated: an item held nowhere is dead). From protocol runs at steady state (`sim.Uniformity`: %d snapshots %d rounds apart after the warm-up, every item's replica count at each), the variance of the counts against the binomial's and a χ² goodness of fit; with node descriptors as the items (n = N, a Cyclon-like view of 20 with shuffles of 5), the count is a node's in-degree, whose law decides how evenly the partial views of (a) load the nodes:\n", uniformitySnapshots, uniformitySpacing)
	if err := d.table("network_uniformity", r.uniformityTable()); err != nil {
		return err
	}
	for _, row := range r.Uniformity {
		if row.Descriptors {
			how := map[claim.Check]string{claim.Passed: "the in-degrees are as spread as the binomial's (within ±10 %)", claim.Contradicted: "the in-degrees are spread unlike the binomial's (beyond ±10 %)", claim.Unresolved: "this scale cannot tell the spread of the in-degrees from the binomial's within ±10 %"}[claim.Within(Interval{Lo: row.Lo, Hi: row.Hi}, 1-uniformityTol, 1+uniformityTol)]
			d.printf("\nIn-degree (node descriptors, N = %d, view c = %d, shuffles of s = %d): variance ratio %.3f ± %.3f against the binomial (interval %.3f–%.3f), p = %.2g at the first snapshots: %s.\n", row.N, row.Cache, row.S, row.VarRatio, row.VarRatioSE, row.Lo, row.Hi, row.FirstPValue, how)
		}
	}
	d.printf("\nSec. 3.2's assumption: **%s**. Under loss ε = %g: **%s** (in a lost reply B drops items of S_B \\ S_A that A never receives: drops unpaired with receipts, and the counts wander further than the binomial's). `lag1_corr` is the correlation of an item's counts %d rounds apart: near 1 the pooled p-value counts the same draws again, and only the first snapshot's p-value (the one the verdict reads) stands. Rule: %s.\n", vs[0].Verdict, uniformityLoss, vs[1].Verdict, uniformitySpacing, uniformityRuleText())
	return nil
}
