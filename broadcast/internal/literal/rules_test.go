package literal

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// testSeed is broadcast's tests' seed.
const testSeed = 20261201

// protocol and config are the part of broadcast.Protocol and
// broadcast.Config the tests set, with Config's rules for the failed nodes
// (⌊φ(N−1)⌋ of the N − 1 others) and the target (⌈L·M⌉, at least 1).
type protocol int

const (
	Push protocol = iota
	Pull
	PushPull
)

func (p protocol) pushes() bool { return p != Pull }
func (p protocol) pulls() bool  { return p != Push }
func (p protocol) String() string {
	return [...]string{"push", "pull", "push-pull"}[p]
}

type config struct {
	Nodes        int
	Protocol     protocol
	Fanout       int
	Loss, Failed float64
	Budget       int
	Level        float64
}

func (c config) FailedNodes() int {
	if !(c.Failed > 0) || c.Nodes < 2 {
		return 0
	}
	return int(math.Floor(c.Failed * float64(c.Nodes-1)))
}

func (c config) Live() int { return c.Nodes - c.FailedNodes() }

func (c config) Target() int {
	return max(1, int(math.Ceil(c.Level*float64(c.Live())-1e-9)))
}

func (c config) params() Params {
	return Params{N: c.Nodes, M: c.Live(), K: c.Fanout, Budget: c.Budget, Target: c.Target(),
		Eps: c.Loss, Push: c.Protocol.pushes(), Pull: c.Protocol.pulls()}
}

// TestRules runs the literal engine instrumented and checks every rule of
// broadcast's package doc on every message: distinct peers other than the sender;
// every informed live node pushes each round from the one after it was
// informed (k, or what its budget leaves), and no other node does; every
// node uninformed at the start of a round asks k peers, and a peer replies
// exactly when it was informed at the start of the round and the request
// arrived; failed nodes never act and are never informed; push–pull does
// both in one round; and the replication's T, messages and missed nodes
// are those of the trace.
func TestRules(t *testing.T) {
	cfgs := []config{
		{Nodes: 12, Protocol: Push, Fanout: 3, Loss: 0.2, Failed: 0.2, Level: 1},
		{Nodes: 12, Protocol: Push, Fanout: 2, Loss: 0.2, Failed: 0.2, Budget: 3, Level: 0.8},
		{Nodes: 12, Protocol: Pull, Fanout: 2, Loss: 0.2, Failed: 0.2, Level: 1},
		{Nodes: 12, Protocol: PushPull, Fanout: 2, Loss: 0.2, Failed: 0.2, Budget: 2, Level: 0.9},
		{Nodes: 40, Protocol: PushPull, Fanout: 20, Loss: 0.5, Level: 1},
	}
	for _, cfg := range cfgs {
		t.Run(fmt.Sprintf("%v/k=%d/B=%d", cfg.Protocol, cfg.Fanout, cfg.Budget), func(t *testing.T) {
			l := New(cfg.params(), testSeed)
			both := false
			for i := range 300 {
				var evs []Event
				l.Trace = func(ev Event) { evs = append(evs, ev) }
				rep, err := l.Run(context.Background(), i)
				if err != nil {
					t.Fatal(err)
				}
				if msg := checkTrace(cfg, l.State, evs, rep); msg != "" {
					t.Fatalf("replication %d: %s", i, msg)
				}
				pushR, reqR := map[int]bool{}, map[int]bool{}
				for _, ev := range evs {
					if ev.Kind == EvPush {
						pushR[ev.Round] = true
					} else {
						reqR[ev.Round] = true
					}
				}
				for r := range pushR {
					both = both || reqR[r]
				}
			}
			if cfg.Protocol == PushPull && !both {
				t.Error("push–pull never pushed and pulled in one round")
			}
		})
	}
}

