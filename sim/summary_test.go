package sim

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestRunSummaryMatchesRun: RunSummary's statistics are Run's, bit for bit
// (printed with %#v, which also compares NaN), on both column paths (a
// histogram where N + 1 < R, the values otherwise), with loss (extinction,
// Alive), a shard's subset of replications, several workers, and the
// lumped chain. The reference is Run's own Summary over the kept
// replications: a different algorithm (sorting every round's values) from
// the histogram's cumulative counts.
func TestRunSummaryMatchesRun(t *testing.T) {
	t.Parallel()
	markov := func(N, reps int, loss float64) Config {
		c := small()
		c.Model, c.Nodes, c.Rounds, c.Reps, c.Loss = Markov, N, 12, reps, loss
		return c
	}
	lossyProtocol := small()
	lossyProtocol.Reps, lossyProtocol.Rounds, lossyProtocol.Loss = 5, 20, 0.2
	lumped := markov(40, 300, 0)
	lumped.Model, lumped.Schedule = Lumped, Continuous
	for _, tc := range []struct {
		name string
		cfg  Config
		set  Settings
	}{
		{"histogram N+1 < R", markov(20, 500, 0), Settings{Workers: 3}},
		{"values N+1 >= R", markov(200, 50, 0), Settings{Workers: 2}},
		{"histogram with loss", markov(10, 400, 0.3), Settings{Workers: 2}},
		{"shard", markov(20, 500, 0), Settings{Workers: 2, Indices: ShardID{Index: 2, Count: 3}.Indices(500)}},
		{"lossy protocol", lossyProtocol, Settings{Workers: 2}},
		{"lumped", lumped, Settings{Workers: 2}},
		{"one replication", markov(20, 1, 0), Settings{Workers: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			full, err := Run(context.Background(), tc.cfg, tc.set)
			if err != nil {
				t.Fatal(err)
			}
			sum, err := RunSummary(context.Background(), tc.cfg, tc.set)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Reps != nil {
				t.Errorf("RunSummary kept %d replications", len(sum.Reps))
			}
			if a, b := full.Replications(), sum.Replications(); a != b || a != len(full.Reps) {
				t.Errorf("Replications: Run %d, RunSummary %d", a, b)
			}
			for _, c := range []struct {
				what string
				a, b any
			}{
				{"Summary", full.Summary(), sum.Summary()},
				{"Totals", full.Totals(), sum.Totals()},
				{"Measure", full.Measure(), sum.Measure()},
				{"AliveMean", fmt.Sprint(full.AliveMean()), fmt.Sprint(sum.AliveMean())},
				{"AliveCounts", full.AliveCounts(), sum.AliveCounts()},
			} {
				if a, b := fmt.Sprintf("%#v", c.a), fmt.Sprintf("%#v", c.b); a != b {
					t.Errorf("%s differs:\nRun        %.300s\nRunSummary %.300s", c.what, a, b)
				}
			}
		})
	}
}

// peakRSS runs this test binary's helper with case name in a subprocess
// and returns its peak resident memory (VmHWM of /proc/self/status, read
// by the helper when its run ends), in bytes.
func peakRSS(t *testing.T, name string) uint64 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSummaryMemoryHelper$")
	cmd.Env = append(os.Environ(), "GOSSIPKIT_SUMMARY_CASE="+name)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	for line := range strings.SplitSeq(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM "); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	t.Fatalf("%s: no VmHWM in %s", name, out)
	return 0
}

// summaryCases are the runs the memory helper knows: the markov
// case (N = 100, one round) at 5·10^4 and 2·10^5 replications, by Run and
// by RunSummary.
var summaryCases = map[string]func() error{}

func init() {
	cfg := func(reps int) Config {
		c := DefaultConfig()
		c.Model, c.Nodes, c.Warmup, c.Rounds, c.Reps = Markov, 100, 0, 1, reps
		c.Shuffle.Items, c.Shuffle.Cache, c.Shuffle.Exchange = 40, 10, 5
		return c
	}
	for _, reps := range []int{50_000, 200_000} {
		summaryCases[fmt.Sprintf("summary-%d", reps)] = func() error {
			_, err := RunSummary(context.Background(), cfg(reps), Settings{Workers: 2})
			return err
		}
		summaryCases[fmt.Sprintf("run-%d", reps)] = func() error {
			_, err := Run(context.Background(), cfg(reps), Settings{Workers: 2})
			return err
		}
	}
}

func TestSummaryMemoryHelper(t *testing.T) {
	name := os.Getenv("GOSSIPKIT_SUMMARY_CASE")
	if name == "" {
		t.Skip("the subprocess of TestRunSummaryMemory")
	}
	if err := summaryCases[name](); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			fmt.Printf("VmHWM %s\n", strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
		}
	}
}

// TestRunSummaryMemory: RunSummary's peak memory does not grow with the
// replications: quadrupling them (5·10^4 → 2·10^5, the markov case
// at N = 100, one round) adds less than 16 MiB to its peak resident
// memory, where Run's grows by about 1.5·10^5 × 2 × (264 + 3·16) bytes =
// 94 MB (MemoryEstimate's replications, counted twice for the collector;
// measured 2·10^5 → 8·10^5: 135 → 622 MiB), checked here at ≥ 50 MB so
// that the test sees the difference it claims. Peak resident memory is read by the subprocess
// itself (VmHWM), not timed.
func TestRunSummaryMemory(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status")
	}
	t.Parallel()
	s1, s4 := peakRSS(t, "summary-50000"), peakRSS(t, "summary-200000")
	r1, r4 := peakRSS(t, "run-50000"), peakRSS(t, "run-200000")
	t.Logf("peak RSS: RunSummary %.0f → %.0f MiB, Run %.0f → %.0f MiB (5·10^4 → 2·10^5 replications)", float64(s1)/(1<<20), float64(s4)/(1<<20), float64(r1)/(1<<20), float64(r4)/(1<<20))
	if s4 > s1+16<<20 {
		t.Errorf("RunSummary's peak grew by %.0f MiB with the replications", float64(s4-s1)/(1<<20))
	}
	if r4 < r1+50<<20 {
		t.Errorf("Run's peak grew by only %.0f MiB: the test does not see what it claims", (float64(r4)-float64(r1))/(1<<20))
	}
}
