package proofstests

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

func TestFunFunmemImpAgree(t *testing.T) {
	t.Parallel()
	stats := &impStats{rules: semantics.Counter{}}
	memCheck(t, 40, "FUN ≡ FUNMEM ≡ IMP (big and small step), translations race free", impProp(stats))
	stats.Lock()
	defer stats.Unlock()
	t.Logf("%d programs, %d IMP translations; where FUN is stuck, IMP ran on %d times (no bounds checks, ERRATA I2) and went wrong %d times",
		stats.programs, stats.variants, stats.ranOn, stats.stuckToo)
	var missing, hits []string
	for _, r := range fig12Rules {
		if stats.rules[r] == 0 {
			missing = append(missing, r)
		}
		hits = append(hits, fmt.Sprintf("%s %d", r, stats.rules[r]))
	}
	sort.Strings(missing)
	t.Logf("Fig 12 rule counts: %s", strings.Join(hits, ", "))
	if len(missing) > 0 && stats.programs > 0 {
		t.Errorf("rules of Fig 12 never applied: %s", strings.Join(missing, " "))
	}
}
