package proofstests

import (
	"testing"
)

func TestReferenceEvaluatorAgrees(t *testing.T) {
	check(t, 8, "fun.Eval = reference evaluator", propReference)
}
