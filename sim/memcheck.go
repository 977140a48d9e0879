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
// bytes (sim.AvailableMemory, say); avail 0 is unknown and passes. The
// error is a *FieldError on Config.Topology when building the graph is
// more than half of the need, else on Config.Nodes.
func (c Config) CheckMemory(workers int, avail uint64) error {
	if err := c.Validate(); err != nil {
		return err
	}
	need := c.MemoryEstimate(workers)
	if avail == 0 || need <= avail {
		return nil
	}
	bare := Config{Nodes: c.Nodes, Shuffle: c.Shuffle, Model: c.Model, Rounds: c.Rounds, Reps: c.Reps}
	if topo := need - min(need, bare.MemoryEstimate(workers)); topo > need/2 {
		return fielderr.New("sim", "Config.Topology", "%v with N = %d: building the graph needs about %s of memory, the machine has %s available",
			c.Topology, c.Nodes, formatBytes(topo), formatBytes(avail))
	}
	return fielderr.New("sim", "Config.Nodes", "%d with n = %d, c = %d: the run needs about %s of memory, the machine has %s available",
		c.Nodes, c.Shuffle.Items, c.Shuffle.Cache, formatBytes(need), formatBytes(avail))
}

// formatBytes formats a size in bytes as GiB, MiB or KiB.
func formatBytes(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", b/1024)
}
