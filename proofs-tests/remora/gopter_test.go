package remoraprops

import (
	"fmt"
	"runtime/debug"
	"testing"

	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/proofs-tests/internal/propcheck"
	"github.com/leanovate/gopter"
)

// remoraCount is the Remora properties' count of cases.
func remoraCount() int { return max(1, propcheck.CaseCount()/proofstests.RemoraDivisor) }

// remoraTheorem is the registered Remora theorem named name.
func remoraTheorem(t *testing.T, name string) proofstests.Theorem {
	t.Helper()
	th := propcheck.Theorem(t, name)
	if th.Remora == nil {
		t.Fatalf("%s is not a Remora theorem", name)
	}
	return th
}

// checkRemora runs a property over remoraCount() generated Remora
// programs, from -seed plus offset.
func checkRemora(t *testing.T, offset int64, name string, cfg proofstests.RemoraGenConfig, property func(c *proofstests.RemoraCase) string) {
	t.Helper()
	check(t, offset, remoraCount(), name, propcheck.GenRemoraCase(cfg), property)
}

// check runs a property over n cases of gen; a panic is the property's
// failure, with its stack.
func check(t *testing.T, offset int64, n int, name string, gen gopter.Gen, property func(c *proofstests.RemoraCase) string) {
	t.Helper()
	propcheck.Check(t, propcheck.Params(offset, n), name, gen, func(c *proofstests.RemoraCase) (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprintf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		return property(c) // gopter prints the program (ARG_0) after the message
	})
}
