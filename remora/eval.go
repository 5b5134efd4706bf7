package remora

import (
	"errors"

	"github.com/arraysem/arraysem/semantics"
)

// Env is the big-step evaluator's environment: term variables bound to
// values, type variables to atom types, index variables to closed indices.
// It is a persistent list, shared by the closures that capture it.
type Env struct {
	parent *Env
	name   string
	val    *Value
	tval   Type
	ival   *Index
}

func (env *Env) bind(x string, v *Value) *Env { return &Env{parent: env, name: x, val: v} }
func (env *Env) bindType(x string, t Type) *Env {
	return &Env{parent: env, name: x, tval: t}
}
func (env *Env) bindIndex(x string, ix Index) *Env {
	return &Env{parent: env, name: x, ival: &ix}
}

func (env *Env) lookup(x string) (*Env, bool) {
	for e := env; e != nil; e = e.parent {
		if e.name == x {
			return e, true
		}
	}
	return nil, false
}

// subst is the substitution that closes a type or index under env.
func (env *Env) subst(free map[string]bool, tfree map[string]bool) TypeSubst {
	s := TypeSubst{}
	for x := range free {
		if b, ok := env.lookup(x); ok && b.ival != nil {
			if s.Indices == nil {
				s.Indices = Subst{}
			}
			s.Indices[x] = *b.ival
		}
	}
	for x := range tfree {
		if b, ok := env.lookup(x); ok && b.tval != nil {
			if s.Types == nil {
				s.Types = map[string]Type{}
			}
			s.Types[x] = b.tval
		}
	}
	return s
}

// closeType closes t under env.
func (env *Env) closeType(t Type) Type {
	if env == nil {
		return t
	}
	free, tfree := map[string]bool{}, map[string]bool{}
	FreeIndexVars(t, free)
	FreeTypeVars(t, tfree)
	return env.subst(free, tfree).Type(t)
}

// closeIndex closes ix under env.
func (env *Env) closeIndex(ix Index) Index {
	if env == nil {
		return ix
	}
	free := map[string]bool{}
	ix.FreeVars(free)
	return env.subst(free, nil).Indices.Index(ix)
}

func FreeTypeVars(t Type, set map[string]bool) {
	switch t := t.(type) {
	case *TVar:
		set[t.Name] = true
	case *Arr:
		FreeTypeVars(t.Elem, set)
	case *Fn:
		for _, p := range t.Params {
			FreeTypeVars(p, set)
		}
		FreeTypeVars(t.Ret, set)
	case *Forall:
		inner := map[string]bool{}
		FreeTypeVars(t.Body, inner)
		addUnbound(set, inner, t.Vars)
	case *Pi:
		FreeTypeVars(t.Body, set)
	case *Sigma:
		FreeTypeVars(t.Body, set)
	}
}

// EvalOptions configure the big-step evaluator.
type EvalOptions struct {
	// Counter counts the rules of Fig 6 the evaluation applies, one per
	// node of the derivation the rules as written (EvalRules) build: the
	// engine counts what it stands for, so that the counts compare.
	Counter semantics.Counter
	// Derive asks EvalRules for the evaluation derivation; the engine
	// (Eval) builds none.
	Derive bool
	// Fuel bounds EvalRules' iterations (semantics.Budget: a map's cells,
	// a fold's applications, a MAP's positions), 0 for
	// semantics.DefaultBigFuel; the engine counts none (the typed core
	// has no recursion, and --max-memory bounds its arrays).
	Fuel int
	// Jobs bounds the goroutines a large map's cells are called on
	// (parallel.go): 0 for the default (semantics.Jobs), 1 for in order.
	// Values and errors do not depend on it.
	Jobs int
	// Engines switches the fast paths off, one by one; the zero value
	// runs them all. Values and errors do not depend on it: each path
	// is checked against the general one by a test that turns it off.
	Engines Engines
}

// Engines are the big-step's fast paths beside Fig 6's rules, each on
// unless switched off: the general path, a call per cell, is the rules
// as written (fig6.go), which the property engine ≡ rules compares with
// each path on and off.
type Engines struct {
	NoStreams     bool // folds over iota and replicate without building them (stream.go)
	NoVectorLams  bool // a λ's body evaluated once over a whole frame (stream.go)
	NoScalarFolds bool // the fold family on scalar operators in a loop (fold.go)
	// MinParallelCells is the number of cells from which a map's calls
	// are spread over goroutines (parallel.go): 0 for 1024.
	MinParallelCells int
	// OnParallel, when not nil, is called when a map runs on goroutines.
	OnParallel func()
}

