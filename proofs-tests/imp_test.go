package proofstests

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

func TestFunFunmemImpAgree(t *testing.T) {
	memCheck(t, 40, "FUN ≡ FUNMEM ≡ IMP (big and small step), translations race free", propImp)
	impStats.Lock()
	defer impStats.Unlock()
	t.Logf("%d programs, %d IMP translations; where FUN is stuck, IMP ran on %d times (no bounds checks, ERRATA I2) and went wrong %d times",
		impStats.programs, impStats.variants, impStats.ranOn, impStats.stuckToo)
	var missing, hits []string
	for _, r := range fig12Rules {
		if impStats.rules[r] == 0 {
			missing = append(missing, r)
		}
		hits = append(hits, fmt.Sprintf("%s %d", r, impStats.rules[r]))
	}
	sort.Strings(missing)
	t.Logf("Fig 12 rule counts: %s", strings.Join(hits, ", "))
	if len(missing) > 0 && impStats.programs > 0 {
		t.Errorf("rules of Fig 12 never applied: %s", strings.Join(missing, " "))
	}
}
