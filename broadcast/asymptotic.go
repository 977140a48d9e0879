package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/broadcast/internal/asym"
)

// The asymptotic law: three phases, the branching start, the mean-field
// middle with its noise and the binomial end, set out with their sources
// and the law's accuracy in package internal/asym (its doc.go). DevMean
// and DevSD follow from DevP (devMoments).
//
// Budget: the law of lumped.go (the cohorts' counts, a conditional Monte
// Carlo of a fixed seed), from LumpedMinLive live nodes and up to
// lumped.MaxRounds rounds of pushes; below that ErrNotCovered (Sweep falls
// back to the exact chain or the Monte Carlo).

// AsymptoticLaw is the large-N law of T_L described above, for any N up
// to MaxNodes (with a budget, lumped.go's law, from LumpedMinLive live
// nodes). Every answer states its accuracy in
// Law.Accuracy (DevP, DevMean, DevSD and Note). It returns an error
// wrapping ErrNotCovered where the law does not reach (reach.go): about
// more than MaxAsymRounds rounds expected (MeanRounds: loss near 1, a
// fanout tiny against N), or a stated DevP of 1 (which says nothing).
func AsymptoticLaw(ctx context.Context, cfg Config) (*Law, error) {
	return asymptoticLaw(ctx, cfg, asym.Cut)
}

func asymptoticLaw(ctx context.Context, cfg Config, cut int) (*Law, error) {
	if ctx == nil {
		return nil, errors.New("broadcast: nil context")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := roundsOnly(cfg, "asymptotic law"); err != nil {
		return nil, err
	}
	var law *Law
	var err error
	if cfg.Budget > 0 {
		law, err = lumpedLaw(ctx, cfg)
	} else {
		if err := asymReach(cfg); err != nil {
			return nil, err
		}
		if law, err = asymLaw(ctx, cfg, cut); err == nil {
			err = law.setLumpedDeadline(ctx, cfg)
		}
	}
	if err != nil {
		return nil, err
	}
	if err := asymVacuous(cfg, law); err != nil {
		return nil, err
	}
	return law, nil
}

// asymLaw is the asymptotic law of cfg (no budget), the start's chain up
// to count cut, with its accuracy.
func asymLaw(ctx context.Context, cfg Config, cut int) (*Law, error) {
	a := asym.New(asym.Params{M: cfg.Live(), N1: cfg.Nodes - 1, K: cfg.Fanout, Target: cfg.Target(),
		Eps: cfg.Loss, Push: cfg.Protocol.pushes(), Pull: cfg.Protocol.pulls()}, cut)
	pmf, msgs, lost, err := a.Law(ctx)
	if err != nil {
		return nil, err
	}
	law := (&Law{PMF: pmf, Messages: msgs, Accuracy: NoAccuracy()}).noDeadline()
	dev := a.Dev(law.PMF, lost)
	dm, ds := devMoments(law, cfg, dev)
	law.Accuracy.DevP = dev
	law.Accuracy.DevMean = dm
	law.Accuracy.DevSD = ds
	law.Accuracy.Note = fmt.Sprintf("asymptotic law (branching start to count %d, mean-field middle with its noise, binomial end): every P(T_L ≤ t) within %.2g, the mean within %.2g rounds", a.Cut(), dev, dm)
	return law, nil
}

// devMoments bounds the errors of the mean and the sd of T_L (given T_L <
// ∞) of a law whose every P(T_L ≤ t) is within dev. The mean is Σ_t (1 −
// F(t)), so |Δmean| ≤ dev·w over the w rounds in which F is not within
// 10⁻⁹ of 0 or 1 (plus 2 for the edges). The variance about t₀ =
// round(mean): E[(T−t₀)²] = Σ_t |2(t−t₀)+1|·(F or 1 − F), so |ΔVar| ≤
// dev·Σ_W |2(t−t₀)+1| + 2·½·|Δmean| + |Δmean|², and |ΔSD| ≤ min(√|ΔVar|,
// |ΔVar|/SD).
func devMoments(law *Law, cfg Config, dev float64) (dm, ds float64) {
	ans := law.Answer(cfg)
	return momentDevs(law.PMF, ans.Mean, ans.SD, dev)
}

// momentDevs is devMoments' bound from the law's PMF, mean and sd.
func momentDevs(pmf []float64, mean, sd, dev float64) (dm, ds float64) {
	ans := struct{ Mean, SD float64 }{mean, sd}
	law := struct{ PMF []float64 }{pmf}
	t0 := math.Round(ans.Mean)
	F, w, sw := 0.0, 2, 2.0*(1+2*math.Abs(t0))
	for t, p := range law.PMF {
		F += p
		if F > 1e-9 && F < 1-1e-9 {
			w++
			sw += math.Abs(2*(float64(t)-t0) + 1)
		}
	}
	dm = dev * float64(w)
	dvar := dev*sw + dm + dm*dm
	ds = math.Sqrt(dvar)
	if ans.SD > 0 {
		ds = math.Min(ds, dvar/ans.SD)
	}
	return dm, ds
}
