package plan

import (
	"context"
	"fmt"
	"math"
)

// DefaultAccuracy is Settings.Accuracy's default, in rounds: one round,
// the unit in which every answer is given and a deployment schedules, and
// the resolution at which the protocol (and the round-observed Monte
// Carlo) sees T_L at all; finer claims could not be checked against a run.
const DefaultAccuracy = 1.0

// autoMCEvents bounds the events of the lumped chain that Auto spends on
// one exchange size (about 10 s of CPU at the measured 2·10⁸ events a
// second on two cores), like ExactBudget for the chain.
const autoMCEvents = 2e9

// Largest returns the largest of the stated deviations of the asymptotic
// law (DevMean, DevSD and DevQuantile at p = 0.05…0.95 and at the
// confidence p), in rounds: what Auto compares with Settings.Accuracy. NaN
// for the other methods.
func (a Accuracy) Largest(confidence float64) float64 {
	d := math.Max(a.DevMean, a.DevSD)
	for _, p := range []float64{0.05, 0.25, 0.5, 0.75, 0.95, confidence} {
		d = math.Max(d, a.DevQuantile(p))
	}
	return d
}

// lumpedEvents estimates the events of one replication of the lumped
// chain: the m − K coverage events, plus births and deaths, about
// 2u·x∞·N a round at equilibrium over the mean time (and the holders at
// the end).
func lumpedEvents(cfg Config, mean float64, mf interface {
	Rate() float64
	Steady() float64
}) float64 {
	C := mf.Steady() * float64(cfg.Nodes)
	return float64(cfg.count()-cfg.initial()) + C + 2*mf.Rate()*C*mean
}

// autoChoice answers a configuration the exact chain does not take: the
// asymptotic law if its largest stated deviation is within the requested
// accuracy; else the lumped chain's Monte Carlo with enough replications
// that two standard errors of the mean are within it (at least
// Settings.Reps), unless that many do not fit autoMCEvents and the
// replications that fit would be less accurate than the law.
func autoChoice(ctx context.Context, cfg Config, set Settings, asym *asymptotic, mf interface {
	Rate() float64
	Steady() float64
}) (*Answer, error) {
	acc := set.Accuracy
	if acc <= 0 {
		acc = DefaultAccuracy
	}
	ans := answerAsymptotic(cfg, asym)
	ans.Method = Asymptotic
	dev := ans.Accuracy.Largest(cfg.confidence())
	if dev <= acc {
		ans.Accuracy.Note = fmt.Sprintf("auto: asymptotic bound %.3g rounds ≤ requested %g: %s", dev, acc, ans.Accuracy.Note)
		return ans, nil
	}
	need := math.Ceil(math.Pow(2*ans.SD/acc, 2))
	reps := math.Max(float64(set.Reps), need)
	per := lumpedEvents(cfg, ans.Mean, mf)
	capped := false
	if reps*per > autoMCEvents {
		reps, capped = math.Max(float64(set.Reps), math.Floor(autoMCEvents/per)), true
		if se := ans.SD / math.Sqrt(reps); 2*se > dev || reps*per > autoMCEvents {
			ans.Accuracy.Note = fmt.Sprintf("auto: asymptotic bound %.3g rounds > requested %g, but the lumped Monte Carlo that fits the budget (%.0f runs of about %.2g events) would have 2·se %.2g > %.2g: asymptotic; %s",
				dev, acc, reps, per, 2*se, dev, ans.Accuracy.Note)
			return ans, nil
		}
	}
	mc := set
	mc.Reps = int(reps)
	a, err := solveLumped(ctx, cfg, mc)
	if err != nil {
		return nil, err
	}
	a.Method = MonteCarlo
	why := "2·se of the mean ≤ requested"
	if capped {
		why = fmt.Sprintf("as many as fit the budget of %.0g events; 2·se %.2g < the law's bound", autoMCEvents, 2*a.Accuracy.SEMean)
	}
	a.Accuracy.Note = fmt.Sprintf("auto: asymptotic bound %.3g rounds > requested %g: lumped Monte Carlo, %d runs (%s); %s", dev, acc, mc.Reps, why, a.Accuracy.Note)
	return a, nil
}
