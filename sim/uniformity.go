package sim

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"unsafe"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/rng"
	"github.com/gossipkit/gossipkit/internal/stats"
)

// UniformityConfig is a study of the replica counts of the items at steady
// state: Reps replications of the protocol from the usual start (the
// initial placement of the package doc), Warmup rounds of mixing, then
// Snapshots snapshots Spacing rounds apart, at each of which every item's
// replica count (the number of caches holding it) is recorded. No item d
// is inserted. The fields shared with Config mean what they mean there.
type UniformityConfig struct {
	Nodes   int            // N, 2 ≤ N ≤ 2^26
	Shuffle gossip.Shuffle // n, c, s (Items ≤ MaxItems)
	// Descriptors makes the items the N node descriptors: Items must be 0
	// (then it is set to Nodes) or Nodes, and item i's replica count is
	// node i's in-degree (a node may hold its own descriptor: the protocol
	// of the package doc does not tell items apart).
	Descriptors bool
	// Warmup is the number of rounds before the first snapshot,
	// 0..10^7. It must let the counts forget the initial placement, in
	// which every count is ⌊cN/n⌋ or ⌈cN/n⌉ (variance ratio ≈ 0); that
	// takes longer as s nears c (N = n = 1000, c = 20, s = 19: ratio 0.75
	// after 300 rounds, 1.00 after 3000), and at s = c never happens: the
	// two caches of a shuffle swap, so no count ever changes. Lag1Corr
	// near 1 is the sign of slow mixing.
	Warmup    int
	Snapshots int // snapshots per replication, 1..10^4
	Spacing   int // rounds between snapshots, 1..10^7
	Reps      int // R, 1..10^6
	Seed      uint64
	Schedule  Schedule
	Ticks     int // Async only, as Config.Ticks
	Topology  Topology
	Loss      float64 // ε in [0, 1), as Config.Loss
}

// UniformitySettings control how Uniformity runs; they never change its
// result. The zero value runs DefaultWorkers() replications at once.
type UniformitySettings struct {
	Workers int // 0: DefaultWorkers()
	// Progress, if set, is called after each replication with the number
	// done and Reps, from one goroutine at a time.
	Progress gossip.Progress
}

// UniformityRep is what one replication measured, over its snapshots.
type UniformityRep struct {
	// VarRatio is the mean over the snapshots of the sample variance of
	// the alive items' counts over the variance of the zero-truncated
	// binomial the model implies (UniformityResult).
	VarRatio float64
	// ChiSquare and DF are the goodness-of-fit statistic summed over the
	// snapshots and its degrees of freedom; PValue = P(χ²_DF ≥ ChiSquare).
	ChiSquare float64
	DF        int
	PValue    float64
	// FirstChiSquare, FirstDF: the same at the first snapshot alone.
	FirstChiSquare float64
	FirstDF        int
	// Alive is the mean number of items alive (count ≥ 1) at the
	// snapshots; Lag1Corr the mean correlation of an item's counts at
	// consecutive snapshots (NaN with one snapshot).
	Alive, Lag1Corr float64
}

// HistBin is a pooled bin of replica counts Lo..Hi: the items observed
// with such a count and the number the truncated binomial expects, summed
// over snapshots and replications.
type HistBin struct {
	Lo, Hi   int
	Observed int64
	Expected float64
}

