package report

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/meanfield"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/report/internal/claim"
	"github.com/gossipkit/gossipkit/sim"
)

// ModelComparison is section 5: the ODE against the pairwise-Markov and
// protocol simulations at the first n.
type ModelComparison struct {
	N, Items, MarkovReps, Reps int
	ModelT, ModelX, ModelY     []float64
	MarkovX, MarkovY           sim.Trajectory
	ProtoX, ProtoY             sim.Trajectory
	// 5–95 % bands over the runs of each.
	MarkovXBand, MarkovYBand, ProtoXBand, ProtoYBand Band
	XMax                                             float64 // plotted horizon
	// ExactX is E[X(t)/N] of the exact pairwise chain (per-shuffle time,
	// N uniformly random initiators a round), ExactBound its error bound.
	ExactX     []float64
	ExactBound float64
	// The ODE's gaps to the pairwise-Markov (Markov…) and protocol
	// (Proto…) means, in x and y; SimilarGaps: the two coverage gaps are
	// within a factor gapRatio, GapRatio = protocol's / Markov's.
	MarkovGapX, MarkovGapY, ProtoGapX, ProtoGapY sim.Gap
	GapRatio                                     float64
	SimilarGaps                                  bool
	// Split is the replication gap split at t = SplitT, where |ODE −
	// protocol| is largest.
	SplitT int
	Split  GapSplit
	// MarkovExactZ is the largest |Markov mean − exact chain| over all
	// rounds, in standard errors of the Markov mean.
	MarkovExactZ float64
}

// GapSplit splits ODE − protocol at one time into ODE − exact chain
// (finiteness and the single initial copy, no noise) and exact chain −
// protocol (what the pairwise model leaves out), with the standard errors
// of the protocol and Markov means and the Markov mean's distance from the
// exact chain.
type GapSplit struct {
	ODEMinusProto, ODEMinusExact, ExactMinusProto, ProtoSE float64
	MarkovMinusExact, MarkovSE                             float64
}

// ModelComparison computes section 5.
func (s *Study) ModelComparison(ctx context.Context) (*ModelComparison, error) {
	if err := s.ready(true); err != nil {
		return nil, err
	}
	sc := s.Scale
	n := sc.Ns[0]
	f, err := s.Fig78(ctx)
	if err != nil {
		return nil, err
	}
	s.step("ODE against the pairwise-Markov and protocol simulations")
	mk, err := s.experiment(ctx, sim.Markov, sc.Nodes, n, sc.Cache, sc.Exchange, 0, sc.Rounds, sc.MarkovReps)
	if err != nil {
		return nil, err
	}
	m, _ := approx.NewModel(approx.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}, PDrop: approx.Simplified, Initial: 1})
	r := &ModelComparison{N: sc.Nodes, Items: n, MarkovReps: sc.MarkovReps, Reps: sc.Reps}
	r.ModelT, r.ModelX, r.ModelY = meanfield.Curves(m, sc.Rounds)
	r.ProtoX, r.ProtoY = f.Runs[n].Trajectories()
	r.MarkovX, r.MarkovY = mk.Trajectories()
	r.ProtoXBand, r.ProtoYBand = quantileBands(f.Runs[n])
	r.MarkovXBand, r.MarkovYBand = quantileBands(mk)
	// Show the growth phase: up to three times the ODE's time to 99 % coverage.
	r.XMax = math.Min(float64(sc.Rounds), math.Ceil(3*m.TimeToCoverage(0.99)))
	s.step("exact pairwise chain of replication")
	ex, err := chain.Solve(ctx, chain.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}, ReplicationOnly: true, Time: gossip.Shuffles, TMax: float64(sc.Rounds), Dt: 1}, chain.Settings{})
	if err != nil {
		return nil, err
	}
	for _, row := range ex.Rows {
		r.ExactX = append(r.ExactX, row.X.Mean)
	}
	r.ExactBound = ex.Bound
	r.compare()
	return r, nil
}

// compare measures the gaps of section 5 from the curves.
func (r *ModelComparison) compare() {
	r.MarkovGapX, r.MarkovGapY = sim.CompareTrajectory(r.ModelX, r.MarkovX), sim.CompareTrajectory(r.ModelY, r.MarkovY)
	r.ProtoGapX, r.ProtoGapY = sim.CompareTrajectory(r.ModelX, r.ProtoX), sim.CompareTrajectory(r.ModelY, r.ProtoY)
	r.GapRatio = r.ProtoGapY.Max / r.MarkovGapY.Max
	r.SimilarGaps = claim.SimilarGaps(r.ProtoGapY.Max, r.MarkovGapY.Max)
	t := int(r.ProtoGapX.At)
	se := func(tr sim.Trajectory, reps int) float64 { return tr.SD[t] / math.Sqrt(float64(reps)) }
	r.SplitT = t
	r.Split = GapSplit{ODEMinusProto: r.ModelX[t] - r.ProtoX.Mean[t], ODEMinusExact: r.ModelX[t] - r.ExactX[t], ExactMinusProto: r.ExactX[t] - r.ProtoX.Mean[t], ProtoSE: se(r.ProtoX, r.Reps),
		MarkovMinusExact: r.MarkovX.Mean[t] - r.ExactX[t], MarkovSE: se(r.MarkovX, r.MarkovReps)}
	r.MarkovExactZ = 0
	for i := range r.ExactX {
		if sd := r.MarkovX.SD[i]; sd > 0 {
			r.MarkovExactZ = math.Max(r.MarkovExactZ, math.Abs(r.MarkovX.Mean[i]-r.ExactX[i])/(sd/math.Sqrt(float64(r.MarkovReps))))
		}
	}
}

