package proofstests

import (
	"os"
	"runtime/debug"
	"sync"
)

// A campaign allocates much and keeps little: each case builds, checks,
// prints and runs a dozen small programs and drops them. With Go's
// default GOGC of 100 the collector ran for about a quarter of the CPU
// time of both campaigns; at 400 it runs a quarter as often, and a
// campaign's peak memory grows from about 20 MB to about 30 MB
// (docs/performance.md, "The property campaigns again"). A campaign
// raises it while it runs, unless the user set GOGC.
const campaignGOGC = 400

var (
	gcMu      sync.Mutex
	gcUsers   int // campaigns running (Prove may run concurrently in tests)
	gcPercent int // the setting before the first of them
)

// campaignGC raises the collector's target for a campaign and returns
// what puts it back when the last campaign running ends.
func campaignGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	gcMu.Lock()
	if gcUsers == 0 {
		gcPercent = debug.SetGCPercent(campaignGOGC)
	}
	gcUsers++
	gcMu.Unlock()
	return func() {
		gcMu.Lock()
		gcUsers--
		if gcUsers == 0 {
			debug.SetGCPercent(gcPercent)
		}
		gcMu.Unlock()
	}
}
