package proofstests

import "testing"

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
