package main

import (
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/sim"
)

// Inputs that once crashed, hung, ran out of memory or were accepted and
// then failed (a panicking figure, a torus radius that asked for a grid of
// 10^20 cells, 10^7 rounds held in memory, …), run in-process in
// milliseconds, with the contract's answer: exit 2 and one line naming the flag, or a
// success. (Write errors, special files, signals and merge have their own
// tests: output_test.go, signal_test.go, merge_reliab_test.go.)
func TestReliabilityReproductions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string // in the one line on stderr (exit 2)
	}{
		{[]string{"plot", "fig4", "--cs", "250", "--ss", "300", "--n-max", "400"}, 2, "no curve"},
		{[]string{"plot", "fig4", "--cs", "5", "--ss", "10", "--n-max", "100"}, 2, "no curve"},
		{[]string{"plot", "fig4", "--ss", "6000"}, 2, "--ss"},
		{[]string{"plot", "fig4", "--cs", "5000,6000", "--ss", "1", "--n-max", "100"}, 2, "no curve"},
		{[]string{"plot", "fig4", "--n-max", "10"}, 2, "no curve"},
		{[]string{"plot", "fig4", "--cs", "1000000", "--n-max", "3000"}, 2, "no curve"},
		{[]string{"plot", "fig4", "--reps", "0"}, 2, "--reps"},
		{[]string{"chain", "--initial", "0"}, 2, "--initial"},
		{[]string{"sim", "-N", "100", "--topology", "torus:0.00001"}, 2, "--topology"},
		{[]string{"sim", "-N", "100", "--topology", "torus:1e-10"}, 2, "--topology"},
		{[]string{"sim", "-N", "2", "-n", "2", "-c", "1", "-s", "1", "--warmup", "0", "--rounds", "10000000", "--reps", "1"}, 2, "--rounds"},
		{[]string{"ode", "--rtol", "1e-300", "--atol", "0"}, 2, "--rtol"},
		{[]string{"sim", "--shards", "3"}, 2, "--shards"},
		{[]string{"tree", "sweep", "-N", "5"}, 2, "-N"},
		{[]string{"tree", "sweep", "--shard", "1/2"}, 2, "--shard"},
		{[]string{"tree", "sweep", "--format", "csv"}, 2, "--format"},
		{[]string{"tree", "sweep", "-o", "x"}, 2, "-o"},
		{[]string{"tree", "build", "-N", "1", "--seeds", "1"}, 0, ""},
		{[]string{"help", "help"}, 0, ""},
		// All nodes covered at t = 0 (the integrator started at z = +Inf
		// and exited 1 with NaN).
		{[]string{"ode", "-N", "2", "--initial", "2", "--t-max", "3"}, 0, ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			if tc.code == 2 {
				expectUsage(t, nil, tc.args, tc.want)
				return
			}
			if out, errOut, code := runCLI(t, nil, tc.args...); code != 0 || out == "" {
				t.Errorf("exit %d, stdout %d bytes, stderr %q", code, len(out), errOut)
			}
		})
	}
	// regular:19998 at N = 20000 needs about 48 GiB to build its graph:
	// refused on any machine with less available.
	if avail := sim.AvailableMemory(); avail > 0 && avail < 47<<30 {
		expectUsage(t, nil, []string{"sim", "-N", "20000", "--topology", "regular:19998"}, "--topology")
	}
}
