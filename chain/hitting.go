package chain

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/internal/ctxguard"

	"github.com/gossipkit/gossipkit/gossip"
)

// HittingMoments returns E[K] and E[K²] for K, the number of shuffles until
// m = ⌈cfg.Level·cfg.Nodes⌉ nodes have held d (Y ≥ m), from the state
// (Initial, Initial) (Initial 0 means 1) of the chain of cfg.Nodes nodes
// with shuffle cfg.Shuffle, P_drop cfg.PDrop and loss cfg.Loss (with loss
// they are given K < ∞: d may die first; ReachProbability gives
// P(K < ∞)); MeanTimeToLevel turns them into rounds. TMax and Dt are not used (K does not depend on the clock,
// but Validate still refuses gossip.Synchronous), and Nodes ≤ MaxNodesJoint.
// It solves the equations of first-step analysis row by row of the state
// space, O(N·m) work, checking ctx between rows (package doc, "Time to a
// coverage level").
func HittingMoments(ctx context.Context, cfg Config) (ek, ek2 float64, err error) {
	if err := ctxguard.Check("chain", ctx); err != nil {
		return 0, 0, err
	}
	if cfg.TMax == 0 {
		cfg.TMax, cfg.Dt = 1, 1 // not used here; satisfy Validate
	}
	if err := cfg.Validate(); err != nil {
		return 0, 0, err
	}
	if cfg.Level <= 0 {
		return 0, 0, fmt.Errorf("chain: %w", &FieldError{Field: "Config.Level", Msg: "0: a level in (0, 1] is needed"})
	}
	j, err := cfg.jumps()
	if err != nil {
		return 0, 0, err
	}
	return hittingMoments(ctx, cfg.Nodes, max(cfg.Initial, 1), levelCount(cfg.Level, cfg.Nodes), j)
}

// hittingMoments is hittingReach without P(K < ∞).
func hittingMoments(ctx context.Context, nodes, initial, level int, j Jumps) (ek, ek2 float64, err error) {
	_, ek, ek2, err = hittingReach(ctx, nodes, initial, level, j)
	return ek, ek2, err
}

// hittingReach returns P(K < ∞), E[K | K < ∞] and E[K² | K < ∞] for K,
// the number of shuffles until Y ≥ level (a count of nodes), from the
// state (initial, initial), for a chain of the given number of nodes and
// jumps j (K = ∞ when d dies first, which needs loss). It solves the
// linear equations of first-step analysis exactly (up to rounding), with
// no truncation; with r = P(K < ∞), h = E[K·1{K<∞}], g = E[K²·1{K<∞}]
// from each state (and K = 1 + K' after one shuffle):
//
//	r(X,Y) = Σ P((X,Y)→(X',Y'))·r(X',Y'),                       r = 1 for Y ≥ m
//	h(X,Y) = r(X,Y) + Σ P((X,Y)→(X',Y'))·h(X',Y'),              h = 0 for Y ≥ m
//	g(X,Y) = 2h(X,Y) − r(X,Y) + Σ P((X,Y)→(X',Y'))·g(X',Y'),    g = 0 for Y ≥ m
//
// (the last since E[(1+K')²·1] = r + 2Σ P·h' + Σ P·g' and Σ P·h' = h − r),
// and r = h = g = 0 at X = 0. Without loss r = 1 everywhere and is not
// solved for (the arithmetic is then that of the lossless equations, bit
// for bit). Y never decreases, so the rows Y = m−1, m−2, … are solved in
// turn: within a row only X moves (±1, and from X = 1 to the dead state),
// a tridiagonal system with the row above on the right-hand side. Every
// row is strictly diagonally dominant (a shuffle leaves the row with
// probability (u+m)·X(N−Y)/D > 0), so the Thomas algorithm is stable. The
// work is O(N·level); ctx is checked between rows.
func hittingReach(ctx context.Context, nodes, initial, level int, j Jumps) (reach, ek, ek2 float64, err error) {
	N, m := nodes, level
	if m <= initial {
		return 1, 0, 0, nil
	}
	if m > N {
		return 0, 0, 0, fmt.Errorf("chain: level count %d > Config.Nodes = %d", m, N)
	}
	d := float64(N) * float64(N-1)
	cu, cm, cw, cl := j.Up/d, j.Move/d, j.Drop/d, j.Lose/d
	lossy := cl > 0
	// h, g (and r) of row Y+1 (zero for Y+1 ≥ m; r one), indexed by
	// X = 0..N+1.
	hUp, gUp := make([]float64, N+2), make([]float64, N+2)
	h, g := make([]float64, N+2), make([]float64, N+2)
	// Thomas algorithm scratch.
	cp, dh, dg := make([]float64, N+2), make([]float64, N+2), make([]float64, N+2)
	var r, rUp, dr []float64
	if lossy {
		r, rUp, dr = make([]float64, N+2), make([]float64, N+2), make([]float64, N+2)
		for x := range rUp {
			rUp[x] = 1
		}
	}
	// Row y, for X = 1..y, with a = cu·X(N−Y), b = cm·X(N−Y) (to row y+1),
	// c = cu·X(Y−X), dn = cw·X(X−1) + cl·X(N−X) (within the row, or to
	// the dead state from X = 1):
	//   (a+b+c+dn)·r_X − c·r_{X+1} − dn·r_{X−1} = a·r'_{X+1} + b·r'_X
	//   (a+b+c+dn)·h_X − c·h_{X+1} − dn·h_{X−1} = r_X + a·h'_{X+1} + b·h'_X
	//   (a+b+c+dn)·g_X − c·g_{X+1} − dn·g_{X−1} = 2h_X − r_X + a·g'_{X+1} + b·g'_X
	// (r_X = 1 without loss), h', g', r' from row y+1; the value at X = 0
	// is zero, so the term dn·v_0 of X = 1 is left out.
	solve := func(y int, rhs func(x int, a, b float64) float64, out, dd []float64) {
		ny := float64(N - y)
		for x := 1; x <= y; x++ {
			fx := float64(x)
			a, b := cu*fx*ny, cm*fx*ny
			c, dn := cu*fx*float64(y-x), cw*fx*float64(x-1)
			if lossy {
				dn += cl * fx * float64(N-x)
			}
			den, r := a+b+c+dn, rhs(x, a, b)
			if x > 1 {
				den -= dn * cp[x-1]
				r += dn * dd[x-1]
			}
			cp[x], dd[x] = c/den, r/den
		}
		out[y+1] = 0
		for x := y; x >= 1; x-- {
			out[x] = dd[x] + cp[x]*out[x+1]
		}
	}
	for y := m - 1; y >= initial; y-- {
		if err := ctx.Err(); err != nil {
			return 0, 0, 0, err
		}
		if !lossy {
			solve(y, func(x int, a, b float64) float64 { return 1 + a*hUp[x+1] + b*hUp[x] }, h, dh)
			solve(y, func(x int, a, b float64) float64 { return 2*h[x] - 1 + a*gUp[x+1] + b*gUp[x] }, g, dg)
		} else {
			solve(y, func(x int, a, b float64) float64 { return a*rUp[x+1] + b*rUp[x] }, r, dr)
			solve(y, func(x int, a, b float64) float64 { return r[x] + a*hUp[x+1] + b*hUp[x] }, h, dh)
			solve(y, func(x int, a, b float64) float64 { return 2*h[x] - r[x] + a*gUp[x+1] + b*gUp[x] }, g, dg)
			rUp, r = r, rUp
		}
		hUp, h = h, hUp
		gUp, g = g, gUp
	}
	if !lossy {
		return 1, hUp[initial], gUp[initial], nil
	}
	reach = rUp[initial]
	if !(reach > 0) {
		return 0, math.NaN(), math.NaN(), nil
	}
	return reach, hUp[initial] / reach, gUp[initial] / reach, nil
}

