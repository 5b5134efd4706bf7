package dynamic

import (
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// The small-step semantics on untyped terms: the rules of §2 that Fig 6
// refines with types. A configuration is a closed term; a step finds the
// redex through the evaluation contexts (function, then arguments left to
// right; frame elements left to right; the value of a let; the box of an
// unbox), which the context machine (machine.go) keeps from one step to
// the next, and applies one rule (contract):
//
//	lift      replicate the cells of the lower-ranked frames so that every
//	          frame is the largest (Fig 1's underlined copies)
//	map       split an application over a non-empty frame into a frame of
//	          applications to cells (an empty frame gives an empty array)
//	β         apply a λ to its cells by substitution (a let binds likewise,
//	          and a recursive group binds its names to their unrollings)
//	δ         apply a primitive to its cells; the reduce and scan family
//	          unfold into the applications of their operator, in index order
//	          (a trace into a chain of links, one per application: unfoldChain)
//	collapse  a frame of arrays becomes one array
//	unbox     open a box (on an array of boxes, map first)

// RunSmall runs a closed expression to a value by the small-step
// semantics, calling on after every step (with the configuration as a
// term, rebuilt for the hook).
func RunSmall(e Expr, o *semantics.RunOptions) (*remora.Value, int, error) {
	o = runOptions(o)
	d := &semantics.Driver[*State]{Machine: Contexts(0), Fuel: o.Fuel, Counter: o.Counter, OnStep: semantics.Hook[*State](o), Pos: e.At()}
	s, n, err := d.Run(Load(e))
	if err != nil {
		return nil, n, err
	}
	return valueOf(s), n, nil
}

// isValue: literal arrays, functions, primitives, and frames of scalar
// values of one atom kind (a frame of functions, as in Fig 2, is a value).
func isValue(e Expr) bool {
	switch e := e.(type) {
	case *Lit, *Lam, *Prim:
		return true
	case *Frame:
		var kind remora.Kind
		for i, el := range e.Elems {
			if !isValue(el) || !isScalar(el) {
				return false
			}
			k := kindOf(el)
			if i > 0 && k != kind {
				return false
			}
			kind = k
		}
		return true
	}
	return false
}

func isScalar(e Expr) bool {
	switch e := e.(type) {
	case *Lit:
		return len(e.V.Shape) == 0
	case *Frame:
		return len(e.Dims) == 0
	}
	return true
}

// kindOf is the atom kind of a scalar value term.
func kindOf(e Expr) remora.Kind {
	if l, ok := e.(*Lit); ok {
		return l.V.Kind
	}
	return remora.KFunc
}

// toValue reads a value term as a flat array.
func toValue(e Expr) *remora.Value {
	switch e := e.(type) {
	case *Lit:
		return e.V
	case *Lam:
		return funcValue(&Func{Lam: e})
	case *Prim:
		return funcValue(&Func{Prim: e.Def})
	case *Frame:
		cells := make([]*remora.Value, len(e.Elems))
		for i, el := range e.Elems {
			cells[i] = toValue(el)
		}
		v, _ := collapse(e.Pos, e.Dims, cells) // a value frame's cells are scalars of one kind
		return v
	}
	return nil
}

// lit is a value as a term at pos.
func lit(pos semantics.Pos, v *remora.Value) Expr { return &Lit{Pos: pos, V: v} }

// contract applies the rule at the redex e, a term whose children in
// the evaluation contexts (focus.go's nextChild) are values, or reports
// it stuck.
func contract(e Expr) (Expr, string, error) {
	switch e := e.(type) {
	case *App:
		return stepApp(e)
	case *Frame:
		cells := make([]*remora.Value, len(e.Elems))
		for i, el := range e.Elems {
			cells[i] = toValue(el)
		}
		v, err := collapse(e.Pos, e.Dims, cells)
		if err != nil {
			return nil, "", err
		}
		return lit(e.Pos, v), remora.RuleCollapse.Name, nil
	case *Let:
		return subst(e.Body, map[string]Expr{e.X: valueTerm(e.Val)}), remora.RuleBeta.Name, nil
	case *Unbox:
		bv := toValue(e.Box)
		if err := boxes(e.Pos, bv); err != nil {
			return nil, "", err
		}
		if len(bv.Shape) == 0 {
			contents := bv.A[0].(*remora.Box).Val
			return subst(e.Body, map[string]Expr{e.X: lit(e.Box.At(), contents)}), RuleUnbox.Name, nil
		}
		if bv.Len() == 0 {
			return lit(e.Pos, emptyResult(bv.Shape)), remora.RuleMap.Name, nil
		}
		_, cells := bv.Cells(len(bv.Shape))
		out := &Frame{Pos: e.Pos, Dims: bv.Shape}
		for _, c := range cells {
			out.Elems = append(out.Elems, &Unbox{Pos: e.Pos, X: e.X, Box: lit(e.Box.At(), c), Body: e.Body})
		}
		return out, remora.RuleMap.Name, nil
	case *Rec:
		// A recursive group binds each name to its unrolling (rec.go).
		return subst(e.Body, e.bindings()), remora.RuleBeta.Name, nil
	case *Var:
		return nil, "", semantics.Stuckf(e.Pos, remora.RuleBeta.Name, "free variable %s", e.Name)
	}
	return nil, "", semantics.Stuckf(e.At(), "", "no rule applies to %s", ExprString(e))
}

// valueTerm is a value term as the term substituted for a variable: a
// frame value becomes one literal array.
func valueTerm(e Expr) Expr {
	if f, ok := e.(*Frame); ok {
		return lit(f.Pos, toValue(f))
	}
	return e
}

// stepApp applies lift, map, β or δ to an application of values.
func stepApp(e *App) (Expr, string, error) {
	fv := toValue(e.Fn)
	args := make([]*remora.Value, len(e.Args))
	for i, a := range e.Args {
		args[i] = toValue(a)
	}
	fr, err := appFrames(fv, args, e.Pos)
	if err != nil {
		return nil, "", err
	}
	var shape *remora.Value
	if e.Shape != nil {
		shape = toValue(e.Shape)
	}
	if fr.f0 == nil {
		v, err := emptyApp(e.Pos, fr.frame, shape)
		return lit(e.Pos, v), remora.RuleMap.Name, err
	}
	if len(fr.frame) == 0 {
		return stepCall(e, fr.f0, args)
	}
	if fr.lifted() {
		for i, a := range append([]*remora.Value{fv}, args...) {
			if i > 0 && fr.whole[i-1] {
				continue
			}
			if err := remora.ReplicateSize(a, fr.fs[i], fr.frame); err != nil {
				return nil, "", semantics.Stuckf(e.Pos, remora.RuleLift.Name, "%v", err)
			}
		}
		n := &App{Pos: e.Pos, Fn: lit(e.Fn.At(), remora.ReplicateTo(fv, fr.fs[0], fr.frame)), Shape: e.Shape}
		for i, a := range args {
			if fr.whole[i] {
				n.Args = append(n.Args, e.Args[i])
				continue
			}
			n.Args = append(n.Args, lit(e.Args[i].At(), remora.ReplicateTo(a, fr.fs[i+1], fr.frame)))
		}
		return n, remora.RuleLift.Name, nil
	}
	count := product(fr.frame)
	if count == 0 {
		v, err := emptyApp(e.Pos, fr.frame, shape)
		return lit(e.Pos, v), remora.RuleMap.Name, err
	}
	if _, err := semantics.Count(fr.frame); err != nil {
		return nil, "", semantics.Stuckf(e.Pos, remora.RuleMap.Name, "a frame of cells: %v", err)
	}
	_, fcells := fv.Cells(len(fr.frame))
	argCells := make([][]*remora.Value, len(args))
	for i, a := range args {
		if !fr.whole[i] {
			_, argCells[i] = a.Cells(len(fr.frame))
		}
	}
	out := &Frame{Pos: e.Pos, Dims: fr.frame}
	for p := 0; p < count; p++ {
		app := &App{Pos: e.Pos, Fn: lit(e.Fn.At(), fcells[p])}
		for i := range args {
			if fr.whole[i] {
				app.Args = append(app.Args, lit(e.Args[i].At(), args[i]))
				continue
			}
			app.Args = append(app.Args, lit(e.Args[i].At(), argCells[i][p]))
		}
		out.Elems = append(out.Elems, app)
	}
	return out, remora.RuleMap.Name, nil
}

// stepCall is β or δ on a single function and its cells.
func stepCall(e *App, f *Func, args []*remora.Value) (Expr, string, error) {
	if f.Lam != nil {
		vals := map[string]Expr{}
		for i, p := range f.Lam.Params {
			vals[p.Name] = lit(e.Args[i].At(), args[i])
		}
		return subst(f.Lam.Body, vals), remora.RuleBeta.Name, nil
	}
	if f.Prim.Fold != nil {
		x, err := unfold(e, f.Prim, args)
		return x, remora.RuleDelta.Name, err
	}
	v, err := delta(f.Prim, args, e.Pos)
	if err != nil {
		return nil, "", err
	}
	return lit(e.Pos, v), remora.RuleDelta.Name, nil
}

// unfold is δ for the reduce and scan family: the term of the operator's
// applications, in index order, which later steps reduce. The folds that
// return one accumulator unfold into nested applications (reduce into a
// balanced tree), which take one step per application already; the
// traces unfold into a chain of links (unfoldChain), so that each
// accumulator is computed once, from the previous one.
func unfold(e *App, p *PrimDef, args []*remora.Value) (Expr, error) {
	op, init, items, err := foldArgs(p, args, e.Pos)
	if err != nil {
		return nil, err
	}
	terms := make([]Expr, len(items))
	for i, x := range items {
		terms[i] = lit(e.Pos, x)
	}
	var initTerm Expr
	if init != nil {
		initTerm = lit(e.Args[1].At(), init)
	}
	opTerm := lit(e.Args[0].At(), op)
	if x, ok := unfoldChain(e.Pos, p.Fold, opTerm, initTerm, terms); ok {
		return x, nil
	}
	apply := func(g, a, b Expr) (Expr, error) {
		return &App{Pos: e.Pos, Fn: g, Args: []Expr{a, b}}, nil
	}
	if p.Tree {
		if len(items) == 0 {
			return initTerm, nil
		}
		return treeReduce(opTerm, terms, apply)
	}
	same := func(x Expr) Expr { return x }
	stack := func(xs []Expr) Expr {
		return &Frame{Pos: e.Pos, Dims: []int64{int64(len(xs))}, Elems: xs}
	}
	return remora.RunFold(p.Fold, p.Name, opTerm, initTerm, terms, apply, same, stack, &remora.Call{Pos: e.Pos})
}

// unfoldChain unfolds a trace over at least one application into a
// chain of links, by the plan the typed dialect's small-step also follows
// (remora.PlanChain). The trace so far is an array of boxes, one per
// accumulator (chainTerms). It reports false for the other folds and for
// a trace with no application, which unfold leaves to remora.RunFold.
func unfoldChain(pos semantics.Pos, plan *remora.FoldPlan, op, init Expr, items []Expr) (Expr, bool) {
	terms := &chainTerms{pos: pos, op: op, appendDef: traceAppend(),
		acc: &Var{Pos: pos, Name: remora.ChainAcc}, accs: &Var{Pos: pos, Name: remora.ChainAccs}}
	same := func(x Expr) Expr { return x }
	c, ok := remora.PlanChain[Expr](plan, init, items, same, terms)
	if !ok {
		return nil, false
	}
	return c.Build(), true
}

// chainTerms writes a chain's terms in the dialect. The trace so far is
// an array of boxes, one per accumulator: boxes are scalars of one kind,
// so joining them cannot fail, and the accumulators' shapes and kinds
// meet only at the end, when the opened boxes collapse as the big-step's
// trace does (the same error, after every application). The chain's
// append grows the boxes so far in place (traceAppend), and the final
// unbox maps over all n once.
type chainTerms struct {
	pos       semantics.Pos
	op        Expr
	appendDef *PrimDef
	acc, accs *Var
}

func (t *chainTerms) Var(name string) Expr {
	if name == remora.ChainAccs {
		return t.accs
	}
	return t.acc
}

func (t *chainTerms) Apply(a, b Expr) Expr {
	return &App{Pos: t.pos, Fn: t.op, Args: []Expr{a, b}}
}

func (t *chainTerms) One(x Expr) Expr {
	box := &App{Pos: t.pos, Fn: &Prim{Pos: t.pos, Def: Basis["box"]}, Args: []Expr{x}}
	return &Frame{Pos: t.pos, Dims: []int64{1}, Elems: []Expr{box}}
}

func (t *chainTerms) Append(a, b Expr, _, _ int) Expr {
	return &App{Pos: t.pos, Fn: &Prim{Pos: t.pos, Def: t.appendDef}, Args: []Expr{a, b}}
}

func (t *chainTerms) Link(body, accArg Expr, accs *Expr, _ int) Expr {
	lam := &Lam{Pos: t.pos, Params: []Param{{Name: remora.ChainAcc, Rank: All}}, Body: body}
	link := &App{Pos: t.pos, Fn: lam, Args: []Expr{accArg}}
	if accs != nil {
		lam.Params = append(lam.Params, Param{Name: remora.ChainAccs, Rank: All})
		link.Args = append(link.Args, *accs)
	}
	return link
}

func (t *chainTerms) Result(trace Expr, _ int) Expr {
	return &Unbox{Pos: t.pos, X: remora.ChainAcc, Box: trace, Body: t.acc}
}

// subst substitutes closed values for free variables; binders shadow.
// What is substituted is closed, so no capture can happen.
func subst(e Expr, vals map[string]Expr) Expr {
	if len(vals) == 0 {
		return e
	}
	switch e := e.(type) {
	case *Var:
		if v, ok := vals[e.Name]; ok {
			return v
		}
		return e
	case *Lit, *Prim:
		return e
	case *Frame:
		n := &Frame{Pos: e.Pos, EndPos: e.EndPos, Dims: e.Dims, Elems: make([]Expr, len(e.Elems))}
		for i, el := range e.Elems {
			n.Elems[i] = subst(el, vals)
		}
		return n
	case *Lam:
		inner := vals
		for _, p := range e.Params {
			inner = without(inner, p.Name)
		}
		return &Lam{Pos: e.Pos, EndPos: e.EndPos, Params: e.Params, Body: subst(e.Body, inner)}
	case *App:
		n := &App{Pos: e.Pos, EndPos: e.EndPos, Fn: subst(e.Fn, vals), Args: make([]Expr, len(e.Args))}
		if e.Shape != nil {
			n.Shape = subst(e.Shape, vals)
		}
		for i, a := range e.Args {
			n.Args[i] = subst(a, vals)
		}
		return n
	case *Let:
		return &Let{Pos: e.Pos, EndPos: e.EndPos, X: e.X, Val: subst(e.Val, vals), Body: subst(e.Body, without(vals, e.X))}
	case *Unbox:
		return &Unbox{Pos: e.Pos, EndPos: e.EndPos, X: e.X, Box: subst(e.Box, vals), Body: subst(e.Body, without(vals, e.X))}
	case *Rec:
		inner := vals
		for _, d := range e.Defs {
			inner = without(inner, d.X)
		}
		if len(inner) == 0 {
			return e
		}
		defs := make([]Def, len(e.Defs))
		for i, d := range e.Defs {
			d.Val = subst(d.Val, inner)
			defs[i] = d
		}
		return newRec(e.Pos, e.EndPos, defs, subst(e.Body, inner))
	}
	return e
}

// without is vals less x (a copy when x is in it).
func without(vals map[string]Expr, x string) map[string]Expr {
	if _, ok := vals[x]; !ok {
		return vals
	}
	out := make(map[string]Expr, len(vals))
	for k, v := range vals {
		if k != x {
			out[k] = v
		}
	}
	return out
}
