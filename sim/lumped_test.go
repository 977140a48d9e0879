package sim_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/sim"
)

// lumpedConfig is a small continuous-time experiment of the given model.
func lumpedConfig(model sim.Model, N, initial, T, reps int) sim.Config {
	cfg := sim.DefaultConfig()
	cfg.Model, cfg.Schedule, cfg.Nodes, cfg.Initial, cfg.Rounds, cfg.Reps, cfg.Seed = model, sim.Continuous, N, initial, T, reps, 7
	cfg.Shuffle = gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}
	return cfg
}

// moments returns the sample mean, variance and fourth central moment of
// v/N at each t.
func moments(reps []sim.Replication, N int, v func(sim.Replication) []int32) (mean, variance, m4 []float64) {
	T := len(v(reps[0]))
	R := float64(len(reps))
	mean, variance, m4 = make([]float64, T), make([]float64, T), make([]float64, T)
	for t := range T {
		for _, r := range reps {
			mean[t] += float64(v(r)[t]) / float64(N)
		}
		mean[t] /= R
		for _, r := range reps {
			d := float64(v(r)[t])/float64(N) - mean[t]
			variance[t] += d * d
			m4[t] += d * d * d * d
		}
		variance[t] /= R - 1
		m4[t] /= R
	}
	return mean, variance, m4
}

