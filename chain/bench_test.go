package chain

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/gossip"
)

// cpuTime is the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchSolve solves cfg b.N times and reports, beside the wall time, the
// CPU time a solve (cpu-s/op: the machine is shared, and the comparison
// with SciPy in testdata/README.md is in CPU time), the steps and the
// state-steps a solve (the unit of Estimate) and ns of CPU per
// state-step.
func benchSolve(b *testing.B, cfg Config) {
	var res *Result
	c0 := cpuTime()
	for b.Loop() {
		var err error
		if res, err = Solve(context.Background(), cfg, Settings{}); err != nil {
			b.Fatal(err)
		}
	}
	cpu := (cpuTime() - c0).Seconds() / float64(b.N)
	b.ReportMetric(cpu, "cpu-s/op")
	b.ReportMetric(float64(res.Stats.Steps), "steps/op")
	b.ReportMetric(res.Stats.StateSteps, "state-steps/op")
	b.ReportMetric(cpu*1e9/res.Stats.StateSteps, "cpu-ns/state-step")
}

// BenchmarkReplication2500 solves the replication chain of the paper's
// setting (N = 2500, n = 500, c = 100, s = 50) at t = 0..300, dt = 1.
func BenchmarkReplication2500(b *testing.B) {
	for _, tm := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
		b.Run(tm.String(), func(b *testing.B) {
			benchSolve(b, Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, ReplicationOnly: true, Time: tm, TMax: 300, Dt: 1})
		})
	}
}

// BenchmarkJoint solves replication and coverage jointly to t = 150, with
// the law of the time to 99 % coverage (targets: N = 300 faster than SciPy's
// expm_multiply, N = 1000 within a minute on 2 cores; the figures measured
// are in testdata/README.md).
func BenchmarkJoint(b *testing.B) {
	for _, tc := range []struct {
		name string
		N    int
	}{{"N=100", 100}, {"N=300", 300}, {"N=1000", 1000}} {
		b.Run(tc.name, func(b *testing.B) {
			benchSolve(b, Config{Nodes: tc.N, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Time: gossip.Continuous, TMax: 150, Dt: 1, Level: 0.99})
		})
	}
}

// BenchmarkJointLoss is BenchmarkJoint/N=1000 with message loss ε = 0.01,
// 0.1 and 0.3, to compare with the lossless chain (the target: at most
// twice its CPU), with the level (the law of T_L: with loss its tail is
// longer, as the process is slower) and without ("to150", to compare
// with BenchmarkJointTo150: the same rounds). The X = 0 states add no
// live states; the work grows with the exit rate ℓ·X(N−X)/D adds to the
// uniformization rate and with the level's tail.
//
// Measured in state-steps (the work; unlike CPU time on the shared
// machine, where the same solve took 5.5–9 ns of CPU a state-step as the
// load varied, they do not depend on the load), against the lossless
// chain with the same code (1.70e9 to t = 150, 3.52e9 with the level):
//
//	ε      to150                         with the level
//	0.01   1.05× (1.78e9)                1.06× (3.72e9)
//	0.1    1.39× (2.38e9)                1.52× (5.37e9; before 1.55×)
//	0.3    1.84× (3.13e9; before 1.92×)  2.51× (8.83e9; before 2.62×)
//
// At ε = 0.3 the level's case is still above the target of 2×: its rate
// is 109.1 against 84.2 (the live law of X is wider, its variance about
// 2.4 times the lossless one at the plateau by the diffusion
// approximation, and its exit rate carries the copies and losses that
// cancel in the drift), its live region 1.4 times larger, and the
// level's tail twice as long in rounds (P(Y < m) decays at u − ℓ = f·u₀
// a round, and is 0.02 rather than 1.4e-4 at t = 150): the tail alone
// costs 3.1 times the lossless one. "before": with the 10 % margin of
// the lossless chain rather than lossHeadroom's 10·(1−ε)² % (at ε =
// 0.01 and 0.1 it lowers the rate by 0.2 % and 1.7 %).
func BenchmarkJointLoss(b *testing.B) {
	for _, eps := range []float64{0.01, 0.1, 0.3} {
		b.Run(fmt.Sprint("N=1000/eps=", eps), func(b *testing.B) {
			benchSolve(b, Config{Nodes: 1000, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Time: gossip.Continuous, TMax: 150, Dt: 1, Level: 0.99, Loss: eps})
		})
		b.Run(fmt.Sprint("N=1000/to150/eps=", eps), func(b *testing.B) {
			benchSolve(b, Config{Nodes: 1000, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Time: gossip.Continuous, TMax: 150, Dt: 1, Loss: eps})
		})
	}
}

// BenchmarkJointTo150 is BenchmarkJoint/N=1000 without the level: the
// transient laws to t = 150 only.
func BenchmarkJointTo150(b *testing.B) {
	benchSolve(b, Config{Nodes: 1000, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Time: gossip.Continuous, TMax: 150, Dt: 1})
}