// hittingStat turns the moments of K into the mean and standard deviation
// of the time to the level, in rounds.
func hittingStat(tm gossip.Time, N int, ek, ek2 float64) (mean, sd float64) {
	n := float64(N)
	vk := math.Max(0, ek2-ek*ek)
	if tm == gossip.Shuffles {
		return ek / n, math.Sqrt(vk) / n
	}
	return ek / n, math.Sqrt(ek+vk) / n
}

// ReachProbability returns P(T_L < ∞), the probability that
// ⌈cfg.Level·N⌉ nodes hold d at some time before it dies (1 without
// loss): 1 − P(extinction before coverage Level). It is exact up to
// rounding, by first-step analysis (HittingMoments), O(N·m) work; TMax
// and Dt are not used.
func ReachProbability(ctx context.Context, cfg Config) (float64, error) {
	if err := ctxguard.Check("chain", ctx); err != nil {
		return 0, err
	}
	if cfg.TMax == 0 {
		cfg.TMax, cfg.Dt = 1, 1 // not used here; satisfy Validate
	}
	if err := cfg.Validate(); err != nil {
		return 0, err
	}
	if cfg.Level <= 0 {
		return 0, fmt.Errorf("chain: %w", &FieldError{Field: "Config.Level", Msg: "0: a level in (0, 1] is needed"})
	}
	j, err := cfg.jumps()
	if err != nil {
		return 0, err
	}
	reach, _, _, err := hittingReach(ctx, cfg.Nodes, max(cfg.Initial, 1), levelCount(cfg.Level, cfg.Nodes), j)
	return reach, err
}

// MeanTimeToLevel returns the mean and standard deviation of the time, in
// rounds, until ⌈cfg.Level·N⌉ nodes have held d (given that they do, with
// loss), by first-step analysis
// (HittingMoments): exact up to rounding, and O(N²) work, so it reaches
// sizes whose transient laws Solve cannot. TMax and Dt are not used.
func MeanTimeToLevel(ctx context.Context, cfg Config) (mean, sd float64, err error) {
	if err := ctxguard.Check("chain", ctx); err != nil {
		return 0, 0, err
	}
	ek, ek2, err := HittingMoments(ctx, cfg)
	if err != nil {
		return 0, 0, err
	}
	mean, sd = hittingStat(cfg.Time, cfg.Nodes, ek, ek2)
	return mean, sd, nil
}

// TimeToLevel returns the law of the time to coverage cfg.Level alone
// (Solve with no transient output: TMax and Dt are not used), for a design
// question such as P(T_L ≤ D) (LevelTime.CDF) or the deadline met with
// probability P (LevelTime.Quantile). Its work is Estimate's for TMax = 1
// round; LevelTime.Bound bounds the error of its distribution function.
func TimeToLevel(ctx context.Context, cfg Config, set Settings) (*LevelTime, error) {
	if err := ctxguard.Check("chain", ctx); err != nil {
		return nil, err
	}
	if cfg.Level <= 0 {
		return nil, fmt.Errorf("chain: %w", &FieldError{Field: "Config.Level", Msg: fmt.Sprintf("%g: a level in (0, 1] is needed", cfg.Level)})
	}
	cfg.TMax, cfg.Dt = 1, 1 // the level's tail starts at once
	res, err := Solve(ctx, cfg, set)
	if err != nil {
		return nil, err
	}
	return res.Level, nil
}
