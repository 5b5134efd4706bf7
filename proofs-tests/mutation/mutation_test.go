//go:build !mutants

// Package mutation runs proofs-tests' mutation table (TestMutants, built
// with the tag mutants) as part of the plain go test ./..., in a package
// of its own: the table rebuilds proofs-tests with the tag and runs it on
// one core, and as a package of its own it runs beside proofs-tests'
// properties (go test runs packages in parallel) rather than inside that
// package's time.
package mutation

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// TestMutantsRun runs the mutation table (TestMutants, which exists only
// in builds with the tag mutants) as part of the plain `go test ./...`,
// so that the one test command CI and README give covers it: it builds
// proofs-tests again with the tag, in a child go test, and fails if any
// mutant survives. -short skips it. The mutants are switched on in the
// child only.
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
	child.Dir = ".." // proofs-tests
	child.Stdout, child.Stderr = &out, &out
	if err := child.Run(); err != nil {
		t.Fatalf("go test -tags mutants -run TestMutants: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "ok") {
		t.Fatalf("go test -tags mutants printed no ok line:\n%s", out.String())
	}
}
