package broadcast

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"
)

// asyncZ is the tolerance of the Monte Carlo checks below: 4 standard
// errors, a false alarm about 6·10⁻⁵ a comparison under the Normal
// approximation of a mean of ≥ 4,000 replications.
const asyncZ = 4

func simAsync(t *testing.T, cfg Config, reps int) (*AsyncSample, Answer, *AsyncTimes) {
	t.Helper()
	cfg.Time = Async
	s, err := SimulateAsync(context.Background(), cfg, SimSettings{Reps: reps, Seed: testSeed})
	if err != nil {
		t.Fatal(err)
	}
	a, tm := s.Answer()
	return s, a, tm
}

func asyncWithin(t *testing.T, what string, got, se, want float64) {
	t.Helper()
	if !(math.Abs(got-want) <= asyncZ*se) {
		t.Errorf("%s = %.5g ± %.2g, want %.5g (closed form) within %d SE", what, got, se, want, asyncZ)
	} else {
		t.Logf("%s = %.5g ± %.2g, closed form %.5g", what, got, se, want)
	}
}

// TestAsyncByHand checks the clock's rules on laws derived by hand.
//
//   - push, N = 2, k = 1, no loss: T_1 is the source's first tick, U
//     uniform on (0, 1]: mean 1/2, sd 1/√12.
//   - the same with loss ε = 1/2: the G-th tick arrives, G geometric of
//     parameter 1/2 on 1, 2, …: T_1 = U + G − 1, mean 1/2 + ε/(1−ε) = 3/2;
//     the pushes counted to T_1 are G, mean 2: 1 per live node (M = 2).
//   - push, N = 3, k = 1, no loss: the source informs a peer A at U; from
//     then the source ticks at U+1, U+2, … and A at U+V, U+V+1, …, V
//     uniform; each tick hits the last node with probability 1/2. The
//     j-th tick of the merged sequence V, 1, 1+V, 2, … is the first
//     success with probability 2^−j, so E[T_1 − U] = Σ_m 2^−(2m+1)(m + 1/2)
//   - Σ_{m≥1} 4^−m·m = 5/9 + 4/9 = 1, and E[T_1] = 3/2; T_{0.5} (2 of 3)
//     is U, mean 1/2.
//   - pull, N = 2, k = 1, no loss: the other node pulls at its first tick,
//     its phase: mean 1/2. push–pull: the earlier of the source's first
//     tick and the other's phase, the minimum of two uniforms: mean 1/3.
func TestAsyncByHand(t *testing.T) {
	const R = 20000
	_, a, _ := simAsync(t, Config{Nodes: 2, Protocol: Push, Fanout: 1, Level: 1}, R)
	asyncWithin(t, "push N2: mean T_1", a.Mean, a.Accuracy.SEMean, 0.5)
	asyncWithin(t, "push N2: sd T_1", a.SD, a.Accuracy.SESD, 1/math.Sqrt(12))
	_, a, _ = simAsync(t, Config{Nodes: 2, Protocol: Push, Fanout: 1, Loss: 0.5, Level: 1}, R)
	asyncWithin(t, "push N2 ε½: mean T_1", a.Mean, a.Accuracy.SEMean, 1.5)
	asyncWithin(t, "push N2 ε½: messages per live node", a.Messages, a.Accuracy.SEMessages, 1)
	_, a, tm := simAsync(t, Config{Nodes: 3, Protocol: Push, Fanout: 1, Level: 1}, R)
	asyncWithin(t, "push N3: mean T_1", a.Mean, a.Accuracy.SEMean, 1.5)
	asyncWithin(t, "push N3: mean T_0.5", tm.Mean[0], tm.SE[0], 0.5)
	asyncWithin(t, "push N3: mean T_1 (levels)", tm.Mean[2], tm.SE[2], 1.5)
	_, a, _ = simAsync(t, Config{Nodes: 2, Protocol: Pull, Fanout: 1, Level: 1}, R)
	asyncWithin(t, "pull N2: mean T_1", a.Mean, a.Accuracy.SEMean, 0.5)
	_, a, _ = simAsync(t, Config{Nodes: 2, Protocol: PushPull, Fanout: 1, Level: 1}, R)
	asyncWithin(t, "push-pull N2: mean T_1", a.Mean, a.Accuracy.SEMean, 1.0/3)
	// Power: the rounds' answer (T_1 = 1 round) is far outside.
	if math.Abs(a.Mean-1) <= asyncZ*a.Accuracy.SEMean {
		t.Errorf("push-pull N2: async mean %g cannot be told from the rounds' 1", a.Mean)
	}
}

