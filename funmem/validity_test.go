package funmem

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// TestValidityOverAllocation: Def 3.1 is decided on each result as its
// LMAD reads its block (ERRATA M11): a block larger than the result is
// valid; a result that reads the wrong cells of its block is not.
func TestValidityOverAllocation(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`input (n : int)
let (n1 : int) = n + 1
let (m : mem) = alloc n1
let (xs : [n] @ m -> R(n)) = iota n
in (m, xs)
`, ""},
		{`input (n : int)
let (n1 : int) = n + 1
let (m : mem) = alloc n1
let (xs : [n] @ m -> R(n)) = iota n
let (ys : [n] @ m -> 1 + {(n : 1)}) = iota n
in (m, xs)
`, "invalid: result xs: element [2]: value-based 2, heap-based 1"},
	} {
		p, err := ParseFile("t.funmem", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Check(p, nil); err != nil {
			t.Fatal(err)
		}
		_, err = CheckValidity(p, map[string]string{"n": "3"})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.src, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestCheckValidityRun: CheckValidityRun gives what CheckValidity (its
// kernels traced) and the program's Run by the heap semantics (not
// traced) give apart, from one untraced run: the same verdict, the same
// results or error, on the examples and the checker's test programs that check,
// with inputs of a few sizes (as FuzzFunmem sets them).
func TestCheckValidityRun(t *testing.T) {
	files, chunks := golden.Seeds("../examples/funmem/*.funmem", "testdata/parse.txt", "testdata/check.txt")
	var progs []*fun.Program
	for _, src := range append(files, chunks...) {
		if p, err := ParseFile("t.funmem", src); err == nil && !fuzzTooBig(src) {
			progs = append(progs, p)
		}
	}
	// The FUN examples translated, simplified and expanded.
	for _, p := range funExamples() {
		q := Transform(p)
		progs = append(progs, q, MemoryExpand(Simplify(q), GPU), MemoryExpand(q, CPU))
	}
	ran := 0
	for _, p := range progs {
		src := Print(p)
		if _, err := Check(p, nil); err != nil {
			continue
		}
		for _, k := range []int64{-1, 0, 2, 3} {
			args := fuzzArgs(p, k)
			l, err := Language.Adopt(p.File, p, lang.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := CheckValidityRun(l, args)
			_, verr := CheckValidity(p, args)
			r, rerr := l.Run(lang.RunOptions{Semantics: "heap", Args: args})
			var gotLines, wantLines []string
			if got.Result != nil {
				gotLines = got.Result.Lines
			}
			if r != nil {
				wantLines = r.Lines
			}
			if fmt.Sprint(got.Err) != fmt.Sprint(verr) ||
				fmt.Sprint(got.RunErr) != fmt.Sprint(rerr) || !reflect.DeepEqual(gotLines, wantLines) ||
				(got.Result == nil) != (r == nil) || r != nil && !reflect.DeepEqual(got.Result.Values, r.Values) {
				t.Fatalf("k = %d: CheckValidityRun gives %v, %v %v; CheckValidity and Run %v, %v %v\n%s",
					k, got.Err, gotLines, got.RunErr, verr, wantLines, rerr, src)
			}
			ran++
		}
	}
	if ran < 100 {
		t.Fatalf("only %d runs compared", ran)
	}
}

// funExamples are the FUN examples that check and that TransformProgram
// compiles: real programs for the tests that run FUNMEM's passes.
func funExamples() []*fun.Program {
	var out []*fun.Program
	funFiles, _ := golden.Seeds("../examples/fun/*.fun")
	for _, src := range funFiles {
		p, err := fun.ParseFile("t.fun", src)
		if err != nil || fuzzTooBig(src) {
			continue
		}
		if _, err := fun.Check(p, nil); err != nil || fun.CheckCompileRank(p, "TransformProgram") != nil {
			continue
		}
		out = append(out, p)
	}
	return out
}

// TestRowMajorWellFormed: the checker accepts an array type written R(…)
// (rowMajorHolds, without expanding R) exactly when it accepts the type
// with R's LMAD written out (the premises of T-MEM-LMAD checked over
// it), on the seed programs, their expansions, and those with a size of
// one R(…) in each holding a float or an unbound name.
func TestRowMajorWellFormed(t *testing.T) {
	expandR := func(t fun.Type) (fun.Type, bool) {
		a := ArrayOf(t)
		if a == nil || !a.Index.IsRowMajor() {
			return t, false
		}
		off, dims := a.Index.LMAD()
		return fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &ArrayMem{Block: a.Block, Index: &IndexFn{Pos: a.Index.Pos, Offset: off, Dims: dims}}}, true
	}
	// spoil makes the last size of the first R(…) of the body bad, the
	// same size as a polynomial: size + (bad − bad).
	spoil := func(bad fun.SExp) func(fun.Type) (fun.Type, bool) {
		done := false
		return func(t fun.Type) (fun.Type, bool) {
			a := ArrayOf(t)
			if done || a == nil || !a.Index.IsRowMajor() {
				return t, false
			}
			done = true
			rs := slices.Clone(a.Index.RowMajor)
			rs[len(rs)-1] = &fun.BinOp{Op: semantics.Add, L: rs[len(rs)-1], R: &fun.BinOp{Op: semantics.Sub, L: bad, R: bad}} // the size, as a polynomial
			return fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &ArrayMem{Block: a.Block, Index: &IndexFn{Pos: a.Index.Pos, RowMajor: rs}}}, true
		}
	}
	checked, refused := 0, 0
	for _, p := range seedVariants(t) {
		for _, b := range []*fun.Body{p.Body, retypeBody(p.Body, spoil(&fun.FloatConst{Value: 1.5})), retypeBody(p.Body, spoil(fun.Named("no_such_name")))} {
			r := &fun.Program{File: p.File, Inputs: p.Inputs, Body: b, Format: p.Format}
			_, err := Check(r, nil)
			_, werr := Check(&fun.Program{File: p.File, Inputs: p.Inputs, Body: retypeBody(b, expandR), Format: p.Format}, nil)
			if (err == nil) != (werr == nil) {
				t.Fatalf("with R(…) the checker says %v, with its LMAD written out %v, of\n%s", err, werr, Print(r))
			}
			checked++
			if err != nil {
				refused++
			}
		}
	}
	if checked < 100 || refused < 20 || refused == checked {
		t.Fatalf("%d programs checked, %d refused: the test compares little", checked, refused)
	}
}
