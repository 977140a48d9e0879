package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/broadcast/internal/lumped"
)

// The large-N law of a budgeted push (push and push–pull with Budget > 0):
// the model and its runs are package internal/lumped (its doc.go sets
// them out); here, what it covers and the Law with its accuracy.
//
// Where a deadline's chance of a miss (ResidueDeadline, PLate) is carried
// by too few runs (their standard errors above lumpedRunsRelErr of it), the
// law adds runs, ×4 at a time, up to lumpedMoreRuns times lumpedRuns: deep
// in push–pull's tail the value comes from the runs whose start was slow.
//
// Accuracy. DevP = 1/√M (the closure; AsymptoticLaw's constant, measured
// at most 0.35, is taken as 1) + lumpedWatch·B·(1−ε)/(N−1) + zValue
// standard errors of the runs' mean, the largest over t. The chances of a
// miss (ResidueDeadline, PLate, and Residue, PMiss where they are more
// accurate than budgetMissLaw's) carry, relative to their size, zValue
// standard errors plus ln(1/q)/√M: a relative error 1/√M in the counts
// that drive the exponent ln(1/q) of a node's escape, plus the GW chance
// of an early end divided by the value where the runs saw no early end.

// LumpedMinLive is the smallest live count the large-N law of a
// budgeted push covers (its closure error, 1/√M, is then at most 1 %).
const LumpedMinLive = 10_000

// lumpedCovers reports whether the large-N law of a budgeted push covers
// cfg (valid, with a budget), and why not.
func lumpedCovers(cfg Config) error {
	switch {
	case !cfg.Protocol.pushes() || cfg.Budget <= 0:
		return fmt.Errorf("broadcast: the large-N law of a budgeted push needs a push with a budget: %w", ErrNotCovered)
	case cfg.Live() < LumpedMinLive:
		return fmt.Errorf("broadcast: asymptotic law: a budget (%d) is covered from %d live nodes (here %d; the exact chain or the Monte Carlo answers): %w", cfg.Budget, LumpedMinLive, cfg.Live(), ErrNotCovered)
	case rounds(cfg.Budget, cfg.Fanout) > lumped.MaxRounds:
		return fmt.Errorf("broadcast: asymptotic law: a budget of more than %d rounds of pushes (here ⌈%d/%d⌉) is not covered: %w", lumped.MaxRounds, cfg.Budget, cfg.Fanout, ErrNotCovered)
	}
	return nil
}

// lumpedLaw is the large-N law of a budgeted push (the comment above).
func lumpedLaw(ctx context.Context, cfg Config) (*Law, error) {
	if ctx == nil {
		return nil, errors.New("broadcast: nil context")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := lumpedCovers(cfg); err != nil {
		return nil, err
	}
	return lumpedModelLaw(ctx, cfg, newLumped(cfg))
}

// newLumped is the large-N law's model of cfg.
func newLumped(cfg Config) *lumped.Model {
	return lumped.New(lumped.Params{M: cfg.Live(), N1: cfg.Nodes - 1, K: cfg.Fanout, R: rounds(cfg.Budget, cfg.Fanout),
		Budget: cfg.Budget, Eps: cfg.Loss, Pulls: cfg.Protocol.pulls(), Target: cfg.Target(), D: deadlineRounds(cfg), Z: zValue})
}

// lumpedModelLaw runs m, cfg's model, and returns its law.
func lumpedModelLaw(ctx context.Context, cfg Config, m *lumped.Model) (*Law, error) {
	s, ts, err := m.Law(ctx)
	if err != nil {
		return nil, err
	}
	return sumsLaw(cfg, m, s, ts), nil
}

// sumsLaw turns the sums of cfg's model m into the Law with its stated
// accuracy.
func sumsLaw(cfg Config, m *lumped.Model, s *lumped.Sums, ts *lumped.TiltSums) *Law {
	n := s.N
	pmf, fEnd, seMax := s.PMF()
	fM := float64(m.M)
	law := &Law{PMF: pmf, Never: math.Max(1-fEnd, 0), Accuracy: NoAccuracy()}
	law.noDeadline()
	// The chances of a miss: zValue standard errors plus the closure's
	// ln(1/q)/√M, plus the early ends the runs did not see.
	// (Push–pull has no early end: the pulls go on, and the runs whose
	// pushes died at the start are drawn as often as they happen.)
	xEarly := 0.0
	if s.Early == 0 && !cfg.Protocol.pulls() {
		xEarly = extinction((1-cfg.Loss)*(fM-1)/float64(cfg.Nodes-1), float64(cfg.Budget))
	}
	ivOfRunsN := func(sum [2]float64, n float64) interval {
		v, se := lumped.MeanSE(sum, n)
		if !(v > 0) {
			return interval{v, 0, math.Min(xEarly+float64(zValue)*se, 1)}
		}
		rel := float64(zValue)*se/v + math.Log(1/math.Min(v, 1-1e-16))/math.Sqrt(fM)
		lo := v * math.Max(1-rel, 0)
		hi := math.Min(v*(1+rel)+xEarly, 1)
		return interval{v, lo, hi}
	}
	ivOfRuns := func(sum [2]float64) interval { return ivOfRunsN(sum, n) }
	if cfg.Protocol.pulls() {
		// The pulls go on until every live node is informed.
		law.Residue, law.PMiss, law.ResidueRelErr, law.PMissRelErr = 0, 0, 0, 0
	} else {
		law.setResidue(ivOfRuns(s.Res))
		law.setPMiss(ivOfRuns(s.Miss))
		if res, pm, ok := budgetMissLaw(cfg); ok {
			law.setResidue(better(ivOf(law.Residue, law.ResidueRelErr), res))
			law.setPMiss(better(ivOf(law.PMiss, law.PMissRelErr), pm))
		}
	}
	if m.D >= 1 {
		resD, late := ivOfRuns(s.ResD), ivOfRuns(s.Late)
		if ts != nil && ts.N > 0 {
			resD, late = better(resD, ivOfRunsN(ts.ResD, ts.N)), better(late, ivOfRunsN(ts.Late, ts.N))
		}
		law.setResidueDeadline(resD)
		law.setPLate(late)
		law.tiltedD = ts != nil && ts.N > 0
	}
	law.Messages = s.Msgs / n
	closure := 1 / math.Sqrt(fM)
	watch := m.Watch * float64(cfg.Budget) * (1 - cfg.Loss) / float64(cfg.Nodes-1)
	dev := math.Min(closure+watch+float64(zValue)*seMax+1e-12, 1)
	dm, ds := devMoments(law, cfg, dev)
	law.Accuracy.DevP, law.Accuracy.DevMean, law.Accuracy.DevSD = dev, dm, ds
	law.Accuracy.Note = fmt.Sprintf("large-N law of a budgeted push (the cohorts' counts drawn with the step's exact mean and variance, pulls exactly, in %d runs of a fixed seed, the last %g nodes' escape computed): every P(T_L ≤ t) within %.2g, the mean within %.2g rounds", int(s.N), m.Watch, dev, dm)
	if ts != nil && ts.N > 0 {
		law.Accuracy.Note += fmt.Sprintf("; the deadline's chances of a miss also from %d runs whose first %d rounds were drawn toward slow starts and weighted by their likelihood ratio, where more accurate", int(ts.N), ts.Rounds)
	}
	return law
}

func (l *Law) setResidueDeadline(iv interval) {
	l.ResidueDeadline, l.ResidueDeadlineRelErr = split(iv)
}
func (l *Law) setPLate(iv interval) { l.PLate, l.PLateRelErr = split(iv) }
