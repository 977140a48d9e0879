package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/gossipkit/gossipkit/broadcast/internal/literal"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// testSeed is the seed of every statistical test here; with it fixed the
// tests are deterministic, and each tolerance of 5 standard errors would
// fail by chance with probability below 10⁻⁶ per comparison for a fresh
// seed.
const testSeed = 20261201

var engines = []struct {
	name    string
	literal bool
}{{"default", false}, {"literal", true}}

// meanSE is the sample mean of f over the replications and its standard
// error (sample sd/√R).
func meanSE(s *Sample, f func(Replication) float64) (mean, se float64) {
	R := float64(len(s.Reps))
	for _, r := range s.Reps {
		mean += f(r)
	}
	mean /= R
	var ss float64
	for _, r := range s.Reps {
		d := f(r) - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / (R - 1) / R)
}

// within reports whether got is within 5 standard errors of want, where se
// is the standard error of got; with se = 0 (a deterministic quantity) it
// must be want up to the rounding of a mean of R values.
func within(got, want, se float64) bool {
	return math.Abs(got-want) <= 5*se+1e-12*math.Max(1, math.Abs(want))
}

func geometric(p float64) func(int) float64 {
	return func(r int) float64 {
		if r < 1 {
			return 0
		}
		return math.Pow(1-p, float64(r-1)) * p
	}
}

