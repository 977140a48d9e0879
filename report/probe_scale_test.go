package report

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// tinyScale is Smoke shrunk further: every section computes in
// milliseconds beyond its fixed work (N = 20 nodes, n = 10 items, c = 5,
// s = 2, a few rounds and replications), so that a probe can run each
// section once per nasty value of each Scale field.
func tinyScale() Scale {
	return Scale{Name: "tiny", Seed: 1, Fig4NMax: 60, Fig4Step: 20, Fig4C: []int{10}, Fig4S: []int{1, 2}, ProveS: 2,
		Nodes: 20, Cache: 5, Exchange: 2, Ns: []int{10}, Warmup: 2, Rounds: 5, Reps: 2, MarkovReps: 2,
		OptNodes: 20, OptS: []int{1, 2}, OptWarmup: 2, OptRounds: 5, OptReps: 2,
		Refined:   []RefinedCase{{N: 10, Initial: 2, T: 5, Runs: 2, RoundRuns: 2, ProtoRuns: 2, ProtoT: 5, Plot: true}},
		TreeSeeds: 1, GossipTreeNs: []int{20}, GossipTreeFailNodes: 20, BroadcastN: 10,
		NetNs: []int{10}, NetDegree: 4, NetReps: 2, NetWarmup: 2, NetRounds: 5, LossNs: []int{10}, LossReps: 2, LossRounds: 5}
}

// probeScale probes run (a section's compute step) as a function of a
// context and of the Scale fields named (all of them when none is): the
// probe replaces the context, then each field in turn, by its nasty
// values, the others keeping tinyScale's. It builds the function's
// argument type from Scale's own fields (reflect.StructOf), so that a
// field renamed or retyped in Scale is probed as it is.
func probeScale(t *testing.T, name string, set probe.Settings, run func(context.Context, *Study) error, fields ...string) int {
	t.Helper()
	st := reflect.TypeFor[Scale]()
	if len(fields) == 0 {
		for i := range st.NumField() {
			fields = append(fields, st.Field(i).Name)
		}
	}
	var sfs []reflect.StructField
	for _, f := range fields {
		sf, ok := st.FieldByName(f)
		if !ok {
			t.Fatalf("%s: Scale has no field %s", name, f)
		}
		sfs = append(sfs, reflect.StructField{Name: sf.Name, Type: sf.Type})
	}
	sub := reflect.StructOf(sfs)
	base := reflect.New(sub).Elem()
	tiny := reflect.ValueOf(tinyScale())
	for _, f := range fields {
		base.FieldByName(f).Set(tiny.FieldByName(f))
	}
	ctxType := reflect.TypeFor[context.Context]()
	errType := reflect.TypeFor[error]()
	ft := reflect.FuncOf([]reflect.Type{ctxType, sub}, []reflect.Type{errType}, false)
	fn := reflect.MakeFunc(ft, func(in []reflect.Value) []reflect.Value {
		sc := tinyScale()
		v := reflect.ValueOf(&sc).Elem()
		for _, f := range fields {
			v.FieldByName(f).Set(in[1].FieldByName(f))
		}
		var ctx context.Context
		if !in[0].IsNil() {
			ctx = in[0].Interface().(context.Context)
		}
		err := run(ctx, NewStudy(sc, Options{Workers: 1}))
		out := reflect.New(errType).Elem()
		if err != nil {
			out.Set(reflect.ValueOf(err))
		}
		return []reflect.Value{out}
	})
	return probe.Func(t, name, fn.Interface(), set, context.Background(), base.Interface())
}

