package approx_test

import (
	"fmt"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
)

// The optimal exchange size of the paper's setting n = 500, c = 100:
// s* = 500 − √(500·400) = 500 − 447.2136 = 52.7864, and P(11|10) =
// (s/c)(c−s)/(n−s) is largest at the integer 53 next to it, where it is
// (53/100)(47/447) = 0.0557271.
func ExampleSStar() {
	s, p, _ := approx.ArgmaxP11(approx.Simplified, 500, 100)
	fmt.Printf("s* = %.4f, integer argmax %d, P(11|10) = %.6f\n", approx.SStar(500, 100), s, p)
	// Output: s* = 52.7864, integer argmax 53, P(11|10) = 0.055727
}

// One shuffle with n = 7, c = 4, s = 2: p = s/c = 1/2, q = (n−c)/(n−s) = 3/5,
// so from state 10: P(10|10) = 1/2, P(11|10) = p(1−q) = 1/5, P(01|10) = pq = 3/10.
func ExampleTransitionsFor() {
	tr, _ := approx.TransitionsFor(approx.Simplified, gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2})
	fmt.Printf("from 10: to 01 %.2f, to 10 %.2f, to 11 %.2f\n", tr[approx.S10][approx.S01], tr[approx.S10][approx.S10], tr[approx.S10][approx.S11])
	// Output: from 10: to 01 0.30, to 10 0.50, to 11 0.20
}
