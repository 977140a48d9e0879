package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/broadcast/internal/roundmf"
)

// The mean field: the recursion on the expected uninformed live count,
// round by round (package internal/roundmf, whose doc.go sets it out with
// its sources).

// Trajectory is the mean-field path of one broadcast.
type Trajectory struct {
	// Informed[r] is the informed live share at the end of round r
	// (Informed[0] = 1/M).
	Informed []float64
	// Cross is the first round r at which the expected informed count
	// Informed[r]·M is within 1/2 of the target ⌈L·M⌉ or above (it rounds
	// to the target; for L = 1, at most half a node is missing), −1 if
	// none among the rounds computed.
	Cross int
	// CrossReal interpolates the crossing between rounds: the r + θ at
	// which log U, linear in θ between rounds r and r+1, reaches
	// M − target + 1/2 (NaN if none).
	CrossReal float64
	// Messages is the expected messages per live node in rounds
	// 1…Cross (every round computed if Cross is −1).
	Messages float64
	// Residue is the uninformed live share at the last round computed,
	// or, with a budget on push alone, once no node can act (the
	// recursion is then run on until the senders are below 10⁻¹² nodes).
	Residue float64
}

// MeanField runs the mean-field recursion for rounds rounds (at most
// 10⁶).
func MeanField(cfg Config, rounds int) (*Trajectory, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := roundsOnly(cfg, "mean field"); err != nil {
		return nil, err
	}
	if rounds < 0 || rounds > 1_000_000 {
		return nil, fieldErr("rounds", "= %d: valid range 0..1000000", rounds)
	}
	mf := newMeanField(cfg)
	M := float64(mf.M)
	target := float64(cfg.Target())
	tr := &Trajectory{Informed: []float64{1 / M}, Cross: -1, CrossReal: math.NaN()}
	if target <= 1 {
		tr.Cross, tr.CrossReal = 0, 0
	}
	goal := M - target + 0.5 // the uninformed count to reach
	msgs := 0.0
	for r := 1; r <= rounds || (mf.Budget && !mf.Stopped() && r <= 1_000_000); r++ {
		if tr.Cross < 0 {
			msgs += mf.Messages()
		}
		u0 := mf.U
		mf.Step()
		if r <= rounds {
			tr.Informed = append(tr.Informed, (M-mf.U)/M)
		}
		if tr.Cross < 0 && mf.U <= goal {
			tr.Cross = r
			tr.CrossReal = float64(r-1) + roundmf.CrossFrac(u0, mf.U, goal)
		}
		if !mf.Budget && r >= rounds {
			break
		}
	}
	tr.Messages = msgs / M
	tr.Residue = mf.U / M
	return tr, nil
}

// newMeanField is the mean-field recursion of cfg at its start.
func newMeanField(cfg Config) *roundmf.State {
	return roundmf.New(roundmf.Params{M: cfg.Live(), N1: cfg.Nodes - 1, K: cfg.Fanout, Budget: cfg.Budget, R: rounds(cfg.Budget, cfg.Fanout),
		Eps: cfg.Loss, Push: cfg.Protocol.pushes(), Pull: cfg.Protocol.pulls()})
}

// SerfLogistic is the curve of Serf's convergence simulator: the informed
// share after t rounds, 1/(1 + (N+1)·e^{−βt}) with β =
// k(1−ε)(1−φ)/2 (its contact rate (k/N)(1−ε)(1−φ)/2 times N). It is the
// solution of the logistic equation x' = βx(1−x), the continuous-time limit
// of the push mean field with a per-round rate β (docs/MODEL.md: where it
// agrees with the mean field and where it misleads). NaN for an invalid
// cfg.
func SerfLogistic(cfg Config, t float64) float64 {
	if cfg.Validate() != nil {
		return math.NaN()
	}
	beta := float64(cfg.Fanout) * (1 - cfg.Loss) * (1 - cfg.Failed) / 2
	return 1 / (1 + float64(cfg.Nodes+1)*math.Exp(-beta*t))
}

// Logistic is the logistic curve with the push mean field's rate: the
// informed live share 1/(1 + (M−1)·e^{−λt}), λ = k(1−ε)M/(N−1) (the
// solution of x' = λx(1−x) from x(0) = 1/M). NaN for an invalid cfg.
func Logistic(cfg Config, t float64) float64 {
	if cfg.Validate() != nil {
		return math.NaN()
	}
	M := float64(cfg.Live())
	lam := float64(cfg.Fanout) * (1 - cfg.Loss) * M / float64(cfg.Nodes-1)
	return 1 / (1 + (M-1)*math.Exp(-lam*t))
}

