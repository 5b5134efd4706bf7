package cli

import (
	"os"
	"testing"
)

// TestMain runs the tests from the repository's root, where the
// commands' example paths (examples/…, README.md, main.go) are, with no
// $COLUMNS.
func TestMain(m *testing.M) {
	if err := os.Chdir("../.."); err != nil {
		panic(err)
	}
	// Tables fit $COLUMNS when it is set (screenWidth): the tests
	// stand in for a terminal themselves.
	os.Unsetenv("COLUMNS")
	os.Exit(m.Run())
}
