package exact

import (
	"context"
	"fmt"
	"math/big"

	"github.com/gossipkit/gossipkit/internal/fielderr"

	"github.com/gossipkit/gossipkit/internal/ctxguard"

	"github.com/gossipkit/gossipkit/gossip"
)

// Settings are the knobs of the long computations of this package
// (Evaluate, VerifyGamma, ProveGammaRange). The zero value is ready: no
// progress reports.
type Settings struct {
	// Progress, if not nil, is called after each unit of work with the
	// units done and the total: points for Evaluate, exchange sizes s for
	// VerifyGamma and ProveGammaRange.
	Progress gossip.Progress
	// Workers is the number of goroutines ProveGammaRange proves values of
	// s on (0 or 1: one, the caller's). Each s is proved into its own slot,
	// so the result does not depend on it.
	Workers int
}

// Config is what Evaluate computes: every drop probability of each shuffle,
// and optionally the enumeration of one shuffle.
type Config struct {
	// Shuffles are the points; each must pass Validate.
	Shuffles []gossip.Shuffle
	// Enumerate also enumerates one shuffle at the points that
	// CheckEnumerable accepts.
	Enumerate bool
}

// Evaluation is every drop probability of one shuffle, exact.
type Evaluation struct {
	gossip.Shuffle
	// Formula1 is formula (1), E(n,c,s), by its closed form (PDrop).
	Formula1 *big.Rat
	// Gamma is the γ form with γ_s(n) from its sum (PDropGamma).
	Gamma *big.Rat
	// Simplified is S = (n−c)/(n−s).
	Simplified *big.Rat
	// Log10AbsDiff is log10 |E − S| = log10(S/C(n,s)); HasLog10 is false
	// where E = S, that is n = c.
	Log10AbsDiff float64
	HasLog10     bool
	// Enumerated is nil unless Config.Enumerate and the shuffle is
	// enumerable (CheckEnumerable).
	Enumerated *Enumeration
}

// MaxEvaluate bounds the shuffles of one Evaluate: 20,000 take about 3 s
// of CPU at n ≤ 10⁵ (0.14 ms a shuffle, mostly the 128-bit logarithm of
// |E − S| and the γ sum, measured on the development machine: 500,000
// took 70 s, which no interactive command should take unasked).
const MaxEvaluate = 20_000

// Evaluate evaluates every shuffle of cfg: PDrop, PDropGamma (whose γ sum
// dominates, a fraction of a second at s = 50,000:
// BenchmarkPDropGamma50000), PDropSimplified and Log10AbsDiff. It checks
// ctx before each shuffle; set.Progress counts shuffles. An invalid shuffle
// is a *gossip.FieldError on Config.Shuffles[i].
func Evaluate(ctx context.Context, cfg Config, set Settings) ([]Evaluation, error) {
	if err := ctxguard.Check("exact", ctx); err != nil {
		return nil, err
	}
	if len(cfg.Shuffles) > MaxEvaluate {
		return nil, fielderr.New("exact", "Config.Shuffles", "has %d shuffles: at most MaxEvaluate = %d", len(cfg.Shuffles), MaxEvaluate)
	}
	for i, p := range cfg.Shuffles {
		if err := Validate(p); err != nil {
			return nil, shuffleError(fmt.Sprintf("Config.Shuffles[%d]", i), err)
		}
	}
	total := int64(len(cfg.Shuffles))
	out := make([]Evaluation, 0, len(cfg.Shuffles))
	for i, p := range cfg.Shuffles {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e, err := PDrop(p)
		if err != nil {
			return nil, err
		}
		ev := Evaluation{Shuffle: p, Formula1: e, Gamma: pdropGamma(p, e)}
		ev.Simplified, _ = PDropSimplified(p) // valid: Validate passed
		ev.Log10AbsDiff, ev.HasLog10 = Log10AbsDiff(e, ev.Simplified)
		if cfg.Enumerate {
			if en, err := PDropEnumerated(p); err == nil {
				ev.Enumerated = en
			}
		}
		out = append(out, ev)
		if set.Progress != nil {
			set.Progress(int64(i+1), total)
		}
	}
	return out, nil
}

// GridPoints returns the valid shuffles (gossip.Shuffle.Validate) of the
// grid ns × cs × ss, in the order c, s, n (n fastest), and the number of
// invalid ones skipped. It does not apply PDrop's size bound (Validate).
func GridPoints(ns, cs, ss []int) (pts []gossip.Shuffle, skipped int) {
	for _, c := range cs {
		for _, s := range ss {
			for _, n := range ns {
				p := gossip.Shuffle{Items: n, Cache: c, Exchange: s}
				if p.Validate() != nil {
					skipped++
					continue
				}
				pts = append(pts, p)
			}
		}
	}
	return pts, skipped
}
