package dynamic

import (
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// The focus of a step (lang.Focus), as in the typed core: step descends an
// evaluation context to the redex and rebuilds the term along that path
// only, so the subterm at the same path after the step is the contractum.

// nextChild is the child of e that step descends into, its first
// evaluated child (child, childCount) that is not a value, or -1 when e
// is itself the redex.
func nextChild(e Expr) int {
	for i, n := 0, childCount(e); i < n; i++ {
		if c, ok := child(e, i); ok && !isValue(c) {
			return i
		}
	}
	return -1
}

// child is e's i-th evaluated child, in evaluation order, of the
// childCount(e) it has: the one enumeration of them that the descent
// (nextChild), the context machine (machine.go) and the focus share.
func child(e Expr, i int) (Expr, bool) {
	switch x := e.(type) {
	case *App:
		switch {
		case i == 0:
			e = x.Shape
		case i == 1:
			e = x.Fn
		case i-2 < len(x.Args):
			e = x.Args[i-2]
		default:
			return nil, false
		}
	case *Frame:
		if i >= len(x.Elems) {
			return nil, false
		}
		e = x.Elems[i]
	case *Let:
		e = x.Val
	case *Unbox:
		e = x.Box
	default:
		return nil, false
	}
	return e, e != nil
}

// Focus is the focus of a step from prev to next: the contractum's span in
// next as printed, and the redex of prev, with its source span (From, To)
// when it has one: a parsed term, or one a step copied from it; a term a
// reduction built (a substituted body's) has none.
func Focus(prev, next Expr) lang.Focus {
	return lang.PathFocus(prev, next, nextChild, child, ExprString, ExprStringMarked,
		func(r Expr) (semantics.Pos, semantics.Pos) { return r.At(), r.End() })
}
