package plan

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/sim"
)

// slowdown is f = (1 − ε)(1 − ε/2), the factor by which message loss slows
// the mean-field clock (package doc, "Message loss"); 1 without loss.
func slowdown(eps float64) float64 { return (1 - eps) * (1 - eps/2) }

// solveOther answers what only a Monte Carlo covers: a topology other
// than the complete graph (package sim, Model markov or protocol), or
// message loss where the exact chain is not used (Auto: the lumped chain,
// with enough replications that two standard errors of the mean are
// within Settings.Accuracy if they fit the budget; MonteCarlo: the model
// asked for).
func solveOther(ctx context.Context, cfg Config, set Settings) (*Answer, error) {
	mf, err := meanField(cfg)
	if err != nil {
		return nil, err
	}
	if mf.Rate() <= 0 {
		return nil, noCopies(cfg, set) // u = 0 (Check refuses s = c before any work)
	}
	var a *Answer
	why := ""
	switch {
	case cfg.Topology.Kind != sim.Full:
		if set.Method == Auto {
			why = "auto: "
		}
		why += fmt.Sprintf("no exact or asymptotic law covers the topology %v (only the complete graph): Monte Carlo of package sim on it; ", cfg.Topology)
		a, err = solveMC(ctx, cfg, set, newAsymptotic(cfg.Nodes, cfg.initial(), betaQuantiles(cfg.count()-cfg.initial(), cfg.Nodes-cfg.count()+1), mf))
	case set.Method == Auto:
		a, err = autoLumped(ctx, cfg, set, mf)
	case set.Model == Lumped:
		a, err = solveLumped(ctx, cfg, set)
	default:
		a, err = solveMC(ctx, cfg, set, newAsymptotic(cfg.Nodes, cfg.initial(), betaQuantiles(cfg.count()-cfg.initial(), cfg.Nodes-cfg.count()+1), mf))
	}
	if err != nil {
		return nil, err
	}
	a.Exchange, a.Method = cfg.Shuffle.Exchange, MonteCarlo
	a.Accuracy.Note = why + a.Accuracy.Note
	return finish(cfg, a), nil
}

// autoLumped is Auto's answer with loss where the exact chain does not
// fit: the lumped chain's Monte Carlo, Settings.Reps replications first,
// then as many more (the same streams continued) as make two standard
// errors of the mean within Settings.Accuracy, up to autoMCEvents events
// (the asymptotic law, which Auto uses without loss, does not cover
// loss).
//
// The pilot's work is estimated first (lumpedEvents at the mean-field time
// to the level on the slowed clock); beyond the budget Auto refuses before
// any work (gossip.ErrTooLarge), as no cheaper law covers loss.
func autoLumped(ctx context.Context, cfg Config, set Settings, mf approx.Model) (*Answer, error) {
	acc := set.Accuracy
	if acc <= 0 {
		acc = DefaultAccuracy
	}
	if per := lumpedEvents(cfg, mf.TimeToCoverage(cfg.Level)/slowdown(cfg.Loss), mf); float64(set.Reps)*per > autoMCEvents {
		return nil, fmt.Errorf("plan: Auto with Config.Loss %g at Nodes %d: the exact chain does not fit its budget, the asymptotic law does not cover loss, and the lumped Monte Carlo's %d runs need about %.2g events, beyond its budget of %.0g (about 10 s of CPU); Method mc with Model lumped runs them anyway, or ask for fewer Settings.Reps: %w",
			cfg.Loss, cfg.Nodes, set.Reps, float64(set.Reps)*per, float64(autoMCEvents), gossip.ErrTooLarge)
	}
	times, err := lumpedRange(ctx, cfg, 0, set.Reps, set.Seed, set.Workers, set.Progress)
	if err != nil {
		return nil, err
	}
	a := sampleAnswer(times, cfg)
	reps, capped := len(times), false
	// Up to three extensions: the count comes from the sd and PReach of
	// the sample so far, which may have underestimated them.
	for range 3 {
		if !(a.PReach > 0) || math.IsNaN(a.SD) || 2*a.Accuracy.SEMean <= acc || capped {
			break
		}
		// R·PReach replications reach the level; the se of the mean is
		// sd/√(R·PReach).
		need := math.Ceil(1.05 * math.Pow(2*a.SD/acc, 2) / a.PReach)
		if fit := math.Floor(autoMCEvents / lumpedEvents(cfg, a.Mean, mf)); need > fit {
			need, capped = fit, true
		}
		if need <= float64(reps) {
			break
		}
		more, err := lumpedRange(ctx, cfg, reps, int(need), set.Seed, set.Workers, set.Progress)
		if err != nil {
			return nil, err
		}
		times = append(times, more...)
		a, reps = sampleAnswer(times, cfg), len(times)
	}
	how := fmt.Sprintf("at least %d, and 2·se of the mean ≤ the requested %g rounds", set.Reps, acc)
	switch {
	case capped:
		how = fmt.Sprintf("as many as fit the budget of %.0g events", float64(autoMCEvents))
	case 2*a.Accuracy.SEMean > acc:
		how = fmt.Sprintf("at least %d; 2·se of the mean %.2g rounds, above the requested %g after three extensions", set.Reps, 2*a.Accuracy.SEMean, acc)
	}
	a.Accuracy.Note = fmt.Sprintf("auto: the exact chain does not fit the budget and the asymptotic law does not cover loss (ε = %g): lumped Monte Carlo, %d runs (%s); %s",
		cfg.Loss, reps, how, lumpedNote(cfg, reps, set.Seed, a))
	return a, nil
}

