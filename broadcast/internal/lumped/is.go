package lumped

import (
	"context"
	"math"
	"runtime"
	"slices"

	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// Importance sampling of the large-N law's start.
//
// Deep in a deadline's tail the chance that a node is still uninformed
// at D is carried by the runs whose start was slow: at N = 10⁷, push–pull,
// k 2, ε 0.3, φ 0.2, B 20, D 20, the informed count after round 6 explains
// 334 of a run value's relative variance of 337 (measured over 40,000
// runs), and at N = 10⁴, k 1, B 15, D 13 it is 1,520 of 1,680 after round
// 5 with the slowest starts never drawn. While the informed count i is
// small, every node informed pushes k (no sender is in its last round
// before round R), so a round's new count depends on i alone: its law
// P(d | i) (the pulled count's binomial, then pushLaw's) is computed, not
// only drawn. The tilted runs draw the first r₀ rounds' counts from
//
//	q(d | i) = (1 − λ)·P(d | i)·V_{t+1}(i + d)/Z + λ·P(d | i),
//
// where V_t(x) = x^{b_t} is a fit of the mean value of the runs by their
// count x after round t (from plain pilot runs), and carry the likelihood
// ratio Π P/q, so that the weighted value is unbiased for any fit (the
// defensive share λ bounds each factor by 1/λ). With V exact the weighted
// value's variance would be that within a count, the part the start does
// not explain. The rest of a run is drawn as in run, from the path's
// cohorts. P(d | i) keeps the binomials' terms above 10⁻²⁵ of their modes
// (pmf.BinWindow; the mass it drops is a bias far below the stated errors).

const (
	// isMaxCount bounds the informed count up to which the start is
	// tilted (the cost of P(d | i) grows like its spread squared).
	isMaxCount = 1000
	// isLambda is the defensive share λ of the model's own law.
	isLambda = 0.1
	// isPilot is the plain runs that fit V, and the tilted runs that
	// measure the gain before more are run.
	isPilot = 4000
	// isSeed is the tilted runs' seed, apart from the plain runs'.
	isSeed = lumpedSeed ^ 0x697320
	// startTiltSeed is the start-tilted runs' seed (startTilted).
	startTiltSeed = lumpedSeed ^ 0x7374696c74
)

// IS is the tilted start: rounds r₀ and the fit ln V_t(x) = b[t−1]·ln x.
type IS struct {
	rounds int
	b      []float64
}

// transPMF is P(d | i) for d = lo, lo + 1, ….
type transPMF struct {
	lo int
	p  []float64
}

// isScratch is one worker's cache of P(d | i) and buffers.
type isScratch struct {
	trans map[int]transPMF
	prop  map[[2]int]propCache
}

// transition is P(d | i): U = M − i uninformed, every informed node a
// sender of k (before round R), the pulls Binomial(U, 1 − h(i)) and then
// pushLaw's count, as run's draw.
func (m *Model) Transition(i int) transPMF {
	U := float64(m.M - i)
	hh := 1.0
	if m.pulls {
		hh = pmf.PullMiss(nil, i, m.k, m.n1, m.eps)
	}
	lo, dp := 0, []float64{1}
	if hh < 1 && U > 0 {
		lo, dp = pmf.BinWindow(nil, U, 1-hh)
	}
	// The count d = Dp + pushes, Dp ≥ lo: the terms by d − lo.
	var acc []float64
	add := func(d int, v float64) {
		for len(acc) <= d-lo {
			acc = append(acc, 0)
		}
		acc[d-lo] += v
	}
	var dq []float64
	for x, px := range dp {
		Dp := lo + x
		n, p, c := m.pushLaw(U-float64(Dp), float64(i), 0)
		if n < 1 {
			add(Dp+int(c), px)
			continue
		}
		var l2 int
		l2, dq = pmf.BinWindow(dq, n, p)
		for y, py := range dq {
			add(Dp+int(c)+l2+y, px*py)
		}
	}
	j := 0
	for j < len(acc)-1 && acc[j] == 0 {
		j++
	}
	return transPMF{lo: lo + j, p: acc[j:]}
}

// isDraw draws round t + 1's new count from q(· | i) (t from 0) and
// returns it with the log of P/q. q depends on t and i alone, so its
// cumulative sums and log ratios are cached by both.
func (m *Model) isDraw(r *rng.Rand, t int, i float64, sc *isScratch) (d, llr float64) {
	ii := int(i)
	key := [2]int{t, ii}
	pr, ok := sc.prop[key]
	if !ok {
		pr = m.proposal(t, ii, sc)
		sc.prop[key] = pr
	}
	f := r.Float64() * pr.cum[len(pr.cum)-1]
	j, _ := slices.BinarySearch(pr.cum, f)
	for j < len(pr.cum)-1 && pr.cum[j] <= f {
		j++
	}
	return float64(pr.lo + j), pr.llr[j]
}

// proposal is q(· | i) for round t + 1: its cumulative sums and ln(P/q).
func (m *Model) proposal(t, i int, sc *isScratch) propCache {
	tp, ok := sc.trans[i]
	if !ok {
		tp = m.Transition(i)
		sc.trans[i] = tp
	}
	b := m.IS.b[t]
	n := len(tp.p)
	q := make([]float64, n)
	top := math.Inf(-1)
	for j, pj := range tp.p {
		q[j] = math.Inf(-1)
		if pj > 0 {
			q[j] = math.Log(pj) + b*math.Log(float64(i+tp.lo+j))
		}
		top = math.Max(top, q[j])
	}
	z := 0.0
	for j := range q {
		q[j] = math.Exp(q[j] - top)
		z += q[j]
	}
	pr := propCache{lo: tp.lo, cum: make([]float64, n), llr: make([]float64, n)}
	sum := 0.0
	for j, pj := range tp.p {
		q[j] = (1-isLambda)*q[j]/z + isLambda*pj
		sum += q[j]
		pr.cum[j] = sum
	}
	for j, pj := range tp.p {
		pr.llr[j] = math.Log(pj * sum / q[j])
	}
	return pr
}

// propCache is a cached proposal: counts lo, lo + 1, …, the cumulative
// sums of q and ln(P/q) of each.
type propCache struct {
	lo       int
	cum, llr []float64
}

// IsRuns runs count runs of the model m (plain, or tilted where m.IS is
// set) from stream indices first on of seed, and returns each run's path
// (its informed count after rounds 1…len) and its weighted values lr·late
// and lr·resD.
func (m *Model) IsRuns(ctx context.Context, seed uint64, first, count, pathLen int) (paths [][]float64, late, resD []float64, err error) {
	paths, late, resD = make([][]float64, count), make([]float64, count), make([]float64, count)
	err = parallel.For(ctx, count, runtime.GOMAXPROCS(0), func() func(context.Context, int) error {
		coh := make([]float64, m.R)
		hbuf := make([]float64, 0, m.k+1)
		out := runOut{sc: &isScratch{trans: map[int]transPMF{}, prop: map[[2]int]propCache{}}}
		return func(ctx context.Context, j int) error {
			out.path = make([]float64, pathLen)
			m.run(rng.NewStream(seed, uint64(first+j)), coh, hbuf, &out)
			paths[j], late[j], resD[j] = out.path, out.lr*out.late, out.lr*out.resD
			return nil
		}
	}, nil)
	return paths, late, resD, err
}

// FitIS fits the tilted start from plain runs' paths and values: r₀, the
// largest round ≤ maxRounds by which 99 % of the runs have at most
// isMaxCount informed, and for each t ≤ r₀ the slope b_t of ln(mean
// value) against ln(count), least squares over the counts seen, weighted
// by their runs. The value is resD/mean + late/mean (each that is
// positive), so that both chances count. Nil where no round qualifies.
func FitIS(paths [][]float64, late, resD []float64, maxRounds int) *IS {
	n := len(paths)
	if n == 0 || maxRounds < 1 {
		return nil
	}
	mean := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s / float64(len(x))
	}
	ml, mr := mean(late), mean(resD)
	val := make([]float64, n)
	for j := range val {
		if ml > 0 {
			val[j] += late[j] / ml
		}
		if mr > 0 {
			val[j] += resD[j] / mr
		}
	}
	r0 := 0
	for t := 1; t <= maxRounds; t++ {
		c := make([]float64, n)
		for j := range c {
			c[j] = paths[j][t-1]
		}
		slices.Sort(c)
		if c[int(0.99*float64(n-1))] > isMaxCount {
			break
		}
		r0 = t
	}
	if r0 == 0 {
		return nil
	}
	is := &IS{rounds: r0, b: make([]float64, r0)}
	for t := 1; t <= r0; t++ {
		sum, cnt := map[float64]float64{}, map[float64]float64{}
		for j := range paths {
			x := paths[j][t-1]
			sum[x] += val[j]
			cnt[x]++
		}
		var sw, sx, sy, sxx, sxy float64
		for x, c := range cnt {
			if sum[x] <= 0 || x <= 0 {
				continue
			}
			lx, ly := math.Log(x), math.Log(sum[x]/c)
			sw += c
			sx += c * lx
			sy += c * ly
			sxx += c * lx * lx
			sxy += c * lx * ly
		}
		if den := sw*sxx - sx*sx; sw > 0 && den > 1e-12*sw*sw {
			is.b[t-1] = math.Min((sw*sxy-sx*sy)/den, 0)
		}
	}
	return is
}

