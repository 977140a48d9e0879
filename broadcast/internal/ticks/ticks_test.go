package ticks

import (
	"container/heap"
	"math/rand/v2"
	"testing"
)

// TestSameOrderAsContainerHeap: Add and Next must give the ticks in the
// very order container/heap's Push and Pop give them (ties included:
// times are drawn from a few values), since the runs' answers depend on
// it; container/heap is the reference.
func TestSameOrderAsContainerHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var a, b Heap
	for step := range 20_000 {
		if r.IntN(3) > 0 || a.Len() == 0 {
			x := Tick{T: float64(r.IntN(8)), Node: int32(step)}
			a.Add(x)
			heap.Push(&b, x)
			continue
		}
		if x, y := a.Next(), heap.Pop(&b).(Tick); x != y {
			t.Fatalf("step %d: Next %+v, container/heap %+v", step, x, y)
		}
	}
}
