package broadcast

import (
	"math"
)

// Law is the law of T_L in whole rounds, with the protocol's cost, as a
// method computes it. It is the one form every method returns, and Answer
// reads every query off it by one rule (Law.Answer).
type Law struct {
	// PMF[r] is P(T_L = r) for r = 0, 1, …, len(PMF)−1; the mass beyond
	// the last entry is Never (T_L = ∞) or, for a computed law, part of
	// Accuracy.Bound.
	PMF []float64
	// Never is P(T_L = ∞): no node can act before the level is reached.
	Never float64
	// Residue is the expected share of live nodes never informed, once no
	// node can act (the chance that a given live node is never
	// informed); PMiss the probability that at least one is.
	// ResidueRelErr and PMissRelErr are the relative errors they are
	// claimed to be within (a bound for a computed law, zValue standard
	// errors for a Monte Carlo; 0 where the value is exact, NaN where no
	// accuracy is stated).
	Residue, PMiss             float64
	ResidueRelErr, PMissRelErr float64
	// ResidueDeadline is the chance that a given live node is not informed
	// by the end of round ⌊D⌋ (D = Config.Deadline), and PLate = P(T_L >
	// D), counting T_L = ∞, each with its relative error; NaN where the
	// method does not give them (Answer then derives PLate from the
	// law's CDF and its absolute accuracy).
	ResidueDeadline, ResidueDeadlineRelErr float64
	PLate, PLateRelErr                     float64
	// PLateFloor is the smallest P(T_L > D) the method resolves, the
	// upper end of its interval were its estimate 0: z²/(R + z²) for a
	// count of R replications (Wilson's interval at no late one), 0 where
	// the watched runs state it with a relative error (L = 1), and, for a
	// computed law, its absolute accuracy (set by Answer).
	PLateFloor float64
	// Messages is the expected number of one-way messages per live node
	// (package doc).
	Messages float64
	// Reps > 0 marks a Monte Carlo law: PMF, Never, Residue, PMiss and
	// Messages are sample means over Reps replications, and Answer adds
	// their standard errors. MessagesSD is then the sample sd of the
	// messages per live node.
	Reps       int
	MessagesSD float64
	// Accuracy is what the method states; Answer completes it.
	Accuracy Accuracy
	// underflowD: every watched run's weight by the deadline was 0 (below
	// the smallest float64); more runs cannot state those chances better.
	underflowD bool
	// tiltedD: the deadline's chances of a miss come from runs with a
	// tilted start (internal/lumped, is.go), whose weights are
	// light-tailed, or from runs by the round their start was reached
	// (entry.go there), which carry no weights. With pulls the
	// watched runs do not replace them (deadlineKept): deep in
	// push–pull's tail their weights are heavy-tailed (Hill's index 2–2.6 at N 10⁴, D 12), their
	// sample mean is typically low and its standard error too small (at
	// N 10⁴, k 1, B 15, D 12, 2.049e-6 stated within 8.4 % against the
	// exact chain's 2.258e-6).
	tiltedD bool
	// lateMarkov: PLateFloor is markovLate's bound from the watched runs
	// (which force the source's stall), not Wilson's from the plain runs.
	lateMarkov bool
	// curveLate[t] is P(T_L > t) at every round t of the PMF, from the
	// watched runs' curves and the count (curveLateFrom; nil without the
	// curves): Answer's CDF and its PLate at a deadline among these
	// rounds are read off it, so that they agree.
	curveLate []interval
	curves    Curves // the sums curveLate was read from (a value: %#v compares laws)
	// curveCount, curveNever and curveR: the count curveLate was read
	// against (the T_L histogram of curveR plain runs, curveNever of them
	// ∞), kept so that more curves (refineCurves) can be read against it.
	curveCount         []int
	curveNever, curveR int
	// curveExact: curveLate is the exact chain's P(T_L > t), each within
	// its relative rounding and the mass dropped by t (setExact); past its
	// last round it says nothing, and no run refines it.
	curveExact bool
	// residueDHi and lateHi are proved upper ends of the chance that a
	// given live node is uninformed at the deadline and of P(T_L > D):
	// the mass the exact chain dropped by D where its ResidueDeadline is
	// 0 (setExact), pullTailBound's below 10⁻¹² (boundTail), or the upper
	// ends the large-N law states at an earlier deadline where its runs
	// saw no miss at D (boundUnseenDeadline); 0 where there is none.
	// Answer states a chance as "0 (≤ hi)" where hi is below what it would
	// state otherwise.
	residueDHi, lateHi float64
	tailBounded        bool // boundTail ran
}

