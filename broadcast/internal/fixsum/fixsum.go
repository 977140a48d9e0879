package fixsum

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// words is the length of a Sum: 256 bits below the point (resolution
// 2⁻²⁵⁶ ≈ 8.6·10⁻⁷⁸, so that the square of a value down to 10⁻³⁰, a
// curve's floor in broadcast, is kept: at 2⁻¹²⁸ the squares of values
// below about 5·10⁻²⁰ were lost, and with them the spread of P(T_L > t)
// deep in the tail) and 64 above it (room for 2⁶⁴ terms).
const words = 5

// scale is the number of bits below the point.
const scale = 256

// Sum is a sum of numbers in [0, MaxTerm] in fixed point: the value
// times 2²⁵⁶ as a 320-bit integer (w[0] the lowest word), exact up to the
// truncation of each term below 2⁻²⁵⁶, and room for 2⁶² terms.
type Sum [words]uint64

// MaxTerm is the largest term a Sum adds: the square of a curve's value,
// a probability times a likelihood ratio of at most 2 (broadcast's forced
// stall, stalls.go).
const MaxTerm = 4

// Add adds v, clipped to [0, MaxTerm].
func (z *Sum) Add(v float64) {
	switch {
	case !(v > 0):
		return
	case v > MaxTerm:
		v = MaxTerm
	}
	b := math.Float64bits(v)
	exp, m := int(b>>52&0x7ff), b&(1<<52-1)
	e := exp - 1075
	if exp == 0 {
		e = -1074
	} else {
		m |= 1 << 52
	}
	// v = m·2^e, so v·2²⁵⁶ = m·2^(e+256), e + 256 ≤ 206 for v ≤ 4.
	sh := e + scale
	var t Sum
	switch {
	case sh <= -64:
		return
	case sh < 0:
		t[0] = m >> uint(-sh)
	default:
		q, r := sh/64, uint(sh%64)
		t[q] = m << r
		if r > 0 && q+1 < words {
			t[q+1] = m >> (64 - r)
		}
	}
	z.Plus(&t)
}

// Plus adds x to z.
func (z *Sum) Plus(x *Sum) {
	var c uint64
	for i := range words {
		z[i], c = bits.Add64(z[i], x[i], c)
	}
}

// Int is the sum times 2²⁵⁶ as an integer.
func (z Sum) Int() *big.Int {
	x := new(big.Int)
	for i := words - 1; i >= 0; i-- {
		x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(z[i]))
	}
	return x
}

// MarshalText writes the words in hexadecimal, highest first, joined by
// dots.
func (z Sum) MarshalText() ([]byte, error) {
	f := make([]string, words)
	for i := range words {
		f[words-1-i] = strconv.FormatUint(z[i], 16)
	}
	return []byte(strings.Join(f, ".")), nil
}

// UnmarshalText reads what MarshalText writes.
func (z *Sum) UnmarshalText(b []byte) error {
	f := strings.Split(string(b), ".")
	if len(f) != words {
		return fmt.Errorf("a curve sum %q is not %d hexadecimal words", b, words)
	}
	for i, s := range f {
		v, err := strconv.ParseUint(s, 16, 64)
		if err != nil || len(s) > 16 {
			return fmt.Errorf("a curve sum %q is not %d hexadecimal words", b, words)
		}
		z[words-1-i] = v
	}
	return nil
}

// MaxRounds bounds a curve: its rounds past it are not followed.
const MaxRounds = 512

// Curves holds the sums over a sample's watched runs of their curves, by
// round: for the runs of one watched node (k = 0), of two (k = 1), and
// the share of the first that estimates the chance the level is not
// reached (k = 2), the sum of the values and of their squares (Sums[2k]
// and Sums[2k+1]) at rounds 1..len, and for the runs whose curve ends at
// round L (0 ≤ L ≤ MaxRounds), which keep their last value at every
// later round, the sums of that value in Tail[·][L]. Capped counts the
// runs whose curve reached MaxRounds without ending: past it the sums are
// not known.
type Curves struct {
	Runs   int              `json:"runs"`
	Capped int              `json:"capped"`
	Sums   [2 * Kinds][]Sum `json:"sums"`
	Tail   [2 * Kinds][]Sum `json:"tail"`
}

// Kinds is the number of curves a run has (Moments' k is 1..Kinds).
const Kinds = 3

// AddRun adds one watched run's curves c1, c2 and c3 (an empty curve
// holds its value by round 0 at every round: 1 for c1 and c2, no watched
// node being informed, and late0 for c3; with fewer than three live
// nodes c2's sums are not read); capped reports that they reached
// MaxRounds without ending.
func (c *Curves) AddRun(c1, c2, c3 []float64, late0 float64, capped bool) {
	c.Runs++
	if capped {
		c.Capped++
	}
	for k, cv := range [Kinds][]float64{c1, c2, c3} {
		last := 1.0 // by round 0 no watched node is informed
		if k == 2 {
			last = late0
		}
		if len(cv) > 0 {
			last = cv[len(cv)-1]
		}
		for _, j := range []int{2 * k, 2*k + 1} {
			for len(c.Sums[j]) < len(cv) {
				c.Sums[j] = append(c.Sums[j], Sum{})
			}
			for len(c.Tail[j]) <= len(cv) {
				c.Tail[j] = append(c.Tail[j], Sum{})
			}
			sq := j%2 == 1
			for t, v := range cv {
				if sq {
					v *= v
				}
				c.Sums[j][t].Add(v)
			}
			if sq {
				c.Tail[j][len(cv)].Add(last * last)
			} else {
				c.Tail[j][len(cv)].Add(last)
			}
		}
	}
}

