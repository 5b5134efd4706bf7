//go:build !unix

package bench

import "time"

// cpuTime is unavailable off Unix: the table falls back on wall time.
func cpuTime() time.Duration { return 0 }

// haveCPUClock reports whether cpuTime measures anything here.
const haveCPUClock = false