// TestSmallByHand checks both engines against laws derived by hand at
// N = 2 and 3 (each derivation in its row's comment): the PMF of T_L at
// r = 0..12, Never, the messages per live node, the residue and PMiss,
// within 5 standard errors (testSeed), or exactly where the quantity is
// deterministic.
func TestSmallByHand(t *testing.T) {
	const eps = 0.3
	a := 1 - eps
	// Push, N = 3, k = 1, loss ε: the source reaches one of the two others
	// with probability a = 1 − ε a round (G1 ~ Geometric(a) rounds, one
	// message each); then each of the two informed nodes picks the
	// uninformed one with probability 1/2 and its message arrives with
	// probability a: a round fails with q2 = (1 − a/2)², so G2 ~
	// Geometric(1 − q2) rounds of two messages. T = G1 + G2 (a
	// convolution) and, by Wald's identity, E[messages] = E[G1] + 2E[G2].
	q2 := (1 - a/2) * (1 - a/2)
	conv := func(r int) float64 {
		s := 0.0
		for g := 1; g < r; g++ {
			s += geometric(a)(g) * geometric(1-q2)(r-g)
		}
		return s
	}
	rows := []struct {
		name           string
		cfg            Config
		pmf            func(int) float64
		never, msgs    float64 // msgs: E[messages per live node]
		residue, pmiss float64
		msgsEach       int64 // > 0: every replication's messages
	}{
		// One message a round from the source, arriving with probability
		// 1 − ε: T ~ Geometric(1 − ε), messages = T, M = 2.
		{name: "push N=2", cfg: Config{Nodes: 2, Protocol: Push, Fanout: 1, Loss: eps, Level: 1},
			pmf: geometric(a), msgs: 1 / a / 2},
		// The uninformed node asks the source: a round succeeds when the
		// request and the reply arrive, (1 − ε)²; it sends 1 request and,
		// when the request arrives, 1 reply: E = (1 + a)/(a²) by Wald.
		{name: "pull N=2", cfg: Config{Nodes: 2, Protocol: Pull, Fanout: 1, Loss: eps, Level: 1},
			pmf: geometric(a * a), msgs: (1 + a) / (a * a) / 2},
		// Both: a round fails when the push is lost and the pull fails,
		// ε(1 − a²); it sends 1 push, 1 request and a reply with
		// probability a.
		{name: "push-pull N=2", cfg: Config{Nodes: 2, Protocol: PushPull, Fanout: 1, Loss: eps, Level: 1},
			pmf: geometric(1 - eps*(1-a*a)), msgs: (2 + a) / (1 - eps*(1-a*a)) / 2},
		{name: "push N=3", cfg: Config{Nodes: 3, Protocol: Push, Fanout: 1, Loss: eps, Level: 1},
			pmf: conv, msgs: (1/a + 2/(1-q2)) / 3},
		// ε = 0: G1 = 1, G2 ~ Geometric(3/4); messages 1 + 2·G2, mean
		// 1 + 8/3 = 11/3.
		{name: "push N=3 no loss", cfg: Config{Nodes: 3, Protocol: Push, Fanout: 1, Level: 1},
			pmf: func(r int) float64 { return geometric(0.75)(r - 1) }, msgs: 11.0 / 9},
		// ⌊0.5·2⌋ = 1 failed node: the source's one peer is the live
		// other with probability 1/2, and the message arrives with
		// probability a: T ~ Geometric(a/2), messages = T, M = 2.
		{name: "push N=3 one failed", cfg: Config{Nodes: 3, Protocol: Push, Fanout: 1, Loss: eps, Failed: 0.5, Level: 1},
			pmf: geometric(a / 2), msgs: 2 / a / 2},
		// The live uninformed node asks the source with probability 1/2
		// (a reply is sent if the request arrives, a/2) and succeeds with
		// a²/2: E = (1 + a/2)/(a²/2) by Wald, M = 2.
		{name: "pull N=3 one failed", cfg: Config{Nodes: 3, Protocol: Pull, Fanout: 1, Loss: eps, Failed: 0.5, Level: 1},
			pmf: geometric(a * a / 2), msgs: (1 + a/2) / (a * a / 2) / 2},
		// B = 1: the source's one push arrives with probability a
		// (otherwise no node can act: T = ∞, 2 missed); then the node it
		// informed pushes once, to the last one with probability 1/2,
		// arriving with probability a: T = 2 with probability a²/2, else 1
		// missed. Residue (2ε + a(1 − a/2))/3, PMiss 1 − a²/2; every
		// informed node spends its budget, so E[messages] = E[informed] =
		// 1 + a + a²/2.
		{name: "push N=3 budget 1", cfg: Config{Nodes: 3, Protocol: Push, Fanout: 1, Loss: eps, Budget: 1, Level: 1},
			pmf: func(r int) float64 {
				if r == 2 {
					return a * a / 2
				}
				return 0
			}, never: 1 - a*a/2, msgs: (1 + a + a*a/2) / 3, residue: (2*eps + a*(1-a/2)) / 3, pmiss: 1 - a*a/2},
		// Level 1/2: ⌈1.5⌉ = 2 informed, the first success: Geometric(a).
		{name: "push N=3 level 1/2", cfg: Config{Nodes: 3, Protocol: Push, Fanout: 1, Loss: eps, Level: 0.5},
			pmf: geometric(a), msgs: 1 / a / 3},
		// ⌈0.3·3⌉ = 1: the source alone; T = 0. The two others still ask
		// until informed (package doc): with one informed, each asks the
		// source with probability 1/2 and succeeds with s = a²/2, sending
		// 1 + a/2 messages a round on average; with two informed the last
		// one succeeds with a² and sends 1 + a a round, E₂ = (1 + a)/a²
		// (Wald); by the first step E₁ = 2(1 + a/2) + (1−s)²E₁ +
		// 2s(1−s)E₂.
		{name: "level reached at 0", cfg: Config{Nodes: 3, Protocol: Pull, Fanout: 1, Loss: eps, Level: 0.3},
			pmf: func(r int) float64 {
				if r == 0 {
					return 1
				}
				return 0
			}, msgs: func() float64 {
				s, e2 := a*a/2, (1+a)/(a*a)
				return (2 + a + 2*s*(1-s)*e2) / (1 - (1-s)*(1-s)) / 3
			}()},
		// Fanout N − 1, no loss: the source pushes to all 49 others in
		// round 1; every uninformed node asks all 49 others, the source
		// among them, which replies: T = 1, messages 49 (push), 49·49 + 49
		// (pull), 49 + 49·49 + 49 (both).
		{name: "push full fanout", cfg: Config{Nodes: 50, Protocol: Push, Fanout: 49, Level: 1},
			pmf: geometric(1), msgs: 49.0 / 50, msgsEach: 49},
		{name: "pull full fanout", cfg: Config{Nodes: 50, Protocol: Pull, Fanout: 49, Level: 1},
			pmf: geometric(1), msgs: 49.0 * 50 / 50, msgsEach: 49 * 50},
		{name: "push-pull full fanout", cfg: Config{Nodes: 50, Protocol: PushPull, Fanout: 49, Level: 1},
			pmf: geometric(1), msgs: 49.0 * 51 / 50, msgsEach: 49 * 51},
	}
	const R = 4000
	t.Logf("seed %d, %d replications", testSeed, R)
	for _, eng := range engines {
		for _, row := range rows {
			t.Run(eng.name+"/"+row.name, func(t *testing.T) {
				s, err := Simulate(context.Background(), row.cfg, SimSettings{Reps: R, Seed: testSeed, Workers: 2, Literal: eng.literal})
				if err != nil {
					t.Fatal(err)
				}
				law := s.Law()
				for r := 0; r <= 12; r++ {
					want, got := row.pmf(r), 0.0
					if r < len(law.PMF) {
						got = law.PMF[r]
					}
					if !within(got, want, math.Sqrt(want*(1-want)/R)) {
						t.Errorf("P(T = %d) = %.4f, want %.4f", r, got, want)
					}
				}
				if !within(law.Never, row.never, math.Sqrt(row.never*(1-row.never)/R)) {
					t.Errorf("Never = %.4f, want %.4f", law.Never, row.never)
				}
				if !within(law.PMiss, row.pmiss, math.Sqrt(row.pmiss*(1-row.pmiss)/R)) {
					t.Errorf("PMiss = %.4f, want %.4f", law.PMiss, row.pmiss)
				}
				M := float64(row.cfg.Live())
				res, resSE := meanSE(s, func(r Replication) float64 { return float64(r.Missed) / M })
				if !within(res, row.residue, resSE) {
					t.Errorf("Residue = %.4f ± %.4f, want %.4f", res, resSE, row.residue)
				}
				se := law.MessagesSD / math.Sqrt(R)
				for _, r := range s.Reps {
					if row.msgsEach > 0 && r.Messages != row.msgsEach {
						t.Fatalf("replication %d: %d messages, want %d", r.Index, r.Messages, row.msgsEach)
					}
				}
				if !within(law.Messages, row.msgs, se) {
					t.Errorf("Messages = %.4f ± %.4f, want %.4f", law.Messages, se, row.msgs)
				}
			})
		}
	}
}

