package chain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
)

// N = 2: X ∈ {1, 2}. From X = 1 a shuffle pairs the holder with the other
// node in one of the two orders, each w.p. 1/2, and copies d w.p. T(11|10)
// = p(1−q): up w.p. p(1−q) (both orders alike). From X = 2 one of the two
// holders drops d w.p. 2p(1−p)q. In continuous time (2 shuffles a round)
// this is a two-state chain with rates α = 2p(1−q), β = 4p(1−p)q, so
// P(X(t) = 2) = α/(α+β)·(1 − e^{−(α+β)t}).
func TestTwoNodesByHand(t *testing.T) {
	n, c, s := 7, 4, 2 // p = 1/2, q = 3/5 (simplified)
	p, q := 0.5, 0.6
	alpha, beta := 2*p*(1-q), 4*p*(1-p)*q
	for _, tm := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
		t.Run(tm.String(), func(t *testing.T) {
			res, err := Solve(context.Background(), Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: n, Cache: c, Exchange: s}, TMax: 3, Dt: 0.5, Time: tm}, Settings{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Rows {
				var p2 float64
				if tm == gossip.Continuous {
					p2 = alpha / (alpha + beta) * (1 - math.Exp(-(alpha+beta)*r.T))
				} else {
					// Per shuffle: 1 → 2 w.p. a = p(1−q), 2 → 1 w.p. b = 2p(1−p)q;
					// after k shuffles P(2) = a/(a+b)·(1 − (1−a−b)^k).
					a, b := p*(1-q), 2*p*(1-p)*q
					k := math.Round(2 * r.T)
					p2 = a / (a + b) * (1 - math.Pow(1-a-b, k))
				}
				// E[X/N] = (1 + P(X=2))/2; Y/N: Y = 2 once d was copied.
				want := (1 + p2) / 2
				if math.Abs(r.X.Mean-want) > 1e-12 {
					t.Errorf("t=%g: E[X/N] = %.15g, want %.15g", r.T, r.X.Mean, want)
				}
			}
		})
	}
}

// N = 3, by hand: D = N(N−1) = 6. Simplified P_drop with n = 7, c = 4,
// s = 2: T(11|10) = T(11|01) = 1/5, T(01|10) = T(10|01) = 3/10, and
// T(01|11) = T(10|11) = 3/20, so u = 2/5, m = 3/5, w = 3/10.
func TestJumpsAndThreeNodesByHand(t *testing.T) {
	j, err := JumpsFor(approx.Simplified, gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(j.Up-0.4) > 1e-15 || math.Abs(j.Move-0.6) > 1e-15 || math.Abs(j.Drop-0.3) > 1e-15 {
		t.Fatalf("jumps %+v, want u = 0.4, m = 0.6, w = 0.3", j)
	}
	// One shuffle from (X, Y) = (1, 1): → (2, 2) w.p. u·1·2/6 = 2/15,
	// → (1, 2) w.p. m·1·2/6 = 1/5, stays w.p. 2/3.
	l := newLaw(3, true, j, 1, 3)
	l.step()
	got := map[[2]int]float64{}
	l.each(func(x, y int, p float64) { got[[2]int{x, y}] = p })
	want := map[[2]int]float64{{2, 2}: 2.0 / 15, {1, 2}: 0.2, {1, 1}: 2.0 / 3}
	for k, w := range want {
		// 1e-15: each probability is a product and sum of three jump probabilities ≤ 1, a few ulp (2.2e-16) of 1.
		if math.Abs(got[k]-w) > 1e-15 {
			t.Errorf("P%v = %v, want %v", k, got[k], w)
		}
	}
	if len(got) != 3 {
		t.Errorf("mass on %v", got)
	}
	// From (2, 2): → (3, 3) u·2·1/6 = 2/15; → (2, 3) m·2·1/6 = 1/5;
	// → (1, 2) w·2·1/6 = 1/10; stays 17/30.
	l = newLaw(3, true, j, 2, 3)
	l.step()
	got = map[[2]int]float64{}
	l.each(func(x, y int, p float64) { got[[2]int{x, y}] = p })
	want = map[[2]int]float64{{3, 3}: 2.0 / 15, {2, 3}: 0.2, {1, 2}: 0.1, {2, 2}: 17.0 / 30}
	for k, w := range want {
		// 1e-15: as above, a few ulp of 1.
		if math.Abs(got[k]-w) > 1e-15 {
			t.Errorf("from (2,2): P%v = %v, want %v", k, got[k], w)
		}
	}
}

// E[K] and E[K²] by two independent algorithms: first-step analysis
// (HittingMoments, row-by-row tridiagonal solves) and the sums
// Σ S_k, Σ (2k+1)·S_k over the stepped per-shuffle laws.
func TestHittingMomentsAgainstSurvivalSums(t *testing.T) {
	j, _ := JumpsFor(approx.Simplified, gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50})
	for _, tc := range []struct{ N, initial, m int }{{20, 1, 19}, {50, 1, 50}, {50, 3, 40}} {
		t.Run(fmt.Sprint(tc), func(t *testing.T) {
			ek, ek2, err := hittingMoments(context.Background(), tc.N, tc.initial, tc.m, j)
			if err != nil {
				t.Fatal(err)
			}
			// The per-shuffle chain (rate N), with no trimming: exact up to
			// rounding.
			l := newLaw(tc.N, true, j, tc.initial, float64(tc.N))
			s := l.below(tc.m)
			sum, sum2 := 0.0, 0.0
			for k := 0; s > 1e-17; k++ {
				sum += s
				sum2 += float64(2*k+1) * s
				l.step()
				s = l.below(tc.m)
			}
			// Both are sums of O(10⁴) terms of size ≤ 1 (or ≤ 2k+1);
			// rounding stays below 1e-10 relative.
			if math.Abs(ek-sum) > 1e-10*sum || math.Abs(ek2-sum2) > 1e-10*sum2 {
				t.Errorf("E[K] %.15g vs %.15g, E[K²] %.15g vs %.15g", ek, sum, ek2, sum2)
			}
		})
	}
}