// UniformityResult compares the law of an item's replica count at steady
// state with the one the model implies. The pairwise chain's stationary
// law of X is Bin(N, π) conditioned on X ≥ 1, π = c/n; here n is the
// number of items alive at the snapshot (under loss items die), so π is
// taken as the π of the zero-truncated binomial whose mean is the observed
// mean count k̄ = N·c/n_alive (it solves N·π/(1 − (1−π)^N) = k̄, its
// maximum-likelihood estimate; π = c/n_alive wherever (1−π)^N is
// negligible, as at N = 2500, c/n = 0.2). The items that hold no copy are
// the dead ones (X = 0) and are left out.
//
// VarRatio is the sample variance of the alive items' counts (divisor
// n_alive − 1) over the truncated law's variance (N·π(1−π) when the
// truncation is negligible): 1 under the model. Its standard error comes
// from the replications (independent): their ratios' sd over √R.
//
// Goodness of fit: at each snapshot the alive items' counts are binned,
// bins of consecutive counts pooled from the low end until each expects
// at least 5 items (the remainder joins the last bin), and Pearson's
// statistic Σ(O−E)²/E has B − 2 degrees of freedom (B bins, less one for
// the fixed total and one for π, fitted to the mean). The test treats the
// items of one snapshot as independent draws, which is the model's claim;
// the fixed total N·c is the one dependence it accounts for. Snapshots of
// one replication are dependent through time: PValue sums the statistics
// over every snapshot of every replication, which is valid when snapshots
// are far enough apart for the counts to decorrelate (Lag1Corr, the
// correlation of an item's counts at consecutive snapshots, says whether
// they are; take Spacing larger if it is not near 0); FirstPValue uses the
// first snapshot of each replication only, independent by construction,
// and needs no such assumption. FisherP combines the replications'
// p-values by Fisher's method, −2 Σ ln p_r ~ χ²(2R).
//
// Under loss the binomial is not the model's law: the chain then has no
// stationary law (every item dies in the end), and the alive items follow
// its quasi-stationary law (chain.QuasiStationary), which is overdispersed
// (variance ratio 1.42 at N = 2500, n = 500, c = 100, s = 50, ε = 0.1;
// 3.12 at s = 90); the test rejects the binomial there, as it should, and
// VarRatio is to be set beside that law's ratio (the protocol measures
// 1.434 ± 0.014 and 3.087 ± 0.021 at those points).
type UniformityResult struct {
	Config    UniformityConfig
	Connected bool
	// Items is Shuffle.Items (N for descriptors); Alive the mean number of
	// items alive at the snapshots.
	Items int
	Alive float64
	// VarRatio ± VarRatioSE (NaN SE for one replication).
	VarRatio, VarRatioSE float64
	// Pooled goodness of fit (see the type's doc).
	ChiSquare      float64
	DF             int
	PValue         float64
	FirstChiSquare float64
	FirstDF        int
	FirstPValue    float64
	FisherP        float64
	Lag1Corr       float64
	// Histogram pools every snapshot's counts, for a figure.
	Histogram []HistBin
	Reps      []UniformityRep
}

func (c UniformityConfig) config() Config {
	return Config{Model: Protocol, Nodes: c.Nodes, Shuffle: c.Shuffle, Warmup: c.Warmup, Rounds: 1, Reps: c.Reps, Seed: c.Seed,
		Initial: 1, Schedule: c.Schedule, Ticks: c.Ticks, Topology: c.Topology, Loss: c.Loss}
}

// Validate checks the configuration; a problem is a *FieldError naming
// the UniformityConfig field.
func (c UniformityConfig) Validate() error {
	f := func(field, format string, a ...any) error { return fielderr.New("sim", field, format, a...) }
	if c.Descriptors && c.Shuffle.Items != 0 && c.Shuffle.Items != c.Nodes {
		return f("UniformityConfig.Shuffle.Items", "%d: the items are the node descriptors, so Items = Nodes = %d (or 0)", c.Shuffle.Items, c.Nodes)
	}
	if c.Descriptors {
		c.Shuffle.Items = c.Nodes
	}
	switch {
	case c.Snapshots < 1 || c.Snapshots > 1e4:
		return f("UniformityConfig.Snapshots", "%d: valid range 1..10000", c.Snapshots)
	case c.Spacing < 1 || c.Spacing > 1e7:
		return f("UniformityConfig.Spacing", "%d: valid range 1..10000000", c.Spacing)
	case c.Reps < 1 || c.Reps > 1e6:
		return f("UniformityConfig.Reps", "%d: valid range 1..1000000", c.Reps)
	}
	if err := c.config().Validate(); err != nil {
		var fe *fielderr.Error
		if errors.As(err, &fe) {
			return f("UniformityConfig"+strings.TrimPrefix(fe.Field, "Config"), "%s", fe.Msg)
		}
		return err
	}
	if rounds := float64(c.Warmup) + float64(c.Snapshots-1)*float64(c.Spacing); rounds > 1e7 {
		return f("UniformityConfig.Spacing", "%d: Warmup + (Snapshots − 1)·Spacing = %.0f rounds, more than 10^7", c.Spacing, rounds)
	}
	return nil
}

