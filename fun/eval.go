package fun

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// EvalOptions configure an evaluation.
type EvalOptions struct {
	Derive  bool              // build the evaluation derivation (big-step)
	Counter semantics.Counter // counts the rules applied, if non-nil
	// Jobs bounds the goroutines a kernel runs its iterations on: 0 for
	// the default (semantics.SetDefaultJobs; all cores unless set), 1 for sequential
	// (semantics.Jobs resolves it). The results, and
	// the error of a run that goes wrong, do not depend on it; derivations
	// and rule counts are built sequentially whatever it says.
	Jobs int
	// Stats, when not nil, receives the cost counters (eval_stats.go),
	// which do not depend on Jobs.
	Stats *semantics.Stats
	// Fuel bounds the iterations the run takes (semantics.Budget: a
	// kernel's or fold's spent when it starts, a loop's one by one): 0
	// for semantics.DefaultBigFuel.
	Fuel int
	// NoIntFastPaths compiles the engine without its int fast paths
	// (compile_scalar.go: int operators and sums of products on slots
	// read in one closure, reduce and redomap operators folded without
	// running their bodies),
	// so that the property engine ≡ rules checks the engine with them
	// and without them.
	NoIntFastPaths bool
	// MinParallelWork is the work (iterations × statements per
	// iteration) under which a kernel, or a redomap's map, stays on one
	// goroutine: 0 for DefaultMinParallelWork, 1 to spread every one of
	// two iterations or more (as the tests do, to check the parallel
	// engine against the rules on small programs).
	MinParallelWork int64
	// compiled, when not nil, is told each body the engine compiles
	// (compile.go compiles a body when it first runs; the tests check
	// when).
	compiled func(*Body)
}

// Eval runs a program by the big-step semantics of Fig 4 in the environment
// of its inputs, and returns its results (and the derivation, if asked).
// A stuck state is a *semantics.Error of kind StuckError naming the rule.
//
// The program is first compiled (compile.go): each variable resolved to a
// slot, each rule of Fig 4 turned into a Go closure; the closures then
// run the rules.
func Eval(p *Program, inputs *Env, opts *EvalOptions) ([]semantics.Array, *semantics.Derivation, error) {
	if opts == nil {
		opts = &EvalOptions{}
	}
	prog := compileProgram(p, inputs, opts)
	return prog.run(newMachine(opts))
}

// vars is where the rules read variables by name: the small-step's
// environment (*Env), or the compiled big-step's slots at one point of
// the program (slotVars). The rules' starts (kernelStart, loopStart, …)
// and the atomic rules read through it, so that both semantics share them.
type vars interface {
	Lookup(x string) (semantics.Array, bool)
}

// chooseBranch is the choice between E-IF-TRUE and E-IF-FALSE.
func chooseBranch(env vars, e *IfExp) (string, *Body, error) {
	c, err := lookupInt(env, e.Cond, EIf.Name)
	if err != nil {
		return "", nil, err
	}
	rule, b := branch(e, c)
	return rule, b, nil
}

// branch is the branch an if whose condition is c runs, and its rule.
func branch(e *IfExp, c int64) (string, *Body) {
	if c != 0 {
		return EIfTrue.Name, e.Then
	}
	return EIfFalse.Name, e.Else
}

// kernelStart evaluates the bound m = E(y) of E-KERNEL and the shape of
// the items, from the binding's declared type, so that a kernel of zero
// iterations still has its full shape.
func kernelStart(env vars, s *Stm, e *KernelExp) (int64, []int64, error) {
	rule := EKernel.Name
	m, err := lookupInt(env, e.Bound, rule)
	if err != nil {
		return 0, nil, err
	}
	if m < 0 {
		return 0, nil, semantics.Stuckf(e.Bound.NamePos, rule, "kernel bound %s = %d is negative", e.Bound.Name, m)
	}
	if len(s.Pat) != 1 || s.Pat[0].Type.Rank() == 0 {
		return 0, nil, semantics.Stuckf(s.Let, rule, "a kernel binds one array")
	}
	var cell []int64
	for _, d := range s.Pat[0].Type.Dims[1:] {
		k, err := lookupInt(env, d, rule)
		if err != nil {
			return 0, nil, err
		}
		if k < 0 {
			// Even with no iterations: flat arrays carry their item shape
			// (ERRATA.md, E7), and no array has a negative size.
			return 0, nil, semantics.Stuckf(d.NamePos, rule, "the items' size %s = %d is negative", d.Name, k)
		}
		cell = append(cell, k)
	}
	if _, err := semantics.Count(append([]int64{m}, cell...)); err != nil {
		return 0, nil, semantics.Stuckf(s.Pat[0].Lparen, rule, "%v", err)
	}
	return m, cell, nil
}

