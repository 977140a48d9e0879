package harness

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ProbeHeading and RepairHeading are the headings of the comparison's
// sections on probing and on anti-entropy under loss (ProbeMarkdown,
// RepairMarkdown): a command that rewrites one section alone finds it by
// its heading.
const (
	ProbeHeading  = "## Probing on: broadcasts riding on pings and acks (measured, not modelled)"
	RepairHeading = "## Anti-entropy repair under packet loss (claimed to agree)"
)

// ProbePair is one setting run with probing off and on (Setting.ProbeInterval),
// each compared by Compare with the same time model.
type ProbePair struct{ Off, On *Comparison }

// ProbeMarkdown is the section on probing: for each pair, the residue,
// p_miss, transmits and times with probing off and on, the difference
// on − off ± its standard error, and the asynchronous model (which has no
// probes). meta is the run that made it. The section states the
// measurements and no verdict on them.
func ProbeMarkdown(meta Meta, pairs []ProbePair) (string, error) {
	var b strings.Builder
	b.WriteString(ProbeHeading + "\n\n")
	fmt.Fprintf(&b, "Written by `%s` on %s, %s, in %.0f s of wall time.\n\n", meta.Command, meta.Date, meta.Machine, meta.Seconds)
	b.WriteString("memberlist piggybacks its queued broadcasts on every packet it sends outside a gossip tick (`sendMsg`, net.go): a probe's ping, its ack, an indirect ping, a nack. Each such transmit counts towards the message's retransmit limit like a gossip one. Each pair runs one setting twice, with the same seed, ProbeInterval 0 (off, as in the tables above) and 1 s (memberlist's LAN default), the gossip interval 200 ms, so a node probes one member every 5 gossip intervals; no node is down (probing would find the failed nodes, which the model keeps Alive) and no anti-entropy. Model: the asynchronous clock (`broadcast.SimulateAsync`, 20,000 replications), which has no probes. Difference: on − off ± √(SE² + SE²).\n\n")
	b.WriteString("Goal (issue 41), probing on against the model, as in the tables above: |z| ≤ 2 for the residue, p_miss and transmits; the time's difference ± 2 SE within ±0.2 interval.\n\n")
	b.WriteString("| N | k | B | ε | quantity | probing off | probing on | on − off | async model | z on vs model | goal |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i, p := range pairs {
		if p.Off == nil || p.On == nil || len(p.Off.Rows) != len(p.On.Rows) || len(p.Off.Rows) != 3+len(Levels) {
			return "", fmt.Errorf("harness: ProbeMarkdown: pair %d is not two comparisons Compare made", i+1)
		}
		s := p.On.Setting
		for j := range p.Off.Rows {
			a, c := p.Off.Rows[j], p.On.Rows[j]
			if a.Reached == 0 && !a.Claim || c.Reached == 0 && !c.Claim {
				continue
			}
			q := strings.TrimSuffix(a.Quantity, " (intervals)")
			goal := ClaimVerdict(c.Z)
			if !c.Claim {
				goal = TimeVerdict(s, Estimate{c.Measured.Value - c.Predicted.Value, math.Hypot(c.Measured.SE, c.Predicted.SE)})
			}
			fmt.Fprintf(&b, "| %d | %d | %d | %g | %s | %v | %v | %+.4g ± %.2g | %v | %s | %s |\n", s.Nodes, s.Fanout, p.On.Budget, s.Loss, q,
				a.Measured, c.Measured, c.Measured.Value-a.Measured.Value, math.Hypot(a.Measured.SE, c.Measured.SE), c.Predicted, fz(c.Z), goal)
		}
		fmt.Fprintf(&b, "| %d | %d | %d | %g | packets | %d | %d | | | | |\n", s.Nodes, s.Fanout, p.On.Budget, s.Loss, p.Off.Packets, p.On.Packets)
		fmt.Fprintf(&b, "| %d | %d | %d | %g | transmits per informed node, min–max | %g–%g | %g–%g | | %d | | |\n", s.Nodes, s.Fanout, p.On.Budget, s.Loss,
			p.Off.TransmitsPerInformed[0], p.Off.TransmitsPerInformed[1], p.On.TransmitsPerInformed[0], p.On.TransmitsPerInformed[1], p.On.Budget)
	}
	b.WriteString("\nThe column on − off is the effect of probing; z compares probing on with the model, which has no probes (docs/MODEL.md §6, *Probing*, reads these rows with those of other runs).\n")
	return b.String(), nil
}

