package imp

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// FuzzPipeline feeds arbitrary text through IMP's pipeline: parse, print
// and re-parse, check, and run under both semantics with every int input
// set to a small value and every array input of that size in each
// dimension. Nothing may panic; the printed program must parse back to
// the same printed text; checking with the typing derivation gives the
// plain check's verdict, an error with the derivation down to its rule;
// and whenever the program checks and the
// small-step run ends within its fuel, the two semantics must agree on
// the results, the error, and the final heap. `go test` runs the seeds
// (the examples and the chunks of testdata); `go test -fuzz FuzzPipeline
// ./imp` searches further.
func FuzzPipeline(f *testing.F) {
	files, chunks := golden.Seeds("../examples/imp/*.imp", "testdata/parse.txt", "testdata/check.txt")
	for _, src := range files {
		f.Add(src, int64(2))
	}
	for _, chunk := range chunks {
		f.Add(chunk, int64(3))
	}
	f.Fuzz(func(t *testing.T, src string, k int64) {
		p, err := ParseFile("fuzz.imp", src)
		if err != nil {
			var se *semantics.Error
			if !errors.As(err, &se) || se.Kind != semantics.SyntaxError {
				t.Fatalf("a parse error that is not a syntax error: %T %v", err, err)
			}
			return
		}
		text := Print(p)
		q, err := ParseFile("printed.imp", text)
		if err != nil {
			t.Fatalf("printed program does not parse: %v\n%s", err, text)
		}
		if again := Print(q); again != text {
			t.Fatalf("printing is not stable:\n%s\nthen\n%s", text, again)
		}
		checkErr := Check(p, nil)
		if _, err := CheckDerivation(p, CheckOptions{Derive: true}); fmt.Sprint(err) != fmt.Sprint(checkErr) {
			t.Fatalf("checking with the derivation gives %v, without %v", err, checkErr)
		} else if err != nil {
			if err := golden.ExpectFailedDerivation(err, ImpProg.Name); err != nil {
				t.Fatal(err)
			}
		}
		if checkErr != nil || tooBig(src) {
			return
		}
		k = k%7 - 1 // sizes in -1 … 5
		a := fuzzArgs(p, k)
		run := func(small bool) (string, string, bool) {
			env, h, err := BindInputs(p, a)
			if err != nil {
				return "", "", false
			}
			var res []semantics.Array
			if small {
				res, _, err = RunSmall(p, env, h, &semantics.RunOptions{Fuel: 100_000})
				var se *semantics.Error
				if errors.As(err, &se) && se.Kind == semantics.FuelError {
					return "", "", false
				}
			} else {
				res, err = Eval(p, env, h, nil)
			}
			if err != nil {
				return "error: " + err.Error(), heapDump(h), true
			}
			return fmt.Sprint(res), heapDump(h), true
		}
		s, sh, ok := run(true)
		if !ok {
			return
		}
		b, bh, _ := run(false)
		if b != s || bh != sh {
			t.Fatalf("big-step %s (heap %s), small-step %s (heap %s)\n%s", b, bh, s, sh, src)
		}
	})
}

var fuzzNumber = regexp.MustCompile(`[0-9]+`)

// tooBig refuses to run programs that could allocate much: large
// constants, or many products.
func tooBig(src string) bool {
	for _, n := range fuzzNumber.FindAllString(src, -1) {
		if v, err := strconv.Atoi(n); err != nil || v > 64 {
			return true
		}
	}
	return strings.Count(src, "*")+strings.Count(src, "·")+strings.Count(src, "×") > 3
}

// fuzzArgs gives every int input k and every array input the shape
// [k']…[k'] (k' = max(k, 0)), zeros.
func fuzzArgs(p *Program, k int64) map[string]string {
	a := map[string]string{}
	n := max(k, 0)
	for _, in := range p.Inputs {
		if in.Dims == nil {
			a[in.Name.Name] = strconv.FormatInt(k, 10)
			continue
		}
		v := "0"
		for range in.Dims {
			items := make([]string, n)
			for i := range items {
				items[i] = v
			}
			v = "[" + strings.Join(items, " ") + "]"
		}
		a[in.Name.Name] = v
		for _, d := range in.Dims {
			if x, ok := d.(fun.Var); ok {
				a[x.Name] = strconv.FormatInt(n, 10)
			}
		}
	}
	return a
}