// checkTrace checks one replication's messages against the rules (TestRules)
// and returns what is wrong, or "".
func checkTrace(cfg config, state []uint8, evs []Event, rep Rep) string {
	N, k, B := cfg.Nodes, cfg.Fanout, cfg.Budget
	failed := 0
	for _, s := range state {
		if s == StFailed {
			failed++
		}
	}
	if failed != cfg.FailedNodes() || state[0] == StFailed {
		return fmt.Sprintf("%d failed nodes (source failed: %v), want %d", failed, state[0] == StFailed, cfg.FailedNodes())
	}
	informed := make([]int, N) // round informed, −1: never
	for v := range informed {
		informed[v] = -1
	}
	informed[0] = 0
	left := make([]int, N)
	for v := range left {
		left[v] = B
	}
	last := 0
	if len(evs) > 0 {
		last = evs[len(evs)-1].Round
	}
	var counted int64
	T := -1
	if 1 >= cfg.Target() {
		T = 0
	}
	for r := 1; r <= last; r++ {
		var round []Event
		for _, ev := range evs {
			if ev.Round == r {
				round = append(round, ev)
			}
		}
		startInformed := func(v int) bool { return informed[v] >= 0 && informed[v] < r }
		peers := map[[2]int]map[int]bool{} // (from, kind) → peers
		pushes, requests := map[int]int{}, map[int]int{}
		replyDue := map[[2]int]int{}
		for _, ev := range round {
			if ev.From == ev.To || ev.To < 0 || ev.To >= N {
				return fmt.Sprintf("round %d: message %d → %d", r, ev.From, ev.To)
			}
			if state[ev.From] == StFailed {
				return fmt.Sprintf("round %d: failed node %d sent", r, ev.From)
			}
			if ev.Kind != EvReply {
				key := [2]int{ev.From, ev.Kind}
				if peers[key] == nil {
					peers[key] = map[int]bool{}
				}
				if peers[key][ev.To] {
					return fmt.Sprintf("round %d: node %d sent two messages of kind %d to %d", r, ev.From, ev.Kind, ev.To)
				}
				peers[key][ev.To] = true
			}
			switch ev.Kind {
			case EvPush:
				if !startInformed(ev.From) {
					return fmt.Sprintf("round %d: node %d pushed, informed in round %d", r, ev.From, informed[ev.From])
				}
				pushes[ev.From]++
			case EvRequest:
				if informed[ev.From] >= 0 && informed[ev.From] < r {
					return fmt.Sprintf("round %d: node %d asked, informed in round %d", r, ev.From, informed[ev.From])
				}
				requests[ev.From]++
				if !ev.Lost && startInformed(ev.To) {
					replyDue[[2]int{ev.To, ev.From}]++
				}
			case EvReply:
				if !startInformed(ev.From) {
					return fmt.Sprintf("round %d: node %d replied, informed in round %d", r, ev.From, informed[ev.From])
				}
				replyDue[[2]int{ev.From, ev.To}]--
			}
		}
		for pair, n := range replyDue {
			if n != 0 {
				return fmt.Sprintf("round %d: %d replies missing (negative: extra) from %d to %d", r, n, pair[0], pair[1])
			}
		}
		for v := range N {
			if state[v] == StFailed {
				continue
			}
			want := 0
			if cfg.Protocol.pushes() && startInformed(v) {
				want = k
				if B > 0 {
					want = min(k, left[v])
				}
			}
			if pushes[v] != want {
				return fmt.Sprintf("round %d: node %d pushed %d times, want %d", r, v, pushes[v], want)
			}
			left[v] -= want
			want = 0
			if cfg.Protocol.pulls() && !startInformed(v) {
				want = k
			}
			if requests[v] != want {
				return fmt.Sprintf("round %d: node %d asked %d peers, want %d", r, v, requests[v], want)
			}
		}
		for _, ev := range round {
			switch {
			case ev.Kind == EvPush && !ev.Lost && state[ev.To] != StFailed && informed[ev.To] < 0:
				informed[ev.To] = r
			case ev.Kind == EvReply && !ev.Lost && informed[ev.To] < 0:
				informed[ev.To] = r
			}
		}
		// The stopping rules (package doc): every request and reply, every
		// push of a budget, and without a budget the pushes of rounds
		// 1..T_L.
		for _, ev := range round {
			if ev.Kind != EvPush || B > 0 || T < 0 {
				counted++
			}
		}
		if T < 0 {
			n := 0
			for _, x := range informed {
				if x >= 0 {
					n++
				}
			}
			if n >= cfg.Target() {
				T = r
			}
		}
	}
	missed := 0
	for v := range N {
		if state[v] == StFailed && informed[v] >= 0 {
			return fmt.Sprintf("failed node %d informed", v)
		}
		if state[v] != StFailed && informed[v] < 0 {
			missed++
		}
	}
	if cfg.Protocol != Push || B == 0 {
		if T < 0 {
			return "the level was never reached without a budget"
		}
		missed = 0
	}
	for v := range N {
		if B > 0 && cfg.Protocol.pushes() && informed[v] >= 0 && left[v] != 0 {
			return fmt.Sprintf("node %d stopped with %d of its budget %d left", v, left[v], B)
		}
		if cfg.Protocol.pulls() && state[v] != StFailed && informed[v] < 0 {
			return fmt.Sprintf("live node %d stopped asking uninformed", v)
		}
	}
	if rep.T != T || rep.Messages != counted || rep.Missed != missed {
		return fmt.Sprintf("replication says T=%d, %d messages, %d missed; the trace T=%d, %d, %d", rep.T, rep.Messages, rep.Missed, T, counted, missed)
	}
	return ""
}
