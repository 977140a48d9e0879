package harness

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/hashicorp/memberlist"

	"github.com/gossipkit/gossipkit/broadcast"
)

// MemberlistVersion is the version of github.com/hashicorp/memberlist this
// module pins (go.mod; TestPinnedVersion checks the two agree).
const MemberlistVersion = "v0.7.0"

// Phases is how the nodes' gossip tickers are placed in time.
type Phases int

const (
	// RandomPhases: each node's ticker at its own uniform phase, as in a
	// cluster whose nodes started at different times. Node i is created
	// after a virtual sleep drawn uniformly in [0, GossipInterval), so its
	// phase, the sum of the sleeps modulo the interval, is uniform and
	// independent of the others'.
	RandomPhases Phases = iota
	// AlignedPhases: every node created at the same virtual instant, so
	// every ticker fires at the same instants (the limit of nodes created
	// in a tight loop).
	AlignedPhases
)

func (p Phases) String() string {
	switch p {
	case RandomPhases:
		return "random"
	case AlignedPhases:
		return "aligned"
	}
	return fmt.Sprintf("Phases(%d)", int(p))
}

// Levels are the coverage levels L at which the time to ⌈L·M⌉ informed
// live nodes is measured.
var Levels = [...]float64{0.5, 0.99, 1}

// RepairPoints are the times, in scaled sync intervals
// (broadcast.PushPullScale(Setting.SyncInterval, N)) after the source
// queues the message, at which a run with anti-entropy on counts the live
// nodes still lacking it (Outcome.Lack).
var RepairPoints = [...]float64{0.25, 0.5, 1, 1.5, 2}

// Setting is one harness configuration.
type Setting struct {
	// Nodes is N, live and failed, 3 ≤ N ≤ MaxNodes.
	Nodes int
	// Fanout is memberlist's GossipNodes, 1 ≤ k < the live nodes.
	Fanout int
	// RetransmitMult is memberlist's RetransmitMult (≥ 1): the transmit
	// limit is RetransmitMult·⌈log10(N+1)⌉ (broadcast.MemberlistBudget).
	RetransmitMult int
	// Loss is the probability in [0, 1) that a packet is lost.
	Loss float64
	// Failed is φ in [0, 1): ⌊φ·(N−1)⌋ nodes drop every packet, yet stay
	// Alive in the others' lists (the model's failed nodes).
	Failed float64
	// Interval is memberlist's GossipInterval, in virtual time, 1 ms..1 h
	// (0: 200 ms, the LAN default). Results in intervals do not depend on
	// it.
	Interval time.Duration
	// Phases places the gossip tickers (default RandomPhases).
	Phases Phases
	// Clusters is the number of clusters built, each with its own phases
	// and failed set (0: 1); Broadcasts the broadcasts measured in each,
	// one at a time (≥ 1).
	Clusters, Broadcasts int
	// Seed seeds the harness's draws: the losses, the phases, the failed
	// sets, the sources and the queueing instants. memberlist draws its
	// gossip peers from math/rand's global source, seeded from crypto/rand
	// at its init; the order of its member lists depends on how the
	// goroutines of the joins interleave. A run is therefore reproducible
	// in law, not bit for bit (package doc).
	Seed uint64
	// SyncInterval is memberlist's PushPullInterval (0: anti-entropy
	// off). When on, each node's push–pull state carries the message it
	// holds, as Serf's carries its recent user events; a node that gets
	// it from a sync records it without gossiping it (Serf's
	// MergeRemoteState), and each broadcast is watched for 2 scaled sync
	// intervals (RepairPoints). Streams are not lost and a failed node
	// refuses them.
	SyncInterval time.Duration
	// ProbeInterval is memberlist's ProbeInterval (0: probing off, the
	// default of the harness). When on, each node probes one member per
	// interval (a ping, its ack; indirect pings and a fallback ping over
	// a stream if the ack is lost), and memberlist piggybacks queued
	// broadcasts on every such packet it sends (sendMsg): those
	// transmits count in Outcome.Transmits and draw on the same limit.
	// It needs Failed = 0 (probing would find the failed nodes, which the
	// model keeps Alive) and SyncInterval = 0.
	ProbeInterval time.Duration
	// TCP makes the streams (the push–pulls) play TCP under Loss during
	// the measured broadcasts (Network.SetTCP): a handshake retried after
	// 1, 2, 4, … s, a dial that fails when it outlasts memberlist's
	// TCPTimeout (10 s, the LAN default), data segments retransmitted
	// after 200 ms, 400 ms, …, a read or write that fails at its
	// deadline. Off (the default), streams are never delayed nor lost.
	// Result.TCP counts them.
	TCP bool
}

