// Package parallel runs the independent replications of a simulation on a
// fixed number of goroutines: the one worker pool of package sim and
// package broadcast. A replication's result goes to its own slot, so the
// outcome never depends on the number of workers or on their timing.
//
// # Contract
//
// For refuses a nil context ("parallel: nil context") and a nil
// newWorker with an error before any goroutine starts; n ≤ 0 is no work
// (nil), workers below 1 means one. A newWorker that returns a nil
// function is the caller's bug (it panics in the worker). TestContract
// checks it.
package parallel

import (
	"context"
	"errors"
	"sync"

	"github.com/gossipkit/gossipkit/internal/ctxguard"
)

// For calls work(ctx, k) for every k in 0..n−1 on min(workers, n)
// goroutines, each with its own work function from newWorker (for its
// scratch state). The first error cancels the context the others see and
// is returned; a cancelled ctx stops the feed and returns ctx.Err().
// progress, if not nil, is called after each k with the number done and n,
// from one goroutine at a time. A nil ctx or newWorker is an error; n ≤ 0
// is no work (nil); workers below 1 means one.
func For(ctx context.Context, n, workers int, newWorker func() func(ctx context.Context, k int) error, progress func(done, total int64)) error {
	if err := ctxguard.Check("parallel", ctx); err != nil {
		return err
	}
	if newWorker == nil {
		return errors.New("parallel: nil newWorker")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex // progress is called by one goroutine at a time
	var done int64
	var firstErr error
	var once sync.Once
	for range max(1, min(workers, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := newWorker()
			for k := range jobs {
				if err := work(ctx, k); err != nil {
					once.Do(func() { firstErr = err; cancel() })
					continue
				}
				if progress != nil {
					mu.Lock()
					done++
					progress(done, int64(n))
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for k := range n {
		select {
		case jobs <- k:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
