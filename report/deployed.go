package report

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/internal/stats"
	"github.com/gossipkit/gossipkit/plots"
)

// Deployed is the section "Gossip as deployed": rumour broadcast as
// memberlist, Serf and Consul run it (package broadcast), with their
// defaults: fanout 3, one round every 200 ms, a retransmit limit of
// RetransmitMult·⌈log10(N+1)⌉ transmits with RetransmitMult = 4.
//
//   - Miss: P(some live node is never informed) at memberlist's default
//     budget, for N = 10…10⁵, loss 0–30 % and failures 0–20 %, and the
//     smallest budget that brings it to deployedMiss; by the exact chain
//     where it runs (N = 10), else by the large-N law
//     (broadcast.PushBudgetResidue), with a Monte Carlo check where the
//     probability is large enough to be measured at this scale;
//   - Logistic: Serf's logistic curve beside the mean field and the exact
//     law of the time until every node, and until half of them, is
//     informed;
//   - Messages: the time to reach every node and the messages per node of
//     push, pull and push–pull at N = Scale.BroadcastN (exact chain);
//   - the literature's laws against the exact chain and the asymptotic law:
//     push's log₂N + ln N (Frieze and Grimmett 1985, Pittel 1987, with
//     Doerr and Künnemann's bracket), push–pull's log₃N + O(log log N)
//     (Karp, Schindelhauer, Shenker and Vöcking 2000), and the residue of
//     budgeted push, s = e^{−λ(1−s)} (Demers et al. 1987).
//
// The Monte Carlo runs 10·MarkovReps replications (2000 at the quick
// scale). It runs no simulation of package sim, so shards skip it and the
// merge computes it.
type Deployed struct {
	// ExactN is the largest N of the exact chain (Scale.BroadcastN).
	ExactN     int
	Interval   float64
	Reps       int
	Miss       []DeployedMissRow
	Logistic   []DeployedLogisticRow
	Curves     DeployedCurves
	Messages   []DeployedMessagesRow
	PushK1     []DeployedLawRow
	PushPull   []DeployedLawRow
	Residue    []DeployedResidueRow
	LogisticOK []DeployedLogisticRow // the rows the Serf verdict reads
}

// DeployedMissRow is one setting of the memberlist table: Budget is the
// default budget, PMiss the probability that some live node is never
// informed at it (by Method), MCPMiss ± MCSE its Monte Carlo estimate
// (NaN where not run), Smallest the smallest budget with PMiss ≤
// deployedMiss.
type DeployedMissRow struct {
	N             int
	Loss, Failed  float64
	Budget        int
	PMiss         float64
	Method        string
	MCPMiss, MCSE float64
	Smallest      int
}

// DeployedLogisticRow compares, at one setting, the round at which Serf's
// logistic curve has all but half a node informed with the exact law of
// T_1 (mean, 5 % and 95 % quantiles).
type DeployedLogisticRow struct {
	N              int
	Loss           float64
	LogisticT      float64
	Mean, Q05, Q95 float64
}

// DeployedCurves are the figure's curves at N = Scale.BroadcastN, fanout 3,
// loss deployedCurveLoss: per round, Serf's logistic share, the mean-field
// informed share, and the exact P(T_1 ≤ r) and P(T_0.5 ≤ r).
type DeployedCurves struct {
	N                      int
	Loss                   float64
	Rounds                 []float64
	Serf, MeanField        []float64
	PAll, PHalf            []float64
	LogisticT, ExactMedian float64
}

// DeployedMessagesRow is one protocol and fanout at N = Scale.BroadcastN,
// level 1.
type DeployedMessagesRow struct {
	Protocol        string
	Fanout          int
	Loss            float64
	Mean, Q95       float64
	Messages        float64
	Seconds, Q95Sec float64
}

// DeployedLawRow is E[T_1] at one N, by Method, against the literature's
// leading term Lead; Diff = Mean − Lead, and Dev the method's stated
// accuracy of the mean (0 for the exact chain).
type DeployedLawRow struct {
	N          int
	Method     string
	Mean, Lead float64
	Diff, Dev  float64
}