// MaxNodes bounds Setting.Nodes (memory and time of one process).
const MaxNodes = 2000

// MaxBroadcasts bounds Setting.Clusters·Setting.Broadcasts.
const MaxBroadcasts = 100_000

// IntervalOrDefault is the gossip interval, 200 ms when Interval is 0.
func (s Setting) IntervalOrDefault() time.Duration {
	if s.Interval == 0 {
		return 200 * time.Millisecond
	}
	return s.Interval
}

// ClustersOrDefault is Clusters, 1 when it is 0.
func (s Setting) ClustersOrDefault() int { return max(s.Clusters, 1) }

// Budget is memberlist's transmit limit for the setting.
func (s Setting) Budget() int { return broadcast.MemberlistBudget(s.Nodes, s.RetransmitMult) }

// Model is the setting as gossipkit's broadcast model states it (push,
// the fanout, the budget, the loss, the failed share) at level L.
func (s Setting) Model(level float64) broadcast.Config {
	return broadcast.Config{
		Nodes: s.Nodes, Protocol: broadcast.Push, Fanout: s.Fanout, Loss: s.Loss, Failed: s.Failed,
		Budget: s.Budget(), Level: level,
	}
}

// Validate checks every field.
func (s Setting) Validate() error {
	switch {
	case s.Nodes < 3 || s.Nodes > MaxNodes:
		return fmt.Errorf("harness: Setting.Nodes = %d: valid range 3..%d", s.Nodes, MaxNodes)
	case s.RetransmitMult < 1 || s.RetransmitMult > 1000:
		return fmt.Errorf("harness: Setting.RetransmitMult = %d: valid range 1..1000", s.RetransmitMult)
	case s.Interval != 0 && (s.Interval < time.Millisecond || s.Interval > time.Hour):
		return fmt.Errorf("harness: Setting.Interval = %v: valid range 1ms..1h (0: 200ms)", s.Interval)
	case s.SyncInterval != 0 && (s.SyncInterval < s.IntervalOrDefault() || s.SyncInterval > time.Hour):
		return fmt.Errorf("harness: Setting.SyncInterval = %v: valid range one gossip interval..1h (0: off)", s.SyncInterval)
	case s.ProbeInterval != 0 && (s.ProbeInterval < time.Millisecond || s.ProbeInterval > time.Hour):
		return fmt.Errorf("harness: Setting.ProbeInterval = %v: valid range 1ms..1h (0: off)", s.ProbeInterval)
	case s.ProbeInterval != 0 && (s.Failed != 0 || s.SyncInterval != 0):
		return fmt.Errorf("harness: Setting.ProbeInterval = %v with Setting.Failed = %g, Setting.SyncInterval = %v: probing needs both 0 (it would find the failed nodes, which the model keeps Alive)", s.ProbeInterval, s.Failed, s.SyncInterval)
	case s.Phases != RandomPhases && s.Phases != AlignedPhases:
		return fmt.Errorf("harness: Setting.Phases = %d: not random (0) or aligned (1)", int(s.Phases))
	case s.Clusters < 0 || s.Broadcasts < 1 || s.Clusters > MaxBroadcasts || s.Broadcasts > MaxBroadcasts ||
		s.ClustersOrDefault()*s.Broadcasts > MaxBroadcasts:
		return fmt.Errorf("harness: Setting.Clusters = %d, Setting.Broadcasts = %d: need Broadcasts ≥ 1 and Clusters·Broadcasts ≤ %d", s.Clusters, s.Broadcasts, MaxBroadcasts)
	}
	if err := s.Model(1).Validate(); err != nil {
		return fmt.Errorf("harness: Setting: %w", err)
	}
	return nil
}

