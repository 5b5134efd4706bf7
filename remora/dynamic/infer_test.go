package dynamic

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// TestInferGolden runs testdata/infer.txt: each chunk is a program of the
// dialect; a comment line "; ⊢ τ" gives the typed-core type of the
// program's next result, in order; an error marker says why elaboration
// must fail. Where it succeeds, the elaborated term must also run, under
// the typed core's big-step, to what the dynamic big-step gives.
func TestInferGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "infer.txt"), ";", func(c *golden.Chunk) error {
		if isNote(c) {
			return nil
		}
		p, _, err := ParseFile(c.File, c.Src)
		if err != nil {
			return fmt.Errorf("parse: %v", err)
		}
		infs, err := InferProgram(p)
		if c.ErrRe != nil {
			return c.ExpectError(err, semantics.TypeError)
		}
		if err != nil {
			return err
		}
		want := expectedTypes(c.Src)
		if len(want) != len(infs) {
			return fmt.Errorf("%d results, %d ⊢ lines", len(infs), len(want))
		}
		for i, inf := range infs {
			if got := remora.TypeString(inf.Type); got != want[i] {
				return fmt.Errorf("result %d: type %s, want %s\n%s", i+1, got, want[i], inf.Term)
			}
			term, err := remora.ParseExpr("infer", inf.Term)
			if err != nil {
				return err
			}
			ce, _, _, err := remora.CheckExpr(term, nil)
			if err != nil {
				return err
			}
			tv, terr := remora.EvalExpr(ce, nil)
			dv, derr := EvalExpr(p.Exprs[i], nil)
			if terr != nil || derr != nil {
				return fmt.Errorf("result %d: typed %v, dynamic %v", i+1, terr, derr)
			}
			if inf.Show(tv) != dv.String() {
				return fmt.Errorf("result %d: the elaboration gives %s, the program %s\n%s", i+1, inf.Show(tv), dv, inf.Term)
			}
		}
		return nil
	})
}

// expectedTypes reads the "; ⊢ τ" lines of a chunk.
func expectedTypes(src string) []string {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(l), "; ⊢ "); ok {
			out = append(out, strings.TrimSpace(t))
		}
	}
	return out
}

// TestInferLargeShapes elaborates programs that name arrays far larger
// than any run could build (issue 32): the elaborator knows a value only
// up to knownLimit atoms, and must not compute a larger one by the
// dialect's δ to throw it away. (iota [400000000]) took 3 GB to compile,
// (iota [99999999999]) ran out of memory when --max-memory allowed it.
// The bound on what elaborating allocates is a thousand times what it
// needs, and a hundredth of what computing one of these values takes.
func TestInferLargeShapes(t *testing.T) {
	for _, src := range []string{
		"(iota [400000000])",
		"(iota [9223372036854775807])",
		"(iota [3037000499 3037000499])",
		"(length (iota [400000000]))",
		"(+ 1 (iota [400000000]))",
		"(reshape [20000 20000] [1])",
		"(reverse (iota [400000000]))",
		"(rotate (iota [400000000]) 1)",
		"(reduce + 0 (iota [400000000]))",
		"(append (iota [200000000]) (iota [200000000]))",
	} {
		t.Run(src, func(t *testing.T) {
			p, _, err := ParseFile("large.remora", "#lang remora/dynamic\n"+src)
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = InferProgram(p)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
				t.Errorf("elaborating allocated %s", semantics.Bytes(int64(n)))
			}
		})
	}
}