// DeployedResidueRow is budgeted push's residue at one setting: the Monte
// Carlo mean share of live nodes never informed (± SE) against Demers'
// root s of s = e^{−λ(1−s)}, λ = B(1−ε)M/(N−1).
type DeployedResidueRow struct {
	N, Fanout, Budget int
	Loss              float64
	Lambda, Demers    float64
	MC, SE            float64
}

// The section's settings and rules.
const (
	deployedFanout   = 3
	deployedInterval = 0.2 // seconds: memberlist's and Serf's GossipInterval
	deployedMiss     = 1e-6
	// deployedCurveLoss: the figure's loss (its N is Scale.BroadcastN).
	deployedCurveLoss = 0.1
	// Doerr and Künnemann (2014) bound E[T_1] − (log₂N + ln N) for push
	// with one peer a round within [−1.116, 2.765] for every N.
	dkLo, dkHi = -1.116, 2.765
	// deployedMCMin: the Monte Carlo checks P(miss) where the large-N law
	// puts it at least this high (measurable with a few thousand runs).
	deployedMCMin = 0.005
)

var (
	deployedLosses = []float64{0, 0.1, 0.3}
	deployedFails  = []float64{0, 0.2}
)

// upTo returns the values of v at most hi.
func upTo(v []int, hi int) []int {
	var out []int
	for _, x := range v {
		if x <= hi {
			out = append(out, x)
		}
	}
	return out
}

