package sim

import (
	"github.com/gossipkit/gossipkit/internal/rng"

	"context"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchShuffles measures shuffles per second of the protocol on one core
// (one replication of warm-up rounds, no observation), and the wall and
// CPU nanoseconds a shuffle (ns/shuffle, cpu-ns/shuffle: the machine may be
// shared, and CPU time is what testdata/cref/run.sh compares with C).
func benchShuffles(b *testing.B, N, n, c, s int) { benchShufflesLoss(b, N, n, c, s, 0) }

// benchShufflesLoss is benchShuffles with loss ε.
func benchShufflesLoss(b *testing.B, N, n, c, s int, eps float64) {
	cfg := DefaultConfig()
	cfg.Nodes, cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Shuffle.Exchange, cfg.Loss = N, n, c, s, eps
	r := rng.NewStream(1, 0)
	st := newProtocolState[uint16](cfg, r)
	g := &graph{n: N}
	sched := newScheduler(Rounds, g, 0, r)
	// Mix first: the structured initial placement is not the steady state
	// the experiments run in, and it shuffles faster.
	for range 300 {
		sched.round(r, st)
	}
	b.ResetTimer()
	c0 := cpuTime()
	for b.Loop() {
		sched.round(r, st)
	}
	cpu := cpuTime() - c0
	b.ReportMetric(float64(N)*float64(b.N)/b.Elapsed().Seconds(), "shuffles/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(N)*float64(b.N)), "ns/shuffle")
	b.ReportMetric(float64(cpu.Nanoseconds())/(float64(N)*float64(b.N)), "cpu-ns/shuffle")
}

// BenchmarkProtocol_2500_500_100_50 is the paper's shuffle (N = 2500,
// n = 500, c = 100, s = 50), the kernel of sim.Protocol. Measured
// 2026-12-01 on the shared 2-core Xeon (load 28–31), 7 rounds interleaving
// the previous kernel, this one and the C reference testdata/cref/shuffle.c
// (gcc 12.2 -O2, 16-bit items; testdata/cref/run.sh), 300 rounds each
// after 300 of mixing, CPU time: this kernel 627 cpu-ns/shuffle (median;
// 486–727), the previous one 772 (641–930), C 1188 (1067–1336): 1.28× the
// previous kernel (median of the rounds' ratios, 1.11–1.57) and 1.85× C
// (1.63–2.32; the previous kernel 1.53×); a second session at load 6–17
// (5 rounds): 536, 890 and 1197 cpu-ns, 1.54× the previous kernel and 2.23×
// C (1.61–2.73). Instructions (callgrind, 300 + 20
// rounds, load-independent): 4.97·10^9 against 6.93·10^9 before and
// 5.47·10^9 for C, which also mispredicts 42 branches a shuffle to Go's 9
// (cachegrind's branch simulation). testdata/README.md has the details.
func BenchmarkProtocol_2500_500_100_50(b *testing.B)  { benchShuffles(b, 2500, 500, 100, 50) }
func BenchmarkProtocol_2500_1000_100_50(b *testing.B) { benchShuffles(b, 2500, 1000, 100, 50) }

// BenchmarkProtocolLoss: the paper's sizes at ε = 0, 0.01 and 0.1; the
// ratio of shuffles/s to ε = 0 is the cost of the loss draw (a lost
// request also saves a shuffle's work, a lost reply half of it).
func BenchmarkProtocolLoss(b *testing.B) {
	for _, eps := range []float64{0, 0.01, 0.1} {
		b.Run(strconv.FormatFloat(eps, 'g', -1, 64), func(b *testing.B) { benchShufflesLoss(b, 2500, 500, 100, 50, eps) })
	}
}

// BenchmarkPaperScaleWorkers runs 4 replications of 100 + 100 rounds at the
// paper's parameters with 1 and 2 workers (compare with -cpu 1,2).
func BenchmarkPaperScale(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Warmup, cfg.Rounds, cfg.Reps = 100, 100, 4
	for b.Loop() {
		if _, err := Run(context.Background(), cfg, Settings{Workers: 2}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cfg.Reps*(cfg.Warmup+cfg.Rounds)*cfg.Nodes)/b.Elapsed().Seconds()*float64(b.N), "shuffles/s")
}

func BenchmarkMarkov(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Model, cfg.Rounds, cfg.Reps = Markov, 1000, 2
	for b.Loop() {
		if _, err := Run(context.Background(), cfg, Settings{Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkContinuous compares the node-by-node Markov model with its
// lumped chain on section 7's experiment (N = 2500, 5 copies, 300 rounds
// under the Poisson clock), one worker: the ratio of their ns/op is the
// saving the lumped chain buys.
func BenchmarkContinuous(b *testing.B) {
	for _, m := range []Model{Markov, Lumped} {
		b.Run(m.String(), func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Model, cfg.Schedule, cfg.Rounds, cfg.Reps, cfg.Initial = m, Continuous, 300, 20, 5
			for b.Loop() {
				if _, err := Run(context.Background(), cfg, Settings{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
