package levelprops

import (
	"testing"

	"github.com/arraysem/arraysem/proofs-tests/internal/propcheck"
)

// checkTheorem runs the registered FUN theorem named name (theorems.go)
// over -n cases of its generator configuration, from -seed plus offset.
func checkTheorem(t *testing.T, offset int64, theorem, name string) {
	t.Helper()
	th := propcheck.Theorem(t, theorem)
	if th.Fun == nil {
		t.Fatalf("%s is not a FUN theorem", theorem)
	}
	propcheck.Check(t, propcheck.Params(offset, propcheck.CaseCount()), name, propcheck.GenCase(th.FunConfig()), th.Fun)
}

// The optimising passes' theorems (optimise_props.go).

func TestFusionPreservesAndSaves(t *testing.T) {
	t.Parallel()
	checkTheorem(t, 20, "fuse", "Fuse preserves meaning and does no more work")
}

func TestSlicingPreservesAndHoists(t *testing.T) {
	t.Parallel()
	checkTheorem(t, 21, "slice", "SliceSizes preserves meaning, costs at most its overhead and leaves no allocation in a kernel")
}