// Accuracy states how far an answer may be from the model's exact law.
// Fields that do not apply to the method are NaN.
type Accuracy struct {
	// Bound (exact): every probability of the law is within Bound of the
	// exact one (truncation and rounding, in total variation).
	Bound float64
	// SEMean, SESD, SEPDeadline, SEPReach, SEMessages (mc): standard errors
	// of the Monte Carlo estimates. A share of runs that is 0 or 1 has no
	// spread in the sample but is not exact: SEPDeadline and SEPReach are
	// then the distance to the far end of Wilson's interval over zValue
	// (seShare), so that 3 of them reach where the truth may be.
	SEMean, SESD, SEPDeadline, SEPReach, SEMessages float64
	// DevMean, DevSD, DevP (asymptotic): the stated bounds on the error of
	// the mean, of the sd (rounds) and of every probability P(T_L ≤ t).
	DevMean, DevSD, DevP float64
	// Note says the same in words.
	Note string
}

// noDeadline marks the deadline answers as not given by the method
// (Answer derives PLate from the CDF).
func (l *Law) noDeadline() *Law {
	n := math.NaN()
	l.ResidueDeadline, l.ResidueDeadlineRelErr, l.PLate, l.PLateRelErr = n, n, n, n
	return l
}

// NoAccuracy is an Accuracy with every field NaN.
func NoAccuracy() Accuracy {
	n := math.NaN()
	return Accuracy{Bound: n, SEMean: n, SESD: n, SEPDeadline: n, SEPReach: n, SEMessages: n, DevMean: n, DevSD: n, DevP: n}
}

// Answer is the law of T_L for one setting and the answers to the
// queries; times in rounds.
type Answer struct {
	// Fanout and Budget are the setting (Budget 0: no limit).
	Fanout, Budget int
	// Method is the method used (never Auto).
	Method Method
	// PReach is P(T_L < ∞).
	PReach float64
	// Mean, SD and the 5, 25, 50, 75 and 95 % quantiles of T_L given
	// T_L < ∞ (NaN when PReach = 0).
	Mean, SD                float64
	Q05, Q25, Q50, Q75, Q95 float64
	// TConfidence is the smallest r with P(T_L ≤ r) ≥ Confidence (NaN
	// when PReach < Confidence, and when 1 − Confidence is below
	// TConfidenceFloor: a method does not resolve it).
	TConfidence float64
	// TConfidenceFloor is the smallest 1 − Confidence the method
	// resolves: z²/(R + z²) for a Monte Carlo of R replications (at a
	// smaller one a sample quantile is its largest values' noise), the
	// stated absolute accuracy of every P(T_L ≤ t) for a computed law.
	// PLateFloor is the same for P(T_L > D) (Law.PLateFloor).
	TConfidenceFloor, PLateFloor float64
	// PDeadline is P(T_L ≤ Deadline) (NaN without a deadline) and PLate =
	// 1 − PDeadline = P(T_L > Deadline), computed directly so that a
	// chance near 0 keeps its digits, with PLateRelErr its relative error.
	PDeadline, PLate, PLateRelErr float64
	// Feasible: the setting meets every target asked, each judged on the
	// end of its interval that is least favourable: with a deadline, the
	// lower end of P(T_L ≤ D), 1 − PLate·(1 + PLateRelErr), is at least
	// Confidence; with MaxMiss, the upper end of PMiss, PMiss·(1 +
	// PMissRelErr), is at most MaxMiss. False where no target is asked.
	Feasible bool
	// Residue, PMiss and Messages as in Law, with the relative errors
	// Residue and PMiss are claimed to be within; ResidueDeadline the
	// chance that a given live node is not informed by the deadline (NaN
	// without one).
	Residue, PMiss, Messages               float64
	ResidueRelErr, PMissRelErr             float64
	ResidueDeadline, ResidueDeadlineRelErr float64
	residueDHi                             float64 // Law.residueDHi
	// Seconds is Mean·Interval and TConfidenceSeconds TConfidence·Interval
	// (NaN without an interval).
	Seconds, TConfidenceSeconds float64
	// BytesPerNode is Messages·MessageBytes (NaN without a size);
	// BytesPerNodePerSecond divides it by Seconds (NaN without both, or
	// when Seconds is 0).
	BytesPerNode, BytesPerNodePerSecond float64
	Accuracy                            Accuracy
	// Async holds the mean times to AsyncLevels for Config.Time = Async
	// (nil for the rounds).
	Async *AsyncTimes
	// Repair is the anti-entropy repair of the misses where
	// Config.SyncInterval > 0 (nil otherwise).
	Repair *Repair
	// CDF lists [t, P(T_L ≤ t)] for every round t from the first whose
	// P(T_L ≤ t) exceeds 0.001 to the first whose exceeds 0.999, or the
	// last round the law reaches, each the PDeadline the law alone gives
	// at Deadline t (Law.Distribution; the watched runs, which answer one
	// deadline, may state a given deadline's more accurately).
	CDF [][2]float64
	// Spread holds, for Q05, Q25, Q50, Q75, Q95 and TConfidence in that
	// order, the first and last round the value may be within the law's
	// accuracy ({v, v} where it is determined; NaN where the value is):
	// the quantile of the upper and of the lower end of P(T_L ≤ t)'s
	// interval (a Monte Carlo: Wilson's, z = 3, at each t; a computed
	// law: ± its Bound or DevP). Reps is the Monte Carlo's replications
	// (0 for a computed law).
	Spread [6][2]float64
	Reps   int
	// MomentErr is the accuracy of Mean and SD: their standard errors (a
	// Monte Carlo), DevMean and DevSD (the asymptotic law), or for the
	// exact chain the bounds its Bound implies by the asymptotic law's
	// rule (devMoments); NaN where none is stated.
	MomentErr [2]float64
}

