package meanfield_test

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/meanfield"
)

// The paper's setting N = 2500, n = 500, c = 100: s* = 52.79 maximises
// P(11|10) (integer argmax 53, approx.ExampleSStar), but the time to 99 %
// coverage keeps falling past it, because dy/dt = 2p·x(1−y) also grows with
// p = s/c itself.
func ExampleOptimize() {
	opt, err := meanfield.Optimize(context.Background(), meanfield.OptimizeConfig{Nodes: 2500, Items: 500, Cache: 100, Level: 0.99})
	if err != nil {
		panic(err)
	}
	fmt.Printf("s* = %.2f, integer argmax %d\n", opt.SStar, opt.SInt)
	fmt.Println("coverage optimum above s*:", float64(opt.SBestTime) > opt.SStar)
	// Output:
	// s* = 52.79, integer argmax 53
	// coverage optimum above s*: true
}

// The event-located time to 99 % coverage against the closed-form inverse
// of y(t) (approx.Model.TimeToCoverage): they agree to the integrator's
// tolerance.
func ExampleCoverageTime() {
	m, _ := approx.NewModel(approx.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, PDrop: approx.Simplified, Initial: 1})
	t, _ := meanfield.CoverageTime(m, 0.99)
	fmt.Println("agrees with the closed form to 1e-9:", math.Abs(t-m.TimeToCoverage(0.99)) < 1e-9*t)
	// Output: agrees with the closed form to 1e-9: true
}
