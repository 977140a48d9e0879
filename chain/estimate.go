package chain

import (
	"context"
	"math"
)

// Cost is the work of Solve for a Config, estimated without solving
// (Estimate). The unit of work is the state-step: one step of the
// uniformized chain over one live state.
type Cost struct {
	Rate       float64 // Λ, the uniformization rate Solve starts from, per round
	Rounds     float64 // the time stepped: TMax, or with a Level the time by which P(T_L > t) < Tol if later
	Steps      float64 // steps of the uniformized chain
	States     float64 // mean live states a step
	StateSteps float64 // Steps·States
	// NsPerStateStep is the CPU time of a state-step measured by
	// BenchmarkJoint and BenchmarkReplication2500 (see CPUSeconds).
	NsPerStateStep float64
}

// Calibration of Cost.CPUSeconds: CPU ns per state-step measured by the
// benchmarks on the development machine (2-core Xeon, Go 1.26, shared by
// other jobs), 2026-11-30: joint chain 4.4 to 5.9 (N = 300) and 4.8
// (N = 1000), X alone 2.4 to 3.9.
const (
	nsJoint       = 5
	nsReplication = 3
)

// CPUSeconds is the CPU time the work takes at NsPerStateStep. Solve runs
// the joint chain's steps on two cores where the live region holds ≥ 20000
// states, so its wall time on two idle cores is about 0.6 of this.
func (c Cost) CPUSeconds() float64 { return c.StateSteps * c.NsPerStateStep * 1e-9 }

// Estimate returns the work of Solve(cfg) without solving: the rate Λ that
// Solve starts from; the rounds stepped, TMax or, with a Level,
// E[T_L] + ln(1/Tol)/ρ if later, where E[T_L] is exact (HittingMoments,
// O(N·m) work) and ρ, the slowest decay of P(T_L > t), is the smaller of
// the copy rate u of a lone holder and the rate (u+m)·x̄·(N−m+1)/(N−1) at
// which the last N−m+1 nodes are reached with the stationary mean x̄ of
// holders; the live states, from the X that the stationary law reaches above
// 10⁻²⁵ (with loss the law reflected at X = 1, which bounds the live
// mass; the states X = 0 are not stepped and cost nothing), x_hi = a·N:
// a·N²·(1 − a/2)·0.42 for the joint chain (the
// rectangle X ≤ x_hi, X ≤ Y ≤ N, times the share of it live on average,
// 0.42, fitted to n = 500, c = 100, s = 50 at N = 300 and 1000), and the
// width of the stationary law above 10⁻¹⁸ for X alone; the steps by the
// segments Solve would choose. It is meant to be within a factor 3 of the
// work (TestEstimate: 0.85–1.46 at s = 50 with other N, levels, starts
// and X alone; 0.52 and 2.35 at other shuffles; Solve may also raise Λ,
// Stats.Attempts, which Estimate does not foresee). Its own cost is
// HittingMoments' O(N·m).
func Estimate(cfg Config) (Cost, error) {
	if err := cfg.Validate(); err != nil {
		return Cost{}, err
	}
	j, err := cfg.jumps()
	if err != nil {
		return Cost{}, err
	}
	N := cfg.Nodes
	n := float64(N)
	initial := max(cfg.Initial, 1)
	joint := !cfg.ReplicationOnly
	c := Cost{Rate: startRate(N, initial, j, joint), Rounds: cfg.TMax, NsPerStateStep: nsJoint}
	if !joint {
		c.NsPerStateStep = nsReplication
	}
	// The stationary law's reach.
	xlo, xhi, xbar := 1, N, n/2
	if pi, err := reachLaw(N, j); err == nil {
		xbar = 0
		for x, p := range pi {
			xbar += float64(x) * p
		}
		reach := 1e-25 // the joint chain's region spans the X it may reach
		if !joint {
			reach = 1e-18 // X alone is trimmed to edges above Drop
		}
		for tail := 0.0; xhi > 1; xhi-- {
			if tail += pi[xhi]; tail > reach {
				break
			}
		}
		for tail := 0.0; xlo < N; xlo++ {
			if tail += pi[xlo]; tail > reach {
				break
			}
		}
	}
	xhi = max(xhi, initial)
	if cfg.Level > 0 {
		m := levelCount(cfg.Level, N)
		ek, _, err := hittingMoments(context.Background(), N, initial, m, j)
		if err != nil {
			return Cost{}, err
		}
		rho := math.Min(j.Up, (j.Up+j.Move)*xbar*float64(N-m+1)/(n-1))
		if j.Lose > 0 {
			// A live d has a holder, which covers one more node at rate
			// at least (u+m)(N−m+1)/(N−1) below the level: a copy rate u
			// below that (tiny when s = c, where copies come only from
			// lost replies) does not govern the tail. (Kept to the lossy
			// chain so that the lossless estimates stay as they were.)
			rho = math.Min(math.Max(j.Up, (j.Up+j.Move)*float64(N-m+1)/(n-1)), (j.Up+j.Move)*xbar*float64(N-m+1)/(n-1))
		}
		if rho > 0 && m > initial {
			c.Rounds = math.Max(c.Rounds, ek/n+math.Log(1/Settings{}.withDefaults().Tol)/rho)
		}
	}
	if joint {
		a := float64(xhi) / n
		c.States = 0.42 * a * (1 - a/2) * n * n
	} else {
		c.States = float64(xhi - min(xlo, initial) + 1)
	}
	// The segments Solve would choose for that many states, each stepped
	// to the end of its last output's Poisson window, then the level's
	// tail.
	ts := grid(cfg.TMax, cfg.Dt)
	for i := 0; i < len(ts)-1; {
		k := segmentLength(ts, i, c.Rate, c.States, joint, N)
		c.Steps += float64(poisson(c.Rate*(ts[i+k]-ts[i]), Settings{}.withDefaults().Tol).hi())
		i += k
	}
	c.Steps += c.Rate * (c.Rounds - cfg.TMax)
	c.StateSteps = c.Steps * c.States
	return c, nil
}
