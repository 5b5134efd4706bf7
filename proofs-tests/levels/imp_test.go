package levelprops

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	arraycheck "github.com/arraysem/arraysem/check"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/proofs-tests/internal/propcheck"
)

// TestFunFunmemImpAgree is the fun-funmem-imp theorem (levels_props.go)
// on -n/MemDivisor cases of ImpGenConfig. The log shows what the walks
// reached and ran; every rule of Fig 12 must apply.
func TestFunFunmemImpAgree(t *testing.T) {
	t.Parallel()
	stats := proofstests.NewLevelStats()
	n := max(1, propcheck.CaseCount()/proofstests.MemDivisor)
	propcheck.Check(t, propcheck.Params(40, n), "FUN ≡ FUNMEM ≡ IMP (big and small step), translations race free",
		propcheck.GenCase(proofstests.ImpGenConfig()), proofstests.LevelsProp(arraycheck.NewRegistry(), stats))
	stats.Lock()
	defer stats.Unlock()
	t.Logf("%d programs; where FUN is stuck, runs at the levels went on %d times (IMP checks no bounds, ERRATA I2) and went wrong %d times",
		stats.Programs, stats.RanOn, stats.StuckToo)
	t.Logf("runs: %v", stats.Runs)
	t.Logf("programs reached by language: %v", stats.Reached)
	for l, why := range proofstests.UnrunLevels {
		t.Logf("%s: compiled and read back, not run (%s)", l, why)
	}
	var missing, hits []string
	for _, r := range proofstests.Fig12Rules {
		if stats.Rules[r] == 0 {
			missing = append(missing, r)
		}
		hits = append(hits, fmt.Sprintf("%s %d", r, stats.Rules[r]))
	}
	sort.Strings(missing)
	t.Logf("Fig 12 rule counts: %s", strings.Join(hits, ", "))
	if len(missing) > 0 && stats.Programs > 0 {
		t.Errorf("rules of Fig 12 never applied: %s", strings.Join(missing, " "))
	}
}
