package fun

import (
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// FuzzPipeline feeds arbitrary text through the whole pipeline: parse,
// print and re-parse, check, and run under both semantics with every int
// input set to a small value. Nothing may panic, and whenever the program
// type checks, the two semantics must agree. `go test` runs the seeds (the
// examples and the chunks of testdata); `go test -fuzz FuzzPipeline ./fun`
// searches further.
func FuzzPipeline(f *testing.F) {
	files, chunks := golden.Seeds("../examples/fun/*.fun", "testdata/parse.txt", "testdata/check.txt")
	for _, src := range files {
		f.Add(src, int64(2))
	}
	for _, chunk := range chunks {
		f.Add(chunk, int64(3))
	}
	f.Fuzz(func(t *testing.T, src string, k int64) {
		p, err := ParseFile("fuzz.fun", src)
		if err != nil {
			return
		}
		if _, err := ParseFile("printed.fun", Print(p)); err != nil {
			t.Fatalf("printed program does not parse: %v\n%s", err, Print(p))
		}
		if _, err := Check(p, &CheckOptions{Derive: true}); err != nil {
			return
		}
		k = k%7 - 1 // sizes and indices in -1 … 5
		var env *Env
		for _, in := range p.Inputs {
			v := semantics.Scalar(k)
			if !in.Type.IsInt() {
				shape := make([]int64, in.Type.Rank())
				for i := range shape {
					shape[i] = max(k, 0)
				}
				n, _ := semantics.Count(shape)
				v = semantics.Array{Shape: shape, Data: make([]int64, n)}
			}
			env = env.Bind(in.Name.Name, v)
		}
		show := func(vs []semantics.Array, err error) string {
			if err != nil {
				return err.Error()
			}
			return valuesString(vs)
		}
		big, _, berr := Eval(p, env, &EvalOptions{Derive: true})
		small, _, serr := RunSmall(p, env, &semantics.RunOptions{Fuel: 1_000_000})
		if e, ok := serr.(*semantics.Error); ok && e.Kind == semantics.FuelError {
			return
		}
		if b, s := show(big, berr), show(small, serr); b != s {
			t.Fatalf("big-step %s, small-step %s\n%s", b, s, src)
		}
	})
}
