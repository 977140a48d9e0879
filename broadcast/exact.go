package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/gossipkit/gossipkit/broadcast/internal/countchain"
	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
	"github.com/gossipkit/gossipkit/gossip"
)

// The exact count chain: its model, its messages and its accuracy are set
// out in package internal/countchain (its doc.go), which runs it; here,
// its cost, what it covers and the Law.

// ExactCost estimates the work of ExactLaw for cfg, in the units of
// Settings.ExactBudget (about a nanosecond each; +Inf where the chain is
// out of reach). Without a budget it is the work the chain counts as it
// runs (countchain.Result.Work): the kernels, M·k·min(k, M); each row's
// pull law and its senders' steps over the band of counts the row keeps
// (chainRowsWork: about Σ_i i·(k+1)·bandZ·σ_i, σ_i the sd of the row's
// count; the whole of M − i, Σ_i i·(M−i)·(k+1) ≈ M³(k+1)/6, is about 4
// times that at N 3,000 and 8 times at 12,000); the rows applied to the
// counts held; and 4M a round. Over push, pull and push–pull, k 1 and 3,
// ε 0 and 0.3, L 0.9 and 1, N 50–800 it lies within 0.76–2.72 times the
// work counted (TestExactCostEstimatesWork), and a unit took 0.8–1.5 ns
// at N 1,500–12,000. With a budget: the states (compositions of M into
// R+1 parts) times M per state and round, plus the rows at M³(k+1)/6 (an
// overestimate: the reachable states are far fewer).
func ExactCost(cfg Config) float64 {
	cost, _ := exactCost(cfg)
	return cost
}

// exactCost is ExactCost and, without a budget, the sum of the bands of
// the rows the chain keeps (chainRowsWork; 0 with a budget).
func exactCost(cfg Config) (cost, bands float64) {
	if cfg.Validate() != nil {
		return math.Inf(1), 0
	}
	M, k := float64(cfg.Live()), float64(cfg.Fanout)
	rounds := expectedRounds(cfg)
	if cfg.Budget == 0 {
		// The rounds apply the rows to the counts held, which while the
		// count grows spread over most of them: 2·growthRounds times
		// every row's band.
		rows, bands := chainRowsWork(cfg)
		return M*k*min(k, M) + rows + M*rounds*4 + 2*growthRounds(cfg)*bands, bands
	}
	cost = M*M + M*rounds*4
	if cfg.Protocol.pushes() {
		cost += M*k*min(k, M) + M*M*M*(k+1)/6
	}
	R := float64(rounds2(cfg))
	states := math.Exp(pmf.LChoose(M+R+1, R+1))
	return cost*R + states*M*math.Min(rounds, M*R)*20, 0
}

// chainRowsWork estimates the work of the count chain's rows without a
// budget (countchain.Result.Work less the rounds' 4M): the row from i
// informed, U = M − i uninformed, costs (U + 1)·BinUnits for its pull law
// and, for each of its i senders, k + 1 times the band of counts its law
// then keeps (the mass below 10⁻³⁰ is cut off: about bandZ standard
// deviations of the count plus bandC, at most U + 1). The sum over i and
// over the senders is taken at midpoints of rowCells and senderCells
// cells, so that it costs the same at any N. bands is the sum of the
// rows' bands.
func chainRowsWork(cfg Config) (rows, bands float64) {
	const rowCells, senderCells = 256, 16
	M, n1, k := cfg.Live(), cfg.Nodes-1, cfg.Fanout
	top := cfg.Target()
	if cfg.Protocol.pulls() || deadlineRounds(cfg) >= 1 {
		top = M
	}
	la := math.Log1p(-float64(k) * (1 - cfg.Loss) / float64(n1)) // ln P(one sender misses a given node)
	var buf []float64
	n := top - 1 // rows i = 1, …, top − 1
	cells := min(n, rowCells)
	for c := range cells {
		i0, i1 := 1+c*n/cells, 1+(c+1)*n/cells
		i := (i0 + i1 - 1) / 2
		U := float64(M - i)
		h := 1.0 // P(a given uninformed node stays so after the pulls)
		if cfg.Protocol.pulls() {
			h = pmf.PullMiss(buf, i, k, n1, cfg.Loss)
		}
		w := U + 1
		if cfg.Protocol.pulls() {
			w *= countchain.BinUnits
		}
		band := func(P float64) float64 { return math.Min(U+1, bandZ*math.Sqrt(U*P*(1-P))+bandC) }
		P := 1 - h
		if cfg.Protocol.pushes() {
			P = 1 - h*math.Exp(float64(i)*la)
			steps := min(i, senderCells)
			sum := 0.0
			for j := range steps {
				s := (float64(j) + 0.5) * float64(i) / float64(steps) // senders done
				sum += band(1 - h*math.Exp(s*la))
			}
			w += float64(k+1) * float64(i) * sum / float64(steps)
		}
		rows += float64(i1-i0) * w
		bands += float64(i1-i0) * band(P)
	}
	return rows, bands
}

