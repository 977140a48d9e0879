package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gossipkit/gossipkit/broadcast"
)

// Estimate is a value and its standard error (0: exact).
type Estimate struct{ Value, SE float64 }

func (e Estimate) String() string {
	if math.IsNaN(e.Value) {
		return "—"
	}
	if e.SE == 0 || math.IsNaN(e.SE) {
		return fmt.Sprintf("%.4g", e.Value)
	}
	return fmt.Sprintf("%.4g ± %.2g", e.Value, e.SE)
}

// TimeModel predicts how long a broadcast takes: Time returns the mean
// time, in gossip intervals from the source's QueueBroadcast, until
// ⌈Level·M⌉ live nodes hold the message, given that they ever do, for the
// broadcast.Config the harness setting maps to (Setting.Model). Name is
// how the comparison table labels it. RoundsModel is gossipkit's
// synchronous-rounds law; another model (an asynchronous one, every
// ticker at its own phase) plugs in here.
type TimeModel struct {
	Name string
	Time func(ctx context.Context, cfg broadcast.Config) (Estimate, error)
}

// RoundsModel is the synchronous-rounds model of package broadcast, one
// round read as one gossip interval: the mean of T_L given T_L < ∞ from
// broadcast.Simulate with reps replications and the seed, its standard
// error the sample sd over √(replications that reach the level).
func RoundsModel(reps int, seed uint64) TimeModel {
	return TimeModel{
		Name: "rounds model",
		Time: func(ctx context.Context, cfg broadcast.Config) (Estimate, error) {
			s, err := broadcast.Simulate(ctx, cfg, broadcast.SimSettings{Reps: reps, Seed: seed})
			if err != nil {
				return Estimate{}, err
			}
			var x []float64
			for _, r := range s.Reps {
				if r.T >= 0 {
					x = append(x, float64(r.T))
				}
			}
			m, se, _ := meanSE(x)
			return Estimate{m, se}, nil
		},
	}
}

