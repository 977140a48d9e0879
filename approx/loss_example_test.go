package approx_test

import (
	"fmt"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
)

// Message loss ε = 0.1 slows the paper's model by f = 0.9·0.95 = 0.855:
// k = f·2(s/c)(c−s)/(n−s) = 0.855·2·(1/2)(50/450) = 0.095 (lossless 1/9),
// the plateau c/n = 0.2 stays, and every time is the lossless one over f.
// By hand, lossless, x0 = 1/2500: 99 % coverage needs ∫x = ln(0.9996/0.01)
// / (2p) = 4.60477; ∫x = (K/k)·ln(1 + (x0/K)(e^{kt} − 1)) with K/k = 1.8
// and x0/K = 0.002 gives e^{kt} = 1 + (e^{4.60477/1.8} − 1)/0.002 = 5957.6,
// t = 9·ln 5957.6 = 78.2; with loss 78.23/0.855 = 91.5.
func ExampleLossFactor() {
	cfg := approx.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}}
	lossless, _ := approx.NewModel(cfg)
	cfg.Loss = 0.1
	lossy, _ := approx.NewModel(cfg)
	fmt.Printf("f = %.3f, k = %.4f (lossless %.4f), K = %.1f\n", approx.LossFactor(0.1), lossy.Rate(), lossless.Rate(), lossy.Steady())
	fmt.Printf("time to 99%% coverage: %.1f rounds (lossless %.1f)\n", lossy.TimeToCoverage(0.99), lossless.TimeToCoverage(0.99))
	// Output:
	// f = 0.855, k = 0.0950 (lossless 0.1111), K = 0.2
	// time to 99% coverage: 91.5 rounds (lossless 78.2)
}
