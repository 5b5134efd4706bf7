package proofstests

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	arraycheck "github.com/arraysem/arraysem/check"
)

func TestFunFunmemImpAgree(t *testing.T) {
	t.Parallel()
	stats := NewLevelStats()
	checkWith(t, ImpGenConfig(), 40, "FUN ≡ FUNMEM ≡ IMP (big and small step), translations race free", memN(), levelsProp(arraycheck.NewRegistry(), stats))
	stats.Lock()
	defer stats.Unlock()
	t.Logf("%d programs; where FUN is stuck, runs at the levels went on %d times (IMP checks no bounds, ERRATA I2) and went wrong %d times",
		stats.Programs, stats.ranOn, stats.stuckToo)
	t.Logf("runs: %v", stats.Runs)
	t.Logf("programs reached by language: %v", stats.Reached)
	for l, why := range unrunLevels {
		t.Logf("%s: compiled and read back, not run (%s)", l, why)
	}
	var missing, hits []string
	for _, r := range fig12Rules {
		if stats.rules[r] == 0 {
			missing = append(missing, r)
		}
		hits = append(hits, fmt.Sprintf("%s %d", r, stats.rules[r]))
	}
	sort.Strings(missing)
	t.Logf("Fig 12 rule counts: %s", strings.Join(hits, ", "))
	if len(missing) > 0 && stats.Programs > 0 {
		t.Errorf("rules of Fig 12 never applied: %s", strings.Join(missing, " "))
	}
}
