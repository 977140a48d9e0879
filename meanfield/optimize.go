package meanfield

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/internal/ctxguard"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/ode"
)

// coverageSettings are the integrator tolerances of CoverageTime: the
// event time agrees with approx.Model.TimeToCoverage to 1e-9 relative
// (TestCoverageTimeMatchesClosedForm).
var coverageSettings = ode.Settings{RTol: 1e-10, ATol: 1e-13}

// CoverageTime integrates the system of m in the form XZ until y reaches
// level and returns that time, located by an event on the dense output at
// z = −ln(1 − level); exactly 0 when level ≤ y(0) (d starts there), and
// +Inf when y never reaches level (level ≥ 1, or a horizon beyond 10⁹
// rounds). It refuses a Model that does not validate (see Solve) and a
// NaN level.
func CoverageTime(m approx.Model, level float64) (float64, error) {
	if err := checkModel(m); err != nil {
		return 0, err
	}
	if math.IsNaN(level) {
		return 0, fmt.Errorf("meanfield: coverage level NaN")
	}
	if level <= m.Y0 {
		return 0, nil
	}
	// The closed form sets the horizon only; the time reported is the
	// integrator's event.
	horizon := 2*m.TimeToCoverage(level) + 10
	if math.IsInf(horizon, 0) || math.IsNaN(horizon) || horizon > 1e9 {
		return math.Inf(1), nil
	}
	zl := zOfCoverage(level)
	ev := ode.Event{G: func(_ float64, s []float64) float64 { return s[1] - zl }, Direction: 1, Terminal: true}
	sol, err := ode.DormandPrince(XZ(m), 0, []float64{m.X0, zOfCoverage(m.Y0)}, horizon, coverageSettings, ev)
	if err != nil {
		return 0, fmt.Errorf("meanfield: %w", err)
	}
	if len(sol.Hits) == 0 {
		return math.Inf(1), nil
	}
	return sol.Hits[0].T, nil
}

// OptimizeConfig is what Optimize computes: the time-optimal exchange size
// for Nodes nodes, Items items and caches of Cache items (the exchange size
// is what it scans, so the shuffle has no Exchange here), to coverage Level.
type OptimizeConfig struct {
	Nodes int     // N ≥ 2
	Items int     // n, Cache < n ≤ gossip.MaxItems
	Cache int     // c ≥ 1
	Level float64 // coverage level, 0 < Level < 1
	// Loss is the message loss ε (0 ≤ ε < 1, zero value lossless). It
	// slows every time by approx.LossFactor(ε) alike, so it moves no
	// argmax; the times are those of the lossy model.
	Loss float64
}

// The parameters of OptimizeConfig besides the shuffle's and the loss,
// each stated once: Validate checks them and the command line writes its
// flags' help from them.
var (
	OptimizeNodes = gossip.Param{Field: "Nodes", Symbol: "N", Meaning: "number of nodes", Range: "≥ 2", Lo: gossip.AtLeast(2)}
	OptimizeLevel = gossip.Param{Field: "Level", Meaning: "coverage level for the time criterion", Range: "(0, 1)", Lo: gossip.Above(0), Hi: gossip.Below(1)}
)

// Validate checks 2 ≤ Nodes, 1 ≤ Cache < Items ≤ gossip.MaxItems,
// 0 < Level < 1 and 0 ≤ Loss < 1; a problem is a *FieldError naming the
// field.
func (c OptimizeConfig) Validate() error {
	switch {
	case !OptimizeNodes.In(float64(c.Nodes)):
		return OptimizeNodes.CheckInt("meanfield", "OptimizeConfig", c.Nodes)
	case c.Cache < 1:
		return fielderr.New("meanfield", "OptimizeConfig.Cache", "= %d: need Cache ≥ 1", c.Cache)
	case c.Cache >= c.Items || c.Items > gossip.MaxItems:
		return fielderr.New("meanfield", "OptimizeConfig.Items", "= %d: need Cache = %d < Items ≤ %d for an interior optimum", c.Items, c.Cache, gossip.MaxItems)
	case !OptimizeLevel.In(c.Level):
		return OptimizeLevel.Check("meanfield", "OptimizeConfig", c.Level)
	case !gossip.ValidLoss(c.Loss):
		return gossip.Loss.Check("meanfield", "OptimizeConfig", c.Loss)
	}
	return nil
}

