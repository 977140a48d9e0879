package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/gossipkit/gossipkit/tree"
)

// The verdicts are rules applied to this run's figures; each rule is
// stated where it is applied, so a reader can disagree with a threshold
// and still use the figure.
const (
	holds     = "holds"
	qualified = "holds with a qualification"
	fails     = "does not hold"
	unchecked = "cannot be checked"
)

// Verdicts judges the drop-probability claims.
func (r *DropProbability) Verdicts() []Verdict {
	hi := math.Inf(-1)
	for _, cu := range r.Curves {
		for _, v := range cu.Log10Diff {
			hi = math.Max(hi, v)
		}
	}
	// "Small": below 1 % in absolute terms (drop probabilities are O(1)).
	near := Verdict{Claim: "the simplification S = (n−c)/(n−s) is close to formula (1) (\"the correction factor is small\")", Verdict: nearRule(hi),
		Measured: fmt.Sprintf("|E − S| ≤ 10^%.1f on the Fig. 4 grid", hi)}
	accurate := Verdict{Claim: "formula (1) is the accurate drop probability of an item of S_B \\ S_A", Verdict: unchecked, Measured: "enumeration incomplete"}
	if r.EnumPoints > 0 {
		accurate = Verdict{Claim: accurate.Claim, Verdict: fails,
			Measured: fmt.Sprintf("a tagged item's drop probability equals S, not formula (1), exactly at all %d enumerated points; formula (1) is the mean over shuffles of the per-shuffle probability", r.EnumPoints)}
		if !r.EnumAllSimplified {
			accurate.Measured = "enumeration did not single out S"
		}
	}
	gamma := Verdict{Claim: "formula (1) = (n−c)/((n−s) + 1/γ) (the γ identity)", Verdict: holds}
	switch {
	case r.GammaMismatch != nil:
		gamma.Verdict, gamma.Measured = fails, fmt.Sprint("mismatch at ", r.GammaMismatch.Point)
	default:
		gamma.Measured = r.proofSentence()
		if len(r.Proofs) > 0 {
			gamma.Measured = fmt.Sprintf("proved for every s ≤ %d (all n, c); exact on %d grid points with s ≤ 24", len(r.Proofs), r.GammaChecked)
		}
		for _, p := range r.Proofs {
			if !p.Proved {
				gamma.Verdict, gamma.Measured = fails, fmt.Sprintf("refuted at s = %d", p.S)
				break
			}
		}
	}
	return []Verdict{near, accurate, gamma}
}

// replicationVerdicts judges Fig. 1's transitions in the protocol, the c/n
// steady state and Fig. 7.
func (f *Fig78) replicationVerdicts() []Verdict {
	n0 := f.Ns[0]
	trans := Verdict{Claim: "the transition probabilities of Fig. 1 describe an item's state in the protocol's shuffles", Verdict: transRule(f.Trans),
		Measured: fmt.Sprintf("largest |measured − model| %.4f (%.1f binomial standard errors), n = %d", f.Trans.MaxDiff, f.Trans.MaxZ, n0)}
	steady := Verdict{Claim: "\"in all cases the steady state reaches precisely the expected value c/n\""}
	worstSE := 0.0
	for _, row := range f.Rows {
		worstSE = math.Max(worstSE, math.Abs(row.XLateMean-row.SteadyCOverN)/row.XLateSE)
		steady.Measured += fmt.Sprintf("n = %d: %.4g vs %.4g; ", row.N, row.XLateMean, row.SteadyCOverN)
	}
	steady.Measured += fmt.Sprintf("largest distance %.1f standard errors", worstSE)
	steady.Verdict = steadyRule(worstSE)
	fig7 := Verdict{Claim: "Fig. 7: the simulations show \"the same initial increase in replicas\" as x(t)"}
	minX := 1.0
	for _, row := range f.Rows {
		minX = math.Min(minX, row.GapX.WithinSD)
	}
	fig7.Verdict, fig7.Measured = sdRule(minX), fmt.Sprintf("the ODE lies within one sd of the protocol mean at ≥ %.0f%% of the rounds at every n", 100*minX)
	return []Verdict{trans, steady, fig7}
}

// coverageVerdicts judges Fig. 8 for both coverage records.
func (f *Fig78) coverageVerdicts() []Verdict {
	ev, rd := 1.0, 1.0
	final := 1.0
	for _, row := range f.Rows {
		ev, rd = math.Min(ev, row.GapY.WithinSD), math.Min(rd, row.GapYRound.WithinSD)
		final = math.Min(final, row.YFinal)
	}
	out := []Verdict{
		{Claim: "Fig. 8: y(t) falls \"nicely within the standard deviation\" of the simulations (per-event coverage, what the ODE counts)", Verdict: sdRule(ev),
			Measured: fmt.Sprintf("within one sd at ≥ %.0f%% of the rounds at every n", 100*ev)},
		{Claim: "Fig. 8, the same with coverage from round snapshots (the paper's measure)", Verdict: sdRule(rd),
			Measured: fmt.Sprintf("within one sd at ≥ %.0f%% of the rounds at every n", 100*rd)},
	}
	reach := Verdict{Claim: "coverage eventually reaches 1", Verdict: reachRule(final), Measured: fmt.Sprintf("smallest final mean coverage %.4g (t = %d)", final, f.T)}
	return append(out, reach)
}