// Answer reads the queries of cfg off the law: the moments and quantiles
// given T_L < ∞, P(T_L ≤ D) counting T_L = ∞ as late, the smallest
// deadline met with probability Confidence, and, for a Monte Carlo law,
// the standard errors: sd/√R' for the mean over the R' replications that
// reached the level, √(μ₄ − σ⁴)/(2σ√R') for the sd, √(p(1−p)/R) for a
// probability and sd/√R for the messages. A nil law is the law of no
// sample: every answer NaN.
func (l *Law) Answer(cfg Config) Answer {
	nan := math.NaN()
	if l == nil {
		l = (&Law{Residue: nan, PMiss: nan, ResidueRelErr: nan, PMissRelErr: nan, Messages: nan, Accuracy: NoAccuracy()}).noDeadline()
	}
	a := Answer{Fanout: cfg.Fanout, Budget: cfg.Budget, Residue: l.Residue, PMiss: l.PMiss, Messages: l.Messages,
		ResidueRelErr: l.ResidueRelErr, PMissRelErr: l.PMissRelErr, ResidueDeadline: nan, ResidueDeadlineRelErr: nan,
		PLate: nan, PLateRelErr: nan,
		Mean: nan, SD: nan, Q05: nan, Q25: nan, Q50: nan, Q75: nan, Q95: nan, TConfidence: nan, PDeadline: nan,
		Seconds: nan, TConfidenceSeconds: nan, BytesPerNode: nan, BytesPerNodePerSecond: nan, Accuracy: l.Accuracy}
	reach := 0.0
	for _, p := range l.PMF {
		reach += p
	}
	// A sum of rounded terms can pass 1 by an ulp or two; a probability
	// cannot.
	reach = min(reach, 1)
	if l.Reps > 0 {
		// A share of counts, not a sum of shares: 1000 of 1000 runs is
		// 1, not 1 − 1.1e-16 (whose standard error, 3.3e-10 at R = 1000,
		// would be the rounding's noise).
		R := float64(l.Reps)
		reach = (R - math.Round(l.Never*R)) / R
	}
	a.PReach = reach
	if reach > 0 {
		var m1, m2 float64
		for r, p := range l.PMF {
			m1 += float64(r) * p
		}
		m1 /= reach
		for r, p := range l.PMF {
			d := float64(r) - m1
			m2 += d * d * p
		}
		a.Mean, a.SD = m1, math.Sqrt(m2/reach)
		q := func(p float64) float64 { return l.quantile(p * reach) }
		a.Q05, a.Q25, a.Q50, a.Q75, a.Q95 = q(0.05), q(0.25), q(0.5), q(0.75), q(0.95)
	}
	conf := cfg.ConfidenceOrDefault()
	a.TConfidenceFloor = l.floor()
	if a.TConfidence = l.quantile(conf); !(1-conf >= a.TConfidenceFloor) {
		a.TConfidence = nan // not resolved: a quantile of noise
	}
	if l.curveLate != nil {
		// The first round the curves' P(T_L ≤ t) (the CDF's) reaches the
		// confidence; they resolve chances below the count's floor, and
		// past the law's last round they say nothing.
		a.TConfidence, a.TConfidenceFloor = nan, 0
		if l.curveExact {
			// Past the chain's last round nothing is known.
			a.TConfidenceFloor = l.curveLate[len(l.curveLate)-1].hi
		}
		for t, iv := range l.curveLate {
			if reaches(1-iv.v, iv.v, conf) {
				a.TConfidence, a.TConfidenceFloor = float64(t), 0
				break
			}
		}
	}
	a.Reps = l.Reps // residueDUpper reads it
	if cfg.Deadline > 0 {
		a.PDeadline = l.CDF(cfg.Deadline)
		a.PLate, a.PLateRelErr, a.PLateFloor = l.PLate, l.PLateRelErr, l.PLateFloor
		if math.IsNaN(a.PLate) {
			a.PLate, a.PLateRelErr = l.late(cfg.Deadline)
			a.PLateFloor = a.TConfidenceFloor
		}
		if iv, ok := l.curveAt(cfg.Deadline); ok {
			// The curves' value, which the CDF lists: one computation for
			// the list and for a deadline among its rounds.
			a.PLate, a.PLateRelErr = split(iv)
			a.PLateFloor = 0
			if a.PLate == 0 && a.PLateRelErr != 0 {
				a.PLateFloor = iv.hi
			}
		}
		if !math.IsNaN(a.PLate) {
			a.PDeadline = 1 - a.PLate
		}
		a.ResidueDeadline, a.ResidueDeadlineRelErr = l.ResidueDeadline, l.ResidueDeadlineRelErr
		if hi := l.residueDHi; hi > 0 && a.ResidueDeadlineRelErr != 0 &&
			(a.ResidueDeadline == 0 || hi < curveFloorAsked && !(a.ResidueDeadline*(1+a.ResidueDeadlineRelErr) <= hi)) {
			a.ResidueDeadline, a.ResidueDeadlineRelErr, a.residueDHi = 0, math.Inf(1), hi
		}
		// P(T_L > D) as "0 (≤ b)" where a bound b is below the upper end
		// the method states: the proved one (lateHi), or Markov's on the
		// uninformed count. T_L > D means more than A = M − ⌈LM⌉ live
		// nodes uninformed at D, so P(T_L > D) ≤ E[U_D]/(A + 1) =
		// M·residue_deadline/(A + 1), at residue_deadline's upper end.
		// Below the level 1 no run states P(T_L > D) relatively, and a
		// count that saw no late run, or the asymptotic law's absolute
		// accuracy, can be far wider: push at N 10⁵, k 3, L 0.99, D 40
		// said 1.1e-15 within a relative 3.2e12 (1 − ΣPMF's rounding),
		// where residue_deadline 9.0e-42 ± 8.5 % bounds it by 9.7e-40.
		b := math.Inf(1)
		if l.lateHi > 0 {
			b = l.lateHi
		}
		if A := cfg.Live() - cfg.Target(); A > 0 {
			if m := residueDUpper(a) * float64(cfg.Live()) / float64(A+1); m < b { // false for NaN
				b = m
			}
		}
		if b < 1 && !(a.PLate == 0 && a.PLateRelErr == 0) && !(lateUpper(a) <= b) {
			a.PLate, a.PLateRelErr, a.PLateFloor, a.PDeadline = 0, math.Inf(1), b, 1
		}
	}
	a.Feasible = feasible(cfg, a)
	a.CDF, a.Spread = l.Distribution(), l.spread(a, conf)
	if cfg.Interval > 0 {
		a.Seconds, a.TConfidenceSeconds = a.Mean*cfg.Interval, a.TConfidence*cfg.Interval
	}
	if cfg.MessageBytes > 0 {
		a.BytesPerNode = a.Messages * float64(cfg.MessageBytes)
		if a.Seconds > 0 {
			a.BytesPerNodePerSecond = a.BytesPerNode / a.Seconds
		}
	}
	if l.Reps > 0 {
		l.sampleErrors(&a, cfg)
	}
	// With a budget on push alone every informed live node sends all B:
	// the messages per live node are B·(1 − residue) in every run, so
	// their mean and its error follow from the residue, which the watched
	// runs state where no plain run missed a node (the sample's spread is
	// then 0, not the error).
	if l.Reps > 0 && cfg.Protocol == Push && cfg.Budget > 0 && l.Residue > 0 && l.ResidueRelErr < math.Inf(1) {
		B := float64(cfg.Budget)
		a.Messages = B * (1 - l.Residue)
		a.Accuracy.SEMessages = B * l.Residue * l.ResidueRelErr / zValue
	}
	a.MomentErr = [2]float64{a.Accuracy.SEMean, a.Accuracy.SESD}
	if l.Reps == 0 {
		a.MomentErr = [2]float64{a.Accuracy.DevMean, a.Accuracy.DevSD}
		if b := a.Accuracy.Bound; math.IsNaN(a.Accuracy.DevMean) && b >= 0 && !math.IsNaN(a.Mean) {
			a.MomentErr[0], a.MomentErr[1] = momentDevs(l.PMF, a.Mean, a.SD, b)
		}
	}
	// At level 1, T_L = ∞ exactly when some live node is missed: P(reach)
	// is 1 − P(miss), which the watched runs or a law may state more
	// accurately than the share of runs that reached (a sample that saw
	// no miss), and no round is reached with a chance above it.
	if missReach(cfg, l) {
		a.PReach = 1 - l.PMiss
		if conf > a.PReach {
			a.TConfidence, a.TConfidenceSeconds = nan, nan
		}
		if l.Reps > 0 {
			a.Accuracy.SEPReach = l.PMiss * l.PMissRelErr / zValue
		}
	}
	return a
}

