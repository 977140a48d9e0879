package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/meanfield"
	"github.com/gossipkit/gossipkit/ode"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/report"
)

// shuffleParams are the -n -c -s flags shared by the model commands.
type shuffleParams struct{ n, c, s *int }

func addShuffleFlags(fs interface {
	Int(string, int, string) *int
}, withS bool) shuffleParams {
	p := shuffleParams{
		n: fs.Int("n", 500, "number of distinct items n (≥ c)"),
		c: fs.Int("c", 100, "cache size c (1 ≤ c ≤ n)"),
	}
	if withS {
		p.s = fs.Int("s", 50, "exchange size s (1 ≤ s ≤ c, s < n)")
	}
	return p
}

// shuffle returns the flags' shuffle (Exchange 0 without -s).
func (p shuffleParams) shuffle() gossip.Shuffle {
	sh := gossip.Shuffle{Items: *p.n, Cache: *p.c}
	if p.s != nil {
		sh.Exchange = *p.s
	}
	return sh
}

func (p shuffleParams) check() error {
	n, c := *p.n, *p.c
	if c < 1 {
		return usagef("-c %d: valid range 1..n (n = %d)", c, n)
	}
	if n < c || n > 1<<30 {
		return usagef("-n %d: valid range c..2^30 (c = %d)", n, c)
	}
	if p.s != nil {
		s := *p.s
		if s < 1 || s > c || s >= n {
			return usagef("-s %d: valid range 1..min(c, n−1) = 1..%d", s, min(c, n-1))
		}
	}
	return nil
}

func cmdTransitions(_ context.Context, e *env, args []string) error {
	fs := newFlags("transitions")
	p := addShuffleFlags(fs, true)
	variant := fs.String("pdrop", "simplified", "P_drop variant: simplified, gamma or exact")
	format := fs.String("format", "text", "output format: text, json, csv or markdown")
	out := outFlag(fs)
	if err := parseFormatted(fs, e, args, format); err != nil {
		return err
	}
	if err := p.check(); err != nil {
		return err
	}
	v, err := approx.ParseVariant(*variant)
	if err != nil {
		return usagef("--pdrop %q: valid values are simplified, gamma, exact", *variant)
	}
	tr, err := approx.TransitionsFor(v, p.shuffle())
	if err != nil {
		return usagef("%v", err)
	}
	if err := tr.Check(1e-12); err != nil {
		return fmt.Errorf("transition matrix fails its check: %w", err)
	}
	t := report.TransitionsTable(tr)
	return buffered(e, *out, func(w io.Writer) error {
		if *format == "text" {
			q, _ := approx.PDrop(v, p.shuffle())
			fmt.Fprintf(w, "P(to | from) for n=%d c=%d s=%d: P_select = %.10g, P_drop (%v) = %.10g\n", *p.n, *p.c, *p.s, approx.PSelect(p.shuffle()), v, q)
		}
		return t.Write(w, *format)
	})
}

// checkNodes checks -N, the number of nodes of `ode` and `optimal`.
func checkNodes(N int) error {
	if N < 2 || N > 1<<30 {
		return usagef("-N %d: valid range 2..2^30", N)
	}
	return nil
}

