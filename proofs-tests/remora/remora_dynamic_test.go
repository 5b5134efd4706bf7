package remoraprops

import (
	"testing"

	proofstests "github.com/arraysem/arraysem/proofs-tests"
)

// TestRemoraDialectsAgree is the remora-dialects theorem
// (remora_dynamic_props.go): a typed program and its erasure agree. The
// log shows what the property saw; enough programs must erase, and their
// runs apply every rule of the dynamic dialect, for it to say something.
func TestRemoraDialectsAgree(t *testing.T) {
	t.Parallel()
	st := proofstests.NewDialectStats()
	checkRemora(t, 105, "Remora typed = dynamic on erased programs", proofstests.DefaultRemoraGenConfig, func(c *proofstests.RemoraCase) string {
		return proofstests.PropDialectsAgree(c, st)
	})
	t.Log(st.Report())
	if t.Failed() {
		return
	}
	if rate := float64(st.Erased) / float64(max(1, st.Generated)); rate < proofstests.RemoraDialectMinErasable {
		t.Errorf("only %d of %d programs (%.0f%%) erase; the property needs at least %.0f%%", st.Erased, st.Generated, 100*rate, 100*proofstests.RemoraDialectMinErasable)
	}
	for _, r := range proofstests.RemoraDialectRules {
		if st.Big[r] == 0 {
			t.Errorf("no erased program applies rule %s in the dynamic big-step", r)
		}
		if st.Small[r] == 0 {
			t.Errorf("no erased program applies rule %s in the dynamic small-step", r)
		}
	}
}