// TestBudgetCounts pins the budget with ε = 0: with B = 2 and k = 3 every
// node pushes exactly twice, in the round after it is informed (its last
// round sends fewer than k; a node informed late may be cut short by the
// end of the run), so a run that stops short (T = ∞) sent
// exactly 2 messages per informed node; with B = 7 a node sends 3, 3, 1.
func TestBudgetCounts(t *testing.T) {
	for _, B := range []int{2, 7} {
		cfg := Config{Nodes: 30, Protocol: Push, Fanout: 3, Budget: B, Level: 1}
		want := []int{min(B, 3)}
		if B == 7 {
			want = []int{3, 3, 1}
		}
		l := newLiteral(cfg, testSeed)
		for i := range 200 {
			sends := map[int]map[int]int{} // node → round → pushes
			lastRound := 0
			l.Trace = func(ev literal.Event) {
				lastRound = ev.Round
				if sends[ev.From] == nil {
					sends[ev.From] = map[int]int{}
				}
				sends[ev.From][ev.Round]++
			}
			_, err := l.run(context.Background(), i)
			if err != nil {
				t.Fatal(err)
			}
			if got := sends[0][1]; got != want[0] {
				t.Fatalf("B=%d: the source sent %d messages in round 1, want %d", B, got, want[0])
			}
			for v, byRound := range sends {
				first := math.MaxInt
				for r := range byRound {
					first = min(first, r)
				}
				for j, w := range want {
					if first+j <= lastRound && byRound[first+j] != w {
						t.Fatalf("B=%d rep %d: node %d sent %v by round, want %v from round %d", B, i, v, byRound, want, first)
					}
				}
				if len(byRound) > len(want) {
					t.Fatalf("B=%d rep %d: node %d sent in %d rounds, want %d", B, i, v, len(byRound), len(want))
				}
			}
		}
		for _, eng := range engines {
			s, err := Simulate(context.Background(), cfg, SimSettings{Reps: 500, Seed: testSeed, Literal: eng.literal})
			if err != nil {
				t.Fatal(err)
			}
			stopped := 0
			for _, r := range s.Reps {
				if r.T < 0 {
					stopped++
					if r.Messages != int64(B*(cfg.Live()-r.Missed)) {
						t.Errorf("%s B=%d: %d messages with %d informed, want %d each", eng.name, B, r.Messages, cfg.Live()-r.Missed, B)
					}
				}
			}
			if stopped == 0 {
				t.Errorf("%s B=%d: no run stopped short; the check did not run", eng.name, B)
			}
		}
	}
}

