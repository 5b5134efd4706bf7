// Package propcheck drives gopter for the test packages beside
// proofs-tests (proofs-tests/remora, proofs-tests/levels) as proofs-tests'
// own test files do (fun_test.go, gopter_test.go), so that a seed and a
// count give the same cases in every package: the flags -n, -seed and
// -workers, the count of cases and gopter's parameters (flags.go), the
// generators of FUN cases (with shrinking) and of Remora and dialect
// cases, and the run of a property (gopter.go). Only test binaries import
// it, so that the arraysem command links neither gopter nor testing.
package propcheck