// BudgetResidue is the large-N law of a budgeted push's end (push alone;
// it ignores cfg.Level and the deadline).
type BudgetResidue struct {
	// Lambda is λ = B(1−ε)M/(N−1): the transmits of one node's life that
	// arrive at live nodes.
	Lambda float64
	// S solves s = exp(−λ(1−s)) in (0, 1) (0 < s < 1 when λ > 1; s = 1,
	// no outbreak, when λ ≤ 1): the uninformed share after an outbreak.
	S float64
	// Extinct is the probability that the rumour dies out early: the
	// extinction probability of the branching process in which an
	// informed node informs Binomial(B, (1−ε)(M−1)/(N−1)) others.
	Extinct float64
	// Residue = Extinct·1 + (1 − Extinct)·S, to O(1/M): the expected
	// uninformed share.
	Residue float64
	// PMiss = Extinct + (1 − Extinct)·(1 − e^{−M·S}): given an outbreak,
	// each live node is missed with probability about S, nearly
	// independently, so the missed count is about Poisson(M·S).
	PMiss float64
}

// PushBudgetResidue computes BudgetResidue for push with Budget > 0.
// Its error is O(1/√M) in the residue and in PMiss (the fluctuations of
// the outbreak's size); budget_test checks it against the exact chain.
func PushBudgetResidue(cfg Config) (*BudgetResidue, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Protocol != Push || cfg.Budget == 0 {
		return nil, fmt.Errorf("broadcast: budget residue: push with a budget only (have %v, budget %d): %w", cfg.Protocol, cfg.Budget, ErrNotCovered)
	}
	M, N1, B := float64(cfg.Live()), float64(cfg.Nodes-1), float64(cfg.Budget)
	lam := B * (1 - cfg.Loss) * M / N1
	s := roundmf.Demers(lam)
	// Extinction: x = f(x), f(x) = (1 − p + p·x)^B, iterated from 0
	// (monotone to the smallest root).
	p := (1 - cfg.Loss) * (M - 1) / N1
	x := 0.0
	for it := 0; it < 100000; it++ {
		nx := math.Pow(1-p+p*x, B)
		if math.Abs(nx-x) < 1e-16 {
			x = nx
			break
		}
		x = nx
	}
	res := &BudgetResidue{Lambda: lam, S: s, Extinct: x}
	res.Residue = x + (1-x)*s
	res.PMiss = x + (1-x)*(-math.Expm1(-M*s))
	if s >= 1 {
		res.Residue, res.PMiss = 1, 1
	}
	return res, nil
}

// SmallestBudget is the smallest budget B in 1..MaxBudget for which the
// upper end of the chance that some live node is never informed
// (MissChance: PMiss·(1 + PMissRelErr)) is at most pMiss, for push with
// cfg's other fields; 0 and an error wrapping ErrNotCovered if none is.
// The chance falls as the budget grows (every extra transmit can only
// inform more nodes), so it doubles, then bisects.
func SmallestBudget(ctx context.Context, cfg Config, pMiss float64, set Settings) (int, error) {
	if ctx == nil {
		return 0, errors.New("broadcast: nil context")
	}
	if !(pMiss > 0 && pMiss < 1) {
		return 0, fieldErr("pMiss", "= %g: valid range (0, 1)", pMiss)
	}
	// The misses do not depend on the clock (MissChance).
	cfg.Protocol, cfg.Deadline, cfg.MaxMiss, cfg.Time = Push, 0, 0, Rounds
	ok := func(b int) (bool, error) {
		cfg.Budget = b
		// The large-N law decides at once where its whole interval is on
		// one side of the target; near λ = 1, where it has no fixed point,
		// the rumour dies out with a chance of order 1 and the budget is
		// too small for any target below 1/2.
		if cfg.Validate() == nil {
			_, pm, okLaw := budgetMissLaw(cfg)
			switch {
			case !okLaw && pMiss < 0.5:
				return false, nil
			case okLaw && pm.lo > pMiss:
				return false, nil
			case okLaw && pm.hi <= pMiss && pm.relErr() <= MaxRelErr:
				return true, nil
			}
		}
		m, err := missChance(ctx, cfg, set, false)
		if err != nil {
			return false, err
		}
		return m.PMiss*(1+m.PMissRelErr) <= pMiss, nil
	}
	hi := 1
	for {
		good, err := ok(hi)
		if err != nil {
			return 0, err
		}
		if good {
			break
		}
		if hi >= MaxBudget {
			return 0, fmt.Errorf("broadcast: no budget up to %d gives P(miss) ≤ %g: %w", MaxBudget, pMiss, ErrNotCovered)
		}
		hi = min(2*hi, MaxBudget)
	}
	lo := hi / 2 // bad (or 0)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		good, err := ok(mid)
		if err != nil {
			return 0, err
		}
		if good {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}
