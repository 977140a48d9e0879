package flagval

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The one rule for numbers on the command line, shared by every integer
// flag (the cli package routes them all through Int and Uint), every range
// and list of integers, and the server's limits (internal/serve reads a
// query's number with the same functions, so that its bound holds on the
// value the command will use):
//
//   - An integer is written in decimal: an optional sign, then the digits
//     0–9. A leading zero is a decimal zero (-N 010 is ten, never octal
//     eight); base prefixes (0x, 0o, 0b) and digit separators (1_000) are
//     refused, with the decimal value a prefixed number stands for.
//   - A real number is written in decimal too: an optional sign, digits
//     with an optional point, an optional exponent (1e-6, 2.5E+3, .5), or
//     the words NaN and Inf (which the fields' ranges refuse). Go's hex
//     floats (0x1p-20) and digit separators (1_000.5), which
//     strconv.ParseFloat would read, are refused with their decimal value,
//     as integers are. A non-zero literal whose value underflows to 0 or
//     to a subnormal number (below 2.2e-308, where float64 keeps fewer
//     than 53 bits) is refused rather than read as 0, so that a message
//     never echoes a value the user did not type; a value beyond ±1.8e308
//     is refused too.

// SmallestNormal is the smallest positive normal float64, 2^−1022 ≈ 2.2e-308.
const SmallestNormal = 0x1p-1022

// ErrNotDecimal is the cause of a refused integer written with a base
// prefix or digit separators.
var ErrNotDecimal = errors.New("integers are written in decimal digits")

// ErrNotDecimalReal is the cause of a refused real number written as a hex
// float or with digit separators.
var ErrNotDecimalReal = errors.New("numbers are written in decimal notation")

// Int reads s as a decimal integer of type int (see the rule above).
func Int(s string) (int, error) {
	v, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err == nil {
		return int(v), nil
	}
	return 0, intError(s, err, false)
}

// Uint reads s as a decimal whole number of type uint64 (see the rule
// above): an optional +, then the digits.
func Uint(s string) (uint64, error) {
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, 64)
	if err == nil {
		return v, nil
	}
	return 0, intError(s, err, true)
}

// intError explains why s is not a decimal integer: out of range, written
// in another base or with separators (with its decimal value), or no
// integer at all.
func intError(s string, err error, unsigned bool) error {
	switch {
	case errors.Is(err, strconv.ErrRange) && unsigned:
		return fmt.Errorf("%q: beyond the largest value, %d", s, uint64(math.MaxUint64))
	case errors.Is(err, strconv.ErrRange):
		return fmt.Errorf("%q: beyond the integer range ±%d", s, math.MaxInt)
	case notDecimal(s):
		if v, err := strconv.ParseInt(s, 0, 64); err == nil && !(unsigned && v < 0) {
			return fmt.Errorf("%q: %w (write %d)", s, ErrNotDecimal, v)
		}
		v, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 0, 64)
		switch {
		case err == nil && unsigned:
			return fmt.Errorf("%q: %w (write %d)", s, ErrNotDecimal, v)
		case err == nil || errors.Is(err, strconv.ErrRange):
			return fmt.Errorf("%q: %w, and it is beyond the integer range", s, ErrNotDecimal)
		}
		return fmt.Errorf("%q: %w", s, ErrNotDecimal)
	case unsigned:
		return fmt.Errorf("%q: not a whole number ≥ 0 (decimal digits)", s)
	}
	return fmt.Errorf("%q: not an integer (decimal digits)", s)
}

// notDecimal reports whether s is written with a base prefix (0x, 0o, 0b)
// or a digit separator (_).
func notDecimal(s string) bool {
	t := strings.ToLower(strings.TrimLeft(s, "+-"))
	return strings.Contains(s, "_") || strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0o") || strings.HasPrefix(t, "0b")
}

// Float reads s as a real number (see the rule above): decimal notation
// read by strconv.ParseFloat, refusing a hex float or a digit separator,
// an overflow and a non-zero literal that underflows to 0 or to a
// subnormal value. NaN and ±Inf written as such pass (the field's check
// refuses them with its range).
func Float(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case notDecimal(s) && err == nil:
		return 0, fmt.Errorf("%q: %w (write %s)", s, ErrNotDecimalReal, strconv.FormatFloat(v, 'g', -1, 64))
	case notDecimal(s):
		// A hex integer without the float's p exponent (0x10).
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			return 0, fmt.Errorf("%q: %w (write %d)", s, ErrNotDecimalReal, i)
		}
		return 0, fmt.Errorf("%q: %w", s, ErrNotDecimalReal)
	case errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0):
		return 0, fmt.Errorf("%q: beyond the largest number, %g", s, math.MaxFloat64)
	case err != nil:
		return 0, fmt.Errorf("%q: not a number", s)
	case v != 0 && math.Abs(v) < SmallestNormal, v == 0 && nonZero(s):
		return 0, fmt.Errorf("%q: below the smallest number a float64 holds in full, 2.2e-308 (it would be read as %g)", s, v)
	}
	return v, nil
}

// nonZero reports whether the literal s, which ParseFloat accepted, has a
// non-zero digit in its significand (before any exponent); s is decimal.
func nonZero(s string) bool {
	for _, c := range strings.TrimLeft(s, "+-") {
		switch {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}
