package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gossipkit/gossipkit/broadcast/internal/lumped"
)

// The large-N law of a budgeted push (push and push–pull with Budget > 0):
// the model and its runs are package internal/lumped (its doc.go sets
// them out); here, what it covers and the Law with its accuracy.
//
// Where a deadline's chance of a miss (ResidueDeadline, PLate) is carried
// by too few runs (their standard errors above lumpedRunsRelErr of it, or
// less where the closure leaves less of 5 %), the law adds runs, ×4 at a
// time up to lumpedMoreRuns times lumpedRuns and then once as many as
// that takes, up to lumpedMaxRuns times (lumped.Model.nextRuns): deep in
// push–pull's tail the value comes from the runs whose start was slow. The
// deadline's chances also come from the start computed (DeadlineLaw), where
// more accurate.
//
// Accuracy. DevP = 1/√M (the closure; AsymptoticLaw's constant, measured
// at most 0.35, is taken as 1) + e^{w²/8} − 1, w = lumpedWatch·B·(1−ε)/(N−1)
// (the last nodes' pushes at their mean count, lumped.WatchErr) + zValue
// standard errors of the runs' mean, the largest over t. The chances of a
// miss (ResidueDeadline, PLate, and Residue, PMiss where they are more
// accurate than budgetMissLaw's) carry, relative to their size, zValue
// standard errors and e^{w²/8} − 1, times a factor e^{±κ·ln(1/q)/M}
// (closureKappa): a relative error κ/M in the counts that drive the
// exponent ln(1/q) of a node's escape (q the chance that a given node is
// missed, also for the chance that some node is), plus the GW chance of
// an early end divided by the value where the runs saw no early end. With
// pulls the deadline's chances are stratified by the source's stall
// (internal/lumped, stall.go).

// closureKappa is κ in the closure's stated error of a chance of a miss,
// the factor e^{±κ·ln(1/q)/M} (estInterval): a relative error κ/M in the
// exponent ln(1/q) of a node's escape, M live nodes. Measured, not
// derived, against the exact chain without a budget (the law from its
// computed start; every protocol, k 1–3, ε 0 and 0.2, φ 0 and 0.05,
// every deadline whose chance a node is uninformed lies in [10⁻¹⁴,
// 10⁻²] and that the law's runs state within 10 %), as the distance
// |ln(law/exact)| beyond the runs' 3 standard errors times M/ln(1/q). At N
// 10,000, the fewest live nodes the law answers for (TestClosureScanLarge,
// 530 cases), every case is within its runs' 3 standard errors (median
// 0.48 %); the largest distance, 1.24 % at 1.1·10⁻¹⁰, is what κ 5.4 would
// allow. At N 1,000 and 2,500 (TestClosureScan, 1,093 cases) the largest κ
// is 1.1 at N 1,000 (push–pull, k 3, φ 0.05, D 6: 2.6 % high at
// 6.1·10⁻⁹) and 0.24 at N 2,500 (push–pull, k 1, ε 0.2, D 25, at
// 9.9·10⁻¹³): as a constant of 1/M it falls from 1,000 to 2,500 live
// nodes, where a constant of 1/√M, the form stated until December 2026
// (0.25), would grow 1.6 times. Against the Monte Carlo's
// watched runs of a budgeted push at N 2,000 (32 settings) κ is about
// 1.8. The runs of a budgeted push–pull from the source, where the budget
// binds by D, against its watched runs (the source's stall forced,
// stalls.go; k 1–3, ε 0 and 0.2, φ 0 and 0.05, R 2 and 4, N 1,000 and
// 2,500, every deadline whose chance lies in [10⁻¹³, 10⁻²]: 615 cases
// that the runs resolve within 10 %) need none beyond 3 standard errors
// of both (TestClosureScanBudgetPushPull). 7 is stated, more than twice
// what the scans show or can resolve at 10,000: a chance of 10⁻¹² carries
// 1.9 % for the closure there (6.9 % with 0.25/√M).
const closureKappa = 7.0

