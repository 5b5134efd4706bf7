package slice

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// The cost model of size slicing (§1 of "Size Slicing"): a shape slice is
// computed ahead only when it costs O(1) operations, that is, when it has
// no recurrence. In FUN the recurrences are kernel, iota and copy (derived
// kernels), loop, reduce, scan, filter, redomap and scanomap; a cheap
// statement is a scalar statement, an element read, an assertion, a view
// (slice, transpose) or an if whose branches are cheap. The tools here
// also count a cheap statement's operations (as semantics.Stats counts
// Ops) and tell whether it can fail, and compute the variables a
// statement uses.

// slRecurrence is the first statement of s (s itself or one nested in its
// bodies) that is a recurrence, or nil when s is cheap.
func slRecurrence(s *fun.Stm) *fun.Stm {
	switch e := s.Exp.(type) {
	case *fun.ScalarExp, *fun.IndexExp, *fun.AssertExp, *fun.SliceExp, *fun.TransposeExp:
		return nil
	case *fun.IfExp:
		for _, b := range []*fun.Body{e.Then, e.Else} {
			for _, t := range b.Stms {
				if r := slRecurrence(t); r != nil {
					return r
				}
			}
		}
		return nil
	}
	return s
}

// slAt renders a position as line:col, for notes.
func slAt(p fun.Pos) string { return fun.Pos{Line: p.Line, Col: p.Col}.String() }

// slStmOps is the number of operations a cheap statement costs when it
// runs once (an if: its dearer branch).
func slStmOps(s *fun.Stm) int64 {
	switch e := s.Exp.(type) {
	case *fun.ScalarExp:
		return slSexpOps(e.X)
	case *fun.IndexExp:
		return 1 // one element read
	case *fun.AssertExp:
		return slSexpOps(e.Cond) + 1 // the check
	case *fun.IfExp:
		return max(slBodyOps(e.Then), slBodyOps(e.Else))
	}
	return 0 // views
}

// slBodyOps is the cost of a cheap body's statements.
func slBodyOps(b *fun.Body) int64 {
	var n int64
	for _, s := range b.Stms {
		n += slStmOps(s)
	}
	return n
}

// slSexpOps counts the operator applications of a scalar expression.
func slSexpOps(e fun.SExp) int64 {
	switch e := e.(type) {
	case *fun.BinOp:
		return 1 + slSexpOps(e.L) + slSexpOps(e.R)
	case *fun.UnOp:
		return 1 + slSexpOps(e.X)
	case *fun.Call:
		return 1 + slSexpOps(e.Arg)
	}
	return 0
}

// slCanFail reports whether a cheap statement can get stuck: a scalar
// expression that can (CanFail: a division or remainder by anything but a
// non-zero constant, a checked operator, int(…) of a float), an element
// read, a slice, an assertion, or an if with such a statement. (A
// wrapping division by a non-zero constant cannot fail: MinInt64 / -1
// wraps.)
func slCanFail(s *fun.Stm) bool {
	switch e := s.Exp.(type) {
	case *fun.ScalarExp:
		return fun.CanFail(e.X)
	case *fun.TransposeExp:
		return false
	case *fun.IfExp:
		for _, b := range []*fun.Body{e.Then, e.Else} {
			for _, t := range b.Stms {
				if slCanFail(t) {
					return true
				}
			}
		}
		return false
	}
	return true
}

// slBinders are the names a statement binds: its pattern's, and those bound
// inside its bodies (indices, parameters, nested patterns).
func slBinders(s *fun.Stm) map[string]bool {
	out := map[string]bool{}
	for _, p := range s.Pat {
		out[p.Name.Name] = true
	}
	fun.BindersInto(out, s.Exp) // fuse_uses.go
	return out
}

// slFreeVars are the names a statement uses that it does not bind itself:
// the variables it needs from its scope. FUN binds no name twice along a
// path of scopes, so a name bound anywhere in s is not in scope outside s
// and every use of it in s is of a binding in s.
func slFreeVars(s *fun.Stm) map[string]bool {
	bound := slBinders(s)
	out := map[string]bool{}
	fun.Idents(s, func(x *fun.Ident) {
		if !bound[x.Name] {
			out[x.Name] = true
		}
	})
	return out
}

// slUsedIn reports whether a name is used in the statements of b from
// index i on, or in b's results.
func slUsedIn(b *fun.Body, i int, name string) bool {
	for _, r := range b.Result {
		if r.Name == name {
			return true
		}
	}
	for _, s := range b.Stms[i:] {
		used := false
		fun.Idents(s, func(x *fun.Ident) { used = used || x.Name == name })
		if used {
			return true
		}
	}
	return false
}

// slRenameFrom renames, in place, the uses of a name in the statements of
// b from index i on and in its results: the scope of a binding made by
// statement i-1 of b. (No statement there binds the name again: FUN does
// not shadow.)
func slRenameFrom(b *fun.Body, i int, from, to string) {
	for _, r := range b.Result {
		if r.Name == from {
			r.Name = to
		}
	}
	for _, s := range b.Stms[i:] {
		slRenameIdents(s, from, to)
	}
}

// slRenameIdents renames, in place, every identifier of a statement named
// from.
func slRenameIdents(s *fun.Stm, from, to string) {
	fun.Idents(s, func(x *fun.Ident) {
		if x.Name == from {
			x.Name = to
		}
	})
}

// slTypes maps the names in scope to their types as a walk in source order
// meets their bindings. FUN does not shadow, so the latest binding of a
// name met is the one in scope wherever the name is in scope.
type slTypes map[string]fun.Type

// bindStm records the bindings of a statement's pattern.
func (ts slTypes) bindStm(s *fun.Stm) {
	for _, p := range s.Pat {
		ts[p.Name.Name] = p.Type
	}
}

// bindInner records the bindings an expression makes for its bodies.
func (ts slTypes) bindInner(e fun.Exp) {
	if x := fun.ExpIndex(e); x != nil {
		ts[x.Name] = fun.Type{}
	}
	for _, p := range fun.ExpParams(e) {
		ts[p.Name.Name] = p.Type
	}
}

// bindFor records the bindings body i of e (in ExpBodies's order) sees: a
// redomap's map body sees its index, its operator body its parameters
// (sibling scopes: each may bind a name the other binds); the other forms'
// bodies see all that bindInner records.
func (ts slTypes) bindFor(e fun.Exp, i int) {
	r, ok := e.(*fun.RedomapExp)
	switch {
	case !ok:
		ts.bindInner(e)
	case i == 0:
		ts[r.Var.Name] = fun.Type{}
	default:
		for _, p := range r.Params {
			ts[p.Name.Name] = p.Type
		}
	}
}

// slNamed is a new identifier of the given name at x's position.
func slNamed(x *fun.Ident, name string) *fun.Ident { return &fun.Ident{NamePos: x.NamePos, Name: name} }

// slIdent is a new identifier without a position.
func slIdent(name string) *fun.Ident { return &fun.Ident{Name: name} }

// slScalarStm is let (x : τ) = se.
func slScalarStm(x string, t fun.Type, e fun.SExp) *fun.Stm {
	return &fun.Stm{Pat: []*fun.Param{{Name: slIdent(x), Type: t}}, Exp: &fun.ScalarExp{X: e}}
}

// slZero is the constant 0 of a scalar type (0 or 0.0).
func slZero(t fun.Type) fun.SExp {
	if t.Elem == semantics.FloatElem {
		return fun.Float(0)
	}
	return fun.Int(0)
}
