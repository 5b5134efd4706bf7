package cuda_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
)

// mixedFile is the FUN example of folds of ints and of floats whose
// operators name their parameters alike (a, b, and c in their bodies):
// FUN → IMP declares each name as an int in some scopes and as a float in
// others, which the emitter once refused (scope.go).
var mixedFile = filepath.Join("..", "examples", "fun", "reduce_mixed.fun")

// mixedPrograms are reduce_mixed.fun compiled to IMP as `compile --to
// cuda` does (without MemoryExpand) and with it in both layouts, emitted,
// with the inputs of its test block and larger ones: enough elements for
// several threads' chunks and several blocks in the parallel folds, and
// floats that are quarters, whose sums are exact in any association.
func mixedPrograms(t *testing.T) []*harness.Program {
	t.Helper()
	src, err := os.ReadFile(mixedFile)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := check.ParseSpec(string(src), "--")
	if err != nil {
		t.Fatal(err)
	}
	var cases []map[string]string
	for _, c := range spec.Cases {
		cases = append(cases, c.Args)
	}
	for _, n := range []int{31, 300} {
		xs, ys, xss, yss := make([]string, n), make([]string, n), make([]string, 3), make([]string, 3)
		for i := range xs {
			xs[i] = strconv.Itoa((i*7919)%1009 - 500)
			ys[i] = strconv.FormatFloat(float64((i*31)%97-48)/4, 'f', 2, 64) // a float literal has a '.'
		}
		for i := range xss {
			xss[i] = "[" + strings.Join(xs[i*n/3:i*n/3+n/3], " ") + "]"
			yss[i] = "[" + strings.Join(ys[i*n/3:i*n/3+n/3], " ") + "]"
		}
		cases = append(cases, map[string]string{
			"xs": "[" + strings.Join(xs, " ") + "]", "ys": "[" + strings.Join(ys, " ") + "]",
			"xss": "[" + strings.Join(xss, " ") + "]", "yss": "[" + strings.Join(yss, " ") + "]",
		})
	}
	l, err := check.Load(check.NewRegistry(), mixedFile, string(src), check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ps []*harness.Program
	for _, o := range []lang.Options{{}, lang.Options{}.With("expand").WithString("layout", "gpu"), lang.Options{}.With("expand").WithString("layout", "cpu")} {
		st, err := check.NewRegistry().Compile(l, "imp", o)
		if err != nil {
			t.Fatal(err)
		}
		p := st[len(st)-1].Program.Syntax().(*imp.Program)
		// The program this test is about: the names have two types.
		text := imp.Print(p)
		for _, d := range []string{"var c : int", "var c : float"} {
			if !strings.Contains(text, d) || strings.Count(text, "combine a, b") < 6 {
				t.Fatalf("%s (%+v) no longer declares c and combines a, b as ints and as floats:\n%s", mixedFile, o, text)
			}
		}
		f, err := cuda.Emit(p, cuda.Options{})
		if err != nil {
			t.Fatalf("%s (%+v): %v", mixedFile, o, err)
		}
		ps = append(ps, &harness.Program{Name: fmt.Sprintf("reduce_mixed.fun %+v", o), Imp: p, CUDA: f.String(), Cases: cases})
	}
	return ps
}

// TestMixedFoldsInSim: reduce_mixed.fun, emitted, prints in gpu-sim what
// the interpreter prints, with blocks of 1, 3, 32 and 256 threads and
// three schedules.
func TestMixedFoldsInSim(t *testing.T) {
	t.Parallel()
	agreeInSim(t, mixedPrograms(t), simRuns{blocks: []int{1, 3, 32, 256}, seed: 3, file: "reduce_mixed.cu", succeed: true})
}

// TestMixedFoldsOnClang: reduce_mixed.fun, emitted, compiles to PTX and,
// under the sanitizers, on the host prints what the interpreter prints,
// with blocks of 2, 3 and 256 threads.
func TestMixedFoldsOnClang(t *testing.T) {
	t.Parallel()
	clangBuilds(t)
	agreeOnClang(t, "mixed", mixedPrograms(t), clangRuns{blocks: []string{"2", "3", "256"}})
}
