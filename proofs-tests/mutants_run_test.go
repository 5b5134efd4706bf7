//go:build !mutants

package proofstests

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// TestMutantsRun runs the mutation table (TestMutants, which exists only
// in builds with the tag mutants) as part of the plain `go test ./...`,
// so that the one test command CI and README give covers it: it builds
// this package again with the tag, in a child go test, and fails if any
// mutant survives. -short skips it. The mutants are switched on in the
// child only, so the test runs in parallel with the others; it starts the
// child before it pauses for the parallel phase, so that the rebuild and
// the table (the longest work of the package, on one core) run alongside
// every other test from the start, not after some of them.
func TestMutantsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("the mutation table takes a rebuild and about a minute; go test -v -tags mutants -run 'TestMutants$' ./proofs-tests/ runs it alone")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the mutation table needs the go command on PATH: %v", err)
	}
	var out bytes.Buffer
	child := exec.Command(gobin, "test", "-tags", "mutants", "-run", "^TestMutants$", "-count=1", ".")
	child.Stdout, child.Stderr = &out, &out
	if err := child.Start(); err != nil {
		t.Fatalf("go test -tags mutants -run TestMutants: %v", err)
	}
	t.Parallel()
	if err := child.Wait(); err != nil {
		t.Fatalf("go test -tags mutants -run TestMutants: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "ok") {
		t.Fatalf("go test -tags mutants printed no ok line:\n%s", out.String())
	}
}
