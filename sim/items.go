package sim

import (
	"math"

	"github.com/gossipkit/gossipkit/gossip"
)

// ItemsAfterInsertion returns the number of distinct items in the network
// of a lossless protocol run (Model Protocol, Loss 0) on nodes nodes once
// d is inserted, d included, and pFewer, the chance that there is one
// fewer. The plateau of x is Cache/items, and Fig. 1's matrix describes
// d's shuffles at Items = items (approx.TransitionsFor).
//
// The initial placement puts min(n, N·c) distinct items in the N·c slots,
// and a lossless shuffle neither loses nor creates one. If N·c ≤ n every
// item holds exactly one copy, so d's insertion overwrites an item's last
// copy and the network holds N·c items, exactly (pFewer = 0). Otherwise it
// holds n + 1 unless the copy overwritten was its item's last: pFewer =
// E[items with one copy]/(N·c) = (1 − c/n)^(N−1) if an item's replica
// count is Bin(N, c/n), the pairwise model's stationary law — an
// approximation for the protocol after its warm-up, not a bound.
// Invalid sizes (nodes < 1, a Shuffle that fails Validate) give (0, NaN).
func ItemsAfterInsertion(nodes int, sh gossip.Shuffle) (items int, pFewer float64) {
	n, c := sh.Items, sh.Cache
	if nodes < 1 || sh.Validate() != nil {
		return 0, math.NaN()
	}
	if int64(nodes)*int64(c) <= int64(n) {
		return nodes * c, 0
	}
	return n + 1, math.Pow(1-float64(c)/float64(n), float64(nodes-1))
}
