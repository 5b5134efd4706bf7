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
	stats := newLevelStats()
	checkWith(t, ImpGenConfig(), 40, "FUN ≡ FUNMEM ≡ IMP (big and small step), translations race free", memN(), levelsProp(arraycheck.NewRegistry(), stats))
	stats.Lock()
	defer stats.Unlock()
	t.Logf("%d programs; where FUN is stuck, runs at the levels went on %d times (IMP checks no bounds, ERRATA I2) and went wrong %d times",
		stats.programs, stats.ranOn, stats.stuckToo)
	t.Logf("runs: %v", stats.runs)
	t.Logf("programs reached by language: %v", stats.reached)
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
	if len(missing) > 0 && stats.programs > 0 {
		t.Errorf("rules of Fig 12 never applied: %s", strings.Join(missing, " "))
	}
}

// TestImpSimplifyPreserves: IMP's simplifier keeps FunMemToImp's
// programs well typed and their meaning, results and errors alike, under
// IMP's three semantics (propImpSimplify); and it has something to do on
// the cases (the skips of slices and transposes, their unread scalars).
func TestImpSimplifyPreserves(t *testing.T) {
	t.Parallel()
	st := &impSimplifyStats{}
	checkWith(t, ImpGenConfig(), 41, "Simplify(FunMemToImp(q)) ≡ FunMemToImp(q) (big, rules and small step)", max(1, memN()/5), impSimplifyProp(st))
	st.Lock()
	defer st.Unlock()
	t.Logf("%d IMP programs compared, %d changed by Simplify", st.programs, st.changed)
	if st.programs >= 20 && st.changed == 0 {
		t.Errorf("Simplify changed none of %d IMP programs: the property checks nothing", st.programs)
	}
}
