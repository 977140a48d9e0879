package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/internal/flagval"
	"github.com/gossipkit/gossipkit/report/tables"
)

func cmdPDrop(fs *cli.FlagSet) cli.Run {
	nsc := cli.ShuffleRanges(fs, "", [3]string{2: fmt.Sprintf("; formula (1) by its closed form, exact while min(s, n−s)·bitlen(n) ≤ %d: every s ≤ 51150 at any n", exact.MaxBits)})
	nS, cS, sS := nsc[0], nsc[1], nsc[2]
	enum := fs.Bool("enumerate", false, fmt.Sprintf("also enumerate one shuffle exhaustively (n ≤ 63, C(n,s) ≤ %d)", exact.MaxEnumeration))
	format, out := fs.Output("text")
	return func(ctx context.Context, e *env) error { return pdrop(ctx, e, fs, *nS, *cS, *sS, *enum, *format, *out) }
}

func pdrop(ctx context.Context, e *env, fs *cli.FlagSet, nS, cS, sS string, enum bool, format, out string) error {
	ranges := map[string]flagval.Range{}
	for _, f := range []struct {
		name, val string
		p         gossip.Param
	}{{"n", nS, gossip.Items}, {"c", cS, gossip.Cache}, {"s", sS, gossip.Exchange}} {
		if f.val == "" {
			return usagef("-%s is required (an integer ≥ 1, or a range LO:HI[:STEP])", f.name)
		}
		r, err := cli.IntRange("-"+f.name, f.val, 1, f.p)
		if err != nil {
			return err
		}
		ranges[f.name] = r
	}
	if ranges["n"].Hi > gossip.MaxItems {
		return usagef("-n %q: n ≤ %d", nS, gossip.MaxItems)
	}
	ns, cs, ss := ranges["n"].Values(), ranges["c"].Values(), ranges["s"].Values()
	if len(ns)*len(cs)*len(ss) > exact.MaxEvaluate {
		return usagef("-n, -c, -s: %d points; at most %d (about 3 s of CPU)", len(ns)*len(cs)*len(ss), exact.MaxEvaluate)
	}
	// A grid skips (and counts) points with s > c, c > n or s = n; one point must be valid.
	pts, skipped := exact.GridPoints(ns, cs, ss)
	if len(ns)*len(cs)*len(ss) == 1 && skipped == 1 {
		p := gossip.Shuffle{Items: ns[0], Cache: cs[0], Exchange: ss[0]}
		return usagef("point %v: %v (valid: %s, %s)", p, fs.FieldUsage(p.Validate()), gossip.Cache.Range, gossip.Exchange.Range)
	}
	for _, p := range pts {
		if err := exact.Validate(p); err != nil {
			return usagef("point %v: %v", p, fs.FieldUsage(err))
		}
		if err := exact.CheckEnumerable(p); enum && err != nil {
			return usagef("--enumerate at %v: %v (n ≤ 63, C(n, s) ≤ %d)", p, fs.FieldUsage(err), exact.MaxEnumeration)
		}
	}
	if len(pts) == 0 {
		return usagef("-n, -c, -s: no point of the grid has 1 ≤ s ≤ c ≤ n, s < n")
	} else if skipped > 0 {
		fmt.Fprintf(e.Stderr, "gossipkit pdrop: skipped %d of %d grid points with s > c, c > n or s = n\n", skipped, skipped+len(pts))
	}
	evs, err := exact.Evaluate(ctx, exact.Config{Shuffles: pts, Enumerate: enum}, exactSettings(e, "pdrop"))
	if err != nil {
		return err
	}
	return outputTable(e, out, format, tables.PDropTable(evs, enum))
}

func cmdGammaCheck(fs *cli.FlagSet) cli.Run {
	sMax, cMax := new(int), new(int)
	*sMax, *cMax = 8, 20
	fs.IntParam(sMax, "s-max", "Grid", exact.GridExchange, "formula (1) by its O(s²) double sum against γ by its sum")
	fs.IntParam(cMax, "c-max", "Grid", exact.GridCache)
	nMax := fs.Int("n-max", 40, "largest number of items n (≥ 2)")
	prove := fs.Bool("prove", false, fmt.Sprintf("check the identity, a theorem for every s (go doc ./exact), independently for each s = 1..s-max (up to %d) and all n and c: a polynomial identity evaluated exactly on a (2s+1)×(s+1) grid (go doc ./exact ProveGamma)", exact.MaxProveS))
	format, out := fs.Output("text")
	return func(ctx context.Context, e *env) error {
		if *prove {
			return proveGamma(ctx, e, fs.FlagSet, *sMax, *format, *out)
		}
		return gammaCheck(ctx, e, *sMax, *cMax, *nMax, *format, *out)
	}
}

func gammaCheck(ctx context.Context, e *env, sMax, cMax, nMax int, format, out string) error {
	switch {
	case !exact.GridExchange.In(float64(sMax)):
		return exact.GridExchange.CheckInt("exact", "Grid", sMax)
	case cMax < 1 || cMax > 1_000_000:
		return usagef("--c-max %d: valid range 1..1000000", cMax)
	case nMax < 2 || nMax > 1_000_000:
		// VerifyGamma keeps γ_s(n) for every n ≤ n-max (~200 bytes each).
		return usagef("--n-max %d: valid range 2..1000000", nMax)
	}
	g := exact.Grid{MaxItems: nMax, MaxCache: cMax, MaxExchange: sMax}
	checked, mm, err := exact.VerifyGamma(ctx, g, exactSettings(e, "gamma-check"))
	if err != nil {
		return err
	}
	return buffered(e, out, func(w io.Writer) error {
		if err := tables.WriteGammaCheck(w, g, checked, mm, format); err != nil || mm == nil {
			return err
		}
		return errFailed
	})
}

// proveGamma is `gamma-check --prove`.
func proveGamma(ctx context.Context, e *env, fs *flag.FlagSet, sMax int, format, out string) error {
	for _, f := range []string{"n-max", "c-max"} { // both given: --n-max is named
		if cli.Given(fs, f) {
			return usagef("--%s: not used with --prove, which covers every n and c", f)
		}
	}
	if sMax < 1 || sMax > exact.MaxProveS {
		return usagef("--s-max %d: with --prove, valid range 1..%d", sMax, exact.MaxProveS)
	}
	proofs, err := exact.ProveGammaRange(ctx, sMax, exactSettings(e, "gamma-check --prove"))
	if err != nil {
		return err
	}
	return buffered(e, out, func(w io.Writer) error {
		if err := tables.WriteProveGamma(w, sMax, proofs, format); err != nil {
			return err
		}
		for _, p := range proofs {
			if !p.Proved {
				return errFailed
			}
		}
		return nil
	})
}

// exactSettings reports package exact's progress (newProgress).
func exactSettings(e *env, label string) exact.Settings {
	return exact.Settings{Progress: newProgress(e, label)}
}
