package claim

import (
	"fmt"
	"math"
	"strings"

	"github.com/gossipkit/gossipkit/sim"
)

// The rules of the verdicts: each is a function of measured figures only,
// with its thresholds as named constants and its statement (the rule
// column of the verdict table) written from the same constants, so the
// table, the text and the tests use one rule.

// ZSignificant: a difference is shown at this scale when it is at least
// this many standard errors from zero (two-sided, about 95 %).
const ZSignificant = 2

// Figs. 7 and 8: the take-off is the rounds at which the ODE lies between
// WindowLo and WindowHi of its plateau (before it both curves sit at the
// initial copy; after it both sit on the plateau, where sd = 0 and the ODE
// differs by rounding only). Over it the report describes the share of
// rounds at which the ODE lies within one sd + ResolutionNodes/N of the
// simulated mean and the take-off distance (takeoff.go); the verdicts
// grade the growth distances (growthdist.go). sdShareHolds and
// sdShareQualified were the share's grades when it was graded; they are
// kept for gradeInterval's test.
const (
	sdShareHolds     = 0.95
	sdShareQualified = 0.68
	WindowLo         = 0.01
	WindowHi         = 0.99
	ResolutionNodes  = 0.5
)

// Fig. 1's transitions: within TransZ binomial standard errors holds;
// beyond it but within transDiff in absolute terms holds with a
// qualification (significant at this sample size, but small).
const (
	TransZ    = 4
	transDiff = 0.01
)

// TransRule judges the transition test: MaxZ is in standard errors
// estimated from the spread between reps replications (TransitionsByRep),
// so the critical value is Student's t over them at the level of TransZ
// normal standard errors.
func TransRule(t sim.TransitionTest, reps int) string {
	crit := TCrit(TransZ, reps)
	switch {
	case t.MaxZ > crit && t.MaxDiff < transDiff:
		return Qualified
	case t.MaxZ > crit:
		return Fails
	}
	return Holds
}

func TransRuleText() string {
	return fmt.Sprintf("every measured P(to|from) within %g standard errors of Fig. 1's (the standard error from the spread between the replications, since one item's successive shuffles are not independent trials; Student's t over them at the level of %g normal standard errors) holds; beyond, but within %g absolute, holds with a qualification; else does not hold. Fig. 1's matrix is taken at the n + 1 items of the network simulated (the n of the warm-up and the inserted d): P_select = s/c, P_drop = S at n + 1 items", float64(TransZ), float64(TransZ), transDiff)
}

// SteadyZ: the late mean of x within SteadyZ standard errors of the
// plateau c/(n+1) of the network simulated at every n.
const SteadyZ = 3

// SteadyRule judges the steady state by its largest distance from
// c/(n+1) (protocolItems) in standard errors, against the Student t
// critical value over reps replications at the level of SteadyZ normal
// standard errors (the standard error is estimated from the
// replications' own late means). A distance that is not a number (one
// replication, or no spread at the plateau itself) cannot be checked.
func SteadyRule(worstSE float64, reps int) string {
	switch {
	case math.IsNaN(worstSE):
		return Unchecked
	case worstSE > TCrit(SteadyZ, reps):
		return Fails
	}
	return Holds
}

func SteadyRuleText() string {
	return fmt.Sprintf("the late mean of x (the last fifth of the rounds) within %g standard errors of c/(n+1) at every n (Student's t over the replications at the level of %g normal standard errors) holds; else does not hold. c/(n+1), not c/n: d's insertion overwrites a copy of an existing item (the source's protocol), and a lossless shuffle loses no item, so the network simulated holds n + 1 distinct items (n only if the copy overwritten was its item's last, a chance stated in the measured column); the shuffle treats all items alike, so at steady state each, d included, holds the same expected share c/(n+1) of the nodes. The paper's c/n is the n → ∞ reading, c/(n(n+1)) above it; the distance from it is stated beside", float64(SteadyZ), float64(SteadyZ))
}

// reachLevel: coverage "reaches 1" if the smallest final mean is at least
// this; below it the rounds simulated were too few to tell.
const reachLevel = 0.99

