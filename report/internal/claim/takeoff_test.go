package claim

import (
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/internal/rng"
)

// syntheticCase is R replications of a curve over 30 rounds: at round t
// each count is N·p(t) plus a uniform error of ±a·p(t)·N (sd a·p(t)·N/√3),
// against the model p(t) + shift·sd(t) (the model off the true mean by
// shift standard deviations at every round).
func syntheticCase(R int, shift float64, seed uint64) ShareCase {
	const N, T, a = 10000, 30, 0.3
	r := rng.NewStream(seed, 1)
	c := ShareCase{nodes: N, from: 0, to: T - 1, tol: 0.5 / N}
	for range R {
		rep := make([]int32, T)
		for t := range T {
			p := 0.01 + 0.03*float64(t)
			rep[t] = int32(math.Round(N * p * (1 + a*(2*r.Float64()-1))))
		}
		c.reps = append(c.reps, rep)
	}
	for t := range T {
		p := 0.01 + 0.03*float64(t)
		c.model = append(c.model, p+shift*a*p/math.Sqrt(3))
	}
	return c
}

// The take-off distance on synthetic measurements: its estimate is near
// the true shift (every round sits shift sd off, so θ = shift) and its
// simultaneous band holds it and narrows like 1/√R (from 80 to 320
// replications, a factor 2 in √R: the width falls by about 2, between 1.5
// and 2.7 allowing for the sup-t critical value and the sd's own noise,
// which widen the band at few replications beyond 1/√R: 6.5 times wider at
// 20 than at 320 in this case, not 4).
func TestTakeOffDistance(t *testing.T) {
	t.Parallel()
	width := map[int]float64{}
	for _, R := range []int{80, 320} {
		d := MeasureTakeOff([]ShareCase{syntheticCase(R, 0.5, 7)}, []int{1}, 1)
		if d.Lo > 0.5 || d.Hi < 0.5 {
			t.Errorf("R = %d: θ = 0.5 outside the band [%v, %v] (θ̂ = %v)", R, d.Lo, d.Hi, d.Theta)
		}
		width[R] = d.Hi - d.Lo
	}
	if r := width[80] / width[320]; r < 1.5 || r > 2.7 {
		t.Errorf("band width %v at 80 replications, %v at 320: ratio %v, want about 2", width[80], width[320], r)
	}
	// Too few replications to resample: no bound.
	if d := MeasureTakeOff([]ShareCase{syntheticCase(5, 0, 7)}, []int{1}, 1); d.Lo != 0 || !math.IsInf(d.Hi, 1) {
		t.Errorf("5 replications: [%v, %v], want [0, ∞)", d.Lo, d.Hi)
	}
}

// distRule on bands at and across its thresholds.
func TestDistRule(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{0.2, 1, Holds}, {1.01, 2, Qualified}, {2.01, 3, Fails},
		{0.5, 1.5, Undecided}, {1.5, 2.5, Undecided}, {0.5, math.Inf(1), Undecided},
	} {
		if got, _ := distRule(TakeOffDistance{Theta: (c.lo + c.hi) / 2, Lo: c.lo, Hi: c.hi}); got != c.want {
			t.Errorf("[%v, %v]: %s, want %s", c.lo, c.hi, got, c.want)
		}
	}
}
