// Package remoraprops runs the Remora theorems of proofs-tests (package
// proofstests) on the CI budget: the typed dialect's (remora_test.go:
// remora-soundness, remora-big-small, remora-print-parse,
// remora-print-parse-steps, remora-optimised), the dialects' agreement
// (remora_dynamic_test.go: remora-dialects), the compile path
// (remora_levels_test.go: remora-levels) and the dynamic dialect's
// compiled levels (dialect_compiled_test.go: dialect-compiled). The
// theorems, their properties, the generators and the tests of the
// generators stay in proofstests (theorems.go lists them, and arraysem
// prove runs them); this package has only tests, so that go test runs
// these campaigns, about half of the suite's work, beside proofstests'
// rather than inside that package's time (as proofs-tests/mutation does
// the mutation table).
//
// gopter_test.go drives gopter as proofstests' test files do, with the
// same flags (-n, -seed, -workers), so that a seed and a count give the
// same cases in both packages: each property runs -n/RemoraDivisor
// generated programs (300 by default, 30 with -short), from the seed
// -seed plus its offset. A campaign gives both packages the flags:
//
//	go test ./proofs-tests ./proofs-tests/remora -timeout 0 -args -n 100000
//	go test ./proofs-tests/remora -v -run AtEveryLevel -args -n 20000 -seed 42
package remoraprops
