package broadcast

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
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

// enumerate is the law of the new count in one round, by enumerating every
// peer choice and every loss pattern: nodes 0..i−1 informed, i..M−1
// uninformed live, M..N−1 down. fanouts[s] is the fanout of sender s (push);
// pulls says whether the uninformed live nodes ask k peers.
func enumerate(N, M, i, k int, fanouts []int, pulls bool, eps float64) []float64 {
	others := func(v int) []int {
		var o []int
		for u := range N {
			if u != v {
				o = append(o, u)
			}
		}
		return o
	}
	subsets := func(set []int, size int) [][]int {
		var out [][]int
		for mask := 0; mask < 1<<len(set); mask++ {
			if bits.OnesCount(uint(mask)) != size {
				continue
			}
			var s []int
			for j, u := range set {
				if mask>>j&1 == 1 {
					s = append(s, u)
				}
			}
			out = append(out, s)
		}
		return out
	}
	type act struct {
		node  int
		fan   int
		asker bool
	}
	var acts []act
	for s, f := range fanouts {
		acts = append(acts, act{s, f, false})
	}
	if pulls {
		for v := i; v < M; v++ {
			acts = append(acts, act{v, k, true})
		}
	}
	law := make([]float64, M-i+1)
	var rec func(a int, informed uint, p float64)
	rec = func(a int, informed uint, p float64) {
		if a == len(acts) {
			law[bits.OnesCount(informed)] += p
			return
		}
		ac := acts[a]
		choices := subsets(others(ac.node), ac.fan)
		for _, ch := range choices {
			// Each message of the act: lost or not (a pull needs two).
			var rec2 func(j int, inf uint, p float64)
			rec2 = func(j int, inf uint, p float64) {
				if j == len(ch) {
					rec(a+1, inf, p)
					return
				}
				u := ch[j]
				if ac.asker {
					if u < i { // an informed peer: request and reply
						for _, ok1 := range []bool{true, false} {
							for _, ok2 := range []bool{true, false} {
								pp := p
								if ok1 {
									pp *= 1 - eps
								} else {
									pp *= eps
								}
								if ok2 {
									pp *= 1 - eps
								} else {
									pp *= eps
								}
								ni := inf
								if ok1 && ok2 {
									ni |= 1 << uint(ac.node-i)
								}
								rec2(j+1, ni, pp)
							}
						}
						return
					}
					rec2(j+1, inf, p)
					return
				}
				if u >= i && u < M {
					rec2(j+1, inf|1<<uint(u-i), p*(1-eps))
					rec2(j+1, inf, p*eps)
					return
				}
				rec2(j+1, inf, p)
			}
			rec2(0, informed, p/float64(len(choices)))
		}
	}
	rec(0, 0, 1)
	return law
}

// TestRowAgainstEnumeration compares the one-round law of the chain (the
// pull binomial, the sender recursion and their composition, with two
// fanouts as a budget makes them) with the enumeration of all peer choices
// and loss patterns. Tolerance 1e-11: the enumeration sums up to ~10⁵
// products of ~20 factors each, so its own rounding error is up to
// ~10⁵·2⁻⁵³ ≈ 1e-11 (measured differences: up to 5e-12 for push–pull).
func TestRowAgainstEnumeration(t *testing.T) {
	t.Parallel()
	const eps = 0.25
	type tc struct {
		N, failed int
		p         Protocol
		k, kl     int
	}
	var cases []tc
	for _, p := range []Protocol{Push, Pull, PushPull} {
		cases = append(cases, tc{4, 0, p, 1, 0}, tc{5, 0, p, 2, 0}, tc{5, 1, p, 2, 0})
	}
	cases = append(cases, tc{5, 0, Push, 3, 0}, tc{5, 0, Pull, 3, 0})
	cases = append(cases, tc{5, 0, Push, 3, 1}, tc{5, 1, PushPull, 2, 1})
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v/N=%d/failed=%d/k=%d/kl=%d", c.p, c.N, c.failed, c.k, c.kl), func(t *testing.T) {
			t.Parallel()
			cfg := Config{Nodes: c.N, Protocol: c.p, Fanout: c.k, Loss: eps, Level: 1}
			if c.failed > 0 {
				cfg.Failed = float64(c.failed) / float64(c.N-1)
			}
			if c.kl > 0 {
				cfg.Budget = c.k + c.kl // R = 2 rounds, the last with kl
			}
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			ch := newExactChain(cfg)
			M := cfg.Live()
			for i := 1; i < M; i++ {
				for last := 0; last <= i; last++ {
					if c.kl == 0 && last > 0 || !c.p.pushes() && last > 0 {
						break
					}
					full := i - last
					if !c.p.pushes() {
						full = 0
					}
					var fans []int
					for s := 0; s < full; s++ {
						fans = append(fans, c.k)
					}
					for s := 0; s < last; s++ {
						fans = append(fans, c.kl)
					}
					want := enumerate(c.N, M, i, c.k, fans, c.p.pulls(), eps)
					row, err := ch.row(context.Background(), i, full, last)
					if err != nil {
						t.Fatal(err)
					}
					for d, w := range want {
						got := 0.0
						if j := d - row.lo; j >= 0 && j < len(row.p) {
							got = row.p[j]
						}
						if math.Abs(got-w) > 1e-11 {
							t.Errorf("%v N=%d failed=%d k=%d kl=%d i=%d last=%d: P(D=%d) = %.16g, enumeration %.16g", c.p, c.N, c.failed, c.k, c.kl, i, last, d, got, w)
						}
					}
				}
			}
		})
	}
}

