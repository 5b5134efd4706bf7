package proofstests

import (
	"math"
	"os"
	"runtime/debug"
	"sync"
)

// A campaign allocates much and keeps little: each case builds, checks,
// prints and runs a dozen small programs and drops them, about 10 MB a
// case for fun-funmem-imp, while what stays live is a few MB. With Go's
// default GOGC of 100 the collector ran for about a quarter of the CPU
// time of both campaigns. A campaign raises GOGC to 1600 while it runs
// (unless the user set GOGC): the collector runs a sixteenth as often,
// which makes both campaigns 15–20% faster than at 400 (how it was
// before), and their peak memory grows to about 130 MB (fun-funmem-imp)
// and 100 MB (passes-valid), from 50 and 40 at 400 (docs/performance.md,
// "The property campaigns, a third time"). So that a campaign whose cases
// keep much more alive does not grow sixteen times that, a soft memory
// limit of 256 MiB comes with it (unless the user set GOMEMLIMIT): past
// it the collector runs as often as it must.
const (
	campaignGOGC     = 1600
	campaignMemLimit = 256 << 20
)

var (
	gcMu      sync.Mutex
	gcUsers   int   // campaigns running (Prove may run concurrently in tests)
	gcPercent int   // the setting before the first of them
	gcLimit   int64 // the memory limit before the first of them (-1: not changed)
)

// campaignGC raises the collector's target for a campaign and returns
// what puts it back when the last campaign running ends.
func campaignGC() (restore func()) {
	setGOGC, setLimit := os.Getenv("GOGC") == "", os.Getenv("GOMEMLIMIT") == ""
	if !setGOGC {
		return func() {}
	}
	gcMu.Lock()
	if gcUsers == 0 {
		gcPercent = debug.SetGCPercent(campaignGOGC)
		gcLimit = -1
		if setLimit && debug.SetMemoryLimit(-1) == math.MaxInt64 {
			gcLimit = debug.SetMemoryLimit(campaignMemLimit)
		}
	}
	gcUsers++
	gcMu.Unlock()
	return func() {
		gcMu.Lock()
		gcUsers--
		if gcUsers == 0 {
			debug.SetGCPercent(gcPercent)
			if gcLimit >= 0 {
				debug.SetMemoryLimit(gcLimit)
			}
		}
		gcMu.Unlock()
	}
}
