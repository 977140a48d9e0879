package lumped

import (
	"context"
	"errors"
	"math"
	"runtime"

	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// The deadline's chances of a miss of a broadcast whose budget does not
// bind by D (DeadlineLaw): the start computed, the rest drawn by stratum.
//
// Deep in a deadline's tail the chance that a node is still uninformed at
// D is carried by the runs whose start was slow, and a run's value there
// moves by orders of magnitude with a shift of its start by one round
// (pull at N = 10⁵, k 3, ε 0.1, φ 0.02, D 14: 320,000 runs stated the
// chance within 9 %, stall strata and all). Where no node has spent its
// budget by D (R ≥ D + 1), every informed node is a sender until then, so
// while fewer than c nodes are informed the count is a Markov chain on i
// alone, with the transition P(d | i) of the runs' own draws (Transition).
// That chain gives exactly the law of (τ, i_τ), the round τ at whose end
// the count first reaches c and the count then, and the chance of every
// count below c still at D. So the deadline's chances are
//
//	Σ_τ P(τ)·E[value | τ] + (the entries at D and the counts below c at D, exact),
//
// and E[value | τ] is the mean of runs started at the end of round τ
// from i_τ drawn from its law given τ: stratified sampling with the strata's
// chances known. Within a stratum the value moves most with i_τ itself (a
// lower entry count is a later start): at N 18,000, k 2, ε 0.1, D 12 the
// runs from one i_τ (the median) had a relative variance of 0.8 a run,
// those with i_τ drawn 25. So each stratum is cut again into entryBins
// cells of i_τ's quantiles, each of chance P(τ)/entryBins, a run of cell b
// drawing i_τ by inversion of (b + U)/entryBins: E[value | τ] is the mean
// of its cells' means, and what is left of a run's variance is the
// middle's noise after c (a share about 1/√c of the count) and i_τ's
// spread within its cell. The first runs go to the strata half in
// proportion to P(τ) and half evenly among the strata of chance at least
// entryFloor, at least 2 a cell; the later ones mostly by Neyman's
// allocation (DeadlineLaw). The standard error is
// √(Σ_cells (P(τ)/entryBins)²·s²/n). At that setting 84,840 runs state
// both chances within 0.75 % (3 standard errors), where 320,000 runs
// with i_τ drawn stated 2.7 %. The source's stall and every slow start
// are inside the chain: nothing is forced or weighted.

const (
	// EntryCut is the count c at which the chain hands over to the runs
	// (at most M/20, and at most the target count): the middle's noise
	// after it is about 1/√c of the count, and P(d | i) costs up to its
	// spread squared for each i below it.
	EntryCut = 200
	// entryFloor is the chance below which a stratum gets no even share.
	entryFloor = 1e-40
	// entryRelErr is the runs' share (z standard errors, relative) of
	// DeadlineLaw's chances below which it adds no runs: a fifth of the 5 %
	// an answer aims at, leaving the rest to the closure (the law's
	// runs, cut into cells, get there in a few hundred thousand at most:
	// 84,840 at N 18,000, k 2, ε 0.1, D 12).
	entryRelErr = 0.01
	// entryBins is the number of quantile bins of i_τ in a stratum (the
	// comment above).
	entryBins = 32
)

// EntryCount is the count c at which DeadlineLaw's chain hands over to
// its runs: min(EntryCut, M/20, the target count).
func (m *Model) EntryCount() int { return min(EntryCut, m.M/20, m.target) }

// entryLaw is the law of the entry into the counts ≥ c: p[τ] = P(τ), and
// for each τ the counts lo[τ], lo[τ] + 1, … with their cumulative chances
// cum[τ] (summing to p[τ]); and the exact part of the deadline's chances:
// the entries at D and the counts below c at D.
type entryLaw struct {
	c              int
	p              []float64
	lo             []int
	cum            [][]float64
	exLate, exResD float64
	below          float64 // the chance of a count below c at D
}

// entry computes the entry law of the chain on the counts below c, up to
// round D.
func (m *Model) entry(ctx context.Context, c int) (*entryLaw, error) {
	e := &entryLaw{c: c, p: make([]float64, m.D+1), lo: make([]int, m.D+1), cum: make([][]float64, m.D+1)}
	fM := float64(m.M)
	v := make([]float64, c)
	w := make([]float64, c)
	v[1] = 1
	trans := make([]transPMF, c)
	ents := make([][]float64, m.D+1)
	for t := 0; t < m.D; t++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(w)
		var ent []float64
		elo := math.MaxInt
		for i := 1; i < c; i++ {
			if v[i] == 0 {
				continue
			}
			if trans[i].p == nil {
				trans[i] = m.Transition(i)
			}
			tp := trans[i]
			for x, px := range tp.p {
				j := i + tp.lo + x
				if j < c {
					w[j] += v[i] * px
					continue
				}
				if elo == math.MaxInt {
					elo = j
				}
				if j < elo {
					ent = append(make([]float64, elo-j), ent...)
					elo = j
				}
				ent = grow(ent, j-elo+1)
				ent[j-elo] += v[i] * px
			}
		}
		v, w = w, v
		if ent != nil {
			e.lo[t+1], ents[t+1] = elo, ent
		}
	}
	for tau := 1; tau <= m.D; tau++ {
		ent := ents[tau]
		s := 0.0
		cum := make([]float64, len(ent))
		for x, px := range ent {
			s += px
			cum[x] = s
		}
		e.p[tau], e.cum[tau] = s, cum
		if tau == m.D {
			// Entered at D: the run ends there.
			for x, px := range ent {
				j := float64(e.lo[tau] + x)
				e.exResD += px * (fM - j) / fM
				if j < float64(m.target) {
					e.exLate += px
				}
			}
		}
	}
	// Below c at D.
	for i := 1; i < c; i++ {
		e.below += v[i]
		e.exResD += v[i] * (fM - float64(i)) / fM
		if i < m.target {
			e.exLate += v[i]
		}
	}
	return e, nil
}

