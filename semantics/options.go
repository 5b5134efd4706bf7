package semantics

import (
	"runtime"
	"sync/atomic"
)

// RunOptions configure a run of any language's semantics. Every
// language's small-step runner (fun.RunSmall, funmem.RunHeapSmall,
// imp.RunSmall, remora.RunSmall, dynamic.RunSmall) takes this one struct,
// and the big-steps read the fields that apply to them, so the driver and
// the REPL set an option once for every language.
type RunOptions struct {
	Fuel    int     // small-step fuel; 0 for DefaultFuel
	Counter Counter // counts the rules applied, if non-nil
	Derive  bool    // build the big-step's evaluation derivation, where there is one
	// Schedule orders kernel iterations in the small-steps that have
	// kernels (FUNMEM's and IMP's); nil runs them in order.
	Schedule Schedule
	// Races, when not nil, lets a small-step kernel that races (eq 4)
	// run on as hardware would, and is given the kernel's first race when
	// the kernel ends (FUNMEM's and IMP's; the REPL's :set races report);
	// nil stops the run at the race, with a RaceError.
	Races func(race error)
	// Trace receives each kernel's trace, its per-iteration read and
	// write sets, when the kernel ends (FUNMEM's heap semantics and IMP);
	// kernel describes the kernel in the program's own syntax, with its
	// position. The trace is the receiver's to keep.
	Trace func(kernel string, tr *KernelTrace)
	// RecordHeap makes a heap collect its reads and writes
	// (Heap.TakeAccesses), for a caller that shows them after each step.
	RecordHeap bool
	// OnStep is called after each small step with the rule and the
	// configuration reached (fun.Config, *funmem.Config, *imp.Config,
	// remora.Expr, dynamic.Expr).
	OnStep func(rule string, config any)
	// Jobs bounds the goroutines a big-step runs a large kernel's
	// iterations on (FUN's; `--jobs N`): 0 for the default
	// (SetDefaultJobs), 1 for sequential. Results and errors never
	// depend on it.
	Jobs int
	// Stats, when not nil, receives the run's cost counters (Stats; FUN's,
	// FUNMEM's and IMP's semantics count, the others leave it alone). Nil
	// counts nothing, at no cost.
	Stats *Stats
}

// defaultJobs is what a run whose RunOptions.Jobs is 0 uses: 0 for all
// cores (runtime.GOMAXPROCS). SetDefaultJobs sets it.
var defaultJobs atomic.Int64

// SetDefaultJobs sets the Jobs of runs that do not set their own:
// `arraysem side-by-side --jobs N` and `test --jobs N` do, since the runs
// they make are built elsewhere; 0 for all cores.
func SetDefaultJobs(n int) { defaultJobs.Store(int64(n)) }

// Jobs resolves a run's Jobs: n when it is set, else the default when
// that is (SetDefaultJobs), else all cores.
func Jobs(n int) int {
	if n <= 0 {
		n = int(defaultJobs.Load())
	}
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return n
}

// Hook adapts o.OnStep to a driver's typed step hook (nil when unset).
func Hook[C any](o *RunOptions) func(string, C) {
	if o == nil || o.OnStep == nil {
		return nil
	}
	return func(rule string, c C) { o.OnStep(rule, c) }
}
