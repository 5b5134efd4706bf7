// Package levelprops runs the theorems of the levels below FUN and of the
// optimising passes of proofs-tests (package proofstests) on the CI
// budget: the level agreement fun-funmem-imp (imp_test.go:
// TestFunFunmemImpAgree, which also requires every rule of Fig 12 to
// apply; levels_test.go: the property covers a newly registered pass and
// names a pass that breaks programs) and fuse and slice (optimise_test.go).
// The theorems, their properties and the generators stay in proofstests
// (theorems.go lists them, and arraysem prove runs them); this package has
// only tests, so that go test runs these campaigns beside proofstests'
// rather than inside that package's time, as proofs-tests/remora does the
// Remora theorems and proofs-tests/mutation the mutation table.
//
// The tests drive gopter through proofs-tests/internal/propcheck, with
// proofs-tests' flags (-n, -seed, -workers): the same seed and count give
// the same cases as in proofs-tests. fun-funmem-imp runs -n/MemDivisor
// cases (500 by default, 50 with -short), fuse and slice -n (3000, 300
// with -short).
package levelprops
