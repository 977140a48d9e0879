package clock_test

import (
	"fmt"
	"time"

	"github.com/gossipkit/gossipkit/report/internal/clock"
)

// A finished step as the batch log prints it: 3 s of 25 s so far is 12 %.
func ExampleStepTime_String() {
	st := clock.StepTime{Section: 2, Step: "fig7", Wall: 3 * time.Second, CPU: 6 * time.Second, Elapsed: 25 * time.Second}
	fmt.Println(st)
	// Output: section 2, fig7: 3.0 s, 6.0 s CPU (12% of 25 s so far)
}
