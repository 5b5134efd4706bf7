package imp

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// ReassociatesFloats reports whether p has a float fold that a parallel
// implementation re-associates: a reduce or scan whose combine part
// computes a float with + or * (the CUDA backend runs a reduce or scan
// on the host as a tree, cuda/fold.go). On floats the tree rounds
// differently from the interpreter's left fold, which the comparisons
// of the levels accept within semantics.FloatReassociationBound for such
// a program only (fun.ReassociatesFloats is FUN's).
func ReassociatesFloats(p *Program) bool {
	floats := map[string]bool{}
	for _, in := range p.Inputs {
		if in.Dims == nil && in.Elem == semantics.FloatElem {
			floats[in.Name.Name] = true
		}
	}
	WalkStmts(p.Body, func(s Stmt) {
		if d, ok := s.(*Decl); ok && d.Type == Float {
			floats[d.X.Name] = true
		}
	})
	found := false
	WalkStmts(p.Body, func(s Stmt) {
		var f *Fold
		acc := false
		switch s := s.(type) {
		case *Reduce:
			f, acc = &s.Fold, floats[s.Target.Name]
		case *Scan:
			f = &s.Fold
			switch ne := s.Neutral.(type) {
			case *fun.FloatConst:
				acc = true
			case fun.Var:
				acc = floats[ne.Name]
			}
		}
		if f == nil || found {
			return
		}
		WalkStmts(f.Combine, func(c Stmt) {
			a, ok := c.(*Assign)
			if !ok || !floats[a.X.Name] && !(acc && (a.X.Name == f.A.Name || a.X.Name == f.B.Name)) {
				return
			}
			found = found || hasAddMul(a.SE)
		})
	})
	return found
}

// hasAddMul reports whether a scalar expression has a + or a *.
func hasAddMul(e fun.SExp) bool {
	switch e := e.(type) {
	case *fun.BinOp:
		return e.Op == semantics.Add || e.Op == semantics.Mul || hasAddMul(e.L) || hasAddMul(e.R)
	case *fun.UnOp:
		return hasAddMul(e.X)
	case *fun.Call:
		return hasAddMul(e.Arg)
	}
	return false
}
