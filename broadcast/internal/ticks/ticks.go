package ticks

// Tick is one node's next tick, at time T.
type Tick struct {
	T    float64
	Node int32
}

// Heap is a binary min-heap of ticks by time, in container/heap's order
// (it implements heap.Interface; Add and Next are its Push and Pop
// without the interface's boxing).
type Heap []Tick

func (h Heap) Len() int           { return len(h) }
func (h Heap) Less(i, j int) bool { return h[i].T < h[j].T }
func (h Heap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *Heap) Push(x any)        { *h = append(*h, x.(Tick)) }
func (h *Heap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Add is container/heap's Push without the interface's boxing: the same
// algorithm, so the same order.
func (h *Heap) Add(x Tick) {
	*h = append(*h, x)
	q := *h
	j := len(q) - 1
	for {
		i := (j - 1) / 2 // parent
		if i == j || !(q[j].T < q[i].T) {
			break
		}
		q[i], q[j] = q[j], q[i]
		j = i
	}
}

// Next removes and returns the earliest tick: container/heap's Pop
// without the interface's boxing.
func (h *Heap) Next() Tick {
	q := *h
	n := len(q) - 1
	q[0], q[n] = q[n], q[0]
	i := 0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 {
			break
		}
		j := j1
		if j2 := j1 + 1; j2 < n && q[j2].T < q[j1].T {
			j = j2
		}
		if !(q[j].T < q[i].T) {
			break
		}
		q[i], q[j] = q[j], q[i]
		i = j
	}
	x := q[n]
	*h = q[:n]
	return x
}
