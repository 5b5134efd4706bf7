package remora

import (
	"fmt"
	"unsafe"

	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// The small-step semantics of Fig 6 on annotated core terms. A
// configuration is a closed term; a step finds the redex through the
// evaluation contexts E of Fig 5 (function, then arguments left to right;
// frame elements left to right; under T-APP, I-APP, PACK and the box of an
// UNPACK), which the context machine (machine.go) keeps from one step to
// the next, and applies one rule (contract):
//
//	lift      replicate the cells of the lower-ranked frames to the largest
//	map       split an application over a non-empty frame into a frame of
//	          applications to cells (an empty frame gives the empty array of
//	          the application's type)
//	β         apply a λ to its cells by substitution
//	δ         apply a primitive to its cells; the reduce and scan family
//	          unfold into the applications of their operator, in index order
//	          (a trace into a chain of links, one per application: unfoldChain)
//	collapse  a frame of arrays becomes one array
//	Tβ, Iβ    instantiate a type or index abstraction (or a primitive)
//	proj      open a box
//	lift-dim  bind (lift [d n] …)'s d to n (the typed dialect's extension)

// Machine is the small-step semantics as a semantics.Machine on terms:
// a step loads the term into the context machine (machine.go), which
// descends to the redex, applies the rule there and rebuilds the term. It
// costs the size of the term; RunSmall and the stepper run Contexts on
// States instead, whose steps do not.
type Machine struct{}

// Final reports whether e is a value.
func (Machine) Final(e Expr) bool { return IsValue(e) }

// Step makes one transition.
func (Machine) Step(e Expr) (Expr, string, error) {
	s, r, err := Contexts.Step(Load(e))
	if err != nil {
		return nil, "", err
	}
	return Term(s), r, nil
}

// RunSmall runs a closed, checked expression to a value by the small-step
// semantics, calling on after every step (with the configuration as a
// term, rebuilt for the hook).
func RunSmall(e Expr, o *semantics.RunOptions) (*Value, int, error) {
	o = runOptions(o)
	d := &semantics.Driver[*State]{Machine: Contexts, Fuel: o.Fuel, Counter: o.Counter, OnStep: semantics.Hook[*State](o), Pos: e.At()}
	s, n, err := d.Run(Load(e))
	if err != nil {
		return nil, n, err
	}
	return valueOf(s), n, nil
}

// isValue is Fig 5's v: literals, functions, primitives, boxes of values,
// and frames of atoms (a frame of non-scalar arrays still has to collapse).
func IsValue(e Expr) bool {
	switch e := e.(type) {
	case *Lit, *Lam, *TLam, *ILam, *Prim:
		return true
	case *Pack:
		return IsValue(e.Body)
	case *Frame:
		// An empty frame is the empty array of its type (a frame of
		// functions or boxes keeps its atom type this way).
		for _, el := range e.Elems {
			if !IsValue(el) || !isScalar(el) {
				return false
			}
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
		// A frame of cells is an array of rank at least one: a frame of
		// frames collapses.
		return len(e.Dims) == 0
	}
	return true
}

// toValue reads a value term as a flat Value.
func toValue(e Expr) *Value {
	switch e := e.(type) {
	case *Lit:
		return e.V
	case *Lam, *TLam, *ILam:
		return AtomScalar(KFunc, &Func{Term: e})
	case *Prim:
		return AtomScalar(KFunc, &Func{Prim: e.Def})
	case *Pack:
		return AtomScalar(KBox, &Box{Indices: e.Indices, Val: toValue(e.Body), Type: e.Type})
	case *Frame:
		if len(e.Elems) == 0 {
			ds, _ := e.Type.Shape.Const()
			return NewValue(kindOf(e.Type.Elem), ds, 0)
		}
		cells := make([]*Value, len(e.Elems))
		for i, el := range e.Elems {
			cells[i] = toValue(el)
		}
		return Stack(e.Dims, cells[0].Shape, cells[0].Kind, cells)
	}
	return nil
}

// valueTerm is a value as a term; atom is the type of its atoms. An empty
// array of functions or boxes is written as an empty frame of that atom
// type, since the flat value has no atom to read its type off.
func valueTerm(pos semantics.Pos, v *Value, atom Type) Expr {
	if v.Len() == 0 && v.Kind >= KFunc {
		t := &Arr{Elem: atom, Shape: Dims(v.Shape...)}
		return &Frame{Pos: pos, Dims: v.Shape, Cell: &Arr{Elem: atom}, Type: t}
	}
	return lit(pos, v)
}

// emptyOf is the empty array of type t (closed).
func emptyOf(pos semantics.Pos, t *Arr) Expr {
	ds, _ := t.Shape.Const()
	return valueTerm(pos, NewValue(kindOf(t.Elem), ds, 0), t.Elem)
}

// lit is a value as a term at pos.
func lit(pos semantics.Pos, v *Value) Expr { return &Lit{Pos: pos, V: v} }

// contract applies the rule at the redex e, a term whose evaluated
// children (focus.go's nextChild) are values, or reports it stuck.
func contract(e Expr) (Expr, string, error) {
	switch e := e.(type) {
	case *App:
		return stepApp(e)
	case *Frame:
		cells := make([]*Value, len(e.Elems))
		for i, el := range e.Elems {
			cells[i] = toValue(el)
			if !semantics.SameShape(cells[i].Shape, cells[0].Shape) {
				return nil, "", semantics.Stuckf(e.Pos, RuleCollapse.Name, "the cells of a frame have shapes %s and %s", dimsString(cells[0].Shape), dimsString(cells[i].Shape))
			}
		}
		v := Stack(e.Dims, cells[0].Shape, cells[0].Kind, cells)
		if e.Type != nil {
			// An empty array of functions or boxes keeps its atom type.
			return valueTerm(e.Pos, v, e.Type.Elem), RuleCollapse.Name, nil
		}
		return lit(e.Pos, v), RuleCollapse.Name, nil
	case *TApp:
		f := toValue(e.Fn).A[0].(*Func)
		if f.Prim != nil {
			return instantiateStep(e.Pos, &Func{Prim: f.Prim, Indices: f.Indices, Types: e.Args}, RuleTBeta.Name)
		}
		l := f.Term.(*TLam)
		sub := TypeSubst{Types: map[string]Type{}}
		for i, x := range l.Vars {
			sub.Types[x] = e.Args[i]
		}
		return substExpr(l.Body, nil, sub), RuleTBeta.Name, nil
	case *IApp:
		f := toValue(e.Fn).A[0].(*Func)
		if f.Prim != nil {
			return instantiateStep(e.Pos, &Func{Prim: f.Prim, Indices: e.Args, Types: f.Types}, RuleIBeta.Name)
		}
		l := f.Term.(*ILam)
		sub := TypeSubst{Indices: Subst{}}
		for i, x := range l.Vars {
			sub.Indices[x] = e.Args[i]
		}
		return substExpr(l.Body, nil, sub), RuleIBeta.Name, nil
	case *Unpack:
		b := toValue(e.Box).A[0].(*Box)
		sub := TypeSubst{Indices: Subst{}}
		for i, x := range e.IVars {
			sub.Indices[x] = b.Indices[i]
		}
		return substExpr(e.Body, map[string]Expr{e.X: valueTerm(e.Box.At(), b.Val, b.Type.Body.(*Arr).Elem)}, sub), RuleProj.Name, nil
	case *LiftDim:
		n := toValue(e.N).I[0]
		if n < 0 {
			return nil, "", semantics.Stuckf(e.Pos, RuleLiftDim.Name, "a dimension cannot be negative, got %d", n)
		}
		ix := NatIndex(NatConst(n))
		body := substExpr(e.Body, nil, TypeSubst{Indices: Subst{e.D: ix}})
		return &Pack{Pos: e.Pos, Indices: []Index{ix}, Body: body, Type: e.Type}, RuleLiftDim.Name, nil
	case *Reify:
		return lit(e.Pos, ReifyIndex(e.Index)), RuleDelta.Name, nil
	case *Reshape:
		ds, _ := e.Type.Shape.Const()
		return valueTerm(e.Pos, toValue(e.E).Reshape(ds), e.Type.Elem), RuleDelta.Name, nil
	case *Map:
		return stepMap(e)
	case *Case:
		alt, err := CaseAlt(e, toValue(e.Tag))
		if err != nil {
			return nil, "", err
		}
		return alt, RuleCASE.Name, nil
	case *Rep:
		frame, _ := e.Frame.Const()
		return valueTerm(e.Pos, Replicate(toValue(e.E), frame), e.Type.Elem), RuleREP.Name, nil
	case *Var:
		return nil, "", semantics.Stuckf(e.Pos, RuleTVar.Name, "free variable %s", e.Name)
	}
	return nil, "", semantics.Stuckf(e.At(), "", "no rule applies to %s", Short(e))
}

// instantiateStep is Tβ or Iβ on a primitive: the instantiated primitive,
// or the array it denotes (iota{ | [3]}), computed by its δ-rule.
func instantiateStep(pos semantics.Pos, g *Func, rule string) (Expr, string, error) {
	if !isAbstraction(Instantiate(g.Prim.Type, g.Indices, g.Types)) {
		v, err := g.Prim.Cells(&Call{Pos: pos, Indices: g.Indices, Types: g.Types}, nil)
		if err != nil {
			return nil, "", AtPos(err, pos)
		}
		return lit(pos, v), RuleDelta.Name, nil
	}
	return lit(pos, AtomScalar(KFunc, g)), rule, nil
}

// stepApp applies lift, map, β or δ to an application of values.
func stepApp(e *App) (Expr, string, error) {
	if x, ok, err := scalarDelta(e); ok {
		return x, RuleDelta.Name, err
	}
	fv := toValue(e.Fn)
	args := make([]*Value, len(e.Args))
	for i, a := range e.Args {
		args[i] = toValue(a)
	}
	if fv.Len() == 0 {
		return emptyOf(e.Pos, e.Type), RuleMap.Name, nil
	}
	f0 := fv.A[0].(*Func)
	params, ret := signature(f0)
	frame, fs, err := frames(fv, args, params, e.Pos)
	if err != nil {
		return nil, "", err
	}
	if len(frame) == 0 {
		return stepCall(e, f0, args)
	}
	lifted := false
	for _, f := range fs {
		lifted = lifted || len(f) < len(frame)
	}
	if lifted {
		// lift: replicate each lower-ranked array's cells along the axes
		// its frame lacks, so that every frame is the largest.
		fnAtom := &Fn{Params: make([]Type, len(params)), Ret: ret}
		for i, p := range params {
			fnAtom.Params[i] = p
		}
		for i, a := range append([]*Value{fv}, args...) {
			if err := ReplicateSize(a, fs[i], frame); err != nil {
				return nil, "", semantics.Stuckf(e.Pos, RuleLift.Name, "%v", err)
			}
		}
		n := &App{Pos: e.Pos, Fn: valueTerm(e.Fn.At(), ReplicateTo(fv, fs[0], frame), fnAtom), Type: e.Type}
		for i, a := range args {
			n.Args = append(n.Args, valueTerm(e.Args[i].At(), ReplicateTo(a, fs[i+1], frame), params[i].Elem))
		}
		return n, RuleLift.Name, nil
	}
	// map: a frame of applications to cells.
	count := Product(frame)
	if count == 0 {
		return emptyOf(e.Pos, e.Type), RuleMap.Name, nil
	}
	// A frame the run cannot afford is stuck, past --max-memory, before
	// its cells or applications are made (a map over iota of 10^8 would
	// make 12 GiB of terms).
	cell := unsafe.Sizeof(App{}) + uintptr(len(args))*(unsafe.Sizeof(Lit{})+unsafe.Sizeof(Value{})+8) + 8
	if err := semantics.Afford(fmt.Sprintf("a frame of %d applications", count), int64(count)*int64(cell/8+1)); err != nil {
		return nil, "", semantics.Stuckf(e.Pos, RuleMap.Name, "%v", err)
	}
	// The terms of the cells: each array's cells as literals (valueTerm's)
	// in one block, or one literal for all of them when they are all the
	// same (the function and any lifted scalar, replicated): terms are
	// never changed, so the applications can share it, as substitution
	// shares the value it puts for each occurrence of a variable.
	terms := func(v *Value, pos semantics.Pos, atom Type) func(p int) Expr {
		block := cellBlock(v, len(frame))
		if len(block) == 1 {
			t := valueTerm(pos, &block[0], atom)
			return func(int) Expr { return t }
		}
		lits := make([]Lit, len(block))
		return func(p int) Expr {
			c := &block[p]
			if c.Len() == 0 && c.Kind >= KFunc {
				return valueTerm(pos, c, atom)
			}
			lits[p] = Lit{Pos: pos, V: c}
			return &lits[p]
		}
	}
	fnTerm := terms(fv, e.Fn.At(), nil) // a function cell is never empty
	argTerm := make([]func(int) Expr, len(args))
	for i, a := range args {
		argTerm[i] = terms(a, e.Args[i].At(), params[i].Elem)
	}
	// The applications and their argument lists are allocated in one
	// block each: a frame of n of them is n steps.
	out := &Frame{Pos: e.Pos, Dims: frame, Type: e.Type, Elems: make([]Expr, count)}
	apps := make([]App, count)
	argTerms := make([]Expr, count*len(args))
	for p := 0; p < count; p++ {
		app := &apps[p]
		*app = App{Pos: e.Pos, Fn: fnTerm(p), Args: argTerms[p*len(args) : (p+1)*len(args) : (p+1)*len(args)], Type: ret}
		for i := range args {
			app.Args[i] = argTerm[i](p)
		}
		out.Elems[p] = app
	}
	return out, RuleMap.Name, nil
}

// cellBlock is v's cells of its frame of rank r (cellsOf), or, when v
// has more than one cell and they are all the same scalar, that one cell:
// values are never changed, so the terms of all the cells can share it.
func cellBlock(v *Value, r int) []Value {
	cell := v.Shape[r:]
	size := Product(cell)
	n := Product(v.Shape[:r])
	if n > 1 && size == 1 && sameAtoms(v) {
		return []Value{*v.slice(cell, 0, 1)}
	}
	return cellsOf(v, r)
}

// cellsOf is v's cells of its frame of rank r, as Cells makes them
// (sharing v's buffer), allocated in one block.
func cellsOf(v *Value, r int) []Value {
	cell := v.Shape[r:]
	size := Product(cell)
	out := make([]Value, Product(v.Shape[:r]))
	for i := range out {
		out[i] = *v.slice(cell, i*size, (i+1)*size)
	}
	return out
}

// sameAtoms reports whether all of v's atoms are the first (the same
// number, or the same *Func).
func sameAtoms(v *Value) bool {
	switch v.Kind {
	case KFloat:
		for _, x := range v.F {
			if x != v.F[0] {
				return false
			}
		}
	case KFunc:
		f0, ok := v.A[0].(*Func)
		for _, x := range v.A {
			if f, isF := x.(*Func); !ok || !isF || f != f0 {
				return false
			}
		}
	case KBox, KNum, KPair:
		return false
	default:
		for _, x := range v.I {
			if x != v.I[0] {
				return false
			}
		}
	}
	return true
}

// scalarLit is a scalar literal with its value and its one atom in one
// allocation, for the contractum of a scalar δ.
type scalarLit struct {
	l Lit
	v Value
	i [1]int64
	f [1]float64
}

func newScalarLit(pos semantics.Pos, k Kind) (*Lit, *Value) {
	s := &scalarLit{}
	s.v.Kind = k
	if k == KFloat {
		s.v.F = s.f[:]
	} else {
		s.v.I = s.i[:]
	}
	s.l = Lit{Pos: pos, V: &s.v}
	return &s.l, &s.v
}

// scalarDelta is δ on the commonest redex of a small-step map, a scalar
// primitive (+, *, …, uninstantiated) applied to scalar base literals,
// computed as stepCall computes it but without reading the terms as
// arrays and their frames first (which are empty: the function and every
// argument are scalars, and so are the primitive's parameters). ok is
// false when e is not such a redex; stepApp's general path takes it.
func scalarDelta(e *App) (x Expr, ok bool, err error) {
	var p *PrimDef
	switch fn := e.Fn.(type) {
	case *Prim: // a primitive as written, as the operator of an unfolded reduce
		p = fn.Def
	case *Lit:
		if len(fn.V.Shape) != 0 || fn.V.Kind != KFunc {
			return nil, false, nil
		}
		f := fn.V.A[0].(*Func)
		if len(f.Indices) > 0 || len(f.Types) > 0 {
			return nil, false, nil
		}
		p = f.Prim
	}
	if p == nil || p.Scalar == nil || p.Fold != nil {
		return nil, false, nil
	}
	fn, isFn := p.Type.(*Fn)
	if !isFn || len(fn.Params) != len(e.Args) || len(e.Args) > 4 {
		return nil, false, nil
	}
	ret, isArr := fn.Ret.(*Arr)
	if !isArr || len(ret.Shape) != 0 {
		return nil, false, nil
	}
	var in [4]slot
	for i, a := range e.Args {
		pa, isArr := fn.Params[i].(*Arr)
		al, isLit := a.(*Lit)
		if !isArr || len(pa.Shape) != 0 || !isLit || len(al.V.Shape) != 0 || al.V.Kind >= KFunc {
			return nil, false, nil
		}
		if al.V.Kind == KFloat {
			in[i].F = al.V.F[0]
		} else {
			in[i].I = al.V.I[0]
		}
	}
	r, err := p.Scalar(in[:len(e.Args)])
	if err != nil {
		return nil, true, AtPos(err, e.Pos)
	}
	l, v := newScalarLit(e.Pos, kindOf(ret.Elem))
	if v.Kind == KFloat {
		v.F[0] = r.F
	} else {
		v.I[0] = r.I
	}
	return l, true, nil
}

// ReplicateSize is the error of ReplicateTo(v, fr, frame) past
// --max-memory (semantics.Count's), nil when it fits: the lift of an
// empty array's neighbour ((λ ((x 1) (y 0)) …) over an array of shape
// [99999999999 0]) replicates the neighbour to the whole frame, which Go
// cannot allocate (issue 32's campaign: a fatal out-of-memory).
func ReplicateSize(v *Value, fr, frame []int64) error {
	if len(fr) == len(frame) {
		return nil
	}
	_, err := semantics.Count(append(append([]int64{}, frame...), v.Shape[len(fr):]...))
	return err
}

// ReplicateTo replicates the cells of v, whose frame is the prefix fr of
// frame, so that its frame is frame: each cell is copied once per position
// of the axes frame has beyond fr (Fig 1's underlined copies).
func ReplicateTo(v *Value, fr, frame []int64) *Value {
	if len(fr) == len(frame) {
		return v
	}
	cell := v.Shape[len(fr):]
	extra := Product(frame[len(fr):])
	if mutant.On("remora-lift-order") { // mutant: tiles the whole array instead of repeating each cell
		_, cells := v.Cells(len(fr))
		out := make([]*Value, 0, len(cells)*extra)
		for k := 0; k < extra; k++ {
			out = append(out, cells...)
		}
		return Stack(frame, cell, v.Kind, out)
	}
	// Each cell's copies are written into the result directly, doubling
	// what is there (the atoms Stack of the copies would hold).
	size := Product(cell)
	cells := Product(v.Shape[:len(fr)])
	res := NewValue(v.Kind, append(append([]int64{}, frame...), cell...), cells*extra*size)
	run := extra * size // the atoms of one cell's copies
	for c := range cells {
		base := c * run
		if run == 0 {
			break
		}
		CopyAtoms(res, base, v, c*size, size)
		for done := size; done < run; {
			m := min(done, run-done)
			CopyAtoms(res, base+done, res, base, m)
			done += m
		}
	}
	return res
}

// stepCall is β or δ on a single function and its cells.
func stepCall(e *App, f *Func, args []*Value) (Expr, string, error) {
	if f.Prim == nil {
		l := f.Term.(*Lam)
		vals := map[string]Expr{}
		for i, p := range l.Params {
			vals[p.Name] = valueTerm(e.Args[i].At(), args[i], p.Type.(*Arr).Elem)
		}
		return substExpr(l.Body, vals, TypeSubst{}), RuleBeta.Name, nil
	}
	p := f.Prim
	c := &Call{Pos: e.Pos, Indices: f.Indices, Types: f.Types}
	switch {
	case p.Fold != nil:
		x, err := unfold(e, f, c, args)
		return x, RuleDelta.Name, err
	case p.Scalar != nil && baseKinds(args):
		in := make([]slot, len(args))
		for i, a := range args {
			if a.Kind == KFloat {
				in[i].F = a.F[0]
			} else {
				in[i].I = a.I[0]
			}
		}
		r, err := p.Scalar(in)
		if err != nil {
			return nil, "", AtPos(err, e.Pos)
		}
		_, ret := signature(f)
		v := NewValue(kindOf(ret.Elem), nil, 1)
		if v.Kind == KFloat {
			v.F[0] = r.F
		} else {
			v.I[0] = r.I
		}
		return lit(e.Pos, v), RuleDelta.Name, nil
	}
	v, err := p.Cells(c, args)
	if err != nil {
		return nil, "", AtPos(err, e.Pos)
	}
	return valueTerm(e.Pos, v, e.Type.Elem), RuleDelta.Name, nil
}

// unfold is δ for the reduce and scan family: the term of the operator's
// applications, in index order, which later steps reduce. The folds that
// return one accumulator (reduce, reduce-init, fold, fold-right) unfold
// into the nested applications (op (op a x1) x2) …, which take one step
// per application already; the traces unfold into a chain of links
// (unfoldChain), so that each accumulator is computed once, from the
// previous one.
func unfold(e *App, f *Func, c *Call, args []*Value) (Expr, error) {
	sh := f.Prim.foldShapes(c)
	accType := &Arr{Elem: sh.accElem, Shape: Dims(sh.acc...)}
	op := e.Args[0]
	// A fold the run cannot afford is stuck, past --max-memory, before
	// its items' terms are made (a reduce over iota of 10^8 would make
	// 10 GiB of them), as a map's frame is.
	item := unsafe.Sizeof(Lit{}) + unsafe.Sizeof(Value{}) + unsafe.Sizeof(App{}) + 3*8
	if err := AffordItems(args[len(args)-1].Shape[0], int64(item/8+1), e.Pos); err != nil {
		return nil, err
	}
	cells := cellsOf(args[len(args)-1], 1)
	items := make([]Expr, len(cells))
	lits := make([]Lit, len(cells)) // valueTerm's literals, in one block
	for i := range cells {
		x := &cells[i]
		if x.Len() == 0 && x.Kind >= KFunc {
			items[i] = valueTerm(e.Pos, x, c.Types[0])
			continue
		}
		lits[i] = Lit{Pos: e.Pos, V: x}
		items[i] = &lits[i]
	}
	var init Expr
	if f.Prim.Fold.init {
		init = e.Args[1]
	}
	rep := func(x Expr) Expr {
		if len(sh.pad) == 0 {
			return x
		}
		cell := Dims(sh.acc[len(sh.pad):]...)
		r := &IApp{Pos: e.Pos, Fn: &Prim{Pos: e.Pos, Def: Basis["replicate"]}, Args: []Index{ShapeIndex(Dims(sh.pad...)), ShapeIndex(cell)}}
		return &App{Pos: e.Pos, Fn: &TApp{Pos: e.Pos, Fn: r, Args: []Type{sh.accElem}}, Args: []Expr{x}, Type: accType}
	}
	if x, ok := unfoldChain(e, f.Prim.Fold, accType, op, init, items, rep); ok {
		return x, nil
	}
	// The applications and their argument pairs, one per item, are
	// allocated in blocks.
	apps := make([]App, 0, len(items))
	pairs := make([][2]Expr, 0, len(items))
	apply := func(g, a, b Expr) (Expr, error) {
		if len(apps) == cap(apps) {
			return &App{Pos: e.Pos, Fn: g, Args: []Expr{a, b}, Type: accType}, nil
		}
		pairs = append(pairs, [2]Expr{a, b})
		apps = append(apps, App{Pos: e.Pos, Fn: g, Args: pairs[len(pairs)-1][:], Type: accType})
		return &apps[len(apps)-1], nil
	}
	stack := func(xs []Expr) Expr {
		t := &Arr{Elem: sh.accElem, Shape: Dims(int64(len(xs))).Append(accType.Shape)}
		return &Frame{Pos: e.Pos, Dims: []int64{int64(len(xs))}, Elems: xs, Cell: accType, Type: t}
	}
	return RunFold(f.Prim.Fold, f.Prim.Name, op, init, items, apply, rep, stack, c)
}

// unfoldChain unfolds a trace over at least one application into a
// chain of links (foldchain.go: the plan both dialects share; chain.go:
// its typed terms, made a link at a time). The first accumulator, when it
// is a term still to reduce (replicate's), is bound by a λ around the
// chain. (The chain's append is its own copy of the primitive, whose δ
// grows the trace in place rather than copying it, O(1) amortised where
// append's copy was O(k) at the k-th item: machine_trace.go.) It reports
// false for the other folds and for a trace with no application, which
// unfold leaves to RunFold.
func unfoldChain(e *App, plan *FoldPlan, accType *Arr, op, init Expr, items []Expr, rep func(Expr) Expr) (Expr, bool) {
	terms := &chainTerms{pos: e.Pos, accType: accType, op: op, appendDef: traceAppend(),
		acc: &Var{Pos: e.Pos, Name: ChainAcc}, accs: &Var{Pos: e.Pos, Name: ChainAccs}}
	p, ok := PlanChain[Expr](plan, init, items, rep, terms)
	if !ok {
		return nil, false
	}
	terms.total = terms.traceType(p.Total())
	a0 := p.A0
	if !IsValue(a0) {
		p.A0 = terms.acc
	}
	c := &chain{plan: p, pos: e.Pos}
	body := c.link(1)
	if !IsValue(a0) {
		lam := &Lam{Pos: e.Pos, Params: []Param{{Name: ChainAcc, Type: accType}}, Body: body, Ret: terms.total}
		body = &App{Pos: e.Pos, Fn: lam, Args: []Expr{a0}, Type: terms.total}
	}
	return body, true
}

// stepMap is the MAP rule: a MAP whose arguments are values is the
// application of the λ of its parameters to them, whose frame is the
// MAP's (every argument has exactly it), so Fig 6's map and β take over.
// A MAP with no arguments has no frame to lift over: over an empty frame
// it is the empty array of its type, without running its body; else it
// is its body replicated.
func stepMap(e *Map) (Expr, string, error) {
	frame, _ := e.Frame.Const()
	if len(e.Params) > 0 {
		ret := &Arr{Elem: e.Type.Elem, Shape: e.Type.Shape[len(e.Frame):]}
		lam := &Lam{Pos: e.Pos, Params: e.Params, Body: e.Body, Ret: ret}
		return &App{Pos: e.Pos, Fn: lam, Args: e.Args, Type: e.Type}, RuleMAP.Name, nil
	}
	if Product(frame) == 0 {
		return emptyOf(e.Pos, e.Type), RuleMAP.Name, nil
	}
	if len(frame) == 0 {
		return e.Body, RuleMAP.Name, nil
	}
	return &Rep{Pos: e.Pos, Frame: e.Frame, E: e.Body, Type: e.Type}, RuleMAP.Name, nil
}

// substExpr substitutes values for term variables and closed types and
// indices for type and index variables, in terms and in their type
// annotations (Fig 6 keeps the annotations; Tβ and Iβ substitute in both).
// What is substituted is closed, so no capture can happen; binders shadow.
func substExpr(e Expr, vals map[string]Expr, ts TypeSubst) Expr {
	if len(vals) == 0 && len(ts.Types) == 0 && len(ts.Indices) == 0 {
		return e
	}
	ty := func(t Type) Type {
		if t == nil {
			return nil
		}
		return ts.Type(t)
	}
	arr := func(t *Arr) *Arr {
		if t == nil {
			return nil
		}
		return ts.Type(t).(*Arr)
	}
	switch e := forced(e).(type) {
	case *Var:
		if v, ok := vals[e.Name]; ok {
			return v
		}
		return e
	case *Lit, *Prim, *Reify:
		if r, ok := e.(*Reify); ok {
			return &Reify{Pos: r.Pos, Index: ts.Indices.Index(r.Index)}
		}
		return e
	case *Frame:
		n := &Frame{Pos: e.Pos, Dims: e.Dims, Cell: ty(e.Cell), Type: arr(e.Type)}
		for _, el := range e.Elems {
			n.Elems = append(n.Elems, substExpr(el, vals, ts))
		}
		return n
	case *Lam:
		inner := vals
		n := &Lam{Pos: e.Pos, Ret: arr(e.Ret)}
		for _, p := range e.Params {
			if _, ok := inner[p.Name]; ok {
				inner = without(inner, p.Name)
			}
			n.Params = append(n.Params, Param{Name: p.Name, Type: ty(p.Type)})
		}
		n.Body = substExpr(e.Body, inner, ts)
		return n
	case *TLam:
		return &TLam{Pos: e.Pos, Vars: e.Vars, Body: substExpr(e.Body, vals, TypeSubst{Types: withoutTypes(ts.Types, e.Vars), Indices: ts.Indices})}
	case *ILam:
		return &ILam{Pos: e.Pos, Vars: e.Vars, Body: substExpr(e.Body, vals, TypeSubst{Types: ts.Types, Indices: ts.Indices.Without(e.Vars)})}
	case *App:
		n := &App{Pos: e.Pos, Fn: substExpr(e.Fn, vals, ts), Type: arr(e.Type)}
		for _, a := range e.Args {
			n.Args = append(n.Args, substExpr(a, vals, ts))
		}
		return n
	case *TApp:
		n := &TApp{Pos: e.Pos, Fn: substExpr(e.Fn, vals, ts)}
		for _, t := range e.Args {
			n.Args = append(n.Args, ty(t))
		}
		return n
	case *IApp:
		n := &IApp{Pos: e.Pos, Fn: substExpr(e.Fn, vals, ts)}
		for _, ix := range e.Args {
			n.Args = append(n.Args, ts.Indices.Index(ix))
		}
		return n
	case *Pack:
		n := &Pack{Pos: e.Pos, Body: substExpr(e.Body, vals, ts), Type: ty(e.Type).(*Sigma)}
		for _, ix := range e.Indices {
			n.Indices = append(n.Indices, ts.Indices.Index(ix))
		}
		return n
	case *Unpack:
		inner := TypeSubst{Types: ts.Types, Indices: ts.Indices.Without(e.IVars)}
		return &Unpack{Pos: e.Pos, IVars: e.IVars, X: e.X, Box: substExpr(e.Box, vals, ts), Body: substExpr(e.Body, without(vals, e.X), inner)}
	case *Let:
		return &Let{Pos: e.Pos, X: e.X, T: ty(e.T), Val: substExpr(e.Val, vals, ts), Body: substExpr(e.Body, without(vals, e.X), ts)}
	case *LiftDim:
		inner := TypeSubst{Types: ts.Types, Indices: ts.Indices.Without([]string{e.D})}
		var sig *Sigma
		if e.Type != nil {
			sig = ty(e.Type).(*Sigma)
		}
		return &LiftDim{Pos: e.Pos, D: e.D, N: substExpr(e.N, vals, ts), Body: substExpr(e.Body, vals, inner), Type: sig}
	case *Reshape:
		return &Reshape{Pos: e.Pos, Shape: ts.Indices.Shape(e.Shape), E: substExpr(e.E, vals, ts), Type: arr(e.Type)}
	case *Map:
		// The arguments are outside the parameters' scope, the body inside.
		n := &Map{Pos: e.Pos, Frame: ts.Indices.Shape(e.Frame), Type: arr(e.Type)}
		inner := vals
		for i, p := range e.Params {
			n.Params = append(n.Params, Param{Name: p.Name, Type: ty(p.Type)})
			n.Args = append(n.Args, substExpr(e.Args[i], vals, ts))
			inner = without(inner, p.Name)
		}
		n.Body = substExpr(e.Body, inner, ts)
		return n
	case *Rep:
		return &Rep{Pos: e.Pos, Frame: ts.Indices.Shape(e.Frame), E: substExpr(e.E, vals, ts), Type: arr(e.Type)}
	case *Case:
		n := &Case{Pos: e.Pos, Tag: substExpr(e.Tag, vals, ts), Type: arr(e.Type)}
		for _, a := range e.Alts {
			n.Alts = append(n.Alts, substExpr(a, vals, ts))
		}
		return n
	}
	return e
}

func without(m map[string]Expr, x string) map[string]Expr {
	if _, ok := m[x]; !ok {
		return m
	}
	out := map[string]Expr{}
	for k, v := range m {
		if k != x {
			out[k] = v
		}
	}
	return out
}
