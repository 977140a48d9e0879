//go:build unix

package clock

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time (user + system) this process has used so far, or
// −1 where the system does not say.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
