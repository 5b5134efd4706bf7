//go:build unix

package bench

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system, over all
// its threads (the collector's included) and the child processes it has
// waited for (a row that runs a built program): on a shared machine it
// counts the work a run did, where wall time also counts the wait for a
// core.
func cpuTime() time.Duration {
	var t time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			return 0
		}
		t += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return t
}

// haveCPUClock reports whether cpuTime measures anything here.
const haveCPUClock = true