// Outcome is one broadcast as measured.
type Outcome struct {
	// Live is M, the live nodes; Informed the live nodes that got the
	// message (the source included).
	Live, Informed int
	// Transmits is the number of times a node handed the message to
	// memberlist for a packet to one peer (TransmitLimitedQueue's
	// count), lost or sent to a failed node or not.
	Transmits int64
	// Times[j] is the time, in gossip intervals, from the source's
	// QueueBroadcast until ⌈Levels[j]·M⌉ live nodes hold the message
	// (−1 if that many never do).
	Times [len(Levels)]float64
	// Lack[j] is the number of live nodes that do not hold the message at
	// RepairPoints[j] scaled sync intervals after it was queued (with
	// Setting.SyncInterval; else 0).
	Lack [len(RepairPoints)]int
	// End is the broadcast's end, its last transmit, in gossip intervals
	// after the source queued it.
	End float64
	// Synced is the number of live nodes whose first receipt came from a
	// push–pull (Setting.SyncInterval) by the broadcast's end, every queue
	// empty: counted in Informed, though the broadcast did not reach them.
	Synced int
}

// Result is a harness run.
type Result struct {
	Setting  Setting
	Outcomes []Outcome
	// Packets, Dropped, Overflow are the network's counts over the
	// measured broadcasts (Network.Counts).
	Packets, Dropped, Overflow int64
	// SyncPhases[c] are the phases, in [0, 1) of a scaled sync interval
	// (the virtual time modulo broadcast.PushPullScale(SyncInterval, N)),
	// of cluster c's push–pull state exchanges during its measured
	// broadcasts (each exchange counted once per side: LocalState is
	// called by both ends). Empty without Setting.SyncInterval.
	SyncPhases [][]float64
	// TCP counts the streams of the measured broadcasts under
	// Setting.TCP (zero without it).
	TCP TCPStats
}

