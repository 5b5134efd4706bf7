package proofstests

import (
	"strings"
	"testing"
)

// TestCoverNoZeroRows: over the CI budget's programs, every rule of Figs
// 3, 4, 8, 10 and 12 (FUN, FUNMEM, IMP) and of Remora's Figs 6-8 is
// applied (arraysem cover prints the same table).
func TestCoverNoZeroRows(t *testing.T) {
	t.Parallel()
	// Not caseCount: Remora's rarer rules (T-RESHAPE, T-REIFY) need the CI
	// count's 300 programs, -short or not.
	cov, err := Cover(max(1, *flagN/10), *flagSeed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if zero := cov.Zero(); len(zero) > 0 {
		t.Errorf("rules never applied:\n  %s", strings.Join(zero, "\n  "))
	}
	for _, f := range Figures {
		t.Logf("%s: %v", f.Name, cov[f.Name])
	}
}
