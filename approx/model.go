package approx

import (
	"math"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// Config is the mean-field model to build: Nodes nodes, the shuffle's
// parameters, the P_drop variant, the nodes holding d at t = 0 and the
// message loss.
type Config struct {
	Nodes   int // N ≥ 2
	Shuffle gossip.Shuffle
	PDrop   Variant // the zero value is Simplified, the paper's P_drop
	Initial int     // nodes holding d at t = 0, 1..Nodes; 0 means 1
	// Loss is ε, the probability that a shuffle's request, and
	// independently its reply, is lost (0 ≤ ε < 1; the zero value is the
	// lossless protocol). The mean field then runs on a clock slowed by
	// LossFactor(ε) (NewTransitionsLoss has the matrix).
	Loss float64
}

// FieldError is an invalid field of Config; Field names it (Config.Nodes).
// It is the same type as gossip.FieldError, sim.FieldError and the others.
type FieldError = fielderr.Error

// The numeric parameters of Config, each stated once: Validate checks
// them and a program (the command line) writes its help from them.
// Initial's zero value stands for 1 (Default), and its upper end is Nodes.
var (
	Nodes   = gossip.Param{Field: "Nodes", Symbol: "N", Meaning: "number of nodes", Range: "≥ 2", Lo: gossip.AtLeast(2)}
	Initial = gossip.Param{Field: "Initial", Meaning: "initial number of copies of d", Range: "1..N", Default: "1", Lo: gossip.AtLeast(1)}
)

// Validate checks the configuration; a problem is a *FieldError naming the
// field (Config.Shuffle.Exchange).
func (c Config) Validate() error {
	if !Nodes.In(float64(c.Nodes)) {
		return fielderr.New("approx", "Config.Nodes", "= %d: need Nodes ≥ 2", c.Nodes)
	}
	if err := c.Shuffle.Validate(); err != nil {
		return fielderr.Within("approx", "Config", err)
	}
	if c.Initial != 0 && (!Initial.In(float64(c.Initial)) || c.Initial > c.Nodes) {
		return fielderr.New("approx", "Config.Initial", "= %d: need 1 ≤ Initial ≤ Nodes = %d (0 means 1)", c.Initial, c.Nodes)
	}
	if !variantNames.Valid(c.PDrop) {
		return fielderr.New("approx", "Config.PDrop", "= %v: not a P_drop variant", c.PDrop)
	}
	if !gossip.ValidLoss(c.Loss) {
		return fielderr.New("approx", "Config."+gossip.Loss.Field, "= %g: need %s", c.Loss, gossip.Loss.Range)
	}
	return nil
}

// LossFactor returns f = (1−ε)(1−ε/2), the factor by which message loss ε
// slows the mean field: with loss, the drift of x and of y is f times the
// lossless one, so x_ε(t) = x_0(f·t) and y_ε(t) = y_0(f·t) (docs/MODEL.md,
// "The shuffle protocol under loss"). From NewTransitionsLoss, a = 1 − ε, a
// holder/non-holder pair (either orientation) makes a copy with
// a·p·(2a(1−q) + ε) and loses one with a·ε·p·q, net a(2−ε)·p(1−q) =
// f·2p(1−q); a pair of holders loses one with a(1+a)·p(1−p)q = f·2p(1−p)q;
// and a never-holder beside a holder receives d with a·p + a²·p = f·2p.
// f is exactly 1 at ε = 0, so multiplying by it changes no lossless value.
func LossFactor(eps float64) float64 { return (1 - eps) * (1 - eps/2) }

// Model is the mean-field model of one item in Nodes nodes: replication x(t)
// and coverage y(t), with P_select = P and P_drop = Q. Build it with
// NewModel; Initial is at least 1 in a built Model.
type Model struct {
	Config
	P, Q   float64 // P_select and P_drop
	X0, Y0 float64 // x(0) and y(0): initial copies / N
}

// NewModel returns the model of cfg (cfg.Validate must hold).
func NewModel(cfg Config) (Model, error) {
	if err := cfg.Validate(); err != nil {
		return Model{}, err
	}
	if cfg.Initial == 0 {
		cfg.Initial = 1
	}
	q, err := PDrop(cfg.PDrop, cfg.Shuffle)
	if err != nil {
		return Model{}, fielderr.Within("approx", "Config", err)
	}
	x0 := float64(cfg.Initial) / float64(cfg.Nodes)
	return Model{Config: cfg, P: PSelect(cfg.Shuffle), Q: q, X0: x0, Y0: x0}, nil
}

// Rate returns the logistic growth rate k = f·2p(1−q), with f =
// LossFactor(Loss) (1 without loss); for the simplified P_drop it is
// f·2(s/c)(c−s)/(n−s).
func (m Model) Rate() float64 {
	f := LossFactor(m.Loss) // exactly 1 at ε = 0: the product is unchanged
	if m.PDrop == Simplified {
		// The closed form avoids the rounding of 1 − q.
		n, c, s := m.Shuffle.Items, m.Shuffle.Cache, m.Shuffle.Exchange
		return f * (2 * float64(s) / float64(c) * float64(c-s) / float64(n-s))
	}
	return f * (2 * m.P * (1 - m.Q))
}

// Steady returns the stable fixed point K = (1−q)/((1−q) + (1−p)q) of x; for
// the simplified P_drop it is c/n. Loss does not move it (it scales the
// whole drift by LossFactor).
func (m Model) Steady() float64 {
	if m.PDrop == Simplified {
		return float64(m.Shuffle.Cache) / float64(m.Shuffle.Items) // exact to one rounding
	}
	a := 1 - m.Q
	return a / (a + (1-m.P)*m.Q)
}

// Drift returns (dx/dt, dy/dt) at (x, y):
//
//	dx/dt = f·2p[(1−q)·x(1−x) − (1−p)q·x²],   dy/dt = f·2p·x(1 − y),
//
// with f = LossFactor(Loss), 1 without loss.
func (m Model) Drift(x, y float64) (dx, dy float64) {
	p, q, f := m.P, m.Q, LossFactor(m.Loss)
	dx = f * 2 * p * ((1-q)*x*(1-x) - (1-p)*q*x*x)
	dy = f * 2 * p * x * (1 - y)
	return dx, dy
}

// X returns the closed-form replication x(t) = K / (1 + (K/x0 − 1)e^{−kt}),
// evaluated as
//
//	x(t) = K·x0 / (K·e^{−kt} − x0·expm1(−kt)),
//
// whose two denominator terms are both ≥ 0 for t ≥ 0, so nothing cancels.
// (The first form loses digits in 1 + (K/x0 − 1)e^{−kt} when x0 > K:
// 15 000 ulp at N = 2, n = 10⁶, c = 10 against Reference; this one stays
// within a few ulp, TestClosedFormsAgainstReference.)
func (m Model) X(t float64) float64 {
	k, K := m.Rate(), m.Steady()
	if k == 0 {
		// s = c: nothing is ever duplicated, x stays x0 (K is 0/0 with the
		// gamma and exact P_drop, where p = q = 1; the fuzz target found
		// the NaN).
		return m.X0
	}
	return K * m.X0 / (K*math.Exp(-k*t) - m.X0*math.Expm1(-k*t))
}

// integralX returns ∫₀ᵗ x = (K/k)·ln(1 + x0(e^{kt} − 1)/K), or x0·t when
// k = 0 (s = c: nothing is ever duplicated).
func (m Model) integralX(t float64) float64 {
	k, K := m.Rate(), m.Steady()
	if k == 0 {
		return m.X0 * t
	}
	kt := k * t
	if kt < 700 {
		return K / k * math.Log1p(m.X0*math.Expm1(kt)/K)
	}
	// ln(1 + a(e^{kt} − 1)) = kt + ln a + ln(1 + (1/a − 1)e^{−kt}), a = x0/K
	a := m.X0 / K
	return K / k * (kt + math.Log(a) + math.Log1p((1/a-1)*math.Exp(-kt)))
}

// Y returns the closed-form coverage y(t) = 1 − (1 − y0)·exp(−f·2p ∫₀ᵗ x),
// f = LossFactor(Loss).
func (m Model) Y(t float64) float64 {
	// y0 + (1 − y0)(1 − e^{−u}) keeps y(0) = y0 exactly and loses no digits
	// while u is small. (−2p)·f is −2p exactly at ε = 0.
	return m.Y0 - (1-m.Y0)*math.Expm1(-2*m.P*LossFactor(m.Loss)*m.integralX(t))
}

// TimeToReplication returns the t at which x(t) = level, for x0 ≤ level < K,
// and +Inf for level ≥ K (never reached).
func (m Model) TimeToReplication(level float64) float64 {
	k, K := m.Rate(), m.Steady()
	switch {
	case level <= m.X0:
		return 0
	case level >= K || k == 0:
		return math.Inf(1)
	}
	// K/level − 1 = (K/x0 − 1)e^{−kt}
	return math.Log((K/m.X0-1)/(K/level-1)) / k
}

// TimeToCoverage returns the t at which y(t) = level, for y0 ≤ level < 1.
func (m Model) TimeToCoverage(level float64) float64 {
	switch {
	case level <= m.Y0:
		return 0
	case level >= 1:
		return math.Inf(1)
	}
	// Needed ∫x: I = −ln((1−level)/(1−y0)) / (f·2p), with the ratio written
	// 1 − (level−y0)/(1−y0) so that I > 0 for every level > y0 (the ratio
	// itself rounds to 1 within an ulp of y0, and gave t = −0). 2p·f is 2p
	// exactly at ε = 0.
	I := -math.Log1p(-(level-m.Y0)/(1-m.Y0)) / (2 * m.P * LossFactor(m.Loss))
	k, K := m.Rate(), m.Steady()
	if k == 0 {
		return I / m.X0
	}
	// I = (K/k) ln(1 + a·expm1(kt)), a = x0/K  ⇒  kt = ln(1 + expm1(kI/K)/a)
	a := m.X0 / K
	u := k * I / K
	if u < 700 {
		return math.Log1p(math.Expm1(u)/a) / k
	}
	return (u - math.Log(a) + math.Log1p((a-1)*math.Exp(-u))) / k
}

// DxDs returns ∂x/∂s for the paper's model (simplified P_drop, x0 = 1/N),
//
//	∂x/∂s = 2e^{kt}(cN − n)(cn + s(s − 2n))·t / ((cN + (e^{kt} − 1)n)²(n − s)²),
//
// (Bakhshi et al., Sec. 5.1), written with e^{−kt} so that it does not
// overflow; it is zero at s* = n − √(n(n−c)) for every t > 0.
func DxDs(t float64, nodes int, sh gossip.Shuffle) float64 {
	Nf, nf, cf, sf := float64(nodes), float64(sh.Items), float64(sh.Cache), float64(sh.Exchange)
	k := 2 * sf / cf * (cf - sf) / (nf - sf)
	e := math.Exp(-k * t) // multiply numerator and denominator by e^{−2kt}
	den := cf*Nf*e + (1-e)*nf
	return 2 * e * (cf*Nf - nf) * (cf*nf + sf*(sf-2*nf)) * t / (den * den * (nf - sf) * (nf - sf))
}
