package harness

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"sync"
	"testing"
	"time"
)

// sent is one transmit of a measured message as the network saw it.
type sent struct {
	at       time.Time
	from, to string
	id       uint64
}

// sentMsg returns the id of the harness's user message a packet carries
// (memberlist's framing, net.go, with compression, encryption and labels
// off: an optional CRC header — hasCrcMsg 12 and four bytes — then either
// one message or a compoundMsg 7 of them, each a userMsg 8 byte before
// the delegate's bytes 'G' + id). It parses the frame rather than
// searching the bytes: a CRC may hold the bytes 8, 'G'.
func sentMsg(b []byte) (uint64, bool) {
	if len(b) >= 5 && b[0] == 12 {
		b = b[5:]
	}
	user := func(p []byte) (uint64, bool) {
		if len(p) == 10 && p[0] == 8 && p[1] == msgMagic {
			return binary.BigEndian.Uint64(p[2:]), true
		}
		return 0, false
	}
	if len(b) < 2 || b[0] != 7 {
		return user(b)
	}
	n := int(b[1])
	if len(b) < 2+2*n {
		return 0, false
	}
	lens, parts := b[2:], b[2+2*n:]
	for i := range n {
		l := int(binary.BigEndian.Uint16(lens[2*i:]))
		if l > len(parts) {
			return 0, false
		}
		if id, ok := user(parts[:l]); ok {
			return id, true
		}
		parts = parts[l:]
	}
	return 0, false
}

func TestSentMsg(t *testing.T) {
	msg := append([]byte{8}, encodeMsg(0x0000000800000765)...)
	// A CRC holding 8, 'G' (a byte search finds a wrong id there).
	crc := append([]byte{12, 0x08, 'G', 0, 1}, msg...)
	compound := append([]byte{7, 2, 0, 3, 0, 10, 4, 1, 2}, msg...)
	for _, tc := range []struct {
		name string
		b    []byte
		ok   bool
	}{
		{"bare", msg, true}, {"crc", crc, true}, {"compound", compound, true},
		{"crc compound", append([]byte{12, 0, 0, 0, 0}, compound...), true},
		{"ping", []byte{12, 1, 2, 3, 4, 0, 1, 2}, false},
		{"short compound", []byte{7, 2, 0}, false},
	} {
		id, ok := sentMsg(tc.b)
		if ok != tc.ok || ok && id != 0x0000000800000765 {
			t.Errorf("%s: sentMsg = %#x, %v; want %#x, %v", tc.name, id, ok, uint64(0x0000000800000765), tc.ok)
		}
	}
}