// Run builds Setting.Clusters clusters of real memberlist instances and
// measures Setting.Broadcasts broadcasts in each, on the virtual clock of a
// testing/synctest bubble: time advances only when every goroutine of the
// clusters is blocked, so a run's times do not depend on the host's load
// or scheduling, and a gossip interval costs only the CPU its ticks use.
// t is the test (or the command's testing.Main) the bubble belongs to.
// A cancelled ctx stops the run between two joins or two broadcasts with
// ctx.Err().
func Run(ctx context.Context, t *testing.T, s Setting) (*Result, error) {
	if ctx == nil {
		return nil, errors.New("harness: nil context")
	}
	if t == nil {
		return nil, errors.New("harness: nil *testing.T")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var (
		res *Result
		err error
	)
	synctest.Test(t, func(*testing.T) {
		res, err = run(ctx, s)
		// The bubble ends only when every goroutine has: a shut-down
		// member's probe may still wait on its ack timer (ProbeInterval,
		// scaled by its awareness up to 8×) or a nack timer, and virtual
		// time advances only while this goroutine runs.
		time.Sleep(drainTime)
		synctest.Wait()
	})
	return res, err
}

// drainTime is the virtual time Run waits after the last cluster's
// shutdown for memberlist's pending probe timers.
const drainTime = 10 * time.Minute

func run(ctx context.Context, s Setting) (*Result, error) {
	res := &Result{Setting: s}
	for c := range s.ClustersOrDefault() {
		if err := runCluster(ctx, s, uint64(c), res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// userBroadcast is a user message as Serf queues one (serf's broadcast
// type: never invalidates another).
type userBroadcast []byte

func (b userBroadcast) Invalidates(memberlist.Broadcast) bool { return false }
func (b userBroadcast) Message() []byte                       { return b }
func (b userBroadcast) Finished()                             {}

// node is one member: its memberlist, and the delegate through which it
// sends and receives user messages the way Serf does.
type node struct {
	c     *cluster
	idx   int
	name  string
	m     *memberlist.Memberlist
	queue *memberlist.TransmitLimitedQueue
}

func (d *node) NodeMeta(int) []byte { return nil }

// LocalState is the node's push–pull state: the message being measured
// if it holds it (Serf's recent user events), else nothing.
func (d *node) LocalState(join bool) []byte {
	c := d.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if !join && c.current != 0 && c.syncPeriod > 0 {
		c.syncs = append(c.syncs, float64(time.Now().UnixNano()%int64(c.syncPeriod))/float64(c.syncPeriod))
	}
	if c.current == 0 || c.received[d.idx].IsZero() {
		return nil
	}
	return encodeMsg(c.current)
}

// MergeRemoteState takes the message from a peer's state: recorded at its
// first receipt, not queued (Serf merges events from a push–pull without
// rebroadcasting them). A message of an earlier broadcast is ignored.
func (d *node) MergeRemoteState(buf []byte, _ bool) {
	if len(buf) != 9 || buf[0] != msgMagic {
		return
	}
	c := d.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if id := binary.BigEndian.Uint64(buf[1:]); id != c.current || c.current == 0 {
		return
	}
	if c.failed[d.idx] {
		c.anomaly("failed node %s merged a state", d.name)
		return
	}
	if c.received[d.idx].IsZero() {
		c.received[d.idx] = time.Now()
		c.bySync[d.idx] = true
	}
}

// NotifyMsg is a user message received: on its first receipt the node
// records the time and queues it for its own gossip, as Serf rebroadcasts
// a user event it has not seen.
func (d *node) NotifyMsg(b []byte) { d.c.receive(d, b) }

// GetBroadcasts hands memberlist the queued user messages for one packet
// to one peer (memberlist calls it once per peer of a gossip tick); each
// message returned is one transmit.
func (d *node) GetBroadcasts(overhead, limit int) [][]byte {
	msgs := d.queue.GetBroadcasts(overhead, limit)
	if len(msgs) > 0 {
		d.c.mu.Lock()
		d.c.transmits += int64(len(msgs))
		d.c.lastSend = time.Now()
		d.c.mu.Unlock()
	}
	return msgs
}

// cluster is one set of nodes and the broadcast being measured.
type cluster struct {
	net   *Network
	nodes []*node

	mu         sync.Mutex
	failed     []bool
	current    uint64        // id of the broadcast being measured, 0: none
	received   []time.Time   // first receipt per node, zero if none
	bySync     []bool        // the first receipt came from a push–pull
	transmits  int64         // transmits of the current broadcast
	lastSend   time.Time     // its last transmit: the queues are empty from then on
	syncPeriod time.Duration // the scaled sync interval (0: no anti-entropy)
	syncs      []float64     // phases of the push–pull exchanges (Result.SyncPhases)
	anomalies  []string      // what should not happen (first few)
}

const msgMagic = 'G'

func encodeMsg(id uint64) []byte {
	b := make([]byte, 9)
	b[0] = msgMagic
	binary.BigEndian.PutUint64(b[1:], id)
	return b
}

func (c *cluster) anomaly(format string, a ...any) {
	if len(c.anomalies) < 5 {
		c.anomalies = append(c.anomalies, fmt.Sprintf(format, a...))
	}
}

func (c *cluster) receive(d *node, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(b) != 9 || b[0] != msgMagic {
		c.anomaly("node %s: foreign user message of %d bytes", d.name, len(b))
		return
	}
	id := binary.BigEndian.Uint64(b[1:])
	switch {
	case id != c.current:
		c.anomaly("node %s: message %d while measuring %d", d.name, id, c.current)
		return
	case c.failed[d.idx]:
		c.anomaly("failed node %s received message %d", d.name, id)
		return
	case !c.received[d.idx].IsZero():
		return // seen: Serf drops a user event it has already seen
	}
	c.received[d.idx] = time.Now()
	d.queue.QueueBroadcast(userBroadcast(append([]byte(nil), b...)))
}

func (c *cluster) queued() int {
	n := 0
	for _, d := range c.nodes {
		n += d.queue.NumQueued()
	}
	return n
}

func (c *cluster) shutdown() {
	for _, d := range c.nodes {
		if d.m != nil {
			_ = d.m.Shutdown()
		}
	}
}

// maxSetupIntervals bounds the intervals waited for the joins' gossip to
// settle; maxJoinPasses the passes of joins until every node knows all.
const (
	maxSetupIntervals = 2000
	maxJoinPasses     = 10
)

// start creates the node's memberlist (again, for a restart) on a
// transport of its name and address.
func (d *node) start(s Setting, logger *log.Logger) error {
	tr, err := d.c.net.NewTransport(d.name, 10000+d.idx)
	if err != nil {
		return err
	}
	conf := memberlist.DefaultLANConfig()
	conf.Name = d.name
	conf.Transport = tr
	conf.Delegate = d
	conf.Logger = logger
	conf.GossipNodes = s.Fanout
	conf.GossipInterval = s.IntervalOrDefault()
	// memberlist's own queue (its membership gossip, busy only during
	// the joins) at the least multiplier: the setup then costs a
	// quarter of what it does at 4, and the join passes repair what
	// that gossip misses. The user messages' queue has its own
	// RetransmitMult, the setting's, as Serf's has.
	conf.RetransmitMult = 1
	// Probes only with Setting.ProbeInterval (their pings and acks carry
	// broadcasts too, and they would find the failed nodes); periodic
	// push–pull only with Setting.SyncInterval.
	conf.ProbeInterval = s.ProbeInterval
	conf.PushPullInterval = s.SyncInterval
	// LZW compression of every packet changes no rule and was half the
	// CPU of a run.
	conf.EnableCompression = false
	m, err := memberlist.Create(conf)
	if err != nil {
		return fmt.Errorf("harness: create %s: %w", d.name, err)
	}
	d.m = m
	return nil
}

// settle lets memberlist's own gossip (the alive messages of joins)
// die out: no packet but a probe's bare ping, ack or nack for two
// intervals means every queue is empty, since a node sends a gossip packet
// only when it has one queued and piggybacks only what is queued.
func (c *cluster) settle(iv time.Duration) error {
	last := c.net.GossipPackets()
	quiet := 0
	for range maxSetupIntervals {
		time.Sleep(iv)
		synctest.Wait()
		now := c.net.GossipPackets()
		if now == last {
			quiet++
		} else {
			quiet = 0
		}
		last = now
		if quiet == 2 {
			return nil
		}
	}
	return fmt.Errorf("harness: memberlist's gossip did not settle in %d intervals", maxSetupIntervals)
}

func runCluster(ctx context.Context, s Setting, ci uint64, res *Result) (err error) {
	iv := s.IntervalOrDefault()
	rng := rand.New(rand.NewPCG(s.Seed, 0x6861726e657373+ci)) // "harness"
	c := &cluster{
		net:      NewNetwork(s.Seed ^ (ci+1)*0x9e3779b97f4a7c15),
		failed:   make([]bool, s.Nodes),
		received: make([]time.Time, s.Nodes),
		bySync:   make([]bool, s.Nodes),
	}
	if s.SyncInterval > 0 {
		c.syncPeriod = time.Duration(broadcast.PushPullScale(float64(s.SyncInterval), s.Nodes))
	}
	defer c.shutdown()
	logger := log.New(io.Discard, "", 0)
	for i := range s.Nodes {
		if s.Phases == RandomPhases {
			time.Sleep(time.Duration(rng.Int64N(int64(iv))))
		}
		d := &node{c: c, idx: i, name: fmt.Sprintf("n%04d", i)}
		d.queue = &memberlist.TransmitLimitedQueue{
			NumNodes:       func() int { return d.m.NumMembers() },
			RetransmitMult: s.RetransmitMult,
		}
		if err := d.start(s, logger); err != nil {
			return err
		}
		c.nodes = append(c.nodes, d)
	}
	// Joins: every node to node 0 (a push–pull over a stream), then again
	// for any node that does not yet know all N, until all do.
	seed := []string{c.nodes[0].m.LocalNode().FullAddress().Addr}
	for pass := 0; ; pass++ {
		missing := 0
		for _, d := range c.nodes[1:] {
			if err := ctx.Err(); err != nil {
				return err
			}
			if pass > 0 && d.m.NumMembers() == s.Nodes {
				continue
			}
			missing++
			if _, err := d.m.Join(seed); err != nil {
				return fmt.Errorf("harness: join %s: %w", d.name, err)
			}
			// Let node 0 finish handling the join before the next one:
			// memberlist refuses a push–pull beyond 128 pending ones.
			synctest.Wait()
		}
		if pass > 0 && missing == 0 {
			break
		}
		if pass == maxJoinPasses {
			return fmt.Errorf("harness: %d nodes still do not know all %d after %d passes of joins", missing, s.Nodes, pass)
		}
		if err := c.settle(iv); err != nil {
			return err
		}
	}
	// Anti-entropy's phases. memberlist staggers a node's first push–pull
	// by a draw in [0, PushPullInterval) from its start and then waits,
	// before each sync, the interval scaled by the members it knows then
	// (pushPullScale). The joins above take every node past 32 members at
	// one instant, so above 32 nodes each node's syncs fall in one part of
	// the scaled interval, the same for all: at N = 50 every exchange fell
	// in one half of it (TestSyncPhases). A node started into a cluster
	// whose members it learns at its join scales from its first sync, so
	// its phase is its start plus its stagger: restarting the nodes one
	// after another, each after a delay uniform over the scaled interval,
	// spreads the phases uniformly and independently, as in a cluster
	// whose nodes joined at different times, which is the repair model's
	// rule. The extra draw within a gossip interval keeps each gossip
	// ticker's phase uniform too.
	if c.syncPeriod > s.SyncInterval && s.Phases == RandomPhases {
		for i, d := range c.nodes {
			if err := ctx.Err(); err != nil {
				return err
			}
			time.Sleep(time.Duration(rng.Int64N(int64(c.syncPeriod)) + rng.Int64N(int64(iv))))
			if err := d.m.Shutdown(); err != nil {
				return fmt.Errorf("harness: restart %s: %w", d.name, err)
			}
			if err := d.start(s, logger); err != nil {
				return err
			}
			peer := c.nodes[(i+1)%len(c.nodes)].m.LocalNode().FullAddress().Addr
			if _, err := d.m.Join([]string{peer}); err != nil {
				return fmt.Errorf("harness: rejoin %s: %w", d.name, err)
			}
			synctest.Wait()
			if n := d.m.NumMembers(); n != s.Nodes {
				return fmt.Errorf("harness: %s knows %d of %d members after its restart", d.name, n, s.Nodes)
			}
		}
		if err := c.settle(iv); err != nil {
			return err
		}
	}
	// The failed nodes, and the loss, from now on.
	failed := int(s.Model(1).FailedNodes())
	for _, i := range rng.Perm(s.Nodes)[:failed] {
		c.failed[i] = true
		c.net.SetFailed(c.nodes[i].name, true)
	}
	if err := c.net.SetLoss(s.Loss); err != nil {
		return err
	}
	live := make([]int, 0, s.Nodes)
	for i, f := range c.failed {
		if !f {
			live = append(live, i)
		}
	}
	c.net.SetTCP(s.TCP)
	t0s := c.net.TCPCounts()
	p0, d0, o0 := c.net.Counts()
	budget := s.Budget()
	// A broadcast ends within ⌈B/k⌉ intervals of its last first receipt,
	// and there are at most N of those, one interval apart at worst.
	maxIntervals := s.Nodes*(budget/s.Fanout+2) + 10
	for b := range s.Broadcasts {
		if err := ctx.Err(); err != nil {
			return err
		}
		time.Sleep(time.Duration(rng.Int64N(int64(iv))))
		src := c.nodes[live[rng.IntN(len(live))]]
		id := ci<<32 | uint64(b+1)
		c.mu.Lock()
		c.current = id
		clear(c.received)
		clear(c.bySync)
		c.transmits = 0
		t0 := time.Now()
		c.lastSend = t0
		c.received[src.idx] = t0
		src.queue.QueueBroadcast(userBroadcast(encodeMsg(id)))
		c.mu.Unlock()
		done := false
		for range maxIntervals {
			time.Sleep(iv)
			synctest.Wait()
			if c.queued() == 0 {
				done = true
				break
			}
		}
		if !done {
			return fmt.Errorf("harness: broadcast %d still queued after %d intervals", id, maxIntervals)
		}
		// The broadcast's end: its last transmit, which emptied the last
		// queue holding it (TransmitLimitedQueue drops a message at its
		// limit-th transmit; a packet arrives within the same instant, so
		// a receipt that queued it again would have sent again). The loop
		// above notices the empty queues up to an interval later; the
		// syncs of that wait are not the broadcast's.
		c.mu.Lock()
		tEnd := c.lastSend
		c.mu.Unlock()
		var lackAt []time.Time
		if s.SyncInterval > 0 {
			scaled := time.Duration(broadcast.PushPullScale(float64(s.SyncInterval), s.Nodes))
			for _, p := range RepairPoints {
				lackAt = append(lackAt, t0.Add(time.Duration(p*float64(scaled))))
			}
			if wait := time.Until(lackAt[len(lackAt)-1]); wait > 0 {
				time.Sleep(wait)
			}
			synctest.Wait()
		}
		c.mu.Lock()
		out := Outcome{Live: len(live), Transmits: c.transmits, End: float64(tEnd.Sub(t0)) / float64(iv)}
		for j, at := range lackAt {
			for _, i := range live {
				if r := c.received[i]; r.IsZero() || r.After(at) {
					out.Lack[j]++
				}
			}
		}
		var times []float64
		for _, i := range live {
			if r := c.received[i]; !r.IsZero() && !r.After(tEnd) {
				times = append(times, float64(r.Sub(t0))/float64(iv))
				if c.bySync[i] {
					out.Synced++
				}
			}
		}
		out.Informed = len(times)
		slices.Sort(times)
		for j, l := range Levels {
			out.Times[j] = -1
			if k := s.Model(l).Target(); k <= len(times) {
				out.Times[j] = times[k-1]
			}
		}
		anomalies := c.anomalies
		c.current = 0
		c.mu.Unlock()
		if len(anomalies) > 0 {
			return fmt.Errorf("harness: broadcast %d: %v", id, anomalies)
		}
		res.Outcomes = append(res.Outcomes, out)
	}
	p1, d1, o1 := c.net.Counts()
	t1s := c.net.TCPCounts()
	res.TCP.Dials += t1s.Dials - t0s.Dials
	res.TCP.DialFailed += t1s.DialFailed - t0s.DialFailed
	res.TCP.HandshakeDelay += t1s.HandshakeDelay - t0s.HandshakeDelay
	res.TCP.Broken += t1s.Broken - t0s.Broken
	res.TCP.Segments += t1s.Segments - t0s.Segments
	res.TCP.Retransmits += t1s.Retransmits - t0s.Retransmits
	res.TCP.Busy += t1s.Busy - t0s.Busy
	if s.SyncInterval > 0 {
		c.mu.Lock()
		res.SyncPhases = append(res.SyncPhases, c.syncs)
		c.mu.Unlock()
	}
	res.Packets += p1 - p0
	res.Dropped += d1 - d0
	res.Overflow += o1 - o0
	if res.Overflow > 0 {
		return fmt.Errorf("harness: %d packets dropped on a full receive channel", res.Overflow)
	}
	return nil
}