// ReachRule judges "coverage eventually reaches 1" by the interval iv of
// the smallest final mean coverage over n (Student's t over the runs):
// wholly at or above reachLevel holds; wholly below, the rounds simulated
// cannot tell; across it, undecided at this scale.
func ReachRule(iv Interval) string {
	switch {
	case math.IsNaN(iv.Lo):
		return Unchecked
	case iv.Lo >= reachLevel:
		return Holds
	case iv.Hi < reachLevel:
		return Unchecked
	}
	return Undecided
}

func ReachRuleText() string {
	return fmt.Sprintf("the smallest final mean coverage over n, with its interval over the runs (Student's t at the level of %g normal standard errors), ≥ %g holds; below, the rounds simulated cannot tell; across %g, undecided at this scale", float64(ZDecide), reachLevel, reachLevel)
}

// nearLog10: S is "close" to formula (1) if |E − S| stays below 10^nearLog10
// (drop probabilities are O(1)).
const nearLog10 = -2

// NearRule judges "the correction factor is small" by the largest
// log10 |E − S|.
func NearRule(hi float64) string {
	if hi >= nearLog10 {
		return Qualified
	}
	return Holds
}

func NearRuleText() string {
	return fmt.Sprintf("largest |E − S| on the Fig. 4 grid below 10^%d holds; else holds with a qualification", nearLog10)
}

const (
	AccurateRuleText = "exhaustive enumeration of one shuffle: a tagged item's drop probability equal to S and not to formula (1) at every point does not hold; no enumeration cannot be checked"
	GammaRuleText    = "exact arithmetic: the proof for every s, with no mismatch on the grid and no refutation by the per-s prover, holds; one exact mismatch or refutation does not hold"
)

// gapRatio: the protocol's and the pairwise-Markov simulation's largest
// coverage gaps are "similar" within this factor.
const gapRatio = 1.5

// SimilarGaps reports whether two gaps are within a factor gapRatio.
func SimilarGaps(a, b float64) bool {
	r := a / b
	return !(r > gapRatio || r < 1/gapRatio)
}

// An optimum: s is "at s*" within OptSlack; away from it, a gain below
// OptGainPct % of the time at s* is small.
const (
	OptSlack   = 1.0
	OptGainPct = 5.0
)

// OptimumEffect is how much better the best s is than s* (its integer
// argmax SInt): Gain rounds (GainPct % of the time at SInt), and its size
// in standard errors of the difference of two means of Runs protocol runs
// (Z), with the runs that would make it ZSignificant standard errors.
type OptimumEffect struct {
	Best             int
	SStar            float64
	SInt             int
	Gain, GainPct, Z float64
	Runs             int
	RunsForZ         float64
}

// EffectOf measures the effect of the best s over SInt from the mean
// and sd of the time at each (tBest, sdBest, tInt, sdInt) with runs runs
// of each: the standard error of a difference of two independent means is
// √((sd₁² + sd₂²)/runs).
func EffectOf(best int, sStar float64, sInt int, tBest, sdBest, tInt, sdInt float64, runs int) OptimumEffect {
	e := OptimumEffect{Best: best, SStar: sStar, SInt: sInt, Runs: runs, Gain: tInt - tBest}
	e.GainPct = 100 * e.Gain / tInt
	v := sdBest*sdBest + sdInt*sdInt
	e.Z = e.Gain / math.Sqrt(v/float64(runs))
	e.RunsForZ = ZSignificant * ZSignificant * v / (e.Gain * e.Gain)
	if e.Gain == 0 {
		e.Z, e.RunsForZ = 0, math.Inf(1)
	}
	return e
}

// OptimumRule judges "s* is optimal": holds if the best s is within
// OptSlack of s*; does not hold if it is better by at least OptGainPct %
// and significantly so with the runs of this scale; holds with a
// qualification otherwise (s* is near-optimal).
func OptimumRule(e OptimumEffect) string {
	switch {
	case math.Abs(float64(e.Best)-e.SStar) <= OptSlack:
		return Holds
	case e.GainPct >= OptGainPct && e.Z >= ZSignificant:
		return Fails
	}
	return Qualified
}

func OptimumRuleText() string {
	return fmt.Sprintf("best s (exact pairwise chain) within %g of s* holds; better than s* by ≥ %g %% of the time and ≥ %g standard errors with the protocol runs of this scale does not hold; otherwise holds with a qualification (near-optimal)",
		OptSlack, OptGainPct, float64(ZSignificant))
}