// FieldError is an invalid field of a configuration; Field names it
// (OptimizeConfig.Level). It is the same type as gossip.FieldError.
type FieldError = fielderr.Error

// Optimum is the optimal exchange size of an OptimizeConfig.
type Optimum struct {
	OptimizeConfig
	// SStar is n − √(n(n−c)), the real maximiser of P(11|10).
	SStar float64
	// SInt is the integer argmax of P(11|10) with the simplified P_drop;
	// SIntGamma with the γ form where c ≤ approx.MaxArgmaxGammaC
	// (HasSIntGamma), SIntExact with formula (1) where
	// c ≤ approx.MaxArgmaxExactC (HasSIntExact).
	SInt, SIntGamma, SIntExact int
	HasSIntGamma, HasSIntExact bool
	// P11 is the lossless P(11|10) = p(1−q) at SInt. Under loss the net
	// rate of new copies is LossFactor(Loss)·2p(1−q), with the same
	// argmax; the lossy matrix entry a·p(a(1−q) + ε) alone is not what
	// sets the speed (01 → 00 takes copies away at a·ε·p·q).
	P11 float64
	// SBestTime minimises the ODE's time to coverage Level over s = 1..c−1;
	// BestTime is that time and TimeAtSInt the time at SInt (rounds).
	SBestTime            int
	BestTime, TimeAtSInt float64
	// Times[s−1] is the time to coverage Level at s, for s = 1..c−1.
	Times []float64
}

// Optimize computes the Optimum of cfg: the argmax of P(11|10) and the scan
// of CoverageTime over every s = 1..c−1 (simplified P_drop, one initial
// copy, message loss cfg.Loss). It checks ctx between exchange sizes and
// between the argmaxes of P(11|10), the γ form of which takes seconds
// near c = approx.MaxArgmaxGammaC without a context.
func Optimize(ctx context.Context, cfg OptimizeConfig) (*Optimum, error) {
	if err := ctxguard.Check("meanfield", ctx); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n, c := cfg.Items, cfg.Cache
	r := &Optimum{OptimizeConfig: cfg, SStar: approx.SStar(n, c)}
	var err error
	if r.SInt, r.P11, err = approx.ArgmaxP11(approx.Simplified, n, c); err != nil {
		return nil, err
	}
	// approx.ArgmaxP11 takes no context, and the γ form is slow at large c
	// (0.7 s at c = 1000, 2–6 s at c = approx.MaxArgmaxGammaC, n = 2²⁰…2⁴⁰):
	// ctx is checked before each argmax, so a cancel waits for one of them
	// at most.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if c <= approx.MaxArgmaxGammaC {
		if r.SIntGamma, _, err = approx.ArgmaxP11(approx.Gamma, n, c); err != nil {
			return nil, err
		}
		r.HasSIntGamma = true
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if c <= approx.MaxArgmaxExactC {
		if r.SIntExact, _, err = approx.ArgmaxP11(approx.Exact, n, c); err != nil {
			return nil, err
		}
		r.HasSIntExact = true
	}
	r.BestTime = math.Inf(1)
	for s := 1; s < c; s++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m, err := approx.NewModel(approx.Config{Nodes: cfg.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: c, Exchange: s}, PDrop: approx.Simplified, Initial: 1, Loss: cfg.Loss})
		if err != nil {
			return nil, err
		}
		tc, err := CoverageTime(m, cfg.Level)
		if err != nil {
			return nil, err
		}
		r.Times = append(r.Times, tc)
		if tc < r.BestTime {
			r.BestTime, r.SBestTime = tc, s
		}
		if s == r.SInt {
			r.TimeAtSInt = tc
		}
	}
	return r, nil
}

// Curves evaluates the closed forms x(t), y(t) of m at t = 0, 1, …, T; nil
// when T is not in [0, MaxRounds] or m does not validate (see Solve).
func Curves(m approx.Model, T int) (ts, xs, ys []float64) {
	if T < 0 || T > MaxRounds || checkModel(m) != nil {
		return nil, nil, nil // out of range
	}
	ts, xs, ys = make([]float64, T+1), make([]float64, T+1), make([]float64, T+1)
	for t := range ts {
		ts[t] = float64(t)
		xs[t] = m.X(float64(t))
		ys[t] = m.Y(float64(t))
	}
	return ts, xs, ys
}
