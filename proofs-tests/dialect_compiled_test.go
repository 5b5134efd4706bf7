package proofstests

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// dialectDivisor divides the Remora properties' count for this one: each
// program runs at about thirty levels and semantics, gpu-sim among them
// (about 0.5 s a program, with the elaborated boxes, trees and
// rationals). arraysem prove --property dialect-compiled runs campaigns
// of any size.
const dialectDivisor = 10

// TestDialectCompiled is the dialect-compiled theorem: generated numeric
// programs of the dynamic dialect, around the values where exact and
// 64-bit numbers part, are never printed differently at a compiled
// level. The log shows how many compiled, how many runs refused on
// overflow, and why the others were declined; the property must compile
// enough programs, and see enough refusals and agreements, to say
// something.
func TestDialectCompiled(t *testing.T) {
	t.Parallel()
	stats := newCompiledStats()
	name := "dialect = every compiled level, or a 64-bit refusal"
	props := gopter.NewProperties(params(120, max(1, remoraCount()/dialectDivisor)))
	props.Property(name, prop.ForAll(func(c *RemoraCase) (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprintf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		return propDialectCompiled(arraycheck.NewRegistry(), stats)(c)
	}, GenDialectCase()))
	var out bytes.Buffer
	if !props.Run(gopter.NewFormatedReporter(true, 1<<20, &out)) {
		t.Fatalf("property %q failed (rerun with -args -seed %d):\n%s", name, *flagSeed, out.String())
	}
	stats.mu.Lock()
	defer stats.mu.Unlock()
	var lines []string
	for k, n := range stats.declined {
		lines = append(lines, fmt.Sprintf("%4d declined: %s", n, k))
	}
	sort.Strings(lines)
	t.Logf("%d programs, %d compiled; runs: %d agreed, %d within the float re-association bound, %d refused (overflow), %d went wrong as the interpreter\n%s",
		stats.programs, stats.compiled, stats.agreed, stats.close, stats.refused, stats.wrongToo, strings.Join(lines, "\n"))
	if 3*stats.compiled < stats.programs {
		t.Errorf("only %d of %d programs compiled", stats.compiled, stats.programs)
	}
	if stats.programs >= 20 && (stats.refused == 0 || stats.agreed == 0) {
		t.Errorf("the property saw %d refusals and %d agreements: it does not exercise both", stats.refused, stats.agreed)
	}
}
