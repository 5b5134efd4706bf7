package remora

import (
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// The focus of a step (lang.Focus): a step reduces the redex at the end of
// an evaluation context (the context machine's holes, machine.go) and the
// term is rebuilt along that path only, so the subterm at the same path in
// the term after the step is the contractum. nextChild follows the
// descent (settle's); child finds a subterm; lang.PathFocus walks.

// nextChild is the child of e that step descends into, its first
// evaluated child (child, childCount) that is not a value, or -1 when e
// is itself the redex.
func nextChild(e Expr) int {
	for i, n := 0, childCount(e); i < n; i++ {
		if c, ok := child(e, i); ok && !IsValue(c) {
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
		if i == 0 {
			e = x.Fn
		} else if i-1 < len(x.Args) {
			e = x.Args[i-1]
		} else {
			return nil, false
		}
	case *Frame:
		if i >= len(x.Elems) {
			return nil, false
		}
		e = x.Elems[i]
	case *TApp:
		e = x.Fn
	case *IApp:
		e = x.Fn
	case *Pack:
		e = x.Body
	case *Unpack:
		e = x.Box
	case *LiftDim:
		e = x.N
	case *Reshape:
		e = x.E
	case *Map:
		if i >= len(x.Args) {
			return nil, false
		}
		e = x.Args[i]
	case *Rep:
		e = x.E
	case *Case:
		e = x.Tag
	default:
		return nil, false
	}
	return e, e != nil
}

// Focus is the focus of a step of Fig 6 from prev to next: the
// contractum's span in next as printed, and the redex of prev, with its
// source span (From, To) when it has one: a parsed term, kept by the
// checker's elaboration; a term substitution built has none.
func Focus(prev, next Expr) lang.Focus {
	return lang.PathFocus(prev, next, nextChild, child, ExprString, ExprStringMarked,
		func(r Expr) (semantics.Pos, semantics.Pos) { return r.At(), r.End() })
}
