package proofstests

import (
	"testing"
)

func TestReferenceEvaluatorAgrees(t *testing.T) {
	t.Parallel()
	checkExt(t, 8, "fun.Eval = reference evaluator", propReference)
}
