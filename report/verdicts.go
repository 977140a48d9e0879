package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/report/internal/claim"
	"github.com/gossipkit/gossipkit/tree"
)

// Verdicts judges the drop-probability claims.
func (r *DropProbability) Verdicts() (v []Verdict) {
	defer incompleteVerdicts(&v)
	if r == nil {
		return nil
	}
	hi := math.Inf(-1)
	for _, cu := range r.Curves {
		for _, v := range cu.Log10Diff {
			hi = math.Max(hi, v)
		}
	}
	// "Small": below 1 % in absolute terms (drop probabilities are O(1)).
	near := Verdict{Claim: "the simplification S = (n−c)/(n−s) is close to formula (1) (\"the correction factor is small\")", Verdict: claim.NearRule(hi),
		Measured: fmt.Sprintf("|E − S| ≤ 10^%.1f on the Fig. 4 grid", hi)}
	accurate := Verdict{Claim: "formula (1) is the accurate drop probability of an item of S_B \\ S_A", Verdict: claim.Unchecked, Measured: "enumeration incomplete"}
	if r.EnumPoints > 0 {
		accurate = Verdict{Claim: accurate.Claim, Verdict: claim.Fails,
			Measured: fmt.Sprintf("a tagged item's drop probability equals S, not formula (1), exactly at all %d enumerated points; formula (1) is the mean over shuffles of the per-shuffle probability", r.EnumPoints)}
		if !r.EnumAllSimplified {
			accurate.Verdict, accurate.Measured = claim.Unchecked, "enumeration did not single out S"
		}
	}
	gamma := Verdict{Claim: "formula (1) = (n−c)/((n−s) + 1/γ) (the γ identity)", Verdict: claim.Holds}
	switch {
	case r.GammaMismatch != nil:
		gamma.Verdict, gamma.Measured = claim.Fails, fmt.Sprint("mismatch at ", r.GammaMismatch.Shuffle)
	default:
		gamma.Measured = fmt.Sprintf("proved for every s (Theorems A and B, go doc ./exact); exact on %d grid points with s ≤ 24", r.GammaChecked)
		if len(r.Proofs) > 0 {
			gamma.Measured += fmt.Sprintf("; proved again per s for s ≤ %d (all n, c)", len(r.Proofs))
		}
		for _, p := range r.Proofs {
			if !p.Proved {
				gamma.Verdict, gamma.Measured = claim.Fails, fmt.Sprintf("refuted at s = %d", p.S)
				break
			}
		}
	}
	near.Rule, accurate.Rule, gamma.Rule = claim.NearRuleText(), claim.AccurateRuleText, claim.GammaRuleText
	return []Verdict{near, accurate, gamma}
}

// replicationVerdicts judges Fig. 1's transitions in the protocol, the
// steady state and Fig. 7. The first two are judged against the model of
// the network simulated, whose n + 1 items (the n of the warm-up and d:
// protocolItems) set P_drop and the plateau c/(n + 1); the paper's c/n
// and its matrix at n are stated beside them.
func (f *Fig78) replicationVerdicts() []Verdict {
	n0 := f.Ns[0]
	items := protocolItems(n0)
	sh := gossip.Shuffle{Items: n0, Cache: f.C, Exchange: f.S}
	qPaper, _ := approx.PDrop(approx.Simplified, sh)
	sh.Items = items
	q, _ := approx.PDrop(approx.Simplified, sh)
	trans := Verdict{Claim: "the transition probabilities of Fig. 1 describe an item's state in the protocol's shuffles", Verdict: claim.TransRule(f.Trans, f.reps()), Rule: claim.TransRuleText(),
		Measured: fmt.Sprintf("largest |measured − model| %.4f (%.1f standard errors of the spread between the %d replications; critical value %.2f), n = %d, the model at the n + 1 = %d items of the network simulated (P_drop = (n+1−c)/(n+1−s) = %.5f); against the matrix at n (P_drop = %.5f): %.4f, %.1f standard errors",
			f.Trans.MaxDiff, f.Trans.MaxZ, f.reps(), claim.TCrit(claim.TransZ, f.reps()), n0, items, q, qPaper, f.TransPaper.MaxDiff, f.TransPaper.MaxZ)}
	steady := Verdict{Claim: "\"in all cases the steady state reaches precisely the expected value c/n\" (c over the distinct items in the network: n + 1 once d is inserted)", Rule: claim.SteadyRuleText()}
	worst, worstPaper := 0.0, 0.0
	var per []string
	for _, row := range f.Rows {
		z := math.Abs(row.XLateMean-row.SteadyProtocol) / row.XLateSE
		zPaper := math.Abs(row.XLateMean-row.SteadyCOverN) / row.XLateSE
		worst, worstPaper = math.Max(worst, z), math.Max(worstPaper, zPaper)
		per = append(per, fmt.Sprintf("n = %d: %.4g ± %.2g against c/(n+1) = %.4g (%.1f se) and c/n = %.4g (%.1f se)", row.N, row.XLateMean, row.XLateSE, row.SteadyProtocol, z, row.SteadyCOverN, zPaper))
	}
	steady.Measured = fmt.Sprintf("largest distance from c/(n+1) %.1f standard errors (critical value %.2f), from the paper's c/n %.1f; %s; d overwrote an item's last copy with probability about %.1g (binomial replica counts)", worst, claim.TCrit(claim.SteadyZ, f.reps()), worstPaper, strings.Join(per, "; "), f.LastCopy)
	steady.Verdict = claim.SteadyRule(worst, f.reps())
	fig7 := f.growthVerdict("Fig. 7: the simulations show \"the same initial increase in replicas\" as x(t)", "replication",
		func(r ODEvsSimRow) NetGrowth { return r.GrowthX }, f.DistX)
	return []Verdict{trans, steady, fig7}
}

