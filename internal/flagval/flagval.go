// Package flagval parses the CLI's structured flag values: integer ranges
// LO:HI[:STEP] and comma-separated lists.
//
// # Contract
//
// No function takes a context or runs long: a list or range has at most
// MaxPoints values. FloatRange, ParseRange and IntList refuse what is not
// of their form (an empty or reversed range, a step ≤ 0, an infinite
// bound, too many values, a non-positive list entry) with an error quoting
// the value (IntList's names its flag). The exception: a single value
// FloatRange does not range-check, NaN included: the library's field
// check that receives it refuses it with its range (--loss NaN: "valid
// range 0 ≤ ε < 1"). TestContract checks the refusals.
package flagval

import (
	"fmt"
	"strconv"
	"strings"
)

// Range is a parsed integer range: Lo..Hi by Step.
type Range struct{ Lo, Hi, Step int }

// MaxPoints bounds the number of values one range may expand to.
const MaxPoints = 1_000_000

// ParseRange parses "V", "LO:HI" or "LO:HI:STEP" (integers, LO ≤ HI,
// STEP ≥ 1, at most MaxPoints values).
func ParseRange(s string) (Range, error) {
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return Range{}, fmt.Errorf("%q: want V, LO:HI or LO:HI:STEP", s)
	}
	vals := make([]int, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return Range{}, fmt.Errorf("%q: %q is not an integer", s, p)
		}
		if v < -(1<<50) || v > 1<<50 {
			return Range{}, fmt.Errorf("%q: %d is out of range (|v| ≤ 2^50)", s, v)
		}
		vals[i] = int(v)
	}
	r := Range{Lo: vals[0], Hi: vals[0], Step: 1}
	if len(vals) >= 2 {
		r.Hi = vals[1]
	}
	if len(vals) == 3 {
		r.Step = vals[2]
	}
	if r.Step < 1 {
		return Range{}, fmt.Errorf("%q: step must be ≥ 1", s)
	}
	if r.Hi < r.Lo {
		return Range{}, fmt.Errorf("%q: empty range (hi < lo)", s)
	}
	if (r.Hi-r.Lo)/r.Step+1 > MaxPoints {
		return Range{}, fmt.Errorf("%q: more than %d values", s, MaxPoints)
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

// IntList parses "a,b,c" into positive integers; an error names flagName.
func IntList(flagName, s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%s %q: want a comma-separated list of integers ≥ 1", flagName, s)
		}
		out = append(out, v)
	}
	return out, nil
}
