package broadcast

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestMeanRoundsOrder: MeanRounds is the order of the mean of T_L, checked
// against the exact chain's mean (another algorithm) over push, pull and
// push–pull, light and heavy loss: within a factor 1.5 either way (the
// estimate's claim in its doc: the order of the truth, not a bound).
func TestMeanRoundsOrder(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{
		{Nodes: 1000, Protocol: Push, Fanout: 3, Loss: 0.9, Level: 1},
		{Nodes: 200, Protocol: Push, Fanout: 1, Loss: 0, Level: 1},
		{Nodes: 200, Protocol: Pull, Fanout: 1, Loss: 0.5, Level: 1},
		{Nodes: 200, Protocol: PushPull, Fanout: 2, Loss: 0.9, Level: 0.5},
		{Nodes: 100, Protocol: Pull, Fanout: 1, Loss: 0.9, Level: 1},
	} {
		ex, err := ExactLaw(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		mean := ex.Answer(cfg).Mean
		if r := MeanRounds(cfg); !(r <= 1.5*mean && r >= mean/1.5) {
			t.Errorf("%v k=%d ε=%g N=%d L=%g: MeanRounds %.4g, exact mean %.4g", cfg.Protocol, cfg.Fanout, cfg.Loss, cfg.Nodes, cfg.Level, r, mean)
		}
	}
	if r := MeanRounds(Config{}); !math.IsInf(r, 1) {
		t.Errorf("MeanRounds of an invalid Config = %v, want +Inf", r)
	}
}

// nearTotalLoss are settings whose broadcast takes far more rounds than any
// method follows: a push of fanout 3 over 1,000 nodes with ε = 1 − 10⁻¹⁶
// informs 3·10⁻¹⁶ nodes a round (about 4·10¹⁶ rounds), a pull with ε =
// 0.999 about 3·10⁻⁶ (about 5·10⁶ rounds). Before the fix AsymptoticLaw
// returned P(reach) 0 with an empty law "within 1", and Simulate ran for
// hours.
var nearTotalLoss = []Config{
	{Nodes: 1000, Protocol: Push, Fanout: 3, Loss: 1 - 1e-16, Level: 1},
	{Nodes: 1000, Protocol: Pull, Fanout: 3, Loss: 0.999, Level: 1},
}

// TestNearTotalLossRefused: AsymptoticLaw refuses (ErrNotCovered), Simulate
// refuses before any work with a field error on Config.Loss wrapping
// gossip.ErrTooLarge, and Solve (Auto, which falls from the asymptotic law
// to the Monte Carlo) with it. The context's deadline only keeps a
// regression from hanging the suite; the verdict is the error, not the time.
func TestNearTotalLossRefused(t *testing.T) {
	t.Parallel()
	for _, cfg := range nearTotalLoss {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		if l, err := AsymptoticLaw(ctx, cfg); !errors.Is(err, ErrNotCovered) {
			dev := math.NaN()
			if l != nil {
				dev = l.Accuracy.DevP
			}
			t.Errorf("%v ε=%g: AsymptoticLaw: error %v (DevP %v), want ErrNotCovered", cfg.Protocol, cfg.Loss, err, dev)
		}
		// A replication of the pull alone (4.8·10⁶ rounds) is within
		// MaxSimRounds; 100 of them are not.
		for _, reps := range []int{100, 1000} {
			_, err := Simulate(ctx, cfg, SimSettings{Reps: reps, Seed: 1})
			var fe *FieldError
			if !errors.Is(err, gossip.ErrTooLarge) || !errors.As(err, &fe) || fe.Field != "Config.Loss" {
				t.Errorf("%v ε=%g reps %d: Simulate: error %v, want a field error on Config.Loss wrapping ErrTooLarge", cfg.Protocol, cfg.Loss, reps, err)
			}
		}
		_, err := Solve(ctx, cfg, Settings{Reps: 100, Seed: 1})
		if !errors.Is(err, gossip.ErrTooLarge) || !strings.Contains(err.Error(), "Config.Loss") {
			t.Errorf("%v ε=%g: Solve: error %v, want the Monte Carlo's refusal", cfg.Protocol, cfg.Loss, err)
		}
		cancel()
	}
}

// TestSimReachShard: a shard is refused by its own replications' rounds,
// not the run's: push–pull, N = 10⁴, k = 1, ε = 0.99 expects about 1,900
// rounds a replication (MeanRounds), so 10⁶ replications (1.9·10⁹ rounds)
// pass MaxSimRounds and a shard of 1,000 of them does not.
func TestSimReachShard(t *testing.T) {
	cfg := Config{Nodes: 10000, Protocol: PushPull, Fanout: 1, Loss: 0.99, Level: 1}
	r := MeanRounds(cfg)
	if !(r*1e6 > MaxSimRounds && r*1000 < MaxSimRounds) {
		t.Fatalf("MeanRounds %g: the case does not straddle MaxSimRounds", r)
	}
	if err := simReach(cfg, 0, true, 1_000_000); !errors.Is(err, gossip.ErrTooLarge) {
		t.Errorf("10⁶ replications: %v, want ErrTooLarge", err)
	}
	idx := make([]int, 1000)
	if err := simReach(cfg, len(idx), false, 1_000_000); err != nil {
		t.Errorf("a shard of 1,000: %v", err)
	}
}

// TestAsymVacuous: a law whose stated bound reaches 1 is refused; one below
// it is kept.
func TestAsymVacuous(t *testing.T) {
	cfg := Config{Nodes: 1000, Protocol: Push, Fanout: 3, Level: 1}
	for _, tc := range []struct {
		dev  float64
		want bool
	}{{1, true}, {math.NaN(), true}, {0.99, false}, {0.01, false}} {
		l := &Law{Accuracy: Accuracy{DevP: tc.dev}}
		if err := asymVacuous(cfg, l); errors.Is(err, ErrNotCovered) != tc.want {
			t.Errorf("DevP %v: %v", tc.dev, err)
		}
	}
}
