package part_test

import (
	"fmt"
	"time"

	"github.com/gossipkit/gossipkit/report/part"
)

// A shard's part file is named after its index and the shard count, so
// that a folder's part files list in shard order.
func ExampleFileName() {
	fmt.Println(part.FileName(part.ID{Index: 3, Count: 10}))
	// Output: reproduce-000003-of-000010.gkpart
}

// Shard 2 of 3 runs the replications r with r mod 3 = 1; asked for
// replications 3..9 of 10 it runs 4 and 7. A nil Runner runs everything.
func ExampleRunner_Indices() {
	fmt.Println(part.ShardRunner(part.ID{Index: 2, Count: 3}).Indices(10, 3))
	var full *part.Runner
	fmt.Println(full.Indices(10, 0) == nil, full.Indices(10, 7))
	// Output:
	// [4 7]
	// true [7 8 9]
}

// Section times add up, an unknown CPU time (−1) absorbing.
func ExampleTime_Add() {
	a := part.Time{Wall: time.Second, CPU: 2 * time.Second}
	a.Add(part.Time{Wall: time.Second, CPU: -1, Protocol: 1e6})
	fmt.Println(a.Wall, a.CPU, a.Protocol)
	// Output: 2s -1ns 1e+06
}
