package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Sizes that vary from one iteration to the next. §5 hoists an
// allocation out of a kernel only when its size is the same in every
// thread; Futhark also hoists "certain cases of kernel-variant allocation
// sizes". Here the case is a size that, once the scalar lets of the body
// before it are substituted, uses no name bound in the body but the
// index v, and is affine in it, a + b·v: over v = 1 … n its largest value
// is at an end, a + b when b ≤ 0, a + b·n when b ≥ 0, and every
// iteration's array fits in a block of that size. A thread's array of
// k − x elements (examples/fun/stuck_bound.fun) is one.
//
// A let that can be stuck (a division, a checked operator) is not
// substituted: computed before the kernel or loop, it could be stuck
// where the program is not. A size read from an array, or carried by a
// loop, is known only inside: its allocation stays where it is.

// boundOver is an upper bound on se over the iterations v = 1 … n of the
// kernel or loop whose body binds the names of bound (v among them; defs
// are the body's scalar lets before se, that cannot be stuck), in names
// bound outside the body: se itself when it uses none of bound, else the
// bound above. ok is false when there is none.
func boundOver(se fun.SExp, bound map[string]bool, defs map[string]fun.SExp, v *fun.Ident, n fun.SExp) (fun.SExp, bool) {
	if !usesAny(se, bound) {
		return se, true
	}
	if a, ok := clamped(se); ok {
		// A size hoisted out of a loop inside: the bound of a, clamped.
		b, ok := boundOver(a, bound, defs, v, n)
		if !ok {
			return nil, false
		}
		return nonNegative(b), true
	}
	e := substDefs(se, defs, 0)
	if e == nil || fun.CanFail(e) {
		return nil, false
	}
	inside := false
	var buf [8]*fun.Ident
	for _, y := range fun.FreeVars(e, buf[:0]) {
		inside = inside || bound[y.Name] && y.Name != v.Name
	}
	if inside {
		return nil, false
	}
	a, b, ok := affine(e, v.Name)
	if !ok {
		return nil, false
	}
	if b == nil {
		return Canon(a), true
	}
	first, last := Add(a, b), Add(a, Mul(b, n))
	if k, ok := constOf(Canon(b)); ok {
		if k < 0 {
			return first, true
		}
		return last, true
	}
	return maxOf(first, last), true
}

// noteDef records in defs the definition of s when it is an int scalar
// let that cannot fail, one substDefs may put for its variable.
func noteDef(defs map[string]fun.SExp, s *fun.Stm, e *fun.ScalarExp) {
	if len(s.Pat) == 1 && s.Pat[0].Type.IsInt() && !fun.CanFail(e.X) {
		defs[s.Pat[0].Name.Name] = e.X
	}
}

// substDefs is e with the variables defs defines replaced by their
// definitions, transitively (nil past a depth no program's lets reach).
func substDefs(e fun.SExp, defs map[string]fun.SExp, depth int) fun.SExp {
	if depth > 64 {
		return nil
	}
	failed := false
	out := fun.Substitute(e, func(y *fun.Ident) fun.SExp {
		d, ok := defs[y.Name]
		if !ok {
			return nil
		}
		r := substDefs(d, defs, depth+1)
		if r == nil {
			failed = true
			return nil
		}
		return r
	})
	if failed {
		return nil
	}
	return out
}

// affine writes e as a + b·v, b nil when e does not use v; ok is false
// when e is not affine in v (a product of two terms in v, or v under any
// operator but +, − and ·).
func affine(e fun.SExp, v string) (a, b fun.SExp, ok bool) {
	switch e := e.(type) {
	case fun.Var:
		if e.Name == v {
			return fun.Int(0), fun.Int(1), true
		}
		return e, nil, true
	case *fun.UnOp:
		if e.Op == semantics.Neg {
			a, b, ok := affine(e.X, v)
			if !ok {
				return nil, nil, false
			}
			if b != nil {
				b = Sub(fun.Int(0), b)
			}
			return Sub(fun.Int(0), a), b, true
		}
	case *fun.BinOp:
		switch e.Op {
		case semantics.Add, semantics.Sub, semantics.Mul:
			a1, b1, ok1 := affine(e.L, v)
			a2, b2, ok2 := affine(e.R, v)
			if !ok1 || !ok2 {
				return nil, nil, false
			}
			switch e.Op {
			case semantics.Add:
				return Add(a1, a2), addSlopes(b1, b2, false), true
			case semantics.Sub:
				return Sub(a1, a2), addSlopes(b1, b2, true), true
			}
			switch {
			case b1 == nil && b2 == nil:
				return Mul(a1, a2), nil, true
			case b1 == nil:
				return Mul(a1, a2), Mul(a1, b2), true
			case b2 == nil:
				return Mul(a1, a2), Mul(b1, a2), true
			}
			return nil, nil, false
		}
	}
	if mentions(e, v) {
		return nil, nil, false
	}
	return e, nil, true
}

// addSlopes is b1 + b2 (b1 − b2 when sub), nil standing for 0.
func addSlopes(b1, b2 fun.SExp, sub bool) fun.SExp {
	switch {
	case b2 == nil:
		return b1
	case sub && b1 == nil:
		return Sub(fun.Int(0), b2)
	case b1 == nil:
		return b2
	case sub:
		return Sub(b1, b2)
	}
	return Add(b1, b2)
}

// mentions reports whether e uses the variable v.
func mentions(e fun.SExp, v string) bool {
	var buf [8]*fun.Ident
	for _, y := range fun.FreeVars(e, buf[:0]) {
		if y.Name == v {
			return true
		}
	}
	return false
}

// maxOf is the larger of a and b, as FUN's scalar expressions write it
// (comparisons give 1 or 0): a·(a >= b) + b·(a < b).
func maxOf(a, b fun.SExp) fun.SExp {
	return fun.Binary(semantics.Add,
		fun.Binary(semantics.Mul, a, fun.Binary(semantics.Ge, a, b)),
		fun.Binary(semantics.Mul, b, fun.Binary(semantics.Lt, a, b)))
}

// clamped reports whether se is nonNegative(a), and a.
func clamped(se fun.SExp) (fun.SExp, bool) {
	m, ok := se.(*fun.BinOp)
	if !ok || m.Op != semantics.Mul {
		return nil, false
	}
	g, ok := m.R.(*fun.BinOp)
	if !ok || g.Op != semantics.Gt {
		return nil, false
	}
	if k, ok := constOf(g.R); !ok || k != 0 || fun.PrintSExp(g.L) != fun.PrintSExp(m.L) {
		return nil, false
	}
	return m.L, true
}

// nonNegative is se, or 0 where se is negative: se·(se > 0), but for a
// constant. An allocation hoisted out of a loop runs even when the loop
// runs no iteration, where a negative size, which no iteration would have
// allocated, must not be stuck in E-MEM-ALLOC; when the loop runs, its
// first iteration makes the array of a negative size, and is stuck there.
func nonNegative(se fun.SExp) fun.SExp {
	if k, ok := constOf(se); ok {
		if k < 0 {
			return fun.Int(0)
		}
		return se
	}
	return fun.Binary(semantics.Mul, se, fun.Binary(semantics.Gt, se, fun.Int(0)))
}
