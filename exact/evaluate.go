package exact

import (
	"context"
	"math/big"
)

// Evaluation is every drop probability of one point: formula (1), the γ
// form and the simplification S exactly, log10 |E − S| and, when asked
// for, the enumeration of one shuffle.
type Evaluation struct {
	Point
	Formula1, Gamma *big.Rat
	// Simplified is nil where S is undefined (n = s).
	Simplified *big.Rat
	// Log10AbsDiff is log10 |E − S|; HasLog10 is false where E = S or S
	// is undefined.
	Log10AbsDiff float64
	HasLog10     bool
	// Enumerated is nil unless enumeration was asked for and is feasible.
	Enumerated *Enumeration
}

// Evaluate evaluates every point (each must satisfy Validate), sharing one
// Formula1 between consecutive points with the same (c, s). With enumerate, each point is also enumerated where
// CheckEnumerable allows. It checks ctx before each point; progress, if
// not nil, is called after each with the number done and the total.
func Evaluate(ctx context.Context, pts []Point, enumerate bool, progress func(done, total int)) ([]Evaluation, error) {
	// Only the last Formula1 is kept: at s = 5000 one holds ~25 MB, and
	// GridPoints orders points so that each (c, s) is one run.
	var f *Formula1
	out := make([]Evaluation, 0, len(pts))
	for i, p := range pts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f == nil || f.c != p.C || f.s != p.S {
			var err error
			if f, err = NewFormula1Context(ctx, p.C, p.S); err != nil {
				return nil, err
			}
		}
		ev := Evaluation{Point: p, Formula1: f.At(new(big.Rat), p.N)}
		var err error
		if ev.Gamma, err = PDropGamma(p.N, p.C, p.S); err != nil {
			return nil, err
		}
		if sv, err := PDropSimplified(p.N, p.C, p.S); err == nil {
			ev.Simplified = sv
			ev.Log10AbsDiff, ev.HasLog10 = Log10AbsDiff(ev.Formula1, sv)
		}
		if enumerate {
			if en, err := PDropEnumerated(p.N, p.C, p.S); err == nil {
				ev.Enumerated = en
			}
		}
		out = append(out, ev)
		if progress != nil {
			progress(i+1, len(pts))
		}
	}
	return out, nil
}

// GridPoints returns the valid points (Validate) of the grid ns × cs × ss,
// in the order c, s, n (n fastest), and the number of invalid ones
// skipped.
func GridPoints(ns, cs, ss []int) (pts []Point, skipped int) {
	for _, c := range cs {
		for _, s := range ss {
			for _, n := range ns {
				if Validate(n, c, s) != nil {
					skipped++
					continue
				}
				pts = append(pts, Point{N: n, C: c, S: s})
			}
		}
	}
	return pts, skipped
}