// MemoryEstimate returns the bytes a study needs with `workers`
// replications in flight, counted as Uniformity allocates them. Per
// worker, kept from one replication to the next: the caches (N·c items of
// 2 bytes when n ≤ 65535, else 4) and the schedule's arrays (as
// Config.WorkerMemory counts them: 4N for rounds, 16N and a slice header a
// tick for async); new each replication: the coverage bitsets (3·N/8), two
// stamp arrays and the initial placement's permutation (12(n+1)), the
// count arrays (8n), and each snapshot's lag correlation (16 bytes an
// alive item, at most min(n, N·c)) and
// law window (16 bytes a count, 20√N + 21 counts at most). For the study:
// a UniformityRep and the 16-byte fit of each snapshot per replication,
// the pooled histogram's window, and the topology's graph. Go's collector
// lets garbage grow to the live heap before it runs (GOGC = 100), so with
// L bytes live and G of garbage left by the replications the peak lies
// between L and L + min(L, G); the estimate is the middle,
// L + min(L, G)/2, within 1.5× of either end. Measured (peak resident
// memory, the runtime included): N = 10^6, n = 10^5, c = 50, 4
// replications, 221 MB estimated, 223 MB peak; descriptors at N = 10^7,
// c = 20, 3 replications, 1.81 GB estimated, 1.57 GB peak (2.41 GB
// estimated with the whole min(L, G)); before the caches were reused and
// the pooled histogram windowed, N = 4·10^6, n = 10, c = 1 was estimated
// at 172 MB for 29 MB (TestMemoryPeak). Validate does not look at the
// machine; a program compares this with what it has. It does not validate c:
// negative fields and workers count as 0 (workers below 1 as one).
func (c UniformityConfig) MemoryEstimate(workers int) uint64 {
	if c.Descriptors && c.Shuffle.Items == 0 {
		c.Shuffle.Items = c.Nodes
	}
	sc := c.config()
	N, n := uint64(max(c.Nodes, 0)), uint64(max(c.Shuffle.Items, 0))
	size := uint64(4)
	if narrowItems(c.Shuffle.Items) {
		size = 2
	}
	window := 16 * (20*uint64(math.Sqrt(float64(N))) + 21)
	kept := N*uint64(max(c.Shuffle.Cache, 0))*size + sc.scheduleBytes()
	perRep := 3*bitsetBytes(c.Nodes) + 12*(n+1) + 8*n
	perSnap := 16*min(n, N*uint64(max(c.Shuffle.Cache, 0))) + window // the alive items: at most N·c
	W, R, S := uint64(max(workers, 1)), uint64(max(c.Reps, 0)), uint64(max(c.Snapshots, 0))
	reps := R * (uint64(unsafe.Sizeof(UniformityRep{})) + 24 + 16*S)
	live := W*(kept+perRep+perSnap) + reps + 2*window + uint64(sc.topologyPairs()*bytesPerEdge)
	garbage := R * (perRep + S*perSnap)
	return live + min(live, garbage)/2
}

// Uniformity runs the study. Replication r draws only from stream r of
// the seed (the topology from its own), so the result does not depend on
// Workers; it stops with ctx.Err() when ctx is cancelled.
func Uniformity(ctx context.Context, cfg UniformityConfig, set UniformitySettings) (*UniformityResult, error) {
	if err := ctxguard.Check("sim", ctx); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if set.Workers < 0 {
		return nil, fielderr.New("sim", "UniformitySettings.Workers", "%d: must be ≥ 0 (0: one per CPU)", set.Workers)
	}
	if set.Workers == 0 {
		set.Workers = DefaultWorkers()
	}
	if cfg.Descriptors {
		cfg.Shuffle.Items = cfg.Nodes
	}
	sc := cfg.config()
	g, connected, err := buildGraph(sc.Topology, sc.Nodes, sc.Seed)
	if err != nil {
		return nil, fielderr.New("sim", "UniformityConfig.Topology", "%s", err.Error())
	}
	res := &UniformityResult{Config: cfg, Connected: connected, Items: cfg.Shuffle.Items, Reps: make([]UniformityRep, cfg.Reps)}
	// The pooled histogram: observed counts are integers, added in any
	// order under a lock; the expected ones are recomputed at the end, in
	// replication order, from each snapshot's fit (alive, π).
	hist := &histogram{}
	fits := make([][]snapFit, cfg.Reps)
	err = parallel.For(ctx, cfg.Reps, set.Workers, func() func(context.Context, int) error {
		// The worker's caches and schedule arrays, reused by its next
		// replication (the initial placement and the schedule overwrite
		// them), as Run reuses them: not N·c items of garbage a
		// replication.
		scr := new(scratch)
		return func(ctx context.Context, k int) error {
			r := rng.NewStream(sc.Seed, uint64(k))
			sched := scr.scheduler(sc, g, r)
			var rep UniformityRep
			var fit []snapFit
			var err error
			if narrowItems(sc.Shuffle.Items) {
				rep, fit, err = uniformityOne(ctx, cfg, r, sched, newProtocolStateIn(sc, r, scratchCaches[uint16](scr, sc)), hist)
			} else {
				rep, fit, err = uniformityOne(ctx, cfg, r, sched, newProtocolStateIn(sc, r, scratchCaches[int32](scr, sc)), hist)
			}
			if err == nil {
				res.Reps[k], fits[k] = rep, fit
			}
			return err
		}
	}, set.Progress)
	if err != nil {
		return nil, err
	}
	res.summarise(hist, fits)
	return res, nil
}