// Clauses of the tree claims. Each clause of a claim is judged in the same
// form: its direction (a rise shown at ZSignificant standard errors over
// the seeds, or a change bounded as the document's word says) and, where
// the document gives a figure, its magnitude within a tolerance.
const (
	smallPct      = 10.0 // "small", "slightly": |change| ≤ 10 %
	limitedPct    = 25.0 // "very limited rise": ≤ 25 %
	magFactor     = 2.0  // a document's "up to X %": measured within [X/2, 2X]
	valueTolerPct = 10.0 // a document's value (Table I): within 10 %
)

// ClauseKind is what a clause states.
type ClauseKind int

const (
	Rises   ClauseKind = iota // a rise, of about Doc % if Doc is given
	Small                     // a change of at most smallPct %
	Limited                   // a rise of at most limitedPct %
)

// check is one part of a clause: passed, not shown at this scale, or
// contradicted; or no figure to compare (magnitude only).
type Check int

const (
	Passed Check = iota
	Unresolved
	Contradicted
	none
)

// A clause is one measurable part of a claim: Value ± SE measured (SE the
// standard error over Seeds seeds), and Doc the document's figure (NaN:
// none). Every check compares the interval Value ± ZSignificant·SE with
// its threshold: decided where the interval lies on one side, unresolved
// (undecided at this scale) where it Straddles it.
type Clause struct {
	Name      string
	Kind      ClauseKind
	Value, SE float64
	Seeds     int
	Doc       float64
	// Values, if set, are measured values (± ValueSEs) that must each lie
	// within valueTolerPct % of DocValues (Table I's four figures).
	Values, ValueSEs, DocValues []float64
}

// interval is Value ± TCrit·SE (Student's t over the clause's seeds at
// the level of ZDecide normal standard errors).
func (c Clause) Interval() Interval {
	h := TCrit(ZDecide, c.Seeds) * c.SE
	return Interval{c.Value - h, c.Value + h}
}

// within checks that the interval iv lies in [lo, hi]: passed if wholly
// inside, contradicted if wholly outside, unresolved otherwise.
func Within(iv Interval, lo, hi float64) Check {
	switch {
	case iv.Lo >= lo && iv.Hi <= hi:
		return Passed
	case iv.Hi < lo || iv.Lo > hi:
		return Contradicted
	}
	return Unresolved
}

// SeedsToDecide is the seeds at which the clause's unresolved checks would
// be decided (the largest over its thresholds; NaN if none is unresolved).
func (c Clause) SeedsToDecide() float64 {
	iv := c.Interval()
	var ts []float64
	switch c.Kind {
	case Small:
		ts = []float64{-smallPct, smallPct}
	case Limited:
		ts = []float64{limitedPct}
	default:
		ts = []float64{0}
		if !math.IsNaN(c.Doc) {
			ts = append(ts, c.Doc/magFactor, c.Doc*magFactor)
		}
	}
	n := math.NaN()
	for _, t := range ts {
		if iv.Lo < t && iv.Hi > t {
			n = math.Max(NanToZero(n), repsToDecide(c.Seeds, c.Value, iv, t))
		}
	}
	return n
}

func NanToZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// judge returns the clause's direction and magnitude checks.
func (c Clause) Judge() (dir, mag Check) {
	mag = none
	if math.IsNaN(c.Value) { // nothing measured: nothing shown
		return Unresolved, none
	}
	switch c.Kind {
	case Small:
		dir = Within(c.Interval(), -smallPct, smallPct)
	case Limited:
		dir = Within(c.Interval(), math.Inf(-1), limitedPct)
	default:
		switch iv := c.Interval(); {
		case c.SE == 0 && c.Value != 0 && c.Seeds >= 2: // no spread at all
			dir = map[bool]Check{true: Passed, false: Contradicted}[c.Value > 0]
		case iv.Lo > 0:
			dir = Passed
		case iv.Hi < 0:
			dir = Contradicted
		default:
			dir = Unresolved
		}
		if !math.IsNaN(c.Doc) {
			mag = Within(c.Interval(), c.Doc/magFactor, c.Doc*magFactor)
		}
	}
	for i, v := range c.Values {
		d, tol := c.DocValues[i], valueTolerPct/100*math.Abs(c.DocValues[i])
		se := 0.0
		if i < len(c.ValueSEs) {
			se = c.ValueSEs[i]
		}
		h := TCrit(ZDecide, c.Seeds) * se
		m := Within(Interval{v - h, v + h}, d-tol, d+tol)
		switch {
		case mag == none || mag == Passed:
			mag = m
		case mag == Unresolved && m == Contradicted:
			mag = Contradicted
		}
	}
	return dir, mag
}

