package chain

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// The law of T_L at any time a caller may ask for, huge or infinite ones
// included: two nodes, n = 7, c = 4, s = 2, where the second node is
// covered at rate 1 a round (ExampleTimeToLevel), so that in continuous
// time P(T ≤ t) = 1 − e^(−t), and in shuffles time each shuffle covers it
// with probability 1/2 (either initiator sends d w.p. p = 1/2), so that
// P(T ≤ t) = 1 − 2^(−⌊2t⌋). A deadline of 10¹⁸ rounds used to build a
// Poisson window of √10¹⁸ terms (gigabytes) or overflow an int and panic.
func TestLevelTimeCDFAtEveryTime(t *testing.T) {
	cfg := Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}, Level: 1}
	exact := map[gossip.Time]func(float64) float64{
		gossip.Continuous: func(t float64) float64 { return -math.Expm1(-t) },
		gossip.Shuffles:   func(t float64) float64 { return 1 - math.Pow(2, -math.Floor(2*t+1e-9)) },
	}
	times := []float64{0, 0.25, 0.5, 1, 2.5, 10, 30, 60, 100, 1e3, 1e6, 1e9, 1e13, 1e18, 1e100, 1e308, math.MaxFloat64, math.Inf(1)}
	for _, tm := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
		t.Run(tm.String(), func(t *testing.T) {
			c := cfg
			c.Time = tm
			lt, err := TimeToLevel(context.Background(), c, Settings{})
			if err != nil {
				t.Fatal(err)
			}
			prev := 0.0
			for _, x := range times {
				got := lt.CDF(x)
				// Within the chain's bound, plus rounding of a sum of
				// terms of size ≤ 1 (10⁻¹³).
				if want := exact[tm](x); math.Abs(got-want) > lt.Bound+1e-13 {
					t.Errorf("P(T ≤ %g) = %.15g, want %.15g (bound %.1e)", x, got, want, lt.Bound)
				}
				if got < prev {
					t.Errorf("P(T ≤ %g) = %.15g < %.15g at an earlier time", x, got, prev)
				}
				prev = got
			}
			if got := lt.CDF(math.NaN()); got != 0 {
				t.Errorf("P(T ≤ NaN) = %g, want 0", got)
			}
		})
	}
}

// Solve refuses, before any work, a configuration whose estimated work
// exceeds Settings.MaxStateSteps: n = c = 2^40, s = 1 makes a copy at rate
// u = 2(s/c)(c−s)/(n−s) = 2^−39 a round, so full coverage of 10 nodes
// takes about 10^13 rounds (Estimate: 3.5·10^13), and the solve never
// ended. A nil context is an error, not a panic.
func TestSolveRefusesBeforeWork(t *testing.T) {
	huge := Config{Nodes: 10, Shuffle: gossip.Shuffle{Items: 1 << 40, Cache: 1 << 40, Exchange: 1}, TMax: 1, Dt: 1, Level: 1}
	small := Config{Nodes: 40, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, TMax: 10, Dt: 1}
	for _, tc := range []struct {
		name string
		cfg  Config
		set  Settings
	}{
		{"n = c = 2^40", huge, Settings{}},
		{"a limit below the work", small, Settings{MaxStateSteps: 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Solve(context.Background(), tc.cfg, tc.set)
			if !errors.Is(err, gossip.ErrTooLarge) || !strings.HasPrefix(err.Error(), "chain: ") {
				t.Fatalf("err = %v, want a chain error wrapping gossip.ErrTooLarge", err)
			}
		})
	}
	if _, err := Solve(context.Background(), small, Settings{}); err != nil {
		t.Errorf("the default limit refuses N = 40: %v", err)
	}
	//lint:ignore SA1012 a nil context is what is tested
	if _, err := Solve(nil, small, Settings{}); err == nil { //nolint:staticcheck
		t.Error("nil context: no error")
	}
}

// Tolerances that are not numbers in (0, 1) (for Tol, [1e-300, 1)) mean
// the defaults: a NaN tolerance cut no Poisson tail and ran out of memory,
// and Tol = 5e-324 built a window without end (found by TestNastyValues).
// The answer is the default's, to the last bit.
func TestSettingsOutOfRangeMeanDefaults(t *testing.T) {
	cfg := Config{Nodes: 10, Shuffle: gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}, TMax: 5, Dt: 1, Level: 0.9}
	want, err := Solve(context.Background(), cfg, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 1, 2, 5e-324, 1e-301} {
		// Below 1e-300 Tol means the default (a cut of Tol·10⁻⁶ would
		// underflow and a window never end); Drop keeps tiny values.
		drop := v
		if v > 0 && v < 1 {
			drop = 0
		}
		got, err := Solve(context.Background(), cfg, Settings{Tol: v, Drop: drop})
		if err != nil {
			t.Fatalf("Tol = Drop = %g: %v", v, err)
		}
		if got.Rows[5] != want.Rows[5] || got.Level.Mean != want.Level.Mean {
			t.Errorf("Tol = Drop = %g: row %+v, want %+v", v, got.Rows[5], want.Rows[5])
		}
	}
}

// Progress of a law of the level: the total includes the level's tail
// (Estimate's steps), so a progress bar moves instead of sitting full from
// the start (the total was the steps to TMax = 1 round, 40 at N = 300,
// against 12288 steps done); done never passes total, and the last call
// has done of at least a third of total (Estimate is within a factor 3).
func TestLevelProgressTotal(t *testing.T) {
	cfg := Config{Nodes: 300, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Level: 0.99}
	var calls int
	var lastDone, lastTotal int64
	_, err := TimeToLevel(context.Background(), cfg, Settings{Progress: func(done, total int64) {
		calls++
		if done > total {
			t.Errorf("done %d > total %d", done, total)
		}
		lastDone, lastTotal = done, total
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 2 || 3*lastDone < lastTotal {
		t.Errorf("%d calls, last %d of %d", calls, lastDone, lastTotal)
	}
}
