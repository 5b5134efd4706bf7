package proofstests

import "testing"

func TestFusionPreservesAndSaves(t *testing.T) {
	t.Parallel()
	checkExt(t, 20, "Fuse preserves meaning and does no more work", propFuse)
}

func TestSlicingPreservesAndHoists(t *testing.T) {
	t.Parallel()
	checkExt(t, 21, "SliceSizes preserves meaning, costs at most its overhead and leaves no allocation in a kernel", propSlice)
}
