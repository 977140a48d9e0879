package hugepage

import "testing"

// TestAdviseKeepsValues: the advice changes no value, whatever the size
// and alignment, and does nothing to an empty or small slice.
func TestAdviseKeepsValues(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 1 << 20, 3<<20 + 5} {
		s := make([]uint64, n)
		Advise(s)
		for i := range s {
			s[i] = uint64(i) * 3
		}
		for i, v := range s {
			if v != uint64(i)*3 {
				t.Fatalf("n %d: s[%d] = %d", n, i, v)
			}
		}
	}
	Advise([]int32(nil))
}
