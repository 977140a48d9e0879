package tree

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// The range Validate states for FailFraction when too few nodes would be
// left must be the range it accepts: f is accepted when N − round(f·N) ≥ 2,
// that is when f·N < N − 1.5 (math.Round rounds halves away from zero), so
// the valid range is [0, (N − 1.5)/N); with N < 2 no f > 0 is accepted and
// the message must say 0 only, never a range whose upper end is negative.
func TestFailFractionRangeStated(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 10, 101} {
		// The largest f of the form k/(4N) that Validate accepts and the
		// smallest it refuses, found by scanning (independent of the
		// message's formula).
		var lastOK, firstBad = -1.0, math.NaN()
		for k := 0; k < 4*n; k++ {
			f := float64(k) / float64(4*n)
			err := Config{Nodes: n, Degree: 2, FailFraction: f}.Validate()
			if err == nil {
				lastOK = f
				continue
			}
			if math.IsNaN(firstBad) {
				firstBad = f
			}
		}
		err := Config{Nodes: n, Degree: 2, FailFraction: firstBad}.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) {
			t.Fatalf("N = %d, f = %g: %v, want a *FieldError", n, firstBad, err)
		}
		msg := fe.Error()
		if n < 2 {
			if lastOK != 0 || !strings.Contains(msg, "only 0") {
				t.Errorf("N = %d: last accepted %g; message %q, want it to say only 0 is valid", n, lastOK, msg)
			}
			continue
		}
		want := fmt.Sprintf("valid range [0, %g)", (float64(n)-1.5)/float64(n))
		if !strings.Contains(msg, want) {
			t.Errorf("N = %d: message %q, want %q", n, msg, want)
		}
		// The stated end lies between the last accepted and the first
		// refused fraction of the scan.
		if end := (float64(n) - 1.5) / float64(n); !(lastOK < end && end <= firstBad) {
			t.Errorf("N = %d: stated end %g not in (%g, %g]", n, end, lastOK, firstBad)
		}
	}
}