// TestSectionsNastyScale runs every section with tinyScale changed in one
// field at a time to each nasty value of its type (internal/probe: 0, −1,
// the extremes and 2^40 for the counts, nil and empty lists and a first
// element replaced, the zero RefinedCase and each of its fields, ...),
// and with a nil and a cancelled context: none may panic or outlive its
// context. The light sections get every field of Scale. Five sections do
// 0.1 to 6 s of work that no Scale field changes (the γ identity on a
// fixed grid, the trend of s* over fixed N, the tree sweep's fixed sizes,
// plan's and broadcast's design tables): a call per nasty value of all 31
// fields would take minutes (67 s measured for an earlier probe), so they
// get the fields they read (from their source, with the validation's
// Nodes, Cache, Exchange and Ns), and the part of Fig. 4 and of the
// optimal-s section that the Scale drives (Fig4Curves, optimalFigure) gets
// every field. About 2,400 calls, 9 s on a loaded machine.
func TestSectionsNastyScale(t *testing.T) {
	// A short deadline: a nasty count (Reps = 2^40) is a long run that
	// only the context stops; the probe fails a call still running 10 s
	// after it.
	set := probe.Settings{CtxTimeout: 20 * time.Millisecond}
	validated := []string{"Nodes", "Cache", "Exchange", "Ns"}
	reads := map[string][]string{
		"Drop probability (Fig. 4)": {"Fig4NMax", "Fig4Step", "ProveS"},
		"Optimal exchange size":     validated, // and optimalFigure below

		treeTitle: {"Seed", "TreeSeeds"},
		"Design answers: the time to coverage at any N":          append([]string{"Seed", "MarkovReps"}, validated...),
		"Gossip as deployed: push, pull and push–pull broadcast": {"Seed", "MarkovReps", "BroadcastN"},
	}
	calls := 0
	for _, sec := range Sections() {
		start := time.Now()
		n := probeScale(t, sec.Title, set, func(ctx context.Context, s *Study) error { _, err := sec.Compute(ctx, s); return err }, reads[sec.Title]...)
		calls += n
		t.Logf("%-60s %4d calls %v", sec.Title, n, time.Since(start))
	}
	for _, part := range []struct {
		name string
		run  func(context.Context, *Study) error
	}{
		{"Fig4Curves", func(ctx context.Context, s *Study) error { _, err := s.Fig4Curves(ctx); return err }},
		{"optimalFigure", func(ctx context.Context, s *Study) error {
			if err := s.ready(true); err != nil { // as Optimal does first
				return err
			}
			_, err := s.optimalFigure(ctx)
			return err
		}},
	} {
		start := time.Now()
		n := probeScale(t, part.name, set, part.run)
		calls += n
		t.Logf("%-60s %4d calls %v", part.name, n, time.Since(start))
	}
	t.Logf("%d calls", calls)
}

// The values the probe found breaking a section are refused before any
// work, as field errors naming the Scale field: an exchange size below 1
// in OptS (it indexed the chain's results at s − 1), a refined case of
// fewer than 2 rounds (its deviations' peak lay past the output times) or
// of 2^40 (T + 1 output times: out of memory), and rounds beyond sim's
// 10⁷ (the network section drew the ODE over every round first, without
// looking at its context).
func TestReadyRefusesBadEntries(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*Scale)
	}{
		{"Scale.OptS[0]", func(sc *Scale) { sc.OptS[0] = 0 }},
		{"Scale.OptS[1]", func(sc *Scale) { sc.OptS[1] = -1 }},
		{"Scale.Refined[0].T", func(sc *Scale) { sc.Refined[0].T = 1 }},
		{"Scale.Refined[0].T", func(sc *Scale) { sc.Refined[0].T = 1 << 40 }},
		{"Scale.Rounds", func(sc *Scale) { sc.Rounds = 1 << 40 }},
		{"Scale.NetRounds", func(sc *Scale) { sc.NetRounds = 10_000_001 }},
	} {
		t.Run(tc.field, func(t *testing.T) {
			sc := tinyScale()
			tc.edit(&sc)
			err := NewStudy(sc, Options{}).ready(true)
			var fe *fielderr.Error
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Errorf("err = %v, want a field error on %s", err, tc.field)
			}
		})
	}
	for _, sc := range []Scale{tinyScale(), Smoke(), Quick(), Paper()} {
		if err := NewStudy(sc, Options{}).ready(true); err != nil {
			t.Errorf("%s: %v", sc.Name, err)
		}
	}
}