// kernelFinish builds E-KERNEL's [v1, …, vm], of the element type the
// binding declares (so that a kernel of no iterations that would give
// floats gives an empty float array).
func kernelFinish(s *Stm, cell []int64, items []semantics.Array) ([]semantics.Array, error) {
	v, err := semantics.StackOf(s.Pat[0].Type.Elem, cell, items)
	if err != nil {
		return nil, kernelStuck(s, err)
	}
	return []semantics.Array{v}, nil
}

// kernelStuck is E-KERNEL stuck on items that do not stack (err is
// semantics.StackOf's).
func kernelStuck(s *Stm, err error) error {
	return semantics.Stuckf(s.Pat[0].Lparen, EKernel.Name, "%v", err)
}

// kernelArity is E-KERNEL stuck on a body that returns n values, not one.
func kernelArity(e *KernelExp, n int) error {
	if n == 1 {
		return nil
	}
	return semantics.Stuckf(e.Body.In, EKernel.Name, "a kernel body returns one value, not %d", n)
}

// evalAtomic evaluates a statement whose expression has no body: E-SCALAR,
// E-INDEX, E-SLICE, E-TRANSPOSE, the derived E-IOTA and E-COPY (fig4.go),
// and the extension E-ASSERT (eval_ext.go). It returns the values and the
// rule that gave them.
func evalAtomic(env vars, s *Stm) ([]semantics.Array, string, error) {
	var v semantics.Array
	var rule semantics.Rule
	var err error
	switch e := s.Exp.(type) {
	case *ScalarExp:
		v, err = eScalar(env, e)
		rule = EScalar
	case *IndexExp:
		v, err = eIndex(env, e)
		rule = EIndex
	case *SliceExp:
		v, err = eSlice(env, e)
		rule = ESlice
	case *TransposeExp:
		v, err = eTranspose(env, e)
		rule = ETranspose
	case *IotaExp:
		v, err = eIota(env, e)
		rule = EIota
	case *CopyExp:
		v, err = eCopy(env, e)
		rule = ECopy
	case *AssertExp:
		vs, err := evalAssert(env, e)
		if err != nil {
			return nil, "", err
		}
		return vs, EAssert.Name, nil
	default:
		return nil, "", semantics.Stuckf(s.Let, ELet.Name, "no rule evaluates %T", s.Exp)
	}
	if err != nil {
		return nil, "", err
	}
	return []semantics.Array{v}, rule.Name, nil
}

// bindPattern is the binding part of E-LET: E, x1 ↦ v1, …, xn ↦ vn.
func bindPattern(env *Env, s *Stm, vs []semantics.Array) (*Env, error) {
	if err := patternArity(s, len(vs)); err != nil {
		return nil, err
	}
	for i, p := range s.Pat {
		env = env.Bind(p.Name.Name, vs[i])
	}
	return env, nil
}

// patternArity is E-LET stuck on an expression that gives n values for
// a pattern that binds another number.
func patternArity(s *Stm, n int) error {
	if n == len(s.Pat) {
		return nil
	}
	return semantics.Stuckf(s.Let, ELet.Name, "the expression gives %d values, but the pattern binds %d", n, len(s.Pat))
}

