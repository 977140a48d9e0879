package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// TestWarmStatesIndependentOfWorkersAndShards: with k warm states the
// replications are the same, byte for byte, whatever the workers and
// however the replications are split into shards (a shard computes only
// the warm states its replications need), under every schedule, with
// loss, with failures, in Check mode, and on the int32 item path.
func TestWarmStatesIndependentOfWorkersAndShards(t *testing.T) {
	base := small()
	base.Reps, base.WarmStates = 7, 3
	cases := map[string]func(*Config){
		"rounds":     func(*Config) {},
		"async":      func(c *Config) { c.Schedule, c.Ticks = Async, 7 },
		"continuous": func(c *Config) { c.Schedule = Continuous },
		"loss":       func(c *Config) { c.Loss = 0.2 },
		"fail":       func(c *Config) { c.FailFraction = 0.3 },
		"check":      func(c *Config) { c.Check = true },
		"int32": func(c *Config) {
			c.Nodes, c.Shuffle.Items, c.Shuffle.Cache, c.Shuffle.Exchange, c.Warmup = 30, 70000, 4, 2, 3
		},
		"k=1": func(c *Config) { c.WarmStates = 1 },
		"k=R": func(c *Config) { c.WarmStates = c.Reps },
	}
	for name, mod := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := base
			mod(&cfg)
			ctx := context.Background()
			one, err := Run(ctx, cfg, Settings{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			three, err := Run(ctx, cfg, Settings{Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(one.Reps, three.Reps) {
				t.Fatal("1 and 3 workers differ")
			}
			var merged []Replication
			for _, idx := range [][]int{{6, 1}, {0, 2, 4}, {3}, {5}} {
				part, err := Run(ctx, cfg, Settings{Workers: 2, Indices: idx})
				if err != nil {
					t.Fatal(err)
				}
				merged = append(merged, part.Reps...)
			}
			slices.SortFunc(merged, func(a, b Replication) int { return a.Index - b.Index })
			if !reflect.DeepEqual(one.Reps, merged) {
				t.Fatal("the shards' replications differ from the whole run's")
			}
		})
	}
}

// TestWarmStatesBranch checks what a branch is: replication r starts from
// warm state r mod k, which a run never changes, and continues on its own
// stream, so replications sharing a warm state are not identical; the
// warm-up streams are not the replications' (k = R is not k = 0's run).
func TestWarmStatesBranch(t *testing.T) {
	cfg := small()
	cfg.Reps, cfg.WarmStates = 6, 2
	ctx := context.Background()
	g, _, err := buildGraph(cfg.Topology, cfg.Nodes, cfg.Seed)
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{0, 1, 2, 3, 4, 5}
	warm, err := warmUps(ctx, cfg, g, idx, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(warm[0].st.(*protocolState[uint16]).cache)
	res, err := Run(ctx, cfg, Settings{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range idx {
		// A replication run by hand from a copy of warm state r mod 2 is
		// Run's replication r.
		rep, err := runOne(ctx, cfg, g, approx.Transitions{}, r, warm[r%2], nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*rep, res.Reps[r]) {
			t.Errorf("replication %d is not the branch of warm state %d", r, r%2)
		}
	}
	if !slices.Equal(before, warm[0].st.(*protocolState[uint16]).cache) {
		t.Error("running replications changed the warm state they copied")
	}
	// Warm state 0 is not the cold placement: the warm-up ran.
	cold := newProtocolState[uint16](cfg, rng.NewStream(cfg.Seed, streamWarm)) // warm state 0 before its warm-up
	if slices.Equal(cold.cache, before) {
		t.Error("warm state 0 is the initial placement")
	}
	for r := 2; r < 6; r++ {
		if slices.Equal(res.Reps[r].X, res.Reps[r-2].X) && slices.Equal(res.Reps[r].Y, res.Reps[r-2].Y) {
			t.Errorf("replications %d and %d, which share a warm state, are identical", r-2, r)
		}
	}
	cfg.WarmStates = 0
	indep, err := Run(ctx, cfg, Settings{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	cfg.WarmStates = cfg.Reps
	kR, err := Run(ctx, cfg, Settings{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(indep.Reps, kR.Reps) {
		t.Error("k = R replays k = 0: the warm-ups use the replications' streams")
	}
}

// TestCloneSharesNothing: a clone of a state and of a scheduler shares no
// slice with the original (every slice field, found by reflection, so that
// a field added to protocolState or scheduler and not copied by clone
// fails here), and holds equal values.
func TestCloneSharesNothing(t *testing.T) {
	for _, sch := range []Schedule{Rounds, Async, Continuous} {
		cfg := small()
		cfg.Schedule, cfg.Ticks, cfg.Check = sch, 5, true
		g, _, err := buildGraph(cfg.Topology, cfg.Nodes, cfg.Seed)
		if err != nil {
			t.Fatal(err)
		}
		w, err := warmUp[uint16](context.Background(), cfg, g, 0)
		if err != nil {
			t.Fatal(err)
		}
		st := w.st.(*protocolState[uint16])
		for name, pair := range map[string][2]any{"protocolState": {st, st.clone()}, "scheduler": {w.sched, w.sched.clone()}} {
			a, b := reflect.ValueOf(pair[0]).Elem(), reflect.ValueOf(pair[1]).Elem()
			if !reflect.DeepEqual(pair[0], pair[1]) {
				t.Errorf("%v: %s: the clone differs from the original", sch, name)
			}
			checkNoShared(t, sch.String()+" "+name, a, b)
		}
	}
}

func checkNoShared(t *testing.T, path string, a, b reflect.Value) {
	t.Helper()
	switch a.Kind() {
	case reflect.Slice:
		if a.Cap() > 0 && a.Pointer() == b.Pointer() && path != "scheduler.g" {
			t.Errorf("%s: the clone shares the slice", path)
		}
		if a.Type().Elem().Kind() == reflect.Slice {
			for i := range min(a.Len(), b.Len()) {
				checkNoShared(t, path, a.Index(i), b.Index(i))
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			checkNoShared(t, path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i))
		}
	case reflect.Pointer, reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() && !slices.Contains([]string{"protocolState", "scheduler"}, path) {
			if a.Type().Elem().Name() != "graph" { // the graph is read-only and shared
				t.Errorf("%s: the clone shares a %v", path, a.Type())
			}
		}
	}
}

// TestWarmStatesStatistics: branching leaves the law of a replication
// unchanged. k = R (every replication its own warm-up, on the warm-up
// streams) is compared with k = 0 (today's runs) by z-tests of the mean
// x(t) and y(t) at t = 1, 2, 3 and of the mean number of items alive at
// t = 0 under loss ε = 0.2 (n = 400 items of 2.5 copies each die in the warm-up: Alive is a property
// of the warm state itself, far from its cold value n, which the test
// checks so that it can fail). |z| < 4 at these fixed seeds for 7
// statistics: a false alarm has chance 7·6·10⁻⁵ = 4·10⁻⁴. A warm state
// that skipped its warm-up fails it.
func TestWarmStatesStatistics(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds")
	}
	cfg := small()
	cfg.Nodes, cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Shuffle.Exchange = 100, 400, 10, 5
	cfg.Warmup, cfg.Rounds, cfg.Reps, cfg.Loss = 20, 3, 400, 0.2
	stats := func(res *Result) map[string][]float64 {
		out := map[string][]float64{}
		for i := range res.Reps {
			r := &res.Reps[i]
			for _, tt := range []int{1, 2, 3} {
				x, y := fmt.Sprintf("x(%d)", tt), fmt.Sprintf("y(%d)", tt)
				out[x] = append(out[x], float64(r.X[tt]))
				out[y] = append(out[y], float64(r.Y[tt]))
			}
			out["alive"] = append(out["alive"], float64(r.Alive))
		}
		return out
	}
	run := func(c Config) map[string][]float64 {
		res, err := Run(context.Background(), c, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		return stats(res)
	}
	ref := run(cfg)
	kR := cfg
	kR.WarmStates = cfg.Reps
	got := run(kR)
	for name, a := range ref {
		if z := zDiff(a, got[name]); !(math.Abs(z) <= 4) {
			t.Errorf("k = R against k = 0: %s: z = %.2f", name, z)
		}
	}
	cold := cfg
	cold.Warmup = 0
	if z := zDiff(ref["alive"], run(cold)["alive"]); !(math.Abs(z) >= 8) {
		t.Fatalf("the items alive do not tell warm caches from cold ones (z = %.2f): the test cannot fail", z)
	}
}

// zDiff is the two-sample z of the difference of the means.
func zDiff(a, b []float64) float64 {
	ma, va := meanVar(a)
	mb, vb := meanVar(b)
	return (ma - mb) / math.Sqrt(va/float64(len(a))+vb/float64(len(b)))
}

func meanVar(v []float64) (m, s2 float64) {
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	for _, x := range v {
		s2 += (x - m) * (x - m)
	}
	return m, s2 / float64(len(v)-1)
}

// TestWarmStatesValidate: the field's range, as a field error naming it.
func TestWarmStatesValidate(t *testing.T) {
	for _, k := range []int{-1, 7, math.MaxInt} {
		cfg := small()
		cfg.WarmStates = k
		err := cfg.Validate()
		var fe *fielderr.Error
		if !errors.As(err, &fe) || fe.Field != "Config.WarmStates" {
			t.Errorf("WarmStates = %d: got %v, want a field error on Config.WarmStates", k, err)
		}
	}
	for _, k := range []int{0, 1, 6} {
		cfg := small()
		cfg.WarmStates = k
		if err := cfg.Validate(); err != nil {
			t.Errorf("WarmStates = %d: %v", k, err)
		}
	}
	cfg := small()
	w0 := cfg.MemoryEstimate(2)
	cfg.WarmStates = 6
	if got, want := cfg.MemoryEstimate(2)-w0, 6*cfg.warmBytes(); got != want {
		t.Errorf("6 warm states add %d bytes to the estimate, want %d", got, want)
	}
}

// TestWarmUps: the warm-ups a run makes, for the timing tables: one per
// replication without warm states, one per distinct r mod k with them; a
// nasty index list (negative, past Reps) neither panics nor counts beyond
// k.
func TestWarmUps(t *testing.T) {
	cfg := small()
	cfg.Reps = 10
	for _, tc := range []struct {
		k    int
		idx  []int
		want int
	}{
		{0, nil, 10}, {0, []int{1, 2}, 2}, {4, nil, 4}, {4, []int{1, 5, 9}, 1}, {4, []int{0, 1, 5}, 2},
		{4, []int{}, 0}, {3, []int{-1, -4, 1 << 62}, 2}, {-2, []int{1}, 1}, {-2, nil, 10},
	} {
		cfg.WarmStates = tc.k
		if got := cfg.WarmUps(tc.idx); got != tc.want {
			t.Errorf("k = %d, %v: %d warm-ups, want %d", tc.k, tc.idx, got, tc.want)
		}
	}
	cfg.Model, cfg.WarmStates = Markov, 4
	if got := cfg.WarmUps(nil); got != 0 {
		t.Errorf("Markov: %d warm-ups, want 0", got)
	}
}
