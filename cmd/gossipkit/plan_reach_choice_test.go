package main

import (
	"regexp"
	"strings"
	"testing"
)

// Where the model informs every live node eventually (push without a
// budget, pull, push–pull: peers are drawn afresh each round and a message
// is lost with probability ε < 1), P(reach) is 1 exactly, and the table
// prints "1 (exact)". The Fastest/Cheapest line must not print the exact
// chain's rounding shortfall as a distance from 1: at N = 8, fanout 2 the
// chain's sum fell 1.55e-15 short and the line read "P(reach) 1 − 1.55e-15",
// far below the chain's own stated accuracy (every probability within
// about 1e-13), a number that is only rounding noise.
func TestPlanChoiceReachExactWhereSure(t *testing.T) {
	t.Parallel()
	noise := regexp.MustCompile(`P\(reach\) 1 − [0-9.]+e-1[0-9]`)
	for _, args := range [][]string{
		{"plan", "--protocol", "push", "-N", "8", "--fanout", "2"},
		{"plan", "--protocol", "pull", "-N", "8", "--fanout", "2"},
		{"plan", "--protocol", "push", "-N", "100", "--loss", "0.2"},
	} {
		out, errOut, code := runCLI(t, nil, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if !strings.Contains(out, "1 (exact)") {
			t.Fatalf("%v: the table no longer says P(reach) is 1 (exact):\n%s", args, out)
		}
		if m := noise.FindString(out); m != "" {
			t.Errorf("%v: the choice line prints rounding noise %q where P(reach) is 1 exactly", args, m)
		}
	}
}