// lateUpper is the upper end of the interval an Answer states for
// P(T_L > D): PLateFloor for a 0 with an unbounded relative error (no
// late run seen, or a proved bound), else PLate·(1 + PLateRelErr), at most
// 1 (NaN where not stated).
func lateUpper(a Answer) float64 {
	if a.PLate == 0 && math.IsInf(a.PLateRelErr, 1) {
		if a.PLateFloor > 0 {
			return a.PLateFloor
		}
		return math.NaN()
	}
	return math.Min(a.PLate*(1+a.PLateRelErr), 1)
}

// residueDUpper is the same for ResidueDeadline: its proved upper end
// (residueDHi) or, for a computed law, its Bound, where it is a 0 with an
// unbounded relative error (residueDeadlineCell's "0 (≤ b)"; NaN where
// there is none).
func residueDUpper(a Answer) float64 {
	if a.ResidueDeadline == 0 && math.IsInf(a.ResidueDeadlineRelErr, 1) {
		switch {
		case a.residueDHi > 0:
			return a.residueDHi
		case a.Reps == 0 && a.Accuracy.Bound > 0:
			return a.Accuracy.Bound
		}
		return math.NaN()
	}
	return math.Min(a.ResidueDeadline*(1+a.ResidueDeadlineRelErr), 1)
}

