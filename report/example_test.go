package report_test

import (
	"fmt"

	"github.com/gossipkit/gossipkit/report"
)

// The report's sections, in order: section i+1 of REPORT.md is
// Sections()[i]. Run writes them all; a program can also compute one
// section (Study.DropProbability, Study.Optimal, …) and use its result.
func ExampleSections() {
	for i, s := range report.Sections() {
		fmt.Printf("%d. %s\n", i+1, s.Title)
	}
	// Output:
	// 1. Drop probability (Fig. 4)
	// 2. Transition matrix (Fig. 1)
	// 3. Replication x(t) (Fig. 7)
	// 4. Coverage y(t) (Fig. 8)
	// 5. What the mean-field model misses
	// 6. Optimal exchange size
	// 7. Refined mean field: the 1/N correction
	// 8. Spanning-tree notification (second source document)
	// 9. Gossip against tree: one notification to a group of N nodes
	// 10. Design answers: the time to coverage at any N
	// 11. Gossip as deployed: push, pull and push–pull broadcast
	// 12. The shuffle protocol on a real network
}
