package remoraprops

import "testing"

// The typed dialect's theorems (remora_props.go), each the registered
// theorem arraysem prove runs.

func TestRemoraTypeSoundness(t *testing.T) {
	t.Parallel()
	th := remoraTheorem(t, "remora-soundness")
	checkRemora(t, 100, "Remora Theorem 1: progress and preservation at every step", th.RemoraConfig(), th.Remora)
}

func TestRemoraBigStepSmallStepAgree(t *testing.T) {
	t.Parallel()
	th := remoraTheorem(t, "remora-big-small")
	checkRemora(t, 101, "Remora big-step = small-step", th.RemoraConfig(), th.Remora)
}

func TestRemoraPrintParse(t *testing.T) {
	t.Parallel()
	th := remoraTheorem(t, "remora-print-parse")
	checkRemora(t, 102, "Remora print∘parse = id", th.RemoraConfig(), th.Remora)
}

func TestRemoraPrintParseSteps(t *testing.T) {
	t.Parallel()
	th := remoraTheorem(t, "remora-print-parse-steps")
	checkRemora(t, 103, "Remora print∘parse = id on every configuration", th.RemoraConfig(), th.Remora)
}

// TestRemoraOptimisedAgrees is the remora-optimised theorem
// (optimise_props.go): the optimising passes on Remora's compile path.
func TestRemoraOptimisedAgrees(t *testing.T) {
	t.Parallel()
	th := remoraTheorem(t, "remora-optimised")
	checkRemora(t, 111, "Remora compiled to FUN with and without slicing and fusion agrees, and the optimised FUN does no more work", th.RemoraConfig(), th.Remora)
}