// ClauseRule judges a claim from its clauses: does not hold if a direction
// is contradicted; holds if every direction is shown and every magnitude
// given is within its tolerance; otherwise (a magnitude outside it) holds
// with a qualification. A check left unresolved (its interval Straddles a
// threshold) could go either way: the claim is judged with every
// unresolved check passed and again with every one contradicted, and where
// the two verdicts differ it is undecided at this scale (a magnitude far
// outside its tolerance, say, leaves "holds with a qualification" decided
// whatever an unresolved magnitude beside it turns out to be).
func ClauseRule(cs []Clause) string {
	verdict := func(resolve Check) string {
		v := Holds
		for _, c := range cs {
			dir, mag := c.Judge()
			if dir == Unresolved {
				dir = resolve
			}
			if mag == Unresolved {
				mag = resolve
			}
			switch {
			case dir == Contradicted:
				return Fails
			case mag == Contradicted:
				v = Qualified
			}
		}
		return v
	}
	best, worst := verdict(Passed), verdict(Contradicted)
	if best != worst {
		return Undecided
	}
	return best
}

// describe states the clause's measurement and checks.
func (c Clause) Describe() string {
	dir, mag := c.Judge()
	var b strings.Builder
	if c.Values != nil {
		fmt.Fprintf(&b, "%s", c.Name)
	} else {
		fmt.Fprintf(&b, "%s %+.1f %% ± %.1f", c.Name, c.Value, c.SE)
		if !math.IsNaN(c.Doc) {
			fmt.Fprintf(&b, " (document %+.1f %%)", c.Doc)
		}
	}
	word := map[Check]string{Passed: "as stated", Unresolved: "not shown at this scale", Contradicted: "contradicted"}
	fmt.Fprintf(&b, ": direction %s", word[dir])
	if mag != none {
		fmt.Fprintf(&b, ", magnitude %s", map[Check]string{Passed: "within tolerance", Unresolved: "undecided at this scale", Contradicted: "outside tolerance"}[mag])
	}
	if n := c.SeedsToDecide(); !math.IsNaN(n) && (dir == Unresolved || mag == Unresolved) {
		fmt.Fprintf(&b, " (%s)", DecideText(n, "seeds"))
	}
	return b.String()
}

func ClauseRuleText() string {
	return fmt.Sprintf("each clause on the interval of its mean over seeds (Student's t at the level of %g normal standard errors, 99.73 %%): a rise shown when it excludes 0 (\"small\" within ±%g %%, \"very limited\" ≤ %g %%), a document's \"up to X %%\" matched within a factor %g, a document's value within %g %%; a contradicted direction does not hold; all shown and matched holds; a magnitude outside its tolerance holds with a qualification; a check whose interval straddles its threshold leaves the claim undecided at this scale where resolving it either way would change the verdict",
		float64(ZDecide), smallPct, limitedPct, magFactor, valueTolerPct)
}

// RepairRuleText completes ClauseRuleText for Tables II–IV.
const RepairRuleText = "; each repair clause is judged at the failure share where it is most extreme: a rise at its largest mean (the document's \"up to\" is its table's largest), \"small\" and \"very limited\" at the largest |Δ| (they must hold at every share); the traffic is the repair's messages of every kind (join, break, election, sibling-reference upkeep, DHT look-ups; docs/MODEL.md §5) in % of the build's, counted alike"

const (
	TradeOffRuleText  = "a trade-off the document does not quantify has no measurable criterion: cannot be checked; the figures are given"
	FirstRootRuleText = "identical trees under both strategies at every k cannot be checked (the difference the claim is about does not arise in this reading); otherwise \"first\" holds if its ν is no larger at every k"
)

// DescribeClauses joins the clauses' descriptions.
func DescribeClauses(cs []Clause) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.Describe())
	}
	return strings.Join(parts, "; ")
}
