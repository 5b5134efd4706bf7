package remora

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/arraysem/arraysem/semantics"
)

// The big-step semantics of Fig 6, as written. The paper gives Remora's
// dynamic semantics only as reduction rules (Fig 6, a small-step:
// step.go); this is the big-step those rules derive, read off them rule
// by rule (ERRATA R22): the evaluation contexts of Fig 5 (the function
// array, then the arguments left to right; a frame's elements left to
// right; under T-APP, I-APP, PACK and the box of an UNPACK) become the
// premises that evaluate subterms, and each reduction rule becomes one
// function, named after it, that concludes e ⇓ v from them and builds
// its derivation node (semantics.Deriver):
//
//	lift      the arrays of shorter frames replicated to the principal frame
//	mapRule   a frame of cell applications, each run by β or δ (an empty
//	          frame: the empty array of the application's type, R7)
//	collapse  the frame of the cells' results, when they are arrays
//	beta      a λ's body under its parameters bound to the cells
//	delta     a primitive's δ-rule on the cells (basis.go, shared); the
//	          reduce and scan family applies its operator in index order
//	          (RunFold, shared), each application a premise
//	tBeta     a Tλ's body, or a primitive instantiated (a δ when it
//	          denotes an array: iota{ | [3]})
//	iBeta     the same for an Iλ
//	proj      an unboxed box's body
//	liftDim   lift's body with the dimension bound (an extension)
//	irMap     the IR's MAP, its body once per position of its frame
//	irRep     the IR's REP
//	irCase    the IR's CASE, its one alternative
//
// The environment E of the evaluator (Env) stands for Fig 6's
// substitutions; a judgement shows the term with E substituted in, as
// the small-step would have it (Env.close), and its value, each cut at
// 70 characters. Values and variables need no rule (a value is one
// already; a variable was substituted): they give no node. A frame of
// atoms, or a box, whose elements took rules has a node without a rule,
// holding their derivations (Fig 6 leaves them to the contexts).
//
// It is the `rules` semantics of `arraysem run --semantics rules`; the
// engine (eval.go: frames by index arithmetic, scalar primitives as one
// loop over a frame, folds as native loops (fold.go), producers streamed
// into reductions and λ bodies run over whole frames (stream.go), maps
// on several goroutines (parallel.go)) is `big`, and the property engine
// ≡ rules (fig6_test.go) holds it to these rules: the same results, the
// same errors with their positions and rules, and the same rule counts,
// one per node of the derivation. Here cells are run one by one, as the
// figure says: lift replicates the arrays (ReplicateTo, the small-step's),
// map cuts them into cells, and each cell is one β or δ. The rules share
// with the engine the δ-rules, the frames of T-APP (frames), the shape
// checks and errors of collapse, and the fold order, so that they are
// stuck in the same rule with the same message.
//
// The rules count fuel (EvalOptions.Fuel, semantics.Budget) as FUN's
// rules do: a map spends its number of cells, a fold its number of
// applications and a MAP its number of positions when they start, so
// that side-by-side's rows of the rules (check.RulesFuel) stop at a
// bound rather than run a 10^8-element map cell by cell; and, as the
// small-step's map does, they are stuck past --max-memory before they cut
// arrays into more cells than the run can afford (spend).

// EvalRules runs every expression of a checked program by the rules of
// Fig 6 as written and returns the values and, when opts.Derive is set,
// the derivation: the expression's, or, for a program of several, a node
// over each expression's. It runs sequentially: opts.Jobs and
// opts.Engines are not read.
func EvalRules(p *Program, opts *EvalOptions) ([]*Value, *semantics.Derivation, error) {
	r := newRules(opts)
	var out []*Value
	var ds []*semantics.Derivation
	for _, e := range p.Exprs {
		v, d, err := r.top(e)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, v)
		ds = append(ds, d)
	}
	if !r.d.Derive {
		return out, nil, nil
	}
	if len(ds) == 1 {
		return out, ds[0], nil
	}
	return out, &semantics.Derivation{Conclusion: fmt.Sprintf("the program's %d expressions", len(ds)), Premises: ds}, nil
}

// EvalRulesExpr evaluates one checked, closed expression by the rules.
func EvalRulesExpr(e Expr, opts *EvalOptions) (*Value, *semantics.Derivation, error) {
	return newRules(opts).top(e)
}