// bandZ and bandC make the band of counts a row keeps, bandZ standard
// deviations plus bandC (its mass below 10⁻³⁰ is cut off: about 11.4
// standard deviations on each side of a normal law, and a few counts more
// for a skewed law of small mean).
const bandZ, bandC = 23.0, 20.0

// maxRowBytes bounds the memory of the rows the chain keeps without a
// budget (1 GB: about N 70,000, where with pushes the chain would run for
// hours).
const maxRowBytes = 1e9

func rounds2(cfg Config) int { return rounds(cfg.Budget, cfg.Fanout) }

// expectedRounds is a rough count of the rounds the chain runs: the
// mean-field growth to M plus the tail to exactTail.
func expectedRounds(cfg Config) float64 {
	g, pull := growthRates(cfg)
	// The last node is missed with probability at most about exp(−g) a
	// round once the others are informed; with a budget, once the pushes
	// are spent only the pulls remain.
	tail := g
	if cfg.Budget > 0 && cfg.Protocol.pulls() {
		tail = pull
	}
	return math.Log(float64(cfg.Live()))/math.Log1p(g) + 32*math.Ln10/math.Max(tail, 1e-300) + 10
}

// growthRates are the per-round growth rate g of the count while it is
// small, and its pulls' part (0 without pulls).
func growthRates(cfg Config) (g, pull float64) {
	M, N1, k := float64(cfg.Live()), float64(cfg.Nodes-1), float64(cfg.Fanout)
	eps := cfg.Loss
	if cfg.Protocol.pushes() {
		g += k * (1 - eps) * M / N1
	}
	if cfg.Protocol.pulls() {
		pull = k * (1 - eps) * (1 - eps) * M / N1
		g += pull
	}
	return g, pull
}

// growthRounds is the part of expectedRounds in which the count grows to
// M.
func growthRounds(cfg Config) float64 {
	g, _ := growthRates(cfg)
	return math.Log(float64(cfg.Live()))/math.Log1p(g) + 10
}

// ExactLaw is the law of T_L from the count chain described above (exact
// up to Accuracy.Bound, in total variation). It returns an error wrapping
// ErrNotCovered where the chain would not finish in reasonable time
// (ExactCost beyond 10¹³, or 10¹¹ with a budget; ExactCost overestimates
// the budgeted chain, whose reachable states are far fewer than the
// compositions it counts) or, without a budget, where the rows it keeps
// would hold more than 1 GB (maxRowBytes). Without a budget the rows are computed on
// GOMAXPROCS goroutines; the law does not depend on their number.
func ExactLaw(ctx context.Context, cfg Config) (*Law, error) {
	return exactLaw(ctx, cfg, nil, 0)
}

// exactReach is ExactCost of the valid cfg, and an error wrapping
// ErrNotCovered where ExactLaw does not run its chain: ExactCost beyond 10¹³ (hours), or
// 10¹¹ with a budget (its map of states is slower per unit), or without a
// budget rows that would hold more than maxRowBytes.
func exactReach(cfg Config) (cost float64, err error) {
	limit := 1e13
	if cfg.Budget > 0 {
		limit = 1e11
	}
	cost, bands := exactCost(cfg)
	if cost > limit {
		return cost, fmt.Errorf("broadcast: exact law: cost %.3g beyond %.0e (N = %d, budget %d): %w", cost, limit, cfg.Nodes, cfg.Budget, ErrNotCovered)
	}
	// Without a budget the chain keeps every row it has computed (each is
	// used in every round): their bands, 8 bytes a count.
	if 8*bands > maxRowBytes {
		return cost, fmt.Errorf("broadcast: exact law: its rows would hold about %.1f GB, beyond %.0f GB (N = %d): %w", 8*bands/1e9, maxRowBytes/1e9, cfg.Nodes, ErrNotCovered)
	}
	return cost, nil
}

