package fun

import "github.com/arraysem/arraysem/semantics"

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
func slRecurrence(s *Stm) *Stm {
	switch e := s.Exp.(type) {
	case *ScalarExp, *IndexExp, *AssertExp, *SliceExp, *TransposeExp:
		return nil
	case *IfExp:
		for _, b := range []*Body{e.Then, e.Else} {
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

// slForm names a statement's form, for notes.
func slForm(e Exp) string {
	switch e := e.(type) {
	case *KernelExp:
		return "kernel"
	case *IotaExp:
		return "iota"
	case *CopyExp:
		return "copy"
	case *LoopExp:
		return "loop"
	case *ReduceExp:
		return "reduce"
	case *ScanExp:
		return "scan"
	case *FilterExp:
		return "filter"
	case *RedomapExp:
		return RedomapWord(e)
	case *IfExp:
		return "if"
	case *AssertExp:
		return "assert"
	case *IndexExp:
		return "read"
	case *SliceExp:
		return "slice"
	case *TransposeExp:
		return "transpose"
	}
	return "scalar statement"
}

// slAt renders a position as line:col, for notes.
func slAt(p Pos) string { return Pos{Line: p.Line, Col: p.Col}.String() }

// slStmOps is the number of operations a cheap statement costs when it
// runs once (an if: its dearer branch).
func slStmOps(s *Stm) int64 {
	switch e := s.Exp.(type) {
	case *ScalarExp:
		return slSexpOps(e.X)
	case *IndexExp:
		return 1 // one element read
	case *AssertExp:
		return slSexpOps(e.Cond) + 1 // the check
	case *IfExp:
		return max(slBodyOps(e.Then), slBodyOps(e.Else))
	}
	return 0 // views
}

// slBodyOps is the cost of a cheap body's statements.
func slBodyOps(b *Body) int64 {
	var n int64
	for _, s := range b.Stms {
		n += slStmOps(s)
	}
	return n
}

// slSexpOps counts the operator applications of a scalar expression.
func slSexpOps(e SExp) int64 {
	switch e := e.(type) {
	case *BinOp:
		return 1 + slSexpOps(e.L) + slSexpOps(e.R)
	case *UnOp:
		return 1 + slSexpOps(e.X)
	case *Call:
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
func slCanFail(s *Stm) bool {
	switch e := s.Exp.(type) {
	case *ScalarExp:
		return CanFail(e.X)
	case *TransposeExp:
		return false
	case *IfExp:
		for _, b := range []*Body{e.Then, e.Else} {
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
func slBinders(s *Stm) map[string]bool {
	out := map[string]bool{}
	for _, p := range s.Pat {
		out[p.Name.Name] = true
	}
	bindersInto(out, s.Exp) // fuse_uses.go
	return out
}

// slFreeVars are the names a statement uses that it does not bind itself:
// the variables it needs from its scope. FUN binds no name twice along a
// path of scopes, so a name bound anywhere in s is not in scope outside s
// and every use of it in s is of a binding in s.
func slFreeVars(s *Stm) map[string]bool {
	bound := slBinders(s)
	out := map[string]bool{}
	Idents(s, func(x *Ident) {
		if !bound[x.Name] {
			out[x.Name] = true
		}
	})
	return out
}

// slUsedIn reports whether a name is used in the statements of b from
// index i on, or in b's results.
func slUsedIn(b *Body, i int, name string) bool {
	for _, r := range b.Result {
		if r.Name == name {
			return true
		}
	}
	for _, s := range b.Stms[i:] {
		used := false
		Idents(s, func(x *Ident) { used = used || x.Name == name })
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
func slRenameFrom(b *Body, i int, from, to string) {
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
func slRenameIdents(s *Stm, from, to string) {
	Idents(s, func(x *Ident) {
		if x.Name == from {
			x.Name = to
		}
	})
}

// slTypes maps the names in scope to their types as a walk in source order
// meets their bindings. FUN does not shadow, so the latest binding of a
// name met is the one in scope wherever the name is in scope.
type slTypes map[string]Type

// bindStm records the bindings of a statement's pattern.
func (ts slTypes) bindStm(s *Stm) {
	for _, p := range s.Pat {
		ts[p.Name.Name] = p.Type
	}
}

// bindInner records the bindings an expression makes for its bodies.
func (ts slTypes) bindInner(e Exp) {
	if x := ExpIndex(e); x != nil {
		ts[x.Name] = Type{}
	}
	for _, p := range ExpParams(e) {
		ts[p.Name.Name] = p.Type
	}
}

// bindFor records the bindings body i of e (in ExpBodies's order) sees: a
// redomap's map body sees its index, its operator body its parameters
// (sibling scopes: each may bind a name the other binds); the other forms'
// bodies see all that bindInner records.
func (ts slTypes) bindFor(e Exp, i int) {
	r, ok := e.(*RedomapExp)
	switch {
	case !ok:
		ts.bindInner(e)
	case i == 0:
		ts[r.Var.Name] = Type{}
	default:
		for _, p := range r.Params {
			ts[p.Name.Name] = p.Type
		}
	}
}

// slNamed is a new identifier of the given name at x's position.
func slNamed(x *Ident, name string) *Ident { return &Ident{NamePos: x.NamePos, Name: name} }

// slIdent is a new identifier without a position.
func slIdent(name string) *Ident { return &Ident{Name: name} }

// slScalarStm is let (x : τ) = se.
func slScalarStm(x string, t Type, e SExp) *Stm {
	return &Stm{Pat: []*Param{{Name: slIdent(x), Type: t}}, Exp: &ScalarExp{X: e}}
}

// slZero is the constant 0 of a scalar type (0 or 0.0).
func slZero(t Type) SExp {
	if t.Elem == semantics.FloatElem {
		return Float(0)
	}
	return Int(0)
}