// TestRowAgainstInclusionExclusion checks the sender recursion at N = 24
// and 36 against the inclusion–exclusion form in exact rationals: with
// g(a) = Σ_j Hyp(j; k, a, N−1)·ε^j the chance that one sender misses a
// given set of a uninformed live nodes, and h(i) the pull miss,
//
//	P(D = d) = C(U, d) Σ_t (−1)^t C(d, t) [g(U−d+t)^i·h(i)^{U−d+t}]
//
// (h = 1 for push; pushes and pulls miss independently). ε = 1/4 and
// 1/8 are exact in binary. Tolerance 1e-13 absolute: the float recursion's
// relative error is below M(k+3)·u ≈ 2e-14.
func TestRowAgainstInclusionExclusion(t *testing.T) {
	hypRat := func(j, k, K, n int) *big.Rat {
		num := new(big.Int).Mul(new(big.Int).Binomial(int64(K), int64(j)), new(big.Int).Binomial(int64(n-K), int64(k-j)))
		return new(big.Rat).SetFrac(num, new(big.Int).Binomial(int64(n), int64(k)))
	}
	pow := func(x *big.Rat, e int) *big.Rat {
		r := big.NewRat(1, 1)
		for range e {
			r.Mul(r, x)
		}
		return r
	}
	for _, c := range []struct {
		N, failed, k int
		p            Protocol
		eps          *big.Rat
		is           []int
	}{
		{24, 0, 1, Push, big.NewRat(1, 4), []int{1, 5, 12, 20}},
		{24, 3, 3, Push, big.NewRat(1, 8), []int{2, 9, 17}},
		{36, 5, 2, PushPull, big.NewRat(1, 4), []int{3, 15, 28}},
		{36, 0, 4, PushPull, big.NewRat(0, 1), []int{6, 20}},
	} {
		eps, _ := c.eps.Float64()
		cfg := Config{Nodes: c.N, Protocol: c.p, Fanout: c.k, Loss: eps, Failed: float64(c.failed) / float64(c.N-1), Level: 1}
		ch := newExactChain(cfg)
		M, n1 := cfg.Live(), c.N-1
		if M != c.N-c.failed {
			t.Fatalf("M = %d", M)
		}
		g := func(a int) *big.Rat {
			s := new(big.Rat)
			for j := 0; j <= min(a, c.k); j++ {
				if c.k-j > n1-a {
					continue
				}
				s.Add(s, new(big.Rat).Mul(hypRat(j, c.k, a, n1), pow(c.eps, j)))
			}
			return s
		}
		one := big.NewRat(1, 1)
		okr := new(big.Rat).Sub(one, c.eps)
		q := new(big.Rat).Sub(one, new(big.Rat).Mul(okr, okr))
		for _, i := range c.is {
			U := M - i
			h := big.NewRat(1, 1)
			if c.p.pulls() {
				h = new(big.Rat)
				for j := 0; j <= min(i, c.k); j++ {
					if c.k-j > n1-i {
						continue
					}
					h.Add(h, new(big.Rat).Mul(hypRat(j, c.k, i, n1), pow(q, j)))
				}
			}
			row, err := ch.row(context.Background(), i, i, 0)
			if err != nil {
				t.Fatal(err)
			}
			for d := 0; d <= U; d++ {
				s := new(big.Rat)
				for tt := 0; tt <= d; tt++ {
					a := U - d + tt
					term := new(big.Rat).Mul(pow(g(a), i), pow(h, a))
					term.Mul(term, new(big.Rat).SetInt(new(big.Int).Binomial(int64(d), int64(tt))))
					if tt%2 == 1 {
						s.Sub(s, term)
					} else {
						s.Add(s, term)
					}
				}
				s.Mul(s, new(big.Rat).SetInt(new(big.Int).Binomial(int64(U), int64(d))))
				want, _ := s.Float64()
				got := 0.0
				if j := d - row.lo; j >= 0 && j < len(row.p) {
					got = row.p[j]
				}
				if math.Abs(got-want) > 1e-13 {
					t.Errorf("%v N=%d k=%d i=%d: P(D=%d) = %.16g, inclusion–exclusion %.16g", c.p, c.N, c.k, i, d, got, want)
				}
			}
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

func BenchmarkExactPush1000(b *testing.B) {
	for _, k := range []int{1, 3} {
		cfg := Config{Nodes: 1000, Fanout: k, Level: 1}
		b.Run("k="+string(rune('0'+k)), func(b *testing.B) {
			for b.Loop() {
				if _, err := ExactLaw(context.Background(), cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
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
