//go:build !unix

package report

import "time"

// cpuTime is −1: this system's CPU time is not read (the timing table
// leaves its CPU column empty).
func cpuTime() time.Duration { return -1 }
