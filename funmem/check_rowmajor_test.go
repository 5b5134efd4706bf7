package funmem

import (
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// TestSameTypeRowMajor checks sameType's shortcut for two R(…) (their
// sizes compared, R not expanded) against the comparison of one with
// the other's LMAD written out, with and without definitions in scope
// and T-MEM-RESULT's renaming.
func TestSameTypeRowMajor(t *testing.T) {
	c := newChecker()
	c.opts = &CheckOptions{}
	// m = n + 1 and p = n · k are let-bound: the sizes are compared
	// modulo them.
	c.lets["m"] = letDef{e: fun.Binary(semantics.Add, fun.Named("n"), fun.Int(1))}
	c.lets["p"] = letDef{e: fun.Binary(semantics.Mul, fun.Named("n"), fun.Named("k"))}
	n, k := fun.Named("n"), fun.Named("k")
	sizes := []fun.SExp{
		n, k, fun.Named("m"), fun.Named("p"), fun.Named("q"), fun.Int(1), fun.Int(3),
		fun.Binary(semantics.Add, n, fun.Int(1)), fun.Binary(semantics.Add, fun.Int(1), n),
		fun.Binary(semantics.Mul, k, n), fun.Binary(semantics.Div, n, fun.Int(2)),
		fun.Binary(semantics.Div, fun.Binary(semantics.Sub, fun.Named("m"), fun.Int(1)), fun.Int(2)),
	}
	dims := []*fun.Ident{{Name: "a"}, {Name: "b"}}
	block := &fun.Ident{Name: "mem"}
	arr := func(rs ...fun.SExp) fun.Type {
		return fun.Type{Dims: dims, Elem: semantics.IntElem, Ext: &ArrayMem{Block: block, Index: &IndexFn{RowMajor: rs}}}
	}
	expanded := func(t fun.Type) fun.Type {
		off, ds := ArrayOf(t).Index.LMAD()
		return fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &ArrayMem{Block: block, Index: &IndexFn{Offset: off, Dims: ds}}}
	}
	var types []fun.Type
	for _, r1 := range sizes {
		types = append(types, arr(r1))
		for _, r2 := range sizes {
			types = append(types, arr(r1, r2))
		}
	}
	same, differ := 0, 0
	for _, subst := range []map[string]string{nil, {"q": "n"}, {"q": "k", "k": "q"}} {
		for _, h := range types {
			for _, w := range types {
				got := c.sameType(h, w, subst)
				if want := c.sameType(h, expanded(w), subst); got != want {
					t.Fatalf("sameType(%s, %s, %v) = %v, with the second's LMAD written out %v", h, w, subst, got, want)
				}
				if got {
					same++
				} else {
					differ++
				}
			}
		}
	}
	if same < 500 || differ < 500 {
		t.Fatalf("%d pairs the same, %d not: the test compares little", same, differ)
	}
}

// TestRenamedPoly checks renamedPoly, which renames a variable without
// building the renamed tree, against normalising the renamed tree.
func TestRenamedPoly(t *testing.T) {
	c := newChecker()
	c.opts = &CheckOptions{}
	c.lets["m"] = letDef{e: fun.Binary(semantics.Add, fun.Named("n"), fun.Int(1))}
	c.lets["z"] = letDef{e: fun.Int(0)}
	ws := []fun.SExp{fun.Named("a"), fun.Named("b"), fun.Named("m"), fun.Named("n"), fun.Int(2),
		fun.Binary(semantics.Mul, fun.Named("a"), fun.Named("b")), fun.Binary(semantics.Div, fun.Named("a"), fun.Int(2))}
	substs := []map[string]string{nil, {"a": "m"}, {"a": "z", "b": "n"}, {"a": "b", "b": "a"}, {"n": "q"}}
	for _, subst := range substs {
		for _, w := range ws {
			got, want := c.renamedPoly(w, subst), normalizeIn(fun.RenameSExp(w, subst), c)
			if !got.Equal(want) || fun.PrintSExp(got.Expr()) != fun.PrintSExp(want.Expr()) {
				t.Errorf("renamedPoly(%s, %v) = %s, renaming the tree gives %s", fun.PrintSExp(w), subst, fun.PrintSExp(got.Expr()), fun.PrintSExp(want.Expr()))
			}
		}
	}
}

// TestSamePoly checks samePoly, which compares variables and constants
// by their names and definitions, against comparing the normal forms of
// the two (the second renamed), on every pair of a set of expressions.
func TestSamePoly(t *testing.T) {
	c := newChecker()
	c.opts = &CheckOptions{}
	n := fun.Named("n")
	c.lets["m"] = letDef{e: fun.Binary(semantics.Add, n, fun.Int(1))}
	c.lets["z"] = letDef{e: fun.Int(0)}
	c.lets["one"] = letDef{e: fun.Int(1)}
	c.lets["k"] = letDef{e: n} // an alias: its normal form is the factor n
	c.lets["kk"] = letDef{e: fun.Binary(semantics.Mul, fun.Int(1), n)}
	c.lets["dbl"] = letDef{e: fun.Binary(semantics.Mul, fun.Int(2), n)}
	es := []fun.SExp{fun.Named("a"), fun.Named("b"), n, fun.Named("m"), fun.Named("z"), fun.Named("one"), fun.Named("k"), fun.Named("kk"),
		fun.Named("dbl"), fun.Int(0), fun.Int(1), fun.Int(-1), fun.Int(1000),
		fun.Binary(semantics.Add, n, fun.Int(1)), fun.Binary(semantics.Mul, fun.Named("a"), fun.Named("b")),
		fun.Binary(semantics.Sub, fun.Named("m"), fun.Int(1)), fun.Binary(semantics.Div, fun.Named("a"), fun.Int(2)),
		fun.Binary(semantics.Add, fun.Named("a"), fun.Int(0))}
	substs := []map[string]string{nil, {"a": "m"}, {"a": "z", "b": "n"}, {"a": "b", "b": "a"}, {"n": "q"}, {"b": "k", "a": "one"}}
	same, differ := 0, 0
	for _, subst := range substs {
		for _, a := range es {
			for _, b := range es {
				want := normalizeIn(a, c).Equal(normalizeIn(fun.RenameSExp(b, subst), c))
				if got := c.samePoly(a, b, subst); got != want {
					t.Errorf("samePoly(%s, %s, %v) = %v, the normal forms say %v", fun.PrintSExp(a), fun.PrintSExp(b), subst, got, want)
				}
				if want {
					same++
				} else {
					differ++
				}
			}
		}
	}
	if same < 50 || differ < 50 {
		t.Fatalf("%d pairs the same, %d not: the test compares little", same, differ)
	}
}
