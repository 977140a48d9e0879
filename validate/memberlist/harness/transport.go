package harness

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/memberlist"
)

// Network is an in-memory network for memberlist instances in one process:
// packets are handed over on channels and streams are net.Pipe pairs, so no
// socket is opened. Each packet (memberlist's UDP messages) is lost with
// probability Loss, drawn from one seeded generator; a failed node's
// packets are dropped both ways (it sends and receives nothing), but the
// others keep it in their member lists as Alive, because nothing probes it.
// Streams (memberlist's TCP: the joins' and anti-entropy's push–pull, the
// fallback ping of a probe) are by default never lost nor delayed,
// whatever Loss: TCP retransmits a lost segment, so on a real network a
// packet loss delays a stream (by a retransmission timeout, 200 ms to a
// few seconds) rather than losing it; only a connection whose
// retransmissions outlast memberlist's TCPTimeout (10 s on a LAN) fails.
// SetTCP plays those retransmissions and timeouts (docs/MODEL.md §6,
// Anti-entropy repair).
//
// Every method is safe for concurrent use.
type Network struct {
	mu       sync.Mutex
	rng      *rand.Rand
	loss     float64
	byName   map[string]*Transport
	byAddr   map[string]*Transport
	failed   map[string]bool
	packets  int64 // packets offered to WriteToAddress, lost or not
	gossip   int64 // of which not a probe's own message (gossipPacket)
	dropped  int64 // of which dropped (loss or a failed end)
	overflow int64 // packets dropped because a receiver's channel was full

	tcp   bool     // streams play TCP's retransmissions under loss (SetTCP)
	tcpSt TCPStats // their counts
}

// TCPStats counts the streams opened while SetTCP is on (TCP's
// retransmissions played under the packet loss).
type TCPStats struct {
	// Dials is the streams dialled to a live node; DialFailed those whose
	// handshake outlasted the dial's timeout (memberlist's TCPTimeout):
	// nothing was exchanged.
	Dials, DialFailed int64
	// HandshakeDelay is the total time, over the dials that succeeded,
	// spent waiting for a SYN's retransmission.
	HandshakeDelay time.Duration
	// Broken is the streams on which a read or write outlasted its
	// deadline (memberlist's TCPTimeout after the dial or the accept):
	// the exchange failed after the dial, on one side or both.
	Broken int64
	// Segments is the data segments sent; Retransmits their
	// retransmissions.
	Segments, Retransmits int64
	// Busy is the total time from each dial's start to the dialler's
	// Close of the stream, or to the dial's failure: memberlist's
	// push–pull loop waits for its sync before it starts the next scaled
	// interval (pushPullTrigger), so Busy/Dials lengthens each node's
	// period between syncs.
	Busy time.Duration
}

// TCP's timers as Linux sets them by default: the first SYN's
// retransmission timeout (doubled at each retry, tcp_syn_retries 6), and
// a data segment's least timeout (TCP_RTO_MIN; on a LAN the measured
// round trip is far below it), doubled at each retry; the segment size
// (MSS 1448 with timestamps).
const (
	synRTO   = time.Second
	synTries = 7
	dataRTO  = 200 * time.Millisecond
	mss      = 1448
)

// SetTCP makes the streams play TCP under the packet loss (true) or be
// never delayed nor lost (false, the default): a dial's handshake needs
// its SYN and SYN-ACK through, each lost with the network's loss, and is
// retried after 1, 2, 4, … s (Linux's defaults) until it gets through or
// outlasts the dial's timeout (then the dial fails); each data segment
// (1448 bytes) is retransmitted after 200 ms, 400 ms, … until it gets
// through, the writer waiting for it, so that a read may outlast its
// deadline. A lost ACK delays nothing here (the next segment acknowledges
// it). The counts are in TCPCounts.
func (n *Network) SetTCP(on bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.tcp = on
}