// TestTransmitPeers watches every transmit of the measured messages on the
// network (tapPackets) and checks them against the model's push rule
// with a budget, without loss: each informed live node makes
// exactly B transmits, k to k distinct uniform peers other than itself at
// its first gossip tick after the receipt and the remaining B − k at its
// next tick, drawn afresh (kRandomNodes, util.go, excludes only the node
// itself; TransmitLimitedQueue.GetBroadcasts, queue.go, counts one
// transmit per peer). At N = 50, k = 3, B = 4 that makes the tick-2
// peer one of the tick-1 peers with probability 3/49 and a node's four
// transmits reach the node it got the message from with probability
// 1 − (46/49)(48/49) = 193/2401. The nodes the network saw informed are
// exactly those the harness counts (Outcome.Informed: the live nodes,
// source included, the set over which the model's residue is taken).
func TestTransmitPeers(t *testing.T) {
	s := Setting{Nodes: 50, Fanout: 3, RetransmitMult: 2, Clusters: 2, Broadcasts: 150, Seed: 71}
	var (
		mu   sync.Mutex
		seen []sent
	)
	tapPackets = func(from, to string, b []byte) {
		if id, ok := sentMsg(b); ok {
			mu.Lock()
			seen = append(seen, sent{time.Now(), from, to, id})
			mu.Unlock()
		}
	}
	defer func() { tapPackets = nil }()
	res, err := Run(context.Background(), t, s)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[uint64][]sent{}
	for _, p := range seen {
		byID[p.id] = append(byID[p.id], p)
	}
	iv, B, k := s.IntervalOrDefault(), s.Budget(), s.Fanout
	var (
		senders, repeat, toInformer, informed int
		offsets                               [50]int // (to − from) mod N, by node index
	)
	index := func(name string) int {
		i, err := strconv.Atoi(name[1:])
		if err != nil {
			t.Fatalf("node name %q", name)
		}
		return i
	}
	fail := func(id uint64, format string, a ...any) {
		t.Helper()
		t.Fatalf("broadcast %#x: %s", id, fmt.Sprintf(format, a...))
	}
	for i, out := range res.Outcomes {
		id := uint64(i/s.Broadcasts)<<32 | uint64(i%s.Broadcasts+1)
		ps := byID[id]
		if len(ps) == 0 {
			fail(id, "no transmit seen")
		}
		// A node's informer is the sender of the first packet offered to
		// it (packets to one node arrive in the order they are offered).
		informer := map[string]string{ps[0].from: ""}
		bySender := map[string][]sent{}
		for _, p := range ps {
			if _, ok := informer[p.to]; !ok {
				informer[p.to] = p.from
			}
			bySender[p.from] = append(bySender[p.from], p)
		}
		if len(informer) != out.Informed {
			fail(id, "%d nodes got the message on the network, the harness counts %d", len(informer), out.Informed)
		}
		for u := range informer {
			tx := bySender[u]
			if len(tx) != B {
				fail(id, "%s made %d transmits, want B = %d", u, len(tx), B)
			}
			senders++
			if informer[u] != "" {
				informed++ // not the source: it has an informer
			}
			first := map[string]bool{}
			for j, p := range tx {
				at := time.Duration(0) // the first tick's k transmits
				if j >= k {
					at = iv // the rest, at the next tick
				}
				switch {
				case p.to == u:
					fail(id, "%s sent to itself", u)
				case p.at.Sub(tx[0].at) != at:
					fail(id, "%s: transmit %d at %v after its first, want %v", u, j+1, p.at.Sub(tx[0].at), at)
				case j < k && first[p.to]:
					fail(id, "%s sent twice to %s in one tick", u, p.to)
				case j >= k && first[p.to]:
					repeat++
				}
				if j < k {
					first[p.to] = true
				}
				if p.to == informer[u] {
					toInformer++
				}
				offsets[(index(p.to)-index(u)+s.Nodes)%s.Nodes]++
			}
		}
	}
	// Each node's tick-2 peer is a Bernoulli trial, independent across
	// nodes; 4 SE leaves a false alarm of 6e-5 (Normal).
	check := func(what string, hits, nodes int, p float64) {
		t.Helper()
		n := float64(nodes)
		got, se := float64(hits)/n, math.Sqrt(p*(1-p)/n)
		if math.Abs(got-p) > 4*se {
			t.Errorf("%s: %.5f over %d nodes, model %.5f ± %.5f", what, got, nodes, p, se)
		} else {
			t.Logf("%s: %.5f over %d nodes, model %.5f ± %.5f", what, got, nodes, p, se)
		}
	}
	check("tick-2 peer among the tick-1 peers", repeat, senders, 3.0/49)
	// Over the informed nodes but the sources (which have no informer):
	// a node reaches its informer at most once in a tick, so its
	// transmits to it are 0, 1 or (with probability 3/49 · 1/49) 2, 4/49
	// in expectation, with a variance 3.2 % above the Bernoulli's at
	// p = 4/49 (0.0774 against 0.0750): the 4 SE here are 3.9 true SE.
	check("transmits to the informer per informed non-source node", toInformer, informed, 4.0/49)
	// The peers are uniform over the other N − 1: the offsets 1..49 are
	// uniform. χ² with 48 df beyond 95 has probability 6.5e-5
	// (Wilson–Hilferty); a tick's distinct peers make the counts a little
	// less dispersed than multinomial, so the bound is conservative.
	if offsets[0] != 0 {
		t.Errorf("%d transmits to the sender itself", offsets[0])
	}
	total := 0
	for _, c := range offsets[1:] {
		total += c
	}
	chi2, e := 0.0, float64(total)/float64(s.Nodes-1)
	for _, c := range offsets[1:] {
		chi2 += (float64(c) - e) * (float64(c) - e) / e
	}
	if chi2 > 95 {
		t.Errorf("peer offsets not uniform over 1..%d: χ² = %.1f over %d transmits (48 df)", s.Nodes-1, chi2, total)
	} else {
		t.Logf("peer offsets: χ² = %.1f over %d transmits (48 df)", chi2, total)
	}
}