// histogram adds the items observed with each count k over every
// snapshot, for k in the window lo..lo+len(obs)−1 of the counts met so
// far (each snapshot's law window and observed counts: tens of standard
// deviations wide, not the N + 1 counts 0..N that would cost 8N bytes
// where a few kilobytes do); integer sums, so the order of the additions
// does not matter.
type histogram struct {
	mu  sync.Mutex
	lo  int
	obs []int64
}

func (h *histogram) add(lo int, obs []int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.grow(lo, lo+len(obs))
	for i, o := range obs {
		h.obs[lo-h.lo+i] += o
	}
}

// grow widens the window to hold lo..hi−1.
func (h *histogram) grow(lo, hi int) {
	if len(h.obs) == 0 {
		h.lo, h.obs = lo, make([]int64, hi-lo)
		return
	}
	nlo, nhi := min(h.lo, lo), max(h.lo+len(h.obs), hi)
	if nlo == h.lo && nhi == h.lo+len(h.obs) {
		return
	}
	obs := make([]int64, nhi-nlo)
	copy(obs[h.lo-nlo:], h.obs)
	h.lo, h.obs = nlo, obs
}

// at is the count observed at k (0 outside the window).
func (h *histogram) at(k int) int64 {
	if k < h.lo || k >= h.lo+len(h.obs) {
		return 0
	}
	return h.obs[k-h.lo]
}

// snapFit is a snapshot's fitted law: alive items and π (NaN: no law).
type snapFit struct {
	alive int
	pi    float64
}

