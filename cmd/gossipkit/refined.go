package main

import (
	"context"
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/ode"
)

type refinedResult struct{ x, y, xsd, ysd []float64 }

// refinedFor computes the refined mean field of the replication–coverage
// model at t = 0, dt, …, tMax: in continuous time (shuffles at rate N) by
// integrating x, V, W; in discrete time by the synchronous recursion with
// steps of one round (dt must then be a whole number of rounds).
func refinedFor(_ context.Context, m approx.Model, tMax, dt float64, timeModel string, rtol, atol float64) (*refinedResult, error) {
	pop := ode.GossipCoverage(m)
	steps := int(math.Round(tMax / dt))
	ts := make([]float64, steps+1)
	for i := range ts {
		ts[i] = math.Min(float64(i)*dt, tMax)
	}
	var ref *ode.Refined
	var err error
	if timeModel == "discrete" {
		T := int(math.Ceil(tMax))
		full, err := ode.RefinedDiscrete(ode.SynchronousSteps{P: pop, H: 1}, []float64{m.X0, m.Y0}, T)
		if err != nil {
			return nil, err
		}
		ref = &ode.Refined{}
		for _, t := range ts {
			k := int(math.Round(t))
			ref.T = append(ref.T, t)
			ref.X, ref.V, ref.W = append(ref.X, full.X[k]), append(ref.V, full.V[k]), append(ref.W, full.W[k])
		}
	} else if ref, err = ode.RefinedContinuous(pop, []float64{m.X0, m.Y0}, ts, ode.Settings{RTol: rtol, ATol: atol}); err != nil {
		return nil, err
	}
	out := &refinedResult{}
	for i := range ts {
		mean, sd := ref.Mean(i, m.N), ref.SD(i, m.N)
		out.x, out.y = append(out.x, mean[0]), append(out.y, mean[1])
		out.xsd, out.ysd = append(out.xsd, sd[0]), append(out.ysd, sd[1])
	}
	return out, nil
}
