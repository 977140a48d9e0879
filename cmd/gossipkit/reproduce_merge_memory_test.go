package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gossipkit/gossipkit/report"
)

// TestReproduceMergeMemory: reproduce --merge's estimate
// (report.MergeDirMemoryEstimate: 6 times the parts' JSON plus 16 MiB, as
// merge's, plus the report's own report.ReportMergeBase) against the peak
// resident memory (VmHWM, read by the child as it exits) of a merge of
// the smoke scale's 2 shards run alone, less that of a command that does
// nothing (version): the peak within 1.5 times the estimate plus 8 MB,
// and the estimate not beyond 4 times the peak plus 32 MB. Measured on
// this machine: parts of 186 kB and 163 kB of JSON, estimate 116.7 MB,
// peaks of 27–49 MB beyond the runtime's 13.5 MB (figures in the log).
// Then --max-memory below the estimate is refused with exit 2 and one
// line before any part is read, and nothing is written in --out.
func TestReproduceMergeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the smoke scale's shards and its merge in child processes")
	}
	dir := t.TempDir()
	parts := filepath.Join(dir, "parts") + "/"
	for _, id := range []string{"1/2", "2/2"} {
		expectOK(t, nil, "reproduce", "--scale", "smoke", "--shard", id, "-o", parts)
	}
	est, n, err := report.MergeDirMemoryEstimate(parts)
	if err != nil || n != 2 {
		t.Fatalf("MergeDirMemoryEstimate: %d parts, %v", n, err)
	}
	base := peakOf(t, "version")
	net := peakOf(t, "reproduce", "--merge", parts, "--out", filepath.Join(dir, "out")) - base
	e := float64(est)
	t.Logf("a command that does nothing: %.1f MB; estimate %.1f MB, peak %.1f MB beyond it (ratio %.2f)", base/1e6, e/1e6, net/1e6, e/net)
	if net > 1.5*e+8e6 || e > 4*net+32e6 {
		t.Errorf("estimate %.1f MB against a peak of %.1f MB: want the peak within 1.5× the estimate plus 8 MB, the estimate within 4× the peak plus 32 MB", e/1e6, net/1e6)
	}
	refused := filepath.Join(dir, "refused")
	expectUsage(t, nil, []string{"reproduce", "--merge", parts, "--max-memory", strconv.FormatUint(est-1, 10), "--out", refused}, "needs about")
	if _, err := os.Stat(refused); !os.IsNotExist(err) {
		t.Errorf("refused merge wrote its output (%v)", err)
	}
	expectUsage(t, nil, []string{"reproduce", "--scale", "smoke", "--max-memory", "1GiB", "--out", refused}, "--max-memory: only with --merge")
}
