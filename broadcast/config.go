package broadcast

import (
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/enum"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// Protocol is the broadcast protocol.
type Protocol int

const (
	// Push: informed nodes send the rumour to Fanout peers a round.
	Push Protocol = iota
	// Pull: uninformed nodes ask Fanout peers a round.
	Pull
	// PushPull: both, in the same round.
	PushPull
)

var protocolNames = enum.Names[Protocol]{"push", "pull", "push-pull"}

// ProtocolNames are the names of the protocols, in order.
func ProtocolNames() []string { return append([]string(nil), protocolNames...) }

func (p Protocol) String() string { return protocolNames.Name(p) }

// ParseProtocol parses push, pull or push-pull.
func ParseProtocol(s string) (Protocol, error) {
	p, err := protocolNames.Parse("protocol", s)
	if err != nil {
		return 0, fmt.Errorf("broadcast: %w", err)
	}
	return p, nil
}

// pushes and pulls report whether the protocol pushes and pulls.
func (p Protocol) pushes() bool { return p == Push || p == PushPull }
func (p Protocol) pulls() bool  { return p == Pull || p == PushPull }

// MaxNodes bounds Config.Nodes: 2^40 keeps N·Fanout·Budget and the costs
// in float64's exact integers.
const MaxNodes = 1 << 40

// MaxBudget bounds Config.Budget.
const MaxBudget = 1 << 20

// Config is what to compute: the protocol, the network and the questions
// (the level, the deadline and the confidence).
type Config struct {
	// Nodes is N, 2 ≤ N ≤ MaxNodes, live and failed.
	Nodes int
	// Protocol is push, pull or push–pull.
	Protocol Protocol
	// Fanout is k, the distinct peers a node sends to (push) or asks
	// (pull) each round: 1 ≤ k < M, the number of live nodes.
	Fanout int
	// Loss is ε in [0, 1), the probability that one one-way message is
	// lost.
	Loss float64
	// Failed is φ in [0, 1): ⌊φ·(N−1)⌋ nodes other than the source are
	// down. At least one live node besides the source must remain.
	Failed float64
	// Budget is B, the transmits a node makes in all (push only; 0: no
	// limit). MemberlistBudget gives memberlist's rule.
	Budget int
	// Level is L in (0, 1]: T_L is the first round at which ⌈L·M⌉ live
	// nodes are informed.
	Level float64
	// Deadline D > 0, in rounds, asks for P(T_L ≤ D) and whether it is at
	// least Confidence; 0 asks for neither.
	Deadline float64
	// Confidence is P in (0, 1) for the smallest deadline met with
	// probability P, and for feasibility; 0 means 0.95.
	Confidence float64
	// MaxMiss, in (0, 1) (0: none), is a target on PMiss: a setting is
	// feasible only when the upper end of PMiss's interval is at most
	// MaxMiss (Answer.Feasible).
	MaxMiss float64
	// Interval, in seconds (0: none), is the length of one round; answers
	// are then also given in seconds.
	Interval float64
	// MessageBytes (0: none) is the size of one message; answers then give
	// the bandwidth per live node.
	MessageBytes int
	// Time is the clock (async.go): Rounds (the zero value) or Async, in
	// which times, Deadline and Interval are in gossip intervals.
	Time Time
	// SyncInterval, in seconds (0: none), is the anti-entropy interval as
	// configured (memberlist's PushPullInterval, before PushPullScale):
	// answers then give the repair of the misses (RepairCurve).
	SyncInterval float64
	// SyncFail, in [0, 1) (0: none), is the chance that one sync fails as
	// a whole, independently of the others: memberlist's push–pull is a
	// TCP stream, which a packet loss delays rather than loses, but a
	// dial whose handshake outlasts TCPTimeout exchanges nothing. The
	// chance depends on the loss and on TCP's timers, not on the model,
	// so it is the caller's: docs/MODEL.md §6 (Syncs under packet loss)
	// gives it measured with the real library (a LAN's 10 s TCPTimeout:
	// about 0.017 at ε = 0.2 and 0.068 at 0.3) and by hand. Only the
	// repair reads it.
	SyncFail float64
}

// FieldError is an invalid field (the one type of every package,
// internal/fielderr).
type FieldError = fielderr.Error

func fieldErr(field, format string, a ...any) error {
	return &FieldError{Pkg: "broadcast", Field: field, Msg: fmt.Sprintf(format, a...)}
}

// FailedNodes is ⌊φ·(N−1)⌋, the nodes that are down.
func (c Config) FailedNodes() int {
	if !(c.Failed > 0) || c.Nodes < 2 {
		return 0
	}
	return int(math.Floor(c.Failed * float64(c.Nodes-1)))
}

// Live is M = N − FailedNodes(), the live nodes, the source included.
func (c Config) Live() int { return c.Nodes - c.FailedNodes() }

// Target is ⌈L·M⌉, the informed live nodes T_L waits for (at least 1), with
// a margin for the rounding of L·M.
func (c Config) Target() int {
	return max(1, int(math.Ceil(c.Level*float64(c.Live())-1e-9)))
}

// ConfidenceOrDefault is Confidence, or 0.95 when it is 0.
func (c Config) ConfidenceOrDefault() float64 {
	if c.Confidence == 0 {
		return 0.95
	}
	return c.Confidence
}

// The numeric parameters of Config, each stated once: Validate checks
// them and a program (the command line) writes its help from them.
var (
	Nodes        = gossip.Param{Field: "Nodes", Symbol: "N", Meaning: "number of nodes, live and failed", Range: "2..2^40", Lo: gossip.AtLeast(2), Hi: gossip.AtMost(MaxNodes)}
	Fanout       = gossip.Param{Field: "Fanout", Symbol: "k", Meaning: "fanout, the distinct peers a node pushes to or asks each round", Range: "1 ≤ k < the live nodes", Lo: gossip.AtLeast(1)}
	Failed       = gossip.Param{Field: "Failed", Symbol: "φ", Meaning: "fraction of failed nodes: ⌊φ·(N−1)⌋ nodes other than the source are down", Range: "[0, 1)", Lo: gossip.AtLeast(0), Hi: gossip.Below(1)}
	Budget       = gossip.Param{Field: "Budget", Symbol: "B", Meaning: "transmit budget of push", Range: "0..1048576 (0: no limit)", Lo: gossip.AtLeast(0), Hi: gossip.AtMost(MaxBudget)}
	Level        = gossip.Param{Field: "Level", Symbol: "L", Meaning: "coverage level", Range: "(0, 1]", Lo: gossip.Above(0), Hi: gossip.AtMost(1)}
	Deadline     = gossip.Param{Field: "Deadline", Symbol: "D", Meaning: "deadline", Unit: "rounds", Range: "≥ 0 (0: none)", Lo: gossip.AtLeast(0)}
	MaxMiss      = gossip.Param{Field: "MaxMiss", Meaning: "largest acceptable chance that some live node is never informed (a setting is feasible when the upper end of p_miss's interval is at most it)", Range: "(0, 1)", Default: "none", Lo: gossip.Above(0), Hi: gossip.Below(1)}
	Confidence   = gossip.Param{Field: "Confidence", Symbol: "P", Meaning: "confidence", Range: "(0, 1) (0: 0.95)", Default: "0.95", Lo: gossip.AtLeast(0), Hi: gossip.Below(1)}
	Interval     = gossip.Param{Field: "Interval", Meaning: "length of a round", Unit: "seconds", Range: "≥ 0 (0: none)", Lo: gossip.AtLeast(0)}
	SyncInterval = gossip.Param{Field: "SyncInterval", Meaning: "anti-entropy sync interval, before memberlist's scaling above 32 nodes", Unit: "seconds", Range: "0..1e9 (0: none)", Lo: gossip.AtLeast(0), Hi: gossip.AtMost(1e9)}
	SyncFail     = gossip.Param{Field: "SyncFail", Meaning: "chance that one anti-entropy sync fails as a whole (its TCP dial or a read outlasting TCPTimeout)", Range: "[0, 1) (0: none)", Lo: gossip.AtLeast(0), Hi: gossip.Below(1)}
	MessageBytes = gossip.Param{Field: "MessageBytes", Meaning: "bytes of one message", Range: "0..2^30 (0: none)", Lo: gossip.AtLeast(0), Hi: gossip.AtMost(1 << 30)}
)

// Validate checks every field; its error is a *FieldError naming the field
// (Config.Fanout) and the valid range.
func (c Config) Validate() error {
	if err := Nodes.CheckInt("broadcast", "Config", c.Nodes); err != nil {
		return err
	}
	switch {
	case !protocolNames.Valid(c.Protocol):
		return fieldErr("Config.Protocol", "= %d: not a protocol", int(c.Protocol))
	case !timeNames.Valid(c.Time):
		return fieldErr("Config.Time", "= %d: not a clock (rounds or async)", int(c.Time))
	case !Failed.In(c.Failed):
		return Failed.Check("broadcast", "Config", c.Failed)
	case c.Live() < 2:
		return fieldErr("Config.Failed", "= %g: leaves only the source live among N = %d (need ⌊φ·(N−1)⌋ ≤ N − 2)", c.Failed, c.Nodes)
	case c.Fanout < 1 || c.Fanout >= c.Live():
		return fieldErr("Config.Fanout", "= %d: valid range 1..%d (fewer than the %d live nodes)", c.Fanout, c.Live()-1, c.Live())
	case !gossip.ValidLoss(c.Loss):
		return gossip.Loss.Check("broadcast", "Config", c.Loss)
	case !Budget.In(float64(c.Budget)):
		return Budget.CheckInt("broadcast", "Config", c.Budget)
	case c.Budget > 0 && !c.Protocol.pushes():
		return fieldErr("Config.Budget", "= %d: a budget limits pushes; %v does not push", c.Budget, c.Protocol)
	}
	for _, p := range []struct {
		param gossip.Param
		v     float64
	}{{Level, c.Level}, {Deadline, c.Deadline}, {Confidence, c.Confidence}, {Interval, c.Interval}, {SyncInterval, c.SyncInterval}, {SyncFail, c.SyncFail}} {
		if err := p.param.Check("broadcast", "Config", p.v); err != nil {
			return err
		}
	}
	if c.MaxMiss != 0 {
		if err := MaxMiss.Check("broadcast", "Config", c.MaxMiss); err != nil {
			return err
		}
	}
	return MessageBytes.CheckInt("broadcast", "Config", c.MessageBytes)
}

// DefaultRetransmitMult is memberlist's default RetransmitMult.
const DefaultRetransmitMult = 4

// MemberlistBudget is memberlist's retransmit limit for a cluster of nodes
// members, mult·⌈log10(nodes+1)⌉ (memberlist's retransmitLimit), computed
// in integers: ⌈log10(N+1)⌉ is the number of decimal digits of N ≥ 1.
// It returns 0 for nodes < 1 or mult < 1.
func MemberlistBudget(nodes, mult int) int {
	if nodes < 1 || mult < 1 {
		return 0
	}
	digits := 0
	for n := nodes; n > 0; n /= 10 {
		digits++
	}
	return mult * digits
}

// rounds is the number of rounds a node pushes with a budget of b
// transmits and fanout k: ⌈b/k⌉ (the last may send fewer than k); 0 for
// no budget.
func rounds(b, k int) int {
	if b <= 0 {
		return 0
	}
	return (b + k - 1) / k
}
