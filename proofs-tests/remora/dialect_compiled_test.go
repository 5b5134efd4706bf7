package remoraprops

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	arraycheck "github.com/arraysem/arraysem/check"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/proofs-tests/internal/propcheck"
)

// dialectDivisor divides the Remora properties' count for this one: each
// program runs at about thirty levels and semantics, gpu-sim among them
// (about 0.5 s a program, with the elaborated boxes, trees and
// rationals). arraysem prove --property dialect-compiled runs campaigns
// of any size.
const dialectDivisor = 10

// TestDialectCompiled is the dialect-compiled theorem
// (dialect_compiled_props.go): generated numeric programs of the dynamic
// dialect, around the values where exact and 64-bit numbers part, are
// never printed differently at a compiled level. The log shows how many
// compiled, how many runs refused on overflow, and why the others were
// declined; the property must compile enough programs, and see enough
// refusals and agreements, to say something.
func TestDialectCompiled(t *testing.T) {
	t.Parallel()
	stats := proofstests.NewCompiledStats()
	name := "dialect = every compiled level, or a 64-bit refusal"
	check(t, 120, max(1, remoraCount()/dialectDivisor), name, propcheck.GenDialectCase(), func(c *proofstests.RemoraCase) string {
		return proofstests.PropDialectCompiled(arraycheck.NewRegistry(), stats)(c)
	})
	if t.Failed() {
		return
	}
	stats.Lock()
	defer stats.Unlock()
	var lines []string
	for k, n := range stats.Declined {
		lines = append(lines, fmt.Sprintf("%4d declined: %s", n, k))
	}
	sort.Strings(lines)
	t.Logf("%d programs, %d compiled; runs: %d agreed, %d within the float re-association bound, %d refused (overflow), %d went wrong as the interpreter\n%s",
		stats.Programs, stats.Compiled, stats.Agreed, stats.Close, stats.Refused, stats.WrongToo, strings.Join(lines, "\n"))
	if 3*stats.Compiled < stats.Programs {
		t.Errorf("only %d of %d programs compiled", stats.Compiled, stats.Programs)
	}
	if stats.Programs >= 20 && (stats.Refused == 0 || stats.Agreed == 0) {
		t.Errorf("the property saw %d refusals and %d agreements: it does not exercise both", stats.Refused, stats.Agreed)
	}
}