// exactLaw is ExactLaw reporting progress (Settings.Progress) in
// thousandths of ExactCost's estimate as rows and rounds are done, its
// rows on workers goroutines (0: GOMAXPROCS).
func exactLaw(ctx context.Context, cfg Config, progress gossip.Progress, workers int) (*Law, error) {
	if ctx == nil {
		return nil, errors.New("broadcast: nil context")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := roundsOnly(cfg, "exact law"); err != nil {
		return nil, err
	}
	cost, err := exactReach(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Target() <= 1 && cfg.Budget == 0 && !cfg.Protocol.pulls() && deadlineRounds(cfg) == 0 {
		law := (&Law{PMF: []float64{1}, Accuracy: NoAccuracy()}).noDeadline()
		law.Accuracy.Bound = 0
		law.Accuracy.Note = "exact: the source alone meets the level (T_L = 0)"
		return law, nil
	}
	ch := newExactChain(cfg)
	ch.Progress, ch.Cost = progress, cost
	ch.Workers = workers
	if workers <= 0 {
		ch.Workers = runtime.GOMAXPROCS(0)
	}
	run := ch.Law
	if cfg.Budget > 0 {
		run = ch.BudgetLaw
	}
	res, err := run(ctx)
	if err != nil {
		return nil, err
	}
	law := (&Law{PMF: res.PMF, Never: res.Never, Residue: res.Residue, PMiss: res.PMiss, Messages: res.Messages, Accuracy: NoAccuracy()}).noDeadline()
	law.Accuracy.Bound = res.Bound
	law.setExact(deadlineRounds(cfg), res)
	if cfg.Budget > 0 {
		law.Accuracy.Note = fmt.Sprintf("exact chain on the informed counts by transmits left (small N only); truncation (%.1e) and rounding: every probability within %.1e", res.Lost+res.Remaining, law.Accuracy.Bound)
	} else {
		law.Accuracy.Note = fmt.Sprintf("exact count chain; truncation (%.1e) and rounding: every probability within %.1e", res.Lost+res.Remaining, law.Accuracy.Bound)
	}
	law.Accuracy.Note += fmt.Sprintf("; each chance of a miss (P(T_L > t), residue) within its relative rounding (at most %.1g) plus the mass dropped by then (at most %.1e)", res.RelEnd, res.Lost)
	if progress != nil {
		progress(1000, 1000)
	}
	return law, nil
}

// newExactChain is the exact count chain of cfg.
func newExactChain(cfg Config) *countchain.Chain {
	return countchain.New(countchain.Params{M: cfg.Live(), N1: cfg.Nodes - 1, K: cfg.Fanout, Budget: cfg.Budget, R: rounds(cfg.Budget, cfg.Fanout),
		Target: cfg.Target(), D: deadlineRounds(cfg), Eps: cfg.Loss, Push: cfg.Protocol.pushes(), Pull: cfg.Protocol.pulls()})
}

// setExact states the chain's answers on misses. Each is a sum of
// nonnegative terms, so rounding moves it by a relative ρ and what the
// chain dropped can only add to it (countchain.Result): Residue and PMiss
// are within ρ + (Lost + Remaining)/v, ResidueDeadline (D ≥ 1, where the
// chain followed it) within ρ + LostD/v, and P(T_L > t) at every round
// of the chain (curveLate, which Answer's CDF and PLate read) within ρ
// + LostBy[t]/v. The absolute Bound would say nothing of a deep chance:
// push–pull at N 300, k 2, ε 0.1, D 10 has ResidueDeadline 6.4449e-13
// where Bound is 2.2e-12. A Residue or PMiss of 0 is exact (relative
// error 0): only a protocol that informs every live node in the end gives
// it, and what the chain cut off was still running, not stopped. Another
// 0 is exact where nothing was dropped and otherwise the truncation's,
// below what was dropped (relative error +Inf; for ResidueDeadline that
// upper end is kept, residueDHi).
func (l *Law) setExact(D int, res *countchain.Result) {
	rel := func(v, rho, dropped float64) float64 {
		if v == 0 {
			if dropped == 0 {
				return 0
			}
			return math.Inf(1)
		}
		return rho + dropped/v
	}
	end := res.Lost + res.Remaining
	l.ResidueRelErr, l.PMissRelErr = rel(l.Residue, res.RelEnd, 0), rel(l.PMiss, res.RelEnd, 0)
	if l.Residue > 0 {
		l.ResidueRelErr = rel(l.Residue, res.RelEnd, end)
	}
	if l.PMiss > 0 {
		l.PMissRelErr = rel(l.PMiss, res.RelEnd, end)
	}
	l.curveLate, l.curveExact = make([]interval, len(res.Late)), true
	for t, v := range res.Late {
		l.curveLate[t] = interval{v, v * (1 - res.RelBy[t]), math.Min(v*(1+res.RelBy[t])+res.LostBy[t], 1)}
	}
	if D >= 1 && !math.IsNaN(res.ResidueD) {
		l.ResidueDeadline, l.ResidueDeadlineRelErr = res.ResidueD, rel(res.ResidueD, res.RelD, res.LostD)
		if res.ResidueD == 0 {
			l.residueDHi = res.LostD
		}
	}
}
