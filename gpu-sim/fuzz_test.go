package gpusim_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
)

// FuzzParseRun: no text makes gpu-sim panic, whether it parses or not.
// The fuzzed text is the program after the prelude: the target prepends
// cuda.Prelude, which gpu-sim requires verbatim. (Fuzzing whole files
// stalled: every input carried the 40 KB prelude, almost every mutation
// landed in it and was refused at once, and each new input took the
// minimizer its full minute; see docs/robustness.md.) The seeds are the
// programs compile --to cuda emits for examples/imp, those whose program
// part is under 8 KB, and their halves; longer inputs are skipped. Each
// run has 100 000 statements of fuel and allocations of at most 2^16
// integers. Under go test only the seeds run; go test -fuzz explores.
func FuzzParseRun(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "examples", "imp", "*.imp"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		p, err := imp.ParseFile(filepath.ToSlash(file), string(src))
		if err != nil || imp.Check(p, nil) != nil {
			continue
		}
		cf, err := cuda.Emit(p, cuda.Options{})
		if err != nil {
			continue
		}
		_, rest, _ := strings.Cut(cf.String(), cuda.PreludeEnd)
		if len(rest) > maxFuzzProgram {
			continue
		}
		f.Add(rest)
		lines := strings.Split(rest, "\n")
		f.Add(strings.Join(lines[:len(lines)/2], "\n"))
		f.Add(strings.Join(lines[len(lines)/2:], "\n"))
	}
	f.Fuzz(func(t *testing.T, rest string) {
		if len(rest) > maxFuzzProgram {
			return
		}
		prog, err := gpusim.Parse("fuzz.cu", cuda.Prelude+rest)
		if err != nil {
			return
		}
		gpusim.Run(prog, []string{"n=3", "m=2"}, gpusim.Options{Block: 4, Fuel: 100000, MaxElems: 1 << 16})
	})
}

// maxFuzzProgram bounds the program part of a fuzzed file.
const maxFuzzProgram = 8 << 10