// Deployed computes the section.
func (s *Study) Deployed(ctx context.Context) (*Deployed, error) {
	if err := s.ready(false); err != nil {
		return nil, err
	}
	r := &Deployed{Interval: deployedInterval, Reps: 10 * s.Scale.MarkovReps}
	big := s.Scale.BroadcastN
	if big <= 0 {
		big = 100
	}
	r.ExactN = big
	mcSet := broadcast.SimSettings{Reps: r.Reps, Seed: s.Scale.Seed, Workers: s.opt.Workers}
	push := func(N int, loss, failed float64, budget int) broadcast.Config {
		return broadcast.Config{Nodes: N, Protocol: broadcast.Push, Fanout: deployedFanout, Loss: loss, Failed: failed, Budget: budget, Level: 1}
	}
	// (a) memberlist's default budget.
	s.step("gossip as deployed: memberlist's budget")
	for _, N := range upTo([]int{10, 100, 1000, 10_000, 100_000}, 100*big) {
		for _, loss := range deployedLosses {
			for _, failed := range deployedFails {
				cfg := push(N, loss, failed, broadcast.MemberlistBudget(N, broadcast.DefaultRetransmitMult))
				row := DeployedMissRow{N: N, Loss: loss, Failed: failed, Budget: cfg.Budget, MCPMiss: math.NaN(), MCSE: math.NaN()}
				var err error
				if N <= 10 {
					row.Method = "exact"
					if row.PMiss, err = exactMiss(ctx, cfg); err != nil {
						return nil, err
					}
					if row.Smallest, err = exactSmallestBudget(ctx, cfg, deployedMiss); err != nil {
						return nil, err
					}
				} else {
					bset := broadcast.Settings{Reps: r.Reps, Seed: s.Scale.Seed, Workers: s.opt.Workers}
					m, err := broadcast.MissChance(ctx, cfg, bset)
					if err != nil {
						return nil, err
					}
					row.PMiss, row.Method = m.PMiss, m.Method
					if row.Smallest, err = broadcast.SmallestBudget(ctx, cfg, deployedMiss, bset); err != nil {
						return nil, err
					}
				}
				if N <= big && row.PMiss >= deployedMCMin {
					smp, err := broadcast.Simulate(ctx, cfg, mcSet)
					if err != nil {
						return nil, err
					}
					a := smp.Law().Answer(cfg)
					row.MCPMiss, row.MCSE = a.PMiss, math.Sqrt(a.PMiss*(1-a.PMiss)/float64(r.Reps))
				}
				r.Miss = append(r.Miss, row)
			}
		}
	}
	// (b) Serf's logistic curve against the exact law.
	s.step("gossip as deployed: Serf's logistic curve")
	for _, N := range upTo([]int{100, 1000}, big) {
		for _, loss := range deployedLosses {
			cfg := broadcast.Config{Nodes: N, Protocol: broadcast.Push, Fanout: deployedFanout, Loss: loss, Level: 1}
			law, err := broadcast.ExactLaw(ctx, cfg)
			if err != nil {
				return nil, err
			}
			a := law.Answer(cfg)
			r.Logistic = append(r.Logistic, DeployedLogisticRow{N: N, Loss: loss, LogisticT: serfAllTime(cfg), Mean: a.Mean, Q05: a.Q05, Q95: a.Q95})
		}
	}
	if err := r.curves(ctx, big); err != nil {
		return nil, err
	}
	// (c) messages per node.
	s.step("gossip as deployed: messages of push, pull and push–pull")
	for _, p := range []broadcast.Protocol{broadcast.Push, broadcast.Pull, broadcast.PushPull} {
		for _, k := range []int{1, 3} {
			for _, loss := range []float64{0, 0.1} {
				cfg := broadcast.Config{Nodes: big, Protocol: p, Fanout: k, Loss: loss, Level: 1, Interval: deployedInterval}
				law, err := broadcast.ExactLaw(ctx, cfg)
				if err != nil {
					return nil, err
				}
				a := law.Answer(cfg)
				r.Messages = append(r.Messages, DeployedMessagesRow{Protocol: p.String(), Fanout: k, Loss: loss, Mean: a.Mean, Q95: a.Q95, Messages: a.Messages, Seconds: a.Seconds, Q95Sec: a.Q95 * deployedInterval})
			}
		}
	}
	// (d) the literature's laws.
	s.step("gossip as deployed: the literature's laws")
	for _, N := range upTo([]int{128, 512, 2048}, 4*big) {
		cfg := broadcast.Config{Nodes: N, Protocol: broadcast.Push, Fanout: 1, Level: 1}
		law, err := broadcast.ExactLaw(ctx, cfg)
		if err != nil {
			return nil, err
		}
		a := law.Answer(cfg)
		lead := math.Log2(float64(N)) + math.Log(float64(N))
		r.PushK1 = append(r.PushK1, DeployedLawRow{N: N, Method: "exact", Mean: a.Mean, Lead: lead, Diff: a.Mean - lead})
	}
	for _, N := range append(upTo([]int{100, 1000}, big), 10_000, 100_000, 1_000_000) {
		cfg := broadcast.Config{Nodes: N, Protocol: broadcast.PushPull, Fanout: 1, Level: 1}
		method, law, err := "exact", (*broadcast.Law)(nil), error(nil)
		if N <= big {
			law, err = broadcast.ExactLaw(ctx, cfg)
		} else {
			method = "asymptotic"
			law, err = broadcast.AsymptoticLaw(ctx, cfg)
		}
		if err != nil {
			return nil, err
		}
		a := law.Answer(cfg)
		dev := 0.0
		if method == "asymptotic" {
			dev = a.Accuracy.DevMean
		}
		lead := math.Log(float64(N)) / math.Log(3)
		r.PushPull = append(r.PushPull, DeployedLawRow{N: N, Method: method, Mean: a.Mean, Lead: lead, Diff: a.Mean - lead, Dev: dev})
	}
	for _, b := range []int{2, 3} {
		cfg := broadcast.Config{Nodes: 10 * big, Protocol: broadcast.Push, Fanout: 1, Budget: b, Level: 1}
		res, err := broadcast.PushBudgetResidue(cfg)
		if err != nil {
			return nil, err
		}
		smp, err := broadcast.Simulate(ctx, cfg, mcSet)
		if err != nil {
			return nil, err
		}
		// The residue given an outbreak: runs that die out early (the
		// source's transmits all lost, say) leave nearly every node
		// uninformed and are not what Demers' equation describes.
		mean, se := outbreakResidue(smp, cfg)
		r.Residue = append(r.Residue, DeployedResidueRow{N: cfg.Nodes, Fanout: cfg.Fanout, Budget: b, Loss: cfg.Loss, Lambda: res.Lambda, Demers: res.S, MC: mean, SE: se})
	}
	return r, nil
}

