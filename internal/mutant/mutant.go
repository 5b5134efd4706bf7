// Package mutant switches on deliberately broken variants of the
// translations and semantics (mutation testing, proofs-tests'
// TestMutants): each mutant is one named, one-line change at a mutation
// point in the code, which asks On(name). Only the tests switch a mutant
// on; arraysem never does, and with none on every point takes its
// correct branch. A mutant that no property kills shows a theorem the
// tests do not really check.
package mutant

import "sync/atomic"

var active atomic.Pointer[string]

// On reports whether the mutant name is switched on.
func On(name string) bool {
	p := active.Load()
	return p != nil && *p == name
}

// Set switches the mutant name on (at most one at a time) and returns the
// function that switches it off again. For tests only.
func Set(name string) (undo func()) {
	active.Store(&name)
	return func() { active.Store(nil) }
}

// Mutant is a mutant: its name, the mutation point, and what it breaks.
type Mutant struct {
	Name, Where, Breaks string
}

// All lists the mutants, in the order the mutation table prints them.
var All []Mutant

// Register adds a mutant to All (called from the init of the package
// that holds its mutation point).
func Register(name, where, breaks string) {
	All = append(All, Mutant{name, where, breaks})
}
