package fun

import "github.com/arraysem/arraysem/semantics"

// ReassociatesFloats reports whether p (a FUN or FUNMEM program) has a
// float fold that a level may re-associate: a reduce, scan, redomap or
// scanomap whose operator computes a float with + or *. FUN's contract
// lets a parallel implementation re-associate a fold's operator; on
// floats the result then differs by rounding, which the comparisons of
// the levels accept within semantics.FloatReassociationBound for such a
// program only.
func ReassociatesFloats(p *Program) bool {
	found := false
	Stms(p.Body, func(s *Stm) {
		if found {
			return
		}
		var op *Body
		switch e := s.Exp.(type) {
		case *ReduceExp:
			op = e.Body
		case *ScanExp:
			op = e.Body
		case *RedomapExp:
			op = e.Op
		}
		if op != nil {
			found = floatArithmetic(op)
		}
	})
	return found
}

// floatArithmetic reports whether a body binds a float to a + or * of
// scalars.
func floatArithmetic(b *Body) bool {
	found := false
	Stms(b, func(s *Stm) {
		se, ok := s.Exp.(*ScalarExp)
		if found || !ok || len(s.Pat) != 1 || s.Pat[0].Type.Elem != semantics.FloatElem {
			return
		}
		found = hasAddMul(se.X)
	})
	return found
}

// hasAddMul reports whether a scalar expression has a + or a *.
func hasAddMul(e SExp) bool {
	switch e := e.(type) {
	case *BinOp:
		return e.Op == semantics.Add || e.Op == semantics.Mul || hasAddMul(e.L) || hasAddMul(e.R)
	case *UnOp:
		return hasAddMul(e.X)
	case *Call:
		return hasAddMul(e.Arg)
	}
	return false
}
