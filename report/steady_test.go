package report

import (
	"context"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/report/internal/claim"
	"github.com/gossipkit/gossipkit/sim"
)

// TestProtocolHoldsItemsPlusOne checks, on the protocol itself, that the
// network simulated holds protocolItems(n) = n + 1 items once d is
// inserted: on N = 30 nodes with n = 10, c = 4, s = 2 (the smallest
// network where the two counts part by many standard errors: c/n = 0.4
// against c/(n+1) = 0.3636, a gap of 0.036), 200 replications of 20 +
// 400 rounds, seed 1. The chance that d's insertion overwrote an item's
// last copy, (1 − 0.4)^29 = 4·10⁻⁷ (sim.ItemsAfterInsertion), cannot move the
// count. The late mean of x (its standard error 0.002 from the spread of
// the replications, about 1/18 of the gap) must hold under the report's
// steady rule against c/(n+1) and fail it against c/n; the measured
// transitions of d must hold under the report's transition rule against
// Fig. 1's matrix at n + 1 items (P_drop = 7/9) and fail it at n
// (P_drop = 3/4: the entries part by p·(7/9 − 3/4) = 0.014). The rules'
// critical values (Student's t over the 200 replications at 3 and 4
// normal standard errors) are the test's tolerances: a correct count
// fails them by chance with probability 0.3 % and 0.006 %. Measured when
// written: 0.8 se from c/(n+1) and 17.9 from c/n; 1.9 and 35.5 se for the
// transitions.
func TestProtocolHoldsItemsPlusOne(t *testing.T) {
	t.Parallel()
	cfg := sim.DefaultConfig()
	cfg.Nodes, cfg.Shuffle = 30, gossip.Shuffle{Items: 10, Cache: 4, Exchange: 2}
	cfg.Warmup, cfg.Rounds, cfg.Reps, cfg.Seed = 20, 400, 200, 1
	res, err := sim.Run(context.Background(), cfg, sim.Settings{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	late, se := res.LateMean()
	c, n := float64(cfg.Shuffle.Cache), cfg.Shuffle.Items
	atItems := math.Abs(late-c/float64(protocolItems(n))) / se
	atN := math.Abs(late-c/float64(n)) / se
	if claim.SteadyRule(atItems, cfg.Reps) != claim.Holds || claim.SteadyRule(atN, cfg.Reps) != claim.Fails {
		t.Errorf("late mean %.5f ± %.5f: %.1f se from c/protocolItems(n) = %.5f, %.1f from c/n; want within and beyond %.2f",
			late, se, atItems, c/float64(protocolItems(n)), atN, claim.TCrit(claim.SteadyZ, cfg.Reps))
	}
	at, paper, err := protocolTransitions(res)
	if err != nil {
		t.Fatal(err)
	}
	if claim.TransRule(at, cfg.Reps) != claim.Holds || claim.TransRule(paper, cfg.Reps) != claim.Fails {
		t.Errorf("transitions: %+v at the items of the network, %+v at n; want within and beyond %.2f se", at, paper, claim.TCrit(claim.TransZ, cfg.Reps))
	}
	if items, p := sim.ItemsAfterInsertion(cfg.Nodes, cfg.Shuffle); items != protocolItems(n) || math.Abs(p-math.Pow(0.6, 29)) > 1e-15*p {
		t.Errorf("sim.ItemsAfterInsertion = %d, %g, want %d, 0.6^29", items, p, protocolItems(n))
	}
}
