package broadcast

import (
	"context"
	"fmt"
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

// BenchmarkPushMillion runs replications of push at N = 10^6, k = 3, no
// loss, no budget, level 1, one after another, by each engine, and reports
// the messages a replication (the package doc's rule) and the time per
// message, wall (ns/message) and CPU (cpu-ns/message: the machine is
// shared, and testdata/README.md compares CPU times), beside the C
// reference testdata/cref/push.c (testdata/cref/run.sh runs both).
func BenchmarkPushMillion(b *testing.B) {
	cfg := Config{Nodes: 1_000_000, Protocol: Push, Fanout: 3, Level: 1}
	for _, eng := range engines {
		b.Run("engine="+eng.name, func(b *testing.B) {
			run := newEngine(cfg, 1).run
			if eng.literal {
				run = newLiteral(cfg, 1).run
			}
			msgs, _ := benchReplications(b, run)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(msgs), "ns/message")
			b.ReportMetric(float64(msgs)/float64(b.N), "messages/op")
		})
	}
}

// BenchmarkSimulate is Simulate at N = 10^4 for each protocol, with loss,
// failures and (push) a budget, 100 replications on the default workers.
func BenchmarkSimulate(b *testing.B) {
	for _, p := range []Protocol{Push, Pull, PushPull} {
		cfg := Config{Nodes: 10_000, Protocol: p, Fanout: 3, Loss: 0.1, Failed: 0.1, Level: 1}
		if p == Push {
			cfg.Budget = MemberlistBudget(cfg.Nodes, DefaultRetransmitMult)
		}
		b.Run(p.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := Simulate(context.Background(), cfg, SimSettings{Reps: 100, Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMillion is one replication at N = 10^6, k = 3, level 1 of pull,
// push–pull, and push with 10 % loss, 10 % failures and memberlist's
// budget, by the default engine on one worker (CPU time per replication
// and per message, as BenchmarkPushMillion).
func BenchmarkMillion(b *testing.B) {
	const N = 1_000_000
	for _, cfg := range []Config{
		{Nodes: N, Protocol: Pull, Fanout: 3, Level: 1},
		{Nodes: N, Protocol: PushPull, Fanout: 3, Level: 1},
		{Nodes: N, Protocol: Push, Fanout: 3, Loss: 0.1, Failed: 0.1, Budget: MemberlistBudget(N, DefaultRetransmitMult), Level: 1},
	} {
		b.Run(fmt.Sprintf("%v/B=%d", cfg.Protocol, cfg.Budget), func(b *testing.B) {
			benchReplications(b, newEngine(cfg, 1).run)
		})
	}
}

// benchReplications runs replication 0, 1, … of run for the benchmark's
// loop and reports the CPU seconds a replication and the CPU nanoseconds a
// message; it returns the messages and the CPU seconds.
func benchReplications(b *testing.B, run func(context.Context, int) (Replication, error)) (msgs int64, cpu float64) {
	c0 := cpuTime()
	i := 0
	for b.Loop() {
		rep, err := run(context.Background(), i)
		if err != nil {
			b.Fatal(err)
		}
		msgs += rep.Messages
		i++
	}
	cpu = (cpuTime() - c0).Seconds()
	b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
	b.ReportMetric(cpu*1e9/float64(msgs), "cpu-ns/message")
	return msgs, cpu
}

// BenchmarkExactLaw is the exact count chain without a budget at N 1,500
// for each protocol (k 2, ε 0.1, φ 0.05, deadline 10, level 1).
func BenchmarkExactLaw(b *testing.B) {
	for _, p := range []Protocol{Push, Pull, PushPull} {
		cfg := Config{Nodes: 1500, Protocol: p, Fanout: 2, Loss: 0.1, Failed: 0.05, Level: 1, Deadline: 10}
		b.Run(p.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := ExactLaw(context.Background(), cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPullTailBound is the proved bound's cost (tailbound.go), which
// Solve pays once per setting with pulls and a deadline, and Solve itself
// at the setting it answers (push–pull, N 10⁵, k 3, D 30: the watched runs
// it spares took 51 s before the bound).
func BenchmarkPullTailBound(b *testing.B) {
	for _, c := range []struct {
		N, D int
	}{{100_000, 30}, {1 << 40, 30}, {1 << 40, 512}} {
		cfg := Config{Nodes: c.N, Protocol: PushPull, Fanout: 3, Level: 1, Deadline: float64(c.D)}
		b.Run(fmt.Sprintf("N%d_D%d", c.N, c.D), func(b *testing.B) {
			for b.Loop() {
				pullTailBound(cfg, c.D)
			}
		})
	}
	b.Run("Solve_N100000_D30", func(b *testing.B) {
		cfg := Config{Nodes: 100_000, Protocol: PushPull, Fanout: 3, Level: 1, Deadline: 30, Confidence: 1 - 1e-6}
		for b.Loop() {
			if _, err := Solve(context.Background(), cfg, Settings{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
