// Package remoraprops runs the Remora theorems of proofs-tests (package
// proofstests) on the CI budget: the typed dialect's (remora_test.go:
// remora-soundness, remora-big-small, remora-print-parse,
// remora-print-parse-steps, remora-optimised), the dialects' agreement
// (remora_dynamic_test.go: remora-dialects), the compile path
// (remora_levels_test.go: remora-levels) and the dynamic dialect's
// compiled levels (dialect_compiled_test.go: dialect-compiled). The
// theorems, their properties, the generators and the tests of the
// generators and of the erasure stay in proofstests (theorems.go lists
// the theorems, and arraysem prove runs them); this package has only
// tests, so that go test runs these campaigns beside proofstests' rather
// than inside that package's time, as proofs-tests/levels does the
// levels' theorems and proofs-tests/mutation the mutation table.
//
// The tests drive gopter through proofs-tests/internal/propcheck, with
// proofs-tests' flags (-n, -seed, -workers): the same seed and count give
// the same cases as in proofs-tests. Each property runs -n/RemoraDivisor
// generated programs (300 by default, 30 with -short), dialect-compiled a
// tenth of that, from -seed plus the property's offset.
package remoraprops