// RepairMarkdown is the section on anti-entropy under packet loss: for
// each run (CompareRepair against RepairModel), the share of live nodes
// still lacking the message at RepairPoints, measured and by the
// model's Monte Carlo and mean field, and the difference given each
// broadcast's end state with its z.
func RepairMarkdown(meta Meta, comps []*RepairComparison) (string, error) {
	var b strings.Builder
	b.WriteString(RepairHeading + "\n\n")
	fmt.Fprintf(&b, "Written by `%s` on %s, %s, in %.0f s of wall time.\n\n", meta.Command, meta.Date, meta.Machine, meta.Seconds)
	b.WriteString("Periodic push–pull on (PushPullInterval 5 s, scaled by memberlist to 10 s at N = 50), each node's push–pull state carrying the message it holds, as Serf's carries its recent user events; a node that gets it from a sync records it and does not gossip it. Packets (the gossip) are lost with probability ε; the push–pull runs over the harness's streams, which are not lost, as TCP retransmits a lost segment. Model: gossipkit's repair (`broadcast.SimulateRepair`, the broadcast and the syncs on one clock, a sync not lost; docs/MODEL.md §6), 100,000 replications, and its mean field from the end state (`broadcast.RepairCurveFrom`). Measured: mean over the broadcasts ± the standard error of the clusters' means. Given the end state: memberlist − Monte Carlo, each broadcast against the Monte Carlo's replications that ended with the same count lacking, ± the larger of the model's and the clusters' standard error.\n\n")
	b.WriteString("| N | k | B | ε | scaled sync interval | broadcasts | time (scaled intervals) | memberlist lacking | Monte Carlo | mean field | given the end state | z |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i, c := range comps {
		if c == nil || len(c.Rows) != len(RepairPoints) {
			return "", errors.New("harness: RepairMarkdown: a comparison is not one CompareRepair made")
		}
		s := c.Setting
		n := s.ClustersOrDefault() * s.Broadcasts
		fmt.Fprintf(&b, "| %d | %d | %d | %g | %g s | %d × %d | end (last transmit) | %v | %v | | | %s |\n", s.Nodes, s.Fanout, s.Budget(), s.Loss, c.Scaled, s.ClustersOrDefault(), s.Broadcasts, c.End, c.MCEnd, fz(c.EndZ))
		for _, r := range c.Rows {
			fmt.Fprintf(&b, "| %d | %d | %d | %g | %g s | %d | %g | %v | %v | %.4g | %+.4g ± %.2g | %s |\n", s.Nodes, s.Fanout, s.Budget(), s.Loss, c.Scaled, n, r.Point, r.Measured, r.MC, r.MeanField, r.Cond.Value, r.Cond.SE, fz(r.Z))
		}
		_ = i
	}
	b.WriteString("\nThe mean field is low in its tail (docs/MODEL.md §6: the broadcasts that end with few holders repair as a random epidemic, which the closure ignores); the Monte Carlo of the same rules is the model's answer there.\n")
	return b.String(), nil
}

// TCPHeading is the heading of the section on anti-entropy with the
// streams under TCP's retransmissions and timeouts (TCPMarkdown).
const TCPHeading = "## Anti-entropy repair with TCP's timeouts under packet loss (measured)"

// TCPRun is one setting run with Setting.TCP: its streams' counts, and the
// run against one or more repair models (CompareRepair), each labelled.
type TCPRun struct {
	Stats  TCPStats
	Labels []string
	Comps  []*RepairComparison
}

