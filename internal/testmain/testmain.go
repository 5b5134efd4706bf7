// Package testmain is the TestMain of the test binaries that run the
// interpreters at length (the property campaigns, the examples at every
// level, gpu-sim): it runs the tests with Go's heap profiler off and the
// collector less eager.
//
// The heap profiler samples an allocation every 512 KiB by default and
// keeps one record per distinct call stack sampled; at the end of every
// garbage collection, with the world stopped, the runtime walks all of
// those records. The interpreters' deep and varied recursion makes very
// many distinct stacks, and the tests allocate fast, so the walk grew to
// about half of the property tests' CPU time (proofs-tests: 156 s of user
// time with the profiler, 78 s without). No test reads the heap profile;
// go test -memprofile still gets one.
//
// It also lets the heap grow to five times the live data between
// collections (GOGC=400, unless GOGC is set): the tests' live heap is
// small and they allocate fast, so at Go's default of 100 the collector
// took a third of proofs-tests' remaining CPU time (82 s of user time at
// 100, 55 s at 400, for a peak of 170 MB instead of 85 MB).
package testmain

import (
	"flag"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// Run runs m's tests, with runtime.MemProfileRate 0 unless -test.memprofile
// asks for a heap profile and with GOGC=400 unless GOGC is set, and exits
// with their status. A package's TestMain is
//
//	func TestMain(m *testing.M) { testmain.Run(m) }
func Run(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.memprofile"); f == nil || f.Value.String() == "" {
		runtime.MemProfileRate = 0
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(m.Run())
}
