package sim

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// peakCase is a run whose estimate is checked against the peak resident
// memory of a process that runs it alone.
type peakCase struct {
	name string
	est  func() uint64
	run  func() error
}

func peakCases() []peakCase {
	unif := func(cfg UniformityConfig, workers int) peakCase {
		return peakCase{
			name: fmt.Sprintf("uniformity N=%d n=%d c=%d R=%d", cfg.Nodes, cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Reps),
			est:  func() uint64 { return cfg.MemoryEstimate(workers) },
			run: func() error {
				_, err := Uniformity(context.Background(), cfg, UniformitySettings{Workers: workers})
				return err
			},
		}
	}
	summary := func(cfg Config, workers int) peakCase {
		return peakCase{
			name: fmt.Sprintf("summary %v %v N=%d R=%d T=%d", cfg.Model, cfg.Schedule, cfg.Nodes, cfg.Reps, cfg.Rounds),
			est:  func() uint64 { return cfg.SummaryMemoryEstimate(workers) },
			run: func() error {
				_, err := RunSummary(context.Background(), cfg, Settings{Workers: workers})
				return err
			},
		}
	}
	u := func(N, n, c, s, reps, snaps int) UniformityConfig {
		return UniformityConfig{Nodes: N, Shuffle: gossip.Shuffle{Items: n, Cache: c, Exchange: s}, Warmup: 1, Snapshots: snaps, Spacing: 1, Reps: reps, Seed: 1}
	}
	full := func(cfg Config, workers int) peakCase {
		return peakCase{
			name: fmt.Sprintf("run %v N=%d R=%d T=%d", cfg.Model, cfg.Nodes, cfg.Reps, cfg.Rounds),
			est:  func() uint64 { return cfg.MemoryEstimate(workers) },
			run: func() error {
				_, err := Run(context.Background(), cfg, Settings{Workers: workers})
				return err
			},
		}
	}
	markov := func(N, R, T int) Config {
		return Config{Model: Markov, Nodes: N, Shuffle: gossip.Shuffle{Items: 40, Cache: 10, Exchange: 5}, Rounds: T, Reps: R, Seed: 1, Initial: 1}
	}
	return []peakCase{
		{name: "nothing", est: func() uint64 { return 0 }, run: func() error { return nil }},
		// Run (a shard's): before, 242 MB estimated (the replications
		// counted twice) for about 125 MB.
		full(markov(10, 20_000, 400), 1),
		// Short trajectories: the Replication each run returns is garbage
		// as large as what the result keeps of it.
		full(markov(100, 150_000, 1), 2),
		// Before: 172 MB estimated (16(N+1) bytes of histogram per worker
		// and for the study) for 29 MB.
		unif(u(4_000_000, 10, 1, 1, 3, 2), 1),
		// The caches dominate (int32 items), as much garbage as live.
		unif(u(300_000, 100_000, 50, 25, 4, 2), 1),
		// The items dominate: stamps, counts, lag correlation, garbage
		// each replication.
		unif(u(200, 2_000_000, 50, 25, 4, 5), 1),
		// Before: 50 MB estimated (the columns alone) for about 100 MB:
		// every replication added to the columns is garbage.
		summary(Config{Model: Lumped, Schedule: Continuous, Nodes: 200_000, Shuffle: gossip.Shuffle{Items: 1000, Cache: 10, Exchange: 5}, Rounds: 20, Reps: 200_000, Seed: 1, Initial: 1}, 1),
		// The async schedule's arrays, reused by the worker's next
		// replication (before: new each one).
		summary(Config{Model: Protocol, Schedule: Async, Ticks: 100, Nodes: 1_000_000, Shuffle: gossip.Shuffle{Items: 1000, Cache: 10, Exchange: 5}, Rounds: 1, Reps: 3, Seed: 1, Initial: 1}, 1),
	}
}

// TestMemoryPeakChild runs one peak case in a child process of
// TestMemoryPeak (GOSSIPKIT_PEAK_CASE); alone it does nothing.
func TestMemoryPeakChild(t *testing.T) {
	i, err := strconv.Atoi(os.Getenv("GOSSIPKIT_PEAK_CASE"))
	if err != nil {
		t.Skip("the child of TestMemoryPeak")
	}
	if err := peakCases()[i].run(); err != nil {
		t.Fatal(err)
	}
	// The peak of this process's own memory since its exec: VmHWM. (The
	// rusage's maxrss would also count the parent's pages at the fork: a
	// child of a test binary that had grown to 159 MB read 159 MB for
	// nothing.)
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			fmt.Printf("PEAK-KB %s\n", f[1])
		}
	}
}

// TestMemoryPeak: UniformityConfig.MemoryEstimate, MemoryEstimate and
// SummaryMemoryEstimate against the peak resident memory of a process that
// runs the case alone, read by the kernel (the child's VmHWM, not a time),
// less that of a child that runs nothing (the test binary and
// the Go runtime, about 10 MB). The issue asks for 1.5× plus 100 MB either
// way; at these sizes (30–220 MB) the 100 MB would pass anything, so the
// test asks for 1.5× plus 8 MB (the runtime's own heap and stacks vary by
// a few MB between runs). Measured before this change: uniformity at
// N = 4·10^6, n = 10, 172 MB estimated for 29 MB peak; the lumped summary
// estimated at half its peak.
func TestMemoryPeak(t *testing.T) {
	if testing.Short() {
		t.Skip("runs eight child processes of up to 150 MB")
	}
	peak := func(i int) float64 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryPeakChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "GOSSIPKIT_PEAK_CASE="+strconv.Itoa(i))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child %d: %v: %s", i, err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "PEAK-KB" {
				kb, err := strconv.ParseFloat(f[1], 64)
				if err == nil {
					return kb * 1024
				}
			}
		}
		t.Skip("the child did not report its peak (no /proc/self/status)")
		return 0
	}
	cases := peakCases()
	base := peak(0)
	t.Logf("a child that runs nothing: %.1f MB", base/1e6)
	for i, tc := range cases[1:] {
		t.Run(tc.name, func(t *testing.T) {
			net, est := peak(i+1)-base, float64(tc.est())
			t.Logf("estimate %.1f MB, peak %.1f MB beyond the runtime's (ratio %.2f)", est/1e6, net/1e6, est/net)
			if est > 1.5*net+8e6 || net > 1.5*est+8e6 {
				t.Errorf("estimate %.1f MB against a peak of %.1f MB: want each within 1.5× of the other plus 8 MB", est/1e6, net/1e6)
			}
		})
	}
}
