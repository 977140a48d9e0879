package tree

import (
	"context"
	"math/bits"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/enum"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/internal/rng"

	"container/heap"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// JoinStrategy picks the entry point of a join.
type JoinStrategy int

const (
	JoinFirst   JoinStrategy = iota // the earliest registration under the group id
	JoinRoot                        // the root
	JoinClosest                     // the member XOR-closest to the group id
)

// Redirect picks the alternative a full node names.
type Redirect int

const (
	RedirectRandom   Redirect = iota // a uniform child
	RedirectDistance                 // the child XOR-closest to the newcomer
)

// Repair is the tree-reconstruction strategy.
type Repair int

const (
	Breakout Repair = iota
	Preservation
	Election
)

// Elect is the priority of the recursive election.
type Elect int

const (
	ElectXOR      Elect = iota // smallest XOR distance to the group id
	ElectLifetime              // longest in the tree
)

var (
	joinNames     = enum.Names[JoinStrategy]{"first", "root", "closest"}
	redirectNames = enum.Names[Redirect]{"random", "distance"}
	repairNames   = enum.Names[Repair]{"breakout", "preservation", "election"}
	electNames    = enum.Names[Elect]{"xor", "lifetime"}
)

// The String methods return the names the Parse functions take; they never
// panic.
func (j JoinStrategy) String() string { return joinNames.Name(j) }
func (r Redirect) String() string     { return redirectNames.Name(r) }
func (r Repair) String() string       { return repairNames.Name(r) }
func (e Elect) String() string        { return electNames.Name(e) }

// parse is names.Parse with the package's prefix on the error.
func parse[T ~int](names enum.Names[T], what, s string) (T, error) {
	v, err := names.Parse(what, s)
	if err != nil {
		return 0, fmt.Errorf("tree: %w", err)
	}
	return v, nil
}

// ParseJoin, ParseRedirect, ParseRepair and ParseElect map names to values.
func ParseJoin(s string) (JoinStrategy, error) { return parse(joinNames, "join strategy", s) }

// ParseRedirect maps "random" or "distance" to a Redirect.
func ParseRedirect(s string) (Redirect, error) { return parse(redirectNames, "redirect strategy", s) }

// ParseRepair maps "breakout", "preservation" or "election" to a Repair.
func ParseRepair(s string) (Repair, error) { return parse(repairNames, "repair strategy", s) }

// ParseElect maps "xor" or "lifetime" to an Elect.
func ParseElect(s string) (Elect, error) { return parse(electNames, "election priority", s) }

// Config describes one run.
type Config struct {
	Nodes    int // ≥ 1
	Degree   int // k ≥ 1
	Join     JoinStrategy
	Redirect Redirect
	Seed     uint64
	// Failure experiment (Fail).
	FailFraction float64 // in [0, 1)
	Repair       Repair
	Elect        Elect
	// Timing, in ms; zero values take the defaults.
	ArrivalMs, PingPeriodMs, PingTimeoutMs, TauMinMs, TauMaxMs, FailAtMs float64
	// SiblingRefreshMs is the period at which a parent sends each child
	// the references of its siblings and grandparent, which the recursive
	// election needs "fresh and constantly updated" (0: the default, 1000
	// ms, the ping period's default); see RepairTraffic.
	SiblingRefreshMs float64
	// LookupMessages is the cost in messages of one DHT look-up of the
	// group key (0: the default, LookupCost(Nodes) = 2⌈log₂ Nodes⌉: a
	// Kademlia look-up visits about log₂ N nodes, one request and one reply
	// each, one query at a time); valid range 0..1000.
	LookupMessages int
}

// DefaultSiblingRefreshMs is the default of Config.SiblingRefreshMs.
const DefaultSiblingRefreshMs = 1000

// LookupCost is the default cost of one DHT look-up among nodes nodes:
// 2⌈log₂ nodes⌉ messages (0 for one node).
func LookupCost(nodes int) int {
	if nodes <= 1 {
		return 0
	}
	// ⌈log₂ N⌉ = bits.Len(N − 1) for N ≥ 2 (a loop doubling 1<<h until it
	// passed N never ended for N above 2^62).
	return 2 * bits.Len(uint(nodes-1))
}

// DefaultConfig is the document's setting: 4000 nodes, k = 8, first, random.
func DefaultConfig() Config {
	return Config{Nodes: 4000, Degree: 8, Join: JoinFirst, Redirect: RedirectRandom, Seed: 1, Repair: Election}
}

func (c *Config) defaults() {
	set := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	set(&c.ArrivalMs, 100)
	set(&c.PingPeriodMs, 1000)
	set(&c.PingTimeoutMs, 200)
	set(&c.TauMinMs, 10)
	set(&c.TauMaxMs, 20)
	set(&c.FailAtMs, 5000)
	set(&c.SiblingRefreshMs, DefaultSiblingRefreshMs)
	if c.LookupMessages == 0 {
		c.LookupMessages = LookupCost(c.Nodes)
	}
}

// FieldError is an invalid field of Config or Experiment; Field names it (Config.Nodes).
// It is one type with tree's, sim's and chain's FieldError.
type FieldError = fielderr.Error

// The numeric parameters of Config and Experiment, each stated once:
// Validate checks them and the command line writes its flags' help from
// them.
var (
	Nodes        = gossip.Param{Field: "Nodes", Symbol: "N", Meaning: "number of nodes", Range: "1..4194304", Lo: gossip.AtLeast(1), Hi: gossip.AtMost(1 << 22)}
	Degree       = gossip.Param{Field: "Degree", Meaning: "k, the most children a node accepts", Range: "1..65536", Lo: gossip.AtLeast(1), Hi: gossip.AtMost(1 << 16)}
	FailFraction = gossip.Param{Field: "FailFraction", Meaning: "fraction of nodes failing at once", Range: "[0, 1)", Lo: gossip.AtLeast(0), Hi: gossip.Below(1)}
	Seeds        = gossip.Param{Field: "Seeds", Meaning: "number of seeds (runs) to aggregate", Range: "1..10^6", Lo: gossip.AtLeast(1), Hi: gossip.AtMost(MaxSeeds)}
)

// Validate checks the configuration; a problem is a *FieldError.
func (c Config) Validate() error {
	switch {
	case !Nodes.In(float64(c.Nodes)):
		return Nodes.CheckInt("tree", "Config", c.Nodes)
	case !Degree.In(float64(c.Degree)):
		return Degree.CheckInt("tree", "Config", c.Degree)
	case !FailFraction.In(c.FailFraction):
		return FailFraction.Check("tree", "Config", c.FailFraction)
	case c.FailFraction > 0 && c.Nodes-int(math.Round(c.FailFraction*float64(c.Nodes))) < 2:
		// N − round(f·N) ≥ 2 exactly when f·N < N − 1.5 (Round takes
		// halves away from zero): the valid range is [0, (N − 1.5)/N),
		// only 0 where N < 2.
		valid := fmt.Sprintf("valid range [0, %g)", (float64(c.Nodes)-1.5)/float64(c.Nodes))
		if c.Nodes < 2 {
			valid = "only 0 is valid"
		}
		return &FieldError{Pkg: "tree", Field: "Config.FailFraction", Msg: fmt.Sprintf("%g: leaves fewer than 2 of N = %d nodes to repair a tree from; %s", c.FailFraction, c.Nodes, valid)}
	case c.Degree == 1 && c.Nodes > 20000:
		return &FieldError{Pkg: "tree", Field: "Config.Degree", Msg: fmt.Sprintf("1 with N = %d: a degree-1 tree is a chain, each join walks it (O(N²) events); with k = 1, N ≤ 20000", c.Nodes)}
	case !joinNames.Valid(c.Join):
		return &FieldError{Pkg: "tree", Field: "Config.Join", Msg: fmt.Sprintf("%v: not a join strategy", c.Join)}
	case !redirectNames.Valid(c.Redirect):
		return &FieldError{Pkg: "tree", Field: "Config.Redirect", Msg: fmt.Sprintf("%v: not a redirect strategy", c.Redirect)}
	case !repairNames.Valid(c.Repair):
		return &FieldError{Pkg: "tree", Field: "Config.Repair", Msg: fmt.Sprintf("%v: not a repair strategy", c.Repair)}
	case !electNames.Valid(c.Elect):
		return &FieldError{Pkg: "tree", Field: "Config.Elect", Msg: fmt.Sprintf("%v: not an election priority", c.Elect)}
	case c.LookupMessages < 0 || c.LookupMessages > 1000:
		return &FieldError{Pkg: "tree", Field: "Config.LookupMessages", Msg: fmt.Sprintf("%d: valid range 0 (the default, 2⌈log₂ Nodes⌉) to 1000", c.LookupMessages)}
	}
	return c.checkTimings()
}

// Metrics are the indicators of the document, Sec. V.
type Metrics struct {
	Nodes         int     `json:"nodes"`          // nodes alive and in the tree
	Depth         int     `json:"depth"`          // δ: longest root–leaf path
	MessagesMean  float64 `json:"messages_mean"`  // ν averaged over alive nodes
	MessagesMax   int     `json:"messages_max"`   // largest ν
	PropagationMs float64 `json:"propagation_ms"` // π: last arrival of a notification from the root
	Reach99Ms     float64 `json:"reach99_ms"`     // time until 99 % of the tree has it
	// Failure and repair: Failed, RepairMsgs, Reconnected, ReconnectMs and
	// Pings are zero in Build's metrics; JoinRequests and MessagesTotal
	// count from the start of the build, so after a repair they include it.
	Failed        int     `json:"failed"`
	RepairMsgs    int     `json:"repair_messages"` // control messages delivered during repair
	Reconnected   bool    `json:"reconnected"`     // every survivor in one tree
	ReconnectMs   float64 `json:"reconnect_ms"`    // failure → last survivor reattached
	Pings         int64   `json:"pings"`           // ping messages (not in ν)
	JoinRequests  int     `json:"join_requests"`   // join requests delivered in all
	MessagesTotal int     `json:"messages_total"`  // Σ ν
	// Lookups counts the DHT look-ups of joins from the start of the build
	// (one per join attempt that looks up an entry point); their messages
	// (Lookups × Config.LookupMessages) go to the DHT's nodes and are in
	// no ν. Traffic is the repair's messages by kind (zero in Build's
	// metrics).
	Lookups int           `json:"lookups"`
	Traffic RepairTraffic `json:"traffic"`
}

// BuildTraffic is every message of the tree from the start of the build,
// by the counting rules of RepairTraffic: Σ ν and the DHT look-ups'
// messages (lookupMessages each).
func (m Metrics) BuildTraffic(lookupMessages int) int64 {
	return int64(m.MessagesTotal) + int64(m.Lookups)*int64(lookupMessages)
}

// RepairTraffic is the repair's messages by kind, the counting rules of
// docs/MODEL.md §5: Join, the join requests and answers delivered during
// the repair; Break, the break notices (breakout); Election, the bully
// election's messages and the two of each winner's attachment; Upkeep,
// the sibling references the election needs (Changes, one to every other
// live child of a parent whose children change during the repair, and
// Refresh, one a refresh period to every live node with a live sibling,
// over the periods from one before the failure to the reconnection; zero
// under breakout and preservation, which need no sibling references);
// Lookups, the DHT look-ups of the re-joins, and LookupMessages their
// messages. Delivered is what reached group nodes (in ν): Join + Break +
// Election + Upkeep.
type RepairTraffic struct {
	Join           int   `json:"join"`
	Break          int   `json:"break"`
	Election       int   `json:"election"`
	Changes        int   `json:"upkeep_changes"`
	Refresh        int   `json:"upkeep_refresh"`
	Lookups        int   `json:"lookups"`
	LookupMessages int64 `json:"lookup_messages"`
}

// Upkeep is the sibling-reference upkeep, Changes + Refresh.
func (t RepairTraffic) Upkeep() int { return t.Changes + t.Refresh }

// Delivered is the repair's messages delivered to group nodes (in ν).
func (t RepairTraffic) Delivered() int { return t.Join + t.Break + t.Election + t.Upkeep() }

// Total is every message of the repair, the DHT's included.
func (t RepairTraffic) Total() int64 { return int64(t.Delivered()) + t.LookupMessages }

// event kinds
const (
	evArrive = iota
	evJoinRequest
	evJoinReply
	evJoinTimeout
	evDetectParent
	evDetectChild
	evBreak
	evElectionDone
)

type event struct {
	t    float64
	seq  uint64
	kind int
	a, b int32 // meaning depends on kind
	alt  int32 // join reply: −1 accepted, else the alternative; timeout: the request's hop
	gen  int32 // join attempt generation (stale replies are ignored)
}

type queue []event

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].t != q[j].t {
		return q[i].t < q[j].t
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(event)) }
func (q *queue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// Sim is one simulated group.
type Sim struct {
	ctx      context.Context // checked by run; nil: never cancelled
	cfg      Config
	r        *rng.Rand
	now      float64
	seq      uint64
	q        queue
	group    uint64
	id       []uint64
	parent   []int32
	children [][]int32
	alive    []bool
	reg      []bool    // registered under the group id (believes it is connected)
	since    []float64 // time of (re)connection, for the lifetime priority
	msgs     []int32   // ν
	phase    []float64 // ping phase
	gen      []int32   // join attempt generation per node (stale replies are ignored)
	hop      []int32   // request count per node (a timeout is for one request)
	joining  []bool
	breaking []bool // a break notice from the parent is on its way
	root     int32
	byGroup  []int32 // nodes by XOR distance to the group id
	regOrder []int32 // registrations in time order (may hold stale entries)
	// failure bookkeeping
	// CheckEvery makes run verify the invariants after every event batch.
	CheckEvery   bool
	failing      bool
	repairMsgs   int
	joinRequests int
	pings        int64
	lookups      int
	traffic      RepairTraffic
	lastChange   float64
	electing     map[int32]bool // failed nodes whose election has started
}

// New prepares a group of cfg.Nodes nodes; Build then runs the joins.
func New(cfg Config) (*Sim, error) { return newSim(context.Background(), cfg) }

// newSim is New, checking ctx (if not nil) between the steps that take
// time at a large N: at N = 4·10^6 ordering the nodes by distance to the
// group id took 3.4–6 s with sort.Slice on a loaded 2-core machine,
// uninterruptible (a SIGINT then waited for the 2 s grace); the radix sort
// takes about 0.5 s there, and a cancel stops newSim within one of its
// four passes or 2^16 queued arrivals.
func newSim(ctx context.Context, cfg Config) (*Sim, error) {
	cfg.defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := cfg.Nodes
	s := &Sim{cfg: cfg, r: rng.NewStream(cfg.Seed, 0), root: 0,
		id: make([]uint64, n), parent: make([]int32, n), children: make([][]int32, n), alive: make([]bool, n),
		reg: make([]bool, n), since: make([]float64, n), msgs: make([]int32, n),
		phase: make([]float64, n), gen: make([]int32, n), hop: make([]int32, n), breaking: make([]bool, n), joining: make([]bool, n), electing: map[int32]bool{}}
	s.group = s.r.Uint64()
	for v := range n {
		s.id[v] = s.r.Uint64()
		s.parent[v] = -1
		s.alive[v] = true
		s.phase[v] = s.r.Float64() * cfg.PingPeriodMs
	}
	var err error
	if s.byGroup, err = byDistance(ctx, s.id, s.group); err != nil {
		return nil, err
	}
	// Node 0 creates the group.
	s.register(0)
	s.q = make(queue, 0, n)
	for v := 1; v < n; v++ {
		if v%(1<<16) == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		s.push(event{t: float64(v) * cfg.ArrivalMs, kind: evArrive, a: int32(v)})
	}
	return s, nil
}

// byDistance returns the nodes 0..len(id)−1 in increasing order of their
// XOR distance id[v] ^ group: a least-significant-digit radix sort, 16
// bits a pass, ctx (if not nil) checked before each pass. For distinct
// distances (ids are 64 random bits: two alike among 4·10^6 nodes with
// chance about 4·10^-7) the order is the one sort.Slice gave.
func byDistance(ctx context.Context, id []uint64, group uint64) ([]int32, error) {
	n := len(id)
	idx, tmp := make([]int32, n), make([]int32, n)
	key, tmpKey := make([]uint64, n), make([]uint64, n)
	for v := range n {
		idx[v], key[v] = int32(v), id[v]^group
	}
	var count [1 << 16]int
	for shift := 0; shift < 64; shift += 16 {
		if ctx != nil {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		clear(count[:])
		for _, k := range key {
			count[k>>shift&0xffff]++
		}
		sum := 0
		for d, c := range count {
			count[d], sum = sum, sum+c
		}
		for i, k := range key {
			d := k >> shift & 0xffff
			tmp[count[d]], tmpKey[count[d]] = idx[i], k
			count[d]++
		}
		idx, tmp, key, tmpKey = tmp, idx, tmpKey, key
	}
	return idx, nil
}

func (s *Sim) push(e event) {
	e.seq = s.seq
	s.seq++
	heap.Push(&s.q, e)
}

func (s *Sim) delay() float64 {
	c := s.cfg
	return c.TauMinMs + s.r.Float64()*(c.TauMaxMs-c.TauMinMs) + c.TauMinMs + s.r.Float64()*(c.TauMaxMs-c.TauMinMs)
}

// Kinds of control messages, for the repair's traffic by kind.
const (
	msgJoin = iota
	msgBreak
	msgElection
	msgUpkeep
)

// deliver counts a control message of a kind arriving at v.
func (s *Sim) deliver(v int32, kind int) {
	if !s.alive[v] {
		return
	}
	s.msgs[v]++
	if s.failing {
		s.repairMsgs++
		switch kind {
		case msgJoin:
			s.traffic.Join++
		case msgBreak:
			s.traffic.Break++
		case msgElection:
			s.traffic.Election++
		default:
			s.traffic.Changes++
		}
	}
}

// siblingsChanged: p's children changed during an election repair; p
// sends the new references to each of its live children other than
// except (−1: to all).
func (s *Sim) siblingsChanged(p, except int32) {
	if !s.failing || s.cfg.Repair != Election || p < 0 || !s.alive[p] {
		return
	}
	for _, c := range s.children[p] {
		if c != except && s.alive[c] && s.parent[c] == p {
			s.deliver(c, msgUpkeep)
		}
	}
}

// connected reports whether v reaches the root through alive nodes.
func (s *Sim) connected(v int32) bool {
	for steps := 0; v >= 0; steps++ {
		if !s.alive[v] || steps > len(s.id) {
			return false
		}
		if v == s.root {
			return true
		}
		v = s.parent[v]
	}
	return false
}

// register records v under the group identifier (appended to the list).
func (s *Sim) register(v int32) {
	s.reg[v] = true
	s.regOrder = append(s.regOrder, v)
}

// entry returns the entry point for a newcomer, or −1 if none exists.
func (s *Sim) entry(newcomer int32) int32 {
	switch s.cfg.Join {
	case JoinRoot:
		if s.alive[s.root] && s.root != newcomer {
			return s.root
		}
		return -1
	case JoinFirst:
		// The first entry of the member list under the group key that is
		// still valid; stale entries at the front are dropped.
		for i, v := range s.regOrder {
			if v != newcomer && s.alive[v] && s.reg[v] && s.connected(v) && !s.inSubtree(v, newcomer) {
				if i > 0 && !s.reg[s.regOrder[0]] {
					s.regOrder = s.regOrder[i:]
				}
				return v
			}
		}
		return -1
	}
	for _, v := range s.byGroup {
		if v != newcomer && s.alive[v] && s.reg[v] && s.connected(v) && !s.inSubtree(v, newcomer) {
			return v
		}
	}
	return -1
}

// inSubtree reports whether v lies in the subtree of top.
func (s *Sim) inSubtree(v, top int32) bool {
	for steps := 0; v >= 0 && steps <= len(s.id); steps++ {
		if v == top {
			return true
		}
		v = s.parent[v]
	}
	return false
}

// startJoin sends a join request from v to its entry point.
func (s *Sim) startJoin(v int32) {
	s.gen[v]++
	s.joining[v] = true
	s.lookups++
	if s.failing {
		s.traffic.Lookups++
	}
	e := s.entry(v)
	if e < 0 {
		// No tree to join: v becomes the root (only after the root failed).
		s.becomeRoot(v)
		return
	}
	s.sendJoin(v, e)
}

// sendJoin sends one join request; if no answer comes within the longest
// round trip plus the ping timeout, the newcomer starts over.
func (s *Sim) sendJoin(v, target int32) {
	s.hop[v]++
	s.push(event{t: s.now + s.delay(), kind: evJoinRequest, a: v, b: target, gen: s.gen[v]})
	s.push(event{t: s.now + 4*s.cfg.TauMaxMs + s.cfg.PingTimeoutMs, kind: evJoinTimeout, a: v, gen: s.gen[v], alt: s.hop[v]})
}

func (s *Sim) becomeRoot(v int32) {
	s.root = v
	s.parent[v] = -1
	s.joining[v] = false
	s.register(v)
	s.since[v] = s.now
	s.lastChange = s.now
}

// alternative is the child a full node names (Algorithm 2).
func (s *Sim) alternative(t, newcomer int32) int32 {
	ch := s.children[t]
	if s.cfg.Redirect == RedirectRandom {
		return ch[s.r.Intn(uint32(len(ch)))]
	}
	best := ch[0]
	for _, c := range ch[1:] {
		if s.id[c]^s.id[newcomer] < s.id[best]^s.id[newcomer] {
			best = c
		}
	}
	return best
}

func (s *Sim) handle(e event) {
	switch e.kind {
	case evArrive:
		s.startJoin(e.a)
	case evJoinRequest: // Algorithm 2 at b for newcomer a
		n, t := e.a, e.b
		if !s.alive[t] || !s.alive[n] {
			return // unanswered: the newcomer's timeout fires
		}
		s.deliver(t, msgJoin)
		s.joinRequests++
		if len(s.children[t]) < s.cfg.Degree {
			s.children[t] = append(s.children[t], n) // numChildren + 1 now
			s.siblingsChanged(t, -1)
			s.push(event{t: s.now + s.delay(), kind: evJoinReply, a: n, b: t, alt: -1, gen: e.gen})
			return
		}
		s.push(event{t: s.now + s.delay(), kind: evJoinReply, a: n, b: t, alt: s.alternative(t, n), gen: e.gen})
	case evJoinReply: // Algorithm 1 at a
		n := e.a
		if !s.alive[n] || e.gen != s.gen[n] || !s.joining[n] {
			if e.alt < 0 && s.alive[e.b] { // a stale acceptance: give the slot back
				s.removeChild(e.b, n)
				s.siblingsChanged(e.b, -1)
			}
			return
		}
		s.deliver(n, msgJoin)
		if e.alt >= 0 {
			s.sendJoin(n, e.alt)
			return
		}
		if !slices.Contains(s.children[e.b], n) {
			// The acceptor dropped its children (it broke out) while the
			// acceptance was on its way: start over.
			s.startJoin(n)
			return
		}
		s.gen[n]++ // cancels the pending timeout
		s.joining[n] = false
		s.parent[n] = e.b
		s.register(n)
		s.since[n] = s.now
		s.lastChange = s.now
		s.reregisterSubtree(n)
		if !s.alive[e.b] {
			s.scheduleDetect(n)
		}
	case evJoinTimeout:
		if s.alive[e.a] && e.gen == s.gen[e.a] && e.alt == s.hop[e.a] && s.joining[e.a] {
			s.startJoin(e.a)
		}
	case evDetectParent:
		s.detectParent(e.a, e.b)
	case evDetectChild:
		s.detectChild(e.a, e.b)
	case evBreak:
		v := e.a
		if !s.alive[v] || s.parent[v] != e.b {
			return
		}
		s.breaking[v] = false
		s.deliver(v, msgBreak)
		s.breakOut(v)
	case evElectionDone:
		s.replace(e.a, s.parent[e.a])
	}
}

func (s *Sim) removeChild(p, c int32) {
	ch := s.children[p]
	if i := slices.Index(ch, c); i >= 0 {
		s.children[p] = slices.Delete(ch, i, i+1)
	}
}

// reregisterSubtree marks a reattached (preserved) subtree as registered.
func (s *Sim) reregisterSubtree(v int32) {
	for _, c := range s.children[v] {
		if s.alive[c] && s.parent[c] == v {
			if !s.reg[c] {
				s.register(c)
			}
			s.reregisterSubtree(c)
		}
	}
}

func (s *Sim) deregisterSubtree(v int32) {
	s.reg[v] = false
	for _, c := range s.children[v] {
		if s.parent[c] == v {
			s.deregisterSubtree(c)
		}
	}
}

// run processes events until the queue is empty. With CheckEvery set it
// checks the structural invariants after every batch of events sharing a
// virtual time, and panics on a violation (tests).
func (s *Sim) run() error {
	for n := 0; s.q.Len() > 0; n++ {
		if n%4096 == 0 && s.ctx != nil {
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
		e := heap.Pop(&s.q).(event)
		s.now = e.t
		s.handle(e)
		if s.CheckEvery && (s.q.Len() == 0 || s.q[0].t != s.now) {
			if err := s.check(true); err != nil {
				panic(fmt.Sprintf("tree: at t = %g ms: %v", s.now, err))
			}
		}
	}
	return nil
}

// Build runs the joins of every node and returns the tree's metrics. It
// checks ctx while it prepares the group (between the passes of the node
// ordering and every 2^16 arrivals queued) and every few thousand events
// (here and in a later Fail), so that a large tree stops soon after a
// cancel. A nil ctx is refused (New, for
// a tree built without a context, never looks at one).
func Build(ctx context.Context, cfg Config) (*Sim, Metrics, error) {
	if err := ctxguard.Check("tree", ctx); err != nil {
		return nil, Metrics{}, err
	}
	s, err := newSim(ctx, cfg)
	if err != nil {
		return nil, Metrics{}, err
	}
	s.ctx = ctx
	if err := s.run(); err != nil {
		return nil, Metrics{}, err
	}
	if err := s.check(false); err != nil {
		return nil, Metrics{}, fmt.Errorf("tree: after building: %w", err)
	}
	return s, s.metrics(), nil
}

// Check verifies the invariants of a settled tree: parent and child links
// agree, no node has more than k children, the root is alive and
// parentless, and following parents from any node ends (no cycle).
func (s *Sim) Check() error {
	if s == nil {
		return errors.New("tree: Check: nil simulation")
	}
	if n := len(s.id); n == 0 || len(s.alive) != n || len(s.parent) != n || len(s.children) != n {
		return errors.New("tree: Check: a simulation not made by Build (the zero Sim holds no tree)")
	}
	if err := s.check(false); err != nil {
		return fmt.Errorf("tree: %w", err)
	}
	return nil
}

// check is Check; inFlight tolerates a child slot reserved for a join whose
// acceptance is still on its way.
func (s *Sim) check(inFlight bool) error {
	for v := range s.id {
		if !s.alive[v] {
			continue
		}
		if len(s.children[v]) > s.cfg.Degree {
			return fmt.Errorf("node %d has %d children, k = %d", v, len(s.children[v]), s.cfg.Degree)
		}
		for _, c := range s.children[v] {
			if s.alive[c] && s.parent[c] != int32(v) && !(inFlight && s.joining[c]) {
				return fmt.Errorf("node %d lists %d as a child, whose parent is %d", v, c, s.parent[c])
			}
		}
		for u, steps := int32(v), 0; u >= 0; u, steps = s.parent[u], steps+1 {
			if steps > len(s.id) {
				return fmt.Errorf("a cycle through node %d", v)
			}
		}
		if p := s.parent[v]; p >= 0 && s.alive[p] && !slices.Contains(s.children[p], int32(v)) && !(inFlight && s.breaking[v]) {
			return fmt.Errorf("node %d's parent %d does not list it", v, p)
		}
	}
	if !inFlight && (!s.alive[s.root] || s.parent[s.root] != -1) {
		return errors.New("the root is not a live parentless node")
	}
	return nil
}

// AllConnected reports whether every alive node is in the root's tree.
func (s *Sim) AllConnected() bool {
	if s == nil {
		return false
	}
	for v := range s.id {
		if s.alive[v] && !s.connected(int32(v)) {
			return false
		}
	}
	return true
}

// metrics measures the tree: depth, ν, and a notification's propagation.
func (s *Sim) metrics() Metrics {
	m := Metrics{}
	depth := make([]int, len(s.id))
	arrive := make([]float64, len(s.id))
	var times []float64
	// breadth-first from the root over alive nodes
	queue := []int32{s.root}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		m.Nodes++
		times = append(times, arrive[v])
		if depth[v] > m.Depth {
			m.Depth = depth[v]
		}
		for _, c := range s.children[v] {
			if s.alive[c] && s.parent[c] == v {
				depth[c] = depth[v] + 1
				arrive[c] = arrive[v] + s.delay()
				queue = append(queue, c)
			}
		}
	}
	sort.Float64s(times)
	m.PropagationMs = times[len(times)-1]
	m.Reach99Ms = times[int(math.Ceil(0.99*float64(len(times))))-1]
	alive := 0
	for v := range s.id {
		if s.alive[v] {
			alive++
			m.MessagesMean += float64(s.msgs[v])
			m.MessagesTotal += int(s.msgs[v])
			m.MessagesMax = max(m.MessagesMax, int(s.msgs[v]))
		}
	}
	m.MessagesMean /= float64(alive)
	m.JoinRequests = s.joinRequests
	m.Lookups = s.lookups
	return m
}

// beats orders election candidates: true if a beats b. With lifetime
// priority the older member wins; otherwise, and on a tie, the smaller XOR
// distance of its identifier to the group identifier.
func (s *Sim) beats(a, b int32) bool {
	if s.cfg.Elect == ElectLifetime {
		if s.since[a] != s.since[b] {
			return s.since[a] < s.since[b]
		}
	}
	return s.id[a]^s.group < s.id[b]^s.group
}
