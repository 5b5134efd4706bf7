// Package mutant switches on deliberately broken variants of the
// translations and semantics (mutation testing, proofs-tests'
// TestMutants): each mutant is one named, one-line change at a mutation
// point in the code, which asks On(name). With none on, every point takes
// its correct branch.
//
// The switch exists only in builds with the tag mutants (on.go): without
// it (off.go) On is the constant false, so arraysem cannot switch a mutant
// on and the compiler drops the broken branches. Under the tag there is
// one switch for the whole test binary, which is safe because the one test
// that sets it, TestMutants, is not parallel: Go runs a package's parallel
// tests only after its sequential ones, so no test can see another's
// mutant. Set refuses a second mutant while one is on.
//
//	go test -tags mutants -run TestMutants ./proofs-tests/
package mutant

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