// growthVerdict judges one of the claims of Figs. 7 and 8 by the growth
// distances of its curve at every n (growthdist.go: the ODE's growth time
// within one sd of the runs', the source's "within the standard
// deviation" on the time axis), and states beside them the take-off
// distance θ̂ (the largest |ODE − mean|/sd over the take-off rounds, with
// its simultaneous band: takeoff.go), a pointwise reading whose band at
// the affordable replications is too wide to decide (0–1.9 sd at 40
// replications of the quick scale, measured on 2026-12-05).
func (f *Fig78) growthVerdict(text, what string, pick func(ODEvsSimRow) NetGrowth, dist TakeOffDistance) Verdict {
	var gs []NetGrowth
	var per []string
	need := math.NaN()
	for _, r := range f.Rows {
		g := pick(r)
		gs = append(gs, g)
		per = append(per, fmt.Sprintf("n = %d: %s", r.N, g.Describe()))
		if n := g.RepsToDecide(); !math.IsNaN(n) {
			need = math.Max(claim.NanToZero(need), n)
		}
	}
	v := Verdict{Claim: text, Verdict: claim.GrowthRule(gs), Rule: claim.GrowthDistText("the growth of " + what + " at every n, against the ODE of the network simulated (n + 1 items)"),
		Short: claim.GrowthShort(claim.GrowthRule(gs), gs, claim.RunsText(gs))}
	th, _ := claim.DistMeasured(dist, "take-off distance")
	v.Measured = fmt.Sprintf("growth of %s (%g–%g %% of the plateau): %s; %s (a pointwise reading, not graded)", what, 100*claim.GrowthLo, 100*claim.GrowthHi, strings.Join(per, "; "), th)
	if claim.RunsText(gs) != fmt.Sprintf("%d runs per n", f.reps()) {
		v.Measured += fmt.Sprintf("; the growth is measured on %s: the figures' %d and more that run only until the growth is over, from warm-ups shared by %d", claim.RunsText(gs), f.reps(), growthRepsPerWarm)
	}
	if v.Verdict == claim.Undecided && !math.IsNaN(need) {
		v.Measured += "; " + claim.DecideText(need, "replications per n")
	}
	return v
}

// reps is the number of protocol replications per n.
func (f *Fig78) reps() int {
	for _, r := range f.Runs {
		return len(r.Reps)
	}
	return 0
}

