package cuda_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda/harness"
	"github.com/arraysem/arraysem/lang"
)

// mimdExamples are the examples that apply arrays of distinct functions
// (MIMD, Fig 2 of "The semantics of rank polymorphism"), in both
// dialects, which Inline compiles by defunctionalisation.
var mimdExamples = []string{
	"../examples/remora/rp_fig2_function_arrays.remora",
	"../examples/remora/higher_order.remora",
	"../examples/remora-dynamic/rp_fig2_function_arrays.remora",
}

// TestMIMDOnClang: the MIMD examples compile down to CUDA in both layouts;
// the IMP interpreter prints what the Remora interpreter prints; and the
// emitted programs agree with it in gpu-sim and built with clang (PTX,
// and the host under the sanitizers).
func TestMIMDOnClang(t *testing.T) {
	ps, declined, err := harness.Load(check.NewRegistry(), mimdExamples)
	if err != nil {
		t.Fatal(err)
	}
	// A program per layout, or one where both layouts give the same.
	if len(declined) > 0 || len(ps) < len(mimdExamples) || len(ps) > 2*len(mimdExamples) {
		t.Fatalf("%d programs of %d examples; declined: %v", len(ps), len(mimdExamples), declined)
	}
	for _, p := range ps {
		file, _, _ := strings.Cut(p.Name, " ")
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		l, err := check.Load(check.NewRegistry(), file, string(src), check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := l.Run(lang.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := harness.Interpret(p.Imp, nil); !slices.Equal(got.Lines, r.Lines) {
			t.Errorf("%s: IMP prints %q (%s), Remora %q", p.Name, got.Lines, got.Err, r.Lines)
		}
	}
	agreeInSim(t, ps, simRuns{blocks: []int{1, 3, 256}, seed: 27, succeed: true})
	clangBuilds(t)
	agreeOnClang(t, "mimd", ps, clangRuns{blocks: []string{"2", "256"}})
}
