package harness

import (
	"context"

	"github.com/gossipkit/gossipkit/broadcast"
)

// AsyncModel is gossipkit's asynchronous clock (broadcast.Time Async:
// every node's gossip ticker at its own uniform phase, the source sending
// at its first tick after it queues the message, a node informed at t
// forwarding at its next tick): the mean of T_L in intervals given
// T_L < ∞ from broadcast.SimulateAsync with reps replications and the
// seed, its standard error the sample sd over √(replications that reach
// the level).
func AsyncModel(reps int, seed uint64) TimeModel {
	return TimeModel{
		Name: "async model",
		Time: func(ctx context.Context, cfg broadcast.Config) (Estimate, error) {
			cfg.Time = broadcast.Async
			s, err := broadcast.SimulateAsync(ctx, cfg, broadcast.SimSettings{Reps: reps, Seed: seed})
			if err != nil {
				return Estimate{}, err
			}
			var x []float64
			for _, r := range s.Reps {
				if r.T >= 0 {
					x = append(x, r.T)
				}
			}
			m, se, _ := meanSE(x)
			return Estimate{m, se}, nil
		},
	}
}