// draw is i_τ drawn from its law given τ, by inversion of the uniform f.
func (e *entryLaw) draw(tau int, f float64) float64 {
	cum := e.cum[tau]
	g := f * cum[len(cum)-1]
	lo, hi := 0, len(cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if cum[mid] > g {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return float64(e.lo[tau] + lo)
}

// stratumSums are one bin's runs: their count and the sums of late
// and resD and of their squares.
type stratumSums struct {
	n          float64
	late, resD [2]float64
}

// DeadlineLaw is the deadline's chances of a miss, P(T_L > D) (late) and
// the chance that a given live node is uninformed at D (resD), from the
// entry law and runs from it (the comment above), with the runs it took.
// The model's budget must not bind by D (R ≥ D + 1) and D ≥ 1.
func (m *Model) DeadlineLaw(ctx context.Context) (late, resD Est, runs int, err error) {
	if m.D < 1 || m.R < m.D+1 || m.IS != nil {
		return Est{}, Est{}, 0, errors.New("lumped: DeadlineLaw needs D ≥ 1, R ≥ D + 1 and no tilt")
	}
	c := m.EntryCount()
	if c < 2 {
		return Est{}, Est{}, 0, errors.New("lumped: DeadlineLaw needs at least 40 live nodes and a target of 2")
	}
	// The runs start at a count of c ≥ 2, past the source's stall: its
	// strata and weights (stall.go) play no part.
	e, err := m.entry(ctx, c)
	if err != nil {
		return Est{}, Est{}, 0, err
	}
	// The strata that need runs: entered before D; each cut into its
	// entryBins cells.
	var cells []cell
	even := 0
	for tau := 1; tau < m.D; tau++ {
		if e.p[tau] > 0 {
			for b := range entryBins {
				cells = append(cells, cell{tau: tau, bin: b, p: e.p[tau] / entryBins})
			}
			if e.p[tau] >= entryFloor {
				even++
			}
		}
	}
	// The first runs go half in proportion to P(τ) and half evenly among
	// the strata of chance at least entryFloor, at least 2 a cell; the
	// later ones, ×4 at a time, nine tenths in proportion to each cell's
	// share of the standard errors (Neyman's allocation, p·s of late and of
	// resD relative to their values, from the runs so far) and a tenth as
	// the first.
	first := func(n int, c cell) float64 {
		x := 0.5 * float64(n) * c.p
		if e.p[c.tau] >= entryFloor {
			x += 0.5 * float64(n) / float64(even*entryBins)
		}
		return x
	}
	sums := make([]stratumSums, len(cells))
	estimate := func() (Est, Est) {
		l, r := Est{V: e.exLate}, Est{V: e.exResD}
		var vl, vr float64
		for k, c := range cells {
			ml, sl := MeanSE(sums[k].late, sums[k].n)
			mr, sr := MeanSE(sums[k].resD, sums[k].n)
			l.V += c.p * ml
			r.V += c.p * mr
			vl += c.p * c.p * sl * sl
			vr += c.p * c.p * sr * sr
		}
		l.SE, r.SE = math.Sqrt(vl), math.Sqrt(vr)
		return l, r
	}
	done := make([]int, len(cells))
	want := make([]int, len(cells))
	for k, c := range cells {
		want[k] = max(int(math.Ceil(first(m.Runs, c))), 2)
	}
	for n := m.Runs; ; {
		if err := m.entryRuns(ctx, e, cells, done, want, sums); err != nil {
			return Est{}, Est{}, 0, err
		}
		copy(done, want)
		late, resD = estimate()
		next := m.nextRuns(n, m.runsRel(entryRelErr, late, resD), late, resD)
		if next <= n {
			break
		}
		n = next
		w := make([]float64, len(cells))
		sw := 0.0
		for k, c := range cells {
			sd := func(sum [2]float64, v float64) float64 {
				if !(v > 0) {
					return 0
				}
				_, se := MeanSE(sum, sums[k].n)
				return se * math.Sqrt(sums[k].n) / v
			}
			w[k] = c.p * (sd(sums[k].late, late.V) + sd(sums[k].resD, resD.V))
			sw += w[k]
		}
		for k, c := range cells {
			x := 0.1 * first(n, c)
			if sw > 0 {
				x += 0.9 * float64(n) * w[k] / sw
			}
			want[k] = max(int(math.Ceil(x)), done[k])
		}
	}
	for _, d := range done {
		runs += d
	}
	return late, resD, runs, nil
}

// cell is a bin of i_τ's quantiles in the stratum τ, of chance p.
type cell struct {
	tau, bin int
	p        float64
}

// entryRuns adds to each cell k the runs done[k] … want[k]−1, run j of
// the cell (τ, b) from stream τ·2⁴⁰ + b·2³² + j of the entry seed.
func (m *Model) entryRuns(ctx context.Context, e *entryLaw, cells []cell, done, want []int, sums []stratumSums) error {
	type job struct{ k, from, to int }
	var jobs []job
	const chunk = 256
	for k := range cells {
		for j := done[k]; j < want[k]; j += chunk {
			jobs = append(jobs, job{k, j, min(j+chunk, want[k])})
		}
	}
	part := make([]stratumSums, len(jobs))
	err := parallel.For(ctx, len(jobs), runtime.GOMAXPROCS(0), func() func(context.Context, int) error {
		coh := make([]float64, m.R)
		hbuf := make([]float64, 0, m.k+1)
		var out runOut
		return func(ctx context.Context, b int) error {
			jb := jobs[b]
			c := cells[jb.k]
			for j := jb.from; j < jb.to; j++ {
				if err := ctx.Err(); err != nil {
					return err
				}
				r := rng.NewStream(entrySeed, uint64(c.tau)<<40|uint64(c.bin)<<32|uint64(j))
				out.startT, out.startI = c.tau, e.draw(c.tau, (float64(c.bin)+r.Float64())/entryBins)
				m.run(r, coh, hbuf, &out)
				s := &part[b]
				s.n++
				s.late[0] += out.late
				s.late[1] += out.late * out.late
				s.resD[0] += out.resD
				s.resD[1] += out.resD * out.resD
			}
			return nil
		}
	}, nil)
	if err != nil {
		return err
	}
	// Summed in the jobs' order, so the result does not depend on the
	// workers.
	for b, jb := range jobs {
		s := &sums[jb.k]
		s.n += part[b].n
		for i := range 2 {
			s.late[i] += part[b].late[i]
			s.resD[i] += part[b].resD[i]
		}
	}
	return nil
}

// entrySeed is the seed of the runs from the entry law.
const entrySeed = lumpedSeed ^ 0x656e747279