// feasible is Answer.Feasible's rule.
func feasible(cfg Config, a Answer) bool {
	if cfg.Deadline <= 0 && cfg.MaxMiss <= 0 {
		return false
	}
	if cfg.Deadline > 0 {
		lo := 1 - a.PLate*(1+a.PLateRelErr)
		switch {
		case a.PLate == 0 && a.PLateRelErr == 0:
			lo = 1 // exactly never late
		case a.PLate == 0 && math.IsInf(a.PLateRelErr, 1) && a.PLateFloor > 0:
			// No late run seen: the interval's upper end is the floor
			// (Wilson's z²/(R + z²), a law's accuracy).
			lo = 1 - a.PLateFloor
		}
		if !(lo >= cfg.ConfidenceOrDefault()) {
			return false
		}
	}
	if cfg.MaxMiss > 0 {
		hi := a.PMiss * (1 + a.PMissRelErr)
		if a.PMiss == 0 && a.PMissRelErr == 0 {
			hi = 0
		}
		if !(hi <= cfg.MaxMiss) {
			return false
		}
	}
	return true
}

// floor is Answer.TConfidenceFloor: z²/(R + z²) for a Monte Carlo law,
// else the law's absolute accuracy (Bound or DevP; 0 where it states
// none).
func (l *Law) floor() float64 {
	if l.Reps > 0 {
		z2 := float64(zValue * zValue)
		return z2 / (float64(l.Reps) + z2)
	}
	abs := l.Accuracy.Bound
	if math.IsNaN(abs) {
		abs = l.Accuracy.DevP
	}
	if !(abs > 0) {
		return 0
	}
	return abs
}

