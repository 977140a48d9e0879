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