// Eval evaluates every expression of a checked program by the big-step
// semantics over flat arrays: frames are computed from the values' shapes
// and the functions' cell types, exactly as the small-step's lift and map
// would, but cells are never built as terms, and the basis runs as native
// loops.
func Eval(p *Program, opts *EvalOptions) ([]*Value, error) {
	if opts == nil {
		opts = &EvalOptions{}
	}
	ev := &evaluator{counter: opts.Counter, jobs: opts.Jobs, engines: opts.Engines}
	var out []*Value
	for _, e := range p.Exprs {
		v, err := ev.eval(e, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// EvalExpr evaluates one checked, closed expression.
func EvalExpr(e Expr, opts *EvalOptions) (*Value, error) {
	if opts == nil {
		opts = &EvalOptions{}
	}
	return (&evaluator{counter: opts.Counter, jobs: opts.Jobs, engines: opts.Engines}).eval(e, nil)
}

type evaluator struct {
	counter semantics.Counter
	jobs    int     // EvalOptions.Jobs
	engines Engines // EvalOptions.Engines
}

func (ev *evaluator) eval(e Expr, env *Env) (*Value, error) {
	switch e := e.(type) {
	case *Lit:
		return e.V, nil
	case *Var:
		b, ok := env.lookup(e.Name)
		if !ok || b.val == nil {
			return nil, semantics.Stuckf(e.Pos, RuleTVar.Name, "unbound variable %s", e.Name)
		}
		return b.val, nil
	case *Prim:
		return AtomScalar(KFunc, &Func{Prim: e.Def}), nil
	case *chainLink: // a small-step configuration's chain (chain.go)
		return ev.eval(e.force(), env)
	case *Lam, *TLam, *ILam:
		return AtomScalar(KFunc, &Func{Term: e, Env: env}), nil
	case *Frame:
		cells := make([]*Value, len(e.Elems))
		for i, el := range e.Elems {
			v, err := ev.eval(el, env)
			if err != nil {
				return nil, err
			}
			cells[i] = v
		}
		return ev.collapse(e, cells, env)
	case *App:
		fv, err := ev.eval(e.Fn, env)
		if err != nil {
			return nil, err
		}
		if v, ok, err := ev.streamed(e, fv, env); ok {
			return v, err
		}
		args := make([]*Value, len(e.Args))
		for i, a := range e.Args {
			if args[i], err = ev.eval(a, env); err != nil {
				return nil, err
			}
		}
		return ev.apply(fv, args, env.closeType(e.Type).(*Arr), e.Pos)
	case *TApp:
		fv, err := ev.eval(e.Fn, env)
		if err != nil {
			return nil, err
		}
		ts := make([]Type, len(e.Args))
		for i, t := range e.Args {
			ts[i] = env.closeType(t)
		}
		return ev.tapp(fv.A[0].(*Func), ts, e.Pos)
	case *IApp:
		fv, err := ev.eval(e.Fn, env)
		if err != nil {
			return nil, err
		}
		is := make([]Index, len(e.Args))
		for i, ix := range e.Args {
			is[i] = env.closeIndex(ix)
		}
		return ev.iapp(fv.A[0].(*Func), is, e.Pos)
	case *Pack:
		v, err := ev.eval(e.Body, env)
		if err != nil {
			return nil, err
		}
		is := make([]Index, len(e.Indices))
		for i, ix := range e.Indices {
			is[i] = env.closeIndex(ix)
		}
		return AtomScalar(KBox, &Box{Indices: is, Val: v, Type: env.closeType(e.Type).(*Sigma)}), nil
	case *Unpack:
		bv, err := ev.eval(e.Box, env)
		if err != nil {
			return nil, err
		}
		ev.counter.Hit(RuleProj.Name)
		b := bv.A[0].(*Box)
		inner := env
		for i, x := range e.IVars {
			inner = inner.bindIndex(x, b.Indices[i])
		}
		return ev.eval(e.Body, inner.bind(e.X, b.Val))
	case *LiftDim:
		nv, err := ev.eval(e.N, env)
		if err != nil {
			return nil, err
		}
		n := nv.I[0]
		if n < 0 {
			return nil, negativeDim(e.Pos, n)
		}
		ev.counter.Hit(RuleLiftDim.Name)
		ix := NatIndex(NatConst(n))
		inner := env.bindIndex(e.D, ix)
		v, err := ev.eval(e.Body, inner)
		if err != nil {
			return nil, err
		}
		return AtomScalar(KBox, &Box{Indices: []Index{ix}, Val: v, Type: env.closeType(e.Type).(*Sigma)}), nil
	case *Reify:
		ev.counter.Hit(RuleDelta.Name)
		return ReifyIndex(env.closeIndex(e.Index)), nil
	case *Reshape:
		v, err := ev.eval(e.E, env)
		if err != nil {
			return nil, err
		}
		ev.counter.Hit(RuleDelta.Name)
		ds, _ := env.closeType(e.Type).(*Arr).Shape.Const()
		return v.Reshape(ds), nil
	case *Map:
		return ev.mapIR(e, env)
	case *Case:
		return ev.evalCase(e, env)
	case *Rep:
		v, err := ev.eval(e.E, env)
		if err != nil {
			return nil, err
		}
		ev.counter.Hit(RuleREP.Name)
		frame, _ := env.closeIndex(ShapeIndex(e.Frame)).S.Const()
		return Replicate(v, frame), nil
	}
	return nil, semantics.Stuckf(e.At(), "", "cannot evaluate %s", Short(e))
}

// mapIR runs the compiler IR's MAP: the body once per position of the
// frame, each parameter bound to its argument's cell there, the results
// stacked. No cell is replicated: every argument has exactly the frame.
func (ev *evaluator) mapIR(e *Map, env *Env) (*Value, error) {
	frame, _ := env.closeIndex(ShapeIndex(e.Frame)).S.Const()
	vals := make([]*Value, len(e.Args))
	for i, a := range e.Args {
		v, err := ev.eval(a, env)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	ev.counter.Hit(RuleMAP.Name)
	n := Product(frame)
	if n == 0 {
		t := env.closeType(e.Type).(*Arr)
		ds, _ := t.Shape.Const()
		return NewValue(kindOf(t.Elem), ds, 0), nil
	}
	// The body once over the frame, as a λ of the same parameters and body
	// applied to the arguments would run (vectorLam).
	fs := make([][]int64, len(vals))
	for i := range fs {
		fs[i] = frame
	}
	if v, ok := ev.vectorLam(&Func{Term: &Lam{Params: e.Params, Body: e.Body}, Env: env}, vals, frame, fs, n); ok {
		return v, nil
	}
	args := make([][]*Value, len(vals))
	for i, v := range vals {
		_, args[i] = v.Cells(len(frame))
	}
	results := make([]*Value, n)
	for p := range n {
		inner := env
		for i, prm := range e.Params {
			inner = inner.bind(prm.Name, args[i][p])
		}
		r, err := ev.eval(e.Body, inner)
		if err != nil {
			return nil, err
		}
		results[p] = r
		if !semantics.SameShape(r.Shape, results[0].Shape) {
			return nil, mapCellShapes(e.Pos, results[0], r)
		}
	}
	if len(frame) == 0 {
		return results[0], nil
	}
	return Stack(frame, results[0].Shape, results[0].Kind, results), nil
}

// mapCellShapes is the error of a MAP whose result cells a and b differ
// in shape.
func mapCellShapes(pos semantics.Pos, a, b *Value) error {
	return semantics.Stuckf(pos, RuleCollapse.Name, "MAP's result cells have shapes %s and %s", dimsString(a.Shape), dimsString(b.Shape))
}

// negativeDim is the error of (lift [d e] …) whose e is the negative n.
func negativeDim(pos semantics.Pos, n int64) error {
	return semantics.Stuckf(pos, RuleLiftDim.Name, "a dimension cannot be negative, got %d", n)
}

// Replicate is v repeated over frame: the value of (REP [frame] v).
func Replicate(v *Value, frame []int64) *Value {
	n := Product(frame)
	cells := make([]*Value, n)
	for i := range cells {
		cells[i] = v
	}
	return Stack(frame, v.Shape, v.Kind, cells)
}

// reify is an index as a term: a Nat is an int, a Shape a vector of ints.
func ReifyIndex(ix Index) *Value {
	if !ix.IsShape {
		return IntScalar(ix.N.Const)
	}
	ds, _ := ix.S.Const()
	v := NewValue(KInt, []int64{int64(len(ds))}, len(ds))
	copy(v.I, ds)
	return v
}

// collapse is the collapse rule of Fig 6: a frame of arrays is one array
// whose shape is the frame's followed by the cells'.
func (ev *evaluator) collapse(f *Frame, cells []*Value, env *Env) (*Value, error) {
	v, collapses, err := frameValue(f, cells, env)
	if collapses {
		ev.counter.Hit(RuleCollapse.Name)
	}
	return v, err
}

// frameValue is the value of the frame f whose elements evaluated to
// cells, and whether collapse makes it (the cells are arrays, not atoms:
// a frame of atoms is a value already); the big-step and the rules as
// written (fig6.go) share it.
func frameValue(f *Frame, cells []*Value, env *Env) (*Value, bool, error) {
	if len(cells) == 0 {
		t := env.closeType(f.Type).(*Arr)
		ds, _ := t.Shape.Const()
		return NewValue(kindOf(t.Elem), ds, 0), false, nil
	}
	collapses := len(cells[0].Shape) > 0
	for _, c := range cells[1:] {
		if !semantics.SameShape(c.Shape, cells[0].Shape) {
			return nil, collapses, semantics.Stuckf(f.Pos, RuleCollapse.Name, "the cells of a frame have shapes %s and %s", dimsString(cells[0].Shape), dimsString(c.Shape))
		}
	}
	return Stack(f.Dims, cells[0].Shape, cells[0].Kind, cells), collapses, nil
}

// signature is a function atom's parameter cell types and result cell type,
// closed.
func signature(f *Func) ([]*Arr, *Arr) {
	var fn *Fn
	if f.Prim != nil {
		fn, _ = Instantiate(f.Prim.Type, f.Indices, f.Types).(*Fn)
	} else if l, ok := f.Term.(*Lam); ok {
		params := make([]*Arr, len(l.Params))
		for i, p := range l.Params {
			params[i] = f.Env.closeType(p.Type).(*Arr)
		}
		return params, f.Env.closeType(l.Ret).(*Arr)
	}
	if fn == nil {
		return nil, nil
	}
	params := make([]*Arr, len(fn.Params))
	for i, p := range fn.Params {
		params[i] = p.(*Arr)
	}
	return params, fn.Ret.(*Arr)
}

// instantiate applies a primitive's type to its index and type arguments.
func Instantiate(t Type, is []Index, ts []Type) Type {
	if len(is) > 0 {
		pi := t.(*Pi)
		sub := Subst{}
		for i, v := range pi.Vars {
			sub[v] = is[i]
		}
		t = Canon(TypeSubst{Indices: sub}.Type(pi.Body))
		t = unscalar(t)
	}
	if len(ts) > 0 {
		fa := t.(*Forall)
		sub := map[string]Type{}
		for i, v := range fa.Vars {
			sub[v] = ts[i]
		}
		t = unscalar(Canon(TypeSubst{Types: sub}.Type(fa.Body)))
	}
	return t
}

// isAbstraction reports whether a primitive's instantiated type is still a
// function or an abstraction; otherwise it denotes an array (iota{ | @s},
// which at the empty shape is the scalar 0 of type int).
func isAbstraction(t Type) bool {
	switch t.(type) {
	case *Fn, *Forall, *Pi:
		return true
	}
	return false
}

// unscalar is the atom type of a scalar array type (the body of a Π or ∀
// is an array type; the primitive inside is its atom).
func unscalar(t Type) Type {
	if a, ok := t.(*Arr); ok && len(a.Shape) == 0 {
		return a.Elem
	}
	return t
}

// frames finds an application's frame: each argument's shape less its
// cell shape, and the function array's shape; every frame must be a prefix
// of the largest (Fig 6's lift and map, and T-APP's frame). It returns the
// frame, and each argument's frame (the function's first).
func frames(fv *Value, args []*Value, params []*Arr, pos semantics.Pos) ([]int64, [][]int64, error) {
	fs := [][]int64{fv.Shape}
	for i, a := range args {
		cell, ok := params[i].Shape.Const()
		r := len(a.Shape) - len(cell)
		if !ok || r < 0 || !semantics.SameShape(a.Shape[r:], cell) {
			return nil, nil, semantics.Stuckf(pos, RuleLift.Name, "argument %d has shape %s, which does not end with the cell shape %s", i+1, dimsString(a.Shape), params[i].Shape)
		}
		fs = append(fs, a.Shape[:r])
	}
	big := fs[0]
	for _, f := range fs[1:] {
		if len(f) > len(big) {
			big = f
		}
	}
	for _, f := range fs {
		if !semantics.SameShape(f, big[:len(f)]) {
			return nil, nil, semantics.Stuckf(pos, RuleLift.Name, "frames %s and %s do not agree", dimsString(f), dimsString(big))
		}
	}
	return big, fs, nil
}

// apply applies a function array to argument arrays (T-APP's frame, then
// lift, map, β or δ, and collapse, done at once on flat arrays). res is the
// application's closed type, used when there are no cells to run.
func (ev *evaluator) apply(fv *Value, args []*Value, res *Arr, pos semantics.Pos) (*Value, error) {
	var f0 *Func
	if fv.Len() > 0 {
		f0 = fv.A[0].(*Func)
	}
	var params []*Arr
	var ret *Arr
	if f0 != nil {
		params, ret = signature(f0)
	}
	if params == nil {
		// No function to read the cell types off: the frame is empty and
		// the result is the empty array of the application's type.
		ev.counter.Hit(RuleMap.Name)
		ds, _ := res.Shape.Const()
		return NewValue(kindOf(res.Elem), ds, 0), nil
	}
	frame, fs, err := frames(fv, args, params, pos)
	if err != nil {
		return nil, err
	}
	if len(frame) == 0 {
		return ev.call(f0, args, pos)
	}
	for _, f := range fs {
		if len(f) < len(frame) {
			ev.counter.Hit(RuleLift.Name)
			break
		}
	}
	ev.counter.Hit(RuleMap.Name)
	n := Product(frame)
	retShape, _ := ret.Shape.Const()
	if n == 0 {
		return NewValue(kindOf(ret.Elem), append(append([]int64{}, frame...), retShape...), 0), nil
	}
	if f0.Prim != nil && f0.Prim.Scalar != nil && allSame(fv) && baseKinds(args) {
		return ev.scalarLoop(f0, args, frame, fs[1:], kindOf(ret.Elem), pos)
	}
	if f0.Prim == nil && len(fv.Shape) == 0 {
		if v, ok := ev.vectorLam(f0, args, frame, fs[1:], n); ok {
			return v, nil
		}
	}
	// cell i of an array whose frame is the prefix fr of frame is at
	// position p / (n / |fr|) of it: replication without copying.
	div := make([]int, len(fs))
	for i, f := range fs {
		div[i] = n / Product(f)
	}
	cellArgs := make([][]*Value, len(args))
	for i, a := range args {
		_, cellArgs[i] = a.Cells(len(fs[i+1]))
	}
	results := make([]*Value, n)
	// cell sets cur to cell p's arguments and gives its function.
	cell := func(p int, cur []*Value) *Func {
		for i := range args {
			cur[i] = cellArgs[i][p/div[i+1]]
		}
		return fv.A[p/div[0]].(*Func)
	}
	if w := ev.mapWorkers(n); w > 1 {
		if err := ev.callCells(w, n, results, cell, len(args), pos); err != nil { // parallel.go
			return nil, err
		}
	} else {
		cur := make([]*Value, len(args))
		for p := 0; p < n; p++ {
			r, err := ev.call(cell(p, cur), cur, pos)
			if err != nil {
				return nil, err
			}
			results[p] = r
			if !semantics.SameShape(r.Shape, results[0].Shape) {
				return nil, cellShapes(pos, results[0], r)
			}
		}
	}
	if len(results[0].Shape) > 0 { // a frame of atoms is a value: no collapse
		ev.counter.Hit(RuleCollapse.Name)
	}
	return Stack(frame, results[0].Shape, results[0].Kind, results), nil
}

// cellShapes is the error of a map whose result cells a and b differ in
// shape (COLLAPSE).
func cellShapes(pos semantics.Pos, a, b *Value) error {
	return semantics.Stuckf(pos, RuleCollapse.Name, "result cells have shapes %s and %s", dimsString(a.Shape), dimsString(b.Shape))
}

// baseKinds reports whether every argument holds base atoms, which the
// scalar δ-rules work on (if{t | } may choose between functions or boxes).
func baseKinds(args []*Value) bool {
	for _, a := range args {
		if a.Kind >= KFunc {
			return false
		}
	}
	return true
}

// allSame reports whether every atom of a function array is the same
// primitive with the same instantiation (then one native loop runs all
// cells).
func allSame(fv *Value) bool {
	f0 := fv.A[0].(*Func)
	for _, a := range fv.A[1:] {
		f := a.(*Func)
		if f.Prim != f0.Prim || len(f.Types) != len(f0.Types) {
			return false
		}
		for i := range f.Types {
			if !Equal(f.Types[i], f0.Types[i]) {
				return false
			}
		}
	}
	return true
}

// scalarLoop runs a scalar primitive over a whole frame in one loop: a
// δ per cell, as the rules as written apply it.
func (ev *evaluator) scalarLoop(f *Func, args []*Value, frame []int64, fs [][]int64, kind Kind, pos semantics.Pos) (*Value, error) {
	hits(ev.counter, RuleDelta, Product(frame))
	return ScalarLoop(f.Prim, args, frame, fs, kind, pos)
}

// hits counts n applications of rule.
func hits(c semantics.Counter, rule semantics.Rule, n int) {
	if c != nil && n > 0 {
		c[rule.Name] += n
	}
}

// ScalarLoop runs the scalar primitive p over the frame frame in one loop:
// fs[i] is argument i's frame, a prefix of frame, whose atoms are
// replicated over the rest (Fig 6's lift, map, δ and collapse at once, on
// flat buffers). kind is the result's atom kind; the arguments hold base
// atoms of the kinds p takes.
func ScalarLoop(p *PrimDef, args []*Value, frame []int64, fs [][]int64, kind Kind, pos semantics.Pos) (*Value, error) {
	n := Product(frame)
	out := NewValue(kind, append([]int64{}, frame...), n)
	div := make([]int, len(args))
	for i, f := range fs {
		div[i] = n / Product(f)
	}
	in := make([]slot, len(args))
	impl := p.Scalar
	// The common case, two arguments of the whole frame, without division.
	if len(args) == 2 && div[0] == 1 && div[1] == 1 && args[0].Kind == KInt && args[1].Kind == KInt && kind != KFloat {
		a, b := args[0].I, args[1].I
		for p := 0; p < n; p++ {
			in[0].I, in[1].I = a[p], b[p]
			r, err := impl(in)
			if err != nil {
				return nil, AtPos(err, pos)
			}
			out.I[p] = r.I
		}
		return out, nil
	}
	// j[i] is argument i's atom for position p: it advances every div[i]
	// positions (replication without division in the loop).
	j := make([]int, len(args))
	cnt := make([]int, len(args))
	for p := 0; p < n; p++ {
		for i, a := range args {
			if a.Kind == KFloat {
				in[i].F = a.F[j[i]]
			} else {
				in[i].I = a.I[j[i]]
			}
			if cnt[i]++; cnt[i] == div[i] {
				cnt[i] = 0
				j[i]++
			}
		}
		r, err := impl(in)
		if err != nil {
			return nil, AtPos(err, pos)
		}
		if kind == KFloat {
			out.F[p] = r.F
		} else {
			out.I[p] = r.I
		}
	}
	return out, nil
}

// AtPos gives a δ-rule's error, which has no position of its own, the
// application's (remora/dynamic runs the same δ-rules).
func AtPos(err error, pos semantics.Pos) error {
	var se *semantics.Error
	if errors.As(err, &se) && !se.Pos.IsValid() {
		c := *se
		c.Pos = pos
		return &c
	}
	return err
}

// call applies one function atom to arguments that are exactly its cells:
// β for a λ, δ for a primitive.
func (ev *evaluator) call(f *Func, args []*Value, pos semantics.Pos) (*Value, error) {
	if f.Prim == nil {
		l := f.Term.(*Lam)
		ev.counter.Hit(RuleBeta.Name)
		env := f.Env
		for i, p := range l.Params {
			env = env.bind(p.Name, args[i])
		}
		return ev.eval(l.Body, env)
	}
	ev.counter.Hit(RuleDelta.Name)
	p := f.Prim
	switch {
	case p.Scalar != nil && baseKinds(args):
		_, ret := signature(f)
		return ScalarLoop(p, args, nil, make([][]int64, len(args)), kindOf(ret.Elem), pos)
	case p.Fold != nil:
		return ev.fold(f, args, pos)
	}
	v, err := p.Cells(&Call{Pos: pos, Indices: f.Indices, Types: f.Types}, args)
	return v, AtPos(err, pos)
}

// tapp is Tβ: a Tλ's body runs with the type variables bound; a
// primitive records its type arguments.
func (ev *evaluator) tapp(f *Func, ts []Type, pos semantics.Pos) (*Value, error) {
	ev.counter.Hit(RuleTBeta.Name)
	if f.Prim != nil {
		g := &Func{Prim: f.Prim, Indices: f.Indices, Types: ts}
		return ev.instantiated(g, pos)
	}
	l := f.Term.(*TLam)
	env := f.Env
	for i, x := range l.Vars {
		env = env.bindType(x, ts[i])
	}
	return ev.eval(l.Body, env)
}

// iapp is Iβ.
func (ev *evaluator) iapp(f *Func, is []Index, pos semantics.Pos) (*Value, error) {
	ev.counter.Hit(RuleIBeta.Name)
	if f.Prim != nil {
		g := &Func{Prim: f.Prim, Indices: is, Types: f.Types}
		return ev.instantiated(g, pos)
	}
	l := f.Term.(*ILam)
	env := f.Env
	for i, x := range l.Vars {
		env = env.bindIndex(x, is[i])
	}
	return ev.eval(l.Body, env)
}

// instantiated is a primitive after an instantiation: still a function,
// or, for one whose type is an array (iota{ | @s}), its value.
func (ev *evaluator) instantiated(g *Func, pos semantics.Pos) (*Value, error) {
	if !isAbstraction(Instantiate(g.Prim.Type, g.Indices, g.Types)) {
		ev.counter.Hit(RuleDelta.Name)
		v, err := g.Prim.Cells(&Call{Pos: pos, Indices: g.Indices, Types: g.Types}, nil)
		return v, AtPos(err, pos)
	}
	return AtomScalar(KFunc, g), nil
}

// fold runs the reduce and scan family as native loops.
func (ev *evaluator) fold(f *Func, args []*Value, pos semantics.Pos) (*Value, error) {
	plan := f.Prim.Fold
	c := &Call{Pos: pos, Indices: f.Indices, Types: f.Types}
	sh := f.Prim.foldShapes(c)
	op := args[0]
	arr := args[len(args)-1]
	src := valueSource(arr)
	if v, ok, err := ev.fastFold(f, plan, op, args, src, sh, pos); ok {
		return v, err
	}
	if v, ok, err := ev.scalarFold(plan, op, args, src, sh, pos); ok {
		return v, err
	}
	if err := AffordItems(arr.Shape[0], cellWords, pos); err != nil {
		return nil, err
	}
	_, items := arr.Cells(1)
	var init *Value
	if plan.init {
		init = args[1]
	}
	accType := &Arr{Elem: sh.accElem, Shape: Dims(sh.acc...)}
	apply := func(g, a, b *Value) (*Value, error) {
		return ev.apply(g, []*Value{a, b}, accType, pos)
	}
	rep := func(v *Value) *Value { return ReplicateTo(v, nil, sh.pad) }
	stack := func(vs []*Value) *Value {
		return Stack([]int64{int64(len(vs))}, sh.acc, kindOf(sh.accElem), vs)
	}
	return RunFold(plan, f.Prim.Name, op, init, items, apply, rep, stack, c)
}

// fastFold runs a reduce-family fold whose operator is a scalar primitive
// on scalar cells as one loop over the flat buffer, lifting the operator
// over @pad by hand: the 10^8-element reduction of the issue runs here.
// src is the array argument: the materialised array (one chunk), or a
// producer streamed a chunk at a time (stream.go). The operators with a
// native loop (opcodeOf) run it where there is one accumulator; it is
// the δ-rule's Go operation, so the atoms and the order are the same.
func (ev *evaluator) fastFold(f *Func, plan *FoldPlan, op *Value, args []*Value, src *source, sh foldShapes, pos semantics.Pos) (*Value, bool, error) {
	if plan.kind != foldReduce || plan.trace || len(op.Shape) != 0 {
		return nil, false, nil
	}
	g := op.A[0].(*Func)
	if g.Prim == nil || g.Prim.Scalar == nil || len(sh.item) != len(sh.pad) {
		return nil, false, nil
	}
	d := int(src.shape[0])
	w := Product(sh.pad)
	kind := src.kind
	acc := make([]slot, w)
	start := 0
	if plan.init {
		for j := range acc {
			if kind == KFloat {
				acc[j].F = args[1].F[0]
			} else {
				acc[j].I = args[1].I[0]
			}
		}
	} else {
		if d == 0 {
			return nil, true, semantics.Stuckf(pos, RuleDelta.Name, "%s: no items to reduce", f.Prim.Name)
		}
		for j := range acc {
			x, err := src.at(j)
			if err != nil {
				return nil, true, err
			}
			acc[j] = x
		}
		start = 1
	}
	scalarApps(ev.counter, sh.pad, d-start)
	impl := g.Prim.Scalar
	code := opNone
	if w == 1 {
		code = opcodeOf(g.Prim)
		if (code >= opAddF) != (kind == KFloat) {
			code = opNone
		}
	}
	in := make([]slot, 2)
	j := 0 // the accumulator of the atom at lo: items start at a multiple of w
	total := d * w
	for lo := start * w; lo < total; lo += src.chunk() {
		cnt := min(src.chunk(), total-lo)
		if kind == KFloat {
			xs, err := src.floats(lo, cnt)
			if err != nil {
				return nil, true, err
			}
			if code != opNone {
				acc[0].F = foldFloats(code, acc[0].F, xs)
				continue
			}
			for _, x := range xs {
				in[0], in[1] = acc[j], slot{F: x}
				r, err := impl(in)
				if err != nil {
					return nil, true, AtPos(err, pos)
				}
				acc[j] = r
				if j++; j == w {
					j = 0
				}
			}
		} else {
			xs, err := src.ints(lo, cnt)
			if err != nil {
				return nil, true, err
			}
			if code != opNone {
				acc[0].I = foldInts(code, acc[0].I, xs)
				continue
			}
			for _, x := range xs {
				in[0], in[1] = acc[j], slot{I: x}
				r, err := impl(in)
				if err != nil {
					return nil, true, AtPos(err, pos)
				}
				acc[j] = r
				if j++; j == w {
					j = 0
				}
			}
		}
	}
	_, ret := signature(g)
	out := NewValue(kindOf(ret.Elem), append([]int64{}, sh.pad...), w)
	for j, s := range acc {
		if out.Kind == KFloat {
			out.F[j] = s.F
		} else {
			out.I[j] = s.I
		}
	}
	return out, true, nil
}

// foldInts is the left fold of a native int operator over xs from acc.
func foldInts(code opcode, acc int64, xs []int64) int64 {
	switch code {
	case opAddI:
		for _, x := range xs {
			acc += x
		}
	case opSubI:
		for _, x := range xs {
			acc -= x
		}
	case opMulI:
		for _, x := range xs {
			acc *= x
		}
	case opMaxI:
		for _, x := range xs {
			acc = max(acc, x)
		}
	case opMinI:
		for _, x := range xs {
			acc = min(acc, x)
		}
	}
	return acc
}

// foldFloats is the left fold of a native float operator over xs from acc.
func foldFloats(code opcode, acc float64, xs []float64) float64 {
	switch code {
	case opAddF:
		for _, x := range xs {
			acc += x
		}
	case opSubF:
		for _, x := range xs {
			acc -= x
		}
	case opMulF:
		for _, x := range xs {
			acc *= x
		}
	case opDivF:
		for _, x := range xs {
			acc /= x
		}
	}
	return acc
}
