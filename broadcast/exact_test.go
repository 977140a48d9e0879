package broadcast

import (
	"context"
	"encoding/csv"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestExactByHand checks the chain against laws derived by hand at N = 2
// and N = 3. Tolerance 1e-12: the chain's own Bound is below 1e-13 here
// (truncation at 1e-14 plus rounding), and the closed forms are evaluated
// in float64 with a few roundings.
func TestExactByHand(t *testing.T) {
	geom := func(p float64) func(r int) float64 { // P(G = r), r ≥ 1
		return func(r int) float64 {
			if r < 1 {
				return 0
			}
			return math.Pow(1-p, float64(r-1)) * p
		}
	}
	conv := func(a, b func(int) float64) func(int) float64 {
		return func(r int) float64 {
			s := 0.0
			for j := 0; j <= r; j++ {
				s += a(j) * b(r-j)
			}
			return s
		}
	}
	const eps = 0.3
	q := 1 - (1-eps)*(1-eps) // a pull fails
	cases := []struct {
		name string
		cfg  Config
		// pmf is P(T_L = r); msgs the expected messages per live node.
		pmf  func(int) float64
		msgs float64
	}{
		// N = 2, push: the source's one push reaches the other node with
		// probability 1 − ε each round: T_1 ~ Geometric(1 − ε); one message a
		// round, E[T]/M = 1/(2(1−ε)).
		{"N2 push", Config{Nodes: 2, Fanout: 1, Loss: eps, Level: 1}, geom(1 - eps), 1 / (2 * (1 - eps))},
		// N = 2, pull: a request and its reply both arrive with (1−ε)²;
		// a round costs one request and a reply with probability 1 − ε.
		{"N2 pull", Config{Nodes: 2, Protocol: Pull, Fanout: 1, Loss: eps, Level: 1}, geom(1 - q), (2 - eps) / (1 - q) / 2},
		// N = 2, push–pull: the round fails if the push and the pull both
		// fail, ε·q; a round costs 1 push + 1 request + (1−ε) replies.
		{"N2 push-pull", Config{Nodes: 2, Protocol: PushPull, Fanout: 1, Loss: eps, Level: 1}, geom(1 - eps*q), (3 - eps) / (1 - eps*q) / 2},
		// N = 3, push k = 1: the first round's push reaches an uninformed
		// node w.p. 1 − ε; then two senders each reach the last node w.p.
		// (1−ε)/2, so a round fails w.p. (1 − (1−ε)/2)². T = G₁ + G₂.
		// Messages: E[G₁]·1 + E[G₂]·2, over M = 3.
		{"N3 push", Config{Nodes: 3, Fanout: 1, Loss: eps, Level: 1},
			conv(geom(1-eps), geom(1-(1-(1-eps)/2)*(1-(1-eps)/2))), (1/(1-eps) + 2/(1-(1-(1-eps)/2)*(1-(1-eps)/2))) / 3},
		// N = 3, level 0.5: ⌈1.5⌉ = 2 nodes: T = G₁.
		{"N3 push L=.5", Config{Nodes: 3, Fanout: 1, Loss: eps, Level: 0.5}, geom(1 - eps), 1 / (1 - eps) / 3},
		// N = 3, one node down (φ = 0.5 → ⌊0.5·2⌋ = 1): the source picks
		// the live node w.p. 1/2: T ~ Geometric((1−ε)/2), M = 2.
		{"N3 push failed", Config{Nodes: 3, Fanout: 1, Loss: eps, Failed: 0.5, Level: 1}, geom((1 - eps) / 2), 1 / ((1 - eps) / 2) / 2},
		// N = 3, pull k = 2 (asks both others): round 1 each of the two
		// uninformed reaches the source w.p. 1−q; each stays w.p. q. From
		// i = 2 the last one asks both informed: fails w.p. q².
		// P(T=1) = (1−q)²; T>1 paths go through i = 2 after G₁ rounds with
		// per-round law of (X₁) ~ Bin(2, 1−q) until first success.
		{"N3 pull k2", Config{Nodes: 3, Protocol: Pull, Fanout: 2, Loss: eps, Level: 1}, func(r int) float64 {
			// Let a = P(both in a round) = (1−q)², b = P(exactly one) = 2q(1−q),
			// c = q². P(T = r) = c^{r−1}a + Σ_{s<r} c^{s−1} b · (q²)^{r−s−1}(1−q²).
			a, b, c := (1-q)*(1-q), 2*q*(1-q), q*q
			if r < 1 {
				return 0
			}
			p := math.Pow(c, float64(r-1)) * a
			for s := 1; s < r; s++ {
				p += math.Pow(c, float64(s-1)) * b * math.Pow(q*q, float64(r-s-1)) * (1 - q*q)
			}
			return p
		}, math.NaN()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := ExactLaw(context.Background(), tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			for r := 0; r < 60; r++ {
				got := 0.0
				if r < len(l.PMF) {
					got = l.PMF[r]
				}
				if want := tc.pmf(r); math.Abs(got-want) > 1e-12 {
					t.Errorf("P(T=%d) = %.15g, want %.15g", r, got, want)
				}
			}
			if !math.IsNaN(tc.msgs) && math.Abs(l.Messages-tc.msgs) > 1e-12 {
				t.Errorf("messages %.15g, want %.15g", l.Messages, tc.msgs)
			}
			if l.Accuracy.Bound > 1e-12 {
				t.Errorf("bound %g", l.Accuracy.Bound)
			}
		})
	}
}

// TestExactBudgetByHand: N = 3, push k = 1, budget 1 (each node pushes
// once). The source's push arrives w.p. 1−ε (else the rumour stops with 2
// of 3 uninformed); the new node's one push reaches the last node w.p.
// (1−ε)/2. So PReach = (1−ε)²/2 with T_1 = 2, Residue = ε·2/3 +
// (1−ε)(1 − (1−ε)/2)·1/3, PMiss = 1 − PReach; messages: every informed node
// spends its one transmit (the stopping rule), E[informed] = 1 + (1−ε) +
// (1−ε)²/2, over M = 3.
func TestExactBudgetByHand(t *testing.T) {
	const eps = 0.2
	cfg := Config{Nodes: 3, Fanout: 1, Budget: 1, Loss: eps, Level: 1}
	l, err := ExactLaw(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 1e-15: each side is a handful of roundings of numbers ≤ 1 (1.1e-16
	// each), the chain's truncation being exact here (two rounds).
	reach := (1 - eps) * (1 - eps) / 2
	want := []float64{0, 0, reach}
	for r, w := range want {
		if math.Abs(l.PMF[r]-w) > 1e-15 {
			t.Errorf("P(T=%d) = %g, want %g", r, l.PMF[r], w)
		}
	}
	checks := []struct {
		name      string
		got, want float64
	}{
		{"never", l.Never, 1 - reach},
		{"residue", l.Residue, eps*2/3 + (1-eps)*(1-(1-eps)/2)/3},
		{"pmiss", l.PMiss, 1 - reach},
		{"messages", l.Messages, (1 + (1 - eps) + (1-eps)*(1-eps)/2) / 3},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > 1e-15 {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
}

// TestDoerrKunnemann: push k = 1 without loss, E[T_1] − (log₂N + ln N)
// lies in [−1.116, 2.765] (Doerr and Künnemann 2014, the bracket for the
// expected time of the random phone call push protocol) and, over
// N = 2^7…2^11 (one residue of log₂N, so the periodic term is fixed), its
// steps shrink (converging). The N = 4096 figure is in docs/MODEL.md (14 s,
// too slow for the suite).
func TestDoerrKunnemann(t *testing.T) {
	t.Parallel()
	var diffs []float64
	slack := 0.0 // the means' error, from the chain's Bound (below)
	for _, N := range []int{128, 256, 512, 1024, 2048} {
		cfg := Config{Nodes: N, Fanout: 1, Level: 1}
		l, err := ExactLaw(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		// A mass error of Bound, at worst in the last round, moves the mean
		// by Bound·len(PMF); a step is a difference of two means and the
		// check compares two steps: 4 such errors (≈ 1e-8 at N = 2048).
		slack = math.Max(slack, 4*l.Accuracy.Bound*float64(len(l.PMF)))
		d := l.Answer(cfg).Mean - (math.Log2(float64(N)) + math.Log(float64(N)))
		t.Logf("N = %d: E[T] − (log₂N + ln N) = %.4f", N, d)
		if d < -1.116 || d > 2.765 {
			t.Errorf("N = %d: %.4f outside [−1.116, 2.765]", N, d)
		}
		diffs = append(diffs, d)
	}
	for j := 2; j < len(diffs); j++ {
		if math.Abs(diffs[j]-diffs[j-1]) > math.Abs(diffs[j-1]-diffs[j-2])+slack {
			t.Errorf("steps do not shrink: %v", diffs)
		}
	}
}

func TestExactErrors(t *testing.T) {
	var none context.Context // a nil ctx is the case under test
	if _, err := ExactLaw(none, Config{Nodes: 3, Fanout: 1, Level: 1}); err == nil {
		t.Error("nil ctx accepted")
	}
	var fe *FieldError
	if _, err := ExactLaw(context.Background(), Config{Nodes: 3, Fanout: 1, Level: math.NaN()}); !errors.As(err, &fe) {
		t.Errorf("NaN level: %v", err)
	}
	if _, err := ExactLaw(context.Background(), Config{Nodes: 1 << 30, Fanout: 1, Level: 1}); !errors.Is(err, ErrNotCovered) {
		t.Errorf("huge N: %v", err)
	}
	// memberlist's budget at N = 1,000: the budgeted chain is far beyond
	// its size.
	if _, err := ExactLaw(context.Background(), Config{Nodes: 1000, Fanout: 3, Budget: MemberlistBudget(1000, 4), Level: 1}); !errors.Is(err, ErrNotCovered) {
		t.Errorf("budget at N = 1000: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ExactLaw(ctx, Config{Nodes: 500, Fanout: 2, Level: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestExactAgainstPythonEnumeration compares the chain with
// testdata/broadcast/enum_N5.csv: laws at N = 4 and 5 computed in exact
// rationals by testdata/broadcast/enumerate.py, which enumerates every
// peer choice and loss pattern of every node and combines the nodes'
// laws over the sets they inform (no count chain, no sender recursion;
// provenance in testdata/README.md). Tolerance: the chain's Bound plus
// 1e-15 for the float rounding of the two sides (the file's floats are the
// rationals correctly rounded).
func TestExactAgainstPythonEnumeration(t *testing.T) {
	configs := map[string]Config{
		"push_N5_k2_e1/4":          {Nodes: 5, Protocol: Push, Fanout: 2, Loss: 0.25, Level: 1},
		"pull_N5_k2_e1/4_phi1/4":   {Nodes: 5, Protocol: Pull, Fanout: 2, Loss: 0.25, Failed: 0.25, Level: 1},
		"pushpull_N5_k1_e3/8_L0.6": {Nodes: 5, Protocol: PushPull, Fanout: 1, Loss: 0.375, Level: 0.6},
		"push_N5_k2_B3_e1/8":       {Nodes: 5, Protocol: Push, Fanout: 2, Loss: 0.125, Budget: 3, Level: 1},
		"pushpull_N4_k1_B2_e1/4":   {Nodes: 4, Protocol: PushPull, Fanout: 1, Loss: 0.25, Budget: 2, Level: 1},
	}
	f, err := os.Open(filepath.Join("..", "testdata", "broadcast", "enum_N5.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	laws := map[string]*Law{}
	checked := 0
	for _, rec := range recs[1:] {
		name, q, round := rec[0], rec[1], rec[2]
		want, err := strconv.ParseFloat(rec[4], 64)
		if err != nil {
			t.Fatal(err)
		}
		cfg, ok := configs[name]
		if !ok {
			t.Fatalf("unknown config %q", name)
		}
		l := laws[name]
		if l == nil {
			if l, err = ExactLaw(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			laws[name] = l
		}
		var got float64
		switch q {
		case "cdf":
			r, _ := strconv.Atoi(round)
			got = l.CDF(float64(r))
		case "never":
			got = l.Never
		case "residue":
			got = l.Residue
		case "pmiss":
			got = l.PMiss
		default:
			t.Fatalf("quantity %q", q)
		}
		if math.Abs(got-want) > l.Accuracy.Bound+1e-15 {
			t.Errorf("%s %s %s: %.17g, enumeration %.17g (%s)", name, q, round, got, want, rec[3])
		}
		checked++
	}
	if checked < 60 {
		t.Errorf("only %d values checked", checked)
	}
}

// TestExactCostEstimatesWork checks ExactCost, which Auto compares with
// its budget, against the multiply–adds the chain counts as it runs
// (countchain.Result.Work, incremented where the loops run, not from
// ExactCost's formula): within [0.6, 3] times it over every protocol, k 1
// and 3, ε 0 and 0.3, φ 0.1, level 0.9 and 1, N 50–800. Seen: 0.76–2.72
// (the rows' band is an estimate; small N pay the band's constant). The
// old estimate, M³(k+1)/6 for the pushes, fails it (3.4 at N 800).
func TestExactCostEstimatesWork(t *testing.T) {
	for _, N := range []int{50, 300, 800} {
		for _, p := range []Protocol{Push, Pull, PushPull} {
			for _, k := range []int{1, 3} {
				for _, eps := range []float64{0, 0.3} {
					for _, lv := range []float64{0.9, 1} {
						cfg := Config{Nodes: N, Protocol: p, Fanout: k, Loss: eps, Failed: 0.1, Level: lv}
						res, err := newExactChain(cfg).Law(context.Background())
						if err != nil {
							t.Fatal(err)
						}
						if r := ExactCost(cfg) / res.Work; !(r >= 0.6 && r <= 3) {
							t.Errorf("%+v: ExactCost %.3g is %.2f times the work %.3g, want within [0.6, 3]", cfg, ExactCost(cfg), r, res.Work)
						}
					}
				}
			}
		}
	}
}

// TestAutoRunsExactForDeepChances: at push–pull N 2,000, k 2, ε 0.1
// ExactCost (about 1.3·10⁹) is beyond the default ExactBudget (10⁹). With
// a deadline at level 1 the large-N law does not state P(T_L > D) within
// 5 % (it would take watched runs), so Auto runs the chain, within
// 20 × ExactBudget, and its answer is ExactLaw's. With ExactBudget 2·10⁷
// the chain is beyond 20 times it but within 200: Auto still runs it for
// push–pull, whose watched runs are heavy-tailed, not for push. Without a
// deadline and below level 1 nothing deep is asked, and with ExactBudget
// 10⁶ the chain is beyond 200 times it: Auto keeps the law, as it does
// where ExactLaw would refuse the chain.
func TestAutoRunsExactForDeepChances(t *testing.T) {
	ctx := context.Background()
	deep := Config{Nodes: 2000, Protocol: PushPull, Fanout: 2, Loss: 0.1, Level: 1, Deadline: 9}
	if c := ExactCost(deep); !(c > 1e9 && c <= 4e9) {
		t.Fatalf("ExactCost %.3g: the setting no longer tests the budgets", c)
	}
	l, err := ExactLaw(ctx, deep)
	if err != nil {
		t.Fatal(err)
	}
	want := l.Answer(deep).PLate
	for _, budget := range []float64{0, 2e7} {
		a, err := Solve(ctx, deep, Settings{Seed: 1, ExactBudget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if a.Method != Exact || a.PLate != want || !(a.PLateRelErr < 1e-9) {
			t.Errorf("ExactBudget %g: method %v, p_late %.6g (rel err %.2g), want exact %.6g", budget, a.Method, a.PLate, a.PLateRelErr, want)
		}
	}
	push := deep
	push.Protocol, push.Deadline = Push, 14
	if a, err := Solve(ctx, push, Settings{Seed: 1, Reps: 20, ExactBudget: 2e7}); err != nil || a.Method == Exact {
		t.Errorf("push, ExactBudget 2e7: method %v (%v), want the law or the runs", a.Method, err)
	}
	shallow := deep
	shallow.Deadline, shallow.Level = 0, 0.9
	if a, err := Solve(ctx, shallow, Settings{Seed: 1}); err != nil || a.Method != Asymptotic {
		t.Errorf("nothing deep asked: method %v (%v), want asymptotic", a.Method, err)
	}
	if a, err := Solve(ctx, deep, Settings{Seed: 1, Reps: 20, ExactBudget: 1e6}); err != nil || a.Method == Exact {
		t.Errorf("ExactBudget 1e6: method %v (%v), want the law or the runs", a.Method, err)
	}
	// Pull at N 90,000, ε 0.3, D 50: the law states p_late within 5.2 %
	// and the chain fits 200 × the budget, but ExactLaw refuses it (its
	// rows would hold 1.4 GB): Auto keeps the law (it failed with the
	// refusal once).
	big := Config{Nodes: 90000, Protocol: Pull, Fanout: 2, Loss: 0.3, Level: 1, Deadline: 50}
	if a, err := Solve(ctx, big, Settings{Seed: 1}); err != nil || a.Method == Exact {
		t.Errorf("pull N 90000: method %v (%v), want the law", a.Method, err)
	}
}

// TestExactLawWorkers: the chain's rows are computed on several
// goroutines, each row alone and the rounds in order, so the law is the
// same to the last bit on 1 and on 3 of them (push, pull, push–pull, with
// a deadline, loss and failures).
func TestExactLawWorkers(t *testing.T) {
	for _, p := range []Protocol{Push, Pull, PushPull} {
		cfg := Config{Nodes: 400, Protocol: p, Fanout: 2, Loss: 0.2, Failed: 0.05, Level: 1, Deadline: 8}
		one, err := exactLaw(context.Background(), cfg, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		three, err := exactLaw(context.Background(), cfg, nil, 3)
		if err != nil {
			t.Fatal(err)
		}
		a, b := one.Answer(cfg), three.Answer(cfg)
		same := len(one.PMF) == len(three.PMF)
		for r := range min(len(one.PMF), len(three.PMF)) {
			same = same && math.Float64bits(one.PMF[r]) == math.Float64bits(three.PMF[r])
		}
		for _, pair := range [][2]float64{{a.PLate, b.PLate}, {a.ResidueDeadline, b.ResidueDeadline}, {a.Mean, b.Mean}, {a.Messages, b.Messages}, {one.Accuracy.Bound, three.Accuracy.Bound}} {
			same = same && math.Float64bits(pair[0]) == math.Float64bits(pair[1])
		}
		if !same {
			t.Errorf("%v: 1 and 3 workers differ: p_late %v and %v, mean %v and %v", p, a.PLate, b.PLate, a.Mean, b.Mean)
		}
	}
}