// TestEnginesAgree checks the default engine's shortcuts (skipped senders,
// the first useful peer drawn from its law, Floyd sets of uninformed
// nodes) against the literal rules: for each configuration (chosen to run
// the dense and the sparse paths, budgets with a short last round, fanouts
// past 16 and 8, loss and failures) the PMF of T_L, Never, PMiss, the mean
// messages and the residue of the two engines agree within 5 standard
// errors of their difference (testSeed, independent samples).
func TestEnginesAgree(t *testing.T) {
	t.Parallel()
	cfgs := []Config{
		{Nodes: 200, Protocol: Push, Fanout: 1, Loss: 0.1, Level: 1},
		{Nodes: 100, Protocol: Push, Fanout: 20, Loss: 0.2, Failed: 0.1, Level: 1},
		{Nodes: 200, Protocol: Push, Fanout: 2, Loss: 0.1, Budget: 4, Level: 1},
		{Nodes: 200, Protocol: Push, Fanout: 3, Budget: 5, Failed: 0.3, Level: 0.9},
		{Nodes: 200, Protocol: Pull, Fanout: 1, Loss: 0.2, Level: 1},
		{Nodes: 100, Protocol: Pull, Fanout: 20, Loss: 0.1, Failed: 0.2, Level: 1},
		{Nodes: 200, Protocol: PushPull, Fanout: 2, Loss: 0.3, Failed: 0.1, Budget: 3, Level: 1},
		{Nodes: 150, Protocol: PushPull, Fanout: 1, Level: 0.5},
	}
	const R = 2000
	for _, cfg := range cfgs {
		t.Run(fmt.Sprintf("%v/N=%d/k=%d/B=%d", cfg.Protocol, cfg.Nodes, cfg.Fanout, cfg.Budget), func(t *testing.T) {
			var s [2]*Sample
			for i, eng := range engines {
				var err error
				if s[i], err = Simulate(context.Background(), cfg, SimSettings{Reps: R, Seed: testSeed, Literal: eng.literal}); err != nil {
					t.Fatal(err)
				}
			}
			agree(t, s[0], s[1])
		})
	}
}

// agree checks two samples of one law against each other (TestEnginesAgree).
func agree(t *testing.T, a, b *Sample) {
	t.Helper()
	la, lb := a.Law(), b.Law()
	Ra, Rb := float64(len(a.Reps)), float64(len(b.Reps))
	prob := func(name string, p, q float64) {
		pool := (p*Ra + q*Rb) / (Ra + Rb)
		if se := math.Sqrt(pool * (1 - pool) * (1/Ra + 1/Rb)); !within(p, q, se) {
			t.Errorf("%s: %.4f vs %.4f (se %.4f)", name, p, q, se)
		}
	}
	for r := range max(len(la.PMF), len(lb.PMF)) {
		var p, q float64
		if r < len(la.PMF) {
			p = la.PMF[r]
		}
		if r < len(lb.PMF) {
			q = lb.PMF[r]
		}
		prob(fmt.Sprintf("P(T = %d)", r), p, q)
	}
	prob("Never", la.Never, lb.Never)
	prob("PMiss", la.PMiss, lb.PMiss)
	M := float64(a.Config.Live())
	for _, f := range []struct {
		name string
		f    func(Replication) float64
	}{
		{"messages", func(r Replication) float64 { return float64(r.Messages) / M }},
		{"residue", func(r Replication) float64 { return float64(r.Missed) / M }},
	} {
		ma, sa := meanSE(a, f.f)
		mb, sb := meanSE(b, f.f)
		if !within(ma, mb, math.Hypot(sa, sb)) {
			t.Errorf("%s: %.4f ± %.4f vs %.4f ± %.4f", f.name, ma, sa, mb, sb)
		}
	}
}