// serfAllTime is the round at which Serf's logistic curve has all but half
// a node informed: 1/(1 + (N+1)e^{−βt}) = 1 − 1/(2N), t = ln((N+1)(2N−1))/β,
// with β read off the curve itself (its value at t = 1).
func serfAllTime(cfg broadcast.Config) float64 {
	n := float64(cfg.Nodes)
	// x(1) = 1/(1 + (N+1)e^{−β}) gives e^{−β} = (1/x(1) − 1)/(N+1).
	x1 := broadcast.SerfLogistic(cfg, 1)
	beta := -math.Log((1/x1 - 1) / (n + 1))
	return math.Log((n+1)*(2*n-1)) / beta
}

// curves computes the figure's curves.
func (r *Deployed) curves(ctx context.Context, N int) error {
	cfg := broadcast.Config{Nodes: N, Protocol: broadcast.Push, Fanout: deployedFanout, Loss: deployedCurveLoss, Level: 1}
	all, err := broadcast.ExactLaw(ctx, cfg)
	if err != nil {
		return err
	}
	half := cfg
	half.Level = 0.5
	hl, err := broadcast.ExactLaw(ctx, half)
	if err != nil {
		return err
	}
	const rounds = 15 // every setting's q95 of T_1 lies below (the table)
	mf, err := broadcast.MeanField(cfg, rounds)
	if err != nil {
		return err
	}
	c := DeployedCurves{N: cfg.Nodes, Loss: cfg.Loss, LogisticT: serfAllTime(cfg), ExactMedian: all.Answer(cfg).Q50}
	for t := 0; t <= rounds; t++ {
		c.Rounds = append(c.Rounds, float64(t))
		c.Serf = append(c.Serf, broadcast.SerfLogistic(cfg, float64(t)))
		c.MeanField = append(c.MeanField, mf.Informed[min(t, len(mf.Informed)-1)])
		c.PAll = append(c.PAll, all.CDF(float64(t)))
		c.PHalf = append(c.PHalf, hl.CDF(float64(t)))
	}
	r.Curves = c
	return nil
}

// exactMiss is P(some live node is never informed) by the exact chain.
func exactMiss(ctx context.Context, cfg broadcast.Config) (float64, error) {
	law, err := broadcast.ExactLaw(ctx, cfg)
	if err != nil {
		return 0, err
	}
	return law.PMiss, nil
}

// exactSmallestBudget is the smallest budget from cfg.Budget on whose exact
// P(miss) is at most p (P(miss) falls as the budget grows: every extra
// transmit can only inform more nodes).
func exactSmallestBudget(ctx context.Context, cfg broadcast.Config, p float64) (int, error) {
	for b := max(cfg.Budget, 1); b <= 64*deployedFanout; b++ {
		cfg.Budget = b
		m, err := exactMiss(ctx, cfg)
		if err != nil {
			return 0, err
		}
		if m <= p {
			return b, nil
		}
	}
	return 0, fmt.Errorf("report: no budget up to %d gives P(miss) ≤ %g at N = %d", 64*deployedFanout, p, cfg.Nodes)
}

// outbreakResidue is the mean uninformed live share over the runs that
// informed at least half the live nodes, and its standard error.
func outbreakResidue(smp *broadcast.Sample, cfg broadcast.Config) (mean, se float64) {
	M := float64(cfg.Live())
	var xs []float64
	for _, rep := range smp.Reps {
		if miss := float64(rep.Missed) / M; miss < 0.5 {
			xs = append(xs, miss)
		}
	}
	if len(xs) < 2 {
		return math.NaN(), math.NaN()
	}
	mean, sd := stats.MeanSD(xs)
	return mean, sd / math.Sqrt(float64(len(xs)))
}

func fixed(digits int) func(int, any) string {
	return func(_ int, v any) string {
		if f, ok := v.(float64); ok && !math.IsNaN(f) {
			return strconv.FormatFloat(f, 'f', digits, 64)
		}
		return plots.Cell(v)
	}
}

