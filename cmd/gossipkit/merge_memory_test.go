package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/report"
)

// peakOf runs the command in a child process (the test binary as
// gossipkit) and returns its peak resident memory since its exec (VmHWM,
// read by the child itself as it exits), or skips where there is no /proc.
func peakOf(t *testing.T, args ...string) float64 {
	t.Helper()
	status := filepath.Join(t.TempDir(), "status")
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GOSSIPKIT_AS_MAIN=1", "GOSSIPKIT_PEAK_FILE="+status)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v: %.300s", args, err, out)
	}
	b, err := os.ReadFile(status)
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, err := strconv.ParseFloat(f[1], 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	t.Skip("no VmHWM")
	return 0
}

// TestMergeMemory: merge's estimate (report.MergeMemoryEstimate, 6 times
// the parts' JSON plus 16 MiB) against the peak resident memory of a
// merge run alone, less that of a command that does nothing (version):
// the peak within 1.5 times the estimate plus 8 MB, and the estimate not
// beyond 3 times the peak plus 32 MB. Measured on this machine (parts of
// 2 shards each): sim Markov N 10, 4,000 replications of 400 rounds; the
// broadcast, push N 100, 200,000 replications; tree build N 100, 2,000
// seeds (figures in the log). Then --max-memory below the estimate is
// refused before any part is read.
func TestMergeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs shards and merges in child processes")
	}
	dir := t.TempDir()
	base := peakOf(t, "version")
	t.Logf("a command that does nothing: %.1f MB", base/1e6)
	for _, tc := range []struct {
		name string
		run  []string
	}{
		{"sim", []string{"sim", "--model", "markov", "-N", "10", "-n", "40", "-c", "10", "-s", "5", "--rounds", "400", "--reps", "4000"}},
		{"broadcast", []string{"plan", "--protocol", "push", "-N", "100", "--fanout", "2", "--method", "mc", "--reps", "200000"}},
		{"tree", []string{"tree", "build", "-N", "100", "--seeds", "2000"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parts := filepath.Join(dir, tc.name) + "/"
			for _, id := range []string{"1/2", "2/2"} {
				expectOK(t, nil, append(tc.run, "--shard", id, "-o", parts)...)
			}
			files, _ := filepath.Glob(parts + "*.gkpart")
			est, err := report.MergeMemoryEstimate(files)
			if err != nil {
				t.Fatal(err)
			}
			net := peakOf(t, "merge", parts, "-o", filepath.Join(dir, tc.name+".out")) - base
			e := float64(est)
			t.Logf("estimate %.1f MB, peak %.1f MB beyond the runtime's (ratio %.2f)", e/1e6, net/1e6, e/net)
			if net > 1.5*e+8e6 || e > 3*net+32e6 {
				t.Errorf("estimate %.1f MB against a peak of %.1f MB: want the peak within 1.5× the estimate plus 8 MB, the estimate within 3× the peak plus 32 MB", e/1e6, net/1e6)
			}
			expectUsage(t, nil, []string{"merge", parts, "--max-memory", strconv.FormatUint(est-1, 10), "-o", filepath.Join(dir, "refused")}, "needs about")
			if _, err := os.Stat(filepath.Join(dir, "refused")); !os.IsNotExist(err) {
				t.Errorf("refused merge wrote its output (%v)", err)
			}
		})
	}
}