// TestReproducible checks that a run depends on the seed and the engine
// only: the same seed gives the same sample on 1 and 4 workers; another
// seed gives another sample.
func TestReproducible(t *testing.T) {
	cfg := Config{Nodes: 300, Protocol: PushPull, Fanout: 2, Loss: 0.1, Failed: 0.1, Budget: 4, Level: 0.95}
	for _, eng := range engines {
		run := func(seed uint64, workers int) *Sample {
			s, err := Simulate(context.Background(), cfg, SimSettings{Reps: 64, Seed: seed, Workers: workers, Literal: eng.literal})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		one, four := run(7, 1), run(7, 4)
		if !reflect.DeepEqual(one, four) {
			t.Errorf("%s: 1 and 4 workers differ", eng.name)
		}
		if reflect.DeepEqual(one.Reps, run(8, 2).Reps) {
			t.Errorf("%s: seeds 7 and 8 gave the same sample", eng.name)
		}
	}
}

// TestShardsMerge runs a run's replications as 3 shards (r mod 3) and
// merges them, in another order: the sample, and its law printed with
// every bit of every float, are the single run's.
func TestShardsMerge(t *testing.T) {
	cfg := Config{Nodes: 100, Protocol: Push, Fanout: 2, Loss: 0.2, Budget: 4, Level: 1}
	const R = 50
	full, err := Simulate(context.Background(), cfg, SimSettings{Reps: R, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var parts []*Sample
	for _, i := range []int{2, 3, 1} {
		id := ShardID{Index: i, Count: 3}
		p, err := Simulate(context.Background(), cfg, SimSettings{Reps: R, Seed: 3, Indices: id.Indices(R)})
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	merged, missing, err := MergeSamples(parts, false)
	if err != nil || len(missing) != 0 {
		t.Fatal(err, missing)
	}
	if !reflect.DeepEqual(merged, full) {
		t.Error("merged sample differs from the single run's")
	}
	if a, b := fmt.Sprintf("%#v", *merged.Law()), fmt.Sprintf("%#v", *full.Law()); a != b {
		t.Errorf("merged law\n%s\nsingle run's\n%s", a, b)
	}
	// Refusals: a part twice, a part missing, a part of another run.
	var me *MergeError
	if _, _, err := MergeSamples([]*Sample{parts[0], parts[0]}, true); !errors.As(err, &me) {
		t.Errorf("duplicate: %v", err)
	}
	if _, missing, err := MergeSamples(parts[:2], false); !errors.As(err, &me) || missing.Len() != len(parts[2].Reps) {
		t.Errorf("missing: %v (%d missing)", err, missing.Len())
	}
	if m, missing, err := MergeSamples(parts[:2], true); err != nil || len(m.Reps)+missing.Len() != R {
		t.Errorf("allowMissing: %v", err)
	}
	other := *parts[1]
	other.Seed = 4
	if _, _, err := MergeSamples([]*Sample{parts[0], &other, parts[2]}, false); !errors.As(err, &me) {
		t.Errorf("another seed: %v", err)
	}
}

// TestBadSettings checks that every invalid field is a *FieldError naming
// it, and that nil and cancelled contexts stop the run.
func TestBadSettings(t *testing.T) {
	ok := Config{Nodes: 10, Protocol: Push, Fanout: 2, Level: 1}
	huge := ok
	huge.Nodes = MaxSimNodes + 1
	rows := []struct {
		cfg   Config
		set   SimSettings
		field string
	}{
		{ok, SimSettings{Reps: -1}, "Settings.Reps"},
		{ok, SimSettings{Reps: MaxReps + 1}, "Settings.Reps"},
		{ok, SimSettings{Workers: -1}, "Settings.Workers"},
		{ok, SimSettings{Reps: 5, Indices: []int{5}}, "Settings.Indices"},
		{ok, SimSettings{Reps: 5, Indices: []int{2, 1}}, "Settings.Indices"},
		{ok, SimSettings{Reps: 5, Indices: []int{-1}}, "Settings.Indices"},
		{huge, SimSettings{}, "Config.Nodes"},
		{Config{Nodes: 10, Protocol: Pull, Fanout: 2, Level: 1, Budget: 3}, SimSettings{}, "Config.Budget"},
		{Config{Nodes: 10, Protocol: Push, Fanout: 2, Level: math.NaN()}, SimSettings{}, "Config.Level"},
		{Config{Nodes: 10, Protocol: Push, Fanout: 10, Level: 1}, SimSettings{}, "Config.Fanout"},
	}
	for _, row := range rows {
		_, err := Simulate(context.Background(), row.cfg, row.set)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != row.field {
			t.Errorf("%+v %+v: %v, want a FieldError on %s", row.cfg, row.set, err, row.field)
		}
	}
	//lint:ignore SA1012 a nil context is what is tested
	if _, err := Simulate(nil, ok, SimSettings{}); err == nil { //nolint:staticcheck
		t.Error("nil context accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Simulate(ctx, ok, SimSettings{Reps: 10}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// The estimate against the arrays the engines allocate: the bitset
	// (N/8 bytes) and the literal engine's state (N) and lists (8N).
	if est := SimMemoryEstimate(huge, SimSettings{Workers: 1, Reps: 1}); est < uint64(huge.Nodes)/8 {
		t.Errorf("SimMemoryEstimate = %d at N = %d, default engine", est, huge.Nodes)
	}
	if est := SimMemoryEstimate(huge, SimSettings{Workers: 2, Reps: 5, Literal: true}); est < 2*9*uint64(huge.Nodes) {
		t.Errorf("SimMemoryEstimate = %d at N = %d, literal engine on 2 workers", est, huge.Nodes)
	}
}

// TestCancelInside checks that a replication at N = 10^6 stops on a
// cancelled context, in each engine and protocol, in its first round or
// inside it.
func TestCancelInside(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, p := range []Protocol{Push, Pull, PushPull} {
		cfg := Config{Nodes: 1_000_000, Protocol: p, Fanout: 3, Level: 1}
		if _, err := newEngine(cfg, 1).run(ctx, 0); !errors.Is(err, context.Canceled) {
			t.Errorf("default %v: %v", p, err)
		}
		if _, err := newLiteral(cfg, 1).run(ctx, 0); !errors.Is(err, context.Canceled) {
			t.Errorf("literal %v: %v", p, err)
		}
		// Inside a round: 5·10^5 askers of a pull round, half the nodes
		// informed (the dense path).
		e := newEngine(cfg, 1)
		e.ctx, e.r = ctx, rng.NewStream(1, 0)
		e.pull(cfg.Nodes / 2)
		if !errors.Is(e.err, context.Canceled) {
			t.Errorf("pull round: %v", e.err)
		}
	}
}

// TestProgress checks that Progress counts every replication once.
func TestProgress(t *testing.T) {
	var calls, last int64
	cfg := Config{Nodes: 20, Protocol: Pull, Fanout: 1, Level: 1}
	_, err := Simulate(context.Background(), cfg, SimSettings{Reps: 37, Workers: 3, Progress: func(done, total int64) {
		calls++
		if done != last+1 || total != 37 {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		last = done
	}})
	if err != nil || calls != 37 {
		t.Errorf("%v, %d calls", err, calls)
	}
}

// TestSenderLaw checks the default engine's per-sender draws against
// exhaustive enumeration: of all ordered sequences of t distinct peers
// among pool = 9 (good of them useful), the law of the position of the
// first useful one given that there is one (engine.first on the table of
// firstTable), of the number of useful ones (more from scratch), and of
// that number given at least one (first, then more): 200 000 draws each,
// every probability within 5 standard errors (testSeed); and the law of
// the delivered count D of pushTable, without and with loss.
func TestSenderLaw(t *testing.T) {
	const pool, draws = 9, 200_000
	for _, c := range []struct{ t, good int }{{1, 2}, {3, 2}, {5, 3}, {9, 4}, {4, 9}} {
		// Enumerate: peers 0..good−1 are the useful ones.
		firstN := make([]float64, c.t)
		countN := make([]float64, c.t+1)
		var total float64
		var rec func(used []bool, depth, first, count int)
		rec = func(used []bool, depth, first, count int) {
			if depth == c.t {
				total++
				countN[count]++
				if first >= 0 {
					firstN[first]++
				}
				return
			}
			for p := range pool {
				if used[p] {
					continue
				}
				used[p] = true
				f, n := first, count
				if p < c.good {
					n++
					if f < 0 {
						f = depth
					}
				}
				rec(used, depth+1, f, n)
				used[p] = false
			}
		}
		rec(make([]bool, pool), 0, -1, 0)
		hits := total - countN[0]
		e := newEngine(Config{Nodes: pool + 1, Protocol: Push, Fanout: 1, Level: 1}, 0)
		e.r = rng.NewStream(testSeed, uint64(c.t*16+c.good))
		e.firstTable(c.t, c.good, pool)
		gotFirst := make([]float64, c.t)
		gotCond := make([]float64, c.t+1)
		gotCount := make([]float64, c.t+1)
		for range draws {
			j := e.first()
			gotFirst[j]++
			gotCond[e.more(j+1, c.t, 1, c.good, pool)]++
			gotCount[e.more(0, c.t, 0, c.good, pool)]++
		}
		check := func(what string, got []float64, want []float64, norm float64) {
			for i := range got {
				p := want[i] / norm
				if g := got[i] / draws; !within(g, p, math.Sqrt(p*(1-p)/draws)) {
					t.Errorf("t=%d good=%d: %s %d: %.5f, want %.5f", c.t, c.good, what, i, g, p)
				}
			}
		}
		check("first useful at", gotFirst, firstN, hits)
		condN := slices.Clone(countN)
		condN[0] = 0
		check("useful given one", gotCond, condN, hits)
		check("useful", gotCount, countN, total)
		// pushTable: P(D ≥ d) for D ~ Binomial(A, 1 − ε), A the useful
		// peers, from the enumerated law of A and binomial coefficients
		// (1e-12: float rounding of sums of at most 10 terms).
		if c.t <= maxTable {
			for _, eps := range []float64{0, 1e-100, 0.3, 0.7} {
				e.eps = eps
				e.pushTable(c.t, c.good, pool)
				for d := 0; d <= c.t+1; d++ {
					want := 0.0
					for i := d; i <= c.t; i++ {
						for a := i; a <= c.t; a++ {
							want += countN[a] / total * binom(a, i) * math.Pow(1-eps, float64(i)) * math.Pow(eps, float64(a-i))
						}
					}
					if math.Abs(e.tail[d]-want) > 1e-12 || math.IsNaN(e.tail[d]) {
						t.Errorf("t=%d good=%d ε=%g: P(D ≥ %d) = %.15f, want %.15f", c.t, c.good, eps, d, e.tail[d], want)
					}
				}
			}
			e.eps = 0
		}
		lq0, p1 := noHit(c.t, c.good, pool)
		if q0 := countN[0] / total; math.Abs(math.Exp(lq0)-q0) > 1e-12 || math.Abs(p1-(1-q0)) > 1e-12 {
			t.Errorf("t=%d good=%d: q0 = %g, p1 = %g, want %g (enumeration; 1e-12 is float rounding)", c.t, c.good, math.Exp(lq0), p1, q0)
		}
	}
}

// binom is the binomial coefficient C(n, k) as a float (exact for small n).
func binom(n, k int) float64 {
	c := 1.0
	for i := range k {
		c = c * float64(n-i) / float64(i+1)
	}
	return c
}

// TestDemersResidue checks budgeted push at N = 20,000 against its large-N
// limit, derived independently of the code: every informed node makes
// exactly B transmits, each reaching a given other live node with
// probability (1 − ε)/(N − 1), so the final outbreak is that of a
// Reed–Frost epidemic with λ = B(1 − ε)M/(N − 1) contacts per node, and
// the share s of live nodes it misses solves s = e^{−λ(1−s)} (Demers et
// al.'s relation; the smallest root, by iteration from 0); it dies out
// early with the extinction probability x of the branching process with
// Binomial(B, p) offspring, p = (1 − ε)(M − 1)/(N − 1), x = (1 − p + p·x)^B.
// The replications where more than half the live nodes are missed count
// as early extinctions (the outbreak sizes are far apart at M ≈ 2·10^4).
// Tolerances: 5 standard errors, plus 10/M for the residue (the mean final
// size of a finite epidemic differs from its limit by O(1/M)).
func TestSimulateDemersResidue(t *testing.T) {
	cfgs := []Config{
		{Nodes: 20_000, Protocol: Push, Fanout: 1, Budget: 2, Level: 1},
		{Nodes: 20_000, Protocol: Push, Fanout: 3, Budget: 3, Loss: 0.2, Failed: 0.1, Level: 1},
		{Nodes: 20_000, Protocol: Push, Fanout: 2, Budget: 4, Loss: 0.3, Level: 1},
	}
	const R = 300
	for _, cfg := range cfgs {
		t.Run(fmt.Sprintf("k=%d/B=%d/eps=%g/phi=%g", cfg.Fanout, cfg.Budget, cfg.Loss, cfg.Failed), func(t *testing.T) {
			s, err := Simulate(context.Background(), cfg, SimSettings{Reps: R, Seed: testSeed})
			if err != nil {
				t.Fatal(err)
			}
			M, N1, B := float64(cfg.Live()), float64(cfg.Nodes-1), float64(cfg.Budget)
			lam := B * (1 - cfg.Loss) * M / N1
			p := (1 - cfg.Loss) * (M - 1) / N1
			var z, x float64
			for range 10_000 {
				z, x = math.Exp(-lam*(1-z)), math.Pow(1-p+p*x, B)
			}
			var major []float64
			for _, r := range s.Reps {
				if 2*r.Missed < cfg.Live() {
					major = append(major, float64(r.Missed)/M)
				}
			}
			ext := 1 - float64(len(major))/R
			if !within(ext, x, math.Sqrt(x*(1-x)/R)) {
				t.Errorf("early extinctions %.4f, branching process %.4f", ext, x)
			}
			n := float64(len(major))
			var mean, ss float64
			for _, v := range major {
				mean += v
			}
			mean /= n
			for _, v := range major {
				ss += (v - mean) * (v - mean)
			}
			se := math.Sqrt(ss / (n - 1) / n)
			if !within(mean, z, se+10/M/5) {
				t.Errorf("residue of a major outbreak %.6f ± %.6f, Demers %.6f", mean, se, z)
			}
		})
	}
}

// laterCtx is a context whose Err is nil for its first n calls and
// context.Canceled from then on: a cancel that comes during a run.
type laterCtx struct {
	context.Context
	n int
}

func (c *laterCtx) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestCancelWide checks that a round of few senders with a wide fanout
// (each 10^4 draws) stops on a cancel that comes during the round: the
// check counts draws, not senders (a check every 4096 senders would not
// see it in a round of 1000).
func TestCancelWide(t *testing.T) {
	cfg := Config{Nodes: 30_000, Protocol: Push, Fanout: 10_000, Level: 1}
	e := newEngine(cfg, 1)
	e.ctx, e.work, e.r = &laterCtx{context.Background(), 1}, checkEvery, rng.NewStream(1, 0)
	e.push(1000, cfg.Fanout, 20_000)
	if !errors.Is(e.err, context.Canceled) {
		t.Errorf("default engine: %v", e.err)
	}
	for _, p := range []Protocol{Push, Pull} {
		cfg.Protocol = p
		// Err's calls: the check of round 1, then those inside rounds.
		if _, err := newLiteral(cfg, 1).run(&laterCtx{context.Background(), 2}, 0); !errors.Is(err, context.Canceled) {
			t.Errorf("literal engine, %v: %v", p, err)
		}
	}
}

// TestSampleLaw checks Sample.Law on a sample written by hand: 4
// replications of a configuration with M = 10 live nodes (N = 12,
// ⌊0.2·11⌋ = 2 failed), T = 2, 2, 5, ∞; missed 0, 0, 1, 4; messages 10,
// 20, 30, 40; watched values W1 0, 0, 0.2, 0.6. PMF: P(2) = 1/2, P(5) =
// 1/4; Never 1/4; PMiss 1/2 (two of four missed someone: the plain count,
// whose Wilson interval is narrower than the Bonferroni bracket of these
// W1 and W2 = 0); level 0.9 (T_L waits for 9 of the 10, so a run with one
// miss can end: at level 1 P(reach) would be 1 − PMiss); Residue from the watched runs, (M−1)/M·mean W1 = 0.9·0.2
// = 0.18; the sample's messages per live node (1 + 2 + 3 + 4)/4 = 2.5,
// sd √(((1.5)² + (0.5)²)·2/3) = √(5/3).
func TestSampleLaw(t *testing.T) {
	cfg := Config{Nodes: 12, Protocol: Push, Fanout: 2, Failed: 0.2, Budget: 2, Level: 0.9}
	s := &Sample{Config: cfg, Total: 4, Reps: []Replication{
		{Index: 0, T: 2, Messages: 10}, {Index: 1, T: 2, Messages: 20},
		{Index: 2, T: 5, Messages: 30, Missed: 1, W1: 0.2}, {Index: 3, T: -1, Messages: 40, Missed: 4, W1: 0.6}}}
	l := s.Law()
	want := []float64{0, 0, 0.5, 0, 0, 0.25}
	if fmt.Sprint(l.PMF) != fmt.Sprint(want) || l.Never != 0.25 || l.PMiss != 0.5 || l.Reps != 4 {
		t.Errorf("PMF %v Never %g PMiss %g Reps %d", l.PMF, l.Never, l.PMiss, l.Reps)
	}
	// 1e-15: the float rounding of sums of four terms.
	if math.Abs(l.Residue-0.18) > 1e-15 || math.Abs(l.Messages-2.5) > 1e-15 || math.Abs(l.MessagesSD-math.Sqrt(5.0/3)) > 1e-15 {
		t.Errorf("Residue %g Messages %g MessagesSD %g", l.Residue, l.Messages, l.MessagesSD)
	}
	// The Answer's messages follow the residue where the rule of a budget
	// holds (every informed live node sends all B = 2): 2·(1 − 0.18) =
	// 1.64, with the residue's error B·residue·rel/3, not the sample's
	// (these hand-written counts do not obey that rule).
	if a := l.Answer(cfg); !(math.Abs(a.Accuracy.SEMessages-2*l.Residue*l.ResidueRelErr/3) < 1e-15) || math.Abs(a.Messages-1.64) > 1e-15 || math.Abs(a.PReach-0.75) > 1e-15 {
		t.Errorf("Answer: Messages %g SEMessages %g PReach %g", a.Messages, a.Accuracy.SEMessages, a.PReach)
	}
}