// TCPMarkdown is the section on anti-entropy with TCP played under the
// loss: per run, the push–pulls dialled, the share whose dial outlasted
// TCPTimeout, the share broken after the dial, the mean handshake wait,
// and the share still lacking the message against each model.
func TCPMarkdown(meta Meta, runs []TCPRun) (string, error) {
	var b strings.Builder
	b.WriteString(TCPHeading + "\n\n")
	fmt.Fprintf(&b, "Written by `%s` on %s, %s, in %.0f s of wall time.\n\n", meta.Command, meta.Date, meta.Machine, meta.Seconds)
	b.WriteString("The settings of the section above, with the harness's streams playing TCP under the packet loss ε (`Setting.TCP`, `Network.SetTCP`): a dial's handshake needs its SYN and SYN-ACK through, each lost at ε, and is retried after 1, 2, 4, … s (Linux's defaults), failing when it outlasts memberlist's `TCPTimeout` (10 s, the LAN default; memberlist then logs the error and waits for its next push–pull); each data segment (1,448 bytes) is retransmitted after 200 ms, 400 ms, … until it gets through, and an exchange fails where a read or write outlasts its deadline (`TCPTimeout` after the dial or the accept). Counted over the measured broadcasts: the push–pulls dialled to a live node (a dial to a failed node is refused at once, as before), the share whose dial failed (nothing exchanged), the share broken after the dial, the mean wait for a SYN's retransmission over the dials that succeeded, and the mean time a dial keeps its node's push–pull loop busy (from the dial to the dialler's close, or to the dial's failure: memberlist's loop waits for its sync before it waits the next scaled interval, so a node's syncs come every S' plus that). By hand, a dial fails with probability (1 − (1 − ε)²)⁴ within 10 s (tries at 0, 1, 3, 7 s): 0.0168 at ε = 0.2, 0.0677 at 0.3.\n\n")
	b.WriteString("| N | k | B | ε | push–pulls dialled | dial failed | broken after the dial | mean handshake wait | mean busy per dial | data segments (retransmitted) |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range runs {
		if len(r.Comps) == 0 || r.Comps[0] == nil {
			return "", errors.New("harness: TCPMarkdown: a run has no comparison")
		}
		s, st := r.Comps[0].Setting, r.Stats
		ok := st.Dials - st.DialFailed
		wait, busy := math.NaN(), math.NaN()
		if ok > 0 {
			wait = st.HandshakeDelay.Seconds() / float64(ok)
		}
		if st.Dials > 0 {
			busy = st.Busy.Seconds() / float64(st.Dials)
		}
		fmt.Fprintf(&b, "| %d | %d | %d | %g | %d | %d (%.4f ± %.2g) | %d (%.2g) | %.3f s | %.3f s | %d (%d) |\n", s.Nodes, s.Fanout, s.Budget(), s.Loss, st.Dials,
			st.DialFailed, share(st.DialFailed, st.Dials), shareSE(st.DialFailed, st.Dials), st.Broken, share(st.Broken, st.Dials), wait, busy, st.Segments, st.Retransmits)
	}
	b.WriteString("\nShare of live nodes still lacking the message, as in the section above (given the end state: memberlist − Monte Carlo over the replications with the same count lacking at the end, z), against three models: gossipkit's repair with no failed sync (as in the section above); with `Config.SyncFail` the chance that a dial outlasts the 10 s by hand, (1 − (1 − ε)²)⁴, not taken from the run; and the same with the sync interval stretched so that the scaled one is S' plus the run's mean busy time per dial (the model has no term for a sync's length; a renewal approximation).\n\n")
	b.WriteString("| N | ε | model | time (scaled intervals) | memberlist lacking | Monte Carlo | given the end state | z |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range runs {
		for i, c := range r.Comps {
			if c == nil || len(c.Rows) != len(RepairPoints) || i >= len(r.Labels) {
				return "", errors.New("harness: TCPMarkdown: a comparison is not one CompareRepair made")
			}
			s := c.Setting
			fmt.Fprintf(&b, "| %d | %g | %s | end (last transmit) | %v | %v | | %s |\n", s.Nodes, s.Loss, r.Labels[i], c.End, c.MCEnd, fz(c.EndZ))
			for _, row := range c.Rows {
				fmt.Fprintf(&b, "| %d | %g | %s | %g | %v | %v | %+.4g ± %.2g | %s |\n", s.Nodes, s.Loss, r.Labels[i], row.Point, row.Measured, row.MC, row.Cond.Value, row.Cond.SE, fz(row.Z))
			}
		}
	}
	return b.String(), nil
}

func share(k, n int64) float64 {
	if n == 0 {
		return math.NaN()
	}
	return float64(k) / float64(n)
}

func shareSE(k, n int64) float64 {
	if n == 0 {
		return math.NaN()
	}
	p := float64(k) / float64(n)
	return math.Sqrt(p * (1 - p) / float64(n))
}

// Splice returns doc with the section that begins with section's first
// line (a "## " heading) replaced by section, or section appended when doc
// has no such heading. A section ends where the next "## " heading
// begins, or at the end.
func Splice(doc, section string) string {
	head, _, _ := strings.Cut(section, "\n")
	if !strings.HasSuffix(section, "\n") {
		section += "\n"
	}
	i := strings.Index(doc, "\n"+head+"\n")
	if i < 0 {
		if !strings.HasSuffix(doc, "\n") && doc != "" {
			doc += "\n"
		}
		return doc + "\n" + section
	}
	start := i + 1
	rest := doc[start+len(head):]
	end := len(doc)
	if j := strings.Index(rest, "\n## "); j >= 0 {
		end = start + len(head) + j + 1
		section += "\n"
	}
	return doc[:start] + section + doc[end:]
}
