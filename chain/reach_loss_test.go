package chain

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestReachProbabilityAgainstRationals compares ReachProbability and
// LevelTime.PReach with P(coverage L before extinction) computed in exact
// fractions by testdata/reach_loss.py, a first-step analysis written from
// the loss semantics with no code of this package (the N = 2 value is also
// the closed form (2−ε)/(2−ε+εq) = 76/79 at q = 3/4, ε = 1/10). Both are
// first-step analyses in float64 over at most 36 states: 1e-13 allows a
// few hundred roundings.
func TestReachProbabilityAgainstRationals(t *testing.T) {
	t.Parallel()
	const tol = 1e-13
	for _, tc := range []struct {
		N, n, c, s int
		eps, L     float64
		want       float64 // testdata/reach_loss.py
	}{
		{2, 5, 2, 1, 0.1, 1, 0.96202531645569622},
		{4, 6, 3, 2, 0.1, 1, 0.88609565132028689},
		{5, 7, 4, 2, 0.3, 0.5, 0.84640674471103516},
		{6, 10, 4, 3, 0.2, 1, 0.65023677573887217},
		{8, 12, 5, 2, 0.05, 0.75, 0.94250910901439267},
	} {
		cfg := Config{Nodes: tc.N, Shuffle: gossip.Shuffle{Items: tc.n, Cache: tc.c, Exchange: tc.s},
			Loss: tc.eps, Level: tc.L, TMax: 1, Dt: 1}
		got, err := ReachProbability(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-tc.want) > tol {
			t.Errorf("N=%d n=%d c=%d s=%d ε=%g L=%g: ReachProbability %.17g, rationals %.17g", tc.N, tc.n, tc.c, tc.s, tc.eps, tc.L, got, tc.want)
		}
		lt, err := TimeToLevel(context.Background(), cfg, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(lt.PReach-tc.want) > tol {
			t.Errorf("N=%d ε=%g: LevelTime.PReach %.17g, rationals %.17g", tc.N, tc.eps, lt.PReach, tc.want)
		}
	}
}

// TestQuasiStationaryRefusesSEqualsC: at s = c two holders never drop d,
// so X = N absorbs too and there is no quasi-stationary law on 1..N; the
// refusal is a field error naming the exchange size (the CLI's -s).
func TestQuasiStationaryRefusesSEqualsC(t *testing.T) {
	t.Parallel()
	_, err := QuasiStationary(context.Background(), Config{Nodes: 10, Shuffle: gossip.Shuffle{Items: 20, Cache: 5, Exchange: 5}, Loss: 0.1})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "Config.Shuffle.Exchange" {
		t.Errorf("err = %v, want a field error on Config.Shuffle.Exchange", err)
	}
}
