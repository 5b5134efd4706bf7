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
	if len(f.Combine) != 2 || f.A.Name == f.B.Name {
		return nil
	}
	d, ok := f.Combine[0].(*Decl)
	if !ok || d.Type != Int || d.X.Name != f.Result.Name {
		return nil
	}
	as, ok := f.Combine[1].(*Assign)
	if !ok || as.X.Name != f.Result.Name {
		return nil
	}
	e, ok := as.SE.(*fun.BinOp)
	if !ok {
		return nil
	}
	l, lok := e.L.(fun.Var)
	r, rok := e.R.(fun.Var)
	if !lok || !rok {
		return nil
	}
	op := e.Op
	switch a, b := f.A.Name, f.B.Name; {
	case l.Name == a && r.Name == b:
		return func(acc, y int64) (int64, bool) { return intStep(op, acc, y) }
	case l.Name == b && r.Name == a:
		return func(acc, y int64) (int64, bool) { return intStep(op, y, acc) }
	}
	return nil
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
