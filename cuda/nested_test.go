package cuda_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
)

// nestedFiles are FUN programs with folds nested in threads: the
// generator's reproducer of a neutral element left out of a kernel's
// parameters, and reduces, scans, a float reduce, a scan in a loop and a
// filter in kernels, with empty arrays in their test blocks.
var nestedFiles = []string{filepath.Join("testdata", "nested_repro.fun"), filepath.Join("testdata", "nested.fun")}

// nestedPrograms are the nested files compiled to IMP as `compile --to
// cuda` does (no MemoryExpand) and, as harness.Programs does, in both
// layouts of MemoryExpand, emitted, with the inputs of their test blocks.
func nestedPrograms(t *testing.T) []*harness.Program {
	t.Helper()
	ps, err := harness.Programs(check.NewRegistry(), nestedFiles)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2*len(nestedFiles) {
		t.Fatalf("%d programs from %d files", len(ps), len(nestedFiles))
	}
	for i, file := range nestedFiles {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		l, err := check.Load(check.NewRegistry(), file, string(src), check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st, err := check.NewRegistry().Compile(l, "imp", lang.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := st[len(st)-1].Program.Syntax().(*imp.Program)
		f, err := cuda.Emit(p, cuda.Options{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		ps = append(ps, &harness.Program{Name: file, Imp: p, CUDA: f.String(), Cases: ps[2*i].Cases})
	}
	return ps
}

// TestNestedFoldsInSim: the nested files, emitted, print in gpu-sim what
// the interpreter prints, with blocks of 1, 3 and 32 threads and three
// schedules.
func TestNestedFoldsInSim(t *testing.T) {
	t.Parallel()
	agreeInSim(t, nestedPrograms(t), simRuns{blocks: []int{1, 3, 32}, seed: 5, succeed: true})
}

// TestNestedFoldsOnClang: the nested files, emitted, compile to PTX and,
// under the sanitizers, on the host print what the interpreter prints,
// with blocks of 2 and 256 threads.
func TestNestedFoldsOnClang(t *testing.T) {
	t.Parallel()
	clangBuilds(t)
	agreeOnClang(t, "nested", nestedPrograms(t), clangRuns{blocks: []string{"2", "256"}})
}

// TestEmitUnbound: a name the emitter gives no C++ variable is Emit's
// error, not an empty expression in the file. The program is IMP's
// checker's, then stripped of a declaration the emitter relies on (its
// frames declare what a body writes), which only a bug of the emitter
// could do to a checked program.
func TestEmitUnbound(t *testing.T) {
	p, err := imp.ParseFile("unbound.imp", "var s : int; s <- 1; var t : int; t <- s; return t")
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Check(p, nil); err != nil {
		t.Fatal(err)
	}
	p.Body = p.Body[2:] // t <- s, with s declared nowhere
	_, err = cuda.Emit(p, cuda.Options{})
	if err == nil || err.Error() != fmt.Sprintf("cuda: internal error: the emitter gave IMP's s (int) no C++ variable in %s", p.File) {
		t.Fatalf("Emit: %v", err)
	}
}

// coopFile is kernels whose iterations fold rows of up to 70 elements,
// which run a block per iteration (coop.go) from 32 elements a row.
var coopFile = filepath.Join("testdata", "coop.fun")

// coopPrograms are coop.fun compiled as nestedPrograms compiles.
func coopPrograms(t *testing.T) []*harness.Program {
	t.Helper()
	ps, err := harness.Programs(check.NewRegistry(), []string{coopFile})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if !strings.Contains(p.CUDA, "_blocks(arraysem_error *") {
			t.Fatalf("%s: no kernel of a block per iteration in the emitted file", p.Name)
		}
	}
	return ps
}

// TestCoopFoldsInSim: coop.fun prints in gpu-sim what the interpreter
// prints, with blocks of 1, 3, 32 and 256 threads and three schedules:
// rows folded by a block (in order, the last element kept by a
// non-commutative operator), writes by its thread 0, a stuck element.
func TestCoopFoldsInSim(t *testing.T) {
	agreeInSim(t, coopPrograms(t), simRuns{blocks: []int{1, 3, 32, 256}, seed: 9})
}

// TestCoopFoldsOnClang: coop.fun compiles to PTX and, under the
// sanitizers, on the host prints what the interpreter prints, with
// blocks of 2 and 256 threads.
func TestCoopFoldsOnClang(t *testing.T) {
	clangBuilds(t)
	agreeOnClang(t, "coop", coopPrograms(t), clangRuns{blocks: []string{"2", "256"}})
}

// fissionFile is reduces on the host whose elements fold rows of up to
// 70 elements, which run as a kernel of a block per element and a reduce
// of its results (fission.go) from 32 elements a row.
var fissionFile = filepath.Join("testdata", "fission.fun")

// fissionPrograms are fission.fun compiled as nestedPrograms compiles.
func fissionPrograms(t *testing.T) []*harness.Program {
	t.Helper()
	ps, err := harness.Programs(check.NewRegistry(), []string{fissionFile})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if !strings.Contains(p.CUDA, "cuda/fission.go") || !strings.Contains(p.CUDA, "_blocks(arraysem_error *") {
			t.Fatalf("%s: the reduces' elements are not split off as a kernel of a block per element", p.Name)
		}
	}
	return ps
}

// TestFissionInSim: fission.fun prints in gpu-sim what the interpreter
// prints, with blocks of 1, 3, 32 and 256 threads and three schedules:
// the split reduces (in order, the last element kept by a
// non-commutative operator, a float sum, a stuck element) and, with
// short rows, the parallel fold.
func TestFissionInSim(t *testing.T) {
	agreeInSim(t, fissionPrograms(t), simRuns{blocks: []int{1, 3, 32, 256}, seed: 11})
}

// TestFissionOnClang: fission.fun compiles to PTX and, under the
// sanitizers, on the host prints what the interpreter prints, with
// blocks of 2 and 256 threads.
func TestFissionOnClang(t *testing.T) {
	clangBuilds(t)
	agreeOnClang(t, "fission", fissionPrograms(t), clangRuns{blocks: []string{"2", "256"}})
}
