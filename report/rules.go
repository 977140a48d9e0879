package report

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

// zSignificant: a difference is shown at this scale when it is at least
// this many standard errors from zero (two-sided, about 95 %).
const zSignificant = 2

// Figs. 7 and 8: the take-off is the rounds at which the ODE lies between
// windowLo and windowHi of its plateau (before it both curves sit at the
// initial copy; after it both sit on the plateau, where sd = 0 and the ODE
// differs by rounding only). Over it the report describes the share of
// rounds at which the ODE lies within one sd + resolutionNodes/N of the
// simulated mean and the take-off distance (takeoff.go); the verdicts
// grade the growth distances (growthdist.go). sdShareHolds and
// sdShareQualified were the share's grades when it was graded; they are
// kept for gradeInterval's test.
const (
	sdShareHolds     = 0.95
	sdShareQualified = 0.68
	windowLo         = 0.01
	windowHi         = 0.99
	resolutionNodes  = 0.5
)

// Fig. 1's transitions: within transZ binomial standard errors holds;
// beyond it but within transDiff in absolute terms holds with a
// qualification (significant at this sample size, but small).
const (
	transZ    = 4
	transDiff = 0.01
)

// transRule judges the transition test: MaxZ is in standard errors
// estimated from the spread between reps replications (transitionsByRep),
// so the critical value is Student's t over them at the level of transZ
// normal standard errors.
func transRule(t sim.TransitionTest, reps int) string {
	crit := tCrit(transZ, reps)
	switch {
	case t.MaxZ > crit && t.MaxDiff < transDiff:
		return qualified
	case t.MaxZ > crit:
		return fails
	}
	return holds
}

func transRuleText() string {
	return fmt.Sprintf("every measured P(to|from) within %g standard errors of Fig. 1's (the standard error from the spread between the replications, since one item's successive shuffles are not independent trials; Student's t over them at the level of %g normal standard errors) holds; beyond, but within %g absolute, holds with a qualification; else does not hold. Fig. 1's matrix is taken at the n + 1 items of the network simulated (the n of the warm-up and the inserted d): P_select = s/c, P_drop = S at n + 1 items", float64(transZ), float64(transZ), transDiff)
}

// steadyZ: the late mean of x within steadyZ standard errors of the
// plateau c/(n+1) of the network simulated at every n.
const steadyZ = 3

// steadyRule judges the steady state by its largest distance from
// c/(n+1) (protocolItems) in standard errors, against the Student t
// critical value over reps replications at the level of steadyZ normal
// standard errors (the standard error is estimated from the
// replications' own late means). A distance that is not a number (one
// replication, or no spread at the plateau itself) cannot be checked.
func steadyRule(worstSE float64, reps int) string {
	switch {
	case math.IsNaN(worstSE):
		return unchecked
	case worstSE > tCrit(steadyZ, reps):
		return fails
	}
	return holds
}

func steadyRuleText() string {
	return fmt.Sprintf("the late mean of x (the last fifth of the rounds) within %g standard errors of c/(n+1) at every n (Student's t over the replications at the level of %g normal standard errors) holds; else does not hold. c/(n+1), not c/n: d's insertion overwrites a copy of an existing item (the source's protocol), and a lossless shuffle loses no item, so the network simulated holds n + 1 distinct items (n only if the copy overwritten was its item's last, a chance stated in the measured column); the shuffle treats all items alike, so at steady state each, d included, holds the same expected share c/(n+1) of the nodes. The paper's c/n is the n → ∞ reading, c/(n(n+1)) above it; the distance from it is stated beside", float64(steadyZ), float64(steadyZ))
}

// reachLevel: coverage "reaches 1" if the smallest final mean is at least
// this; below it the rounds simulated were too few to tell.
const reachLevel = 0.99