// Verdicts judges the optimal-s claims.
func (r *Optimal) Verdicts() []Verdict {
	res := r.Opt
	rep := Verdict{Claim: "s* = n − √(n(n−c)) is optimal for the convergence of replication", Verdict: holds,
		Measured: fmt.Sprintf("the logistic rate k ∝ P(11|10) peaks at s* = %.2f (integer %d); every replication time is ∝ 1/k", res.SStar, res.SInt)}
	cov := Verdict{Claim: "s* is optimal for the convergence of coverage", Verdict: holds,
		Measured: fmt.Sprintf("time to 99 %% coverage smallest at s = %d (ODE) and s = %d (exact pairwise chain, N = %d) against s* = %.2f", res.SBestTime, r.ExactBest, r.OptNodes, res.SStar)}
	if math.Abs(float64(res.SBestTime)-res.SStar) > 1 || math.Abs(float64(r.ExactBest)-res.SStar) > 1 {
		cov.Verdict = fails
	}
	return []Verdict{rep, cov}
}

// Verdicts judges the spanning-tree claims.
func (r *Tree) Verdicts() []Verdict {
	first := r.Curves[tree.JoinFirst]
	at := func(k int) TreePoint { return first[slices.Index(r.Ks, k)] }
	drop := func(a, b tree.Stat) float64 { return 100 * (a.Mean - b.Mean) / a.Mean }
	k8 := Verdict{Claim: "k = 8 is the best trade-off between messages, depth and delay", Verdict: qualified,
		Measured: fmt.Sprintf("from k = 4 to 8, ν falls %.0f%% and δ %.0f%%; from 8 to 16, %.0f%% and %.0f%% (a judgement, not a measurable claim)",
			drop(at(4).Msgs, at(8).Msgs), drop(at(4).Depth, at(8).Depth), drop(at(8).Msgs, at(16).Msgs), drop(at(8).Depth, at(16).Depth))}
	rootFirst := Verdict{Claim: "the \"first\" join strategy is better than \"root\"", Verdict: unchecked,
		Measured: "under this package's reading of \"first\" both build the same tree; the document does not say what its lookup returned"}
	rd, rr := r.redirect(tree.RedirectDistance), r.redirect(tree.RedirectRandom)
	redirect := Verdict{Claim: "Table I: random redirection gives lower depth and fewer messages than distance (δ 6.00 vs 6.93, ν 7.20 vs 7.68)", Verdict: holds,
		Measured: fmt.Sprintf("random δ %.2f, ν %.2f; distance δ %.2f, ν %.2f", rr.Depth.Mean, rr.Msgs.Mean, rd.Depth.Mean, rd.Msgs.Mean)}
	switch {
	case rr.Depth.Mean >= rd.Depth.Mean && rr.Msgs.Mean >= rd.Msgs.Mean:
		redirect.Verdict = fails
	case rr.Depth.Mean >= rd.Depth.Mean || rr.Msgs.Mean >= rd.Msgs.Mean:
		redirect.Verdict = qualified
	}
	out := []Verdict{k8, rootFirst, redirect}
	// At 50 % failures: "small" depth change ≤ 10 %, "large" rise in
	// join requests ≥ 100 %, "limited" ≤ 25 %.
	b, p, e := r.at50(tree.Breakout), r.at50(tree.Preservation), r.at50(tree.Election)
	judge := func(claim string, ok bool, s tree.Summary) Verdict {
		v := Verdict{Claim: claim, Verdict: holds, Measured: fmt.Sprintf("at 50%% failures: depth %+.1f%%, join requests %+.0f%%, reconnected %v", s.DepthChangePct.Mean, s.JoinRequestsIncreasePct.Mean, s.Reconnected)}
		if !ok {
			v.Verdict = fails
		}
		return v
	}
	out = append(out,
		judge("subtree breakout keeps the depth small while join requests grow strongly (up to +427 %)", math.Abs(b.DepthChangePct.Mean) <= 10 && b.JoinRequestsIncreasePct.Mean >= 100, b),
		judge("subtree preservation raises the depth (up to +44.26 %) and the traffic (up to +163.7 %)", p.DepthChangePct.Mean > 10, p),
		judge("recursive election changes the depth slightly with a very limited rise in requests", math.Abs(e.DepthChangePct.Mean) <= 10 && e.JoinRequestsIncreasePct.Mean <= 25, e))
	return out
}
