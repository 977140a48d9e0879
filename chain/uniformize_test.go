package chain

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
)

// dense is the joint chain (or X alone) written out as a dense matrix from
// the package doc's jump formulas, independently of law.go: P is the
// per-shuffle matrix, Q = N(P − I) the generator per round. With loss
// (j.Lose > 0) the states (0, Y) are included, absorbing, and the −1 jump
// gains ℓ·X(N−X)/D.
type dense struct {
	N, m   int
	joint  bool
	x, y   []int // state i is (x[i], y[i])
	P, Q   *mat.Dense
	start  int
	states int
}

func newDense(N int, j Jumps, joint bool, initial, m int) *dense {
	d := &dense{N: N, m: m, joint: joint}
	index := map[[2]int]int{}
	lo := 1
	if j.Lose > 0 {
		lo = 0
	}
	for y := 1; y <= N; y++ {
		for x := lo; x <= y; x++ {
			if !joint && y != N {
				continue // X alone: one state per X, Y unused (N)
			}
			index[[2]int{x, y}] = len(d.x)
			d.x, d.y = append(d.x, x), append(d.y, y)
		}
	}
	d.states = len(d.x)
	D := float64(N) * float64(N-1)
	d.P = mat.NewDense(d.states, d.states, nil)
	for i := range d.x {
		x, y := d.x[i], d.y[i]
		fx := float64(x)
		type jump struct {
			x, y int
			p    float64
		}
		var jumps []jump
		if joint {
			jumps = []jump{
				{x + 1, y + 1, j.Up * fx * float64(N-y) / D},
				{x, y + 1, j.Move * fx * float64(N-y) / D},
				{x + 1, y, j.Up * fx * float64(y-x) / D},
				{x - 1, y, j.Drop*fx*float64(x-1)/D + j.Lose*fx*float64(N-x)/D},
			}
		} else {
			jumps = []jump{{x + 1, N, j.Up * fx * float64(N-x) / D}, {x - 1, N, j.Drop*fx*float64(x-1)/D + j.Lose*fx*float64(N-x)/D}}
		}
		stay := 1.0
		for _, jp := range jumps {
			if jp.p > 0 {
				d.P.Set(i, index[[2]int{jp.x, jp.y}], jp.p)
				stay -= jp.p
			}
		}
		d.P.Set(i, i, stay)
	}
	d.Q = mat.NewDense(d.states, d.states, nil)
	d.Q.Sub(d.P, eye(d.states))
	d.Q.Scale(float64(N), d.Q)
	y0 := initial
	if !joint {
		y0 = N
	}
	d.start = index[[2]int{initial, y0}]
	return d
}

func eye(n int) *mat.Dense {
	e := mat.NewDense(n, n, nil)
	for i := range n {
		e.Set(i, i, 1)
	}
	return e
}

// at returns the law at time t in continuous time: row start of e^{Qt}.
func (d *dense) at(t float64) []float64 {
	var e, qt mat.Dense
	qt.Scale(t, d.Q)
	e.Exp(&qt)
	return mat.Row(nil, d.start, &e)
}

// after returns the law after k shuffles: row start of P^k.
func (d *dense) after(k int) []float64 {
	p := make([]float64, d.states)
	p[d.start] = 1
	v := mat.NewVecDense(d.states, p)
	for range k {
		v.MulVec(d.P.T(), mat.VecDenseCopyOf(v))
	}
	return v.RawVector().Data
}

// summary returns E[X/N], sd(X/N), E[Y/N], sd(Y/N) and P(Y ≥ m).
func (d *dense) summary(p []float64) [5]float64 {
	n := float64(d.N)
	var mx, my, sx, sy, above float64
	for i, pi := range p {
		mx += pi * float64(d.x[i]) / n
		my += pi * float64(d.y[i]) / n
		if d.m > 0 && d.y[i] >= d.m {
			above += pi
		}
	}
	for i, pi := range p {
		sx += pi * math.Pow(float64(d.x[i])/n-mx, 2)
		sy += pi * math.Pow(float64(d.y[i])/n-my, 2)
	}
	return [5]float64{mx, math.Sqrt(sx), my, math.Sqrt(sy), above}
}

