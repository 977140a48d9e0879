//go:build !unix

package clock

import "time"

// CPUTime is −1: this system's CPU time is not read (the timing table
// leaves its CPU column empty).
func CPUTime() time.Duration { return -1 }