// reachRule judges "coverage eventually reaches 1" by the interval iv of
// the smallest final mean coverage over n (Student's t over the runs):
// wholly at or above reachLevel holds; wholly below, the rounds simulated
// cannot tell; across it, undecided at this scale.
func reachRule(iv Interval) string {
	switch {
	case math.IsNaN(iv.Lo):
		return unchecked
	case iv.Lo >= reachLevel:
		return holds
	case iv.Hi < reachLevel:
		return unchecked
	}
	return undecided
}

func reachRuleText() string {
	return fmt.Sprintf("the smallest final mean coverage over n, with its interval over the runs (Student's t at the level of %g normal standard errors), ≥ %g holds; below, the rounds simulated cannot tell; across %g, undecided at this scale", float64(zDecide), reachLevel, reachLevel)
}

// nearLog10: S is "close" to formula (1) if |E − S| stays below 10^nearLog10
// (drop probabilities are O(1)).
const nearLog10 = -2

// nearRule judges "the correction factor is small" by the largest
// log10 |E − S|.
func nearRule(hi float64) string {
	if hi >= nearLog10 {
		return qualified
	}
	return holds
}

func nearRuleText() string {
	return fmt.Sprintf("largest |E − S| on the Fig. 4 grid below 10^%d holds; else holds with a qualification", nearLog10)
}

const (
	accurateRuleText = "exhaustive enumeration of one shuffle: a tagged item's drop probability equal to S and not to formula (1) at every point does not hold; no enumeration cannot be checked"
	gammaRuleText    = "exact arithmetic: the proof for every s, with no mismatch on the grid and no refutation by the per-s prover, holds; one exact mismatch or refutation does not hold"
)

// gapRatio: the protocol's and the pairwise-Markov simulation's largest
// coverage gaps are "similar" within this factor.
const gapRatio = 1.5

// similarGaps reports whether two gaps are within a factor gapRatio.
func similarGaps(a, b float64) bool {
	r := a / b
	return !(r > gapRatio || r < 1/gapRatio)
}

// An optimum: s is "at s*" within optSlack; away from it, a gain below
// optGainPct % of the time at s* is small.
const (
	optSlack   = 1.0
	optGainPct = 5.0
)

// OptimumEffect is how much better the best s is than s* (its integer
// argmax SInt): Gain rounds (GainPct % of the time at SInt), and its size
// in standard errors of the difference of two means of Runs protocol runs
// (Z), with the runs that would make it zSignificant standard errors.
type OptimumEffect struct {
	Best             int
	SStar            float64
	SInt             int
	Gain, GainPct, Z float64
	Runs             int
	RunsForZ         float64
}

// optimumEffect measures the effect of the best s over SInt from the mean
// and sd of the time at each (tBest, sdBest, tInt, sdInt) with runs runs
// of each: the standard error of a difference of two independent means is
// √((sd₁² + sd₂²)/runs).
func optimumEffect(best int, sStar float64, sInt int, tBest, sdBest, tInt, sdInt float64, runs int) OptimumEffect {
	e := OptimumEffect{Best: best, SStar: sStar, SInt: sInt, Runs: runs, Gain: tInt - tBest}
	e.GainPct = 100 * e.Gain / tInt
	v := sdBest*sdBest + sdInt*sdInt
	e.Z = e.Gain / math.Sqrt(v/float64(runs))
	e.RunsForZ = zSignificant * zSignificant * v / (e.Gain * e.Gain)
	if e.Gain == 0 {
		e.Z, e.RunsForZ = 0, math.Inf(1)
	}
	return e
}

// optimumRule judges "s* is optimal": holds if the best s is within
// optSlack of s*; does not hold if it is better by at least optGainPct %
// and significantly so with the runs of this scale; holds with a
// qualification otherwise (s* is near-optimal).
func optimumRule(e OptimumEffect) string {
	switch {
	case math.Abs(float64(e.Best)-e.SStar) <= optSlack:
		return holds
	case e.GainPct >= optGainPct && e.Z >= zSignificant:
		return fails
	}
	return qualified
}