// late is P(T_L > t) summed from the tail (Never and the PMF past t), and
// its relative error from the law's absolute accuracy (Bound or DevP);
// NaN for a law without one (a Monte Carlo law states its own).
func (l *Law) late(t float64) (p, rel float64) {
	abs := l.Accuracy.Bound
	if math.IsNaN(abs) {
		abs = l.Accuracy.DevP
	}
	if l.Reps > 0 || math.IsNaN(abs) {
		return math.NaN(), math.NaN()
	}
	p = l.Never
	for r := len(l.PMF) - 1; r >= 0 && float64(r) > t; r-- {
		p += l.PMF[r]
	}
	// The mass the law does not hold (past its last round) is late too;
	// it is within the bound.
	tot := l.Never
	for _, q := range l.PMF {
		tot += q
	}
	if tot < 1 {
		p += 1 - tot
	}
	p = min(p, 1)
	if p == 0 {
		return 0, math.Inf(1)
	}
	return p, abs / p
}

// CDF is P(T_L ≤ t), T_L = ∞ counted as larger than every t; NaN for a
// nil law or a NaN t.
func (l *Law) CDF(t float64) float64 {
	if l == nil || t != t {
		return math.NaN()
	}
	s := 0.0
	for r, p := range l.PMF {
		if float64(r) > t {
			break
		}
		s += p
	}
	return min(s, 1)
}

// missReach reports whether P(reach) is read off P(miss): at level 1 of a
// push with a budget, where P(miss) is stated (the other protocols inform
// every live node eventually).
func missReach(cfg Config, l *Law) bool {
	return cfg.Protocol == Push && cfg.Budget > 0 && cfg.Target() == cfg.Live() && !math.IsNaN(l.PMiss) && !math.IsNaN(l.PMissRelErr)
}

// reaches reports whether a probability c = P(T_L ≤ t), with its
// complement late = P(T_L > t) computed apart, reaches the level p, with
// a relative margin of 10⁻¹² for rounding on the smaller side: on c for
// p ≤ 1/2, on late above (a margin on c, 10⁻¹² absolute near 1, would
// take the exact chain's P(T_L > t) of 10⁻¹² as reaching 1 − 10⁻¹⁵).
func reaches(c, late, p float64) bool {
	if p <= 0.5 {
		return c >= p*(1-1e-12)
	}
	return late <= (1-p)*(1+1e-12)
}

// quantile is the smallest r with P(T_L ≤ r) ≥ p, NaN if there is none.
// A relative margin of 10⁻¹² absorbs the rounding of the running sum, so
// that a CDF that is p in exact arithmetic counts as reaching p.
// Only round 0 and the rounds with mass are looked at (the sum, and so
// the answer, changes at no other).
func (l *Law) quantile(p float64) float64 {
	s := 0.0
	for r, q := range l.PMF {
		if r > 0 && q == 0 {
			continue
		}
		s += q
		if s >= p*(1-1e-12) {
			return float64(r)
		}
	}
	return math.NaN()
}

// sampleErrors fills the standard errors of a Monte Carlo answer.
func (l *Law) sampleErrors(a *Answer, cfg Config) {
	R := float64(l.Reps)
	reached := a.PReach * R
	if reached >= 2 {
		a.Accuracy.SEMean = a.SD / math.Sqrt(reached)
		var m4 float64
		for r, p := range l.PMF {
			d := float64(r) - a.Mean
			m4 += d * d * d * d * p
		}
		m4 /= a.PReach
		if v := m4 - math.Pow(a.SD, 4); a.SD > 0 && v >= 0 {
			a.Accuracy.SESD = math.Sqrt(v) / (2 * a.SD * math.Sqrt(reached))
		} else {
			a.Accuracy.SESD = 0
		}
	}
	a.Accuracy.SEPReach = seShare(a.PReach, l.Reps)
	if cfg.Deadline > 0 {
		a.Accuracy.SEPDeadline = seShare(a.PDeadline, l.Reps)
	}
	a.Accuracy.SEMessages = l.MessagesSD / math.Sqrt(R)
}

// seShare is the standard error of a share p of n runs, √(p(1 − p)/n);
// at p = 0 or 1, where that is 0 but the share is not exact, the distance
// from p to the far end of Wilson's interval (z = zValue) over zValue.
func seShare(p float64, n int) float64 {
	if n <= 0 || math.IsNaN(p) {
		return math.NaN()
	}
	if p > 0 && p < 1 {
		return math.Sqrt(p * (1 - p) / float64(n))
	}
	x := int(math.Round(p * float64(n)))
	iv := wilson(x, n)
	return math.Max(iv.hi-p, p-iv.lo) / zValue
}
