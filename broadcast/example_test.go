package broadcast_test

import (
	"context"
	"fmt"

	"github.com/gossipkit/gossipkit/broadcast"
)

// Push with fanout 1 among three nodes: the first round informs one node,
// after which each of the two senders reaches the last node with
// probability 1/2, so T = 1 + Geometric(3/4): P(T = 2) = 3/4, E[T] = 7/3.
// The asymptotic law answers the same question for ten million nodes,
// memberlist's fanout of 3, 10 % loss and 10 % of the nodes down, with
// the accuracy it states; PushBudgetResidue gives the large-N chance of
// missing a live node with memberlist's budget, B = 4·8 = 32: by Demers'
// equation the residue is s ≈ e^{−λ}, λ = B(1−ε)M/(N−1) ≈ 32·0.9·0.9 =
// 25.92, so s ≈ 5.5·10⁻¹², and P(miss) ≈ M·s ≈ 9·10⁶·5.5·10⁻¹² ≈ 5·10⁻⁵.
func Example() {
	ctx := context.Background()
	cfg := broadcast.Config{Nodes: 3, Protocol: broadcast.Push, Fanout: 1, Level: 1}
	law, err := broadcast.ExactLaw(ctx, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	a := law.Answer(cfg)
	fmt.Printf("N = 3: P(T = 2) = %.4f, E[T] = %.4f\n", law.PMF[2], a.Mean)

	big := broadcast.Config{Nodes: 10_000_000, Protocol: broadcast.Push, Fanout: 3, Loss: 0.1, Failed: 0.1, Level: 1}
	law, err = broadcast.AsymptoticLaw(ctx, big)
	if err != nil {
		fmt.Println(err)
		return
	}
	a = law.Answer(big)
	fmt.Printf("N = 10^7: median %v rounds, 95 %% within %v, P(T ≤ t) within %.3f\n", a.Q50, a.Q95, law.Accuracy.DevP)

	big.Budget = broadcast.MemberlistBudget(big.Nodes, broadcast.DefaultRetransmitMult)
	r, err := broadcast.PushBudgetResidue(big)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("budget %d: residue %.2e, P(some live node missed) %.1e\n", big.Budget, r.Residue, r.PMiss)
	// Output:
	// N = 3: P(T = 2) = 0.7500, E[T] = 2.3333
	// N = 10^7: median 20 rounds, 95 % within 22, P(T ≤ t) within 0.001
	// budget 32: residue 5.53e-12, P(some live node missed) 5.0e-05
}
