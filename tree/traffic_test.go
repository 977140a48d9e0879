package tree

import (
	"context"
	"math"
	"testing"
)

// handTree builds a tree of cfg.Nodes nodes with joins far apart (none
// overlap), so its shape follows from the join rule alone.
func handTree(t *testing.T, cfg Config) *Sim {
	t.Helper()
	cfg.ArrivalMs = 1000
	s, _, err := Build(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pingAt sets v's ping phase so that it pings offset ms after the
// failure that FailNodes will make (FailAtMs after the build's last event),
// and every 1000 ms after that.
func pingAt(s *Sim, v int32, offset float64) {
	s.phase[v] = math.Mod(s.now+s.cfg.FailAtMs+offset, s.cfg.PingPeriodMs)
}

// TestRepairTrafficByHand pins each counting rule of the repair's traffic
// (docs/MODEL.md §5) on small trees whose repair can be followed by hand.
// The ping phases are set so that the failed node's parent notices first
// (at 200 ms, its ping at 0 + the 200 ms timeout) and its orphan later (at
// 700 ms), which fixes the order of events.
func TestRepairTrafficByHand(t *testing.T) {
	t.Parallel()
	t.Run("election at the root, k = 3", func(t *testing.T) {
		// 0 is the root of 1, 2, 3. It fails: its 3 children elect a
		// winner w by the bully rule, m(m−1) + (m−1) = 6 + 2 = 8 messages;
		// w becomes the root (no parent to attach to); w adopts its 2
		// former siblings, which each receive the new references (2
		// upkeep changes); in the repaired tree w's 2 children have a
		// sibling, so each receives one refresh a period over
		// ⌈reconnect/1000⌉ + 1 periods. No join, no look-up.
		s := handTree(t, Config{Nodes: 4, Degree: 3, Join: JoinRoot, Seed: 3})
		m, err := s.FailNodes([]int32{0}, Election, ElectXOR)
		if err != nil {
			t.Fatal(err)
		}
		periods := int(math.Ceil(m.ReconnectMs/1000)) + 1
		want := RepairTraffic{Election: 8, Changes: 2, Refresh: 2 * periods}
		if m.Traffic != want {
			t.Errorf("traffic %+v, want %+v", m.Traffic, want)
		}
		if m.RepairMsgs != m.Traffic.Delivered() {
			t.Errorf("repair messages %d, delivered by kind %d", m.RepairMsgs, m.Traffic.Delivered())
		}
	})
	t.Run("breakout of a leaf's parent, k = 1", func(t *testing.T) {
		// The chain 0 → 1 → 2. Node 1 fails; the root frees its slot at
		// 200 ms; node 2 notices at 700 ms, breaks out (no children: no
		// break notice), looks the group up once and sends one request to
		// the root, which accepts: 1 look-up, 2 join messages.
		s := handTree(t, Config{Nodes: 3, Degree: 1, Join: JoinRoot, Seed: 3})
		pingAt(s, 0, 0)
		pingAt(s, 2, 500)
		m, err := s.FailNodes([]int32{1}, Breakout, ElectXOR)
		if err != nil {
			t.Fatal(err)
		}
		want := RepairTraffic{Join: 2, Lookups: 1, LookupMessages: int64(LookupCost(3))}
		if m.Traffic != want || LookupCost(3) != 4 {
			t.Errorf("traffic %+v, want %+v (look-up cost %d, want 2⌈log₂ 3⌉ = 4)", m.Traffic, want, LookupCost(3))
		}
	})
	t.Run("breakout with a grandchild, k = 1", func(t *testing.T) {
		// The chain 0 → 1 → 2 → 3. Node 1 fails; the root frees its slot
		// at 200 ms; node 2 notices at 700 ms, sends a break notice to 3
		// (1 break message), looks up and joins the root (1 look-up, 2
		// join messages). Node 3 then breaks out, looks up (1), asks the
		// root, which is full and names its only child 2 (2 messages),
		// and asks 2, which accepts (2 messages).
		s := handTree(t, Config{Nodes: 4, Degree: 1, Join: JoinRoot, Seed: 3})
		pingAt(s, 0, 0)
		pingAt(s, 2, 500)
		pingAt(s, 3, 900)
		m, err := s.FailNodes([]int32{1}, Breakout, ElectXOR)
		if err != nil {
			t.Fatal(err)
		}
		want := RepairTraffic{Join: 6, Break: 1, Lookups: 2, LookupMessages: 2 * int64(LookupCost(4))}
		if m.Traffic != want {
			t.Errorf("traffic %+v, want %+v", m.Traffic, want)
		}
	})
	t.Run("preservation, k = 1", func(t *testing.T) {
		// The chain 0 → 1 → 2 → 3. Node 1 fails; node 2 rejoins with its
		// subtree {3}: 1 look-up, 2 join messages, nothing for 3.
		s := handTree(t, Config{Nodes: 4, Degree: 1, Join: JoinRoot, Seed: 3})
		pingAt(s, 0, 0)
		pingAt(s, 2, 500)
		pingAt(s, 3, 900)
		m, err := s.FailNodes([]int32{1}, Preservation, ElectXOR)
		if err != nil {
			t.Fatal(err)
		}
		want := RepairTraffic{Join: 2, Lookups: 1, LookupMessages: int64(LookupCost(4))}
		if m.Traffic != want {
			t.Errorf("traffic %+v, want %+v", m.Traffic, want)
		}
	})
	t.Run("election below the root, k = 2", func(t *testing.T) {
		// 0 → {1, 2}; joiners 3 and 4 are refused by the root and land
		// under its children. Fail the parent f of node 3 and of the
		// later joiners below it: its live children elect a winner, which
		// attaches to the root (2 messages, and the root's 2 children
		// receive new references: 2 changes).
		s := handTree(t, Config{Nodes: 5, Degree: 2, Join: JoinRoot, Redirect: RedirectRandom, Seed: 3})
		f := s.parent[3]
		kids := append([]int32(nil), s.children[f]...)
		m, err := s.FailNodes([]int32{f}, Election, ElectXOR)
		if err != nil {
			t.Fatal(err)
		}
		k := len(kids)
		// Election k(k−1) + (k−1), attachment 2. Changes: the root's 2
		// children (the winner and f's sibling), and the winner's adopted
		// siblings (k − 1). Refresh: in the repaired tree the root's two
		// children have a sibling each, and so do the winner's children if
		// it has 2.
		periods := int(math.Ceil(m.ReconnectMs/1000)) + 1
		refresh := 2
		if k-1 >= 2 {
			refresh += k - 1
		}
		want := RepairTraffic{Election: k*(k-1) + (k - 1) + 2, Changes: 2 + (k - 1), Refresh: refresh * periods}
		if m.Traffic != want {
			t.Errorf("k = %d children of the failed node: traffic %+v, want %+v", k, m.Traffic, want)
		}
	})
}