// meanSE is the mean of x, its standard error and the sample sd (NaN
// for the SE and sd of fewer than two values).
func meanSE(x []float64) (mean, se, sd float64) {
	n := float64(len(x))
	if len(x) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	for _, v := range x {
		mean += v
	}
	mean /= n
	if len(x) < 2 {
		return mean, math.NaN(), math.NaN()
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	sd = math.Sqrt(ss / (n - 1))
	return mean, sd / math.Sqrt(n), sd
}

// Row is one quantity, measured and predicted.
type Row struct {
	// Quantity names it.
	Quantity string
	// Measured and Predicted, each with its standard error.
	Measured, Predicted Estimate
	// SD is the measured sample sd of a time (NaN for other quantities),
	// Reached the broadcasts that reached its level.
	SD      float64
	Reached int
	// Z is (Measured − Predicted)/√(SE_m² + SE_p²) for a claimed row,
	// where SE_p is the model's and SE_m the larger of the measured
	// standard error and the one the model's own spread implies for as
	// many broadcasts (sd_model/√broadcasts): a quantity that comes out
	// constant in a finite run (no broadcast missed a node) has a sample
	// SE of 0, which would overstate z. For a time, the plain
	// (Measured − Predicted)/√(SE² + SE²). When both are exact: 0 if
	// they are equal, else ±Inf; NaN when either is NaN.
	Z float64
	// Ratio is Predicted/Measured, for times (NaN otherwise).
	Ratio float64
	// Claim tells whether the model claims agreement (residue, p_miss,
	// transmits); times of the rounds model are reported, not claimed.
	Claim bool
}

// Comparison is a harness run against gossipkit's model.
type Comparison struct {
	Setting Setting
	// Budget is B = RetransmitMult·⌈log10(N+1)⌉; Live is M.
	Budget, Live int
	// Broadcasts measured; ModelReps, ModelSeed the Monte Carlo of the
	// model; TimeModel the time model's name.
	Broadcasts, ModelReps int
	ModelSeed             uint64
	TimeModel             string
	// Packets and Dropped as in Result.
	Packets, Dropped int64
	// TransmitsPerInformed is the least and greatest transmits per
	// informed node over the broadcasts (both B when every node spends its
	// budget).
	TransmitsPerInformed [2]float64
	Rows                 []Row
	// Async, if not nil, are the times against a second, claimed time
	// model (AddAsync), one row per level as in Rows; AsyncModel its name.
	Async      []Row
	AsyncModel string
}

// AddAsync sets the measured times of res against tm (AsyncModel), whose
// agreement is claimed, into c.Async: the model's mean time at each of
// Levels and z = (measured − model)/√(SE² + SE²).
func (c *Comparison) AddAsync(ctx context.Context, res *Result, tm TimeModel) error {
	if c == nil || res == nil || tm.Time == nil || ctx == nil {
		return errors.New("harness: AddAsync: nil comparison, result, model or context")
	}
	c.Async, c.AsyncModel = nil, tm.Name
	for _, l := range Levels {
		r := c.Row(QTime(l))
		if r == nil {
			return errors.New("harness: AddAsync: the comparison has no time rows")
		}
		p, err := tm.Time(ctx, res.Setting.Model(l))
		if err != nil {
			return fmt.Errorf("harness: %s at level %g: %w", tm.Name, l, err)
		}
		a := *r
		a.Predicted, a.Ratio, a.Claim = p, p.Value/r.Measured.Value, true
		a.Z = z(r.Measured, p)
		c.Async = append(c.Async, a)
	}
	return nil
}

// Row returns the row of a quantity, or nil.
func (c *Comparison) Row(quantity string) *Row {
	for i := range c.Rows {
		if c.Rows[i].Quantity == quantity {
			return &c.Rows[i]
		}
	}
	return nil
}

// The quantities of a comparison.
const (
	QResidue   = "residue (share of live nodes missed)"
	QPMiss     = "p_miss (some live node missed)"
	QTransmits = "transmits per live node"
)

// QTime is the name of the time-to-level row.
func QTime(level float64) string { return fmt.Sprintf("time to %g %% (intervals)", 100*level) }

// Compare sets a harness result against the model: the residue, p_miss
// and transmits from broadcast.Simulate at level 1 with modelReps
// replications (seed modelSeed) — every informed node makes exactly B
// transmits, so the model's transmits per live node are B·(1 − residue) —
// and the times at each of Levels from tm.
func Compare(ctx context.Context, res *Result, modelReps int, modelSeed uint64, tm TimeModel) (*Comparison, error) {
	if res == nil || len(res.Outcomes) == 0 {
		return nil, errors.New("harness: Compare: no outcomes")
	}
	if tm.Time == nil {
		return nil, errors.New("harness: Compare: TimeModel.Time is nil")
	}
	if ctx == nil {
		return nil, errors.New("harness: nil context")
	}
	if err := res.Setting.Validate(); err != nil {
		return nil, err
	}
	s := res.Setting
	cfg := s.Model(1)
	c := &Comparison{
		Setting: s, Budget: s.Budget(), Live: cfg.Live(), Broadcasts: len(res.Outcomes),
		ModelReps: modelReps, ModelSeed: modelSeed, TimeModel: tm.Name,
		Packets: res.Packets, Dropped: res.Dropped,
		TransmitsPerInformed: [2]float64{math.Inf(1), math.Inf(-1)},
	}
	var resid, miss, trans []float64
	for _, o := range res.Outcomes {
		resid = append(resid, float64(o.Live-o.Informed)/float64(o.Live))
		miss = append(miss, b2f(o.Informed < o.Live))
		trans = append(trans, float64(o.Transmits)/float64(o.Live))
		per := float64(o.Transmits) / float64(o.Informed)
		c.TransmitsPerInformed[0] = min(c.TransmitsPerInformed[0], per)
		c.TransmitsPerInformed[1] = max(c.TransmitsPerInformed[1], per)
	}
	mResid, mMiss, err := modelEnd(ctx, cfg, modelReps, modelSeed)
	if err != nil {
		return nil, err
	}
	b := float64(c.Budget)
	pr, sdr := estimateSD(mResid)
	pm, sdm := estimateSD(mMiss)
	n := math.Sqrt(float64(len(res.Outcomes)))
	c.Rows = append(c.Rows,
		claimRow(QResidue, estimate(resid), pr, sdr/n),
		claimRow(QPMiss, estimate(miss), pm, sdm/n),
		claimRow(QTransmits, estimate(trans), Estimate{b * (1 - pr.Value), b * pr.SE}, b*sdr/n),
	)
	for j, l := range Levels {
		var x []float64
		for _, o := range res.Outcomes {
			if o.Times[j] >= 0 {
				x = append(x, o.Times[j])
			}
		}
		m, se, sd := meanSE(x)
		p, err := tm.Time(ctx, s.Model(l))
		if err != nil {
			return nil, fmt.Errorf("harness: %s at level %g: %w", tm.Name, l, err)
		}
		r := Row{Quantity: QTime(l), Measured: Estimate{m, se}, Predicted: p, SD: sd, Reached: len(x), Ratio: p.Value / m}
		r.Z = z(r.Measured, p)
		c.Rows = append(c.Rows, r)
	}
	return c, nil
}

// modelEnd runs the model's Monte Carlo and returns, replication by
// replication, the share of live nodes missed and whether any was.
func modelEnd(ctx context.Context, cfg broadcast.Config, reps int, seed uint64) (resid, miss []float64, err error) {
	sample, err := broadcast.Simulate(ctx, cfg, broadcast.SimSettings{Reps: reps, Seed: seed})
	if err != nil {
		return nil, nil, fmt.Errorf("harness: model: %w", err)
	}
	m := float64(cfg.Live())
	for _, r := range sample.Reps {
		resid = append(resid, float64(r.Missed)/m)
		miss = append(miss, b2f(r.Missed > 0))
	}
	return resid, miss, nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func estimate(x []float64) Estimate {
	m, se, _ := meanSE(x)
	return Estimate{m, se}
}

func estimateSD(x []float64) (Estimate, float64) {
	m, se, sd := meanSE(x)
	return Estimate{m, se}, sd
}

func z(a, b Estimate) float64 {
	d := math.Sqrt(a.SE*a.SE + b.SE*b.SE)
	if d == 0 {
		switch {
		case a.Value == b.Value:
			return 0
		case a.Value > b.Value:
			return math.Inf(1)
		case a.Value < b.Value:
			return math.Inf(-1)
		}
	}
	return (a.Value - b.Value) / d
}

// claimRow is a claimed row; nullSE is the measured mean's standard
// error if the broadcasts followed the model's law (Row.Z).
func claimRow(q string, measured, predicted Estimate, nullSE float64) Row {
	m := measured
	m.SE = max(m.SE, nullSE)
	return Row{Quantity: q, Measured: measured, Predicted: predicted, SD: math.NaN(),
		Z: z(m, predicted), Ratio: math.NaN(), Claim: true}
}

// Meta describes a run of the comparison for its table.
type Meta struct {
	// Date, Machine and Command as the table states them.
	Date, Machine, Command string
	// Seconds is the run's wall time.
	Seconds float64
}

// WriteMarkdown writes the comparisons as one Markdown document.
func WriteMarkdown(w io.Writer, meta Meta, comps []*Comparison) error {
	if w == nil {
		return errors.New("harness: WriteMarkdown: nil writer")
	}
	for i, c := range comps {
		if c == nil || len(c.Rows) != 3+len(Levels) {
			return fmt.Errorf("harness: WriteMarkdown: comparison %d is not one Compare made", i+1)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# memberlist %s against gossipkit's broadcast model\n\n", MemberlistVersion)
	fmt.Fprintf(&b, "Written by `%s` on %s, %s, in %.0f s of wall time.\n\n", meta.Command, meta.Date, meta.Machine, meta.Seconds)
	b.WriteString(markdownIntro)
	b.WriteString("\n## Settings\n\n")
	b.WriteString("| # | N | GossipNodes k | RetransmitMult | budget B | loss ε | failed φ | live M | phases | clusters × broadcasts | packets (dropped) | transmits per informed node, min–max |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i, c := range comps {
		s := c.Setting
		fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %g | %g | %d | %v | %d × %d | %d (%d) | %g–%g |\n",
			i+1, s.Nodes, s.Fanout, s.RetransmitMult, c.Budget, s.Loss, s.Failed, c.Live, s.Phases,
			s.ClustersOrDefault(), s.Broadcasts, c.Packets, c.Dropped, c.TransmitsPerInformed[0], c.TransmitsPerInformed[1])
	}
	b.WriteString("\n## Who gets the message, and what it costs (claimed to agree)\n\n")
	b.WriteString("Measured: mean over the broadcasts ± its standard error. Model: `broadcast.Simulate` (push, the same N, k, B, ε, φ) ± its standard error; transmits B·(1 − residue). z = (measured − model)/√(SE_m² + SE² of the model), SE_m the larger of the measured SE and the model's sd/√broadcasts (so that a run in which no broadcast missed a node is not judged with an SE of 0).\n\n")
	b.WriteString("Goal (issue 41): the library's value within the stated errors of the model's, read here as |z| ≤ 2; a row beyond says *missed*.\n\n")
	b.WriteString("| # | quantity | memberlist | model | z | goal |\n|---|---|---|---|---|---|\n")
	for i, c := range comps {
		for _, r := range c.Rows {
			if r.Claim {
				fmt.Fprintf(&b, "| %d | %s | %v | %v | %s | %s |\n", i+1, r.Quantity, r.Measured, r.Predicted, fz(r.Z), ClaimVerdict(r.Z))
			}
		}
	}
	b.WriteString("\n## When it arrives (not claimed: the rounds model is synchronous)\n\n")
	b.WriteString("Time from the source's `QueueBroadcast` until ⌈L·M⌉ live nodes hold the message, in gossip intervals, over the broadcasts that get there. Rounds model: the mean of T_L in rounds (one round = one interval) given T_L < ∞. Ratio = model / memberlist.\n\n")
	b.WriteString("| # | level | memberlist mean ± SE | memberlist sd | reached | model | model / memberlist |\n|---|---|---|---|---|---|---|\n")
	for i, c := range comps {
		for _, l := range Levels {
			r := c.Row(QTime(l))
			if r == nil || r.Reached == 0 {
				continue
			}
			fmt.Fprintf(&b, "| %d | %g %% | %v | %s | %d of %d | %v (%s) | %.2f |\n", i+1, 100*l, r.Measured, fsd(r.SD), r.Reached, c.Broadcasts, r.Predicted, c.TimeModel, r.Ratio)
		}
	}
	b.WriteString("\nA level no broadcast reached has no row. The standard error of a time treats the broadcasts as independent; those of one cluster share its tickers' phases.\n")
	writeAsync(&b, comps)
	writePhaseEffect(&b, comps)
	_, err := io.WriteString(w, b.String())
	return err
}

func fsd(sd float64) string {
	if math.IsNaN(sd) {
		return "—"
	}
	return fmt.Sprintf("%.3g", sd)
}

// writePhaseEffect sets each setting with aligned tickers against the one
// with random phases and otherwise the same fields, level by level.
func writePhaseEffect(b *strings.Builder, comps []*Comparison) {
	head := false
	for i, a := range comps {
		if a.Setting.Phases != AlignedPhases {
			continue
		}
		for j, r := range comps {
			sa, sr := a.Setting, r.Setting
			sa.Phases, sa.Seed, sr.Seed = RandomPhases, 0, 0
			if j == i || r.Setting.Phases != RandomPhases || sa != sr {
				continue
			}
			if !head {
				b.WriteString("\n## The tickers' phases\n\nThe same setting with every ticker at one instant (aligned) and at independent uniform phases (random); difference aligned − random ± its standard error, in intervals.\n\n")
				b.WriteString("| settings | level | aligned | random | difference |\n|---|---|---|---|---|\n")
				head = true
			}
			for _, l := range Levels {
				x, y := a.Row(QTime(l)), r.Row(QTime(l))
				if x == nil || y == nil || x.Reached == 0 || y.Reached == 0 {
					continue
				}
				d := Estimate{x.Measured.Value - y.Measured.Value, math.Hypot(x.Measured.SE, y.Measured.SE)}
				fmt.Fprintf(b, "| %d, %d | %g %% | %v | %v | %+.3f ± %.2g |\n", i+1, j+1, 100*l, x.Measured, y.Measured, d.Value, d.SE)
			}
		}
	}
}

func fz(z float64) string {
	if math.IsNaN(z) {
		return "—"
	}
	return fmt.Sprintf("%+.2f", z)
}

const markdownIntro = `Each setting runs real memberlist instances in one process over the
harness's in-memory transport (validate/memberlist/harness), on the virtual
clock of a testing/synctest bubble: time advances only when every
goroutine is blocked, so the times below do not depend on the machine's
load, and a packet arrives at the instant it is sent. Probing and periodic
push–pull are off (ProbeInterval = PushPullInterval = 0): no pings or acks
carry the message, nothing marks the failed nodes, nothing repairs a miss.
A user message is broadcast as Serf broadcasts a user event: queued on the
source's TransmitLimitedQueue (RetransmitMult as in the setting, NumNodes
from the member list), handed to memberlist by Delegate.GetBroadcasts, and
queued again by each node on its first receipt. One broadcast at a time;
the next waits until every queue is empty, then a uniform fraction of an
interval. Failed nodes (⌊φ·(N−1)⌋, drawn once per cluster) drop every
packet both ways and stay Alive in every member list. memberlist draws its
gossip peers from its own source, so a run is reproducible in law, not bit
for bit; the harness's own draws (losses, phases, failed sets, sources,
instants) come from the seed. On the virtual clock a time in intervals
does not depend on the interval's length (setting 7 runs at 500 ms, the
others at 200 ms).
`

// writeAsync writes the times against the asynchronous model where the
// comparisons have them (AddAsync).
func writeAsync(b *strings.Builder, comps []*Comparison) {
	head := false
	for i, c := range comps {
		if len(c.Async) != len(Levels) {
			continue
		}
		if !head {
			fmt.Fprintf(b, "\n## When it arrives, against the asynchronous model (claimed: within ±0.2 interval)\n\n")
			b.WriteString("The same measured times against gossipkit's asynchronous clock (`broadcast.SimulateAsync`, `plan --time async`: every node's ticker at its own uniform phase, the source sending at its first tick, a node informed at t forwarding at its next tick), 20,000 replications. Difference = memberlist − model ± √(SE² + SE²). The setting with aligned tickers is not this clock (its row shows how far that is).\n\n")
			b.WriteString("Goal (issue 41): within ±0.2 interval of the library's at N ≤ 500. *met*: |difference| + 2 SE ≤ 0.2 (the difference ± 2 SE within ±0.2); *missed*: |difference| − 2 SE > 0.2; *unresolved*: neither (the run cannot tell: few broadcasts reached the level, or the difference is within 2 SE of 0.2); the aligned setting is not the model's clock and is not judged.\n\n")
			b.WriteString("| # | phases | level | memberlist mean ± SE | reached | async model | difference | z | goal |\n|---|---|---|---|---|---|---|---|---|\n")
			head = true
		}
		for _, r := range c.Async {
			if r.Reached == 0 {
				continue
			}
			d := Estimate{r.Measured.Value - r.Predicted.Value, math.Hypot(r.Measured.SE, r.Predicted.SE)}
			fmt.Fprintf(b, "| %d | %v | %s | %v | %d of %d | %v | %+.3f ± %.2g | %s | %s |\n", i+1, c.Setting.Phases, strings.TrimSuffix(strings.TrimPrefix(r.Quantity, "time to "), " (intervals)"), r.Measured, r.Reached, c.Broadcasts, r.Predicted, d.Value, d.SE, fz(r.Z), TimeVerdict(c.Setting, d))
		}
	}
}

// ClaimVerdict is a claimed row's verdict on issue 41's goal (the
// library's value within the model's stated errors), read as |z| ≤ 2.
func ClaimVerdict(z float64) string {
	switch {
	case math.IsNaN(z):
		return "—"
	case math.Abs(z) <= 2:
		return "met"
	}
	return fmt.Sprintf("**missed** (|z| %.1f > 2)", math.Abs(z))
}

// TimeGoal is issue 41's goal for a time against the asynchronous model,
// in intervals, at N ≤ TimeGoalNodes.
const (
	TimeGoal      = 0.2
	TimeGoalNodes = 500
)

// TimeVerdict is the verdict on TimeGoal for a difference memberlist −
// model: met when |d| + 2·SE ≤ TimeGoal, missed when |d| − 2·SE >
// TimeGoal, else unresolved; a setting with aligned tickers or above
// TimeGoalNodes is not judged.
func TimeVerdict(s Setting, d Estimate) string {
	switch {
	case s.Phases != RandomPhases:
		return "not judged (aligned tickers)"
	case s.Nodes > TimeGoalNodes:
		return "not judged (N > 500)"
	case math.IsNaN(d.Value):
		return "—"
	case math.Abs(d.Value)+2*d.SE <= TimeGoal:
		return "met"
	case math.Abs(d.Value)-2*d.SE > TimeGoal:
		return "**missed**"
	}
	return fmt.Sprintf("**unresolved** (±2 SE = ±%.2f)", 2*d.SE)
}