// coverageVerdicts judges Fig. 8 for both coverage records.
func (f *Fig78) coverageVerdicts() []Verdict {
	final := 1.0
	for _, row := range f.Rows {
		final = math.Min(final, row.YFinal)
	}
	out := []Verdict{
		f.growthVerdict("Fig. 8: y(t) falls \"nicely within the standard deviation\" of the simulations (per-event coverage, what the ODE counts)", "coverage",
			func(r ODEvsSimRow) NetGrowth { return r.GrowthY }, f.DistY),
		f.growthVerdict("Fig. 8, the same with coverage from round snapshots (the paper's measure)", "round-snapshot coverage",
			func(r ODEvsSimRow) NetGrowth { return r.GrowthYRound }, f.DistYRound),
	}
	iv := f.finalCoverage()
	reach := Verdict{Claim: "coverage eventually reaches 1", Verdict: claim.ReachRule(iv), Rule: claim.ReachRuleText(),
		Measured: fmt.Sprintf("smallest final mean coverage %.4g (t = %d; interval %.4g–%.4g)", final, f.T, iv.Lo, math.Min(iv.Hi, 1))}
	return append(out, reach)
}

// finalCoverage is the interval of the final mean coverage (over the runs,
// Student's t at the level of claim.ZDecide) at the n where the mean is
// smallest.
func (f *Fig78) finalCoverage() Interval {
	iv := Interval{Lo: math.NaN(), Hi: math.NaN()}
	best := math.Inf(1)
	for _, n := range f.Ns {
		res := f.Runs[n]
		var v []float64
		for _, rep := range res.Reps {
			v = append(v, float64(rep.Y[len(rep.Y)-1])/float64(res.Config.Nodes))
		}
		m, sd := tree.StatOf(v).MeanSD()
		if m < best {
			best = m
			h := claim.TCrit(claim.ZDecide, len(v)) * sd / math.Sqrt(float64(len(v)))
			if sd == 0 {
				h = 0 // every run alike: the mean is what each run gave
			}
			iv = Interval{Lo: m - h, Hi: m + h}
		}
	}
	return iv
}

// Verdicts judges the optimal-s claims: both on the exact pairwise chain,
// the paper's model (Secs. 3.5, 5.1 derive s* from it), with the
// protocol's runs shown beside as a description.
func (r *Optimal) Verdicts() (v []Verdict) {
	defer incompleteVerdicts(&v)
	if r == nil {
		return nil
	}
	res, e := r.Opt, r.Effect
	gains, ok := claim.ReplicationGains(r.Growth, res.SInt)
	re := r.ReplEffect
	rep := Verdict{Claim: "s* = n − √(n(n−c)) is optimal for the convergence of replication", Verdict: claim.OptimumRule(re), Rule: claim.ReplicationRuleText(),
		Measured: r.replicationMeasured(gains, ok),
		Short:    fmt.Sprintf("exact pairwise chain (N = %d): replication fastest at s = %d, s* = %.2f (time ∝ 1/P(11|10), a theorem); protocol not graded", r.OptNodes, re.Best, re.SStar)}
	var trend []string
	for _, t := range r.Trend {
		trend = append(trend, fmt.Sprintf("%d", t.SBest))
	}
	var ns []string
	for _, t := range r.Trend {
		ns = append(ns, claim.PowerOfTen(t.N))
	}
	cov := Verdict{Claim: "s* is optimal for the convergence of coverage", Verdict: claim.OptimumRule(e), Rule: claim.OptimumRuleText(),
		Measured: fmt.Sprintf("exact pairwise chain (N = %d): best s = %d against s* = %.2f, %.2f of %.1f rounds faster (%.1f %%), %.1f standard errors with %d protocol runs (%.0f runs for %d); the ODE's best s at N = %s: %s",
			r.OptNodes, e.Best, e.SStar, e.Gain, r.ExactT[e.SInt-1], e.GainPct, e.Z, e.Runs, math.Ceil(e.RunsForZ), claim.ZSignificant, strings.Join(ns, ", "), strings.Join(trend, ", "))}
	return []Verdict{rep, cov}
}