// tilted returns the tilted runs' sums of the deadline's chances where
// they beat the plain runs' relative variance by a factor 2 (nil
// otherwise): a pilot of isPilot plain runs fits the start, isPilot tilted
// runs measure the gain, and then the tilted runs grow ×4 from
// lumpedRuns until within lumpedRunsRelErr (or less: nextRuns). Where the
// budget is spent in one round (R = 1) no round precedes a sender's last,
// and the runs are startTilted's.
func (m *Model) tilted(ctx context.Context, plain float64) (*TiltSums, error) {
	if m.R == 1 {
		// No round before a sender's last: the start's own tilt.
		return m.startTilted(ctx, plain)
	}
	maxRounds := min(m.R-1, m.D-1, 64)
	if maxRounds < 1 {
		return nil, nil
	}
	paths, late, resD, err := m.IsRuns(ctx, isSeed^m.Seed, 0, isPilot, maxRounds)
	if err != nil {
		return nil, err
	}
	is := FitIS(paths, late, resD, maxRounds)
	if is == nil {
		return nil, nil
	}
	mm := *m
	mm.IS = is
	first := isPilot
	var ts TiltSums
	kept, err := m.tiltLadder(plain, &ts, func(count int) error {
		_, l, r, err := mm.IsRuns(ctx, isSeed^m.Seed, first, count, 0)
		first += count
		for j := range l {
			ts.add(l[j], r[j])
		}
		return err
	})
	if err != nil || !kept {
		return nil, err
	}
	ts.Rounds = is.rounds
	return &ts, nil
}