// The uniformized solver against the dense reference: the transient laws
// (means, sds, P(Y ≥ m)) at every output time and the law of the time to
// the level at times inside and past TMax, for the rate Solve picks, for
// the per-shuffle chain (rate N: the stepping of the solver before
// uniformization at the largest exit rate), for a rate far too small
// (mass killed beyond the caps, and counted in the bound) and for a coarse
// Drop (mass trimmed, counted in the bound).
//
// Tolerance: |solver − reference| ≤ 2·Bound + 1e-12 (a mean of X/N, Y/N
// moves by at most 2·Bound under a total-variation error Bound of the
// unnormalised law; a variance by at most 6·Bound, so a sd by at most
// √(6·Bound), which is checked where the bound is large). 1e-12
// covers the reference: e^{Qt} by scaling and squaring for ‖Qt‖ up to
// ~10³, whose rounding grows with the number of squarings, and P^k for
// k up to ~1500 (measured: 1.6e-14 at most); the solver's rounding is
// ~1e-14.
func TestUniformizedAgainstDense(t *testing.T) {
	j, err := JumpsFor(approx.Simplified, gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50})
	if err != nil {
		t.Fatal(err)
	}
	const N, T = 12, 40
	cfg := Config{Nodes: N, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, TMax: T, Dt: 1, Level: 0.9}
	m := levelCount(cfg.Level, N)
	for _, tc := range []struct {
		name       string
		tm         gossip.Time
		set        Settings
		wantKilled bool
		bigBound   bool
	}{
		{"continuous/auto", gossip.Continuous, Settings{}, false, false},
		{"continuous/rate N", gossip.Continuous, Settings{rate: N}, false, false},
		{"continuous/rate 4 kills", gossip.Continuous, Settings{rate: 4}, true, true},
		{"continuous/raised from 0.5", gossip.Continuous, Settings{firstRate: 0.5}, false, false},
		{"continuous/drop 1e-6", gossip.Continuous, Settings{Drop: 1e-6}, false, true},
		{"shuffles/auto", gossip.Shuffles, Settings{}, false, false},
		{"shuffles/rate N", gossip.Shuffles, Settings{rate: N}, false, false},
		{"shuffles/rate 4 kills", gossip.Shuffles, Settings{rate: 4}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			c.Time = tc.tm
			res, err := Solve(context.Background(), c, tc.set)
			if err != nil {
				t.Fatal(err)
			}
			d := newDense(N, j, true, 1, m)
			law := func(tt float64) []float64 {
				if tc.tm == gossip.Shuffles {
					return d.after(int(math.Round(N * tt)))
				}
				return d.at(tt)
			}
			st := res.Stats
			if tc.wantKilled != (st.Killed > 0) {
				t.Errorf("killed %g", st.Killed)
			}
			if tc.bigBound != (res.Bound > 1e-9) || res.Missing > res.Bound {
				t.Errorf("bound %g, missing %g", res.Bound, res.Missing)
			}
			tolMean := 2*res.Bound + 1e-12
			tolSD := math.Max(1e-12, math.Sqrt(6*res.Bound))
			worst := 0.0
			for _, r := range res.Rows {
				want := d.summary(law(r.T))
				got := [5]float64{r.X.Mean, r.X.SD, r.Y.Mean, r.Y.SD, r.PLevel}
				for i := range got {
					tol := tolMean
					if i == 1 || i == 3 {
						tol = tolSD
					}
					diff := math.Abs(got[i] - want[i])
					worst = math.Max(worst, diff)
					if diff > tol {
						t.Errorf("t=%g: %d-th summary %.15g, dense %.15g", r.T, i, got[i], want[i])
					}
				}
			}
			// T_L: P(T_L ≤ t) = P(Y(t) ≥ m), inside TMax and past it (the
			// level's tail, where the rows Y ≥ m are absorbed).
			for _, tt := range []float64{0.5, 3.7, 10, 17.25, 39.9, 45, 70, 120} {
				p := d.at(tt)
				if tc.tm == gossip.Shuffles { // T_L = K/N ≤ t: K ≤ ⌊N·t⌋
					p = d.after(int(math.Floor(N * tt)))
				}
				want := d.summary(p)[4]
				got := res.Level.CDF(tt)
				worst = math.Max(worst, math.Abs(got-want))
				if math.Abs(got-want) > tolMean {
					t.Errorf("P(T ≤ %g) = %.15g, dense %.15g", tt, got, want)
				}
			}
			for _, p := range []float64{0.05, 0.25, 0.5, 0.75, 0.95} {
				q := res.Level.Quantile(p)
				eps := 1e-9
				if tc.tm == gossip.Shuffles {
					eps = 1.0 / N
				}
				if res.Level.CDF(q) < p || res.Level.CDF(q-eps) >= p {
					t.Errorf("quantile %g = %g: CDF %g there, %g just before", p, q, res.Level.CDF(q), res.Level.CDF(q-eps))
				}
			}
			t.Logf("rate %.4g (%d attempts), %d steps, bound %.3g, killed %.3g, largest difference %.3g", st.Rate, st.Attempts, st.Steps, res.Bound, st.Killed, worst)
		})
	}
}

