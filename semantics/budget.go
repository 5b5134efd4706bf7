package semantics

import (
	"fmt"
	"sync/atomic"
)

// DefaultBigFuel is the number of iterations a big-step may take when no
// --fuel is given: far more than a 10^8-element program's few passes
// over its arrays, and a bound (minutes, not forever) on a loop that
// does not end.
const DefaultBigFuel = 10_000_000_000

// Budget is a big-step run's fuel. A small-step counts its steps; a
// big-step has no steps, so it counts iterations instead: each kernel,
// reduce, scan, filter or redomap spends its number of iterations when
// it starts, each loop one per iteration, and the dynamic dialect one
// per application. Kernels and folds are already bounded by the arrays
// they make (--max-memory); what the budget stops is a loop, a fused
// fold over an iota or a recursion that would run for ever.
//
// A Budget is shared by the goroutines of a run (atomic). Which
// statement reports running out of a budget that parallel iterations
// spend together may depend on --jobs; that the run is out of fuel does
// not. A nil *Budget allows any number of iterations.
type Budget struct {
	fuel int64
	used atomic.Int64
}

// NewBudget is the budget of a run with fuel N (--fuel N), or
// DefaultBigFuel when fuel is 0 or less.
func NewBudget(fuel int) *Budget {
	f := int64(fuel)
	if f <= 0 {
		f = DefaultBigFuel
	}
	return &Budget{fuel: f}
}

// PollMask says when a long kernel looks at Ctrl-C (Spend of nothing):
// at the iterations i with i&PollMask == 0, every 4096, which costs
// nothing beside the iterations and stops a run within milliseconds. A
// kernel's fuel is spent when it starts, so a long one would otherwise
// not be stopped until it ended.
const PollMask = 1<<12 - 1

// Fuel is the number of iterations the budget allows.
func (b *Budget) Fuel() int64 { return b.fuel }

// Used is the number of iterations spent so far.
func (b *Budget) Used() int64 { return b.used.Load() }

// Spend spends n iterations of the form of rule at pos: nil while the
// run's iterations stay within the fuel, else a FuelError at pos naming
// the rule (and the iterations are given back, so that a caller that
// recovers sees the budget as it was).
//
// Spend is also where a big-step notices that the user interrupted the
// process (Interrupt): it then returns an InterruptError at pos.
func (b *Budget) Spend(n int64, pos Pos, rule string) error {
	if interrupted.Load() {
		used := int64(0)
		if b != nil {
			used = b.used.Load()
		}
		return &Error{Pos: pos, Kind: InterruptError, Rule: rule, Msg: fmt.Sprintf("interrupted after %s", Plural(int(used), "iteration"))}
	}
	if b == nil || n <= 0 {
		return nil
	}
	if used := b.used.Add(n); used > b.fuel || used < 0 {
		b.used.Add(-n)
		if n == 1 {
			return &Error{Pos: pos, Kind: FuelError, Rule: rule,
				Msg: fmt.Sprintf("out of fuel after %s (raise it with --fuel N)", Plural(int(b.fuel), "iteration"))}
		}
		return &Error{Pos: pos, Kind: FuelError, Rule: rule,
			Msg: fmt.Sprintf("out of fuel: %d more iterations would take the run past its fuel of %s (raise it with --fuel N)", n, Plural(int(b.fuel), "iteration"))}
	}
	return nil
}

// interrupted is set when the user interrupts the process (Ctrl-C): the
// runs then stop at their next iteration (Budget.Spend) or small step
// (Driver.Run). It belongs to the process, as the signal does; only the
// arraysem command sets it.
var interrupted atomic.Bool

// Interrupt asks every run of the process to stop at its next iteration
// or step, with an InterruptError saying where.
func Interrupt() { interrupted.Store(true) }

// Interrupted reports whether the process is interrupted: a machine
// that steps by itself (lang.Stepper) stops then.
func Interrupted() bool { return interrupted.Load() }

// ResetInterrupt undoes Interrupt (a test's, or a prompt's before its
// next command).
func ResetInterrupt() { interrupted.Store(false) }
