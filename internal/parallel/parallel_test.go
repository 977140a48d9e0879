package parallel

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

// Every k runs once, into its own slot, whatever the number of workers;
// progress counts to n one step at a time; the first error stops the run
// and is returned; a cancelled context is reported.
func TestFor(t *testing.T) {
	for _, workers := range []int{1, 2, 7, 100} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			const n = 50
			out := make([]int, n)
			var last int64
			err := For(context.Background(), n, workers, func() func(context.Context, int) error {
				return func(_ context.Context, k int) error { out[k] += k * k; return nil }
			}, func(done, total int64) {
				if done != last+1 || total != n {
					t.Errorf("progress %d/%d after %d", done, total, last)
				}
				last = done
			})
			if err != nil || last != n {
				t.Fatalf("err %v, progress %d", err, last)
			}
			for k, v := range out {
				if v != k*k {
					t.Fatalf("slot %d = %d", k, v)
				}
			}
		})
	}
	boom := errors.New("boom")
	var ran atomic.Int64
	err := For(context.Background(), 1000, 2, func() func(context.Context, int) error {
		return func(ctx context.Context, k int) error {
			ran.Add(1)
			if k == 3 {
				return boom
			}
			return ctx.Err()
		}
	}, nil)
	if !errors.Is(err, boom) || ran.Load() == 1000 {
		t.Errorf("err %v after %d of 1000", err, ran.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := For(ctx, 10, 2, func() func(context.Context, int) error {
		return func(context.Context, int) error { return nil }
	}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func ExampleFor() {
	squares := make([]int, 5)
	_ = For(context.Background(), len(squares), 3, func() func(context.Context, int) error {
		return func(_ context.Context, k int) error { squares[k] = k * k; return nil }
	}, nil)
	fmt.Println(squares)
	// Output: [0 1 4 9 16]
}
