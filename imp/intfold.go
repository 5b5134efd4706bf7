package imp

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// A fold's combine part that is one int operation on its accumulator
// and element,
//
//	combine a, b do var c : int; c <- a op b; yield c done
//
// (or b op a), is most folds' (sums, products, counts, maxima). The
// engine's fold loop then steps the accumulator by that operation
// directly, rather than saving the combine's variables, binding a and b,
// running its two statements and restoring them (which took half of a
// 10^8-element reduce's time). It counts the statements' operations when
// the run keeps cost counters; a run that counts rules, or traces the
// read/write sets of every iteration (the combine's are iterations n+1 …
// 2n), runs the statements. Where the operation has no int value
// (a division by zero) or an operand is not an int, the statements run,
// and give the rules' error. Options.NoIntFolds switches it off, and the
// property engine ≡ rules runs the engine with it and without.

// intCombine is the step of f's combine part when it is one int
// operation on a and b, or nil.
func intCombine(f *Fold) func(acc, y int64) (int64, bool) {
	op, swapped, ok := CombineOp(f)
	if !ok || f.Combine[0].(*Decl).Type != Int {
		return nil
	}
	if swapped {
		return func(acc, y int64) (int64, bool) { return intStep(op, y, acc) }
	}
	return func(acc, y int64) (int64, bool) { return intStep(op, acc, y) }
}

// CombineOp is the operator of f's combine part when it is one
// operation on its parameters, var c; c <- a op b; yield c (swapped: b
// op a), as most folds' are; ok is false for any other combine part.
func CombineOp(f *Fold) (op semantics.Op, swapped, ok bool) {
	if len(f.Combine) != 2 || f.A.Name == f.B.Name {
		return 0, false, false
	}
	d, ok := f.Combine[0].(*Decl)
	if !ok || d.Type == Mem || d.X.Name != f.Result.Name {
		return 0, false, false
	}
	as, ok := f.Combine[1].(*Assign)
	if !ok || as.X.Name != f.Result.Name {
		return 0, false, false
	}
	e, ok := as.SE.(*fun.BinOp)
	if !ok {
		return 0, false, false
	}
	l, lok := e.L.(fun.Var)
	r, rok := e.R.(fun.Var)
	if !lok || !rok {
		return 0, false, false
	}
	switch a, b := f.A.Name, f.B.Name; {
	case l.Name == a && r.Name == b:
		return e.Op, false, true
	case l.Name == b && r.Name == a:
		return e.Op, true, true
	}
	return 0, false, false
}

// NonAssociative reports whether f's combine part is one operation that
// is not associative (a - b, a / b, a < b, …), so that folding its
// elements in any order but the left fold's may change the result: a
// parallel implementation must not reorder it. Any other combine part is
// assumed associative (the rules do not check it).
func NonAssociative(f *Fold) bool {
	op, _, ok := CombineOp(f)
	return ok && !op.Associative()
}

// intStep is x op y as semantics.Binary computes it, and whether it has
// an int value.
func intStep(op semantics.Op, x, y int64) (int64, bool) {
	if op == semantics.Sub && mutant.On("imp-engine-sub-flipped") { // mutant: as machine.binOp
		x, y = y, x
	}
	k, err := semantics.Binary(op, x, y)
	return k, err == nil
}