// replicationMeasured states the exact chain's replication times behind
// the verdict and, as a description, the protocol's growth times: the
// time at s*'s integer argmax, the s with the largest possible gain and
// its interval, and the runs per s that would resolve a gain of
// optGainPct %.
func (r *Optimal) replicationMeasured(gains []ReplicationGain, ok bool) string {
	res, re := r.Opt, r.ReplEffect
	m := fmt.Sprintf("exact pairwise chain (N = %d, n = %d, c = %d, continuous clock): mean time from one copy to %d copies (%g %% of the plateau c/n) smallest at s = %d (%.2f rounds, sd %.2f), against s* = %.2f (integer argmax of P(11|10): %d); every s's time is ∝ 1/P(11|10) (the theorem of docs/MODEL.md §4, which the chain's times follow)",
		r.OptNodes, r.Items, r.Cache, r.ReplHolders, 100*claim.ReplGrowthHi, re.Best, r.ReplT[re.Best-1], r.ReplSD[re.Best-1], re.SStar, re.SInt)
	if !ok {
		return m + fmt.Sprintf("; the protocol at s*'s integer argmax %d was not simulated", res.SInt)
	}
	ref := r.Growth[slices.IndexFunc(r.Growth, func(g GrowthRow) bool { return g.S == res.SInt })]
	best := gains[0]
	var need float64
	for _, g := range gains {
		if g.Hi > best.Hi {
			best = g
		}
		if !math.IsNaN(g.RunsToDecide) {
			need = math.Max(need, g.RunsToDecide)
		}
	}
	m += fmt.Sprintf("; the protocol (caches correlated; a description, not graded), %d runs per s: growth time %.1f ± %.1f (sd) rounds at s = %d; the s that could gain most, s = %d, %+.1f %% (interval %+.1f to %+.1f %%)",
		ref.Runs, ref.Mean, ref.SD, res.SInt, best.S, best.GainPct, best.Lo, best.Hi)
	if need > 0 {
		m += fmt.Sprintf(" (about %.0f runs per s would resolve a gain of %g %%)", need, claim.OptGainPct)
	}
	return m
}

// Verdicts judges the spanning-tree claims.
func (r *Tree) Verdicts() (v []Verdict) {
	defer incompleteVerdicts(&v)
	if r == nil {
		return nil
	}
	first := r.Curves[tree.JoinFirst]
	at := func(k int) TreePoint { return first[slices.Index(r.Ks, k)] }
	drop := func(a, b tree.Stat) float64 { return 100 * (a.Mean - b.Mean) / a.Mean }
	k8 := Verdict{Claim: "k = 8 is the best trade-off between messages, depth and delay", Verdict: claim.Unchecked, Rule: claim.TradeOffRuleText,
		Measured: fmt.Sprintf("from k = 4 to 8, ν falls %.0f%% and δ %.0f%%; from 8 to 16, %.0f%% and %.0f%%",
			drop(at(4).Msgs, at(8).Msgs), drop(at(4).Depth, at(8).Depth), drop(at(8).Msgs, at(16).Msgs), drop(at(8).Depth, at(16).Depth))}
	rootFirst := Verdict{Claim: "the \"first\" join strategy is better than \"root\"", Rule: claim.FirstRootRuleText}
	rootFirst.Verdict, rootFirst.Measured = firstRootRule(r.Curves[tree.JoinFirst], r.Curves[tree.JoinRoot], r.Ks)
	rd, rr := r.redirect(tree.RedirectDistance), r.redirect(tree.RedirectRandom)
	redirect := Verdict{Claim: "Table I: random redirection gives lower depth and fewer messages than distance (δ 6.00 vs 6.93, ν 7.20 vs 7.68)", Rule: claim.ClauseRuleText()}
	cs := table1Clauses(rr, rd)
	redirect.Verdict, redirect.Measured = claim.ClauseRule(cs), claim.DescribeClauses(cs)
	out := []Verdict{k8, rootFirst, redirect}
	depth := func(s tree.Summary) tree.Stat { return s.DepthChangePct }
	traffic := func(s tree.Summary) tree.Stat { return s.TrafficIncreasePct }
	b, p, e := tree.Breakout, tree.Preservation, tree.Election
	claims := []struct {
		claim string
		cs    []claim.Clause
	}{
		{"subtree breakout keeps the depth small while join requests grow strongly (up to +427 %)", []claim.Clause{
			r.repairClause(b, "depth", claim.Small, depth, math.NaN()), r.repairClause(b, "repair traffic", claim.Rises, traffic, 427)}},
		{"subtree preservation raises the depth (up to +44.26 %) and the traffic (up to +163.7 %)", []claim.Clause{
			r.repairClause(p, "depth", claim.Rises, depth, 44.26), r.repairClause(p, "repair traffic", claim.Rises, traffic, 163.7)}},
		{"recursive election changes the depth slightly with a very limited rise in requests", []claim.Clause{
			r.repairClause(e, "depth", claim.Small, depth, math.NaN()), r.repairClause(e, "repair traffic", claim.Limited, traffic, math.NaN())}},
	}
	for _, c := range claims {
		out = append(out, Verdict{Claim: c.claim, Verdict: claim.ClauseRule(c.cs), Rule: claim.ClauseRuleText() + claim.RepairRuleText, Measured: claim.DescribeClauses(c.cs)})
	}
	return out
}