func uniformityOne[T item](ctx context.Context, cfg UniformityConfig, r *rng.Rand, sched *scheduler, st *protocolState[T], hist *histogram) (UniformityRep, []snapFit, error) {
	rounds := func(k int) error {
		for i := range k {
			if (i%16 == 0 || cfg.Nodes > bigRound) && ctx.Err() != nil {
				return ctx.Err()
			}
			sched.round(r, st)
		}
		return nil
	}
	if err := rounds(cfg.Warmup); err != nil {
		return UniformityRep{}, nil, err
	}
	n, N := cfg.Shuffle.Items, cfg.Nodes
	fits := make([]snapFit, 0, cfg.Snapshots)
	counts, prev := make([]int32, n), make([]int32, n)
	var rep UniformityRep
	var ratios, corrs []float64
	for j := range cfg.Snapshots {
		if j > 0 {
			if err := rounds(cfg.Spacing); err != nil {
				return UniformityRep{}, nil, err
			}
		}
		clear(counts)
		for _, x := range st.cache {
			if int(x) < n { // d (= n) is never inserted here
				counts[x]++
			}
		}
		s := countStats(counts, N, hist)
		fits = append(fits, snapFit{s.alive, s.pi})
		ratios = append(ratios, s.ratio)
		rep.ChiSquare += s.chi
		rep.DF += s.df
		if j == 0 {
			rep.FirstChiSquare, rep.FirstDF = s.chi, s.df
		} else {
			corrs = append(corrs, lagCorr(prev, counts))
		}
		rep.Alive += float64(s.alive) / float64(cfg.Snapshots)
		counts, prev = prev, counts
	}
	rep.VarRatio = mean(ratios)
	rep.Lag1Corr = mean(corrs)
	rep.PValue = chiSurvival(rep.ChiSquare, rep.DF)
	return rep, fits, nil
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// chiSurvival is P(χ²_df ≥ x), NaN without degrees of freedom.
func chiSurvival(x float64, df int) float64 {
	if df <= 0 {
		return math.NaN()
	}
	return distuv.ChiSquared{K: float64(df)}.Survival(x)
}

// lagCorr is the correlation of a and b over the items alive in both
// (NaN if either has no spread).
func lagCorr(a, b []int32) float64 {
	k := 0
	for i := range a {
		if a[i] > 0 && b[i] > 0 {
			k++
		}
	}
	xs, ys := make([]float64, 0, k), make([]float64, 0, k)
	for i := range a {
		if a[i] > 0 && b[i] > 0 {
			xs, ys = append(xs, float64(a[i])), append(ys, float64(b[i]))
		}
	}
	mx, sx := stats.MeanSD(xs)
	my, sy := stats.MeanSD(ys)
	if !(sx > 0 && sy > 0) {
		return math.NaN()
	}
	c := 0.0
	for i := range xs {
		c += (xs[i] - mx) * (ys[i] - my)
	}
	return c / float64(len(xs)-1) / (sx * sy)
}

// snapshotStats is what one snapshot's counts say.
type snapshotStats struct {
	alive int
	pi    float64 // the truncated binomial's π
	ratio float64 // sample variance / truncated variance
	chi   float64
	df    int
}

// countStats measures one snapshot: counts[i] is item i's replica count
// among N nodes (0: dead, left out). It fits the zero-truncated binomial
// to the mean, returns the variance ratio and Pearson's statistic over
// pooled bins, and adds the observed counts to h (if not nil). A snapshot without spread in the law (π = 1, or every count 1) has
// ratio NaN and no bins. The law is evaluated on the counts within 20
// standard deviations (and 10) of its mean, and on every observed count:
// the mass outside is below 10^−30 (a Poisson(2) tail beyond 40 is
// 10^−36; the binomial's are thinner).
func countStats(counts []int32, N int, h *histogram) snapshotStats {
	var s snapshotStats
	var sum float64
	kmin, kmax := N, 0
	for _, k := range counts {
		if k > 0 {
			s.alive++
			sum += float64(k)
			kmin, kmax = min(kmin, int(k)), max(kmax, int(k))
		}
	}
	s.ratio, s.pi = math.NaN(), math.NaN()
	if s.alive < 2 {
		return s
	}
	kbar := sum / float64(s.alive)
	ss := 0.0
	for _, k := range counts {
		if k > 0 {
			ss += (float64(k) - kbar) * (float64(k) - kbar)
		}
	}
	v := ss / float64(s.alive-1)
	pi, ok := truncatedPi(kbar, N)
	if !ok {
		return s
	}
	s.pi = pi
	lo, hi := lawWindow(N, pi)
	lo, hi = min(lo, kmin), max(hi, kmax)
	pmf, tv := truncatedPMF(N, pi, lo, hi)
	s.ratio = v / tv
	obs := make([]int64, hi-lo+1)
	for _, k := range counts {
		if k > 0 {
			obs[int(k)-lo]++
		}
	}
	if h != nil {
		h.add(lo, obs)
	}
	// Pool from the low end until each bin expects ≥ 5 items.
	type bin struct {
		o int64
		e float64
	}
	var bins []bin
	cur := bin{}
	for i := range obs {
		e := float64(s.alive) * pmf[i]
		cur.o += obs[i]
		cur.e += e
		if cur.e >= 5 {
			bins = append(bins, cur)
			cur = bin{}
		}
	}
	if len(bins) == 0 {
		return s
	}
	bins[len(bins)-1].o += cur.o
	bins[len(bins)-1].e += cur.e
	for _, b := range bins {
		s.chi += (float64(b.o) - b.e) * (float64(b.o) - b.e) / b.e
	}
	s.df = len(bins) - 2
	if s.df <= 0 {
		s.chi, s.df = 0, 0
	}
	return s
}

// lawWindow is the counts within 20 standard deviations (and 10) of the
// mean of Bin(N, π), within 1..N, where the law is evaluated.
func lawWindow(N int, pi float64) (lo, hi int) {
	sd := math.Sqrt(float64(N) * pi * (1 - pi))
	return max(1, int(float64(N)*pi-20*sd-10)), min(N, int(float64(N)*pi+20*sd+10))
}

// truncatedPi solves N·π/(1 − (1−π)^N) = kbar for π in (0, 1) by
// bisection (the left side increases from 1 to N); false when kbar is 1 or
// N (no spread) or outside.
func truncatedPi(kbar float64, N int) (float64, bool) {
	if !(kbar > 1 && kbar < float64(N)) {
		return 0, false
	}
	m := func(p float64) float64 { return float64(N) * p / -math.Expm1(float64(N)*math.Log1p(-p)) }
	lo, hi := 0.0, 1.0
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if m(mid) < kbar {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, true
}

// truncatedPMF returns P(K = k), k = lo..hi (index k − lo), of Bin(N, π)
// conditioned on K ≥ 1 (from logarithms: N may be large), and the
// conditioned law's variance.
func truncatedPMF(N int, pi float64, lo, hi int) ([]float64, float64) {
	pmf := make([]float64, hi-lo+1)
	z := -math.Expm1(float64(N) * math.Log1p(-pi)) // P(K ≥ 1)
	lgN, _ := math.Lgamma(float64(N) + 1)
	lp, lq := math.Log(pi), math.Log1p(-pi)
	for k := lo; k <= hi; k++ {
		a, _ := math.Lgamma(float64(k) + 1)
		b, _ := math.Lgamma(float64(N-k) + 1)
		pmf[k-lo] = math.Exp(lgN-a-b+float64(k)*lp+float64(N-k)*lq) / z
	}
	Np := float64(N) * pi
	mu := Np / z
	m2 := (Np*(1-pi) + Np*Np) / z
	return pmf, m2 - mu*mu
}

// summarise combines the replications, in index order.
func (res *UniformityResult) summarise(obs *histogram, fits [][]snapFit) {
	R := len(res.Reps)
	ratios := make([]float64, 0, R)
	corrs := make([]float64, 0, R)
	fisher := 0.0
	fisherDF := 0
	for _, rep := range res.Reps {
		if !math.IsNaN(rep.VarRatio) {
			ratios = append(ratios, rep.VarRatio)
		}
		if !math.IsNaN(rep.Lag1Corr) {
			corrs = append(corrs, rep.Lag1Corr)
		}
		res.ChiSquare += rep.ChiSquare
		res.DF += rep.DF
		res.FirstChiSquare += rep.FirstChiSquare
		res.FirstDF += rep.FirstDF
		res.Alive += rep.Alive / float64(R)
		if rep.DF > 0 {
			fisher += -2 * math.Log(rep.PValue)
			fisherDF += 2
		}
	}
	res.VarRatio, res.VarRatioSE = math.NaN(), math.NaN()
	if len(ratios) > 0 {
		m, sd := stats.MeanSD(ratios)
		res.VarRatio = m
		if len(ratios) > 1 {
			res.VarRatioSE = sd / math.Sqrt(float64(len(ratios)))
		}
	}
	res.Lag1Corr = mean(corrs)
	res.PValue = chiSurvival(res.ChiSquare, res.DF)
	res.FirstPValue = chiSurvival(res.FirstChiSquare, res.FirstDF)
	res.FisherP = chiSurvival(fisher, fisherDF)
	// Pooled histogram over every snapshot: the expected counts from each
	// snapshot's fit, added in replication and snapshot order.
	// Both are 0 outside the union of the law windows and the observed
	// counts, so the bins are those of the scan of 1..N: below the union
	// nothing is added, above it nothing changes but Hi, set to N at the
	// end.
	N := res.Config.Nodes
	exp := &histogram{}
	if len(obs.obs) > 0 {
		exp.grow(obs.lo, obs.lo+len(obs.obs))
	}
	for _, fs := range fits {
		for _, f := range fs {
			if !math.IsNaN(f.pi) {
				lo, hi := lawWindow(N, f.pi)
				exp.grow(lo, hi+1)
			}
		}
	}
	sum := make([]float64, len(exp.obs))
	for _, fs := range fits {
		for _, f := range fs {
			if math.IsNaN(f.pi) {
				continue
			}
			lo, hi := lawWindow(N, f.pi)
			pmf, _ := truncatedPMF(N, f.pi, lo, hi)
			for i, p := range pmf {
				sum[lo-exp.lo+i] += float64(f.alive) * p
			}
		}
	}
	cur := HistBin{Lo: 1}
	for k := max(1, exp.lo); k < exp.lo+len(exp.obs) && k <= N; k++ {
		cur.Observed += obs.at(k)
		cur.Expected += sum[k-exp.lo]
		cur.Hi = k
		if cur.Expected >= 5 {
			res.Histogram = append(res.Histogram, cur)
			cur = HistBin{Lo: k + 1}
		}
	}
	cur.Hi = N
	if n := len(res.Histogram); n > 0 {
		res.Histogram[n-1].Observed += cur.Observed
		res.Histogram[n-1].Expected += cur.Expected
		res.Histogram[n-1].Hi = N
	} else if cur.Observed > 0 {
		res.Histogram = append(res.Histogram, cur)
	}
}
