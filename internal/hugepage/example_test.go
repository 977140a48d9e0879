package hugepage_test

import (
	"fmt"

	"github.com/gossipkit/gossipkit/internal/hugepage"
)

func ExampleAdvise() {
	covered := make([]uint64, 1<<20) // 8 MiB, read at random
	hugepage.Advise(covered)
	covered[12345] = 1
	fmt.Println(covered[12345])
	// Output: 1
}