// repairClause is the clause on repair rep's change in % (mean ± sd over
// seeds, the field f of its summary) against the document's figure doc
// (NaN: none), judged at the failure share where the change is most
// extreme (repairRuleText): the largest mean for a rise, since the
// document's "up to X %" is the largest of its table, and the largest |mean|
// for "small" and "very limited", which must hold at every share. Its name
// says the share.
func (r *Tree) repairClause(rep tree.Repair, name string, kind claim.ClauseKind, f func(tree.Summary) tree.Stat, doc float64) claim.Clause {
	key := func(m float64) float64 {
		if kind == claim.Rises {
			return m
		}
		return math.Abs(m)
	}
	var at *RepairRow
	for _, rows := range r.Repairs {
		for i, row := range rows {
			if m := f(row.Summary).Mean; row.Repair == rep && !math.IsNaN(m) && (at == nil || key(m) > key(f(at.Summary).Mean)) {
				at = &rows[i]
			}
		}
	}
	if at == nil {
		return claim.Clause{Name: name + " (no measurement)", Kind: kind, Value: math.NaN(), SE: math.NaN(), Doc: doc}
	}
	s := f(at.Summary)
	se := s.SD / math.Sqrt(float64(at.Summary.Seeds))
	if at.Summary.Seeds < 2 {
		se = math.NaN() // one seed has no spread to measure: nothing is decided
	}
	return claim.Clause{Name: fmt.Sprintf("%s at %g %% failures", name, at.FailedPct), Kind: kind, Value: s.Mean,
		SE: se, Seeds: at.Summary.Seeds, Doc: doc}
}

// table1Clauses are Table I's two clauses: random below distance in depth
// and in messages per node (the difference in standard errors of the two
// means), with the four values against the document's.
func table1Clauses(rr, rd Table1Row) []claim.Clause {
	c := func(name string, r, d tree.Stat, n int, docR, docD float64) claim.Clause {
		se := math.Sqrt((r.SD*r.SD + d.SD*d.SD) / float64(max(n, 1)))
		sq := math.Sqrt(float64(max(n, 1)))
		return claim.Clause{Name: fmt.Sprintf("%s random %.2f, distance %.2f (document %.2f, %.2f)", name, r.Mean, d.Mean, docR, docD),
			Kind: claim.Rises, Value: d.Mean - r.Mean, SE: se, Seeds: n, Doc: math.NaN(), Values: []float64{r.Mean, d.Mean}, ValueSEs: []float64{r.SD / sq, d.SD / sq}, DocValues: []float64{docR, docD}}
	}
	return []claim.Clause{c("δ", rr.Depth, rd.Depth, rr.Seeds, rr.DepthDoc, rd.DepthDoc), c("ν", rr.Msgs, rd.Msgs, rr.Seeds, rr.MsgsDoc, rd.MsgsDoc)}
}

// firstRootRule judges "first is better than root" from the two sweeps.
func firstRootRule(first, root []TreePoint, ks []int) (verdict, measured string) {
	same := len(first) == len(root)
	better := true
	for i := range first {
		if i >= len(root) {
			break
		}
		f, r := first[i], root[i]
		same = same && f.Depth == r.Depth && f.Msgs == r.Msgs && f.Prop == r.Prop
		better = better && f.Msgs.Mean <= r.Msgs.Mean
	}
	switch {
	case same:
		return claim.Unchecked, fmt.Sprintf("both strategies build the same tree at every k = %v (this package's reading of \"first\": the earliest registration, the root while nothing fails); the document does not say what its lookup returned", ks)
	case better:
		return claim.Holds, "ν of \"first\" no larger than of \"root\" at every k"
	}
	return claim.Fails, "ν of \"first\" above that of \"root\" at some k"
}