// closureScale is the closure's error in the exponent ln(1/q) of a chance
// of a miss per unit of it, at M live nodes: closureKappa/M.
func closureScale(M int) float64 { return closureKappa / float64(M) }

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

// newLumped is the large-N law's model of cfg, its runs told the errors
// the answer adds to theirs (lumped.Model.Closure, Extra).
func newLumped(cfg Config) *lumped.Model {
	m := lumped.New(lumped.Params{M: cfg.Live(), N1: cfg.Nodes - 1, K: cfg.Fanout, R: rounds(cfg.Budget, cfg.Fanout),
		Budget: cfg.Budget, Eps: cfg.Loss, Pulls: cfg.Protocol.pulls(), Target: cfg.Target(), D: deadlineRounds(cfg), Z: zValue})
	m.Closure, m.Extra = closureScale(m.M), watchErr(cfg, m, cfg.Budget)
	m.Floor = runsFloor(cfg)
	return m
}

// lumpedModelLaw runs m, cfg's model, and returns its law, the deadline's
// chances that no run saw bounded by an earlier deadline's
// (boundUnseenDeadline).
func lumpedModelLaw(ctx context.Context, cfg Config, m *lumped.Model) (*Law, error) {
	law, err := lumpedRunsLaw(ctx, cfg, m)
	if err != nil {
		return nil, err
	}
	return law, law.boundUnseenDeadline(ctx, cfg)
}

// boundUnseenDeadline bounds the deadline's chances of a miss that the
// runs did not see (NaN: every run had informed every live node before
// D, so each run's value is 0, which states nothing) by the same chances
// at an earlier deadline D′ that the runs did see: a node uninformed at D
// was uninformed at D′, and T_L > D implies T_L > D′, so each chance at D
// is at most the upper end of its interval at D′ (residueDHi, lateHi;
// Answer states "0 (≤ b)"). Before it, a push–pull at N 10⁶, k 3, B 8
// printed residue_deadline and P(T_L > D) at D 11 as exactly 0. It tries
// D − 1, then the rounds after the law's last (no run was later), at most
// three laws in all; a chance none of them sees stays unstated.
func (l *Law) boundUnseenDeadline(ctx context.Context, cfg Config) error {
	D := deadlineRounds(cfg)
	needRes, needLate := math.IsNaN(l.ResidueDeadline), math.IsNaN(l.PLate)
	if D < 2 || !needRes && !needLate {
		return nil
	}
	last := len(l.PMF) - 1
	var tried []int
	var said []string
	for _, d := range []int{D - 1, last + 1, last} {
		if d < 1 || d >= D || slices.Contains(tried, d) || !needRes && !needLate {
			continue
		}
		tried = append(tried, d)
		c := cfg
		c.Deadline = float64(d)
		ld, err := lumpedRunsLaw(ctx, c, newLumped(c))
		if err != nil {
			return err
		}
		// A chance seen at d (positive, with a bounded relative error)
		// bounds the one at D by its interval's upper end.
		seen := func(v, rel float64) bool { return v > 0 && rel < math.Inf(1) }
		if needRes && seen(ld.ResidueDeadline, ld.ResidueDeadlineRelErr) {
			hi := ivOf(ld.ResidueDeadline, ld.ResidueDeadlineRelErr).hi
			tightenHi(&l.residueDHi, hi)
			needRes = false
			said = append(said, fmt.Sprintf("residue_deadline ≤ %.2g (its upper end at deadline %d)", hi, d))
		}
		if needLate && seen(ld.PLate, ld.PLateRelErr) {
			hi := ivOf(ld.PLate, ld.PLateRelErr).hi
			tightenHi(&l.lateHi, hi)
			needLate = false
			said = append(said, fmt.Sprintf("P(T_L > D) ≤ %.2g (its upper end at deadline %d)", hi, d))
		}
	}
	if len(said) > 0 {
		l.Accuracy.Note += "; no run was uninformed at D: " + strings.Join(said, ", ")
	}
	return nil
}

