package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"time"

	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/internal/serve"
)

// cmdServe serves the one-page explorer and its API (package
// internal/serve) until SIGINT or SIGTERM: requests in flight are
// cancelled, the server stops, and the command exits 130 or 143.
func cmdServe(ctx context.Context, e *env, args []string) error {
	fs := newFlags("serve")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on, HOST:PORT (loopback by default; :0 picks a free port)")
	slots := fs.Int("slots", 2*runtime.GOMAXPROCS(0), "commands that run at once (1..1024)")
	queue := fs.Int("queue", 0, "requests that may wait for a slot, beyond which the server answers 503 (0..100000; 0: 4×slots)")
	timeout := fs.Duration("timeout", 2*time.Minute, "time limit of one request's command (1s..24h)")
	if err := parseEnv(fs, e, args); err != nil {
		return err
	}
	switch {
	case *slots < 1 || *slots > 1024:
		return usagef("--slots %d: valid range 1..1024", *slots)
	case *queue < 0 || *queue > 100_000:
		return usagef("--queue %d: valid range 0..100000", *queue)
	case *timeout < time.Second || *timeout > 24*time.Hour:
		return usagef("--timeout %v: valid range 1s..24h", *timeout)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return usagef("--addr %s: %v", *addr, errors.Unwrap(err))
	}
	defer ln.Close()
	srv, err := serve.New(serve.Options{Run: serveRunner(), Slots: *slots, Queue: *queue, Timeout: *timeout, Hosts: loopbackHosts(ln.Addr())})
	if err != nil {
		return err
	}
	return serveOn(ctx, e, ln, srv)
}

// loopbackHosts returns the Host headers of a server listening on a
// loopback address (127.0.0.1:PORT, localhost:PORT, [::1]:PORT), or nil
// for any other address, where every Host is answered.
func loopbackHosts(a net.Addr) []string {
	ta, ok := a.(*net.TCPAddr)
	if !ok || !ta.IP.IsLoopback() {
		return nil
	}
	port := strconv.Itoa(ta.Port)
	return []string{net.JoinHostPort(ta.IP.String(), port), net.JoinHostPort("localhost", port), net.JoinHostPort("127.0.0.1", port), net.JoinHostPort("::1", port)}
}

// serveRunner runs a command line in this process, as the CLI would, with
// no scheduler environment (a request never becomes a shard run); a
// command shows progress when the server asks for it.
func serveRunner() serve.Runner {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		return runEnv(ctx, &env{stdout: stdout, stderr: stderr, getenv: func(string) string { return "" }, terminal: serve.WantsProgress(stderr)}, args)
	}
}

// serveOn serves h on ln until ctx ends, then stops: request contexts
// derive from ctx, so running commands stop at their next check.
func serveOn(ctx context.Context, e *env, ln net.Listener, h http.Handler) error {
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    32 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	fmt.Fprintf(e.stderr, "gossipkit serve: http://%s/ (Ctrl-C stops)\n", ln.Addr())
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
	// Commands stopped with the server printed (to their requests) the
	// line an interrupted command prints; this command prints its own.
	cli.ResetFinal()
	return ctx.Err()
}