func optimumRuleText() string {
	return fmt.Sprintf("best s (exact pairwise chain) within %g of s* holds; better than s* by ≥ %g %% of the time and ≥ %g standard errors with the protocol runs of this scale does not hold; otherwise holds with a qualification (near-optimal)",
		optSlack, optGainPct, float64(zSignificant))
}

// Clauses of the tree claims. Each clause of a claim is judged in the same
// form: its direction (a rise shown at zSignificant standard errors over
// the seeds, or a change bounded as the document's word says) and, where
// the document gives a figure, its magnitude within a tolerance.
const (
	smallPct      = 10.0 // "small", "slightly": |change| ≤ 10 %
	limitedPct    = 25.0 // "very limited rise": ≤ 25 %
	magFactor     = 2.0  // a document's "up to X %": measured within [X/2, 2X]
	valueTolerPct = 10.0 // a document's value (Table I): within 10 %
)

// clauseKind is what a clause states.
type clauseKind int

const (
	rises   clauseKind = iota // a rise, of about Doc % if Doc is given
	small                     // a change of at most smallPct %
	limited                   // a rise of at most limitedPct %
)

// check is one part of a clause: passed, not shown at this scale, or
// contradicted; or no figure to compare (magnitude only).
type check int

const (
	passed check = iota
	unresolved
	contradicted
	none
)

// A clause is one measurable part of a claim: Value ± SE measured (SE the
// standard error over Seeds seeds), and Doc the document's figure (NaN:
// none). Every check compares the interval Value ± zSignificant·SE with
// its threshold: decided where the interval lies on one side, unresolved
// (undecided at this scale) where it straddles it.
type clause struct {
	Name      string
	Kind      clauseKind
	Value, SE float64
	Seeds     int
	Doc       float64
	// Values, if set, are measured values (± ValueSEs) that must each lie
	// within valueTolerPct % of DocValues (Table I's four figures).
	Values, ValueSEs, DocValues []float64
}

// interval is Value ± tCrit·SE (Student's t over the clause's seeds at
// the level of zDecide normal standard errors).
func (c clause) interval() Interval {
	h := tCrit(zDecide, c.Seeds) * c.SE
	return Interval{c.Value - h, c.Value + h}
}

// within checks that the interval iv lies in [lo, hi]: passed if wholly
// inside, contradicted if wholly outside, unresolved otherwise.
func within(iv Interval, lo, hi float64) check {
	switch {
	case iv.Lo >= lo && iv.Hi <= hi:
		return passed
	case iv.Hi < lo || iv.Lo > hi:
		return contradicted
	}
	return unresolved
}

// seedsToDecide is the seeds at which the clause's unresolved checks would
// be decided (the largest over its thresholds; NaN if none is unresolved).
func (c clause) seedsToDecide() float64 {
	iv := c.interval()
	var ts []float64
	switch c.Kind {
	case small:
		ts = []float64{-smallPct, smallPct}
	case limited:
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
			n = math.Max(nanToZero(n), repsToDecide(c.Seeds, c.Value, iv, t))
		}
	}
	return n
}

func nanToZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// judge returns the clause's direction and magnitude checks.
func (c clause) judge() (dir, mag check) {
	mag = none
	if math.IsNaN(c.Value) { // nothing measured: nothing shown
		return unresolved, none
	}
	switch c.Kind {
	case small:
		dir = within(c.interval(), -smallPct, smallPct)
	case limited:
		dir = within(c.interval(), math.Inf(-1), limitedPct)
	default:
		switch iv := c.interval(); {
		case c.SE == 0 && c.Value != 0 && c.Seeds >= 2: // no spread at all
			dir = map[bool]check{true: passed, false: contradicted}[c.Value > 0]
		case iv.Lo > 0:
			dir = passed
		case iv.Hi < 0:
			dir = contradicted
		default:
			dir = unresolved
		}
		if !math.IsNaN(c.Doc) {
			mag = within(c.interval(), c.Doc/magFactor, c.Doc*magFactor)
		}
	}
	for i, v := range c.Values {
		d, tol := c.DocValues[i], valueTolerPct/100*math.Abs(c.DocValues[i])
		se := 0.0
		if i < len(c.ValueSEs) {
			se = c.ValueSEs[i]
		}
		h := tCrit(zDecide, c.Seeds) * se
		m := within(Interval{v - h, v + h}, d-tol, d+tol)
		switch {
		case mag == none || mag == passed:
			mag = m
		case mag == unresolved && m == contradicted:
			mag = contradicted
		}
	}
	return dir, mag
}

