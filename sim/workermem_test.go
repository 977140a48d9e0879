package sim

import (
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestWorkerMemory: the per-worker accounting of the Markov model, as
// WorkerMemory's doc derives it: under the rounds schedule three bitsets of
// ⌈N/64⌉ words and a 4N-byte permutation, 4.375 bytes a node when 64
// divides N (280 MiB at N = 2^26); under the continuous schedule the
// bitsets alone; the async schedule 16N and 24 bytes a tick more (its
// phases, stamps and tick lists with their spare capacity, the worker's,
// reused: 24N and 48 a tick while they were new each replication); and
// MemoryEstimate grows by exactly WorkerMemory a worker.
func TestWorkerMemory(t *testing.T) {
	cfg := Config{Model: Markov, Nodes: 1 << 26, Shuffle: gossip.Shuffle{Items: 40, Cache: 10, Exchange: 5}, Rounds: 1, Reps: 12, Initial: 1}
	if got, want := cfg.WorkerMemory(), uint64(280<<20); got != want {
		t.Errorf("rounds, N = 2^26: %d bytes, want 4.375·2^26 = %d", got, want)
	}
	cfg.Nodes = 100 // ⌈100/64⌉ = 2 words a bitset
	if got, want := cfg.WorkerMemory(), uint64(3*2*8+4*100); got != want {
		t.Errorf("rounds, N = 100: %d bytes, want %d", got, want)
	}
	cont := cfg
	cont.Schedule = Continuous
	if got, want := cont.WorkerMemory(), uint64(3*2*8); got != want {
		t.Errorf("continuous, N = 100: %d bytes, want %d", got, want)
	}
	async := cfg
	async.Schedule, async.Ticks = Async, 10
	if got, want := async.WorkerMemory(), uint64(3*2*8+16*100+24*10); got != want {
		t.Errorf("async, N = 100, 10 ticks: %d bytes, want %d", got, want)
	}
	if d := cfg.MemoryEstimate(5) - cfg.MemoryEstimate(4); d != cfg.WorkerMemory() {
		t.Errorf("a fifth worker adds %d bytes, want WorkerMemory = %d", d, cfg.WorkerMemory())
	}
}

// TestMemoryContract: the out-of-range arguments the docs of FitWorkers,
// CheckMemory and ReadPart state: workers below 1 fit as 0 and are checked
// as one, a nil reader is an error with the package's prefix; nothing
// panics.
func TestMemoryContract(t *testing.T) {
	cfg := Config{Model: Markov, Nodes: 1000, Shuffle: gossip.Shuffle{Items: 40, Cache: 10, Exchange: 5}, Rounds: 3, Reps: 4, Initial: 1}
	for _, w := range []int{0, -1, -1 << 40} {
		if got := cfg.FitWorkers(w, 0); got != 0 {
			t.Errorf("FitWorkers(%d, 0) = %d, want 0", w, got)
		}
		if got := cfg.FitSummaryWorkers(w, 1<<40); got != 0 {
			t.Errorf("FitSummaryWorkers(%d, 1 TiB) = %d, want 0", w, got)
		}
		if err := cfg.CheckMemory(w, cfg.MemoryEstimate(1)-1); err == nil {
			t.Errorf("CheckMemory(%d, one worker's need − 1) passed: want workers counted as one", w)
		}
		if err := cfg.CheckMemory(w, cfg.MemoryEstimate(1)); err != nil {
			t.Errorf("CheckMemory(%d, one worker's need): %v", w, err)
		}
	}
	neg := Config{Nodes: -5, Reps: -3, Rounds: -2, Shuffle: gossip.Shuffle{Items: -1, Cache: -1}}
	if got, want := neg.MemoryEstimate(-4), uint64(700); got != want { // the summary of one round, 700·(0 + 1): T = −2 counts as 0
		t.Errorf("MemoryEstimate of negative fields and workers = %d, want %d (everything counted as 0)", got, want)
	}
	if _, err := ReadPart(nil); err == nil || !strings.HasPrefix(err.Error(), "sim: ") {
		t.Errorf("ReadPart(nil): %v, want an error starting \"sim: \"", err)
	}
}
