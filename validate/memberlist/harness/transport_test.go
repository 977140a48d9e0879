package harness

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestPinnedVersion checks that MemberlistVersion is the version go.mod
// requires and, where the test binary records its dependencies, the one
// it was built with.
func TestPinnedVersion(t *testing.T) {
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if want := "github.com/hashicorp/memberlist " + MemberlistVersion + "\n"; !strings.Contains(string(mod), want) {
		t.Errorf("go.mod does not require %q", strings.TrimSpace(want))
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Log("no build info in this binary")
		return
	}
	for _, d := range bi.Deps {
		if d.Path == "github.com/hashicorp/memberlist" {
			if d.Version != MemberlistVersion {
				t.Errorf("built with memberlist %s, MemberlistVersion says %s", d.Version, MemberlistVersion)
			}
			return
		}
	}
	t.Log("the build info lists no memberlist")
}

func twoNodes(t *testing.T, seed uint64) (*Network, *Transport, *Transport) {
	t.Helper()
	n := NewNetwork(seed)
	a, err := n.NewTransport("a", 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := n.NewTransport("b", 2)
	if err != nil {
		t.Fatal(err)
	}
	return n, a, b
}

func drain(tr *Transport) int {
	k := 0
	for {
		select {
		case <-tr.PacketCh():
			k++
		default:
			return k
		}
	}
}

// TestNetworkLoss sends 4,000 packets at loss 0.3: the delivered count is
// Binomial(4000, 0.7), mean 2800, sd √(4000·0.7·0.3) = 29.0; it must be
// within 4 sd, and the network's counts must add up.
func TestNetworkLoss(t *testing.T) {
	const sent, loss = 4000, 0.3
	n, a, b := twoNodes(t, 1)
	if err := n.SetLoss(loss); err != nil {
		t.Fatal(err)
	}
	got := 0
	for i := range sent {
		if _, err := a.WriteToAddress([]byte{byte(i)}, Address{Name: "b"}); err != nil {
			t.Fatal(err)
		}
		if i%1000 == 999 {
			got += drain(b)
		}
	}
	mean, sd := sent*(1-loss), math.Sqrt(sent*loss*(1-loss))
	if math.Abs(float64(got)-mean) > 4*sd {
		t.Errorf("delivered %d of %d at loss %g, want %g ± %.0f", got, sent, loss, mean, 4*sd)
	}
	p, d, o := n.Counts()
	if p != sent || d != int64(sent-got) || o != 0 {
		t.Errorf("counts: packets %d, dropped %d, overflow %d; want %d, %d, 0", p, d, o, sent, sent-got)
	}
	for _, bad := range []float64{-0.1, 1, math.NaN()} {
		if err := n.SetLoss(bad); err == nil {
			t.Errorf("SetLoss(%g) accepted", bad)
		}
	}
}

// TestNetworkFailed: a failed node sends and receives nothing, streams to
// it are refused, and it works again once restored; a packet to an unknown
// node is dropped; a full receive channel is an overflow.
func TestNetworkFailed(t *testing.T) {
	n, a, b := twoNodes(t, 2)
	n.SetFailed("b", true)
	_, _ = a.WriteToAddress([]byte("x"), Address{Name: "b"})
	_, _ = b.WriteToAddress([]byte("x"), Address{Name: "a"})
	_, _ = a.WriteTo([]byte("x"), "127.0.0.1:2")
	if k := drain(a) + drain(b); k != 0 {
		t.Errorf("%d packets delivered to or from a failed node", k)
	}
	if _, err := a.DialAddressTimeout(Address{Name: "b"}, time.Second); err == nil {
		t.Error("a stream to a failed node was accepted")
	}
	n.SetFailed("b", false)
	_, _ = a.WriteTo([]byte("x"), "127.0.0.1:2")
	_, _ = a.WriteToAddress([]byte("x"), Address{Name: "nobody"})
	if k := drain(b); k != 1 {
		t.Errorf("%d packets delivered once restored, want 1", k)
	}
	for range packetBuffer + 1 {
		_, _ = a.WriteToAddress([]byte("x"), Address{Name: "b"})
	}
	if p, d, o := n.Counts(); p != 5+packetBuffer+1 || d != 4 || o != 1 {
		t.Errorf("counts: packets %d, dropped %d, overflow %d; want %d, 4, 1", p, d, o, 5+packetBuffer+1)
	}
	if _, err := n.NewTransport("b", 3); err == nil {
		t.Error("a second node named b was accepted")
	}
	if _, err := n.NewTransport("c", 0); err == nil {
		t.Error("port 0 was accepted")
	}
	// A restart: b, shut down, takes its name and address again (only
	// those), and packets reach the new transport.
	if _, err := n.NewTransport("b", 2); err == nil {
		t.Error("b was added again while its transport runs")
	}
	_ = b.Shutdown()
	drain(b) // the packets of the overflow check above
	if _, err := n.NewTransport("b", 3); err == nil {
		t.Error("b came back on another address")
	}
	if _, err := n.NewTransport("d", 2); err == nil {
		t.Error("another node took b's address")
	}
	b2, err := n.NewTransport("b", 2)
	if err != nil {
		t.Fatalf("b's restart: %v", err)
	}
	_, _ = a.WriteToAddress([]byte("x"), Address{Name: "b"})
	if k, old := drain(b2), drain(b); k != 1 || old != 0 {
		t.Errorf("after b's restart: %d packets to the new transport, %d to the old; want 1, 0", k, old)
	}
}

// TestNetworkStream: a dialled stream reaches the other node's StreamCh
// and carries bytes both ways.
func TestNetworkStream(t *testing.T) {
	_, a, b := twoNodes(t, 3)
	done := make(chan []byte)
	go func() {
		c := <-b.StreamCh()
		buf := make([]byte, 5)
		_, _ = io.ReadFull(c, buf)
		_, _ = c.Write([]byte("pong"))
		_ = c.Close()
		done <- buf
	}()
	c, err := a.DialTimeout("127.0.0.1:2", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	reply, _ := io.ReadAll(c)
	if got := <-done; !bytes.Equal(got, []byte("hello")) || string(reply) != "pong" {
		t.Errorf("stream carried %q and %q", got, reply)
	}
	if _, err := a.DialTimeout("127.0.0.1:9", time.Second); err == nil {
		t.Error("a dial to no node succeeded")
	}
}

// TestSettingValidate: each bad field is refused with its name.
func TestSettingValidate(t *testing.T) {
	good := Setting{Nodes: 10, Fanout: 3, RetransmitMult: 1, Broadcasts: 1}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field string
		mod   func(*Setting)
	}{
		{"Setting.Nodes", func(s *Setting) { s.Nodes = 2 }},
		{"Setting.Nodes", func(s *Setting) { s.Nodes = MaxNodes + 1 }},
		{"Setting.RetransmitMult", func(s *Setting) { s.RetransmitMult = 0 }},
		{"Setting.Interval", func(s *Setting) { s.Interval = -1 }},
		{"Setting.Interval", func(s *Setting) { s.Interval = time.Hour + 1 }},
		{"Setting.Broadcasts", func(s *Setting) { s.Clusters, s.Broadcasts = math.MaxInt/2+1, 2 }},
		{"Setting.Phases", func(s *Setting) { s.Phases = 2 }},
		{"Setting.Broadcasts", func(s *Setting) { s.Broadcasts = 0 }},
		{"Setting.Clusters", func(s *Setting) { s.Clusters = -1 }},
		{"Setting.Clusters", func(s *Setting) { s.Clusters = MaxBroadcasts + 1 }},
		{"Config.Fanout", func(s *Setting) { s.Fanout = 10 }},
		{"Config.Loss", func(s *Setting) { s.Loss = 1 }},
		{"Config.Failed", func(s *Setting) { s.Failed = math.NaN() }},
		{"Setting.ProbeInterval", func(s *Setting) { s.ProbeInterval = -1 }},
		{"Setting.ProbeInterval", func(s *Setting) { s.ProbeInterval = time.Hour + 1 }},
		{"Setting.ProbeInterval", func(s *Setting) { s.ProbeInterval, s.Failed = time.Second, 0.1 }},
		{"Setting.ProbeInterval", func(s *Setting) { s.ProbeInterval, s.SyncInterval = time.Second, time.Second }},
	} {
		s := good
		tc.mod(&s)
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%+v: error %v, want one naming %s", s, err, tc.field)
		}
	}
	if _, err := Run(context.Background(), nil, good); err == nil {
		t.Error("Run(ctx, nil, …) accepted")
	}
	//lint:ignore SA1012 the nil context is the point
	if _, err := Run(nil, t, good); err == nil {
		t.Error("Run(nil, …) accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, t, good); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context: %v", err)
	}
}

