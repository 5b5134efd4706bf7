//go:build mutants

package mutant

import (
	"fmt"
	"sync/atomic"
)

// Enabled reports whether this build can switch mutants on.
const Enabled = true

var active atomic.Pointer[string]

// On reports whether the mutant name is switched on.
func On(name string) bool {
	p := active.Load()
	return p != nil && *p == name
}

// Set switches the mutant name on and returns the function that switches
// it off again. For TestMutants only; it panics if a mutant is already
// on, as two tests setting mutants at once would see each other's.
func Set(name string) (undo func()) {
	if !active.CompareAndSwap(nil, &name) {
		panic(fmt.Sprintf("mutant.Set(%q) while %q is on", name, *active.Load()))
	}
	return func() { active.Store(nil) }
}