// valueSums are runs' (weighted) values of the deadline's chances: their
// count N and the sums of late and resD and of their squares.
type valueSums struct {
	N          float64
	Late, ResD [2]float64
}

// add adds a run's values of late and resD.
func (s *valueSums) add(late, resD float64) {
	s.Late[0] += late
	s.Late[1] += late * late
	s.ResD[0] += resD
	s.ResD[1] += resD * resD
	s.N++
}

// merge adds the runs of o.
func (s *valueSums) merge(o valueSums) {
	s.N += o.N
	for i := range 2 {
		s.Late[i] += o.Late[i]
		s.ResD[i] += o.ResD[i]
	}
}

// TiltSums are the sums of tilted runs' weighted values w·v and (w·v)²
// of the deadline's chances (late, resD), and the rounds they tilt.
type TiltSums struct {
	valueSums
	Rounds int
}

// Deadline is the runs' estimates of the deadline's chances: the means
// of their (weighted) values and the standard errors.
func (s *valueSums) Deadline() (late, resD Est) {
	est := func(sum [2]float64) Est {
		v, se := MeanSE(sum, s.N)
		return Est{V: v, SE: se}
	}
	return est(s.Late), est(s.ResD)
}

// relVarOf is the largest relative variance of a run (estRelVar) among
// the chances es that are positive, +Inf where none is: a chance no run
// saw does not decide between two sets of runs. With P(T_L > D) at the
// level 0.99 unseen (0) by the plain runs, push–pull at N 12,000, k 3, B 3,
// D 7 compared +Inf with +Inf and kept the plain runs' 8.9 % for a node
// uninformed at D.
func relVarOf(n float64, es ...Est) float64 {
	v, seen := 0.0, false
	for _, e := range es {
		if e.V > 0 {
			v, seen = math.Max(v, estRelVar(e, n)), true
		}
	}
	if !seen {
		return math.Inf(1)
	}
	return v
}

