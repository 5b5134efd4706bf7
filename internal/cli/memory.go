package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/arraysem/arraysem/semantics"
)

// memoryFlag adds --max-memory to a command that runs programs.
func memoryFlag(fs *flag.FlagSet) *string {
	return fs.String("max-memory", semantics.Bytes(semantics.DefaultMaxMemory), "the most memory a run may take (e.g. 512MiB, 8GiB); past it the run stops with exit 1, naming what it allocated")
}

// setMemory applies --max-memory: one array or heap may not exceed it
// (the interpreters stop in the rule that allocates), and Go's collector
// works to keep the whole process under it.
func setMemory(s string) error {
	n, err := semantics.ParseBytes(s)
	if err != nil {
		return usageError{"--max-memory: " + err.Error()}
	}
	semantics.SetMaxMemory(n)
	debug.SetMemoryLimit(n + slack(n))
	return nil
}

// slack is what the process may take beyond a limit of n bytes (the
// interpreter's own structures, the program, the collector's garbage)
// before the watchdog stops it: half the limit, between 64 and 512 MiB.
func slack(n int64) int64 { return min(max(n/2, 64<<20), 512<<20) }

// watchMemory stops the process with exit 1 and a message when its live
// heap exceeds --max-memory by more than its slack: many arrays each
// under the limit can still add up past it, and an operating system's
// out-of-memory kill says nothing. Live is what the last collection
// marked: the heap's objects counted the garbage not yet swept too, so a
// side-by-side whose rows each make and drop arrays of 10^8 elements was
// stopped for arrays it no longer held. Under the memory limit
// (setMemory) a heap that grows past it is collected, so live data past
// it is seen at the collection that finds it. Only the arraysem command
// runs it, not tests that call Main.
func watchMemory(stderr io.Writer) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	for range time.Tick(50 * time.Millisecond) {
		metrics.Read(sample)
		if live := int64(sample[0].Value.Uint64()); live > semantics.MaxMemory()+slack(semantics.MaxMemory()) {
			what := ""
			if a := semantics.LargestAllocation(); a != "" {
				what = "; its largest allocation is " + a
			}
			fmt.Fprintf(stderr, "arraysem: the run holds %s of live data, past --max-memory %s%s: stopped (raise it with --max-memory)\n", semantics.Bytes(live), semantics.Bytes(semantics.MaxMemory()), what)
			os.Exit(1)
		}
	}
}

// watchInterrupt makes Ctrl-C stop the run where it is: the interpreters
// stop at their next iteration or step (semantics.Interrupt) with one
// line saying where and after how much, and the command exits 130. A
// command still running a second later (one whose run counts no
// iterations: typed Remora's big-step, a prove campaign between
// programs), or a second Ctrl-C, ends with "arraysem: interrupted" and
// exit 130. Only the arraysem command runs it.
func watchInterrupt(stderr io.Writer) {
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt)
	<-sig
	semantics.Interrupt()
	select {
	case <-sig:
	case <-time.After(time.Second):
	}
	fmt.Fprintln(stderr, "arraysem: interrupted")
	os.Exit(130)
}