func cmdODE(ctx context.Context, e *env, args []string) error {
	fs := newFlags("ode")
	N := fs.Int("N", 2500, "number of nodes N (≥ 2)")
	p := addShuffleFlags(fs, true)
	tMax := fs.Float64("t-max", 300, "last time, in rounds (> 0)")
	dt := fs.Float64("dt", 1, "output spacing, in rounds (0 < dt ≤ t-max)")
	rtol := fs.Float64("rtol", 1e-10, "relative tolerance of the integrator, in [1e-14, 1)")
	atol := fs.Float64("atol", 1e-13, "absolute tolerance of the integrator (≥ 0)")
	initial := fs.Int("initial", 1, "initial number of copies of d (1..N)")
	variant := fs.String("pdrop", "simplified", "P_drop variant: simplified, gamma or exact")
	refined := fs.Bool("refined", false, "add the refined mean field (1/N correction) and predicted standard deviations")
	timeModel := fs.String("time", "continuous", "with --refined: continuous (shuffles at rate N per round, as `sim --schedule continuous`) or synchronous (rounds in which every shuffle acts on the state at the round's start; \"discrete\" is accepted as its former name)")
	format := fs.String("format", "csv", "output format: csv (the default of every time series), json, text or markdown")
	out := fs.String("o", "", "write to FILE instead of standard output")
	if err := parseFormatted(fs, e, args, format); err != nil {
		return err
	}
	if err := checkNodes(*N); err != nil {
		return err
	}
	if err := p.check(); err != nil {
		return err
	}
	switch {
	case !(*tMax > 0) || math.IsInf(*tMax, 0):
		return usagef("--t-max %g: must be > 0", *tMax)
	case !(*dt > 0) || *dt > *tMax:
		return usagef("--dt %g: valid range (0, t-max] = (0, %g]", *dt, *tMax)
	case *tMax / *dt > 1e6:
		// Each output row holds up to 9 boxed values (~300 bytes).
		return usagef("--dt %g: at most 10^6 output rows (t-max/dt = %g)", *dt, *tMax / *dt)
	case !(*rtol >= minRTol && *rtol < 1):
		// Below ~50 ulp no step can meet the tolerance: the step size
		// underflows and the solution becomes NaN (--rtol 1e-300).
		return usagef("--rtol %g: valid range [%g, 1)", *rtol, minRTol)
	case !(*atol >= 0 && *atol <= 1):
		// x and y are fractions: an absolute tolerance above 1 accepts any answer.
		return usagef("--atol %g: valid range [0, 1]", *atol)
	case *initial < 1 || *initial > *N:
		return usagef("--initial %d: valid range 1..N = 1..%d", *initial, *N)
	case *timeModel != "continuous" && *timeModel != "synchronous" && *timeModel != "discrete":
		return usagef("--time %q: valid values are continuous, synchronous (or its former name discrete)", *timeModel)
	case *refined && *timeModel != "continuous" && math.Abs(*dt-math.Round(*dt)) > 1e-9:
		return usagef("--dt %g: with --time %s the output spacing is a whole number of rounds", *dt, *timeModel)
	}
	v, err := approx.ParseVariant(*variant)
	if err != nil {
		return usagef("--pdrop %q: valid values are simplified, gamma, exact", *variant)
	}
	m, err := approx.NewModel(approx.Config{Nodes: *N, Shuffle: p.shuffle(), PDrop: v, Initial: *initial})
	if err != nil {
		return usagef("%v", err)
	}
	set := ode.Settings{RTol: *rtol, ATol: *atol}
	sol, err := meanfield.Solve(m, *tMax, *dt, set)
	if err != nil {
		return err
	}
	var ref *meanfield.RefinedCurves
	if *refined {
		tm := gossip.Continuous
		if *timeModel != "continuous" { // synchronous, or its alias discrete
			tm = gossip.Synchronous
		}
		if ref, err = meanfield.RefineGrid(ctx, m, *tMax, *dt, tm, set); err != nil {
			return err
		}
	}
	if err := outputTable(e, *out, *format, report.ODETable(sol, ref)); err != nil {
		return err
	}
	if *format == "text" {
		w := e.stdout
		if *out != "" {
			w = e.stderr
		}
		fmt.Fprintf(w, "largest |integrated − closed form| = %.3g at t = %g (%d evaluations, %d accepted and %d rejected steps)\n",
			sol.MaxDiff, sol.MaxDiffAt, sol.Stats.Evaluations, sol.Stats.Accepted, sol.Stats.Rejected)
	}
	return nil
}

func cmdOptimal(ctx context.Context, e *env, args []string) error {
	fs := newFlags("optimal")
	p := addShuffleFlags(fs, false)
	N := fs.Int("N", 2500, "number of nodes N (≥ 2), for the time to coverage")
	level := fs.Float64("level", 0.99, "coverage level for the time criterion, in (1/N, 1)")
	format := fs.String("format", "text", "output format: text, json, csv or markdown")
	out := outFlag(fs)
	if err := parseFormatted(fs, e, args, format); err != nil {
		return err
	}
	if err := p.check(); err != nil {
		return err
	}
	if *p.n < 2 || *p.c >= *p.n {
		return usagef("-c %d: need c < n = %d for an interior optimum", *p.c, *p.n)
	}
	if err := checkNodes(*N); err != nil {
		return err
	}
	if !(*level > 1/float64(*N) && *level < 1) {
		return usagef("--level %g: valid range (1/N, 1) = (%g, 1)", *level, 1/float64(*N))
	}
	res, err := meanfield.Optimize(ctx, meanfield.OptimizeConfig{Nodes: *N, Items: *p.n, Cache: *p.c, Level: *level})
	if err != nil {
		return err
	}
	var sIntGamma, sIntExact any // null where c is too large for these argmaxes
	if res.HasSIntGamma {
		sIntGamma = res.SIntGamma
	}
	if res.HasSIntExact {
		sIntExact = res.SIntExact
	}
	t := &plots.Table{Single: true, Keys: []string{"n", "c", "N", "level", "s_star", "s_int", "s_int_gamma", "s_int_exact", "p11_at_s_int", "s_best_time", "best_time", "time_at_s_int"}}
	t.Rows = [][]any{{*p.n, *p.c, *N, *level, res.SStar, res.SInt, sIntGamma, sIntExact, res.P11, res.SBestTime, res.BestTime, res.TimeAtSInt}}
	return outputTable(e, *out, *format, t)
}

// minRTol is the smallest relative tolerance ode accepts: about 50 times
// the double-precision unit round-off 2^−53 ≈ 1.1e−16.
const minRTol = 1e-14