// estRelVar is the relative variance of one of n runs' value, n·(se/v)²,
// from their estimate e (+Inf where it is 0 or has a hole).
func estRelVar(e Est, n float64) float64 {
	if !(e.V > 0) || e.Hole > 0 {
		return math.Inf(1)
	}
	return n * (e.SE / e.V) * (e.SE / e.V)
}

// startTilted returns the sums of runs from the source whose first
// tiltRounds rounds are drawn toward small counts (tiltedDraw, each run's
// values weighted by its 1/g and its stall's weight), where a pilot of
// isPilot of them shows a relative variance at least 2 times smaller than
// the plain runs' (plain); nil otherwise. Then they grow ×4 from
// lumpedRuns until within lumpedRunsRelErr (or less: nextRuns), as the
// fitted tilt's do. tilted runs them where the budget is spent in one round
// of pushes (R = 1): the fitted tilt then has no round (its rounds end
// before a sender's last) and DeadlineLaw no chain (its cut, R − 1, is
// 0). There the first rounds' pulls, about Poisson(k·i) a round while few
// are informed, decide a deadline's value: push–pull at N 12,000, k 3, B
// 3, D 7 (P(T_L > D) about 1.0·10⁻³, a node uninformed at D about
// 9.2·10⁻⁸) had a relative variance of 106 and 154 a plain run, and 320,000
// plain runs stated the two within 6.2 % and 8.9 %; tilted, 15 and 17.
func (m *Model) startTilted(ctx context.Context, plain float64) (*TiltSums, error) {
	var ts TiltSums
	kept, err := m.tiltLadder(plain, &ts, func(count int) error {
		s, err := m.startTiltRuns(ctx, int(ts.N), count)
		ts.merge(s)
		return err
	})
	if err != nil || !kept {
		return nil, err
	}
	ts.Rounds = tiltRounds
	return &ts, nil
}

// startTiltRuns runs the start-tilted runs first … first + count − 1
// (stream j of startTiltSeed) in blocks of 256, each summed on its own
// and the blocks in their order, so that the sums do not depend on the
// workers.
func (m *Model) startTiltRuns(ctx context.Context, first, count int) (valueSums, error) {
	const block = 256
	blocks := (count + block - 1) / block
	part := make([]valueSums, blocks)
	err := parallel.For(ctx, blocks, runtime.GOMAXPROCS(0), func() func(context.Context, int) error {
		coh := make([]float64, m.R)
		hbuf := make([]float64, 0, m.k+1)
		var out runOut
		return func(ctx context.Context, b int) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			for j := b * block; j < min((b+1)*block, count); j++ {
				out.tiltStart = true
				m.run(rng.NewStream(startTiltSeed^m.Seed, uint64(first+j)), coh, hbuf, &out)
				w := out.qw * out.lr
				part[b].add(w*out.late, w*out.resD)
			}
			return nil
		}
	}, nil)
	var ts valueSums
	for _, s := range part {
		ts.merge(s)
	}
	return ts, err
}

// tiltLadder runs a pilot of isPilot tilted runs through add (which adds
// count runs to ts) and keeps them where their relative variance is at
// least 2 times smaller than the plain runs' (plain); it then grows them
// ×4 from lumpedRuns until within lumpedRunsRelErr (or less: nextRuns),
// and reports whether they are kept.
func (m *Model) tiltLadder(plain float64, ts *TiltSums, add func(count int) error) (bool, error) {
	if err := add(isPilot); err != nil {
		return false, err
	}
	if late, resD := ts.Deadline(); !(2*relVarOf(ts.N, late, resD) < plain) {
		return false, nil
	}
	for n := m.Runs; ; {
		if err := add(n - int(ts.N)); err != nil {
			return false, err
		}
		late, resD := ts.Deadline()
		next := m.nextRuns(n, int(ts.N), m.runsRel(lumpedRunsRelErr, late, resD), late, resD)
		if next <= n {
			return true, nil
		}
		n = next
	}
}