func newRules(opts *EvalOptions) *rules {
	if opts == nil {
		opts = &EvalOptions{}
	}
	return &rules{d: semantics.Deriver{Derive: opts.Derive, Counter: opts.Counter}, budget: semantics.NewBudget(opts.Fuel)}
}

// rules is a run of the rules: what it records of each rule applied.
type rules struct {
	d      semantics.Deriver
	budget *semantics.Budget
}

// spend charges iters iterations of rule at pos to the run's fuel, and
// checks that the run can afford the cells values it is about to cut
// arrays into (what): the engine makes none, but a Value a cell makes a
// fold over 10^8 items 10 GiB, so past --max-memory the rule is stuck
// there, as the small-step's map is, rather than the run stopped.
func (r *rules) spend(iters, cells int64, what string, pos semantics.Pos, rule semantics.Rule) error {
	if err := r.budget.Spend(iters, pos, rule.Name); err != nil {
		return err
	}
	if err := semantics.Afford(what, cells*cellWords); err != nil {
		return semantics.Stuckf(pos, rule.Name, "%v", err)
	}
	return nil
}

// cellWords is the words a cell takes: its Value and a pointer to it.
const cellWords = int64(unsafe.Sizeof(Value{})/8 + 1)

// top evaluates a closed expression; its derivation is a node even when
// the expression is a value (then without a rule).
func (r *rules) top(e Expr) (*Value, *semantics.Derivation, error) {
	v, d, err := r.eval(e, nil)
	if err != nil {
		return nil, nil, err
	}
	if d == nil && r.d.Derive {
		d = &semantics.Derivation{Conclusion: judgement(e, nil, v)}
	}
	return v, d, nil
}

// node records an application of rule concluding e ⇓ v, e under env.
func (r *rules) node(rule semantics.Rule, e Expr, env *Env, v *Value, premises ...*semantics.Derivation) *semantics.Derivation {
	return r.d.Node(rule.Name, func() string { return judgement(e, env, v) }, premises...)
}

// appNode records an application of rule concluding (f a …) ⇓ v for the
// values f and a … (an application lift or map made, or a fold's).
func (r *rules) appNode(rule semantics.Rule, fv *Value, args []*Value, v *Value, premises ...*semantics.Derivation) *semantics.Derivation {
	return r.d.Node(rule.Name, func() string { return appString(fv, args) + " ⇓ " + abbrev(v.String()) }, premises...)
}

