package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/gossipkit/gossipkit/sim"
)

// TestSimLargeNMemory: the issue's large-N case, `sim --model markov -N
// 67108864 -n 40 -c 10 -s 5 --warmup 0 --rounds 1 --reps 12 --workers 12`,
// peaked at 7.1 GB resident (12 bytes a node a worker, 12 workers, and the
// collector's headroom over each replication's garbage). A replication now
// keeps three bitsets and the rounds schedule's permutation, 4.375 bytes a
// node (sim.Config.WorkerMemory: 280 MiB at N = 2^26), reused by the
// worker's next replication; without --max-memory the workers share at
// most cli.WorkerMemory = 512 MiB, so two do not fit and one runs (the
// output does not depend on them). The test runs the case at N = 2^26 with
// one replication (the peak is that of one replication in flight: the
// next reuses its memory; about 6 s of CPU), reads the child's peak
// resident memory from the kernel (rusage maxrss, not a time), and checks
// it is ≤ 500 MB, within 1.5× the estimate the run prints plus 100 MB, and
// that the workers were lowered to 1 with the line saying so. The full
// case (12 replications, about 60 s of CPU) runs with
// GOSSIPKIT_LONG=memory (measured: 316 MB, 54 s). Measured: 7115300 KiB before, 3370748 KiB with
// the bitsets alone (12 workers of 280 MiB), 302616 KiB (310 MB, 1:48 wall
// on the loaded 2 cores against 2:45 before) after, one worker, the
// same output byte for byte.
func TestSimLargeNMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("one replication at N = 2^26 in a subprocess")
	}
	t.Parallel()
	reps := "1"
	if os.Getenv("GOSSIPKIT_LONG") == "memory" {
		reps = "12"
	}
	args := []string{"sim", "--model", "markov", "-N", "67108864", "-n", "40", "-c", "10", "-s", "5", "--warmup", "0", "--rounds", "1", "--reps", reps, "--workers", "12", "-o", t.TempDir() + "/out.csv"}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GOSSIPKIT_AS_MAIN=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this system")
	}
	rss := ru.Maxrss << 10 // KiB on Linux
	cfg := sim.Config{Model: sim.Markov, Nodes: 1 << 26, Shuffle: sim.DefaultConfig().Shuffle, Rounds: 1, Reps: 12, Initial: 1}
	cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Shuffle.Exchange = 40, 10, 5
	est := cfg.SummaryMemoryEstimate(1)
	t.Logf("peak RSS %.0f MB, estimate %.0f MB; stderr %q", float64(rss)/1e6, float64(est)/1e6, errb.String())
	if !strings.Contains(errb.String(), "--workers 12 lowered to 1 to stay within 512.0 MiB of memory") {
		t.Errorf("stderr %q: want the workers lowered to 1", errb.String())
	}
	if rss > 500e6 {
		t.Errorf("peak RSS %.0f MB, want ≤ 500 MB", float64(rss)/1e6)
	}
	if float64(rss) > 1.5*float64(est)+100e6 {
		t.Errorf("peak RSS %.0f MB beyond 1.5 × the estimate %.0f MB + 100 MB", float64(rss)/1e6, float64(est)/1e6)
	}
}