// evalIn is E-IN: E(x_i) = v_i.
func evalIn(env *Env, b *Body) ([]semantics.Array, error) {
	vs := make([]semantics.Array, len(b.Result))
	for i, x := range b.Result {
		v, ok := env.Lookup(x.Name)
		if !ok {
			return nil, unbound(x, EIn.Name)
		}
		vs[i] = v
	}
	return vs, nil
}

func envLookup(env vars) func(*Ident, string) (int64, error) {
	return func(x *Ident, rule string) (int64, error) { return lookupInt(env, x, rule) }
}

// numLookup reads a scalar variable, int or float, for EvalNum.
func numLookup(env vars) func(*Ident, string) (semantics.Num, error) {
	return func(x *Ident, rule string) (semantics.Num, error) {
		v, ok := env.Lookup(x.Name)
		if !ok {
			return semantics.Num{}, unbound(x, rule)
		}
		return numOf(x, v, rule)
	}
}

// The checks of a variable's value, shared by the lookups by name and
// the compiled big-step's reads of slots, so that both are stuck alike.

// unbound is rule stuck on a variable that E does not bind.
func unbound(x *Ident, rule string) error {
	return semantics.Stuckf(x.NamePos, rule, "variable %s is unbound", x.Name)
}

// numOf is v as a scalar of a scalar expression, int or float.
func numOf(x *Ident, v semantics.Array, rule string) (semantics.Num, error) {
	if !v.IsScalar() {
		return semantics.Num{}, semantics.Stuckf(x.NamePos, rule, "%s is an array of shape %s, not a scalar", x.Name, semantics.ShapeString(v.Shape))
	}
	return v.Num(), nil
}

// intOf is v as an int (a size, an index, a bound, a condition).
func intOf(x *Ident, v semantics.Array, rule string) (int64, error) {
	if !v.IsScalar() {
		return 0, semantics.Stuckf(x.NamePos, rule, "%s is an array of shape %s, not an integer", x.Name, semantics.ShapeString(v.Shape))
	}
	if v.Elem != semantics.IntElem {
		return 0, semantics.Stuckf(x.NamePos, rule, "%s is the float %s, not an integer", x.Name, v)
	}
	return v.Int(), nil
}

// arrayOf is v as an array (of rank at least 1).
func arrayOf(x *Ident, v semantics.Array, rule string) (semantics.Array, error) {
	if v.IsScalar() {
		return semantics.Array{}, semantics.Stuckf(x.NamePos, rule, "%s is the scalar %s, not an array", x.Name, v)
	}
	return v, nil
}

func lookupInt(env vars, x *Ident, rule string) (int64, error) {
	v, ok := env.Lookup(x.Name)
	if !ok {
		return 0, unbound(x, rule)
	}
	return intOf(x, v, rule)
}

func lookupArray(env vars, x *Ident, rule string) (semantics.Array, error) {
	v, ok := env.Lookup(x.Name)
	if !ok {
		return semantics.Array{}, unbound(x, rule)
	}
	return arrayOf(x, v, rule)
}

// EvalIndices reads the index variables of x[y1, …, yn] (E-INDEX and the
// rules of the languages below FUN that share FUN's syntax).
func EvalIndices(ys []*Ident, lookup func(x *Ident, rule string) (int64, error), rule string) ([]int64, error) {
	idx := make([]int64, len(ys))
	for i, y := range ys {
		var err error
		if idx[i], err = lookup(y, rule); err != nil {
			return nil, err
		}
	}
	return idx, nil
}

// EvalSlices reads the offset:size pairs of x[o1 : s1, …] (E-SLICE and
// the rules that share its syntax).
func EvalSlices(slices []Slice, lookup func(x *Ident, rule string) (int64, error), rule string) ([][2]int64, error) {
	pairs := make([][2]int64, len(slices))
	for i, sl := range slices {
		var err error
		if pairs[i][0], err = lookup(sl.Off, rule); err != nil {
			return nil, err
		}
		if pairs[i][1], err = lookup(sl.Size, rule); err != nil {
			return nil, err
		}
	}
	return pairs, nil
}

