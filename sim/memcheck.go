package sim

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// AvailableMemory returns the memory the machine has available
// (MemAvailable of /proc/meminfo), or 0 where it cannot tell.
func AvailableMemory() uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}

// CheckMemory returns c.Validate's error, or an error when a run of c with
// `workers` replications in flight needs (MemoryEstimate) more than avail
// bytes (sim.AvailableMemory, say); avail 0 is unknown and passes, and
// workers below 1 count as one (a run has a replication in flight). The
// error is a *FieldError on Config.Topology when building the graph is
// more than half of the need, else on Config.Nodes.
func (c Config) CheckMemory(workers int, avail uint64) error {
	return c.checkMemory(workers, avail, Config.MemoryEstimate)
}

// checkMemory is CheckMemory with the estimate est (MemoryEstimate or
// SummaryMemoryEstimate).
func (c Config) checkMemory(workers int, avail uint64, est func(Config, int) uint64) error {
	if err := c.Validate(); err != nil {
		return err
	}
	workers = max(workers, 1)
	need := est(c, workers)
	if avail == 0 || need <= avail {
		return nil
	}
	bare := Config{Nodes: c.Nodes, Shuffle: c.Shuffle, Model: c.Model, Rounds: c.Rounds, Reps: c.Reps}
	if topo := need - min(need, est(bare, workers)); topo > need/2 {
		return fielderr.New("sim", "Config.Topology", "%v with N = %d: building the graph needs about %s of memory, the machine has %s available",
			c.Topology, c.Nodes, FormatBytes(topo), FormatBytes(avail))
	}
	return fielderr.New("sim", "Config.Nodes", "%d with n = %d, c = %d: the run needs about %s of memory, the machine has %s available; lower Config.Nodes, Config.Reps or Config.Rounds",
		c.Nodes, c.Shuffle.Items, c.Shuffle.Cache, FormatBytes(need), FormatBytes(avail))
}

// FitWorkers returns the most workers, at most workers, whose run fits in
// budget bytes (MemoryEstimate), or 0 when even one does not; a budget of
// 0 (unknown) fits any; workers below 1 give 0. A run's output does not
// depend on its workers, so a program lowers them to what its memory
// allows. It does not validate c: the estimate of an invalid configuration
// is what MemoryEstimate's formula gives.
func (c Config) FitWorkers(workers int, budget uint64) int {
	return c.fitWorkers(workers, budget, Config.MemoryEstimate)
}

// fitWorkers is FitWorkers with the estimate est.
func (c Config) fitWorkers(workers int, budget uint64, est func(Config, int) uint64) int {
	if workers < 1 {
		return 0
	}
	if budget == 0 {
		return workers
	}
	lo, hi := 0, workers // the estimate grows with the workers
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if est(c, mid) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// FormatBytes formats a size in bytes as GiB, MiB or KiB, as the memory
// checks' messages state it.
func FormatBytes(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", b/1024)
}

// MinCPUSeconds returns a lower bound of the CPU time, in seconds, a run
// of c takes: its shuffles, Reps·N·(Rounds + Warmup) (the warm-up for the
// protocol only), each at a third of the speed measured or less: the
// Markov models 3 ns (13 ns measured under the rounds schedule, 19 ns
// under async), the protocol 15 + 2s ns (50 ns measured at s = 1, 400 ns
// at the default s = 50, n = 500, c = 100); and for the lumped chain,
// whose cost grows with the changes of state rather than the shuffles,
// 3 ns a round of a replication. A program with a deadline compares it
// with the time it has (serve refuses a request that cannot end in time).
// It does not validate c: negative fields count as 0.
func (c Config) MinCPUSeconds() float64 {
	perShuffle := 3e-9
	rounds := float64(max(c.Rounds, 0))
	switch c.Model {
	case Lumped:
		return float64(max(c.Reps, 0)) * rounds * perShuffle
	case Protocol:
		rounds += float64(max(c.Warmup, 0))
		perShuffle = (15 + 2*float64(max(c.Shuffle.Exchange, 0))) * 1e-9
	}
	return float64(max(c.Reps, 0)) * float64(max(c.Nodes, 0)) * rounds * perShuffle
}