// clauseRule judges a claim from its clauses: does not hold if a direction
// is contradicted; holds if every direction is shown and every magnitude
// given is within its tolerance; otherwise (a magnitude outside it) holds
// with a qualification. A check left unresolved (its interval straddles a
// threshold) could go either way: the claim is judged with every
// unresolved check passed and again with every one contradicted, and where
// the two verdicts differ it is undecided at this scale (a magnitude far
// outside its tolerance, say, leaves "holds with a qualification" decided
// whatever an unresolved magnitude beside it turns out to be).
func clauseRule(cs []clause) string {
	verdict := func(resolve check) string {
		v := holds
		for _, c := range cs {
			dir, mag := c.judge()
			if dir == unresolved {
				dir = resolve
			}
			if mag == unresolved {
				mag = resolve
			}
			switch {
			case dir == contradicted:
				return fails
			case mag == contradicted:
				v = qualified
			}
		}
		return v
	}
	best, worst := verdict(passed), verdict(contradicted)
	if best != worst {
		return undecided
	}
	return best
}

// describe states the clause's measurement and checks.
func (c clause) describe() string {
	dir, mag := c.judge()
	var b strings.Builder
	if c.Values != nil {
		fmt.Fprintf(&b, "%s", c.Name)
	} else {
		fmt.Fprintf(&b, "%s %+.1f %% ± %.1f", c.Name, c.Value, c.SE)
		if !math.IsNaN(c.Doc) {
			fmt.Fprintf(&b, " (document %+.1f %%)", c.Doc)
		}
	}
	word := map[check]string{passed: "as stated", unresolved: "not shown at this scale", contradicted: "contradicted"}
	fmt.Fprintf(&b, ": direction %s", word[dir])
	if mag != none {
		fmt.Fprintf(&b, ", magnitude %s", map[check]string{passed: "within tolerance", unresolved: "undecided at this scale", contradicted: "outside tolerance"}[mag])
	}
	if n := c.seedsToDecide(); !math.IsNaN(n) && (dir == unresolved || mag == unresolved) {
		fmt.Fprintf(&b, " (%s)", decideText(n, "seeds"))
	}
	return b.String()
}

func clauseRuleText() string {
	return fmt.Sprintf("each clause on the interval of its mean over seeds (Student's t at the level of %g normal standard errors, 99.73 %%): a rise shown when it excludes 0 (\"small\" within ±%g %%, \"very limited\" ≤ %g %%), a document's \"up to X %%\" matched within a factor %g, a document's value within %g %%; a contradicted direction does not hold; all shown and matched holds; a magnitude outside its tolerance holds with a qualification; a check whose interval straddles its threshold leaves the claim undecided at this scale where resolving it either way would change the verdict",
		float64(zDecide), smallPct, limitedPct, magFactor, valueTolerPct)
}

// repairRuleText completes clauseRuleText for Tables II–IV.
const repairRuleText = "; each repair clause is judged at the failure share where it is most extreme: a rise at its largest mean (the document's \"up to\" is its table's largest), \"small\" and \"very limited\" at the largest |Δ| (they must hold at every share); the traffic is the repair's messages of every kind (join, break, election, sibling-reference upkeep, DHT look-ups; docs/MODEL.md §5) in % of the build's, counted alike"

const (
	tradeOffRuleText  = "a trade-off the document does not quantify has no measurable criterion: cannot be checked; the figures are given"
	firstRootRuleText = "identical trees under both strategies at every k cannot be checked (the difference the claim is about does not arise in this reading); otherwise \"first\" holds if its ν is no larger at every k"
)
