package imp

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// TestScopeUndo checks FunMemToImp's Γ (scope): a nested scope's
// bindings are undone to the mark, the enclosing ones' types come back,
// names it never saw (fresh ones) are added as they are bound, and
// withDefault binds an index only where it is not in scope.
func TestScopeUndo(t *testing.T) {
	tr := &translator{names: fun.NewNameSet(2)}
	tr.bind("x")[0]++
	tr.bind("x")[0]++
	tr.bind("y")[0]++
	g := &scope{names: tr.names, types: make([]*fun.Type, len(tr.bound))}
	arr := fun.Type{Dims: []*fun.Ident{{Name: "n"}}}
	flt := fun.Type{Elem: semantics.FloatElem}
	if g.has("x") || g.get("x").Elem != semantics.IntElem || tr.bindings("x") != 2 || tr.bindings("y") != 1 || tr.bindings("z") != 0 {
		t.Fatalf("a new scope: has(x) %v, bindings x %d y %d z %d", g.has("x"), tr.bindings("x"), tr.bindings("y"), tr.bindings("z"))
	}
	g.set("x", &arr)
	outer := g.mark()
	g.set("x", &flt)
	g.set("y", &arr)
	f := tr.fresh("t") // a name the set did not hold: Γ grows for it
	g.set(f.Name, &flt)
	g.withDefault(&fun.Ident{Name: "x"}) // in scope: stays a float
	g.withDefault(&fun.Ident{Name: "i"})
	if g.get("x").Elem != semantics.FloatElem || len(g.get("y").Dims) != 1 || g.get(f.Name).Elem != semantics.FloatElem || !g.has("i") {
		t.Fatalf("the nested scope: x %v, y %v, %s %v, has i %v", g.get("x"), g.get("y"), f.Name, g.get(f.Name), g.has("i"))
	}
	if tr.bindings(f.Name) != 0 || !tr.names.Has(f.Name) {
		t.Fatalf("fresh %s: bindings %d", f.Name, tr.bindings(f.Name))
	}
	g.undo(outer)
	if len(g.get("x").Dims) != 1 || g.has("y") || g.has(f.Name) || g.has("i") {
		t.Fatalf("after undo: x %v, has y %v, %s %v, i %v", g.get("x"), g.has("y"), f.Name, g.has(f.Name), g.has("i"))
	}
	g.undo(0)
	if g.has("x") {
		t.Fatalf("after undo to 0, x is in scope")
	}
}

// TestFromFunmemRank: FunMemToImp refuses an array of rank above
// fun.MaxCompileRank wherever it is bound (an input, a pattern, a nested
// pattern, a loop's parameter), with fun.CheckCompileRank's error, found
// by the translation's own walk of the bindings.
func TestFromFunmemRank(t *testing.T) {
	dims := func(r int) string { return strings.Repeat("[n]", r) }
	for _, c := range []struct{ src, want string }{
		{"input (n : int) (xs : " + dims(33) + ")\nin (xs)", "r.fun:1:17: T: xs is an array of rank 33"},
		{"input (n : int)\nlet (ys : " + dims(40) + ") = iota n\nin (n)", "r.fun:2:5: T: ys is an array of rank 40"},
		{"input (n : int)\nlet (ys : [n]) =\n  kernel i <= n do\n    let (z : " + dims(33) + ") = iota n\n    in (i)\nin (ys)", "r.fun:4:9: T: z is an array of rank 33"},
		{"input (n : int)\nlet (a : int) = loop (b : " + dims(34) + ") = (n) for i <= n do\n    in (b)\nin (a)", "r.fun:2:22: T: b is an array of rank 34"},
	} {
		p, err := fun.ParseFile("r.fun", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		want := strings.Replace(c.want, " T: ", " FunMemToImp: ", 1)
		if _, err := FromFunmem(p); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want %s…", c.src, err, want)
		}
	}
}
