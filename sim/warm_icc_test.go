package sim

import (
	"context"
	"flag"
	"fmt"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// warmICC runs the measurement of testdata/README.md ("Warm states: the
// intraclass correlation"): go test ./sim -run TestWarmICC -warm.icc -v
// -timeout 2h. It is not part of the suite (minutes of CPU).
var warmICC = flag.Bool("warm.icc", false, "measure the intraclass correlation of replications sharing a warm state (minutes)")

// oneWay is a balanced one-way random-effects ANOVA of k groups of m: the
// estimate of the intraclass correlation ρ = σ_b²/(σ_b² + σ_w²) (the
// ANOVA estimator (MSB − MSW)/(MSB + (m−1)MSW)), its exact 95 % interval
// from F = MSB/MSW ~ (1 + mρ/(1−ρ))·F(k−1, k(m−1)) (Searle, Casella and
// McCulloch, Variance Components, §3.5), and its large-sample standard
// error √(2(1−ρ)²(1+(m−1)ρ)²/(m(m−1)(k−1))) (ibid.).
type oneWay struct{ rho, lo, hi, se, mean, sd float64 }

func anova(groups [][]float64) oneWay {
	k, m := len(groups), len(groups[0])
	var grand float64
	means := make([]float64, k)
	for j, g := range groups {
		for _, v := range g {
			means[j] += v
		}
		means[j] /= float64(m)
		grand += means[j]
	}
	grand /= float64(k)
	var ssb, ssw float64
	for j, g := range groups {
		ssb += float64(m) * (means[j] - grand) * (means[j] - grand)
		for _, v := range g {
			ssw += (v - means[j]) * (v - means[j])
		}
	}
	d1, d2 := float64(k-1), float64(k*(m-1))
	msb, msw := ssb/d1, ssw/d2
	rho := (msb - msw) / (msb + (float64(m)-1)*msw)
	F := msb / msw
	f := distuv.F{D1: d1, D2: d2}
	bound := func(q float64) float64 { x := F / q; return (x - 1) / (x + float64(m) - 1) }
	r := math.Max(rho, 0)
	se := math.Sqrt(2 * (1 - r) * (1 - r) * (1 + (float64(m)-1)*r) * (1 + (float64(m)-1)*r) / (float64(m) * (float64(m) - 1) * d1))
	return oneWay{rho: rho, lo: bound(f.Quantile(0.975)), hi: bound(f.Quantile(0.025)), se: se, mean: grand, sd: math.Sqrt((ssb + ssw) / float64(k*m-1))}
}

func TestWarmICC(t *testing.T) {
	if !*warmICC {
		t.Skip("the measurement of testdata/README.md; run with -warm.icc")
	}
	measureICC(t, []iccSetup{
		{N: 2500, n: 500, k: 16, m: 40, T: 80, seed: 20261201, ts: []int{5, 10, 20, 40, 80}},
		{N: 2500, n: 2000, k: 16, m: 25, T: 200, seed: 20261202, ts: []int{10, 20, 40, 80, 160, 200}},
	})
}

// TestWarmICCSmallN: the same at N = 100 (section 7's protocol runs with 1
// and 5 initial copies, section 9's smallest group), where N·c = 10⁴ slots
// average the warm state's configuration out less than at N = 2500.
func TestWarmICCSmallN(t *testing.T) {
	if !*warmICC {
		t.Skip("the measurement of testdata/README.md; run with -warm.icc")
	}
	measureICC(t, []iccSetup{
		{N: 100, n: 500, k: 40, m: 50, T: 100, seed: 20261203, initial: 1, ts: []int{5, 10, 20, 40, 100}},
		{N: 100, n: 500, k: 40, m: 50, T: 100, seed: 20261204, initial: 5, ts: []int{5, 10, 20, 40, 100}},
	})
}

type iccSetup struct {
	N, n, k, m, T, initial int
	seed                   uint64
	ts                     []int
}

func measureICC(t *testing.T, setups []iccSetup) {
	for _, su := range setups {
		cfg := DefaultConfig()
		cfg.Nodes, cfg.Shuffle.Items, cfg.Rounds, cfg.Reps, cfg.WarmStates, cfg.Seed = su.N, su.n, su.T, su.k*su.m, su.k, su.seed
		cfg.Initial = max(1, su.initial)
		start := time.Now()
		res, err := Run(context.Background(), cfg, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("N = %d, n = %d, %d initial: k = %d warm states × m = %d replications, W = %d, T = %d, seed %d, %v", su.N, su.n, cfg.Initial, su.k, su.m, cfg.Warmup, su.T, su.seed, time.Since(start))
		quant := map[string]func(*Replication) float64{}
		var names []string
		add := func(name string, f func(*Replication) float64) { names = append(names, name); quant[name] = f }
		for _, tt := range su.ts {
			add(fmt.Sprintf("x(%d)", tt), func(r *Replication) float64 { return float64(r.X[tt]) })
			add(fmt.Sprintf("y(%d)", tt), func(r *Replication) float64 { return float64(r.Y[tt]) })
			add(fmt.Sprintf("yround(%d)", tt), func(r *Replication) float64 { return float64(r.YRound[tt]) })
		}
		add("x mean over t ≤ T", func(r *Replication) float64 {
			s := 0.0
			for _, x := range r.X {
				s += float64(x)
			}
			return s / float64(len(r.X))
		})
		add("t99 (y ≥ 0.99N)", func(r *Replication) float64 {
			for t, y := range r.Y {
				if float64(y) >= 0.99*float64(cfg.Nodes) {
					return float64(t)
				}
			}
			return math.NaN()
		})
		for _, name := range names {
			groups := make([][]float64, su.k)
			nan := 0
			for i := range res.Reps {
				v := quant[name](&res.Reps[i])
				if math.IsNaN(v) {
					nan++
					v = float64(su.T + 1)
				}
				j := warmIndex(res.Reps[i].Index, su.k)
				groups[j] = append(groups[j], v)
			}
			a := anova(groups)
			t.Logf("N=%d n=%d i=%d %-18s mean %9.3f sd %8.3f  rho %+.4f se %.4f 95%% [%+.4f, %+.4f]  unreached %d", su.N, su.n, cfg.Initial, name, a.mean, a.sd, a.rho, a.se, a.lo, a.hi, nan)
		}
	}
}
