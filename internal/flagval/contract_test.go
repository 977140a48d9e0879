package flagval

import (
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: a value that is not a
// list or range of the stated form is refused with an error, never a panic
// or a list of unbounded length.
func TestContract(t *testing.T) {
	var calls []probe.Refusal
	for _, s := range []string{"", "x", "1:0", "0:1:0", "0:1:-1", "NaN:1:0.1", "Inf", "0:Inf:1", "0:1e300:1e-300", "1:2:3:4"} {
		calls = append(calls, probe.Refusal{Name: "FloatRange " + s, Call: func() error { _, err := FloatRange(s); return err }})
	}
	for _, s := range []string{"", "x", "2:1", "1:5:0", "0:9223372036854775807", "1.5"} {
		calls = append(calls, probe.Refusal{Name: "ParseRange " + s, Call: func() error { _, err := ParseRange(s); return err }})
	}
	for _, s := range []string{"", "0", "-1", "1,,2", "x", "99999999999999999999"} {
		calls = append(calls, probe.Refusal{Name: "IntList " + s, Want: "--n", Call: func() error { _, err := IntList("--n", s); return err }})
	}
	for _, s := range []string{"", "0x10", "010x", "1_0", "1e3", "9223372036854775808"} {
		calls = append(calls, probe.Refusal{Name: "Int " + s, Call: func() error { _, err := Int(s); return err }})
	}
	for _, s := range []string{"", "-1", "0x10", "18446744073709551616"} {
		calls = append(calls, probe.Refusal{Name: "Uint " + s, Call: func() error { _, err := Uint(s); return err }})
	}
	for _, s := range []string{"", "x", "1e-400", "4e-320", "1e400"} {
		calls = append(calls, probe.Refusal{Name: "Float " + s, Call: func() error { _, err := Float(s); return err }})
	}
	probe.Refuses(t, 0, calls...)
}
