//go:build unix

package gitchange

import (
	"syscall"
	"time"
)

// cpuTime is the user and system CPU time of this process so far: a measure that other
// processes on a shared machine disturb less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
