package proofstests

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	arraycheck "github.com/arraysem/arraysem/check"
)

// TestRemoraAtEveryLevel is the remora-levels theorem: generated Remora
// programs give the same results at every stage and level of the compile
// path. The log shows how many programs reached each level and why the
// others were declined; the property must reach FUN, FUNMEM and IMP on
// most programs, so that it says something about them.
func TestRemoraAtEveryLevel(t *testing.T) {
	t.Parallel()
	stats := newLevelStats()
	checkRemora(t, 110, "Remora = every stage and level of the compile path", DefaultRemoraGenConfig, propRemoraLevels(arraycheck.NewRegistry(), stats))
	stats.Lock()
	defer stats.Unlock()
	var lines []string
	for k, n := range stats.declined {
		lines = append(lines, fmt.Sprintf("%4d declined: %s", n, k))
	}
	sort.Strings(lines)
	t.Logf("%d programs; reached: %v; runs: %v\n%s", stats.programs, stats.reached, stats.runs, strings.Join(lines, "\n"))
	for _, level := range []string{"Remora IR", "FUN", "FUNMEM", "IMP"} {
		if 2*stats.reached[level] < stats.programs {
			t.Errorf("only %d of %d programs reached %s", stats.reached[level], stats.programs, level)
		}
	}
}
