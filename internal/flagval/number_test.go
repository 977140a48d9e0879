package flagval

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestInt: integers are decimal. The values are written out by hand: 010
// is ten in decimal (eight in octal, which the flag package read before);
// 0x10 = 16, 0o17 = 15, 0b101 = 5, 1_000 = 1000 are refused with their
// decimal value; 2^63 − 1 = 9223372036854775807 is the largest int64.
func TestInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		err  string // "" when accepted
	}{
		{"010", 10, ""},
		{"0", 0, ""},
		{"-0", 0, ""},
		{"+12", 12, ""},
		{"-7", -7, ""},
		{"9223372036854775807", math.MaxInt, ""},
		{"-9223372036854775808", math.MinInt, ""},
		{"0x10", 0, `"0x10": integers are written in decimal digits (write 16)`},
		{"0X10", 0, "(write 16)"},
		{"-0x10", 0, "(write -16)"},
		{"0o17", 0, "(write 15)"},
		{"0b101", 0, "(write 5)"},
		{"1_000", 0, "(write 1000)"},
		{"0x8000000000000000", 0, "beyond the integer range"},
		{"9223372036854775808", 0, "beyond the integer range ±9223372036854775807"},
		{"1e3", 0, "not an integer"},
		{"1.0", 0, "not an integer"},
		{"", 0, "not an integer"},
		{" 1", 0, "not an integer"},
		{"0x", 0, "integers are written in decimal digits"},
	} {
		got, err := Int(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("Int(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Int(%q) = %d, %v; want an error containing %q", tc.in, got, err, tc.err)
		}
	}
	if _, err := Int("0x10"); !errors.Is(err, ErrNotDecimal) {
		t.Errorf("Int(0x10): %v is not ErrNotDecimal", err)
	}
}

// TestUint: seeds are decimal whole numbers; 2^64 − 1 =
// 18446744073709551615 is the largest.
func TestUint(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		err  string
	}{
		{"010", 10, ""},
		{"+3", 3, ""},
		{"18446744073709551615", math.MaxUint64, ""},
		{"18446744073709551616", 0, "beyond the largest value"},
		{"-1", 0, "not a whole number ≥ 0"},
		{"0x10", 0, "(write 16)"},
		{"0xffffffffffffffff", 0, "(write 18446744073709551615)"},
		{"-0x1", 0, "integers are written in decimal digits"},
		{"++3", 0, "not a whole number"},
	} {
		got, err := Uint(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("Uint(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Uint(%q) = %d, %v; want an error containing %q", tc.in, got, err, tc.err)
		}
	}
}

// TestFloat: a non-zero literal below 2^−1022 ≈ 2.2250738585072014e-308
// (the smallest normal float64) is refused, whether it rounds to 0
// (1e-400) or to a subnormal (4e-320, 2^−1074 ≈ 4.9e-324); zero written
// any way and the smallest normal itself pass; beyond 1.8e308 is refused.
func TestFloat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		err  string
	}{
		{"0", 0, ""},
		{"0e-400", 0, ""},
		{"-0.000", 0, ""},
		{"2.2250738585072014e-308", 0x1p-1022, ""},
		{".5", 0.5, ""},
		{"+2.5E+3", 2500, ""},
		{"1e-300", 1e-300, ""},
		{"0.25", 0.25, ""},
		{"1e-400", 0, "below the smallest number a float64 holds in full"},
		{"-1e-400", 0, "below the smallest"},
		{"4e-320", 0, "(it would be read as 4e-320)"},
		{"5e-324", 0, "below the smallest"},
		{"1e-330", 0, "(it would be read as 0)"},
		// Hex floats and digit separators, which strconv.ParseFloat reads
		// (0x1p-20 = 2^−20 = 9.5367431640625e-07; 0x10 = 16), are refused
		// with the decimal value, as for integers.
		{"0x1p-20", 0, `"0x1p-20": numbers are written in decimal notation (write 9.5367431640625e-07)`},
		{"-0X10", 0, "(write -16)"},
		{"1_000.5", 0, "(write 1000.5)"},
		{"0x1p-1100", 0, "numbers are written in decimal notation"},
		{"0x0p-2000", 0, "(write 0)"},
		{"1__0", 0, "numbers are written in decimal notation"},
		{"0.0000e-1000001", 0, ""}, // zero significand
		{"1e400", 0, "beyond the largest number"},
		{"-1e400", 0, "beyond the largest number"},
		{"x", 0, "not a number"},
	} {
		got, err := Float(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("Float(%q) = %g, %v; want %g", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Float(%q) = %g, %v; want an error containing %q", tc.in, got, err, tc.err)
		}
	}
	// NaN and ±Inf written as such pass: the field's check refuses them with its range.
	for _, s := range []string{"NaN", "Inf", "-Inf"} {
		if _, err := Float(s); err != nil {
			t.Errorf("Float(%q): %v", s, err)
		}
	}
}

// TestRangeDecimal: ranges and lists read their integers by the same rule
// (010 is ten; 0x10 refused), and ParseRangeIn names a bound outside the
// check before counting the values: 0:1048577 has 1048578 values, more than
// MaxPoints, but its HI is what is wrong.
func TestRangeDecimal(t *testing.T) {
	if r, err := ParseRange("08:010"); err != nil || r.Lo != 8 || r.Hi != 10 {
		t.Errorf("ParseRange(08:010) = %+v, %v; want 8..10", r, err)
	}
	if _, err := ParseRange("0x10:0x20"); err == nil || !strings.Contains(err.Error(), "(write 16)") {
		t.Errorf("ParseRange(0x10:0x20): %v", err)
	}
	if l, err := IntList("--ns", "010,20"); err != nil || l[0] != 10 {
		t.Errorf("IntList(010,20) = %v, %v", l, err)
	}
	if _, err := IntList("--ns", "0x10"); err == nil {
		t.Error("IntList(0x10) accepted")
	}
	check := func(v int) error {
		if v > 1048576 {
			return errors.New("out of range")
		}
		return nil
	}
	if _, err := ParseRangeIn("0:1048577", check); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("ParseRangeIn(0:1048577): %v, want the bound's error", err)
	}
	if _, err := ParseRangeIn("0:1048576", check); err == nil || !strings.Contains(err.Error(), "1048577 values") {
		t.Errorf("ParseRangeIn(0:1048576): %v, want too many values (1048577)", err)
	}
}