// TestLumpedAgainstExactChain: the lumped simulation's mean and variance of
// X/N and Y/N at t = 0..T against package chain's exact transient law of
// the same continuous-time pairwise chain (an independent algorithm: the
// chain is solved by uniformization, not sampled). Each sample mean must
// lie within 5 exact standard errors σ/√R, each sample variance within 5
// estimated standard errors √((μ₄ − s⁴)/R) of σ² (over 2·2·61 checks a
// per-check false-alarm rate of 6·10⁻⁷ leaves the test about 10⁻⁴).
func TestLumpedAgainstExactChain(t *testing.T) {
	const N, T, R = 40, 60, 20000
	for _, initial := range []int{1, 5} {
		cfg := lumpedConfig(sim.Lumped, N, initial, T, R)
		res, err := sim.Run(context.Background(), cfg, sim.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		ex, err := chain.Solve(context.Background(), chain.Config{Nodes: N, Shuffle: cfg.Shuffle, Initial: initial,
			Time: gossip.Continuous, TMax: T, Dt: 1}, chain.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		for q, get := range map[string]func(sim.Replication) []int32{
			"x": func(r sim.Replication) []int32 { return r.X },
			"y": func(r sim.Replication) []int32 { return r.Y },
		} {
			mean, variance, m4 := moments(res.Reps, N, get)
			for tt, row := range ex.Rows {
				st := row.X
				if q == "y" {
					st = row.Y
				}
				// 5 standard errors (the doc's false-alarm budget) plus 1e-12 for the exact chain's own bound and rounding (Tol 1e-14 and sums of ≤ 41² probabilities), which alone matters where σ = 0 (t = 0).
				if se := st.SD / math.Sqrt(R); math.Abs(mean[tt]-st.Mean) > 5*se+1e-12 {
					t.Errorf("initial %d, %s(%d): mean %.6f, exact %.6f (se %.2g)", initial, q, tt, mean[tt], st.Mean, se)
				}
				se := math.Sqrt(math.Max(0, m4[tt]-variance[tt]*variance[tt]) / R)
				// As for the mean: 5 estimated standard errors plus 1e-12 for the chain's rounding.
				if math.Abs(variance[tt]-st.SD*st.SD) > 5*se+1e-12 {
					t.Errorf("initial %d, %s(%d): variance %.6g, exact %.6g (se %.2g)", initial, q, tt, variance[tt], st.SD*st.SD, se)
				}
			}
		}
	}
}

// TestLumpedMatchesMarkov: what the exact chain does not compute, the
// round-snapshot coverage YRound and the counters, against the node-by-node
// Markov model under the same schedule (two independent samples of one
// law): each difference of means within 5 standard errors, the shuffle
// count within 5 Poisson sds of its expectation N·T·R (the total number of
// shuffles is Poisson(N·T) a replication), and each transition count
// within 5 sds of the other's.
func TestLumpedMatchesMarkov(t *testing.T) {
	const N, T, R = 30, 40, 20000
	res := map[sim.Model]*sim.Result{}
	for _, m := range []sim.Model{sim.Markov, sim.Lumped} {
		r, err := sim.Run(context.Background(), lumpedConfig(m, N, 1, T, R), sim.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		res[m] = r
	}
	yr := func(r sim.Replication) []int32 { return r.YRound }
	mm, vm, _ := moments(res[sim.Markov].Reps, N, yr)
	ml, vl, _ := moments(res[sim.Lumped].Reps, N, yr)
	for tt := range mm {
		// 5 standard errors of a difference of two independent means; 1e-12 keeps a zero se (t = 0, both start equal) from failing on rounding, far below any difference seen.
		if se := math.Sqrt((vm[tt] + vl[tt]) / R); math.Abs(mm[tt]-ml[tt]) > 5*se+1e-12 {
			t.Errorf("y_round(%d): markov %.6f, lumped %.6f (se %.2g)", tt, mm[tt], ml[tt], se)
		}
	}
	var cm, cl sim.Counters
	for i := range R {
		m, l := res[sim.Markov].Reps[i].Counters, res[sim.Lumped].Reps[i].Counters
		cm.Shuffles += m.Shuffles
		cl.Shuffles += l.Shuffles
		for a := range 4 {
			for b := range 4 {
				cm.Transitions[a][b] += m.Transitions[a][b]
				cl.Transitions[a][b] += l.Transitions[a][b]
			}
		}
	}
	want := float64(N * T * R)
	for m, c := range map[string]sim.Counters{"markov": cm, "lumped": cl} {
		if d := math.Abs(float64(c.Shuffles) - want); d > 5*math.Sqrt(want) {
			t.Errorf("%s: %d shuffles, expected %.0f", m, c.Shuffles, want)
		}
	}
	for a := 1; a < 4; a++ {
		for b := range 4 {
			x, y := float64(cm.Transitions[a][b]), float64(cl.Transitions[a][b])
			// Each count is a sum over replications; its sd is at least
			// the Poisson √count, so √(x + y) is a lower bound on the sd
			// of the difference: the bound is strict.
			if math.Abs(x-y) > 5*math.Sqrt(x+y)+1 {
				t.Errorf("transitions %d→%d: markov %.0f, lumped %.0f", a, b, x, y)
			}
		}
	}
	if cl.Transitions[2][1] == 0 || cl.Transitions[1][1] == 0 {
		t.Errorf("lumped: moves %d, stays %d; both must be counted", cl.Transitions[2][1], cl.Transitions[1][1])
	}
}

// TestLumpedRefuses: the lumped chain exists only where the nodes are
// exchangeable.
func TestLumpedRefuses(t *testing.T) {
	for name, edit := range map[string]func(*sim.Config){
		"rounds":   func(c *sim.Config) { c.Schedule = sim.Rounds },
		"async":    func(c *sim.Config) { c.Schedule = sim.Async },
		"regular":  func(c *sim.Config) { c.Topology = sim.Topology{Kind: sim.Regular, Degree: 4} },
		"failures": func(c *sim.Config) { c.FailFraction = 0.5 },
	} {
		cfg := lumpedConfig(sim.Lumped, 40, 1, 10, 2)
		edit(&cfg)
		var fe *sim.FieldError
		if err := cfg.Validate(); !errors.As(err, &fe) || fe.Field != "Config.Model" {
			t.Errorf("%s: Validate = %v, want a Config.Model error", name, err)
		}
	}
	if err := lumpedConfig(sim.Lumped, 40, 1, 10, 2).Validate(); err != nil {
		t.Errorf("continuous, full: %v", err)
	}
}
