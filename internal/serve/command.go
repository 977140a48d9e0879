package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"time"

	"github.com/gossipkit/gossipkit/internal/cli"
)

// CommandFlags are the flags of `gossipkit serve`.
type CommandFlags struct {
	Addr         string
	Slots, Queue int
	Timeout      time.Duration
	QueueWait    time.Duration
}

// AddFlags declares the flags of `gossipkit serve` on fs.
func AddFlags(fs *flag.FlagSet) *CommandFlags {
	f := &CommandFlags{}
	fs.StringVar(&f.Addr, "addr", "127.0.0.1:8080", "address to listen on, HOST:PORT (loopback by default; :0 picks a free port)")
	fs.IntVar(&f.Slots, "slots", 2*runtime.GOMAXPROCS(0), fmt.Sprintf("commands that run at once (1..%d)", MaxSlots))
	fs.IntVar(&f.Queue, "queue", 0, fmt.Sprintf("requests that may wait for a slot, beyond which the server answers 503 (0..%d; 0: 4×slots)", MaxQueue))
	fs.DurationVar(&f.Timeout, "timeout", 2*time.Minute, "time limit of one request's command, counted from when it starts (1s..24h); the time it waited in the queue does not count")
	fs.DurationVar(&f.QueueWait, "queue-wait", 0, "longest a request waits in the queue for a slot, beyond which it is answered 503 with a Retry-After (0: the --timeout; else 1s..24h)")
	return f
}

// Command runs `gossipkit serve`: it checks f (bad values are
// *cli.UsageError naming the flag), listens on f.Addr, prints the address
// on stderr and serves the explorer with run until ctx ends. Then request
// contexts (derived from ctx) are cancelled, so running commands stop at
// their next check; the server stops and Command returns ctx.Err(). A nil
// ctx, stderr, f or run is an error, before anything listens.
func Command(ctx context.Context, stderr io.Writer, f *CommandFlags, run Runner) error {
	switch {
	case ctx == nil:
		return errors.New("serve: nil context")
	case stderr == nil || f == nil || run == nil:
		return errors.New("serve: nil stderr, flags or runner")
	case f.Slots < 1 || f.Slots > MaxSlots:
		return cli.Usagef("--slots %d: valid range 1..%d", f.Slots, MaxSlots)
	case f.Queue < 0 || f.Queue > MaxQueue:
		return cli.Usagef("--queue %d: valid range 0..%d", f.Queue, MaxQueue)
	case f.Timeout < time.Second || f.Timeout > 24*time.Hour:
		return cli.Usagef("--timeout %v: valid range 1s..24h", f.Timeout)
	case f.QueueWait != 0 && (f.QueueWait < time.Second || f.QueueWait > 24*time.Hour):
		return cli.Usagef("--queue-wait %v: valid range 1s..24h (0: the --timeout)", f.QueueWait)
	}
	ln, err := net.Listen("tcp", f.Addr)
	if err != nil {
		if u := errors.Unwrap(err); u != nil {
			err = u
		}
		return cli.Usagef("--addr %s: %v", f.Addr, err)
	}
	defer ln.Close()
	srv, err := New(Options{Run: run, Slots: f.Slots, Queue: f.Queue, Timeout: f.Timeout, QueueWait: f.QueueWait, Hosts: LoopbackHosts(ln.Addr())})
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    32 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	fmt.Fprintf(stderr, "gossipkit serve: http://%s/ (Ctrl-C stops)\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), cli.Grace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	// The commands stopped with the server printed (to their requests)
	// the line of an interrupted command; the serve command prints its own.
	cli.ResetFinal()
	return ctx.Err()
}

// LoopbackHosts returns the Host headers of a server listening on a
// loopback address (its IP, localhost, 127.0.0.1 and ::1, with its port),
// or nil for any other address, where every Host is answered.
func LoopbackHosts(a net.Addr) []string {
	ta, ok := a.(*net.TCPAddr)
	if !ok || !ta.IP.IsLoopback() {
		return nil
	}
	port := strconv.Itoa(ta.Port)
	return []string{net.JoinHostPort(ta.IP.String(), port), net.JoinHostPort("localhost", port), net.JoinHostPort("127.0.0.1", port), net.JoinHostPort("::1", port)}
}