// lumpedRunsLaw runs m, cfg's model, and returns its law as the runs
// state it.
func lumpedRunsLaw(ctx context.Context, cfg Config, m *lumped.Model) (*Law, error) {
	s, ts, err := m.Law(ctx)
	if err != nil {
		return nil, err
	}
	law := sumsLaw(cfg, m, s, ts)
	// The deadline's chances also come from the start computed
	// (DeadlineLaw; where the budget binds by D, R < D + 1, from the
	// cohorts drawn backward), where more accurate.
	if m.D >= 1 && m.R >= 2 && m.EntryCount() >= 2 {
		sl, sr, runs, err := m.DeadlineLaw(ctx)
		if err != nil {
			return nil, err
		}
		resD, late := entryIntervals(m, sl, sr, watchErr(cfg, m, cfg.Budget))
		br := better(ivOf(law.ResidueDeadline, law.ResidueDeadlineRelErr), resD)
		bl := better(ivOf(law.PLate, law.PLateRelErr), late)
		law.setResidueDeadline(br)
		law.setPLate(bl)
		if br == resD || bl == late {
			law.tiltedD = law.tiltedD || br == resD
			law.Accuracy.Note += fmt.Sprintf("; the deadline's chances of a miss where more accurate from its start computed to %d informed (or to round %d) and %d runs by the round it was reached", m.EntryCount(), min(m.D, m.R-1), runs)
		}
	}
	return law, nil
}

// sumsLaw turns the sums of cfg's model m into the Law with its stated
// accuracy.
func sumsLaw(cfg Config, m *lumped.Model, s *lumped.Sums, ts *lumped.TiltSums) *Law {
	n := s.N
	pmf, fEnd, seMax := s.PMF()
	fM := float64(m.M)
	law := &Law{PMF: pmf, Never: math.Max(1-fEnd, 0), Accuracy: NoAccuracy()}
	law.noDeadline()
	// The chances of a miss: estInterval's, with the early ends the runs
	// did not see. (Push–pull has no early end: the pulls go on, and the
	// runs whose pushes died at the start are drawn as often as they
	// happen.)
	xEarly := earlyUnseen(cfg, s, cfg.Budget)
	watch := watchErr(cfg, m, cfg.Budget)
	// A chance that some node is missed takes the closure's error of the
	// chance that a given node is (node): its exponent is the larger.
	cs := closureScale(m.M)
	ivOfRuns := func(sum [2]float64, node float64) interval { return runsInterval(sum, n, cs, xEarly, watch, node) }
	ivOfEst := func(e lumped.Est, node float64) interval { return estInterval(e, cs, xEarly, watch, node) }
	if cfg.Protocol.pulls() {
		// The pulls go on until every live node is informed.
		law.Residue, law.PMiss, law.ResidueRelErr, law.PMissRelErr = 0, 0, 0, 0
	} else {
		res := ivOfRuns(s.Res, 0)
		law.setResidue(res)
		law.setPMiss(ivOfRuns(s.Miss, res.v))
		if res, pm, ok := budgetMissLaw(cfg); ok {
			law.setResidue(better(ivOf(law.Residue, law.ResidueRelErr), res))
			law.setPMiss(better(ivOf(law.PMiss, law.PMissRelErr), pm))
		}
	}
	if m.D >= 1 {
		l, r := s.Deadline()
		resD := ivOfEst(r, 0)
		late := ivOfEst(l, resD.v)
		if ts != nil && ts.N > 0 {
			tl, tr := ts.Deadline()
			trIv := ivOfEst(tr, 0)
			resD, late = better(resD, trIv), better(late, ivOfEst(tl, trIv.v))
		}
		law.setResidueDeadline(resD)
		law.setPLate(late)
		law.tiltedD = ts != nil && ts.N > 0
	}
	law.Messages = s.Msgs / n
	closure := 1 / math.Sqrt(fM)
	dev := math.Min(closure+watch+float64(zValue)*seMax+1e-12, 1)
	dm, ds := devMoments(law, cfg, dev)
	law.Accuracy.DevP, law.Accuracy.DevMean, law.Accuracy.DevSD = dev, dm, ds
	law.Accuracy.Note = fmt.Sprintf("large-N law of a budgeted push (the cohorts' counts drawn with the step's exact mean and variance, pulls exactly, in %d runs of a fixed seed, the last %g nodes' escape computed): every P(T_L ≤ t) within %.2g, the mean within %.2g rounds", int(s.Runs), m.Watch, dev, dm)
	if ts != nil && ts.N > 0 {
		law.Accuracy.Note += fmt.Sprintf("; the deadline's chances of a miss also from %d runs whose first %d rounds were drawn toward slow starts and weighted by their likelihood ratio, where more accurate", int(ts.N), ts.Rounds)
	}
	return law
}