// The stationary law against the transient law long after the start, and
// its closed form: with simplified P_drop, r = c/(n−c), so X is
// Bin(N, c/n) conditioned on X ≥ 1 (mean ≈ N·c/n, sd ≈ √(N(c/n)(1−c/n))).
func TestStationaryAgainstLongTransient(t *testing.T) {
	const N, n, c, s = 60, 50, 10, 5
	j, _ := JumpsFor(approx.Simplified, gossip.Shuffle{Items: n, Cache: c, Exchange: s})
	if r := j.Up / j.Drop; math.Abs(r-float64(c)/float64(n-c)) > 1e-14 {
		t.Fatalf("r = %v, want c/(n−c) = %v", r, float64(c)/float64(n-c))
	}
	pi, err := stationary(N, j)
	if err != nil {
		t.Fatal(err)
	}
	// Binomial(60, 0.2) conditioned on X ≥ 1: P(X=0) = 0.8^60 ≈ 1.5e-6.
	p0 := math.Pow(0.8, N)
	mean := 0.0
	for x, p := range pi {
		mean += float64(x) * p
	}
	if want := N * 0.2 / (1 - p0); math.Abs(mean-want) > 1e-10 {
		t.Errorf("stationary mean %.12g, want %.12g", mean, want)
	}
	res, err := Solve(context.Background(), Config{Nodes: N, Shuffle: gossip.Shuffle{Items: n, Cache: c, Exchange: s}, ReplicationOnly: true, Time: gossip.Shuffles, TMax: 2000, Dt: 2000, Initial: 12}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	last := res.Rows[len(res.Rows)-1]
	sd := 0.0
	for x, p := range pi {
		sd += (float64(x) - mean) * (float64(x) - mean) * p
	}
	sd = math.Sqrt(sd)
	// After 2000 rounds (120 000 shuffles; the chain's relaxation time is
	// a few rounds) the transient law equals the stationary one to
	// rounding, plus the error bound.
	if math.Abs(last.X.Mean-mean/N) > 1e-9 || math.Abs(last.X.SD-sd/N) > 1e-9 {
		t.Errorf("transient mean %.12g sd %.12g, stationary %.12g %.12g", last.X.Mean, last.X.SD, mean/N, sd/N)
	}
}

// The Config forms of HittingMoments and Stationary against closed forms.
// Two nodes, n = 7, c = 4, s = 2: a shuffle copies d to the second node with
// probability 1/2 (either node initiates, and d is sent w.p. p = 1/2; see
// ExampleTimeToLevel), so K ~ Geometric(1/2): E[K] = 2, E[K²] = (2−p)/p² = 6,
// and the stationary law is Bin(2, c/n = 4/7) conditioned on X ≥ 1:
// π(1) = 2·(4/7)(3/7)/(1 − 9/49) = 24/40 = 0.6, π(2) = (16/49)/(40/49) = 0.4.
// Both are sums of a few terms: 1e-12 covers their rounding.
func TestConfigForms(t *testing.T) {
	cfg := Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}, Level: 1}
	ek, ek2, err := HittingMoments(context.Background(), cfg)
	if err != nil || math.Abs(ek-2) > 1e-12 || math.Abs(ek2-6) > 1e-12 {
		t.Errorf("HittingMoments = %v, %v, %v; want 2, 6", ek, ek2, err)
	}
	pi, err := Stationary(cfg)
	if err != nil || len(pi) != 3 || pi[0] != 0 || math.Abs(pi[1]-0.6) > 1e-12 || math.Abs(pi[2]-0.4) > 1e-12 {
		t.Errorf("Stationary = %v, %v; want [0 0.6 0.4]", pi, err)
	}
	// Level and Initial map to the row counts: N = 50 from 3 to ⌈0.8·50⌉ = 40.
	j, _ := JumpsFor(approx.Simplified, gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50})
	want, _, _ := hittingMoments(context.Background(), 50, 3, 40, j)
	got, _, err := HittingMoments(context.Background(), Config{Nodes: 50, Initial: 3, Level: 0.8, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}})
	if err != nil || got != want {
		t.Errorf("HittingMoments(N = 50, Initial 3, Level 0.8) = %v, %v; want %v", got, err, want)
	}
	for _, tc := range []struct {
		field string
		err   error
	}{
		{"Config.Level", func() error {
			_, _, err := HittingMoments(context.Background(), Config{Nodes: 2, Shuffle: cfg.Shuffle})
			return err
		}()},
		{"Config.Nodes", func() error {
			_, _, err := HittingMoments(context.Background(), Config{Nodes: 1, Shuffle: cfg.Shuffle, Level: 1})
			return err
		}()},
		{"Config.Nodes", func() error { _, err := Stationary(Config{Nodes: 1, Shuffle: cfg.Shuffle}); return err }()},
		{"Config.Shuffle.Exchange", func() error {
			_, err := Stationary(Config{Nodes: 9, Shuffle: gossip.Shuffle{Items: 7, Cache: 4, Exchange: 5}})
			return err
		}()},
	} {
		var fe *FieldError
		if !errors.As(tc.err, &fe) || fe.Field != tc.field || !strings.HasPrefix(tc.err.Error(), "chain: "+tc.field+" ") {
			t.Errorf("error %v, want chain: %s …", tc.err, tc.field)
		}
	}
}