// context is the node, without a rule, of a term Fig 6 evaluates by its
// contexts alone (a frame of atoms, a box): its premises are its
// subterms' derivations, and there is none when they took no rule.
func (r *rules) context(e Expr, env *Env, v *Value, premises ...*semantics.Derivation) *semantics.Derivation {
	if !r.d.Derive {
		return nil
	}
	var ps []*semantics.Derivation
	for _, p := range premises {
		if p != nil {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	return &semantics.Derivation{Conclusion: judgement(e, env, v), Premises: ps}
}

// premise adds the derivations ds to a rule's premises when the run
// builds derivations (a plain run keeps none: a map of 10^5 cells would
// keep 10^5 nils).
func (r *rules) premise(premises []*semantics.Derivation, ds ...*semantics.Derivation) []*semantics.Derivation {
	if !r.d.Derive {
		return nil
	}
	return append(premises, ds...)
}

// judgement is e ⇓ v, e shown with env substituted in.
func judgement(e Expr, env *Env, v *Value) string {
	return Short(env.close(e)) + " ⇓ " + abbrev(v.String())
}

// appString is the application (f a …) of values, cut at 70 characters.
func appString(fv *Value, args []*Value) string {
	var b strings.Builder
	b.WriteString("(" + fv.String())
	for _, a := range args {
		if b.Len() > 4*maxShown {
			break
		}
		b.WriteString(" " + a.String())
	}
	b.WriteString(")")
	return abbrev(b.String())
}

// maxShown is how many characters of a term or a value a judgement shows.
const maxShown = 70

// abbrev cuts s at maxShown characters, ending it with "...".
func abbrev(s string) string {
	if r := []rune(s); len(r) > maxShown {
		return string(r[:maxShown-3]) + "..."
	}
	return s
}

// eval is the judgement e ⇓ v: the rule of e's form.
func (r *rules) eval(e Expr, env *Env) (*Value, *semantics.Derivation, error) {
	switch e := e.(type) {
	case *Lit:
		return e.V, nil, nil
	case *Var:
		b, ok := env.lookup(e.Name)
		if !ok || b.val == nil {
			return nil, nil, semantics.Stuckf(e.Pos, RuleTVar.Name, "unbound variable %s", e.Name)
		}
		return b.val, nil, nil
	case *Prim:
		return AtomScalar(KFunc, &Func{Prim: e.Def}), nil, nil
	case *chainLink: // a small-step configuration's chain (chain.go)
		return r.eval(e.force(), env)
	case *Lam, *TLam, *ILam:
		return AtomScalar(KFunc, &Func{Term: e, Env: env}), nil, nil
	case *Frame:
		return r.frame(e, env)
	case *App:
		return r.app(e, env)
	case *TApp:
		return r.tBeta(e, env)
	case *IApp:
		return r.iBeta(e, env)
	case *Pack:
		return r.pack(e, env)
	case *Unpack:
		return r.proj(e, env)
	case *LiftDim:
		return r.liftDim(e, env)
	case *Reify:
		v := ReifyIndex(env.closeIndex(e.Index))
		return v, r.node(RuleDelta, e, env, v), nil
	case *Reshape:
		return r.reshape(e, env)
	case *Map:
		return r.irMap(e, env)
	case *Case:
		return r.irCase(e, env)
	case *Rep:
		return r.irRep(e, env)
	}
	return nil, nil, semantics.Stuckf(e.At(), "", "cannot evaluate %s", Short(e))
}

// frame evaluates a frame [e …]: its elements left to right, then
// collapse when they are arrays:
//
//	[[v …] …]^A[m …]τ  ↦collapse  [Append ⟦(v …) …⟧]^A[m …]τ
func (r *rules) frame(e *Frame, env *Env) (*Value, *semantics.Derivation, error) {
	cells := make([]*Value, len(e.Elems))
	var premises []*semantics.Derivation
	for i, el := range e.Elems {
		v, d, err := r.eval(el, env)
		if err != nil {
			return nil, nil, err
		}
		cells[i] = v
		premises = r.premise(premises, d)
	}
	v, collapses, err := frameValue(e, cells, env)
	if err != nil {
		return nil, nil, err
	}
	if collapses {
		return v, r.collapse(func() string { return judgement(e, env, v) }, premises), nil
	}
	return v, r.context(e, env, v, premises...), nil
}

// collapse is the collapse rule's node: a frame of arrays of one shape
// is one array, the frame's shape followed by theirs. conclusion renders
// the frame and its value.
func (r *rules) collapse(conclusion func() string, premises []*semantics.Derivation) *semantics.Derivation {
	return r.d.Node(RuleCollapse.Name, conclusion, premises...)
}

// app evaluates an application (e_f e …): the function array, then the
// arguments, then the rule the application of their values takes.
func (r *rules) app(e *App, env *Env) (*Value, *semantics.Derivation, error) {
	fv, df, err := r.eval(e.Fn, env)
	if err != nil {
		return nil, nil, err
	}
	premises := r.premise(nil, df)
	args := make([]*Value, len(e.Args))
	for i, a := range e.Args {
		v, d, err := r.eval(a, env)
		if err != nil {
			return nil, nil, err
		}
		args[i] = v
		premises = r.premise(premises, d)
	}
	v, rule, rest, err := r.apply(fv, args, env.closeType(e.Type).(*Arr), e.Pos)
	if err != nil {
		return nil, nil, err
	}
	return v, r.node(rule, e, env, v, r.premise(premises, rest...)...), nil
}

// apply applies the function array fv to the argument arrays args: the
// rule that applies, and its premises beyond the evaluation of the
// function and the arguments. T-APP's frames (frames, shared with the
// engine) decide it: a function array with no function is map on an
// empty frame (its result the empty array of res, the application's
// type); an empty frame is β or δ; frames that are proper prefixes of
// the principal one take lift; else map.
func (r *rules) apply(fv *Value, args []*Value, res *Arr, pos semantics.Pos) (*Value, semantics.Rule, []*semantics.Derivation, error) {
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
		ds, _ := res.Shape.Const()
		return NewValue(kindOf(res.Elem), ds, 0), RuleMap, nil, nil
	}
	frame, fs, err := frames(fv, args, params, pos)
	if err != nil {
		return nil, semantics.Rule{}, nil, err
	}
	if len(frame) == 0 {
		return r.call(f0, args, pos)
	}
	for _, f := range fs {
		if len(f) < len(frame) {
			return r.lift(fv, args, fs, frame, ret, pos)
		}
	}
	return r.mapRule(fv, args, frame, ret, pos)
}

// lift is the lift rule: every array whose frame is a proper prefix of
// the principal frame has its cells replicated along the axes it lacks
// (the function array's too, ERRATA R2); the application of the
// replicated arrays, whose frames are all the principal one, takes map,
// its one premise.
func (r *rules) lift(fv *Value, args []*Value, fs [][]int64, frame []int64, ret *Arr, pos semantics.Pos) (*Value, semantics.Rule, []*semantics.Derivation, error) {
	all := append([]*Value{fv}, args...)
	lifted := make([]*Value, len(all))
	for i, a := range all {
		if err := ReplicateSize(a, fs[i], frame); err != nil {
			return nil, semantics.Rule{}, nil, semantics.Stuckf(pos, RuleLift.Name, "%v", err)
		}
		lifted[i] = ReplicateTo(a, fs[i], frame)
	}
	v, rule, premises, err := r.mapRule(lifted[0], lifted[1:], frame, ret, pos)
	if err != nil {
		return nil, semantics.Rule{}, nil, err
	}
	return v, RuleLift, r.premise(nil, r.appNode(rule, lifted[0], lifted[1:], v, premises...)), nil
}

// mapRule is the map rule, on arrays whose frames are all frame (not
// empty): the application becomes the frame of the applications of each
// function cell to its argument cells (Cells_ρ), each one a premise,
// run by β or δ in row-major order; their results, when they are arrays,
// collapse (the map's one premise is then collapse's, over the cells').
// An empty frame is the empty array of the frame followed by ret's shape.
func (r *rules) mapRule(fv *Value, args []*Value, frame []int64, ret *Arr, pos semantics.Pos) (*Value, semantics.Rule, []*semantics.Derivation, error) {
	n := Product(frame)
	if n == 0 {
		retShape, _ := ret.Shape.Const()
		return NewValue(kindOf(ret.Elem), append(append([]int64{}, frame...), retShape...), 0), RuleMap, nil, nil
	}
	if err := r.spend(int64(n), int64(n*(1+len(args))), fmt.Sprintf("a frame of %d cells", n), pos, RuleMap); err != nil {
		return nil, semantics.Rule{}, nil, err
	}
	_, fcells := fv.Cells(len(frame))
	cells := make([][]*Value, len(args))
	for i, a := range args {
		_, cells[i] = a.Cells(len(frame))
	}
	results := make([]*Value, n)
	var premises []*semantics.Derivation
	for p := range n {
		cur := make([]*Value, len(args))
		for i := range args {
			cur[i] = cells[i][p]
		}
		v, rule, ps, err := r.call(fcells[p].A[0].(*Func), cur, pos)
		if err != nil {
			return nil, semantics.Rule{}, nil, err
		}
		results[p] = v
		if !semantics.SameShape(v.Shape, results[0].Shape) {
			return nil, semantics.Rule{}, nil, cellShapes(pos, results[0], v)
		}
		premises = r.premise(premises, r.appNode(rule, fcells[p], cur, v, ps...))
	}
	v := Stack(frame, results[0].Shape, results[0].Kind, results)
	if len(results[0].Shape) == 0 { // a frame of atoms is a value
		return v, RuleMap, premises, nil
	}
	conclusion := func() string { return frameOfApps(frame, fcells, cells) + " ⇓ " + abbrev(v.String()) }
	return v, RuleMap, r.premise(nil, r.collapse(conclusion, premises)), nil
}

// frameOfApps shows the frame of cell applications map makes, cut at 70
// characters.
func frameOfApps(frame []int64, fcells []*Value, cells [][]*Value) string {
	var b strings.Builder
	if len(frame) == 1 {
		b.WriteString("[")
	} else {
		b.WriteString("(frame " + dimsString(frame) + " ")
	}
	for p := range fcells {
		if b.Len() > 4*maxShown {
			break
		}
		if p > 0 {
			b.WriteString(" ")
		}
		args := make([]*Value, len(cells))
		for i := range cells {
			args[i] = cells[i][p]
		}
		b.WriteString(appString(fcells[p], args))
	}
	if len(frame) == 1 {
		b.WriteString("]")
	} else {
		b.WriteString(")")
	}
	return abbrev(b.String())
}

// call applies one function to arguments that are exactly its cells: β
// for a λ, δ for a primitive.
func (r *rules) call(f *Func, args []*Value, pos semantics.Pos) (*Value, semantics.Rule, []*semantics.Derivation, error) {
	if f.Prim == nil {
		return r.beta(f, args)
	}
	return r.delta(f, args, pos)
}

// beta is β:
//
//	([(λ (x …) e)] v …)  ↦β  e[(x ← v) …]
//
// the body evaluated with the parameters bound to the cells (its
// derivation the one premise).
func (r *rules) beta(f *Func, args []*Value) (*Value, semantics.Rule, []*semantics.Derivation, error) {
	l := f.Term.(*Lam)
	env := f.Env
	for i, p := range l.Params {
		env = env.bind(p.Name, args[i])
	}
	v, d, err := r.eval(l.Body, env)
	if err != nil {
		return nil, semantics.Rule{}, nil, err
	}
	return v, RuleBeta, r.premise(nil, d), nil
}

// delta is δ: a primitive's δ-rule on its cells (basis.go), a scalar one
// on its atoms; the reduce and scan family by fold.
func (r *rules) delta(f *Func, args []*Value, pos semantics.Pos) (*Value, semantics.Rule, []*semantics.Derivation, error) {
	p := f.Prim
	switch {
	case p.Scalar != nil && baseKinds(args):
		_, ret := signature(f)
		v, err := ScalarLoop(p, args, nil, make([][]int64, len(args)), kindOf(ret.Elem), pos)
		return v, RuleDelta, nil, err
	case p.Fold != nil:
		return r.fold(f, args, pos)
	}
	v, err := p.Cells(&Call{Pos: pos, Indices: f.Indices, Types: f.Types}, args)
	if err != nil {
		return nil, semantics.Rule{}, nil, AtPos(err, pos)
	}
	return v, RuleDelta, nil, nil
}

// fold is δ for the reduce and scan family (ERRATA R19): the operator
// applied to the accumulator and each item in index order (RunFold, the
// engine's and the small-step's order), each application a premise,
// applied as any application is (apply: lift, map, β or δ).
func (r *rules) fold(f *Func, args []*Value, pos semantics.Pos) (*Value, semantics.Rule, []*semantics.Derivation, error) {
	plan := f.Prim.Fold
	c := &Call{Pos: pos, Indices: f.Indices, Types: f.Types}
	sh := f.Prim.foldShapes(c)
	op := args[0]
	arr := args[len(args)-1]
	apps := arr.Shape[0]
	if !plan.init {
		apps = max(apps-1, 0)
	}
	if err := r.spend(apps, arr.Shape[0], fmt.Sprintf("the %d items of a fold", arr.Shape[0]), pos, RuleDelta); err != nil {
		return nil, semantics.Rule{}, nil, err
	}
	_, items := arr.Cells(1)
	var init *Value
	if plan.init {
		init = args[1]
	}
	accType := &Arr{Elem: sh.accElem, Shape: Dims(sh.acc...)}
	var premises []*semantics.Derivation
	apply := func(g, a, b *Value) (*Value, error) {
		v, rule, ps, err := r.apply(g, []*Value{a, b}, accType, pos)
		if err != nil {
			return nil, err
		}
		premises = r.premise(premises, r.appNode(rule, g, []*Value{a, b}, v, ps...))
		return v, nil
	}
	rep := func(v *Value) *Value { return ReplicateTo(v, nil, sh.pad) }
	stack := func(vs []*Value) *Value {
		return Stack([]int64{int64(len(vs))}, sh.acc, kindOf(sh.accElem), vs)
	}
	v, err := RunFold(plan, f.Prim.Name, op, init, items, apply, rep, stack, c)
	if err != nil {
		return nil, semantics.Rule{}, nil, err
	}
	return v, RuleDelta, premises, nil
}

// tBeta is Tβ:
//
//	(T-APP (Tλ [x …] e) σ …)  ↦Tβ  e[(x ←t σ) …]
//
// the Tλ's body with the type variables bound; a primitive records its
// type arguments (and, when it then denotes an array, δ computes it).
func (r *rules) tBeta(e *TApp, env *Env) (*Value, *semantics.Derivation, error) {
	fv, df, err := r.eval(e.Fn, env)
	if err != nil {
		return nil, nil, err
	}
	ts := make([]Type, len(e.Args))
	for i, t := range e.Args {
		ts[i] = env.closeType(t)
	}
	f := fv.A[0].(*Func)
	var v *Value
	var d *semantics.Derivation
	if f.Prim != nil {
		v, d, err = r.instantiated(&Func{Prim: f.Prim, Indices: f.Indices, Types: ts}, e.Pos)
	} else {
		l := f.Term.(*TLam)
		inner := f.Env
		for i, x := range l.Vars {
			inner = inner.bindType(x, ts[i])
		}
		v, d, err = r.eval(l.Body, inner)
	}
	if err != nil {
		return nil, nil, err
	}
	return v, r.node(RuleTBeta, e, env, v, df, d), nil
}

// iBeta is Iβ:
//
//	(I-APP (Iλ [(x γ) …] e) ι …)  ↦Iβ  e[(x ←i ι) …]
func (r *rules) iBeta(e *IApp, env *Env) (*Value, *semantics.Derivation, error) {
	fv, df, err := r.eval(e.Fn, env)
	if err != nil {
		return nil, nil, err
	}
	is := make([]Index, len(e.Args))
	for i, ix := range e.Args {
		is[i] = env.closeIndex(ix)
	}
	f := fv.A[0].(*Func)
	var v *Value
	var d *semantics.Derivation
	if f.Prim != nil {
		v, d, err = r.instantiated(&Func{Prim: f.Prim, Indices: is, Types: f.Types}, e.Pos)
	} else {
		l := f.Term.(*ILam)
		inner := f.Env
		for i, x := range l.Vars {
			inner = inner.bindIndex(x, is[i])
		}
		v, d, err = r.eval(l.Body, inner)
	}
	if err != nil {
		return nil, nil, err
	}
	return v, r.node(RuleIBeta, e, env, v, df, d), nil
}

// instantiated is a primitive after Tβ or Iβ: still a function, or, for
// one whose type is now an array (iota{ | [3]}), the array its δ-rule
// computes, whose δ node is the premise.
func (r *rules) instantiated(g *Func, pos semantics.Pos) (*Value, *semantics.Derivation, error) {
	if isAbstraction(Instantiate(g.Prim.Type, g.Indices, g.Types)) {
		return AtomScalar(KFunc, g), nil, nil
	}
	v, err := g.Prim.Cells(&Call{Pos: pos, Indices: g.Indices, Types: g.Types}, nil)
	if err != nil {
		return nil, nil, AtPos(err, pos)
	}
	return v, r.d.Node(RuleDelta.Name, func() string { return g.String() + " ⇓ " + abbrev(v.String()) }), nil
}

// pack evaluates (PACK ι … e): e under the context, the box of its value.
func (r *rules) pack(e *Pack, env *Env) (*Value, *semantics.Derivation, error) {
	bv, d, err := r.eval(e.Body, env)
	if err != nil {
		return nil, nil, err
	}
	is := make([]Index, len(e.Indices))
	for i, ix := range e.Indices {
		is[i] = env.closeIndex(ix)
	}
	v := AtomScalar(KBox, &Box{Indices: is, Val: bv, Type: env.closeType(e.Type).(*Sigma)})
	return v, r.context(e, env, v, d), nil
}

// proj is proj:
//
//	(UNPACK (⟨x … | y⟩ = (PACK ι … v)) e)  ↦proj  e[(x ←i ι) … (y ←e v)]
//
// the box evaluated, then the body with its witnesses and contents bound.
func (r *rules) proj(e *Unpack, env *Env) (*Value, *semantics.Derivation, error) {
	bv, db, err := r.eval(e.Box, env)
	if err != nil {
		return nil, nil, err
	}
	b := bv.A[0].(*Box)
	inner := env
	for i, x := range e.IVars {
		inner = inner.bindIndex(x, b.Indices[i])
	}
	v, d, err := r.eval(e.Body, inner.bind(e.X, b.Val))
	if err != nil {
		return nil, nil, err
	}
	return v, r.node(RuleProj, e, env, v, db, d), nil
}

// liftDim is lift-dim (the typed dialect's extension, §4.2): (lift [d
// e] body) with e's value n a dimension is the box of body's value with
// d bound to n; a negative n is stuck.
func (r *rules) liftDim(e *LiftDim, env *Env) (*Value, *semantics.Derivation, error) {
	nv, dn, err := r.eval(e.N, env)
	if err != nil {
		return nil, nil, err
	}
	n := nv.I[0]
	if n < 0 {
		return nil, nil, negativeDim(e.Pos, n)
	}
	ix := NatIndex(NatConst(n))
	bv, d, err := r.eval(e.Body, env.bindIndex(e.D, ix))
	if err != nil {
		return nil, nil, err
	}
	v := AtomScalar(KBox, &Box{Indices: []Index{ix}, Val: bv, Type: env.closeType(e.Type).(*Sigma)})
	return v, r.node(RuleLiftDim, e, env, v, dn, d), nil
}

// reshape is δ for reshape: the same atoms at the annotated shape.
func (r *rules) reshape(e *Reshape, env *Env) (*Value, *semantics.Derivation, error) {
	x, d, err := r.eval(e.E, env)
	if err != nil {
		return nil, nil, err
	}
	ds, _ := env.closeType(e.Type).(*Arr).Shape.Const()
	v := x.Reshape(ds)
	return v, r.node(RuleDelta, e, env, v, d), nil
}

// irMap is the IR's MAP: the arguments left to right, then the body once
// per position of the frame, row-major, its parameters bound to the
// arguments' cells there (each argument has exactly the frame: nothing
// is replicated), each a premise; the results stacked. An empty frame
// is the empty array of the MAP's type, the body not run.
func (r *rules) irMap(e *Map, env *Env) (*Value, *semantics.Derivation, error) {
	frame, _ := env.closeIndex(ShapeIndex(e.Frame)).S.Const()
	vals := make([]*Value, len(e.Args))
	var premises []*semantics.Derivation
	for i, a := range e.Args {
		v, d, err := r.eval(a, env)
		if err != nil {
			return nil, nil, err
		}
		vals[i] = v
		premises = r.premise(premises, d)
	}
	n := Product(frame)
	if n == 0 {
		t := env.closeType(e.Type).(*Arr)
		ds, _ := t.Shape.Const()
		v := NewValue(kindOf(t.Elem), ds, 0)
		return v, r.node(RuleMAP, e, env, v, premises...), nil
	}
	if err := r.spend(int64(n), int64(n*len(vals)), fmt.Sprintf("a MAP over %d positions", n), e.Pos, RuleMAP); err != nil {
		return nil, nil, err
	}
	cells := make([][]*Value, len(vals))
	for i, v := range vals {
		_, cells[i] = v.Cells(len(frame))
	}
	results := make([]*Value, n)
	for p := range n {
		inner := env
		for i, prm := range e.Params {
			inner = inner.bind(prm.Name, cells[i][p])
		}
		v, d, err := r.eval(e.Body, inner)
		if err != nil {
			return nil, nil, err
		}
		results[p] = v
		if !semantics.SameShape(v.Shape, results[0].Shape) {
			return nil, nil, mapCellShapes(e.Pos, results[0], v)
		}
		premises = r.premise(premises, d)
	}
	v := results[0]
	if len(frame) > 0 {
		v = Stack(frame, results[0].Shape, results[0].Kind, results)
	}
	return v, r.node(RuleMAP, e, env, v, premises...), nil
}

// irRep is the IR's REP: e's value replicated over the frame.
func (r *rules) irRep(e *Rep, env *Env) (*Value, *semantics.Derivation, error) {
	x, d, err := r.eval(e.E, env)
	if err != nil {
		return nil, nil, err
	}
	frame, _ := env.closeIndex(ShapeIndex(e.Frame)).S.Const()
	v := Replicate(x, frame)
	return v, r.node(RuleREP, e, env, v, d), nil
}

// irCase is the IR's CASE: the tag, then the one alternative it selects
// (CaseAlt, stuck on a tag out of range).
func (r *rules) irCase(e *Case, env *Env) (*Value, *semantics.Derivation, error) {
	tv, dt, err := r.eval(e.Tag, env)
	if err != nil {
		return nil, nil, err
	}
	alt, err := CaseAlt(e, tv)
	if err != nil {
		return nil, nil, err
	}
	v, d, err := r.eval(alt, env)
	if err != nil {
		return nil, nil, err
	}
	return v, r.node(RuleCASE, e, env, v, dt, d), nil
}