func (r *Deployed) missTable() *plots.Table {
	t := &plots.Table{Keys: []string{"N", "loss", "failed", "budget", "p_miss", "method", "mc_p_miss", "mc_se", "smallest_budget"}}
	for _, row := range r.Miss {
		t.Rows = append(t.Rows, []any{row.N, row.Loss, row.Failed, row.Budget, row.PMiss, row.Method, row.MCPMiss, row.MCSE, row.Smallest})
	}
	t.TextCell = func(col int, v any) string {
		if f, ok := v.(float64); ok && !math.IsNaN(f) && col >= 4 {
			return strconv.FormatFloat(f, 'g', 3, 64)
		}
		return plots.Cell(v)
	}
	return t
}

func (r *Deployed) logisticTable() *plots.Table {
	t := &plots.Table{Keys: []string{"N", "loss", "logistic_rounds", "exact_mean", "exact_q05", "exact_q95"}, TextCell: fixed(2)}
	for _, row := range r.Logistic {
		t.Rows = append(t.Rows, []any{row.N, row.Loss, row.LogisticT, row.Mean, row.Q05, row.Q95})
	}
	return t
}

func (r *Deployed) messagesTable() *plots.Table {
	t := &plots.Table{Keys: []string{"protocol", "fanout", "loss", "mean_rounds", "q95_rounds", "messages_per_node", "mean_seconds", "q95_seconds"}, TextCell: fixed(2)}
	for _, row := range r.Messages {
		t.Rows = append(t.Rows, []any{row.Protocol, row.Fanout, row.Loss, row.Mean, row.Q95, row.Messages, row.Seconds, row.Q95Sec})
	}
	return t
}

func (r *Deployed) lawTable() *plots.Table {
	t := &plots.Table{Keys: []string{"protocol", "fanout", "N", "method", "mean", "lead", "mean_minus_lead", "dev_mean"}, TextCell: fixed(3)}
	for _, row := range r.PushK1 {
		t.Rows = append(t.Rows, []any{"push", 1, row.N, row.Method, row.Mean, row.Lead, row.Diff, row.Dev})
	}
	for _, row := range r.PushPull {
		t.Rows = append(t.Rows, []any{"push-pull", 1, row.N, row.Method, row.Mean, row.Lead, row.Diff, row.Dev})
	}
	return t
}

func (r *Deployed) residueTable() *plots.Table {
	t := &plots.Table{Keys: []string{"N", "fanout", "budget", "loss", "lambda", "demers_s", "mc_residue", "mc_se"}, TextCell: fixed(4)}
	for _, row := range r.Residue {
		t.Rows = append(t.Rows, []any{row.N, row.Fanout, row.Budget, row.Loss, row.Lambda, row.Demers, row.MC, row.SE})
	}
	return t
}

// figures are (b)'s two panels, one quantity each: the informed share
// by the two mean curves, and the exact law of the times to half and to
// every node. Both mark what the verdict compares: the round at which
// Serf's logistic curve says every node is informed, and the 5–95 % range
// of the exact law of T_1 at the same setting (its row of r.Logistic), the
// window that round must fall in; without that row, the exact median.
func (r *Deployed) figures() []*plots.Spec {
	c := r.Curves
	lo, hi := 0.0, 1.0
	marks := []plots.VLine{
		{X: c.LogisticT, Name: fmt.Sprintf("Serf's logistic: every node informed at round %.1f", c.LogisticT), Color: 1},
	}
	if row, ok := r.logisticRow(c.N, c.Loss); ok {
		// One entry for the window's two ends (the second unnamed, the
		// same colour and style).
		marks = append(marks,
			plots.VLine{X: row.Q05, Name: fmt.Sprintf("the verdict's window: 5–95 %% of the exact T_1 (every node informed), rounds %g–%g", row.Q05, row.Q95), Color: 6},
			plots.VLine{X: row.Q95, Color: 6})
	} else {
		marks = append(marks, plots.VLine{X: c.ExactMedian, Name: fmt.Sprintf("exact median of T_1 (every node informed): round %g", c.ExactMedian), Color: 6})
	}
	share := &plots.Spec{Title: fmt.Sprintf("informed share (push, fanout %d, N = %d, loss %g)", deployedFanout, c.N, c.Loss),
		XLabel: "rounds (× 200 ms)", YLabel: "informed share", YMin: &lo, YMax: &hi, VLines: marks,
		Series: []plots.Series{
			{Name: "Serf's logistic curve", X: c.Rounds, Y: c.Serf, Color: 1, Dashed: true},
			{Name: "mean field", X: c.Rounds, Y: c.MeanField, Color: 0},
		}}
	law := &plots.Spec{Title: "the exact law of the time to inform (same setting)", XLabel: "rounds (× 200 ms)", YLabel: "P(informed by round r)",
		Probability: true, VLines: marks,
		Series: []plots.Series{
			// Every node's dots first, half's rings over them: where both
			// are 1 each stays visible.
			{Name: "exact P(every node informed by round r)", X: c.Rounds, Y: c.PAll, Color: 6, Points: true},
			{Name: "exact P(half the nodes informed by round r)", X: c.Rounds, Y: c.PHalf, Color: 2, Points: true, Open: true},
		}}
	return []*plots.Spec{share, law}
}