// Validate names the field of every bad value, behind the package prefix.
func TestValidateNamesFields(t *testing.T) {
	ok := Config{Nodes: 50, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, TMax: 10, Dt: 1, Level: 0.9}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid config: %v", err)
	}
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"Config.Nodes", func(c *Config) { c.Nodes = 1 }},
		{"Config.Nodes", func(c *Config) { c.Nodes = MaxNodesJoint + 1 }},
		{"Config.Shuffle.Cache", func(c *Config) { c.Shuffle.Cache = 0 }},
		{"Config.Shuffle.Items", func(c *Config) { c.Shuffle.Items = 99 }},
		{"Config.Shuffle.Exchange", func(c *Config) { c.Shuffle.Exchange = 101 }},
		{"Config.Shuffle.Items", func(c *Config) { c.Shuffle.Items, c.Shuffle.Cache = gossip.MaxItems+1, gossip.MaxItems+1 }},
		{"Config.Initial", func(c *Config) { c.Initial = 51 }},
		{"Config.TMax", func(c *Config) { c.TMax = math.Inf(1) }},
		{"Config.Dt", func(c *Config) { c.Dt = 11 }},
		{"Config.Level", func(c *Config) { c.ReplicationOnly = true }},
		{"Config.Time", func(c *Config) { c.Time = gossip.Synchronous }},
		{"Config.Time", func(c *Config) { c.Time = 7 }},
	} {
		c := ok
		tc.edit(&c)
		err := c.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !strings.HasPrefix(err.Error(), "chain: "+tc.field+" ") {
			t.Errorf("%+v: error %v, want chain: %s …", c, err, tc.field)
		}
	}
}
