//go:build unix

package bench

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system, over all
// its threads (the collector's included): on a shared machine it counts
// the work a run did, where wall time also counts the wait for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// haveCPUClock reports whether cpuTime measures anything here.
const haveCPUClock = true