// Merge adds x's sums to c's.
func (c *Curves) Merge(x *Curves) {
	c.Runs += x.Runs
	c.Capped += x.Capped
	for j := range c.Sums {
		for len(c.Sums[j]) < len(x.Sums[j]) {
			c.Sums[j] = append(c.Sums[j], Sum{})
		}
		for t := range x.Sums[j] {
			c.Sums[j][t].Plus(&x.Sums[j][t])
		}
		for len(c.Tail[j]) < len(x.Tail[j]) {
			c.Tail[j] = append(c.Tail[j], Sum{})
		}
		for t := range x.Tail[j] {
			c.Tail[j][t].Plus(&x.Tail[j][t])
		}
	}
}

// Check refuses sums no sample of runs can hold: more capped runs than
// runs, more rounds than MaxRounds, and at some round a sum of values
// beyond twice the runs' count or a sum of squares beyond twice the sum
// of values (a value v in [0, 2] has v² ≤ 2v, truncations included).
func (c *Curves) Check() error {
	if c.Runs < 0 || c.Capped < 0 || c.Capped > c.Runs {
		return fmt.Errorf("curves: %d capped of %d runs", c.Capped, c.Runs)
	}
	for j := range c.Sums {
		if len(c.Sums[j]) > MaxRounds || len(c.Tail[j]) > MaxRounds+1 {
			return fmt.Errorf("curves: %d rounds, beyond %d", len(c.Sums[j]), MaxRounds)
		}
	}
	limit := new(big.Int).Lsh(big.NewInt(int64(c.Runs)), scale+1)
	for k := 1; k <= Kinds; k++ {
		for t := 1; t <= len(c.Sums[2*(k-1)])+1 && t <= MaxRounds; t++ {
			s1, s2 := c.sums(k, t)
			if s1.Cmp(limit) > 0 {
				return fmt.Errorf("curves: a sum beyond the %d runs", c.Runs)
			}
			if s2.Cmp(new(big.Int).Lsh(s1, 1)) > 0 {
				return fmt.Errorf("curves: a sum of squares beyond the sum of the values at round %d", t)
			}
		}
	}
	return nil
}

// Clone is a copy of c that shares no sums with it.
func (c *Curves) Clone() Curves {
	out := Curves{Runs: c.Runs, Capped: c.Capped}
	for j := range c.Sums {
		out.Sums[j] = append([]Sum(nil), c.Sums[j]...)
		out.Tail[j] = append([]Sum(nil), c.Tail[j]...)
	}
	return out
}

// sums are, at round t ≥ 1, the sums of the values and of their squares
// of the runs of k watched nodes (times 2²⁵⁶): the round's own sums and
// the tails of the runs whose curve ended before t.
func (c *Curves) sums(k, t int) (s1, s2 *big.Int) {
	j := 2 * (k - 1)
	sum := func(j int) *big.Int {
		var s Sum
		if t <= len(c.Sums[j]) {
			s = c.Sums[j][t-1]
		}
		for L := 0; L < t && L < len(c.Tail[j]); L++ {
			s.Plus(&c.Tail[j][L])
		}
		return s.Int()
	}
	return sum(j), sum(j + 1)
}

// Moments are, at round t ≥ 1, the mean of the runs' values and its
// standard error for k watched nodes (k = 1, 2) or the share of the
// first's that estimates the chance the level is not reached (k = 3),
// from the exact sums: m =
// S/n and se = √((S₂ − S²/n)/((n − 1)n)), S₂ − S²/n computed exactly.
// ok is false past the rounds the sums know (a run capped before t).
func (c *Curves) Moments(k, t int) (m, se float64, ok bool) {
	if c == nil || c.Runs == 0 || t < 1 || c.Capped > 0 && t > MaxRounds {
		return math.NaN(), math.NaN(), false
	}
	s1, s2 := c.sums(k, t)
	n := big.NewInt(int64(c.Runs))
	mf := new(big.Float).SetPrec(400).SetInt(s1)
	mf.Quo(mf, new(big.Float).SetMantExp(big.NewFloat(1), scale)).Quo(mf, new(big.Float).SetInt(n))
	m, _ = mf.Float64()
	if c.Runs < 2 {
		return m, 0, true
	}
	// (n·S₂·2²⁵⁶ − S²) / 2⁵¹² = n·Σ(v − m)², exactly (S scaled by 2²⁵⁶).
	num := new(big.Int).Mul(n, s2)
	num.Lsh(num, scale).Sub(num, new(big.Int).Mul(s1, s1))
	if num.Sign() < 0 {
		num.SetInt64(0) // the squares' rounding, below 2⁻⁵³ of the sum
	}
	v := new(big.Float).SetPrec(400).SetInt(num)
	v.Quo(v, new(big.Float).SetMantExp(big.NewFloat(1), 2*scale))
	nn := float64(c.Runs)
	vf, _ := v.Float64()
	return m, math.Sqrt(vf / nn / (nn - 1) / nn), true
}

// UnmarshalJSON reads a part's curves and checks them (Curves.Check).
func (c *Curves) UnmarshalJSON(b []byte) error {
	type plain Curves
	var p plain
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.DisallowUnknownFields()
	if err := d.Decode(&p); err != nil {
		return err
	}
	*c = Curves(p)
	return c.Check()
}
