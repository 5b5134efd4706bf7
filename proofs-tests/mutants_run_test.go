//go:build !mutants

package proofstests

import (
	"os/exec"
	"strings"
	"testing"
)

// TestMutantsRun runs the mutation table (TestMutants, which exists only
// in builds with the tag mutants) as part of the plain `go test ./...`,
// so that the one test command CI and README give covers it: it builds
// this package again with the tag, in a child go test, and fails if any
// mutant survives. -short skips it. The mutants are switched on in the
// child only, so the test runs in parallel with the others.
func TestMutantsRun(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the mutation table takes a rebuild and about a minute; go test -tags mutants -run TestMutants ./proofs-tests/ runs it alone")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the mutation table needs the go command on PATH: %v", err)
	}
	out, err := exec.Command(gobin, "test", "-tags", "mutants", "-run", "^TestMutants$", "-count=1", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go test -tags mutants -run TestMutants: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "ok") {
		t.Fatalf("go test -tags mutants printed no ok line:\n%s", out)
	}
}
