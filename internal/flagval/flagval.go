// Package flagval parses the CLI's numbers and structured flag values: the
// one rule for reading a number (Int, Uint, Float: decimal integers, no
// real that underflows), integer ranges LO:HI[:STEP] and comma-separated
// lists.
//
// # Contract
//
// No function takes a context or runs long: a list or range has at most
// MaxPoints values. Int, Uint, Float, FloatRange, ParseRange and IntList
// refuse what is not of their form (a base prefix or separator in an
// integer, a real that overflows or underflows, an empty or reversed
// range, a step ≤ 0, an infinite bound, too many values, a non-positive
// list entry) with an error quoting the value (IntList's names its flag).
// The exception: a single value FloatRange does not range-check, NaN
// included: the library's field check that receives it refuses it with
// its range (--loss NaN: "valid range 0 ≤ ε < 1"). TestContract checks the
// refusals.
package flagval

import (
	"fmt"
	"strings"
)

// Range is a parsed integer range: Lo..Hi by Step.
type Range struct{ Lo, Hi, Step int }

// MaxPoints bounds the number of values one range may expand to.
const MaxPoints = 1_000_000

// ParseRange parses "V", "LO:HI" or "LO:HI:STEP" (decimal integers, see
// Int; LO ≤ HI, STEP ≥ 1, at most MaxPoints values).
func ParseRange(s string) (Range, error) { return ParseRangeIn(s, nil) }

// ParseRangeIn is ParseRange with check (if not nil) run on LO and on HI
// once the range is well formed and before its values are counted, so
// that a bound outside the flag's range is named as such ("0:1048577":
// 1048577 is outside …) rather than as too many values.
func ParseRangeIn(s string, check func(v int) error) (Range, error) {
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return Range{}, fmt.Errorf("%q: %d parts", s, len(parts))
	}
	vals := make([]int, len(parts))
	for i, p := range parts {
		v, err := Int(strings.TrimSpace(p))
		if err != nil {
			return Range{}, fmt.Errorf("%q: %w", s, err)
		}
		if v < -(1<<50) || v > 1<<50 {
			return Range{}, fmt.Errorf("%q: %d is out of range (|v| ≤ 2^50)", s, v)
		}
		vals[i] = v
	}
	r := Range{Lo: vals[0], Hi: vals[0], Step: 1}
	if len(vals) >= 2 {
		r.Hi = vals[1]
	}
	if len(vals) == 3 {
		r.Step = vals[2]
	}
	if r.Step < 1 {
		return Range{}, fmt.Errorf("%q: STEP %d < 1", s, r.Step)
	}
	if r.Hi < r.Lo {
		return Range{}, fmt.Errorf("%q: empty range (LO %d > HI %d)", s, r.Lo, r.Hi)
	}
	if check != nil {
		for _, v := range []int{r.Lo, r.Hi} {
			if err := check(v); err != nil {
				return Range{}, fmt.Errorf("%q: %w", s, err)
			}
		}
	}
	if (r.Hi-r.Lo)/r.Step+1 > MaxPoints {
		return Range{}, fmt.Errorf("%q: %d values, more than %d", s, (r.Hi-r.Lo)/r.Step+1, MaxPoints)
	}
	return r, nil
}

// Values lists the range.
func (r Range) Values() []int {
	var out []int
	for v := r.Lo; v <= r.Hi; v += r.Step {
		out = append(out, v)
	}
	return out
}

// IntList parses "a,b,c" into positive decimal integers (Int); an error
// names flagName.
func IntList(flagName, s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		v, err := Int(strings.TrimSpace(p))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%s %q: want a comma-separated list of integers ≥ 1", flagName, s)
		}
		out = append(out, v)
	}
	return out, nil
}
