//go:build !mutants

package mutant

// Enabled reports whether this build can switch mutants on: not without
// the build tag mutants.
const Enabled = false

// On reports whether the mutant name is switched on: never, in a build
// without the tag mutants. Being a constant false, it lets the compiler
// drop the mutation points' broken branches.
func On(name string) bool { return false }