// TCPCounts returns the counts of the streams opened while SetTCP was on.
func (n *Network) TCPCounts() TCPStats {
	if n == nil {
		return TCPStats{}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.tcpSt
}

// TCPDialFail is the chance, by hand from Linux's SYN timers, that a dial
// with the given timeout fails at packet loss eps: the tries start at 0,
// 1, 3, 7, 15, … s (synTries of them), each needs its SYN and SYN-ACK
// through, so the dial fails with probability (1 − (1 − ε)²)^j, j the
// tries that start before the timeout (4 within memberlist's LAN 10 s,
// 5 within the WAN's 30 s, 1 within the local 1 s). NaN for a loss
// outside [0, 1) or a timeout ≤ 0.
func TCPDialFail(eps float64, timeout time.Duration) float64 {
	if !(eps >= 0 && eps < 1) || timeout <= 0 {
		return math.NaN()
	}
	var t time.Duration
	rto, tries := synRTO, 0
	for range synTries {
		if t >= timeout {
			break
		}
		tries++
		t += rto
		rto *= 2
	}
	return math.Pow(1-(1-eps)*(1-eps), float64(tries))
}

// handshake draws a dial's handshake under TCP: the time until a try's
// SYN and SYN-ACK both get through, and whether that is within timeout.
func (n *Network) handshake(timeout time.Duration) (time.Duration, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.tcpSt.Dials++
	var t time.Duration
	rto := synRTO
	for range synTries {
		// The SYN, then (only if it got through) the SYN-ACK: two draws,
		// the second short-circuited as before.
		if syn := n.rng.Float64() >= n.loss; syn && n.rng.Float64() >= n.loss {
			if t < timeout {
				n.tcpSt.HandshakeDelay += t
				return t, true
			}
			break
		}
		t += rto
		rto *= 2
	}
	n.tcpSt.DialFailed++
	return timeout, false
}

// segmentDelay draws the time until a data segment gets through.
func (n *Network) segmentDelay() time.Duration {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.tcpSt.Segments++
	var t time.Duration
	rto := dataRTO
	for n.loss > 0 && n.rng.Float64() < n.loss && t < time.Hour {
		n.tcpSt.Retransmits++
		t += rto
		rto *= 2
	}
	return t
}

// tcpConn is one end of a stream under TCP (SetTCP): a write waits for its
// segments' retransmissions before it hands them over; an I/O that
// outlasts its deadline marks the stream broken (once for both ends).
type tcpConn struct {
	net.Conn
	net    *Network
	broken *sync.Once
	start  time.Time  // the dial's start, on the dialler's end (else zero)
	closed *sync.Once // counts Busy once

	mu       sync.Mutex
	deadline time.Time // the write deadline
}

func (c *tcpConn) markBroken(err error) {
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		c.broken.Do(func() {
			c.net.mu.Lock()
			c.net.tcpSt.Broken++
			c.net.mu.Unlock()
		})
	}
}

func (c *tcpConn) Close() error {
	if !c.start.IsZero() {
		c.closed.Do(func() {
			c.net.mu.Lock()
			c.net.tcpSt.Busy += time.Since(c.start)
			c.net.mu.Unlock()
		})
	}
	return c.Conn.Close()
}

func (c *tcpConn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	c.deadline = t
	c.mu.Unlock()
	return c.Conn.SetDeadline(t)
}

func (c *tcpConn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	c.deadline = t
	c.mu.Unlock()
	return c.Conn.SetWriteDeadline(t)
}

func (c *tcpConn) Read(b []byte) (int, error) {
	k, err := c.Conn.Read(b)
	c.markBroken(err)
	return k, err
}

func (c *tcpConn) Write(b []byte) (int, error) {
	done := 0
	for done < len(b) {
		seg := b[done:min(len(b), done+mss)]
		d := c.net.segmentDelay()
		c.mu.Lock()
		dl := c.deadline
		c.mu.Unlock()
		if !dl.IsZero() && time.Now().Add(d).After(dl) {
			time.Sleep(time.Until(dl))
			err := fmt.Errorf("harness: write: %w", os.ErrDeadlineExceeded)
			c.markBroken(err)
			return done, err
		}
		time.Sleep(d)
		k, err := c.Conn.Write(seg)
		done += k
		if err != nil {
			c.markBroken(err)
			return done, err
		}
	}
	return done, nil
}

// NewNetwork returns an empty network whose losses draw from seed. The
// zero Network is an empty network with seed 0.
func NewNetwork(seed uint64) *Network {
	return &Network{
		rng:    newLossRNG(seed),
		byName: map[string]*Transport{},
		byAddr: map[string]*Transport{},
		failed: map[string]bool{},
	}
}

