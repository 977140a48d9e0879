package meanfield

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/ode"
)

// testModel is a small lossy model (five jumps in Coverage).
func testModel(t *testing.T) approx.Model {
	t.Helper()
	m, err := approx.NewModel(approx.Config{Nodes: 100, Shuffle: gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}, Loss: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// wantField checks that err is a *FieldError on field ("" for nil).
func wantField(t *testing.T, err error, field string) {
	t.Helper()
	if field == "" {
		if err != nil {
			t.Errorf("err = %v, want nil", err)
		}
		return
	}
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != field || !strings.HasPrefix(err.Error(), "meanfield: "+field+" ") {
		t.Errorf("err = %v, want a meanfield field error on %s", err, field)
	}
}

// broken returns Coverage(m) with its jump k changed by f.
func broken(m approx.Model, k int, f func(*Jump)) *Population {
	p := Coverage(m)
	jumps := append([]Jump(nil), p.Jumps...)
	f(&jumps[k])
	return &Population{Names: p.Names, Jumps: jumps}
}

func TestPopulationValidate(t *testing.T) {
	m := testModel(t)
	for _, tc := range []struct {
		name  string
		p     *Population
		field string
	}{
		{"Coverage", Coverage(m), ""},
		{"Replication", Replication(m), ""},
		{"no Corr", broken(m, 0, func(j *Jump) { j.Corr = nil }), ""},
		{"no jumps", &Population{Names: []string{"x"}}, ""},
		{"zero", &Population{}, "Population.Names"},
		{"short L", broken(m, 2, func(j *Jump) { j.L = j.L[:1] }), "Population.Jumps[2].L"},
		{"long L", broken(m, 4, func(j *Jump) { j.L = []float64{1, 2, 3} }), "Population.Jumps[4].L"},
		{"nil Rate", broken(m, 1, func(j *Jump) { j.Rate = nil }), "Population.Jumps[1].Rate"},
		{"nil Grad", broken(m, 0, func(j *Jump) { j.Grad = nil }), "Population.Jumps[0].Grad"},
		{"nil Hess", broken(m, 3, func(j *Jump) { j.Hess = nil }), "Population.Jumps[3].Hess"},
		{"NaN in L", broken(m, 0, func(j *Jump) { j.L = []float64{1, math.NaN()} }), "Population.Jumps[0].L[1]"},
		{"Inf in L", broken(m, 1, func(j *Jump) { j.L = []float64{math.Inf(-1), 0} }), "Population.Jumps[1].L[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantField(t, tc.p.Validate(), tc.field) })
	}
	var nilPop *Population
	if err := nilPop.Validate(); err == nil || err.Error() != "meanfield: nil Population" {
		t.Errorf("nil: %v", err)
	}
	if d := nilPop.Dim(); d != 0 {
		t.Errorf("nil Dim = %d, want 0", d)
	}
}

// TestPopulationNaN: the methods without an error return set every
// element of their output to NaN where they cannot compute it, and a
// finite value where they can (the coverage model at x = (0.1, 0.2) has
// finite rates).
func TestPopulationNaN(t *testing.T) {
	m := testModel(t)
	good := Coverage(m)
	x := []float64{0.1, 0.2}
	type method struct {
		name string
		size int // output length for d = 2
		f    func(p *Population, x, out []float64)
	}
	methods := []method{
		{"Drift", 2, (*Population).Drift},
		{"Jacobian", 4, (*Population).Jacobian},
		{"Hessian", 8, (*Population).Hessian},
		{"Q", 4, (*Population).Q},
		{"C", 2, (*Population).C},
		{"Step", 2, func(p *Population, x, out []float64) { SynchronousSteps{P: p, H: 0.5}.Step(x, out) }},
		{"StepJacobian", 4, func(p *Population, x, out []float64) { SynchronousSteps{P: p, H: 0.5}.StepJacobian(x, out) }},
		{"StepHessian", 8, func(p *Population, x, out []float64) { SynchronousSteps{P: p, H: 0.5}.StepHessian(x, out) }},
		{"Gamma", 4, func(p *Population, x, out []float64) { SynchronousSteps{P: p, H: 0.5}.Gamma(x, out) }},
		{"StepCorr", 2, func(p *Population, x, out []float64) { SynchronousSteps{P: p, H: 0.5}.StepCorr(x, out) }},
	}
	for _, mt := range methods {
		for _, tc := range []struct {
			name   string
			p      *Population
			x      []float64
			outLen int
			nan    bool
		}{
			{"valid", good, x, mt.size, false},
			{"nil", nil, x, mt.size, true},
			{"no names", &Population{Jumps: good.Jumps}, x, mt.size, true},
			{"short x", good, x[:1], mt.size, true},
			{"nil x", good, nil, mt.size, true},
			{"short output", good, x, mt.size - 1, true},
			{"jump of the wrong length", broken(m, 2, func(j *Jump) { j.L = j.L[:1] }), x, mt.size, true},
		} {
			t.Run(mt.name+"/"+tc.name, func(t *testing.T) {
				out := make([]float64, tc.outLen)
				mt.f(tc.p, tc.x, out)
				for i, v := range out {
					if math.IsNaN(v) != tc.nan || math.IsInf(v, 0) {
						t.Errorf("out[%d] = %v, want NaN: %v", i, v, tc.nan)
					}
				}
			})
		}
	}
	// A nil function fills NaN only where the method needs it: C skips a
	// jump without Corr, Drift and Q need Rate, Jacobian Grad, Hessian Hess.
	for _, tc := range []struct {
		name string
		j    func(*Jump)
		nan  map[string]bool
	}{
		{"nil Rate", func(j *Jump) { j.Rate = nil }, map[string]bool{"Drift": true, "Q": true, "Step": true, "Gamma": true}},
		{"nil Grad", func(j *Jump) { j.Grad = nil }, map[string]bool{"Jacobian": true, "StepJacobian": true}},
		{"nil Hess", func(j *Jump) { j.Hess = nil }, map[string]bool{"Hessian": true, "StepHessian": true}},
		{"nil Corr", func(j *Jump) { j.Corr = nil }, map[string]bool{}},
	} {
		p := broken(m, 1, tc.j)
		for _, mt := range methods {
			t.Run(tc.name+"/"+mt.name, func(t *testing.T) {
				out := make([]float64, mt.size)
				mt.f(p, x, out)
				for i, v := range out {
					if math.IsNaN(v) != tc.nan[mt.name] {
						t.Errorf("out[%d] = %v, want NaN: %v", i, v, tc.nan[mt.name])
					}
				}
			})
		}
	}
}

// TestRefinedMeanSD: Mean = X + V/N and SD = √(W_kk/N) by hand on a
// Refined written out, NaN where an output is missing.
func TestRefinedMeanSD(t *testing.T) {
	r := &Refined{
		T: []float64{0, 1},
		X: [][]float64{{0.5, 0.25}, {0.5, 0.75}},
		V: [][]float64{{0, 0}, {1, -2}},
		W: [][]float64{{0, 0, 0, 0}, {4, 9, 9, 16}},
	}
	nan := math.NaN()
	for _, tc := range []struct {
		name     string
		r        *Refined
		i, nodes int
		mean, sd []float64
	}{
		{"valid", r, 1, 4, []float64{0.5 + 1.0/4, 0.75 - 2.0/4}, []float64{1, 2}},
		{"nodes 0", r, 1, 0, []float64{nan, nan}, []float64{nan, nan}},
		{"nodes -1", r, 1, -1, []float64{nan, nan}, []float64{nan, nan}},
		{"i out of range", r, 2, 4, []float64{nan, nan}, []float64{nan, nan}},
		{"i negative", r, -1, 4, []float64{nan, nan}, []float64{nan, nan}},
		{"nil", nil, 0, 4, []float64{}, []float64{}},
		{"empty", &Refined{}, 0, 4, []float64{}, []float64{}},
		{"short V and W", &Refined{X: r.X, V: [][]float64{{1}}, W: [][]float64{{4, 0, 0}}}, 0, 4, []float64{0.75, nan}, []float64{1, nan}},
		{"no V, W", &Refined{X: r.X}, 0, 4, []float64{nan, nan}, []float64{nan, nan}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			same := func(what string, got, want []float64) {
				if len(got) != len(want) {
					t.Fatalf("%s = %v, want %v", what, got, want)
				}
				for k := range got {
					// Exact: one addition and one division (Mean) or a square root of a
					// square (SD) of values exact in binary.
					if got[k] != want[k] && !(math.IsNaN(got[k]) && math.IsNaN(want[k])) {
						t.Errorf("%s = %v, want %v", what, got, want)
					}
				}
			}
			same("Mean", tc.r.Mean(tc.i, tc.nodes), tc.mean)
			same("SD", tc.r.SD(tc.i, tc.nodes), tc.sd)
		})
	}
}

// countCtx is a context whose Err turns to Canceled after its first
// `after` calls: a cancel at a known point of a computation.
type countCtx struct {
	context.Context
	calls atomic.Int64
	after int64
}

func (c *countCtx) Err() error {
	if c.calls.Add(1) > c.after {
		return context.Canceled
	}
	return nil
}

func TestRefinedLimits(t *testing.T) {
	m := testModel(t)
	pop := Coverage(m)
	st := SynchronousSteps{P: pop, H: 1}
	x0 := []float64{0.01, 0.01}
	ctx := context.Background()
	big := &Population{Names: make([]string, MaxRefinedDim+1)}
	var nilCtx context.Context
	for _, tc := range []struct {
		name    string
		err     func() error
		tooBig  bool
		cancel  bool
		field   string
		message string
	}{
		{name: "discrete T -1", err: func() error { _, err := RefinedDiscrete(ctx, st, x0, -1); return err }, message: "T = -1"},
		{name: "discrete T too large", err: func() error { _, err := RefinedDiscrete(ctx, st, x0, MaxSynchronousRounds+1); return err }, tooBig: true},
		{name: "discrete values too many", err: func() error {
			p := &Population{Names: make([]string, MaxRefinedDim)}
			_, err := RefinedDiscrete(ctx, SynchronousSteps{P: p, H: 1}, make([]float64, MaxRefinedDim), int(MaxRefinedValues)/(33*33))
			return err
		}, tooBig: true},
		{name: "discrete dimension", err: func() error {
			_, err := RefinedDiscrete(ctx, SynchronousSteps{P: big, H: 1}, make([]float64, MaxRefinedDim+1), 1)
			return err
		}, tooBig: true},
		{name: "discrete nil model", err: func() error { _, err := RefinedDiscrete(ctx, nil, x0, 1); return err }, message: "nil DiscreteModel"},
		{name: "discrete nil ctx", err: func() error { _, err := RefinedDiscrete(nilCtx, st, x0, 1); return err }, message: "nil context"},
		{name: "discrete H 0", err: func() error { _, err := RefinedDiscrete(ctx, SynchronousSteps{P: pop, H: 0}, x0, 1); return err }, field: "SynchronousSteps.H"},
		{name: "discrete nil P", err: func() error { _, err := RefinedDiscrete(ctx, SynchronousSteps{H: 1}, x0, 1); return err }, field: "SynchronousSteps.P"},
		{name: "discrete bad jump", err: func() error {
			_, err := RefinedDiscrete(ctx, SynchronousSteps{P: broken(m, 3, func(j *Jump) { j.Rate = nil }), H: 1}, x0, 1)
			return err
		}, field: "SynchronousSteps.P.Jumps[3].Rate"},
		{name: "discrete NaN x0", err: func() error { _, err := RefinedDiscrete(ctx, st, []float64{math.NaN(), 0}, 1); return err }, message: "x0[0] = NaN"},
		{name: "discrete short x0", err: func() error { _, err := RefinedDiscrete(ctx, st, x0[:1], 1); return err }, message: "x0 has 1 components"},
		{name: "discrete cancelled at step 128", err: func() error {
			_, err := RefinedDiscrete(&countCtx{Context: ctx, after: 1}, st, x0, 1000)
			return err
		}, cancel: true},
		{name: "continuous dimension", err: func() error {
			_, err := RefinedContinuous(context.Background(), big, make([]float64, MaxRefinedDim+1), []float64{0, 1}, ode.Settings{})
			return err
		}, tooBig: true},
		{name: "continuous no times", err: func() error {
			_, err := RefinedContinuous(context.Background(), pop, x0, nil, ode.Settings{})
			return err
		}, message: "no output times"},
		{name: "continuous decreasing times", err: func() error {
			_, err := RefinedContinuous(context.Background(), pop, x0, []float64{0, 2, 1}, ode.Settings{})
			return err
		}, message: "ts[2] = 1"},
		{name: "continuous negative time", err: func() error {
			_, err := RefinedContinuous(context.Background(), pop, x0, []float64{-1, 2}, ode.Settings{})
			return err
		}, message: "ts[0] = -1"},
		{name: "continuous infinite time", err: func() error {
			_, err := RefinedContinuous(context.Background(), pop, x0, []float64{0, math.Inf(1)}, ode.Settings{})
			return err
		}, message: "ts[1] = +Inf"},
		{name: "continuous bad jump", err: func() error {
			_, err := RefinedContinuous(context.Background(), broken(m, 0, func(j *Jump) { j.Hess = nil }), x0, []float64{0, 1}, ode.Settings{})
			return err
		}, field: "Population.Jumps[0].Hess"},
		{name: "steady dimension", err: func() error { _, _, err := SteadyState(big, make([]float64, MaxRefinedDim+1)); return err }, tooBig: true},
		{name: "steady zero", err: func() error { _, _, err := SteadyState(&Population{}, nil); return err }, field: "Population.Names"},
		{name: "steady short xs", err: func() error { _, _, err := SteadyState(pop, x0[:1]); return err }, message: "xs has 1 components"},
		{name: "steady NaN model", err: func() error {
			_, _, err := SteadyState(Coverage(approx.Model{Config: m.Config, P: m.P, Q: math.NaN(), X0: m.X0, Y0: m.Y0}), []float64{0.2, 1})
			return err
		}, message: "not finite"},
		{name: "RefineGrid cancelled in the integration", err: func() error {
			// Err is called once at the entry, then at each accepted step.
			_, err := RefineGrid(&countCtx{Context: ctx, after: 3}, m, 100, 1, gossip.Continuous, ode.Settings{})
			return err
		}, cancel: true},
		{name: "RefineGrid cancelled in the recursion", err: func() error {
			_, err := RefineGrid(&countCtx{Context: ctx, after: 3}, m, 1000, 1, gossip.Synchronous, ode.Settings{})
			return err
		}, cancel: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			switch {
			case err == nil:
				t.Fatal("no error")
			case tc.cancel:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("err = %v, want context.Canceled", err)
				}
			case tc.field != "":
				wantField(t, err, tc.field)
			case !strings.HasPrefix(err.Error(), "meanfield: "):
				t.Errorf("err = %v, want a meanfield error", err)
			case tc.tooBig != errors.Is(err, gossip.ErrTooLarge):
				t.Errorf("err = %v, want ErrTooLarge: %v", err, tc.tooBig)
			case !strings.Contains(err.Error(), tc.message):
				t.Errorf("err = %v, want it to say %q", err, tc.message)
			}
		})
	}
	// The limits refuse nothing the models use: a small recursion and
	// integration still run, and a countCtx that never cancels changes
	// nothing of RefineGrid's result.
	if _, err := RefinedDiscrete(ctx, st, x0, 200); err != nil {
		t.Error(err)
	}
	a, err := RefineGrid(ctx, m, 100, 1, gossip.Continuous, ode.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := RefineGrid(&countCtx{Context: ctx, after: math.MaxInt64}, m, 100, 1, gossip.Continuous, ode.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.T {
		if a.X[i] != b.X[i] || a.YSD[i] != b.YSD[i] {
			t.Fatalf("t = %v: %v, %v differ from %v, %v", a.T[i], b.X[i], b.YSD[i], a.X[i], a.YSD[i])
		}
	}
}

// TestHandMadeModel: a Model written by hand that does not validate is
// refused by every function of the package that takes one, with a field
// error naming the field (or nil, NaN where the function has no error).
func TestHandMadeModel(t *testing.T) {
	good := testModel(t)
	for _, tc := range []struct {
		name  string
		m     func(*approx.Model)
		field string
	}{
		{"Nodes", func(m *approx.Model) { m.Nodes = 0 }, "Model.Config.Nodes"},
		{"Exchange", func(m *approx.Model) { m.Shuffle.Exchange = 11 }, "Model.Config.Shuffle.Exchange"},
		{"Loss", func(m *approx.Model) { m.Loss = math.NaN() }, "Model.Config.Loss"},
		{"P", func(m *approx.Model) { m.P = 1.5 }, "Model.P"},
		{"Q", func(m *approx.Model) { m.Q = -0.1 }, "Model.Q"},
		{"X0", func(m *approx.Model) { m.X0 = math.NaN() }, "Model.X0"},
		{"Y0", func(m *approx.Model) { m.Y0 = math.Inf(1) }, "Model.Y0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := good
			tc.m(&m)
			_, err := Solve(m, 10, 1, ode.Settings{})
			wantField(t, err, tc.field)
			_, err = CoverageTime(m, 0.9)
			wantField(t, err, tc.field)
			_, err = RefineGrid(context.Background(), m, 10, 1, gossip.Synchronous, ode.Settings{})
			wantField(t, err, tc.field)
			if ts, xs, ys := Curves(m, 10); ts != nil || xs != nil || ys != nil {
				t.Error("Curves of an invalid model is not nil")
			}
			if xs, ys := Map(m, 10); xs != nil || ys != nil {
				t.Error("Map of an invalid model is not nil")
			}
			if s := PlateauSteps(m, 10); !math.IsNaN(s) {
				t.Errorf("PlateauSteps = %v, want NaN", s)
			}
			for _, f := range []ode.Func{XY(m), XZ(m)} {
				ds := []float64{0, 0}
				f(0, []float64{0.1, 0.2}, ds)
				if !math.IsNaN(ds[0]) || !math.IsNaN(ds[1]) {
					t.Errorf("right-hand side = %v, want NaN", ds)
				}
			}
			for _, p := range []*Population{Replication(m), Coverage(m)} {
				f := make([]float64, p.Dim())
				p.Drift([]float64{0.1, 0.2}, f)
				if !math.IsNaN(f[0]) {
					t.Errorf("population drift = %v, want NaN", f)
				}
			}
		})
	}
	// The valid model passes, and its right-hand sides fill NaN on a short
	// state and give m.Drift on a full one.
	if _, err := Solve(good, 10, 1, ode.Settings{}); err != nil {
		t.Error(err)
	}
	for _, f := range []ode.Func{XY(good), XZ(good)} {
		ds := []float64{0, 0}
		f(0, []float64{0.1}, ds)
		if !math.IsNaN(ds[0]) || !math.IsNaN(ds[1]) {
			t.Errorf("short state: %v, want NaN", ds)
		}
		f(0, []float64{0.1, 0}, ds)
		if dx, dy := good.Drift(0.1, 0); ds[0] != dx || ds[1] != dy {
			t.Errorf("%v, want m.Drift = %v, %v", ds, dx, dy)
		}
	}
	if _, err := CoverageTime(good, math.NaN()); err == nil {
		t.Error("CoverageTime at a NaN level: no error")
	}
}

// TestGridSizeLimits: Curves, Map, Solve and RefineGrid refuse more than
// their stated limits before any work.
func TestGridSizeLimits(t *testing.T) {
	m := testModel(t)
	if ts, _, _ := Curves(m, MaxRounds+1); ts != nil {
		t.Error("Curves beyond MaxRounds is not nil")
	}
	if xs, _ := Map(m, MaxRounds+1); xs != nil {
		t.Error("Map beyond MaxRounds is not nil")
	}
	if ts, xs, ys := Curves(m, 3); len(ts) != 4 || len(xs) != 4 || len(ys) != 4 || ts[3] != 3 || xs[3] != m.X(3) {
		t.Errorf("Curves(m, 3) = %v, %v, %v", ts, xs, ys)
	}
	// dt = 1e-3 over 1001: 1.001·10⁶ intervals, one thousand beyond.
	if _, err := Solve(m, 1001, 1e-3, ode.Settings{}); !errors.Is(err, gossip.ErrTooLarge) {
		t.Errorf("Solve: %v, want ErrTooLarge", err)
	}
	if _, err := RefineGrid(context.Background(), m, 1001, 1e-3, gossip.Continuous, ode.Settings{}); !errors.Is(err, gossip.ErrTooLarge) {
		t.Errorf("RefineGrid: %v, want ErrTooLarge", err)
	}
	// k = 2(s/c)(c−s)/(n−s) = 1/9 here: 10¹² rounds need 3.4·10¹⁰ steps
	// on the plateau, refused whatever set.MaxSteps allows (it ran out of
	// memory with MaxSteps = 2⁴⁰).
	if _, err := Solve(m, 1e12, 1e6, ode.Settings{MaxSteps: 1 << 40}); !errors.Is(err, gossip.ErrTooLarge) {
		t.Errorf("Solve of 1e12 rounds: %v, want ErrTooLarge", err)
	}
	// The denormal dt of the probe: an error, where Solve returned an
	// empty Solution.
	if sol, err := Solve(m, 50, 5e-324, ode.Settings{}); err == nil {
		t.Errorf("Solve at dt = 5e-324: %d points and no error", len(sol.T))
	}
}
