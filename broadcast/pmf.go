package broadcast

import "github.com/gossipkit/gossipkit/broadcast/internal/pmf"

// The probability mass functions of the chains are in internal/pmf; these
// are the names the rare-event code (rare.go, asyncrare.go) calls them by.

func hypPMF(dst []float64, k, K, n int) []float64 { return pmf.Hyp(dst, k, K, n) }

func resize(dst []float64, n int) []float64 { return pmf.Resize(dst, n) }

func pullMiss(buf []float64, i, k, n1 int, eps float64) float64 {
	return pmf.PullMiss(buf, i, k, n1, eps)
}