// SetLoss sets the probability that a packet is lost, in [0, 1).
func (n *Network) SetLoss(p float64) error {
	if n == nil {
		return errors.New("harness: nil *Network")
	}
	if !(p >= 0 && p < 1) {
		return fmt.Errorf("harness: loss = %g: valid range [0, 1)", p)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.loss = p
	return nil
}

// initLocked makes the maps and the generator of a zero Network (seed 0).
func (n *Network) initLocked() {
	if n.byName == nil {
		n.byName = map[string]*Transport{}
		n.byAddr = map[string]*Transport{}
		n.failed = map[string]bool{}
	}
	if n.rng == nil {
		n.rng = newLossRNG(0)
	}
}

func newLossRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6d656d6265726c69)) }

// SetFailed marks the named node failed (true) or working.
func (n *Network) SetFailed(name string, failed bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.initLocked()
	n.failed[name] = failed
}

// GossipPackets returns the packets offered to the network, lost or not,
// that are not a probe's bare ping, indirect ping, ack or nack: the
// packets that carry a queued broadcast (memberlist's own or a user's,
// alone or piggybacked on a probe's message in a compound). Its growth
// stops when every queue is empty, also while the probes go on.
func (n *Network) GossipPackets() int64 {
	if n == nil {
		return 0
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.gossip
}

// gossipPacket reports whether a packet (compression, encryption and
// labels off, as the harness configures memberlist: the first byte is
// memberlist's message type, net.go, after a CRC header — hasCrcMsg 12 and
// four bytes — where the receiver speaks protocol 5) is other than a
// probe's bare message: pingMsg 0, indirectPingMsg 1, ackRespMsg 2,
// nackRespMsg 11.
func gossipPacket(b []byte) bool {
	if len(b) > 5 && b[0] == 12 {
		b = b[5:]
	}
	if len(b) == 0 {
		return true
	}
	switch b[0] {
	case 0, 1, 2, 11:
		return false
	}
	return true
}

// Counts returns, since the network was made, the packets offered to it,
// how many of them it dropped by its rules (loss, a failed end) and how
// many it dropped because a receiver's channel was full (which the
// harness treats as an error: it is no rule of the model).
func (n *Network) Counts() (packets, dropped, overflow int64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.packets, n.dropped, n.overflow
}

// NewTransport adds a node named name at the fake address 127.0.0.1:port
// (nothing listens there) and returns its transport.
func (n *Network) NewTransport(name string, port int) (*Transport, error) {
	if port < 1 || port > 65535 {
		return nil, fmt.Errorf("harness: port = %d: valid range 1..65535", port)
	}
	if n == nil {
		return nil, errors.New("harness: nil *Network")
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	n.mu.Lock()
	defer n.mu.Unlock()
	n.initLocked()
	// A node restarted (its old transport shut down) takes its name and
	// address again; any other clash is an error.
	if old := n.byName[name]; old != nil || n.byAddr[addr] != nil {
		if old == nil || n.byAddr[addr] != old || old.addr != addr || !old.isShutdown() {
			return nil, fmt.Errorf("harness: node %q or address %s already on the network", name, addr)
		}
	}
	t := &Transport{
		net:      n,
		name:     name,
		addr:     addr,
		port:     port,
		packetCh: make(chan *memberlist.Packet, packetBuffer),
		streamCh: make(chan net.Conn),
	}
	n.byName[name] = t
	n.byAddr[addr] = t
	return t, nil
}

// packetBuffer is the depth of a transport's packet channel. A sender
// never blocks on a full channel: the packet is dropped and counted, as a
// full socket buffer would drop it (Transport.WriteToAddress), and counted
// as an overflow.
const packetBuffer = 4096

// deliver decides the fate of a packet from one node to another and
// returns the receiving transport, or nil if the packet is dropped.
func (n *Network) deliver(from string, to Address, gossip bool) *Transport {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.initLocked()
	n.packets++
	if gossip {
		n.gossip++
	}
	dest := n.lookupLocked(to)
	if dest == nil || n.failed[from] || n.failed[dest.name] {
		n.dropped++
		return nil
	}
	// One draw per packet between live nodes, in the order the senders
	// offer them.
	if n.loss > 0 && n.rng.Float64() < n.loss {
		n.dropped++
		return nil
	}
	return dest
}

func (n *Network) lookup(a Address) *Transport {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.lookupLocked(a)
}

func (n *Network) lookupLocked(a Address) *Transport {
	if a.Name != "" {
		return n.byName[a.Name]
	}
	return n.byAddr[a.Addr]
}

// Address is memberlist's address of a node (memberlist.Address).
type Address = memberlist.Address

// Transport is one node's memberlist.NodeAwareTransport on a Network.
type Transport struct {
	net      *Network
	name     string
	addr     string
	port     int
	packetCh chan *memberlist.Packet
	streamCh chan net.Conn

	mu       sync.Mutex
	shutdown bool
}

var _ memberlist.NodeAwareTransport = (*Transport)(nil)

// FinalAdvertiseAddr returns the transport's fake address.
func (t *Transport) FinalAdvertiseAddr(string, int) (net.IP, int, error) {
	return net.IPv4(127, 0, 0, 1), t.port, nil
}

// WriteTo sends a packet to an address.
func (t *Transport) WriteTo(b []byte, addr string) (time.Time, error) {
	return t.WriteToAddress(b, Address{Addr: addr})
}

// WriteToAddress sends a packet: it is lost or dropped as the Network
// decides, else queued on the receiver's packet channel without blocking
// (dropped if that is full). Like UDP, a lost packet is no error.
func (t *Transport) WriteToAddress(b []byte, a Address) (time.Time, error) {
	now := time.Now()
	if tapPackets != nil {
		to := a.Name
		if d := t.net.lookup(a); d != nil {
			to = d.name
		}
		tapPackets(t.name, to, b)
	}
	dest := t.net.deliver(t.name, a, gossipPacket(b))
	if dest == nil {
		return now, nil
	}
	buf := append([]byte(nil), b...)
	p := &memberlist.Packet{Buf: buf, From: fakeAddr(t.addr), Timestamp: now}
	dest.mu.Lock()
	defer dest.mu.Unlock()
	if dest.shutdown {
		return now, nil
	}
	select {
	case dest.packetCh <- p:
	default:
		t.net.mu.Lock()
		t.net.overflow++
		t.net.mu.Unlock()
	}
	return now, nil
}

// tapPackets, when not nil, sees every packet offered to any Network
// (its sender's and receiver's names and its bytes) before the network
// decides its fate. Only tests set it, before a Run and never during one.
var tapPackets func(from, to string, b []byte)

// PacketCh is the channel of packets received.
func (t *Transport) PacketCh() <-chan *memberlist.Packet { return t.packetCh }

// DialTimeout opens a stream to an address.
func (t *Transport) DialTimeout(addr string, timeout time.Duration) (net.Conn, error) {
	return t.DialAddressTimeout(Address{Addr: addr}, timeout)
}

// DialAddressTimeout opens a stream (a net.Pipe) to a node, which its
// memberlist accepts from StreamCh. Streams are never lost; a stream to a
// failed node is refused.
func (t *Transport) DialAddressTimeout(a Address, timeout time.Duration) (net.Conn, error) {
	dest := t.net.lookup(a)
	if dest == nil {
		return nil, fmt.Errorf("harness: no route to %s", a.String())
	}
	t.net.mu.Lock()
	failed := t.net.failed[t.name] || t.net.failed[dest.name]
	t.net.mu.Unlock()
	if failed {
		return nil, fmt.Errorf("harness: %s: connection refused (failed node)", a.String())
	}
	t.net.mu.Lock()
	tcp := t.net.tcp
	t.net.mu.Unlock()
	start := time.Now()
	if tcp {
		d, ok := t.net.handshake(timeout)
		time.Sleep(d)
		if !ok {
			t.net.mu.Lock()
			t.net.tcpSt.Busy += d
			t.net.mu.Unlock()
			return nil, fmt.Errorf("harness: dial %s: handshake timeout (TCP under loss)", a.String())
		}
		timeout -= d
	}
	local, remote := net.Pipe()
	if tcp {
		once := new(sync.Once)
		local, remote = &tcpConn{Conn: local, net: t.net, broken: once, start: start, closed: new(sync.Once)}, &tcpConn{Conn: remote, net: t.net, broken: once}
	}
	select {
	case dest.streamCh <- remote:
		return local, nil
	case <-time.After(timeout):
		_ = local.Close()
		_ = remote.Close()
		return nil, fmt.Errorf("harness: dial %s: timeout", a.String())
	}
}

// StreamCh is the channel of incoming streams.
func (t *Transport) StreamCh() <-chan net.Conn { return t.streamCh }

func (t *Transport) isShutdown() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.shutdown
}

// Shutdown stops delivery to the transport.
func (t *Transport) Shutdown() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.shutdown = true
	return nil
}

// fakeAddr is a net.Addr for a packet's sender.
type fakeAddr string

func (a fakeAddr) Network() string { return "harness" }
func (a fakeAddr) String() string  { return string(a) }
