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
// with shuffle cfg.Shuffle and P_drop cfg.PDrop; MeanTimeToLevel turns them
// into rounds. TMax and Dt are not used (K does not depend on the clock,
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
	j, err := JumpsFor(cfg.PDrop, cfg.Shuffle)
	if err != nil {
		return 0, 0, err
	}
	return hittingMoments(ctx, cfg.Nodes, max(cfg.Initial, 1), levelCount(cfg.Level, cfg.Nodes), j)
}

// hittingMoments returns E[K] and E[K²] for K, the number of shuffles until
// Y ≥ level (a count of nodes), from the state (initial, initial), for a
// chain of the given number of nodes and jumps j. It solves the linear
// equations of first-step analysis exactly (up to rounding), with no
// truncation:
//
//	h(X,Y) = 1 + Σ P((X,Y)→(X',Y'))·h(X',Y'),                 h = 0 for Y ≥ m
//	g(X,Y) = 1 + Σ P((X,Y)→(X',Y'))·(2h(X',Y') + g(X',Y')),   g = 0 for Y ≥ m
//
// Y never decreases, so the rows Y = m−1, m−2, … are solved in turn: within
// a row only X moves (±1), a tridiagonal system with the row above on the
// right-hand side. Every row is strictly diagonally dominant (a shuffle
// leaves the row with probability (u+m)·X(N−Y)/D > 0), so the Thomas
// algorithm is stable. The work is O(N·level); ctx is checked between rows.
func hittingMoments(ctx context.Context, nodes, initial, level int, j Jumps) (ek, ek2 float64, err error) {
	N, m := nodes, level
	if m <= initial {
		return 0, 0, nil
	}
	if m > N {
		return 0, 0, fmt.Errorf("chain: level count %d > Config.Nodes = %d", m, N)
	}
	d := float64(N) * float64(N-1)
	cu, cm, cw := j.Up/d, j.Move/d, j.Drop/d
	// h, g of row Y+1 (zero for Y+1 ≥ m), indexed by X = 0..N+1.
	hUp, gUp := make([]float64, N+2), make([]float64, N+2)
	h, g := make([]float64, N+2), make([]float64, N+2)
	// Thomas algorithm scratch.
	cp, dh, dg := make([]float64, N+2), make([]float64, N+2), make([]float64, N+2)
	// Row y, for X = 1..y, with a = cu·X(N−Y), b = cm·X(N−Y) (to row y+1),
	// c = cu·X(Y−X), dn = cw·X(X−1) (within the row):
	//   (a+b+c+dn)·h_X − c·h_{X+1} − dn·h_{X−1} = 1 + a·h'_{X+1} + b·h'_X
	//   (a+b+c+dn)·g_X − c·g_{X+1} − dn·g_{X−1} = 2h_X − 1 + a·g'_{X+1} + b·g'_X
	// (the second since Σ P·h = h − 1), h', g' from row y+1.
	solve := func(y int, rhs func(x int, a, b float64) float64, out, dd []float64) {
		ny := float64(N - y)
		for x := 1; x <= y; x++ {
			fx := float64(x)
			a, b := cu*fx*ny, cm*fx*ny
			c, dn := cu*fx*float64(y-x), cw*fx*float64(x-1)
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
			return 0, 0, err
		}
		solve(y, func(x int, a, b float64) float64 { return 1 + a*hUp[x+1] + b*hUp[x] }, h, dh)
		solve(y, func(x int, a, b float64) float64 { return 2*h[x] - 1 + a*gUp[x+1] + b*gUp[x] }, g, dg)
		hUp, h = h, hUp
		gUp, g = g, gUp
	}
	return hUp[initial], gUp[initial], nil
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

// MeanTimeToLevel returns the mean and standard deviation of the time, in
// rounds, until ⌈cfg.Level·N⌉ nodes have held d, by first-step analysis
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
