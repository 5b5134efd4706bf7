package remoraprops

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	arraycheck "github.com/arraysem/arraysem/check"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
)

// TestRemoraAtEveryLevel is the remora-levels theorem
// (remora_levels_props.go): generated Remora programs give the same
// results at every stage and level of the compile path. The log shows how
// many programs reached each level and why the others were declined; the
// property must reach FUN, FUNMEM and IMP on most programs, so that it
// says something about them.
func TestRemoraAtEveryLevel(t *testing.T) {
	t.Parallel()
	stats := proofstests.NewLevelStats()
	checkRemora(t, 110, "Remora = every stage and level of the compile path", proofstests.DefaultRemoraGenConfig, proofstests.PropRemoraLevels(arraycheck.NewRegistry(), stats))
	stats.Lock()
	defer stats.Unlock()
	var lines []string
	for k, n := range stats.Declined {
		lines = append(lines, fmt.Sprintf("%4d declined: %s", n, k))
	}
	sort.Strings(lines)
	t.Logf("%d programs; reached: %v; runs: %v\n%s", stats.Programs, stats.Reached, stats.Runs, strings.Join(lines, "\n"))
	for _, level := range []string{"Remora IR", "FUN", "FUNMEM", "IMP"} {
		if 2*stats.Reached[level] < stats.Programs {
			t.Errorf("only %d of %d programs reached %s", stats.Reached[level], stats.Programs, level)
		}
	}
}
