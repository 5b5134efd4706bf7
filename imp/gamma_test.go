package imp

import (
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