// logisticRow is the row of r.Logistic at N and loss.
func (r *Deployed) logisticRow(N int, loss float64) (DeployedLogisticRow, bool) {
	for _, row := range r.Logistic {
		if row.N == N && row.Loss == loss {
			return row, true
		}
	}
	return DeployedLogisticRow{}, false
}

// Render writes the section.
func (r *Deployed) Render(d *Doc) (err error) {
	defer incomplete("Deployed.Render", &err)
	if r == nil || d == nil {
		return nilRender("Deployed")
	}
	d.printf("**Question:** rumour broadcast as memberlist, Serf and Consul run it (push to %d random peers every %g ms, each message sent at most %d·⌈log10(N+1)⌉ times): how likely is it that some live node never hears a message, what budget makes that rare, and how do push, pull and push–pull compare? Package `broadcast` (`gossipkit plan --protocol push|pull|push-pull`) computes the law of the time to a coverage level by the exact count chain, an asymptotic law at any N and a node-by-node Monte Carlo (`go doc ./broadcast`, docs/MODEL.md).\n",
		deployedFanout, 1000*deployedInterval, broadcast.DefaultRetransmitMult)
	d.printf("\n**(a) memberlist's default budget.** P(some live node is never informed) at the default budget, by the exact chain at N = 10 and by the large-N law beyond (the Poisson count of missed nodes after an outbreak, s = e^{−λ(1−s)}, plus the early extinction of the branching start), with a Monte Carlo check (%d runs) where it exceeds %g at N ≤ %d; `smallest_budget`: the fewest transmits per node that bring it to %g:\n", r.Reps, deployedMCMin, r.ExactN, deployedMiss)
	if err := d.table("deployed_miss", r.missTable()); err != nil {
		return err
	}
	d.printf("\n**(b) Serf's logistic curve** (informed share 1/(1 + (N+1)e^{−βt})) is the mean field's continuous-time special case: it has the right middle and says nothing of the last node. Against the exact law of T_1, the round at which every node is informed:\n")
	if err := d.figure("deployed_logistic", r.figures()...); err != nil {
		return err
	}
	if err := d.table("deployed_logistic", r.logisticTable()); err != nil {
		return err
	}
	d.printf("\n**(c) Push, pull and push–pull** at N = %d without a budget (exact chain): the time until every node is informed (mean and 95 %% quantile, in rounds and in seconds at %g ms a round) and the one-way messages per node until then (push transmits, pull requests and the replies that carry the rumour):\n", r.ExactN, 1000*deployedInterval)
	if err := d.table("deployed_messages", r.messagesTable()); err != nil {
		return err
	}
	d.printf("\n**(d) The literature's laws**, by the exact chain and, past N = %d for push–pull, the asymptotic law (`lead`: log₂N + ln N for push, log₃N for push–pull; `dev_mean`: the asymptotic law's stated accuracy of the mean):\n", r.ExactN)
	if err := d.table("deployed_laws", r.lawTable()); err != nil {
		return err
	}
	d.printf("\nBudgeted push (one peer a round, B transmits in all) at N = %d against Demers' equation (%d runs; the residue given an outbreak, the runs that informed at least half the nodes):\n", 10*r.ExactN, r.Reps)
	return d.table("deployed_residue", r.residueTable())
}
