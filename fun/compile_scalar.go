package fun

import (
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// Scalar expressions compiled, once for every engine that runs FUN's
// SExp: FUN's big-step (compile.go), FUNMEM's heap big-step
// (funmem/heapcompile.go) and IMP's (imp/compiled.go). An engine says how
// a variable is read from its frame (SExpVars: a slot of FUN's frame, of
// FUNMEM's, of IMP's environment); the code is the same for all three.
//
// Compiled code computes the value on the common path, without
// allocating, and gives up (false) anywhere else: a variable that is
// unbound or not a scalar, an int division by zero, a call that has no
// value. The engine then evaluates the expression again by name, with
// EvalNum (or EvalSExp), which gives the rules' value or their stuck
// state, named by the engine's rule, at the rules' position: scalar
// expressions have no effects, so evaluating one again is evaluating it
// once. Every error message is thus the rules' own.
//
// The general code evaluates as EvalNum does: left operand first, ints as
// semantics.Binary (+, - and * inline), floats as IEEE. The int fast
// paths (off with SExpCompiler.NoIntFastPaths) take the shapes that most
// of a kernel's scalar statements have:
//
//   - +, - and * make sums of products: int64 arithmetic wraps, and
//     wrapping sums and products are associative, commutative and
//     distributive, so x * 2 + i is 2·x + i, whatever the order;
//   - a sum of one or two terms, each a variable or a product of two,
//     times constants (i - 1, x * y, x * 2 + i, x * i + j), and another
//     operator on variables and an int constant (i % 2, x < y), are int
//     forms (IntForm): the engine reads their variables at once, in one
//     closure (SExpVars.Ints), and IntForm.Eval computes them;
//   - a longer sum (the offsets i * n + j - n - 1) is one sum over its
//     terms; and, in a loop whose variables the engine can tell apart
//     (SExpCompiler's Invariant and Epoch), the terms over variables the
//     loop never assigns are summed once per start of the loop (hoisted);
//   - an operator whose right operand is an int constant (x % 2 == 0)
//     computes its left operand once, with no closure for the constant.
//
// Each computes an int result as semantics.Binary does and leaves
// anything else (a float, an array, a division by zero) to the general
// code, so values and errors are the rules'. The engines' mutation point
// (SExpCompiler.Mutant) is in the fast paths: where they subtract (a sum's
// terms, an operator whose right operand is a constant).

// SExpCode is a compiled scalar expression over an engine's frame F: its
// value, or false where the rules must say what it is (see above).
type SExpCode[F any] func(fr F) (semantics.Num, bool)

// SExpVars is how compiled code reads the variables of a scalar
// expression from an engine's frame F. Each method is called when
// compiling, and gives the read: a value, or false where it is not what
// the read takes (a variable unbound, an array or a block, a float read
// as an int).
type SExpVars[F any] interface {
	// Num reads x as a scalar, int or float.
	Num(x *Ident) func(fr F) (semantics.Num, bool)
	// Int reads x as an int.
	Int(x *Ident) func(fr F) (int64, bool)
	// Ints is the code of the int form f (the fast paths' common
	// shapes): it reads f's variables, f.Var(0), f.Var(1) and f.Var(2)
	// (the first two where f.Vars() is 2), as ints and gives f.Eval of
	// their values, or, where one is not an int or Eval gives up, g's
	// value. The engine reads them itself rather than by Int so that the
	// form costs one call, not one per variable.
	Ints(f *IntForm, g SExpCode[F]) SExpCode[F]
}

// SExpCompiler compiles scalar expressions for one engine.
type SExpCompiler[F any] struct {
	// Vars reads the variables.
	Vars SExpVars[F]
	// Ints reads every variable as an int, as EvalSExp does (sizes,
	// bounds, offsets); an expression may still give a float (a float
	// constant), which EvalSExp refuses.
	Ints bool
	// NoIntFastPaths compiles the general code only, so that the
	// property engine ≡ rules checks the engine with and without them.
	NoIntFastPaths bool
	// Mutant is the engine's mutation point in the fast paths
	// (internal/mutant): switched on, they compute an int a - b as b - a.
	Mutant string
	// Invariant, when not nil, tells the variables whose values stay
	// the same between two starts of a loop around the code being
	// compiled, and Epoch counts the loop's starts (the engine adds one
	// at each): a sum of products computes its terms over them once per
	// start. Such code keeps that part between calls, so it must not run
	// on several goroutines at once (each compiles its own); without
	// Invariant, compiled code keeps nothing.
	Invariant func(x *Ident) bool
	Epoch     *uint64
}

// Compile compiles e.
func (c *SExpCompiler[F]) Compile(e SExp) SExpCode[F] {
	switch e := e.(type) {
	case *Const:
		k := semantics.IntNum(e.Value)
		return func(F) (semantics.Num, bool) { return k, true }
	case *FloatConst:
		f := semantics.FloatNum(e.Value)
		return func(F) (semantics.Num, bool) { return f, true }
	case Var:
		if c.Ints {
			read := c.Vars.Int(e.Ident)
			return func(fr F) (semantics.Num, bool) {
				k, ok := read(fr)
				return semantics.IntNum(k), ok
			}
		}
		return c.Vars.Num(e.Ident)
	case *UnOp:
		a, op := c.Compile(e.X), e.Op
		return func(fr F) (semantics.Num, bool) {
			v, ok := a(fr)
			if !ok {
				return v, false
			}
			return semantics.UnaryNum(op, v), true
		}
	case *BinOp:
		return c.binOp(e)
	case *Call:
		a, f := c.Compile(e.Arg), e.Func
		return func(fr F) (semantics.Num, bool) {
			v, ok := a(fr)
			if !ok {
				return v, false
			}
			k, err := semantics.ApplyFunc(f, v)
			return k, err == nil
		}
	}
	// A node EvalNum does not know: it says so.
	return func(F) (semantics.Num, bool) { return semantics.Num{}, false }
}

// binOp compiles l ⊕ r: by a fast path when one takes it, else by the
// general code, which the fast paths fall back on.
func (c *SExpCompiler[F]) binOp(e *BinOp) SExpCode[F] {
	if !c.NoIntFastPaths {
		// The fast paths that read e's variables themselves fall back on
		// the general code only where one is not an int: that code's
		// operands need no fast paths of their own (compiled with them,
		// every sub-sum of a sum of products was a sum compiled again).
		if isArith(e.Op) {
			if terms, k, ok := c.sumOf(e); ok {
				return c.sumOfProducts(terms, k, c.plain(e))
			}
		} else if f, ok := operandsForm(e); ok {
			return c.Vars.Ints(f, c.plain(e))
		}
	}
	op := e.Op
	l, r := c.Compile(e.L), c.Compile(e.R)
	general := func(fr F) (semantics.Num, bool) {
		a, ok := l(fr)
		if !ok {
			return a, false
		}
		b, ok := r(fr)
		if !ok {
			return b, false
		}
		if a.Elem == semantics.IntElem && b.Elem == semantics.IntElem {
			switch op { // as semantics.Binary: wrapping
			case semantics.Add:
				return semantics.IntNum(a.Bits + b.Bits), true
			case semantics.Sub:
				return semantics.IntNum(a.Bits - b.Bits), true
			case semantics.Mul:
				return semantics.IntNum(a.Bits * b.Bits), true
			}
		}
		v, err := semantics.BinaryNum(op, a, b)
		return v, err == nil
	}
	if c.NoIntFastPaths {
		return general
	}
	if k, ok := e.R.(*Const); ok {
		// l ⊕ k, l computed: as semantics.Binary on l's value.
		kb, mut := k.Value, c.Mutant
		if isArith(op) {
			return func(fr F) (semantics.Num, bool) {
				if a, ok := l(fr); ok && a.Elem == semantics.IntElem {
					return semantics.IntNum(arith(op, a.Bits, kb, mut)), true
				}
				return general(fr)
			}
		}
		return func(fr F) (semantics.Num, bool) {
			if a, ok := l(fr); ok && a.Elem == semantics.IntElem {
				if v, ok := binary(op, a.Bits, kb); ok {
					return semantics.IntNum(v), true
				}
			}
			return general(fr)
		}
	}
	return general
}

// plain is the general code of e alone, no fast path in it: the code a
// fast path falls back on.
func (c *SExpCompiler[F]) plain(e SExp) SExpCode[F] {
	p := *c
	p.NoIntFastPaths = true
	return p.Compile(e)
}

// operandsForm is the int form of l ⊕ r, for ⊕ not +, - or * (i % 2,
// x < y: those are sums), when both are variables or int constants (not
// both constants): x ⊕ k, k ⊕ y and x ⊕ y (IntForm); false otherwise.
func operandsForm(e *BinOp) (*IntForm, bool) {
	x, lvar := e.L.(Var)
	y, rvar := e.R.(Var)
	lk, lconst := e.L.(*Const)
	rk, rconst := e.R.(*Const)
	f := IntForm{op: e.Op}
	switch {
	case lvar && rconst:
		f.konst, f.k = true, rk.Value
		f.vars = [3]*Ident{x.Ident, x.Ident, x.Ident}
	case lconst && rvar:
		f.konst, f.kfirst, f.k = true, true, lk.Value
		f.vars = [3]*Ident{y.Ident, y.Ident, y.Ident}
	case lvar && rvar:
		f.vars = [3]*Ident{x.Ident, y.Ident, y.Ident}
	default:
		return nil, false
	}
	return &f, true
}

// IntForm is an int fast path over at most three variables (Var): a sum
// of one or two terms, each a variable or a product of two, times a
// constant (k + a·x, k + a·x·y, k + a·x + b·y, k + a·x·y + b·z: x - 1,
// x * y, x * 2 + i, x * i + j), or another operator on variables and an
// int constant (x ⊕ k, k ⊕ y, x ⊕ y: i % 2, x < y). An engine's
// SExpVars.Ints reads the variables and Eval computes it.
type IntForm struct {
	vars [3]*Ident
	// A sum is k + a·x + c·x·y + b·z over the variables' values x, y and
	// z, every shape alike (the coefficients of the terms it does not
	// have are 0), so that Eval takes no branch by shape.
	sum        bool
	k, a, c, b int64
	// An operator's form: op, and which operand is the constant k.
	op     semantics.Op
	konst  bool // one operand is k
	kfirst bool // and it is the left one
}

// Var is f's i-th variable (i < 3): Eval takes their values in this
// order. A form of fewer variables repeats one: the last is the second
// again where Vars is 2.
func (f *IntForm) Var(i int) *Ident { return f.vars[i] }

// Vars is the number of variables an engine reads for f: 2 (Var(0) and
// Var(1), whose value Eval takes for z too) or 3.
func (f *IntForm) Vars() int {
	if f.vars[2] == f.vars[1] {
		return 2
	}
	return 3
}

// Eval is f's value when its variables (Var(0), Var(1), Var(2)) have the
// int values x, y and z: false where it has none (a division by zero),
// and the general code decides.
func (f *IntForm) Eval(x, y, z int64) (int64, bool) {
	if f.sum {
		return f.k + f.a*x + f.c*x*y + f.b*z, true
	}
	return f.operator(x, y)
}

// operator is Eval of an operator's form.
func (f *IntForm) operator(x, y int64) (int64, bool) {
	switch {
	case f.konst && f.kfirst:
		return binary(f.op, f.k, x)
	case f.konst:
		return binary(f.op, x, f.k)
	}
	return binary(f.op, x, y)
}

// isArith says whether op is +, - or *, which have an int value for every
// two ints.
func isArith(op semantics.Op) bool {
	return op == semantics.Add || op == semantics.Sub || op == semantics.Mul
}

// arith is a op b for op +, - or * (isArith), wrapping, as
// semantics.Binary computes it. mut is the engine's mutant.
func arith(op semantics.Op, a, b int64, mut string) int64 {
	switch op {
	case semantics.Add:
		return a + b
	case semantics.Sub:
		if mutant.On(mut) { // mutant: the engine computes a - b as b - a
			return b - a
		}
		return a - b
	}
	return a * b
}

// binary is semantics.Binary: false where it has no int value (a
// division by zero).
func binary(op semantics.Op, a, b int64) (int64, bool) {
	k, err := semantics.Binary(op, a, b)
	return k, err == nil
}

// intOp is semantics.Binary as the fast paths compute it. mut is the
// engine's mutant.
func intOp(op semantics.Op, a, b int64, mut string) (int64, bool) {
	if isArith(op) {
		return arith(op, a, b, mut), true
	}
	return binary(op, a, b)
}

// term is k·x·y of a sum of products (y nil: k·x).
type term struct {
	x, y *Ident
	k    int64
}

// readTerm is a term with its variables' reads (y nil: k·x).
type readTerm[F any] struct {
	x, y func(F) (int64, bool)
	k    int64
}

// reads are the terms ts with their variables' reads.
func (c *SExpCompiler[F]) reads(ts []term) []readTerm[F] {
	rs := make([]readTerm[F], len(ts))
	for i, t := range ts {
		rs[i] = readTerm[F]{x: c.Vars.Int(t.x), k: t.k}
		if t.y != nil {
			rs[i].y = c.Vars.Int(t.y)
		}
	}
	return rs
}

// sumBuilder collects the terms and the constant of a sum of products.
type sumBuilder struct {
	terms []term
	k     int64
	flip  bool // the engine's mutant is on: a - b is b - a
}

// add adds sign·e to the sum, and says whether e is a sum of products.
func (b *sumBuilder) add(e SExp, sign int64) bool {
	switch e := e.(type) {
	case *Const:
		b.k += sign * e.Value
		return true
	case Var:
		b.terms = append(b.terms, term{x: e.Ident, k: sign})
		return true
	case *UnOp:
		return e.Op == semantics.Neg && b.add(e.X, -sign)
	case *BinOp:
		switch e.Op {
		case semantics.Add:
			return b.add(e.L, sign) && b.add(e.R, sign)
		case semantics.Sub:
			if b.flip { // mutant: the engine computes a - b as b - a
				return b.add(e.L, -sign) && b.add(e.R, sign)
			}
			return b.add(e.L, sign) && b.add(e.R, -sign)
		case semantics.Mul:
			x, u, ok1 := factor(e.L)
			y, v, ok2 := factor(e.R)
			if !ok1 || !ok2 {
				return false
			}
			if x == nil {
				x, y = y, x
			}
			if x == nil {
				b.k += sign * u * v
			} else {
				b.terms = append(b.terms, term{x: x, y: y, k: sign * u * v})
			}
			return true
		}
	}
	return false
}

// factor is a factor of a product: a variable (times 1), or a constant.
func factor(e SExp) (*Ident, int64, bool) {
	switch e := e.(type) {
	case Var:
		return e.Ident, 1, true
	case *Const:
		return nil, e.Value, true
	}
	return nil, 0, false
}

// sumOf is an int expression made of +, -, unary - and products of at
// most two variables and constants (offsets such as i * n + j - n - 1)
// as one sum: its terms and constant, or false where it is none.
func (c *SExpCompiler[F]) sumOf(e *BinOp) ([]term, int64, bool) {
	b := sumBuilder{flip: mutant.On(c.Mutant)}
	if !b.add(e, 1) || len(b.terms) == 0 {
		return nil, 0, false
	}
	return b.terms, b.k, true
}

// sumOfProducts compiles the sum k + terms (sumOf). Over ints it computes
// what the expression does: int64 arithmetic wraps, and wrapping sums and
// products are associative, commutative and distributive, so the terms
// may be added in any order. Where a variable is not an int (a float,
// say) the expression's general code g decides.
func (c *SExpCompiler[F]) sumOfProducts(terms []term, k int64, g SExpCode[F]) SExpCode[F] {
	if f := sumForm(terms, k); f != nil {
		return c.Vars.Ints(f, g)
	}
	if c.Invariant != nil {
		if f := c.hoisted(terms, k, g); f != nil {
			return f
		}
	}
	rs := c.reads(terms)
	return func(fr F) (semantics.Num, bool) {
		sum, ok := sumTerms(rs, k, fr)
		if !ok {
			return g(fr)
		}
		return semantics.IntNum(sum), true
	}
}

// sumForm is the sum k + terms as an int form, when it is one (one or two
// terms, at most three variables), or nil.
func sumForm(terms []term, k int64) *IntForm {
	f := &IntForm{sum: true, k: k}
	t := terms[0]
	switch {
	case len(terms) == 1 && t.y == nil: // k + a·x
		f.a, f.vars = t.k, [3]*Ident{t.x, t.x, t.x}
	case len(terms) == 1: // k + c·x·y
		f.c, f.vars = t.k, [3]*Ident{t.x, t.y, t.y}
	case len(terms) == 2:
		u := terms[1]
		if t.y == nil && u.y != nil { // the product first: the sum is the same
			t, u = u, t
		}
		switch {
		case t.y == nil: // k + a·x + b·z
			f.a, f.b, f.vars = t.k, u.k, [3]*Ident{t.x, u.x, u.x}
		case u.y == nil: // k + c·x·y + b·z
			f.c, f.b, f.vars = t.k, u.k, [3]*Ident{t.x, t.y, u.x}
		default:
			return nil
		}
	default:
		return nil
	}
	return f
}

// sumTerms is k plus the terms over fr, or false where a variable of them
// is not an int.
func sumTerms[F any](terms []readTerm[F], k int64, fr F) (int64, bool) {
	sum := k
	for i := range terms {
		t := &terms[i]
		v, ok := t.x(fr)
		if !ok {
			return 0, false
		}
		if t.y != nil {
			w, ok := t.y(fr)
			if !ok {
				return 0, false
			}
			v *= w
		}
		sum += t.k * v
	}
	return sum, true
}

// hoisted is a sum of products in the body of a loop computed in two
// parts: the terms over variables the loop's iterations never assign
// (Invariant), with k, once per start of the loop (Epoch: they hold the
// same values in every iteration of it), and the other terms on every
// evaluation. Wrapping int64 sums may be regrouped, so the value is the
// one-pass sum's; where a variable of either part is not an int, g
// decides, as it does for the one-pass sum. It returns nil where no term
// is invariant.
func (c *SExpCompiler[F]) hoisted(terms []term, k int64, g SExpCode[F]) SExpCode[F] {
	var invariant, varying []term
	for _, t := range terms {
		if c.Invariant(t.x) && (t.y == nil || c.Invariant(t.y)) {
			invariant = append(invariant, t)
		} else {
			varying = append(varying, t)
		}
	}
	if len(invariant) == 0 {
		return nil
	}
	inv, vary := c.reads(invariant), c.reads(varying)
	ep := c.Epoch
	last := *ep - 1 // no start seen yet: the loop's starts go 1, 2, …
	var base int64
	var baseOK bool
	if len(vary) == 1 && vary[0].y == nil {
		// base + k·x, the common offset i * n + j - n - 1 in a loop over j.
		x, kx := vary[0].x, vary[0].k
		return func(fr F) (semantics.Num, bool) {
			if last != *ep {
				last = *ep
				base, baseOK = sumTerms(inv, k, fr)
			}
			if baseOK {
				if v, ok := x(fr); ok {
					return semantics.IntNum(base + kx*v), true
				}
			}
			return g(fr)
		}
	}
	return func(fr F) (semantics.Num, bool) {
		if last != *ep {
			last = *ep
			base, baseOK = sumTerms(inv, k, fr)
		}
		if !baseOK {
			return g(fr)
		}
		sum, ok := sumTerms(vary, base, fr)
		if !ok {
			return g(fr)
		}
		return semantics.IntNum(sum), true
	}
}

// FUN's engine alone: folds stepped by one int operation.
//
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
		return func(acc, f int64) (int64, bool) { return intOp(op, acc, f, engineMutant) }
	case l.Name == px && r.Name == pa:
		return func(acc, f int64) (int64, bool) { return intOp(op, f, acc, engineMutant) }
	}
	return nil
}