// earlyUnseen is the chance of the early ends (the pushes died out at the
// start) that the runs s did not see, for a budget B: 0 where they saw
// one, or for push–pull (its pulls go on, and the runs whose pushes died
// at the start are drawn as often as they happen).
func earlyUnseen(cfg Config, s *lumped.Sums, B int) float64 {
	if s.Early > 0 || cfg.Protocol.pulls() {
		return 0
	}
	return extinction((1-cfg.Loss)*float64(cfg.Live()-1)/float64(cfg.Nodes-1), float64(B))
}

// watchErr is lumped.WatchErr for the model m of cfg whose nodes push B
// each: w = Watch·B·(1−ε)/(N−1).
func watchErr(cfg Config, m *lumped.Model, B int) float64 {
	return lumped.WatchErr(m.Watch * float64(B) * (1 - cfg.Loss) / float64(cfg.Nodes-1))
}

// entryIntervals are the intervals of DeadlineLaw's chances, the chance
// a node is uninformed at D (resD, from sr) and P(T_L > D) (late, from
// sl), of the model m: estInterval's with the measured closure constant
// and the watch's error watch; no early end is unseen (the start is
// computed).
func entryIntervals(m *lumped.Model, sl, sr lumped.Est, watch float64) (resD, late interval) {
	cs := closureScale(m.M)
	resD = estInterval(sr, cs, 0, watch, 0)
	return resD, estInterval(sl, cs, 0, watch, resD.v)
}

// runsInterval is the interval of a chance of a miss from the runs' sum
// of values and of squares over n runs of M live nodes: estInterval's.
func runsInterval(sum [2]float64, n, cs, xEarly, extra, node float64) interval {
	v, se := lumped.MeanSE(sum, n)
	return estInterval(lumped.Est{V: v, SE: se}, cs, xEarly, extra, node)
}

// estInterval is the interval of a chance of a miss from the runs'
// estimate e: zValue standard errors plus extra relative, times the
// closure's factor e^{±cs·ln(1/q)} (cs = κ/M, M live nodes: closureScale), plus xEarly
// and the strata the runs left out (e.Hole) above. q is the chance
// itself, or node where that is smaller and positive: the chance that a
// given node is missed, for a chance that some node is (about M times it
// deep in the tail, so the same exponent's error).
func estInterval(e lumped.Est, cs, xEarly, extra, node float64) interval {
	// Weighted runs (the tilted start's, a forced stall's weight among
	// them) can put a mean above 1, which no chance is.
	v, se := math.Min(e.V, 1), e.SE
	if !(v > 0) {
		hi := math.Min(xEarly+e.Hole+float64(zValue)*se, 1)
		if !(hi > 0) {
			// No run saw a miss and nothing bounds one: the runs state
			// nothing (no chance of a miss the runs estimate is 0).
			return interval{math.NaN(), math.NaN(), math.NaN()}
		}
		return interval{v, 0, hi}
	}
	q := v
	if node > 0 && node < q {
		q = node
	}
	// The closure's error is in the exponent: q^{1±κ/M} is q times
	// e^{∓c}, c = κ·ln(1/q)/M — a factor, not a share.
	c := cs * math.Log(1/math.Min(q, 1-1e-16))
	rel := float64(zValue)*se/v + extra
	lo := v * math.Max(1-rel, 0) * math.Exp(-c)
	hi := math.Min(v*(1+rel)*math.Exp(c)+xEarly+e.Hole, 1)
	return interval{v, lo, hi}
}

