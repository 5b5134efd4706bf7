package fun

import (
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// Binary operators over ints are most of what a kernel's scalar
// statements compute (i % 2 == 0, x * y, a + b). The general compiled
// operator (sexp) calls a closure per operand, each of which builds a
// Num; here an operator whose operands are variables or int constants
// reads the frame's slots itself, and one whose right operand is an int
// constant calls only its left operand's code. Each computes an int
// result as semantics.Binary does, and leaves anything else (a float, an
// array, an unbound variable, a division by zero) to the general code,
// so values, errors and their order are the rules'.

// operand is a binary operator's operand that is read, not computed: a
// variable's slot (-1 when unbound), or an int constant.
type operand struct {
	slot    int
	isConst bool
	k       int64
}

// operandOf is e as an operand, when it is a variable or an int constant.
func operandOf(sc *scope, e SExp) (operand, bool) {
	switch e := e.(type) {
	case Var:
		return operand{slot: sc.lookup(e.Name)}, true
	case *Const:
		return operand{isConst: true, k: e.Value}, true
	}
	return operand{}, false
}

// intBinary is the code of e = l op r when its operands are read
// operands, or an int constant on the right, or nil; general is e's
// general code, which it falls back on.
func (c *compiler) intBinary(sc *scope, e *BinOp, l numCode, general numCode) numCode {
	if c.noFastOp {
		return nil
	}
	op := e.Op
	lo, lok := operandOf(sc, e.L)
	ro, rok := operandOf(sc, e.R)
	switch {
	case lok && rok && !lo.isConst && !ro.isConst:
		ls, rs := lo.slot, ro.slot
		if ls < 0 || rs < 0 {
			return nil
		}
		return func(fr []val) (semantics.Num, error) {
			a, b := &fr[ls], &fr[rs]
			if a.isInt() && b.isInt() {
				if k, err := intOp(op, a.bits, b.bits); err == nil {
					return semantics.IntNum(k), nil
				}
			}
			return general(fr)
		}
	case lok && rok && !lo.isConst && ro.isConst:
		ls, kb := lo.slot, ro.k
		if ls < 0 {
			return nil
		}
		return func(fr []val) (semantics.Num, error) {
			if a := &fr[ls]; a.isInt() {
				if k, err := intOp(op, a.bits, kb); err == nil {
					return semantics.IntNum(k), nil
				}
			}
			return general(fr)
		}
	case lok && rok && lo.isConst && !ro.isConst:
		ka, rs := lo.k, ro.slot
		if rs < 0 {
			return nil
		}
		return func(fr []val) (semantics.Num, error) {
			if b := &fr[rs]; b.isInt() {
				if k, err := intOp(op, ka, b.bits); err == nil {
					return semantics.IntNum(k), nil
				}
			}
			return general(fr)
		}
	case rok && ro.isConst:
		// The left operand computed, the right an int constant. Scalar
		// expressions only read the frame, so the general code may
		// compute the left operand again where this gives up.
		kb := ro.k
		return func(fr []val) (semantics.Num, error) {
			if a, err := l(fr); err == nil && a.Elem == semantics.IntElem {
				if k, err := intOp(op, a.Bits, kb); err == nil {
					return semantics.IntNum(k), nil
				}
			}
			return general(fr)
		}
	}
	return nil
}

// An operator body that is one int operation on its two parameters,
// let (c : int) = a op b in (c) (or b op a), is most folds' (sums,
// products, counts). A reduce or redomap over ints with such a body, in
// a plain run (no derivation, rule counts or cost counters, which count
// the body's statements), steps its accumulator by that operation
// directly rather than binding the parameters in the frame and running
// the body; where the operation has no int value (a division by zero) or
// an operand is not an int, the body runs, and gives the rules' error.

// intStep is the step of the operator body b over parameters ps when it
// is one int operation on them, or nil: it gives acc op f and says
// whether it could.
func (c *compiler) intStep(ps []*Param, b *Body) func(acc, f int64) (int64, bool) {
	if c.noFastOp || len(ps) != 2 || len(b.Stms) != 1 || len(b.Result) != 1 {
		return nil
	}
	s := b.Stms[0]
	se, ok := s.Exp.(*ScalarExp)
	if !ok || len(s.Pat) != 1 || s.Pat[0].Name.Name != b.Result[0].Name {
		return nil
	}
	e, ok := se.X.(*BinOp)
	if !ok {
		return nil
	}
	l, lok := e.L.(Var)
	r, rok := e.R.(Var)
	pa, px := ps[0].Name.Name, ps[1].Name.Name
	if !lok || !rok || pa == px {
		return nil
	}
	op := e.Op
	switch {
	case l.Name == pa && r.Name == px:
		return func(acc, f int64) (int64, bool) {
			k, err := intOp(op, acc, f)
			return k, err == nil
		}
	case l.Name == px && r.Name == pa:
		return func(acc, f int64) (int64, bool) {
			k, err := intOp(op, f, acc)
			return k, err == nil
		}
	}
	return nil
}

// intOp is semantics.Binary, as the engine's int fast paths apply it.
func intOp(op semantics.Op, a, b int64) (int64, error) {
	if op == semantics.Sub && mutant.On("fun-engine-sub-flipped") { // mutant: the engine computes a - b as b - a
		a, b = b, a
	}
	return semantics.Binary(op, a, b)
}