// TestGossipPacket: a probe's bare ping (0), indirect ping (1), ack (2)
// and nack (11), with or without the CRC header (12 and four bytes), are
// not gossip; a compound (7, a probe's message with piggybacked
// broadcasts), a user message (8), an alive (4) and an empty packet are
// (message types from memberlist's net.go).
func TestGossipPacket(t *testing.T) {
	crc := func(b ...byte) []byte { return append([]byte{12, 1, 2, 3, 4}, b...) }
	for _, tc := range []struct {
		b    []byte
		want bool
	}{
		{[]byte{0, 9}, false}, {[]byte{1}, false}, {[]byte{2, 0}, false}, {[]byte{11}, false},
		{crc(0, 9), false}, {crc(2), false},
		{[]byte{7, 2}, true}, {[]byte{8, 1}, true}, {[]byte{4}, true}, {crc(7), true}, {nil, true},
	} {
		if got := gossipPacket(tc.b); got != tc.want {
			t.Errorf("gossipPacket(%v) = %v, want %v", tc.b, got, tc.want)
		}
	}
}

// TestNetworkTCP: under SetTCP a dial fails when its handshake outlasts the
// timeout. Linux retries a SYN after 1, 2, 4, … s, so within a 10 s timeout
// the tries start at 0, 1, 3 and 7 s (the next at 15 s); each needs its SYN
// and SYN-ACK through, so at loss ε a dial fails with probability
// (1 − (1 − ε)²)⁴ (0.51⁴ = 0.0677 at ε = 0.3, worked by hand), and one that
// succeeds waits 0, 1, 3 or 7 s. A stream's data still gets through whole.
func TestNetworkTCP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, a, b := twoNodes(t, 7)
		if err := n.SetLoss(0.3); err != nil {
			t.Fatal(err)
		}
		n.SetTCP(true)
		go func() {
			for c := range b.StreamCh() {
				go func() {
					buf := make([]byte, 3000)
					_, _ = io.ReadFull(c, buf)
					_, _ = c.Write(buf[:5])
					_ = c.Close()
				}()
			}
		}()
		const dials = 4000
		failed := 0
		for range dials {
			start := time.Now()
			c, err := a.DialTimeout("127.0.0.1:2", 10*time.Second)
			waited := time.Since(start)
			if err != nil {
				failed++
				if waited != 10*time.Second {
					t.Fatalf("a failed dial returned after %v, not the timeout", waited)
				}
				continue
			}
			switch waited {
			case 0, time.Second, 3 * time.Second, 7 * time.Second:
			default:
				t.Fatalf("a dial succeeded after %v: not a SYN's retry time", waited)
			}
			if _, err := c.Write(make([]byte, 3000)); err != nil {
				t.Fatal(err)
			}
			reply, err := io.ReadAll(c)
			if err != nil || len(reply) != 5 {
				t.Fatalf("reply %d bytes, %v", len(reply), err)
			}
		}
		want := math.Pow(1-0.7*0.7, 4)
		if got := TCPDialFail(0.3, 10*time.Second); math.Abs(got-want) > 1e-15 {
			t.Errorf("TCPDialFail(0.3, 10 s) = %g, want %g", got, want)
		}
		for _, c := range []struct {
			timeout time.Duration
			tries   float64
		}{{time.Second, 1}, {1001 * time.Millisecond, 2}, {30 * time.Second, 5}, {time.Hour, 7}} {
			if got, w := TCPDialFail(0.2, c.timeout), math.Pow(1-0.8*0.8, c.tries); math.Abs(got-w) > 1e-15 {
				t.Errorf("TCPDialFail(0.2, %v) = %g, want %g (%g tries)", c.timeout, got, w, c.tries)
			}
		}
		got := float64(failed) / dials
		se := math.Sqrt(want * (1 - want) / dials)
		st := n.TCPCounts()
		t.Logf("dials failed %d of %d (%.4f, expected %.4f ± %.4f); counts %+v", failed, dials, got, want, se, st)
		if math.Abs(got-want) > 4*se {
			t.Errorf("dial failure share %.4f, want %.4f ± 4 × %.4f", got, want, se)
		}
		if st.Dials != dials || st.DialFailed != int64(failed) || st.Broken != 0 {
			t.Errorf("counts %+v: want %d dials, %d failed, none broken", st, dials, failed)
		}
		_ = b.Shutdown()
		close(b.streamCh)
	})
}