// setLumpedDeadline answers a deadline of a broadcast without a budget
// from the large-N law of a budgeted push: up to round D such a broadcast
// is, draw for draw, the one whose nodes push through R = D + 1 rounds
// (none has spent its budget by then; a pull alone pushes nothing), so
// that model's runs give ResidueDeadline, and PLate, where more accurate
// than the law's own, with sumsLaw's stated accuracy (TestLumpedUnlimited
// checks both against the exact chain). Its start is computed
// (lumped.Model.DeadlineLaw, entry.go), so a deep deadline's chance
// carried by the runs whose source stalls (no push of it gets through and
// no node pulls it) is held exactly; when runs from the source drew them,
// pull at N 3000, k 3, φ 0.02, D 12 said 1.6e-14 within 268 % against the
// exact chain's 2.27e-8. It does nothing where that law does not reach (fewer than
// LumpedMinLive live nodes, or D + 1 > lumped.MaxRounds).
func (l *Law) setLumpedDeadline(ctx context.Context, cfg Config) error {
	D := deadlineRounds(cfg)
	if D < 1 || cfg.Budget > 0 || cfg.Live() < LumpedMinLive || D+1 > lumped.MaxRounds {
		return nil
	}
	return l.lumpedDeadline(ctx, cfg, D)
}

// lumpedDeadline is setLumpedDeadline's work, at any live count (tests);
// it keeps the law's own answers where they are more accurate (the exact
// chain's, Solve), and says so in the note only where it replaced one.
func (l *Law) lumpedDeadline(ctx context.Context, cfg Config, D int) error {
	B := 0
	if cfg.Protocol.pushes() {
		B = cfg.Fanout * (D + 1)
	}
	m := lumped.New(lumped.Params{M: cfg.Live(), N1: cfg.Nodes - 1, K: cfg.Fanout, R: D + 1, Budget: B,
		Eps: cfg.Loss, Pulls: cfg.Protocol.pulls(), NoPushes: !cfg.Protocol.pushes(), Target: cfg.Target(), D: D, Z: zValue})
	// The nodes a run leaves to the computed escape (at most Watch) push
	// once informed at their mean count, which moves a node's chance of
	// escaping by a factor within e^{w²/8} of 1, w = Watch·B·(1 − ε)/(N −
	// 1) (Jensen and Hoeffding's lemma; lumped.WatchErr). Without a budget
	// B is k(D + 1), large at small N (w 1.5 at N 1000, k 2, D 14, with
	// lumped's Watch of 64), so Watch is cut until w ≤ 0.2 (the factor at
	// most 0.5 %), down to 1 node, and the factor is stated.
	perNode := float64(B) * (1 - cfg.Loss) / float64(cfg.Nodes-1)
	m.Watch = max(1, min(m.Watch, math.Floor(0.2/perNode)))
	m.Closure, m.Extra = closureScale(m.M), watchErr(cfg, m, B)
	m.Floor = runsFloor(cfg)
	sl, sr, runs, err := m.DeadlineLaw(ctx)
	if err != nil {
		return err
	}
	resD, late := entryIntervals(m, sl, sr, m.Extra)
	// A chance no run saw (0) is not stated from them: its upper end would
	// hold only the early ends, not the slow starts the runs missed (at N
	// 10⁶, k 3, ε 0.2, L 0.99, D 18, every run's P(T_L > D) was 0 where
	// the law's start puts 5.5e-10).
	if !(resD.v > 0) && !(late.v > 0) {
		return nil
	}
	used, usedResD := false, false
	if resD.v > 0 {
		b := better(ivOf(l.ResidueDeadline, l.ResidueDeadlineRelErr), resD)
		l.setResidueDeadline(b)
		used, usedResD = b == resD, b == resD
	}
	if late.v > 0 {
		pl := ivOf(l.PLate, l.PLateRelErr)
		if math.IsNaN(l.PLate) {
			pl = ivOf(l.late(cfg.Deadline))
		}
		b := better(pl, late)
		l.setPLate(b)
		used = used || b == late
	}
	if !used {
		return nil
	}
	l.tiltedD = usedResD
	what := "the same broadcast with a budget that does not bind by D"
	if !cfg.Protocol.pushes() {
		what = "the same pull, round by round"
	}
	l.Accuracy.Note += fmt.Sprintf("; the deadline's chances of a miss where more accurate from the large-N law of %s (its start computed to %d informed, the rest from %d runs of a fixed seed by the round it was reached)", what, m.EntryCount(), runs)
	return nil
}