// lumpedNote describes a lumped Monte Carlo answer.
func lumpedNote(cfg Config, reps int, seed uint64, a *Answer) string {
	s := fmt.Sprintf("Monte Carlo of the pairwise model on its lumped state (X, Y), exact in law (%d replications, seed %d): standard errors mean %.2g, sd %.2g rounds",
		reps, seed, a.Accuracy.SEMean, a.Accuracy.SESD)
	if cfg.Loss > 0 {
		s += fmt.Sprintf(", P(reach) %.2g; with loss ε = %g the item dies out in %.4g of the runs (T_L = ∞); mean, sd and quantiles given T_L < ∞",
			a.Accuracy.SEPReach, cfg.Loss, 1-a.PReach)
	}
	return s
}

// LossDesign is a design over a grid of loss probabilities: the Design of
// every exchange size at every ε, and for each exchange size the largest
// ε of the grid it tolerates (meets the deadline with the confidence).
type LossDesign struct {
	Config    Config
	Exchanges []int
	// Losses is the grid, ascending; Designs[i] is Sweep's answer at
	// Losses[i] (rows in the order of Exchanges).
	Losses  []float64
	Designs []*Design
	// Tolerated[j] is the largest ε that Exchanges[j] tolerates, found by
	// a scan of the grid in ascending ε that stops at the first ε where
	// the design is not feasible: the ε before it (NaN when it fails at
	// the first ε, or without a deadline). The scan assumes nothing about
	// monotonicity in ε; Again says where the grid contradicts it.
	Tolerated []float64
	// Again[j] is the smallest ε after that first failure at which
	// Exchanges[j] is feasible again (NaN if none): feasibility is not
	// monotone in ε on the grid there (a Monte Carlo's noise near the
	// confidence, or the law itself), and Tolerated[j] is only the end of
	// the first feasible run.
	Again []float64
	// Most indexes Exchanges: the exchange size that tolerates the largest
	// ε (ties to the smaller TConfidence at that ε, then the smaller s);
	// −1 when none tolerates any ε of the grid.
	Most int
}

// LossSweep answers cfg at every loss probability in losses (ascending,
// each in [0, 1); cfg.Loss is ignored) and every exchange size, and finds
// the largest ε each exchange size tolerates, which needs a deadline: a
// grid of more than one ε without cfg.Deadline > 0 is refused (a field
// error on Config.Loss). Every ε and exchange size is checked (Check)
// before any work.
func LossSweep(ctx context.Context, cfg Config, exchanges []int, losses []float64, set Settings) (*LossDesign, error) {
	if err := ctxguard.Check("plan", ctx); err != nil {
		return nil, err
	}
	if len(losses) == 0 || len(exchanges) == 0 {
		return nil, fieldErr("Config.Loss", "no loss probability or no exchange size given")
	}
	if n := len(losses) * len(exchanges); len(losses) > MaxSettings || len(exchanges) > MaxSettings || n > MaxSettings {
		return nil, fieldErr("Config.Loss", "%d loss probabilities × %d exchange sizes: %d settings, at most %d (MaxSettings)", len(losses), len(exchanges), n, MaxSettings)
	}
	for i, e := range losses {
		if i > 0 && !(e > losses[i-1]) {
			return nil, fieldErr("Config.Loss", "%g after %g: the grid must be ascending", e, losses[i-1])
		}
	}
	if len(losses) > 1 && !(cfg.Deadline > 0) {
		return nil, fieldErr("Config.Loss", "%v: a grid of ε asks which ε each s tolerates, which needs Config.Deadline", losses)
	}
	for _, e := range losses { // every ε and s before any work
		c := cfg
		c.Loss = e
		if err := Check(c, exchanges, set); err != nil {
			return nil, err
		}
	}
	ld := &LossDesign{Config: cfg, Exchanges: exchanges, Losses: losses, Most: -1}
	for _, e := range losses {
		c := cfg
		c.Loss = e
		d, err := sweep(ctx, c, exchanges, set)
		if err != nil {
			return nil, err
		}
		ld.Designs = append(ld.Designs, d)
	}
	for j := range exchanges {
		tol, again := math.NaN(), math.NaN()
		failed := false
		for i, d := range ld.Designs {
			ok := cfg.Deadline > 0 && d.Rows[j].Feasible
			switch {
			case !failed && ok:
				tol = losses[i]
			case !failed:
				failed = true
			case ok && math.IsNaN(again):
				again = losses[i]
			}
		}
		ld.Tolerated, ld.Again = append(ld.Tolerated, tol), append(ld.Again, again)
		if math.IsNaN(tol) {
			continue
		}
		if m := ld.Most; m < 0 || tol > ld.Tolerated[m] ||
			tol == ld.Tolerated[m] && ld.row(j, tol).TConfidence < ld.row(m, tol).TConfidence {
			ld.Most = j
		}
	}
	return ld, nil
}

// row is exchange size j's answer at loss e of the grid.
func (ld *LossDesign) row(j int, e float64) Answer {
	for i, l := range ld.Losses {
		if l == e {
			return ld.Designs[i].Rows[j]
		}
	}
	return Answer{}
}
