package funmem

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// FuzzFunmem feeds arbitrary text through FUNMEM's pipeline: parse, the
// checker of Fig 8, then, for a program that checks, validity (Def 3.1:
// the value run of Fig 9 and the heap run of Fig 10 compared) and the
// heap's big-step and small-step runs, with every int input set to a
// small value and every array input of that size in each dimension.
// Nothing may panic, and when both heap runs end with results they must
// agree. Inputs over 4 KB, or with large constants or many products, are
// only parsed and checked; the small-step run has 100 000 steps of fuel
// and memory is capped at 64 MB. `go test` runs the seeds (the examples
// and the chunks of testdata); `go test -fuzz FuzzFunmem ./funmem`
// searches further.
func FuzzFunmem(f *testing.F) {
	files, chunks := golden.Seeds("../examples/funmem/*.funmem", "testdata/parse.txt", "testdata/check.txt")
	for _, src := range files {
		f.Add(src, int64(2))
	}
	for _, chunk := range chunks {
		f.Add(chunk, int64(3))
	}
	f.Fuzz(func(t *testing.T, src string, k int64) {
		if len(src) > 4096 {
			return
		}
		defer semantics.SetMaxMemory(semantics.MaxMemory())
		semantics.SetMaxMemory(64 << 20)
		p, err := ParseFile("fuzz.funmem", src)
		if err != nil {
			return
		}
		if _, err := Check(p, nil); err != nil || fuzzTooBig(src) {
			return
		}
		k = k%7 - 1 // sizes in -1 … 5
		args := fuzzArgs(p, k)
		CheckValidity(p, args)
		env, h, err := BindInputs(p, args)
		if err != nil {
			return
		}
		big, berr := EvalHeap(p, env, h, nil)
		env, h, err = BindInputs(p, args)
		if err != nil {
			t.Fatalf("inputs bind once but not twice: %v", err)
		}
		tree, terr := evalHeapTree(p, env, h, nil)
		if fmt.Sprint(berr) != fmt.Sprint(terr) || ValuesString(big) != ValuesString(tree) {
			t.Fatalf("compiled big-step %s (%v), tree-walking %s (%v)\n%s", ValuesString(big), berr, ValuesString(tree), terr, src)
		}
		env, h, err = BindInputs(p, args)
		if err != nil {
			t.Fatalf("inputs bind once but not twice: %v", err)
		}
		small, _, serr := RunHeapSmall(p, env, h, &semantics.RunOptions{Fuel: 100_000})
		if berr == nil && serr == nil && ValuesString(big) != ValuesString(small) {
			t.Fatalf("big-step %s, small-step %s\n%s", ValuesString(big), ValuesString(small), src)
		}
	})
}

var fuzzNumber = regexp.MustCompile(`[0-9]+`)

// fuzzTooBig refuses to run programs that could allocate much: large
// constants, or many products.
func fuzzTooBig(src string) bool {
	for _, n := range fuzzNumber.FindAllString(src, -1) {
		if v, err := strconv.Atoi(n); err != nil || v > 64 {
			return true
		}
	}
	return strings.Count(src, "*")+strings.Count(src, "·")+strings.Count(src, "×") > 3
}

// fuzzArgs gives every int input k and every array input the shape
// [k']…[k'] (k' = max(k, 0)), zeros; memory blocks are made by the heap
// semantics, not given.
func fuzzArgs(p *fun.Program, k int64) map[string]string {
	mems := map[string]bool{}
	for _, m := range MemInputs(p) {
		mems[m] = true
	}
	a := map[string]string{}
	n := max(k, 0)
	for _, in := range p.Inputs {
		if mems[in.Name.Name] {
			continue
		}
		if in.Type.IsInt() {
			a[in.Name.Name] = strconv.FormatInt(k, 10)
			continue
		}
		v := "0"
		for range in.Type.Rank() {
			items := make([]string, n)
			for i := range items {
				items[i] = v
			}
			v = "[" + strings.Join(items, " ") + "]"
		}
		a[in.Name.Name] = v
	}
	return a
}
