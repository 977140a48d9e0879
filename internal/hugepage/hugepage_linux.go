package hugepage

import (
	"syscall"
	"unsafe"
)

// minBytes is the smallest slice advised: a huge page is 2 MiB, and a
// smaller slice cannot hold an aligned one.
const minBytes = 4 << 20

// Advise asks for huge pages for the memory of s (its whole capacity),
// before it is first touched; errors are ignored (the advice is a hint:
// without it the slice works the same, only slower).
func Advise[T any](s []T) {
	if cap(s) == 0 {
		return
	}
	var zero T
	n := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if n < minBytes {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(s[:cap(s)]))
	start := uintptr(p)
	const page = 4096
	lo := (start + page - 1) &^ (page - 1)
	hi := (start + n) &^ (page - 1)
	if hi <= lo {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(p, lo-start)), hi-lo)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
