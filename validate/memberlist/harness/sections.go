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
	b.WriteString("| N | k | B | ε | quantity | probing off | probing on | on − off | async model | z on vs model |\n|---|---|---|---|---|---|---|---|---|---|\n")
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
			fmt.Fprintf(&b, "| %d | %d | %d | %g | %s | %v | %v | %+.4g ± %.2g | %v | %s |\n", s.Nodes, s.Fanout, p.On.Budget, s.Loss, q,
				a.Measured, c.Measured, c.Measured.Value-a.Measured.Value, math.Hypot(a.Measured.SE, c.Measured.SE), c.Predicted, fz(c.Z))
		}
		fmt.Fprintf(&b, "| %d | %d | %d | %g | packets | %d | %d | | | |\n", s.Nodes, s.Fanout, p.On.Budget, s.Loss, p.Off.Packets, p.On.Packets)
		fmt.Fprintf(&b, "| %d | %d | %d | %g | transmits per informed node, min–max | %g–%g | %g–%g | | %d | |\n", s.Nodes, s.Fanout, p.On.Budget, s.Loss,
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
