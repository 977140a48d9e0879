package approx

import (
	"fmt"
	"math"
	"math/big"

	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/enum"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// Variant selects how P_drop is computed.
type Variant int

const (
	// Simplified is q = (n−c)/(n−s), the paper's simplification and (see
	// package exact) the exact per-item drop probability.
	Simplified Variant = iota
	// Gamma is the γ-corrected closed form, equal to formula (1).
	Gamma
	// Exact is formula (1) in rational arithmetic, rounded to float64.
	Exact
)

// Variants lists every variant, in the order of their names.
var Variants = []Variant{Simplified, Gamma, Exact}

var variantNames = enum.Names[Variant]{"simplified", "gamma", "exact"}

// String returns the variant's name; it never panics.
func (v Variant) String() string { return variantNames.Name(v) }

// ParseVariant maps "simplified", "gamma" or "exact" to its Variant.
func ParseVariant(s string) (Variant, error) {
	v, err := variantNames.Parse("P_drop variant", s)
	if err != nil {
		return 0, fmt.Errorf("approx: %w", err)
	}
	return v, nil
}

// PSelect returns P_select = s/c, the chance that a cached item is put in the
// exchange buffer.
func PSelect(sh gossip.Shuffle) float64 { return float64(sh.Exchange) / float64(sh.Cache) }

// PDrop returns P_drop for the variant and the shuffle sh (sh.Validate must
// hold). Gamma and Exact are computed exactly (package exact) and rounded
// once, so they carry no cancellation error; Exact is formula (1), by its
// closed form (exact.PDrop).
func PDrop(v Variant, sh gossip.Shuffle) (float64, error) {
	if err := sh.Validate(); err != nil {
		return 0, fielderr.Within("approx", "", err)
	}
	n, c, s := sh.Items, sh.Cache, sh.Exchange
	switch v {
	case Simplified:
		return float64(n-c) / float64(n-s), nil
	case Gamma:
		r, err := exact.PDropGamma(sh)
		if err != nil {
			return 0, fielderr.Within("approx", "", err)
		}
		f, _ := r.Float64()
		return f, nil
	case Exact:
		r, err := exact.PDrop(sh)
		if err != nil {
			return 0, fielderr.Within("approx", "", err)
		}
		f, _ := r.Float64()
		return f, nil
	}
	return 0, fmt.Errorf("approx: unknown P_drop variant %v", v)
}

// State is the presence of d at initiator A and partner B, written "ab".
type State int

// The four states of Fig. 1, numbered by the bits a·2 + b.
const (
	S00 State = iota
	S01
	S10
	S11
)

var stateNames = enum.Names[State]{"00", "01", "10", "11"}

// String returns the state as "ab"; it never panics.
func (s State) String() string { return stateNames.Name(s) }

// Transitions is the 4×4 matrix of Fig. 1: T[from][to] is P(to | from).
type Transitions [4][4]float64

// NewTransitions returns the matrix for P_select = p and P_drop = q.
func NewTransitions(p, q float64) Transitions {
	var t Transitions
	t[S00][S00] = 1
	t[S10][S10] = 1 - p
	t[S10][S11] = p * (1 - q)
	t[S10][S01] = p * q
	t[S01][S01] = 1 - p
	t[S01][S11] = p * (1 - q)
	t[S01][S10] = p * q
	t[S11][S01] = p * (1 - p) * q
	t[S11][S10] = p * (1 - p) * q
	t[S11][S11] = 1 - 2*p*(1-p)*q
	return t
}

// TransitionsFor returns the matrix for the shuffle sh under a P_drop variant.
func TransitionsFor(v Variant, sh gossip.Shuffle) (Transitions, error) {
	return TransitionsLossFor(v, sh, 0)
}

// NewTransitionsLoss returns the matrix of one shuffle whose request and
// reply are each lost with probability ε, for P_select = p and P_drop = q.
// A lost request changes nothing (B never hears of the shuffle). A lost
// reply leaves A's cache as it was, while B has already taken A's items and
// dropped, to make room, items of S_B \ S_A that now reach no one. With
// a = 1 − ε (docs/MODEL.md, "The shuffle protocol under loss"):
//
//	from 10: to 11 with a·p·(a(1−q) + ε), to 01 with a²·p·q
//	from 01: to 11 with a²·p·(1−q), to 10 with a²·p·q, to 00 with a·ε·p·q
//	from 11: to 10 with a·p(1−p)q, to 01 with a²·p(1−p)q
//
// and the rest of each row stays. Only 01 → 00 loses d: B held the only copy,
// sent it and dropped it, and the reply carrying it was lost. At ε = 0 this
// is NewTransitions(p, q) exactly (the same expressions with a = 1, ε = 0).
func NewTransitionsLoss(p, q, eps float64) Transitions {
	if eps == 0 {
		return NewTransitions(p, q)
	}
	a := 1 - eps
	var t Transitions
	t[S00][S00] = 1
	t[S10][S11] = a * p * (a*(1-q) + eps)
	t[S10][S01] = a * a * p * q
	t[S10][S10] = 1 - t[S10][S11] - t[S10][S01]
	t[S01][S11] = a * a * p * (1 - q)
	t[S01][S10] = a * a * p * q
	t[S01][S00] = a * eps * p * q
	t[S01][S01] = 1 - t[S01][S11] - t[S01][S10] - t[S01][S00]
	t[S11][S10] = a * p * (1 - p) * q
	t[S11][S01] = a * a * p * (1 - p) * q
	t[S11][S11] = 1 - t[S11][S10] - t[S11][S01]
	return t
}

// TransitionsLossFor returns the matrix for the shuffle sh under a P_drop
// variant when each message is lost with probability eps (0 ≤ eps < 1).
func TransitionsLossFor(v Variant, sh gossip.Shuffle, eps float64) (Transitions, error) {
	if !gossip.ValidLoss(eps) {
		return Transitions{}, fielderr.New("approx", gossip.Loss.Field, "= %g: valid range %s", eps, gossip.Loss.Range)
	}
	q, err := PDrop(v, sh)
	if err != nil {
		return Transitions{}, err
	}
	return NewTransitionsLoss(PSelect(sh), q, eps), nil
}

// Summed returns the chances of one shuffle between a given pair of nodes
// summed over the two orientations (which of the two initiates), as the
// pairwise chain and the mean field use them:
//
//	up   = T(11|10) + T(11|01)   a copy is made
//	move = T(01|10) + T(10|01)   d moves to the other node
//	drop = T(01|11) + T(10|11)   one of two holders drops d
//	lose = T(00|10) + T(00|01)   the only copy is lost (message loss)
func (t Transitions) Summed() (up, move, drop, lose float64) {
	return t[S10][S11] + t[S01][S11],
		t[S10][S01] + t[S01][S10],
		t[S11][S01] + t[S11][S10],
		t[S10][S00] + t[S01][S00]
}

// swap exchanges the roles of A and B in a state.
func swap(s State) State { return State((int(s)&1)<<1 | int(s)>>1) }

// Check verifies the structural properties of Fig. 1 within tol: entries in
// [0, 1], rows summing to 1, 00 absorbing, the symmetry P(a2b2|a1b1) =
// P(b2a2|b1a1), and no state holding d going to 00 (an item is never lost).
// A matrix with loss (NewTransitionsLoss) has neither of the last two; check
// it with CheckLoss.
func (t Transitions) Check(tol float64) error {
	if err := t.CheckLoss(tol); err != nil {
		return err
	}
	for i := range 4 {
		for j := range 4 {
			if d := t[i][j] - t[swap(State(i))][swap(State(j))]; math.Abs(d) > tol {
				return fmt.Errorf("approx: P(%v|%v) ≠ P(%v|%v)", State(j), State(i), swap(State(j)), swap(State(i)))
			}
		}
		if State(i) != S00 && t[i][S00] != 0 {
			return fmt.Errorf("approx: P(00|%v) = %g: d would be lost", State(i), t[i][S00])
		}
	}
	return nil
}

// CheckLoss verifies what every matrix, with loss or without, has within
// tol: entries in [0, 1], rows summing to 1, and 00 absorbing.
func (t Transitions) CheckLoss(tol float64) error {
	for i := range 4 {
		sum := 0.0
		for j := range 4 {
			if !(t[i][j] >= -tol && t[i][j] <= 1+tol) {
				return fmt.Errorf("approx: P(%v|%v) = %g outside [0,1]", State(j), State(i), t[i][j])
			}
			sum += t[i][j]
		}
		if !(math.Abs(sum-1) <= tol) {
			return fmt.Errorf("approx: row %v sums to %g", State(i), sum)
		}
	}
	if t[S00][S00] != 1 {
		return fmt.Errorf("approx: P(00|00) = %g: 00 must be absorbing", t[S00][S00])
	}
	return nil
}

// P11Given10 returns P(11|10) = p(1−q), the chance that a shuffle duplicates d.
func P11Given10(v Variant, sh gossip.Shuffle) (float64, error) {
	q, err := PDrop(v, sh)
	if err != nil {
		return 0, err
	}
	return PSelect(sh) * (1 - q), nil
}

// SStar returns the real optimum of P(11|10) = (s/c)(c−s)/(n−s) over s,
//
//	s* = n − √(n(n−c)) = n·c / (n + √(n(n−c))),
//
// evaluated in the second form, which has no cancellation when c ≪ n.
func SStar(n, c int) float64 {
	nf, cf := float64(n), float64(c)
	return nf * cf / (nf + math.Sqrt(nf*(nf-cf)))
}

// MaxArgmaxGammaC bounds c for ArgmaxP11 with the Gamma variant: it
// evaluates the exact γ form for every s < c (O(c²) big-number work, and
// exact.MaxS caps s).
const MaxArgmaxGammaC = 2000

// MaxArgmaxExactC bounds c for ArgmaxP11 with the Exact variant, which
// evaluates formula (1) (O(s²) big-integer products) at every s ≤ c.
const MaxArgmaxExactC = 400

// ArgmaxP11 returns the integer s in [1, c], s < n, that maximises P(11|10)
// = (s/c)(1 − q) under the variant, and that maximum. Every s is evaluated
// and compared exactly in rational arithmetic, so exact ties (n = 72, c = 16:
// s = 8 and s = 9 both give 1/16) go to the smaller s rather than to
// whichever float rounds up. The Exact variant needs c ≤ MaxArgmaxExactC.
func ArgmaxP11(v Variant, n, c int) (int, float64, error) {
	if v == Exact && c > MaxArgmaxExactC {
		return 0, 0, fmt.Errorf("approx: c = %d: the exact argmax needs c ≤ %d", c, MaxArgmaxExactC)
	}
	if v == Gamma && c > MaxArgmaxGammaC {
		return 0, 0, fmt.Errorf("approx: c = %d: the γ-form argmax needs c ≤ %d", c, MaxArgmaxGammaC)
	}
	var best int
	var bestP *big.Rat
	lo, hi := 1, min(c, n-1)
	if v == Simplified && hi-lo > 8 {
		// s(c−s)/(n−s) rises until s* = n − √(n(n−c)) and falls after
		// (its derivative has the sign of s² − 2ns + cn, decreasing on
		// [0, n)), so the integer argmax is ⌊s*⌋ or ⌈s*⌉; s* in float64
		// is within 10⁻⁴ for n ≤ 2^40, so the four integers around it,
		// compared exactly, hold it (and its ties). O(1) instead of c
		// evaluations (c = 2^40 took hours).
		f := int(math.Floor(SStar(n, c)))
		lo, hi = max(lo, f-1), min(hi, f+2)
	}
	for s := lo; s <= hi; s++ {
		var q *big.Rat
		var err error
		switch v {
		case Simplified:
			// (n−c)/(n−s) exactly; no limit on s (exact.PDropSimplified
			// shares formula (1)'s s ≤ exact.MaxS).
			q = big.NewRat(int64(n-c), int64(n-s))
		case Gamma:
			q, err = exact.PDropGamma(gossip.Shuffle{Items: n, Cache: c, Exchange: s})
		case Exact:
			q, err = exact.PDrop(gossip.Shuffle{Items: n, Cache: c, Exchange: s})
		default:
			err = fmt.Errorf("approx: unknown P_drop variant %v", v)
		}
		if err != nil {
			return 0, 0, fielderr.Within("approx", "", err)
		}
		p := new(big.Rat).Sub(big.NewRat(1, 1), q)
		p.Mul(p, big.NewRat(int64(s), int64(c)))
		if bestP == nil || p.Cmp(bestP) > 0 {
			best, bestP = s, p
		}
	}
	if bestP == nil {
		return 0, 0, fmt.Errorf("approx: no valid s for n = %d, c = %d (need c ≥ 1 and n ≥ 2)", n, c)
	}
	f, _ := bestP.Float64()
	return best, f, nil
}