// EvalSExp evaluates a scalar expression of ints ("conventional
// evaluation of se" in E-SCALAR), left operand first. lookup reads a
// variable; a division by zero is a stuck state of rule, at the operator.
// It is EvalNum for the languages and places that have only ints (sizes,
// indices, offsets): an expression whose value is a float is stuck.
func EvalSExp(e SExp, lookup func(x *Ident, rule string) (int64, error), rule string) (int64, error) {
	// A variable or a constant (most sizes and indices) as EvalNum would
	// evaluate it, without wrapping lookup.
	switch e := e.(type) {
	case Var:
		k, err := lookup(e.Ident, rule)
		if err != nil {
			return 0, err
		}
		return k, nil
	case *Const:
		return e.Value, nil
	}
	v, err := EvalNum(e, func(x *Ident, rule string) (semantics.Num, error) {
		k, err := lookup(x, rule)
		return semantics.IntNum(k), err
	}, rule)
	if err != nil {
		return 0, err
	}
	if v.Elem != semantics.IntElem {
		return 0, semantics.Stuckf(e.Pos(), rule, "%s is the float %s, not an integer", PrintSExp(e), v)
	}
	return v.Int(), nil
}

// EvalNum evaluates a scalar expression of ints and floats ("conventional
// evaluation of se" in E-SCALAR), left operand first: ints as
// semantics.Binary defines them, floats as IEEE float64 (a division by
// zero is ±Inf or NaN, no error), the built-in functions as
// semantics.ApplyFunc. A division of ints by zero, and int(se) of a NaN or
// of a value outside int64, are stuck states of rule, at the operator or
// the call; so is an ill-typed operand (which the checker refuses).
func EvalNum(e SExp, lookup func(x *Ident, rule string) (semantics.Num, error), rule string) (semantics.Num, error) {
	switch e := e.(type) {
	case *Const:
		return semantics.IntNum(e.Value), nil
	case *FloatConst:
		return semantics.FloatNum(e.Value), nil
	case Var:
		return lookup(e.Ident, rule)
	case *UnOp:
		a, err := EvalNum(e.X, lookup, rule)
		if err != nil {
			return semantics.Num{}, err
		}
		return semantics.UnaryNum(e.Op, a), nil
	case *BinOp:
		a, err := EvalNum(e.L, lookup, rule)
		if err != nil {
			return semantics.Num{}, err
		}
		b, err := EvalNum(e.R, lookup, rule)
		if err != nil {
			return semantics.Num{}, err
		}
		v, err := semantics.BinaryNum(e.Op, a, b)
		if err != nil {
			return semantics.Num{}, opStuck(e, rule, err)
		}
		return v, nil
	case *Call:
		a, err := EvalNum(e.Arg, lookup, rule)
		if err != nil {
			return semantics.Num{}, err
		}
		v, err := semantics.ApplyFunc(e.Func, a)
		if err != nil {
			return semantics.Num{}, callStuck(e, rule, err)
		}
		return v, nil
	}
	return semantics.Num{}, fmt.Errorf("unknown scalar expression %T", e)
}

// opStuck is rule stuck at an operator that has no value (an int
// division by zero, an ill-typed operand).
func opStuck(e *BinOp, rule string, err error) error {
	return semantics.OpStuck(e.OpPos, rule, err, " in "+PrintSExp(e))
}

// callStuck is rule stuck at a call that has no value (int(se) of a NaN).
func callStuck(e *Call, rule string, err error) error {
	return semantics.OpStuck(e.NamePos, rule, err, " in "+PrintSExp(e))
}

// expHead renders an expression briefly, eliding nested bodies.
func expHead(e Exp) string {
	switch e := e.(type) {
	case *IfExp:
		return "if " + e.Cond.Name + " then … else …"
	case *KernelExp:
		return "kernel " + e.Var.Name + " <= " + e.Bound.Name + " do …"
	case *LoopExp, *ReduceExp, *ScanExp, *FilterExp, *RedomapExp:
		h, _ := extHead(e)
		return h + " do …"
	}
	return PrintExp(e)
}

// valuesString renders a tuple of values (v1, …, vn), abbreviating arrays.
func valuesString(vs []semantics.Array) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.Abbrev(8)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
