package flagval

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FloatRange parses "V" or "LO:HI:STEP" (numbers, LO ≤ HI, STEP > 0, at
// most MaxPoints values) into its values LO, LO+STEP, … ≤ HI. Each value
// is LO + i·STEP rounded to 12 significant digits, so that 0:0.3:0.1 gives
// 0.3, not 0.30000000000000004, and HI is included when the grid meets it
// within that rounding.
func FloatRange(s string) ([]float64, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 1 && len(parts) != 3 {
		return nil, fmt.Errorf("%q: want V or LO:HI:STEP", s)
	}
	vals := make([]float64, len(parts))
	for i, p := range parts {
		v, err := Float(strings.TrimSpace(p))
		switch {
		case err != nil && len(parts) == 1:
			return nil, err
		case err != nil:
			return nil, fmt.Errorf("%q: %w", s, err)
		case math.IsInf(v, 0):
			return nil, fmt.Errorf("%q: %q is not a finite number", s, p)
		}
		vals[i] = v
	}
	if len(vals) == 1 {
		return vals, nil
	}
	lo, hi, step := vals[0], vals[1], vals[2]
	switch {
	case math.IsNaN(lo) || math.IsNaN(hi) || !(step > 0):
		return nil, fmt.Errorf("%q: want LO ≤ HI and STEP > 0", s)
	case hi < lo:
		return nil, fmt.Errorf("%q: empty range (hi < lo)", s)
	}
	n := math.Floor((hi-lo)/step*(1+1e-12)) + 1
	if n > MaxPoints {
		return nil, fmt.Errorf("%q: more than %d values", s, MaxPoints)
	}
	out := make([]float64, int(n))
	for i := range out {
		out[i], _ = strconv.ParseFloat(strconv.FormatFloat(lo+float64(i)*step, 'g', 12, 64), 64)
	}
	return out, nil
}