// TestAsyncEndMatchesRounds checks the claim solveAsync relies on: who is
// informed in the end does not depend on the clock. The async Monte
// Carlo's residue, p_miss and messages per live node against the rounds'
// exact chain (ExactLaw, exact up to its bound) at settings where each is
// far from 0 and 1.
func TestAsyncEndMatchesRounds(t *testing.T) {
	const R = 8000
	for _, cfg := range []Config{
		{Nodes: 12, Protocol: Push, Fanout: 2, Budget: 4, Loss: 0.3, Failed: 0.1, Level: 1},
		{Nodes: 20, Protocol: Push, Fanout: 3, Budget: 4, Level: 1},
	} {
		law, err := ExactLaw(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		s, a, _ := simAsync(t, cfg, R)
		var missed []float64
		for _, r := range s.Reps {
			missed = append(missed, float64(r.Missed)/float64(cfg.Live()))
		}
		_, seRes := meanIv(missed)
		asyncWithin(t, "residue", a.Residue, seRes, law.Residue)
		asyncWithin(t, "p_miss", a.PMiss, math.Sqrt(law.PMiss*(1-law.PMiss)/R), law.PMiss)
		asyncWithin(t, "messages", a.Messages, a.Accuracy.SEMessages, law.Messages)
	}
}

// TestAsyncMemberlist checks the model against the real memberlist's
// times (issue 41: N = 200, GossipNodes 3, RetransmitMult 4, no loss,
// tickers at random phases): the last node at 3.87–3.90 intervals after
// the source queues the message, half at 1.93–1.96 and 99 % at 3.39–3.46,
// over runs at 20 ms and 100 ms intervals. The claim is agreement within
// ±0.2 interval (the goal) plus asyncZ standard errors of the
// model. The synchronous-rounds model's 6.41 for the last node is far
// outside: the check can tell the clocks apart.
func TestAsyncMemberlist(t *testing.T) {
	cfg := Config{Nodes: 200, Protocol: Push, Fanout: 3, Budget: MemberlistBudget(200, 4), Level: 1}
	_, _, tm := simAsync(t, cfg, 4000)
	for i, lim := range [3][2]float64{{1.93, 1.96}, {3.39, 3.46}, {3.87, 3.90}} {
		m, se := tm.Mean[i], tm.SE[i]
		if !(m >= lim[0]-0.2-asyncZ*se && m <= lim[1]+0.2+asyncZ*se) {
			t.Errorf("time to %g %%: %.4f ± %.4f, memberlist %g–%g", 100*AsyncLevels[i], m, se, lim[0], lim[1])
		} else {
			t.Logf("time to %g %%: %.4f ± %.4f, memberlist %g–%g", 100*AsyncLevels[i], m, se, lim[0], lim[1])
		}
	}
	if tm.Mean[2] > 5 {
		t.Errorf("the last node at %.3f intervals is not told from the rounds model's 6.41", tm.Mean[2])
	}
}

// TestAsyncReproducible: a run does not depend on the workers, and a
// subset of the replications (Indices) is the same replications.
func TestAsyncReproducible(t *testing.T) {
	cfg := Config{Nodes: 300, Protocol: PushPull, Fanout: 2, Budget: 4, Loss: 0.2, Failed: 0.1, Level: 0.9, Deadline: 3, Time: Async}
	ctx := context.Background()
	a, err := SimulateAsync(ctx, cfg, SimSettings{Reps: 40, Seed: 9, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := SimulateAsync(ctx, cfg, SimSettings{Reps: 40, Seed: 9, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("the sample depends on the workers")
	}
	c, err := SimulateAsync(ctx, cfg, SimSettings{Reps: 40, Seed: 9, Indices: []int{3, 17, 39}})
	if err != nil {
		t.Fatal(err)
	}
	for j, i := range []int{3, 17, 39} {
		if !reflect.DeepEqual(c.Reps[j], a.Reps[i]) {
			t.Errorf("replication %d alone differs from the run's", i)
		}
	}
	d, err := SimulateAsync(ctx, cfg, SimSettings{Reps: 40, Seed: 10, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.Reps, d.Reps) {
		t.Error("seeds 9 and 10 give the same sample")
	}
}

// TestAsyncRefused: the rounds' methods refuse the asynchronous clock
// with ErrNotCovered; Auto uses the Monte Carlo; a clock out of range is
// a field error.
func TestAsyncRefused(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Nodes: 50, Protocol: Push, Fanout: 3, Budget: 6, Level: 1, Time: Async}
	if _, err := ExactLaw(ctx, cfg); !errors.Is(err, ErrNotCovered) {
		t.Errorf("ExactLaw: %v", err)
	}
	if _, err := AsymptoticLaw(ctx, cfg); !errors.Is(err, ErrNotCovered) {
		t.Errorf("AsymptoticLaw: %v", err)
	}
	if _, err := Simulate(ctx, cfg, SimSettings{Reps: 1}); !errors.Is(err, ErrNotCovered) {
		t.Errorf("Simulate: %v", err)
	}
	for _, m := range []Method{Exact, Asymptotic} {
		if _, err := Solve(ctx, cfg, Settings{Method: m}); !errors.Is(err, ErrNotCovered) {
			t.Errorf("Solve %v: %v", m, err)
		}
	}
	a, err := Solve(ctx, cfg, Settings{Reps: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a.Method != MonteCarlo || a.Async == nil {
		t.Errorf("Auto: method %v, async times %v", a.Method, a.Async)
	}
	rounds := cfg
	rounds.Time = Rounds
	if _, err := SimulateAsync(ctx, rounds, SimSettings{Reps: 1}); err == nil {
		t.Error("SimulateAsync ran the rounds")
	}
	bad := cfg
	bad.Time = 7
	var fe *FieldError
	if err := bad.Validate(); !errors.As(err, &fe) || fe.Field != "Config.Time" {
		t.Errorf("Time 7: %v", err)
	}
}
