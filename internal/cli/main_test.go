package cli

import (
	"os"
	"testing"
)

// TestMain runs the tests from the repository's root, where the
// commands' example paths (examples/…, README.md, main.go) are.
func TestMain(m *testing.M) {
	if err := os.Chdir("../.."); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}
