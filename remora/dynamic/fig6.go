package dynamic

import (
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// The big-step semantics as written: the reduction rules of §2 (lift,
// map, β, δ, collapse), which Fig 6 states as small steps on typed terms,
// and the dialect's unbox, read as a big-step on untyped terms. It is a
// walk over the syntax with the environment E of value.go, one function
// per rule, named after it, building the rule's derivation node from its
// premises' when asked: the `rules` semantics of `arraysem run
// --semantics rules`. The engine (eval.go, fold.go: a scalar primitive
// mapped over a frame as one loop on flat buffers, folds on flat
// buffers, reduce a level at a time) is `big`, and the property engine ≡
// rules (fig6_test.go) holds it to these rules with each of its fast
// paths on and off: the same results, errors (position, rule, message)
// and rule counts. The frames (appFrames), collapse, the δ-rules of the
// basis (scalar.go, basis.go, library.go) and the fold plans
// (foldArgs, treeReduce, remora.RunFold) are the helpers the engine and
// the small-step share, so that the three semantics are stuck in the same
// rule with the same message.
//
// Two judgements: E ⊢ e ⇓ v, a term evaluates to an array, and
// (v0 v1 … vn) ⇓ v, a function array applied to argument arrays gives v.
//
//	(value)     E ⊢ v ⇓ v       a literal, a primitive, a λ (closed over E)
//	(variable)  E ⊢ x ⇓ E(x)
//
//	E ⊢ e0 ⇓ v0   …   E ⊢ en ⇓ vn    (v0 v1 … vn) ⇓ v
//	--------------------------------------------------  (an application)
//	E ⊢ (e0 e1 … en) ⇓ v
//
//	every frame a prefix of F ≠ []    lift: the cells of the smaller frames replicated to F
//	(f_p c_p1 … c_pn) ⇓ r_p  for each position p of F    collapse [r_p …] = v
//	------------------------------------------------------------------------- [map]
//	(v0 v1 … vn) ⇓ v
//
//	E', x1 ↦ c1, …, xn ↦ cn ⊢ e ⇓ v                     δ(p, c1 … cn) = v
//	-------------------------------------- [β]      ------------------ [δ]
//	((λ ((x1 r1) … (xn rn)) e) c1 … cn) ⇓ v          (p c1 … cn) ⇓ v
//
//	E ⊢ e ⇓ v0    E, x ↦ v0 ⊢ b ⇓ v                 E ⊢ e ⇓ (box c)    E, x ↦ c ⊢ b ⇓ v
//	------------------------------ [β]               ------------------------------ [unbox]
//	E ⊢ (let ((x e)) b) ⇓ v                          E ⊢ (unbox x e b) ⇓ v
//
//	E ⊢ e ⇓ v …    collapse [v …] = v'
//	---------------------------------- [collapse]
//	E ⊢ [e …] ⇓ v'
//
// An application's node is the node of the rule that applies its values
// (map, β or δ), with the evaluations of its subterms as its first
// premises. In map, lift (when a frame is smaller than F) and collapse
// are premises of their own, leaves. δ on the reduce and scan family
// applies the operator in index order (reduce: treeReduce's tree), each
// application a premise. unbox on an array of boxes maps: one unbox per
// box, then collapse. A recursive group (Rec, rec.go) binds its names to
// their unrollings by β. The rules count themselves into the run's
// Counter as the engine counts them, and spend one application of fuel
// per β and δ (the engine spends that on its general path, and less on
// its fast paths: EvalOptions.Fuel).

// EvalRules runs every expression of p by the rules as written (the fuel
// is the whole run's) and returns their values and, when opts.Derive is
// set, the derivation: the expression's own for one expression, else a
// node whose premises are each expression's. opts.Engines is not read.
func EvalRules(p *Program, opts *EvalOptions) ([]*remora.Value, *semantics.Derivation, error) {
	r := newRules(opts)
	var out []*remora.Value
	var ds []*semantics.Derivation
	for _, e := range p.Exprs {
		v, d, err := r.eval(e, nil)
		if err != nil {
			return out, nil, err
		}
		out = append(out, v)
		ds = append(ds, d)
	}
	if !r.d.Derive || len(ds) == 1 {
		return out, first(ds), nil
	}
	vs := make([]string, len(out))
	for i, v := range out {
		vs[i] = valueHead(v)
	}
	return out, &semantics.Derivation{Conclusion: "the program's " + semantics.Plural(len(ds), "expression") + " ⇓ " + strings.Join(vs, ", "), Premises: ds}, nil
}

// EvalRulesExpr runs one closed expression by the rules as written.
func EvalRulesExpr(e Expr, opts *EvalOptions) (*remora.Value, *semantics.Derivation, error) {
	return newRules(opts).eval(e, nil)
}

func first(ds []*semantics.Derivation) *semantics.Derivation {
	if len(ds) == 0 {
		return nil
	}
	return ds[0]
}

func newRules(opts *EvalOptions) *rules {
	r := &rules{bounds: newBounds(opts)}
	if opts != nil {
		r.d.Derive = opts.Derive
	}
	return r
}

// rules is a run of the rules: the rules counted, the fuel and depth
// (bounds, which the engine keeps alike), and the derivations built when
// asked.
type rules struct {
	bounds
	// d builds the nodes; it counts nothing (its Counter is nil): the
	// rules count themselves (hit), as the engine does.
	d semantics.Deriver
}

// premise adds the derivations ds to premises when the run builds
// derivations (a plain run keeps none: a map over 10^6 cells would keep
// 10^6 nils).
func (r *rules) premise(premises []*semantics.Derivation, ds ...*semantics.Derivation) []*semantics.Derivation {
	if !r.d.Derive {
		return nil
	}
	return append(premises, ds...)
}

// eval is the judgement E ⊢ e ⇓ v, one level deeper than its caller (the
// depth is checked at applications, as the engine checks it): the rule
// of e's form.
func (r *rules) eval(e Expr, env *env) (*remora.Value, *semantics.Derivation, error) {
	if err := r.enter(e); err != nil {
		return nil, nil, err
	}
	v, d, err := r.form(e, env)
	r.leave()
	return v, d, err
}

// form applies the rule of e's form.
func (r *rules) form(e Expr, env *env) (*remora.Value, *semantics.Derivation, error) {
	switch e := e.(type) {
	case *Lit:
		return r.value(e, e.V)
	case *Prim:
		return r.value(e, funcValue(&Func{Prim: e.Def}))
	case *Lam:
		return r.value(e, funcValue(&Func{Lam: e, Env: env}))
	case *Var:
		return r.variable(e, env)
	case *Frame:
		return r.collapseFrame(e, env)
	case *App:
		return r.application(e, env)
	case *Let:
		return r.betaLet(e, env)
	case *Rec:
		return r.betaRec(e, env)
	case *Unbox:
		return r.unbox(e, env)
	}
	return nil, nil, semantics.Stuckf(e.At(), "", "no rule evaluates %T", e)
}

// value is E ⊢ v ⇓ v: a literal array, a primitive, or a λ, which
// closes over E. No rule of the table: a value takes no step.
func (r *rules) value(e Expr, v *remora.Value) (*remora.Value, *semantics.Derivation, error) {
	return v, r.d.Node("", func() string { return "E ⊢ " + termHead(e) + " ⇓ " + valueHead(v) }), nil
}

// variable is E ⊢ x ⇓ E(x); a variable E does not bind is stuck in β,
// whose substitution would have replaced it. No rule of the table: the
// small-step substitutes values for variables.
func (r *rules) variable(e *Var, env *env) (*remora.Value, *semantics.Derivation, error) {
	v, ok := env.lookup(e.Name)
	if !ok {
		return nil, nil, semantics.Stuckf(e.Pos, remora.RuleBeta.Name, "free variable %s", e.Name)
	}
	return v, r.d.Node("", func() string { return "E ⊢ " + e.Name + " ⇓ " + valueHead(v) }), nil
}

// collapseFrame is collapse on a frame of terms:
//
//	E ⊢ e ⇓ v …    collapse [v …] = v'
//	----------------------------------
//	E ⊢ [e …] ⇓ v'
func (r *rules) collapseFrame(e *Frame, env *env) (*remora.Value, *semantics.Derivation, error) {
	cells := make([]*remora.Value, len(e.Elems))
	var ps []*semantics.Derivation
	for i, el := range e.Elems {
		v, d, err := r.eval(el, env)
		if err != nil {
			return nil, nil, err
		}
		cells[i], ps = v, r.premise(ps, d)
	}
	r.hit(remora.RuleCollapse.Name)
	v, err := collapse(e.Pos, e.Dims, cells)
	if err != nil {
		return nil, nil, err
	}
	return v, r.d.Node(remora.RuleCollapse.Name, func() string { return "E ⊢ " + termHead(e) + " ⇓ " + valueHead(v) }, ps...), nil
}

// application is E ⊢ (e0 e1 … en) ⇓ v: the shape of apply/shape (if
// any), the function array and the arguments, left to right, then the
// rule that applies their values, whose node it is. apply/shape's shape
// is the result's when the frame is empty (emptyApp, map).
func (r *rules) application(e *App, env *env) (*remora.Value, *semantics.Derivation, error) {
	var ps []*semantics.Derivation
	var shape *remora.Value
	if e.Shape != nil {
		v, d, err := r.eval(e.Shape, env)
		if err != nil {
			return nil, nil, err
		}
		shape, ps = v, r.premise(ps, d)
	}
	fv, d, err := r.eval(e.Fn, env)
	if err != nil {
		return nil, nil, err
	}
	ps = r.premise(ps, d)
	args := make([]*remora.Value, len(e.Args))
	for i, a := range e.Args {
		v, d, err := r.eval(a, env)
		if err != nil {
			return nil, nil, err
		}
		args[i], ps = v, r.premise(ps, d)
	}
	v, rule, qs, err := r.apply(fv, args, shape, e.Pos)
	if err != nil {
		return nil, nil, err
	}
	return v, r.d.Node(rule, func() string { return "E ⊢ " + termHead(e) + " ⇓ " + valueHead(v) }, append(ps, qs...)...), nil
}

// apply is (v0 v1 … vn) ⇓ v, the application of a function array to
// argument arrays: the frames (appFrames), then map over a frame that is
// not scalar, or the one function's β or δ. It gives the rule that
// concludes the application and its premises. shape is apply/shape's,
// or nil.
func (r *rules) apply(fv *remora.Value, args []*remora.Value, shape *remora.Value, pos semantics.Pos) (*remora.Value, string, []*semantics.Derivation, error) {
	fr, err := appFrames(fv, args, pos)
	if err != nil {
		return nil, "", nil, err
	}
	switch {
	case shape != nil && fr.empty(), fr.f0 == nil:
		return r.mapEmpty(fr, shape, pos)
	case len(fr.frame) == 0:
		return r.call(fr.f0, args, pos)
	}
	return r.mapCells(fv, args, fr, pos)
}

// applied is the node of (v0 v1 … vn) ⇓ v: an application of values,
// a step of a fold.
func (r *rules) applied(fv *remora.Value, args []*remora.Value, pos semantics.Pos) (*remora.Value, *semantics.Derivation, error) {
	v, rule, ps, err := r.apply(fv, args, nil, pos)
	if err != nil {
		return nil, nil, err
	}
	return v, r.d.Node(rule, func() string { return appliedHead(fv, args) + " ⇓ " + valueHead(v) }, ps...), nil
}

// mapEmpty is map over an empty frame, or with an empty function array
// (no function tells the ranks): no cell is computed, and the result has
// the frame's shape (the cells' shape is unknown, ERRATA R10), or the
// shape apply/shape gives.
func (r *rules) mapEmpty(fr *frames, shape *remora.Value, pos semantics.Pos) (*remora.Value, string, []*semantics.Derivation, error) {
	r.hit(remora.RuleMap.Name)
	v, err := emptyApp(pos, fr.frame, shape)
	if err != nil {
		return nil, "", nil, err
	}
	return v, remora.RuleMap.Name, nil, nil
}

// mapCells is map over the principal frame F = fr.frame, not scalar:
// lift (when a frame is smaller than F), the application of each
// position's function to its cells, in row-major order, and collapse.
//
// lift replicates the cells of a smaller frame f to F: since f is a
// prefix of F, position p of F takes cell p / (|F| / |f|) of its array
// (an argument of rank all is one whole cell, which every position
// takes).
func (r *rules) mapCells(fv *remora.Value, args []*remora.Value, fr *frames, pos semantics.Pos) (*remora.Value, string, []*semantics.Derivation, error) {
	var ps []*semantics.Derivation
	if fr.lifted() {
		ps = r.premise(ps, r.lift(fv, args, fr))
	}
	r.hit(remora.RuleMap.Name)
	n := product(fr.frame)
	if n == 0 {
		return emptyResult(fr.frame), remora.RuleMap.Name, ps, nil
	}
	if _, err := semantics.Count(fr.frame); err != nil {
		return nil, "", nil, semantics.Stuckf(pos, remora.RuleMap.Name, "a frame of cells: %v", err)
	}
	div := make([]int, len(fr.fs))
	for i, f := range fr.fs {
		div[i] = n / product(f)
	}
	_, fcells := fv.Cells(len(fr.fs[0]))
	cells := make([][]*remora.Value, len(args))
	for i, a := range args {
		_, cells[i] = a.Cells(len(fr.fs[i+1]))
	}
	results := make([]*remora.Value, n)
	for p := range n {
		cur := make([]*remora.Value, len(args))
		for i := range args {
			cur[i] = cells[i][p/div[i+1]]
		}
		v, d, err := r.cell(fcells[p/div[0]], cur, pos)
		if err != nil {
			return nil, "", nil, err
		}
		results[p], ps = v, r.premise(ps, d)
	}
	v, d, err := r.collapseCells(fr.frame, results, pos)
	if err != nil {
		return nil, "", nil, err
	}
	return v, remora.RuleMap.Name, r.premise(ps, d), nil
}

// cell is the node of (f c1 … cn) ⇓ v for one position of a map: the
// function f (a scalar) applied to its cells by β or δ.
func (r *rules) cell(f *remora.Value, cells []*remora.Value, pos semantics.Pos) (*remora.Value, *semantics.Derivation, error) {
	v, rule, ps, err := r.call(f.A[0].(*Func), cells, pos)
	if err != nil {
		return nil, nil, err
	}
	return v, r.d.Node(rule, func() string { return appliedHead(f, cells) + " ⇓ " + valueHead(v) }, ps...), nil
}

// lift is the leaf saying that the cells of the frames smaller than the
// principal frame are replicated to it.
func (r *rules) lift(fv *remora.Value, args []*remora.Value, fr *frames) *semantics.Derivation {
	r.hit(remora.RuleLift.Name)
	return r.d.Node(remora.RuleLift.Name, func() string {
		fs := make([]string, len(fr.fs))
		for i, f := range fr.fs {
			fs[i] = shapeString(f)
			if i > 0 && fr.whole[i-1] {
				fs[i] += " (whole)"
			}
		}
		return appliedHead(fv, args) + ": frames " + strings.Join(fs, " ") + " lift to " + shapeString(fr.frame)
	})
}

// collapseCells is collapse on the results of a map: the cells of the
// frame become one array.
func (r *rules) collapseCells(frame []int64, cells []*remora.Value, pos semantics.Pos) (*remora.Value, *semantics.Derivation, error) {
	r.hit(remora.RuleCollapse.Name)
	v, err := collapse(pos, frame, cells)
	if err != nil {
		return nil, nil, err
	}
	return v, r.d.Node(remora.RuleCollapse.Name, func() string {
		return "collapse " + semantics.Plural(len(cells), "cell") + " of shape " + shapeString(cells[0].Shape) + " in the frame " + shapeString(frame) + " ⇓ " + valueHead(v)
	}), nil
}

// call applies one function to arguments that are its cells: β for a λ,
// δ for a primitive. Each spends one application of fuel.
func (r *rules) call(f *Func, args []*remora.Value, pos semantics.Pos) (*remora.Value, string, []*semantics.Derivation, error) {
	if f.Lam != nil {
		return r.beta(f, args, pos)
	}
	return r.delta(f.Prim, args, pos)
}

// beta is β:
//
//	E', x1 ↦ c1, …, xn ↦ cn ⊢ e ⇓ v
//	--------------------------------------
//	((λ ((x1 r1) … (xn rn)) e) c1 … cn) ⇓ v
//
// where E' is the λ's environment (a recursive group's unrolled λ binds
// the group again, rec.go).
func (r *rules) beta(f *Func, args []*remora.Value, pos semantics.Pos) (*remora.Value, string, []*semantics.Derivation, error) {
	if err := r.burn(pos, remora.RuleBeta.Name); err != nil {
		return nil, "", nil, err
	}
	r.hit(remora.RuleBeta.Name)
	env := f.Env
	for i, p := range f.Lam.Params {
		env = env.bind(p.Name, args[i])
	}
	v, d, err := r.eval(f.Lam.Body, env)
	if err != nil {
		return nil, "", nil, err
	}
	return v, remora.RuleBeta.Name, r.premise(nil, r.bound(d, f.Lam.Params, args)), nil
}

// delta is δ: the primitive's δ-rule on its cells (scalar.go, basis.go,
// library.go; if chooses), or, for the reduce and scan family,
// deltaFold.
func (r *rules) delta(p *PrimDef, args []*remora.Value, pos semantics.Pos) (*remora.Value, string, []*semantics.Derivation, error) {
	if err := r.burn(pos, remora.RuleDelta.Name); err != nil {
		return nil, "", nil, err
	}
	r.hit(remora.RuleDelta.Name)
	if p.Fold != nil {
		v, ps, err := r.deltaFold(p, args, pos)
		return v, remora.RuleDelta.Name, ps, err
	}
	v, err := delta(p, args, pos)
	return v, remora.RuleDelta.Name, nil, err
}

// deltaFold is δ for the reduce and scan family: the operator applied,
// with lifting, to the accumulator and each item in index order (the
// fold plan's, remora.RunFold), or, for reduce, pairwise up the tree of
// treeReduce; each application is a premise.
func (r *rules) deltaFold(p *PrimDef, args []*remora.Value, pos semantics.Pos) (*remora.Value, []*semantics.Derivation, error) {
	op, init, items, err := foldArgs(p, args, pos)
	if err != nil {
		return nil, nil, err
	}
	var ps []*semantics.Derivation
	apply := func(f, a, b *remora.Value) (*remora.Value, error) {
		v, d, err := r.applied(f, []*remora.Value{a, b}, pos)
		ps = r.premise(ps, d)
		return v, err
	}
	if p.Tree {
		if len(items) == 0 {
			return init, nil, nil
		}
		v, err := treeReduce(op, items, apply)
		return v, ps, err
	}
	var stackErr error
	stack := func(xs []*remora.Value) *remora.Value {
		v, err := collapse(pos, []int64{int64(len(xs))}, xs)
		if err != nil {
			stackErr = err
		}
		return v
	}
	same := func(x *remora.Value) *remora.Value { return x }
	v, err := remora.RunFold(p.Fold, p.Name, op, init, items, apply, same, stack, &remora.Call{Pos: pos})
	if err == nil {
		err = stackErr
	}
	return v, ps, err
}

// betaLet is β for a let, which binds its value whole, as (λ ((x all))
// b) applied to it would (with no name, a sequence: the value is
// computed and dropped):
//
//	E ⊢ e ⇓ v0    E, x ↦ v0 ⊢ b ⇓ v
//	------------------------------
//	E ⊢ (let ((x e)) b) ⇓ v
func (r *rules) betaLet(e *Let, env *env) (*remora.Value, *semantics.Derivation, error) {
	v0, d0, err := r.eval(e.Val, env)
	if err != nil {
		return nil, nil, err
	}
	r.hit(remora.RuleBeta.Name)
	v, d, err := r.eval(e.Body, env.bind(e.X, v0))
	if err != nil {
		return nil, nil, err
	}
	if e.X != "" {
		d = r.bound(d, []Param{{Name: e.X}}, []*remora.Value{v0})
	}
	return v, r.d.Node(remora.RuleBeta.Name, func() string { return "E ⊢ " + termHead(e) + " ⇓ " + valueHead(v) }, d0, d), nil
}

// betaRec is β for a recursive group: each name is bound to its
// unrolling (rec.go), a closure over E, which the unrolled λ binds again
// when it is applied.
//
//	E, f1 ↦ unrolled f1, … ⊢ b ⇓ v
//	-------------------------------------
//	E ⊢ (begin (define (f1 …) …) … b) ⇓ v
func (r *rules) betaRec(e *Rec, env *env) (*remora.Value, *semantics.Derivation, error) {
	r.hit(remora.RuleBeta.Name)
	inner := env
	params := make([]Param, len(e.Defs))
	vals := make([]*remora.Value, len(e.Defs))
	for i, d := range e.Defs {
		vals[i] = funcValue(&Func{Lam: e.unrolled[i].(*Lam), Env: env})
		params[i].Name = d.X
		inner = inner.bind(d.X, vals[i])
	}
	v, d, err := r.eval(e.Body, inner)
	if err != nil {
		return nil, nil, err
	}
	return v, r.d.Node(remora.RuleBeta.Name, func() string { return "E ⊢ " + termHead(e) + " ⇓ " + valueHead(v) }, r.bound(d, params, vals)), nil
}

// unbox is the dialect's unbox, the typed core's proj on untyped boxes:
//
//	E ⊢ e ⇓ (box c)    E, x ↦ c ⊢ b ⇓ v
//	---------------------------------- [unbox]
//	E ⊢ (unbox x e b) ⇓ v
//
// On an array of boxes it maps, as a function of a scalar cell would:
// one unbox per box, in row-major order, then collapse (an empty array
// of boxes gives an empty array of its shape).
func (r *rules) unbox(e *Unbox, env *env) (*remora.Value, *semantics.Derivation, error) {
	bv, d0, err := r.eval(e.Box, env)
	if err != nil {
		return nil, nil, err
	}
	if err := boxes(e.Pos, bv); err != nil {
		return nil, nil, err
	}
	conclude := func(rule string, v *remora.Value, ps ...*semantics.Derivation) *semantics.Derivation {
		return r.d.Node(rule, func() string { return "E ⊢ " + termHead(e) + " ⇓ " + valueHead(v) }, append([]*semantics.Derivation{d0}, ps...)...)
	}
	if len(bv.Shape) == 0 {
		v, d, err := r.open(e, env, bv.A[0].(*remora.Box))
		if err != nil {
			return nil, nil, err
		}
		return v, conclude(RuleUnbox.Name, v, d), nil
	}
	r.hit(remora.RuleMap.Name)
	if bv.Len() == 0 {
		v := emptyResult(bv.Shape)
		return v, conclude(remora.RuleMap.Name, v), nil
	}
	cells := make([]*remora.Value, len(bv.A))
	var ps []*semantics.Derivation
	for i, a := range bv.A {
		b := a.(*remora.Box)
		v, d, err := r.open(e, env, b)
		if err != nil {
			return nil, nil, err
		}
		// The node of one box's unbox concludes it as the small-step's
		// map writes it.
		cells[i], ps = v, r.premise(ps, r.d.Node(RuleUnbox.Name, func() string {
			return "E ⊢ " + termHead(&Unbox{X: e.X, Box: lit(e.Box.At(), boxValue(b.Val)), Body: e.Body}) + " ⇓ " + valueHead(v)
		}, d))
	}
	v, d, err := r.collapseCells(bv.Shape, cells, e.Pos)
	if err != nil {
		return nil, nil, err
	}
	return v, conclude(remora.RuleMap.Name, v, r.premise(ps, d)...), nil
}

// open is unbox's premise on one box: the body evaluated with x bound to
// the box's contents, E, x ↦ c ⊢ b ⇓ v.
func (r *rules) open(e *Unbox, env *env, b *remora.Box) (*remora.Value, *semantics.Derivation, error) {
	r.hit(RuleUnbox.Name)
	v, d, err := r.eval(e.Body, env.bind(e.X, b.Val))
	if err != nil {
		return nil, nil, err
	}
	return v, r.bound(d, []Param{{Name: e.X}}, []*remora.Value{b.Val}), nil
}

// bound rewrites the conclusion of d, a body's evaluation in E extended
// by binding params to vals, to show the bindings: E, x ↦ v, … ⊢ b ⇓ v'.
func (r *rules) bound(d *semantics.Derivation, params []Param, vals []*remora.Value) *semantics.Derivation {
	if d == nil || !strings.HasPrefix(d.Conclusion, "E ⊢ ") {
		return d
	}
	var b strings.Builder
	b.WriteString("E")
	for i, p := range params {
		b.WriteString(", " + p.Name + " ↦ " + valueHead(vals[i]))
	}
	c := *d
	c.Conclusion = b.String() + strings.TrimPrefix(d.Conclusion, "E")
	return &c
}

// headWidth is how many runes of a term or value a conclusion shows.
const headWidth = 60

// head cuts s to headWidth runes.
func head(s string) string {
	if r := []rune(s); len(r) > headWidth {
		return string(r[:headWidth-1]) + "…"
	}
	return s
}

// termHead is a term as a conclusion shows it.
func termHead(e Expr) string { return head(ExprString(e)) }

// valueHead is a value as a conclusion shows it: as run prints it, cut
// short; an array of many atoms by its kind and shape.
func valueHead(v *remora.Value) string {
	if v.Len() > 4*headWidth {
		return describe(v)
	}
	return head(v.String())
}

// appliedHead is an application of values as a conclusion shows it.
func appliedHead(fv *remora.Value, args []*remora.Value) string {
	parts := make([]string, 1+len(args))
	parts[0] = valueHead(fv)
	for i, a := range args {
		parts[i+1] = valueHead(a)
	}
	return "(" + strings.Join(parts, " ") + ")"
}
