package check

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// fuzzFiles are the files FuzzCompilePath reads its input as, by the
// input's selector: a FUN program, a Remora program (typed, or the
// dynamic dialect with its #lang line) and a FUNMEM program.
var fuzzFiles = []string{"fuzz.fun", "fuzz.remora", "fuzz.funmem"}

// FuzzCompilePath feeds arbitrary text down the compile path to CUDA
// (source → compile --to cuda) and runs the emitted file in gpu-sim
// (issue 32). The compile has no filter on the program's constants: no
// pass may panic or hand on a program its target's checker rejects (a
// refusal, such as Lower's, is fine). When the program has no inputs and
// no constant above 100, the source runs by its small-step semantics
// (100 000 steps of fuel) and the CUDA file in gpu-sim (10^6 statements,
// allocations of at most 2^16 words): where both finish, they print the
// same lines, unless a pass re-associates a float fold. Inputs over 4 KB
// are skipped; memory is capped at 64 MB.
// `go test -fuzz FuzzCompilePath ./check` searches further.
func FuzzCompilePath(f *testing.F) {
	for i, dir := range []string{"fun", "remora", "funmem"} {
		files, _ := filepath.Glob(filepath.Join("..", "examples", dir, "*"))
		if dir == "remora" {
			more, _ := filepath.Glob(filepath.Join("..", "examples", "remora-dynamic", "*.remora"))
			files = append(files, more...)
		}
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil && len(src) <= 4096 {
				f.Add(uint8(i), string(src))
			}
		}
	}
	f.Add(uint8(1), "#lang remora/dynamic\n(iota [99999999999])\n")
	f.Add(uint8(1), "#lang remora/dynamic\n(expt 9 10000)\n")
	f.Add(uint8(1), "#lang remora/dynamic\n"+strings.Repeat("[", 40)+"1"+strings.Repeat("]", 40)+"\n")
	f.Fuzz(func(t *testing.T, which uint8, src string) {
		if len(src) > 4096 {
			return
		}
		defer semantics.SetMaxMemory(semantics.MaxMemory())
		semantics.SetMaxMemory(64 << 20)
		reg := NewRegistry()
		file := fuzzFiles[int(which)%len(fuzzFiles)]
		p, err := Load(reg, file, src, Options{})
		if err != nil {
			return
		}
		st, err := reg.Compile(p, "cuda", lang.Options{})
		var pe *lang.PassError
		if errors.As(err, &pe) && (pe.Panic != "" || pe.Text != "") {
			t.Fatalf("%v\n%s", err, src)
		}
		if err != nil || len(p.Inputs()) > 0 || fuzzLarge(src) {
			return
		}
		cu, err := gpusim.Parse(file+".cu", st[len(st)-1].Text())
		if err != nil {
			t.Fatalf("gpu-sim does not read the emitted CUDA: %v\n%s", err, src)
		}
		out, _, cerr := gpusim.Run(cu, nil, gpusim.Options{Block: 4, Fuel: 1_000_000, MaxElems: 1 << 16})
		r, serr := p.Run(lang.RunOptions{Semantics: "small", RunOptions: semantics.RunOptions{Fuel: 100_000}})
		if cerr != nil || serr != nil || Reassociates(st) {
			return
		}
		if got, want := strings.TrimSuffix(out, "\n"), strings.Join(r.Lines, "\n"); got != want {
			t.Fatalf("gpu-sim prints\n%s\nthe source\n%s\n%s", got, want, src)
		}
	})
}

var fuzzNumber = regexp.MustCompile(`[0-9]+`)

// fuzzLarge: a constant over 100 could ask a run for much work.
func fuzzLarge(src string) bool {
	for _, n := range fuzzNumber.FindAllString(src, -1) {
		if v, err := strconv.Atoi(n); err != nil || v > 100 {
			return true
		}
	}
	return false
}
