package main

import (
	"strings"
	"testing"
)

// TestNewUserBadInput: the bad input a new user types (issue 40's
// adversarial pass), each refused before any work with exit 2, nothing on
// stdout and one line on stderr that names the flag and states its valid
// range or syntax. Before the fixes: -N 0x10 ran with N = 16 (and -N 010
// with N = 8), --max-miss 1e-400 was echoed as "--max-miss 0", --budget
// 24:8 said "empty range (hi < lo)" with no range, -o "" wrote to standard
// output, --out "" failed with "stat : no such file or directory",
// --max-memory 1KB was echoed as "0 KiB", and 0.5 read as 0, the default.
func TestNewUserBadInput(t *testing.T) {
	push := []string{"plan", "--protocol", "push", "-N", "1000", "--fanout", "3", "--budget", "16"}
	with := func(base []string, extra ...string) []string {
		return append(append([]string{}, base...), extra...)
	}
	sim := []string{"sim", "-N", "100", "-n", "40", "-c", "10", "-s", "5", "--reps", "2", "--rounds", "3", "--warmup", "0"}
	for _, tc := range []struct {
		name string
		args []string
		want []string // fragments of the one line, in order
	}{
		// 1. Integers are decimal: a base prefix or separator is refused
		// with the decimal value it stands for, on every kind of integer
		// flag (int, alias, uint64 seed, range, list, the server's own).
		{"hex N", []string{"plan", "--protocol", "push", "-N", "0x10"}, []string{`-N "0x10": integers are written in decimal digits (write 16)`, "valid range 2..2^40"}},
		{"octal N", []string{"plan", "-N", "0o17"}, []string{`-N "0o17"`, "(write 15)"}},
		{"binary N =form", []string{"plan", "-N=0b11"}, []string{`-N "0b11"`, "(write 3)"}},
		{"separator N", []string{"plan", "-N", "1_000"}, []string{`-N "1_000"`, "(write 1000)"}},
		{"N beyond int64", []string{"plan", "-N", "99999999999999999999"}, []string{`-N "99999999999999999999": beyond the integer range`, "valid range 2..2^40"}},
		{"N at int64 max", []string{"plan", "-N", "9223372036854775807"}, []string{"-N 9223372036854775807", "2^40"}},
		{"tree alias hex", []string{"tree", "fail", "--nodes", "0x10"}, []string{`--nodes "0x10"`, "(write 16)"}},
		{"sim reps hex", with(sim[:len(sim)-6], "--reps", "0x3e8"), []string{`--reps "0x3e8"`, "(write 1000)"}},
		{"seed hex", with(sim, "--seed", "0x10"), []string{`--seed "0x10"`, "(write 16)"}},
		{"seed negative", with(sim, "--seed", "-1"), []string{`--seed "-1": not a whole number ≥ 0`}},
		{"budget range hex", with(push[:7], "--budget", "0x10:0x20"), []string{`--budget "0x10:0x20"`, "(write 16)", "valid range 0..1048576"}},
		{"list hex", []string{"plot", "fig4", "--cs", "0x10,250"}, []string{`--cs "0x10,250"`}},
		{"workers hex", with(sim, "--workers", "0x4"), []string{`--workers "0x4"`, "(write 4)", "valid range 1..4096"}},
		{"serve slots hex", []string{"serve", "--slots", "0x10"}, []string{`--slots "0x10"`, "(write 16)"}},
		// 2. A real that underflows (to 0 or to a subnormal) or overflows
		// is refused as typed, never echoed as 0.
		{"max-miss underflow", with(push, "--max-miss", "1e-400"), []string{`--max-miss "1e-400": below the smallest number`, "(it would be read as 0)", "valid range (0, 1)"}},
		{"max-miss subnormal", with(push, "--max-miss", "4e-320"), []string{`--max-miss "4e-320"`, "valid range (0, 1)"}},
		{"max-miss overflow", with(push, "--max-miss", "1e400"), []string{`--max-miss "1e400": beyond the largest number`}},
		{"loss underflow", []string{"plan", "--loss", "1e-400"}, []string{`--loss "1e-400": below the smallest number`}},
		{"loss grid underflow", []string{"plan", "--loss", "0:1e-400:0.1", "--deadline", "9"}, []string{`--loss "0:1e-400:0.1"`, "below the smallest number"}},
		{"ode dt underflow", []string{"ode", "--dt", "1e-400"}, []string{`--dt "1e-400"`}},
		// Reals are decimal too: a hex float or a separator, which Go's
		// strconv.ParseFloat reads, is refused with its decimal value
		// (0x1p-4 = 1/16 = 0.0625).
		{"loss hex float", []string{"plan", "--protocol", "push", "--loss", "0x1p-4"}, []string{`--loss "0x1p-4": numbers are written in decimal notation (write 0.0625)`}},
		{"max-miss separator", with(push, "--max-miss", "0.000_001"), []string{`--max-miss "0.000_001": numbers are written in decimal notation (write 1e-06)`, "valid range (0, 1)"}},
		{"loss grid hex", []string{"plan", "--loss", "0:0x1p-1:0.1", "--deadline", "9"}, []string{`--loss "0:0x1p-1:0.1"`, "(write 0.5)"}},
		{"max-memory hex", with(sim, "--max-memory", "0x1p30B"), []string{`--max-memory "0x1p30B"`}},
		// 3. A bad range names the flag, what is wrong, the syntax and the
		// flag's valid range; a bound past the range is named as such, not
		// as too many values.
		{"budget reversed", with(push[:7], "--budget", "24:8"), []string{`--budget "24:8": empty range (LO 24 > HI 8)`, "LO:HI[:STEP]", "valid range 0..1048576"}},
		{"fanout reversed", []string{"plan", "--protocol", "push", "--fanout", "5:2"}, []string{`--fanout "5:2": empty range (LO 5 > HI 2)`, "valid range 1 ≤ k < the live nodes"}},
		{"budget past max", with(push[:7], "--budget", "0:1048577"), []string{`--budget "0:1048577": 1048577 is out of range`, "valid range 0..1048576"}},
		{"budget step 0", with(push[:7], "--budget", "16:40:0"), []string{`--budget "16:40:0": STEP 0 < 1`, "valid range 0..1048576"}},
		{"budget 4 parts", with(push[:7], "--budget", "1:2:3:4"), []string{`--budget "1:2:3:4"`, "LO:HI[:STEP]"}},
		{"both reversed", []string{"plan", "--protocol", "push", "--fanout", "5:2", "--budget", "24:8"}, []string{`--fanout "5:2"`}},
		{"pdrop s reversed", []string{"pdrop", "-n", "7", "-c", "4", "-s", "3:1"}, []string{`-s "3:1": empty range`, "valid range 1 ≤ s ≤ c, s < n"}},
		// 4. An empty path is refused rather than read as "not given".
		{"o empty", with(push, "-o", ""), []string{`-o "": empty; give a file name`}},
		{"o= empty", with(push, "-o="), []string{`-o "": empty`}},
		{"reproduce out empty", []string{"reproduce", "--out", "", "--scale", "smoke"}, []string{`--out "": empty; give a folder name`}},
		{"reproduce merge empty", []string{"reproduce", "--merge", ""}, []string{`--merge "": empty`}},
		{"reproduce o empty", []string{"reproduce", "-o", "", "--shard", "1/2"}, []string{`-o "": empty`}},
		{"plot out empty", []string{"plot", "fig4", "--out", ""}, []string{`--out "": empty`}},
		{"sim shard empty", with(sim, "--shard", ""), []string{`--shard "": empty; give I/M`}},
		// 5. --max-memory below 1 MiB (other than 0) is refused as typed.
		{"max-memory 1KB", with(sim, "--max-memory", "1KB"), []string{`--max-memory "1KB": below 1 MiB`, "valid range 1MiB or more, or 0"}},
		{"max-memory 0.5", with(sim, "--max-memory", "0.5"), []string{`--max-memory "0.5": below 1 MiB`}},
		{"max-memory 1 MiB less a byte", with(sim, "--max-memory", "1048575B"), []string{`--max-memory "1048575B"`}},
		{"max-memory underflow", with(sim, "--max-memory", "1e-400MB"), []string{`--max-memory "1e-400MB"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, nil, tc.args...)
			line := strings.TrimSuffix(errOut, "\n")
			ok := code == 2 && out == "" && strings.Count(errOut, "\n") == 1
			rest := line
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					ok = false
					break
				}
				rest = rest[i+len(w):]
			}
			if !ok {
				t.Errorf("%q: exit %d, stdout %d bytes, stderr %q; want exit 2, no stdout, one line with %q", tc.args, code, len(out), errOut, tc.want)
			}
		})
	}
}

// TestDecimalIsTheRule: a leading zero is decimal, so plan -N 010 gives
// the output of -N 10 byte for byte and not that of -N 8 (octal 010, which
// the flag package read before); the same for a uint64 seed, and for
// pdrop's ranges, which were decimal already (the rule is one for all).
// --max-memory 1MiB and 0 (the default) are accepted.
func TestDecimalIsTheRule(t *testing.T) {
	sim := []string{"sim", "-N", "50", "-n", "40", "-c", "10", "-s", "5", "--reps", "2", "--rounds", "3", "--warmup", "0", "--format", "csv"}
	for _, tc := range []struct {
		name            string
		got, same, diff []string
	}{
		{"plan -N", []string{"plan", "--protocol", "push", "-N", "010", "--fanout", "3", "--format", "csv"}, []string{"plan", "--protocol", "push", "-N", "10", "--fanout", "3", "--format", "csv"}, []string{"plan", "--protocol", "push", "-N", "8", "--fanout", "3", "--format", "csv"}},
		{"pdrop -n", []string{"pdrop", "-n", "010", "-c", "4", "-s", "2"}, []string{"pdrop", "-n", "10", "-c", "4", "-s", "2"}, []string{"pdrop", "-n", "8", "-c", "4", "-s", "2"}},
		{"pdrop range", []string{"pdrop", "-n", "08:010", "-c", "4", "-s", "2"}, []string{"pdrop", "-n", "8:10", "-c", "4", "-s", "2"}, []string{"pdrop", "-n", "8:8", "-c", "4", "-s", "2"}},
		{"sim seed", append(append([]string{}, sim...), "--seed", "010"), append(append([]string{}, sim...), "--seed", "10"), append(append([]string{}, sim...), "--seed", "8")},
		{"sim max-memory", append(append([]string{}, sim...), "--max-memory", "1MiB"), append(append([]string{}, sim...), "--max-memory", "0"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, errOut, code := runCLI(t, nil, tc.got...)
			if code != 0 {
				t.Fatalf("%q: exit %d: %s", tc.got, code, errOut)
			}
			if same, _, _ := runCLI(t, nil, tc.same...); got != same {
				t.Errorf("%q differs from %q", tc.got, tc.same)
			}
			if tc.diff != nil {
				if diff, _, _ := runCLI(t, nil, tc.diff...); got == diff {
					t.Errorf("%q equals %q: the reading cannot be told apart", tc.got, tc.diff)
				}
			}
		})
	}
}