// guardStalls widens P(T_L > D) below the level 1 that a Monte Carlo of a
// budgeted push–pull states from its plain runs by the chance of the
// source's stalls those runs are not expected to have drawn
// (lumped.Model.UnseenStall): after its budget the source is found only
// by pulls, so a stall can last many rounds, and a run that draws one is
// late by as many (stalls.go: at N 2,000, k 2, ε 0.3, φ 0.1, B 8 a stall
// of four rounds or more has the chance 1.05e-5). That chance is at most
// 1, so its upper end grows by the stall chance. The chances of the
// watched runs (residue_deadline, and P(T_L > D) at the level 1) need no
// such guard: they force the stall. With withLaw (Auto) the large-N law
// of a budgeted push, whose strata hold the stalls, answers the chance a
// node is uninformed at D instead where more accurate.
func (l *Law) guardStalls(ctx context.Context, cfg Config, withLaw bool) error {
	if cfg.Protocol != PushPull || cfg.Budget <= 0 || deadlineRounds(cfg) < 1 || rounds(cfg.Budget, cfg.Fanout) > lumped.MaxRounds || cfg.Live() < 2 {
		return nil
	}
	m := newLumped(cfg)
	// A Markov floor (lateMarkov) is the watched runs': it holds the stalls.
	if u := m.UnseenStall(l.Reps); u > 0 && cfg.Target() < cfg.Live() && !math.IsNaN(l.PLate) && !l.lateMarkov {
		if l.PLate == 0 && math.IsInf(l.PLateRelErr, 1) {
			// No late run: the floor is the interval's upper end.
			l.PLateFloor = math.Min(l.PLateFloor+u, 1)
		} else {
			iv := ivOf(l.PLate, l.PLateRelErr)
			iv.hi = math.Min(iv.hi+u, 1)
			l.setPLate(iv)
		}
		l.Accuracy.Note += fmt.Sprintf("; p_late's upper end holds %.2g more: the source's long stalls (after its budget only pulls find it), which %d runs are not expected to draw", u, l.Reps)
	}
	if !withLaw || math.IsNaN(l.ResidueDeadline) {
		return nil
	}
	// Only the runs' value is read (not boundUnseenDeadline's bounds, which
	// would run up to three more laws).
	ll, err := lumpedRunsLaw(ctx, cfg, m)
	if err != nil {
		return err
	}
	cur := ivOf(l.ResidueDeadline, l.ResidueDeadlineRelErr)
	if b := better(cur, ivOf(ll.ResidueDeadline, ll.ResidueDeadlineRelErr)); b != cur {
		l.setResidueDeadline(b)
		l.Accuracy.Note += "; residue_deadline from the large-N law of a budgeted push, whose runs hold the source's stalls, where more accurate (its stated bound)"
	}
	return nil
}

func (l *Law) setResidueDeadline(iv interval) {
	l.ResidueDeadline, l.ResidueDeadlineRelErr = split(iv)
}
func (l *Law) setPLate(iv interval) { l.PLate, l.PLateRelErr = split(iv) }