// X alone, likewise, from one copy and from many (X then falls).
func TestReplicationUniformizedAgainstDense(t *testing.T) {
	j, err := JumpsFor(approx.Simplified, gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5})
	if err != nil {
		t.Fatal(err)
	}
	const N, T = 40, 30
	for _, initial := range []int{1, 30} {
		for _, tm := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
			t.Run(fmt.Sprint(tm, "/initial=", initial), func(t *testing.T) {
				cfg := Config{Nodes: N, Shuffle: gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}, Initial: initial, ReplicationOnly: true, Time: tm, TMax: T, Dt: 0.5}
				res, err := Solve(context.Background(), cfg, Settings{})
				if err != nil {
					t.Fatal(err)
				}
				d := newDense(N, j, false, initial, 0)
				worst := 0.0
				for _, r := range res.Rows {
					var p []float64
					if tm == gossip.Shuffles {
						p = d.after(int(math.Round(N * r.T)))
					} else {
						p = d.at(r.T)
					}
					want := d.summary(p)
					for i, got := range []float64{r.X.Mean, r.X.SD} {
						diff := math.Abs(got - want[i])
						worst = math.Max(worst, diff)
						if diff > 2*res.Bound+1e-12 {
							t.Errorf("t=%g: %.15g, dense %.15g", r.T, got, want[i])
						}
					}
				}
				t.Logf("rate %.4g of N = %d, %d steps, bound %.3g, largest difference %.3g", res.Stats.Rate, N, res.Stats.Steps, res.Bound, worst)
				if res.Stats.Rate >= N {
					t.Errorf("rate %g: not below N", res.Stats.Rate)
				}
			})
		}
	}
}

// TimeToLevel is Solve's law of T_L without the transient outputs: the
// same distribution function, to within both bounds.
func TestTimeToLevelMatchesSolve(t *testing.T) {
	cfg := Config{Nodes: 40, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, TMax: 60, Dt: 1, Level: 0.95}
	res, err := Solve(context.Background(), cfg, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	lt, err := TimeToLevel(context.Background(), cfg, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []float64{5, 20, 35.5, 60, 90} {
		// each side is within its own stated Bound of the exact CDF, plus 1e-13 for rounding: each CDF sums at most (N+1)² = 1681 probabilities of total ≤ 1, 1.9e-13 in the worst case and ~√1681·1.1e-16 ≈ 5e-15 typically.
		if a, b := res.Level.CDF(tt), lt.CDF(tt); math.Abs(a-b) > res.Level.Bound+lt.Bound+1e-13 {
			t.Errorf("P(T ≤ %g): Solve %.15g, TimeToLevel %.15g", tt, a, b)
		}
	}
	if lt.Mean != res.Level.Mean || lt.SD != res.Level.SD {
		t.Errorf("mean, sd %g %g against %g %g", lt.Mean, lt.SD, res.Level.Mean, res.Level.SD)
	}
	if _, err := TimeToLevel(context.Background(), Config{Nodes: 40, Shuffle: cfg.Shuffle}, Settings{}); err == nil {
		t.Error("no level: no error")
	}
}