// Render writes section 5.
func (r *ModelComparison) Render(d *Doc) (err error) {
	defer incomplete("ModelComparison.Render", &err)
	if r == nil || d == nil {
		return nilRender("ModelComparison")
	}
	spec := func(title, yl string, model []float64, a, b sim.Trajectory, ab, bb Band, exact []float64) *plots.Spec {
		mk, pr := band("pairwise Markov, mean, 5–95 % of runs", a, ab, 0), band("protocol, mean, 5–95 % of runs", b, bb, 1)
		sp := &plots.Spec{Title: title, XLabel: "t (rounds)", YLabel: yl, XMax: &r.XMax, Series: []plots.Series{
			{Name: "ODE (mean field)", X: r.ModelT, Y: model, Color: 6}, mk, pr,
		}}
		if exact != nil {
			sp.Series = append(sp.Series, plots.Series{Name: "pairwise chain, exact mean", X: r.ModelT, Y: exact, Color: 4})
		}
		return sp
	}
	d.printf("The ODE against the pairwise-Markov simulation (one bit per node, the transition probabilities of Fig. 1: finite N and a single initial copy, nothing else) and the protocol simulation, N = %d, n = %d (%d Markov replications, %d protocol replications).\n", r.N, r.Items, r.MarkovReps, r.Reps)
	cov := spec("Coverage: ODE, pairwise Markov, protocol", "y(t)", r.ModelY, r.MarkovY, r.ProtoY, r.MarkovYBand, r.ProtoYBand, nil)
	cov.Probability = true
	if err := d.figure("models", spec("Replication: ODE, exact pairwise chain, pairwise Markov, protocol", "x(t)", r.ModelX, r.MarkovX, r.ProtoX, r.MarkovXBand, r.ProtoXBand, r.ExactX), cov); err != nil {
		return err
	}
	gkx, gky, gpx, gpy := r.MarkovGapX, r.MarkovGapY, r.ProtoGapX, r.ProtoGapY
	verdict := "Both simulations lag the ODE during take-off by a similar amount (their largest coverage gaps are within a factor 1.5), so the gap comes from finiteness and the single initial copy (what the pairwise-Markov model keeps), not from the protocol's correlations between caches (what it drops)."
	if !r.SimilarGaps {
		verdict = fmt.Sprintf("The two simulations' largest coverage gaps differ by a factor %.2f, so beyond finiteness and the single initial copy (what the pairwise-Markov model keeps), the protocol's correlations between caches (what it drops) matter here.", r.GapRatio)
	}
	d.printf("**Measured:** largest |ODE − mean|: pairwise Markov %.3f (x, t = %.0f) and %.3f (y, t = %.0f); protocol %.3f (x, t = %.0f) and %.3f (y, t = %.0f). %s The refined mean field (section 7) corrects the 1/N part of it.\n",
		gkx.Max, gkx.At, gky.Max, gky.At, gpx.Max, gpx.At, gpy.Max, gpy.At, verdict)
	sp := r.Split
	d.printf("\n**The replication gap split** at t = %d, where |ODE − protocol| is largest (exact pairwise chain with N uniformly random initiators a round, error bound %.1g): ODE − protocol = %.4f, of which ODE − exact chain = %.4f is finiteness and the single initial copy (exact, no noise), and exact chain − protocol = %.4f ± %.4f (one standard error of the protocol mean) is what the pairwise model leaves out: the protocol's correlations between caches and its schedule (each node initiates exactly once a round). The pairwise-Markov simulation (round schedule) lies %.4f ± %.4f from the exact chain there; over all rounds its largest distance is %.1f standard errors. Coverage needs the joint chain of (X, Y), whose N²/2 = %.2g states at N = %d are beyond this solver's reach in the time of a report (section 7 uses it at N = 100).\n",
		r.SplitT, r.ExactBound, sp.ODEMinusProto, sp.ODEMinusExact, sp.ExactMinusProto, sp.ProtoSE,
		sp.MarkovMinusExact, sp.MarkovSE, r.MarkovExactZ, float64(r.N)*float64(r.N)/2, r.N)
	return nil
}
