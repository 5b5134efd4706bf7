package ir

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Inline is the stage of §4.4 of "Remora Compiler — A Master's Project": it inlines
// every application of a λ and every type and index application of a Tλ
// or Iλ, so that the program it returns is monomorphic and first order:
//
//   - no TLam or ILam, and no TApp or IApp except around a primitive
//     (its instantiation, e.g. reduce-init{int | 3 [] []});
//   - every App's function is a primitive, possibly instantiated;
//   - no variable or MAP parameter has a function type: function-valued
//     bindings disappear;
//   - a λ appears only as the operator argument of a primitive of the
//     reduce, scan and fold family, closed over its free variables, which
//     are ordinary (array) variables;
//   - no type variable remains; index variables remain only where unbox
//     or lift binds them.
//
// The pass walks the tree with an environment that maps each variable to
// what it stands for at compile time: an ordinary variable of the output
// (every binder gets a name used nowhere else in the output, so that a
// body inlined far from where its λ was written cannot capture or be
// captured), or a function — a closure of a λ, Tλ, Iλ or an instantiated
// primitive over the environment it was written in. This is the paper's
// "function set" of one entry, kept with its environment. At an
// application whose function is a λ, the arguments are bound by a MAP
// over the empty frame (a let) around the λ's body, inlined in turn under
// the closure's environment; at a type or index application of a Tλ or
// Iλ, the body is inlined with the type or index variables bound to the
// (closed) arguments. Remora has no recursion, so this terminates.
//
// A function-valued term that does work before it yields its function
// (((fn ([x int]) (fn ([y int]) (+ x y))) 1), whose result captures x)
// gives the function together with a prelude: the bindings its closure
// captures, which the place the function is used puts around itself (a
// let-bound function's prelude goes around the let, evaluated once,
// where the source evaluated it).
//
// An array of functions (a MAP parameter of function type over a
// non-empty frame: a REP or replicate of a λ, a frame [f f], or a MAP
// whose body yields a function; or a parameter whose cells are arrays of
// functions) compiles to one function whose captured values may differ
// position by position: they become arrays over the frame (the closures'
// environments are defunctionalised), which the MAP that applies the
// functions maps over with its other arguments. So ((curry-add [1 2])
// [20 30]) compiles, with the captured x the array [1 2]. An array of
// distinct functions, such as ([+ -] 10 3) — MIMD parallelism, which the
// paper refuses — is defunctionalised too (inline_mimd.go): its cells
// carry the index of their function, an int array over the frame, and
// its application is a CASE on that index whose alternatives are the
// functions' bodies, inlined; (reduce [+ *] …) likewise gets the
// operator λ whose body is that CASE. Every other use of functions that
// is not first order is refused: a function as a program's result or in a box, an array of
// functions as a primitive's data (head, index, reverse, … of one) or
// computed by one (reduce over functions, if choosing a function at run
// time), and an array of functions made in the cells of a MAP that differ
// in their types (they depend on an index unboxed in each cell: a ragged
// array). An empty array of functions has no function to inline; the MAP
// that applies it runs for no cell and is the empty array of its type.
//
// The value restriction of the paper (and of ML) holds: a binding of
// polymorphic type (a Forall or Pi) must be bound to a syntactic value.
//
// p must be explicitized (Explicitize): every application's arguments are
// exactly its function's cells. Inline checks a copy of p first (for its
// annotations) and returns new terms; p is not changed. The result is
// checked again by the caller.
func Inline(p *remora.Program) (*remora.Program, error) {
	q := &remora.Program{File: p.File, Exprs: append([]remora.Expr{}, p.Exprs...)}
	if _, err := remora.Check(q, nil); err != nil {
		return nil, err
	}
	in := &inliner{taken: map[string]bool{}, reserved: map[string]bool{}, free: map[remora.Expr][]string{}, names: map[remora.Expr][]string{}}
	for _, e := range q.Exprs {
		inlReserveNames(e, in.reserved)
	}
	out := &remora.Program{File: p.File, Types: q.Types, Source: p.Source, Open: p.Open, Rational: p.Rational}
	for _, e := range q.Exprs {
		ne, err := in.top(e)
		if err != nil {
			return nil, err
		}
		out.Exprs = append(out.Exprs, ne)
	}
	return out, nil
}

// inlineRule names the pass in its errors (the stage of §4.4).
const inlineRule = "Inline"

// inlineErr refuses a program Inline cannot make first order.
func inlineErr(pos semantics.Pos, format string, args ...any) {
	panic(semantics.Errorf(pos, semantics.TypeError, inlineRule, format, args...))
}

type inliner struct {
	taken    map[string]bool          // names bound in the output so far
	reserved map[string]bool          // every name the input uses
	free     map[remora.Expr][]string // a closure's term's free term variables
	names    map[remora.Expr][]string // the type and index variables a term's annotations mention
	nfresh   map[string]int           // the last number fresh tried per base name
}

func (in *inliner) top(e remora.Expr) (ne remora.Expr, err error) {
	defer semantics.Catch(&err)
	r := in.inline(e, &inlEnv{})
	if r.fn != nil {
		// Point at the expression, not at the definitions (lets) around it.
		for m, ok := e.(*remora.Map); ok && len(m.Frame) == 0; m, ok = e.(*remora.Map) {
			e = m.Body
		}
		inlineErr(e.At(), "the result is a function (%s): a compiled program's results are arrays of numbers, booleans, characters or boxes", remora.Short(e))
	}
	return r.e, nil
}

// fresh is the output name of a binder of x: x itself the first time,
// else x%k with a k no other name of the input or output has. Since every
// output binder has its own name, no substitution or inlined body can
// capture a variable.
func (in *inliner) fresh(x string) string {
	if !in.taken[x] {
		in.taken[x] = true
		return x
	}
	base, _, _ := strings.Cut(x, "%")
	if in.nfresh == nil {
		in.nfresh = map[string]int{}
	}
	for k := in.nfresh[base] + 1; ; k++ {
		c := fmt.Sprintf("%s%%%d", base, k)
		if !in.taken[c] && !in.reserved[c] {
			in.taken[c] = true
			in.nfresh[base] = k
			return c
		}
	}
}

// inlBinding is what a term variable stands for: an ordinary variable of the
// output, of cell type cell, or a function (an array of one function, when
// the variable's cells are arrays of functions). In a closure's
// environment an ordinary binding may be lifted: its output variable holds
// one cell per position of the frame of the array of functions the
// closure stands for, followed by the frames of the function variables
// through which the closure reaches it (transform's path).
type inlBinding struct {
	out    string
	cell   *remora.Arr
	lifted bool
	fn     *inlClosure
	frame  remora.Shape // a function binding's: it is an array of fn over frame
}

// inlClosure is a function known at compile time: a λ, Tλ or Iλ of the input
// with the environment it was written in, or a primitive with the type
// and index arguments it has been instantiated with so far.
type inlClosure struct {
	term remora.Expr // *Lam, *TLam or *ILam; nil for a primitive
	none bool        // the closure of an empty array of functions: no function
	// alts and tag make a sum (inline_mimd.go): an array of distinct
	// functions, defunctionalised.
	alts    []*inlClosure
	tag     *inlBinding
	prim    *remora.Prim
	types   []remora.Type
	indices []remora.Index
	env     *inlEnv
}

// inlEnv is the environment: term variables, and the substitution of the
// type variables (by closed atom types) and index variables (by indices
// of the output) in scope.
type inlEnv struct {
	vars *inlVars
	ts   remora.TypeSubst
}

type inlVars struct {
	next *inlVars
	name string
	b    *inlBinding
}

func (e *inlEnv) bind(x string, b *inlBinding) *inlEnv {
	return &inlEnv{vars: &inlVars{next: e.vars, name: x, b: b}, ts: e.ts}
}

func (e *inlEnv) lookup(x string) *inlBinding {
	for v := e.vars; v != nil; v = v.next {
		if v.name == x {
			return v.b
		}
	}
	return nil
}

func (e *inlEnv) withTypes(xs []string, ts []remora.Type) *inlEnv {
	m := map[string]remora.Type{}
	for k, v := range e.ts.Types {
		m[k] = v
	}
	for i, x := range xs {
		m[x] = ts[i]
	}
	return &inlEnv{vars: e.vars, ts: remora.TypeSubst{Types: m, Indices: e.ts.Indices}}
}

func (e *inlEnv) withIndices(xs []string, is []remora.Index) *inlEnv {
	m := remora.Subst{}
	for k, v := range e.ts.Indices {
		m[k] = v
	}
	for i, x := range xs {
		m[x] = is[i]
	}
	return &inlEnv{vars: e.vars, ts: remora.TypeSubst{Types: e.ts.Types, Indices: m}}
}

func (e *inlEnv) typ(t remora.Type) remora.Type     { return remora.Canon(e.ts.Type(t)) }
func (e *inlEnv) arr(t remora.Type) *remora.Arr     { return remora.CanonArr(e.ts.Type(t)) }
func (e *inlEnv) shape(s remora.Shape) remora.Shape { return e.ts.Indices.Shape(s) }
func (e *inlEnv) index(ix remora.Index) remora.Index {
	return e.ts.Indices.Index(ix)
}

// inlWrap is one binding of a prelude, put around the term that uses the
// function: a let (a MAP over the empty frame), or an unbox.
type inlWrap struct {
	pos    semantics.Pos
	params []remora.Param
	args   []remora.Expr
	unbox  *remora.Unpack // its Body is set by around
}

func (w inlWrap) around(body remora.Expr, t *remora.Arr) remora.Expr {
	if w.unbox != nil {
		u := *w.unbox
		u.Body = body
		return &u
	}
	return &remora.Map{Pos: w.pos, Params: w.params, Args: w.args, Body: body, Type: t}
}

// inlWrapAll puts the prelude pre (outermost first) around e of type t.
func inlWrapAll(pre []inlWrap, e remora.Expr, t *remora.Arr) remora.Expr {
	for i := len(pre) - 1; i >= 0; i-- {
		e = pre[i].around(e, t)
	}
	return e
}

// inlLet is the prelude binding the parameters to the arguments, if any.
func inlLet(pos semantics.Pos, params []remora.Param, args []remora.Expr) []inlWrap {
	if len(params) == 0 {
		return nil
	}
	return []inlWrap{{pos: pos, params: params, args: args}}
}

// inlFn is a function-valued term inlined: an array of frame frame of the
// function c (whose lifted bindings vary over the frame), to be used
// inside the prelude pre.
type inlFn struct {
	pre   []inlWrap
	frame remora.Shape
	c     *inlClosure
}

// inlResult is a term inlined: an ordinary term e of type t, or a function.
type inlResult struct {
	e  remora.Expr
	t  *remora.Arr
	fn *inlFn
}

// inlPrepend puts the prelude pre around r.
func inlPrepend(pre []inlWrap, r inlResult) inlResult {
	if len(pre) == 0 {
		return r
	}
	if r.fn != nil {
		return inlResult{fn: &inlFn{pre: inlConcat(pre, r.fn.pre), frame: r.fn.frame, c: r.fn.c}}
	}
	return inlResult{e: inlWrapAll(pre, r.e, r.t), t: r.t}
}

func inlConcat(ws ...[]inlWrap) []inlWrap {
	var out []inlWrap
	for _, w := range ws {
		out = append(out, w...)
	}
	return out
}

// isFnAtom reports whether an atom type is a function's: such values are
// compiled away.
func isFnAtom(t remora.Type) bool {
	switch t.(type) {
	case *remora.Fn, *remora.Forall, *remora.Pi:
		return true
	}
	return false
}

// ordinary inlines a term that must be an ordinary array.
func (in *inliner) ordinary(e remora.Expr, env *inlEnv, what string) inlResult {
	r := in.inline(e, env)
	if r.fn != nil {
		inlineErr(e.At(), "%s is a function (%s), which cannot be compiled there", what, remora.Short(e))
	}
	return r
}

// function inlines a term that must be a function, a scalar one when
// scalar is set.
func (in *inliner) function(e remora.Expr, env *inlEnv, scalar bool) *inlFn {
	r := in.inline(e, env)
	if r.fn == nil {
		inlineErr(e.At(), "%s is not a function", remora.Short(e))
	}
	if scalar && r.fn.c.none {
		inlineErr(e.At(), "%s is an empty array of functions, applied", remora.Short(e))
	}
	if scalar && len(r.fn.frame) > 0 {
		inlineErr(e.At(), "%s is a frame %s of functions applied without a MAP over it: run Explicitize first", remora.Short(e), r.fn.frame)
	}
	return r.fn
}

func (in *inliner) inline(e remora.Expr, env *inlEnv) inlResult {
	switch e := e.(type) {
	case *remora.Lit:
		if e.V.Kind == remora.KFunc {
			inlineErr(e.Pos, "a function value %s cannot be compiled", remora.Short(e))
		}
		elem := remora.LitAtomType(e.V)
		if e.V.Kind == remora.KBox && e.V.Len() > 0 {
			elem = remora.Canon(e.V.A[0].(*remora.Box).Type)
		}
		return inlResult{e: e, t: &remora.Arr{Elem: elem, Shape: remora.Dims(e.V.Shape...)}}
	case *remora.Var:
		b := env.lookup(e.Name)
		switch {
		case b == nil:
			inlineErr(e.Pos, "unbound variable %s", e.Name)
		case b.fn != nil:
			return inlResult{fn: &inlFn{frame: b.frame, c: b.fn}}
		}
		return inlResult{e: &remora.Var{Pos: e.Pos, EndPos: e.EndPos, Name: b.out}, t: b.cell}
	case *remora.Prim:
		return inlResult{fn: &inlFn{c: &inlClosure{prim: e}}}
	case *remora.Lam, *remora.TLam, *remora.ILam:
		return inlResult{fn: &inlFn{c: &inlClosure{term: e, env: env}}}
	case *remora.Frame:
		return in.frame(e, env)
	case *remora.App:
		return in.app(e, env)
	case *remora.TApp:
		ts := make([]remora.Type, len(e.Args))
		for i, t := range e.Args {
			ts[i] = env.typ(t)
		}
		return in.instantiate(e, e.Fn, ts, nil, env)
	case *remora.IApp:
		is := make([]remora.Index, len(e.Args))
		for i, ix := range e.Args {
			is[i] = env.index(ix)
		}
		return in.instantiate(e, e.Fn, nil, is, env)
	case *remora.Pack:
		b := in.ordinary(e.Body, env, "a box's contents")
		is := make([]remora.Index, len(e.Indices))
		for i, ix := range e.Indices {
			is[i] = env.index(ix)
		}
		sig := env.typ(e.Type).(*remora.Sigma)
		return inlResult{e: &remora.Pack{Pos: e.Pos, EndPos: e.EndPos, Indices: is, Body: b.e, Type: sig}, t: &remora.Arr{Elem: sig}}
	case *remora.Unpack:
		return in.unpack(e, env)
	case *remora.LiftDim:
		n := in.ordinary(e.N, env, "a lifted dimension")
		d := in.fresh(e.D)
		b := in.ordinary(e.Body, env.withIndices([]string{e.D}, []remora.Index{remora.NatIndex(remora.NatVar(d))}), "a lift's body")
		sig := &remora.Sigma{Vars: []string{d}, Body: b.t}
		return inlResult{e: &remora.LiftDim{Pos: e.Pos, EndPos: e.EndPos, D: d, N: n.e, Body: b.e, Type: sig}, t: &remora.Arr{Elem: sig}}
	case *remora.Reify:
		ix := env.index(e.Index)
		t := &remora.Arr{Elem: remora.Int}
		if ix.IsShape {
			t = remora.ArrOf(remora.Int, int64(len(ix.S)))
		}
		return inlResult{e: &remora.Reify{Pos: e.Pos, EndPos: e.EndPos, Index: ix}, t: t}
	case *remora.Reshape:
		x := in.ordinary(e.E, env, "a reshaped array")
		sh := env.shape(e.Shape)
		t := &remora.Arr{Elem: x.t.Elem, Shape: sh}
		return inlResult{e: &remora.Reshape{Pos: e.Pos, EndPos: e.EndPos, Shape: sh, E: x.e, Type: t}, t: t}
	case *remora.Map:
		return in.mapIR(e, env)
	case *remora.Case:
		return in.caseIR(e, env)
	case *remora.Rep:
		r := in.inline(e.E, env)
		f := env.shape(e.Frame)
		if r.fn != nil {
			return inlResult{fn: in.repFn(r.fn, f, e.Pos)}
		}
		t := &remora.Arr{Elem: r.t.Elem, Shape: f.Append(r.t.Shape)}
		return inlResult{e: &remora.Rep{Pos: e.Pos, EndPos: e.EndPos, Frame: f, E: r.e, Type: t}, t: t}
	}
	inlineErr(e.At(), "unexpected term %s", remora.Short(e))
	return inlResult{}
}

// frame inlines a frame: of arrays, or of functions (frameFn).
func (in *inliner) frame(e *remora.Frame, env *inlEnv) inlResult {
	if len(e.Elems) == 0 {
		cell := env.arr(remora.CellTypeOf(e))
		if isFnAtom(cell.Elem) {
			// No function to inline: a MAP over it runs no cell (mapIR).
			return inlResult{fn: &inlFn{frame: remora.Dims(e.Dims...).Append(cell.Shape), c: &inlClosure{none: true}}}
		}
		t := &remora.Arr{Elem: cell.Elem, Shape: remora.Dims(e.Dims...).Append(cell.Shape)}
		return inlResult{e: &remora.Frame{Pos: e.Pos, EndPos: e.EndPos, Dims: e.Dims, Cell: cell, Type: t}, t: t}
	}
	rs := make([]inlResult, len(e.Elems))
	for i, el := range e.Elems {
		rs[i] = in.inline(el, env)
	}
	if rs[0].fn != nil {
		return inlResult{fn: in.frameFn(e, rs)}
	}
	n := &remora.Frame{Pos: e.Pos, EndPos: e.EndPos, Dims: e.Dims}
	if e.Cell != nil {
		n.Cell = env.typ(e.Cell)
	}
	for _, r := range rs {
		n.Elems = append(n.Elems, r.e)
	}
	cell := rs[0].t
	n.Type = &remora.Arr{Elem: cell.Elem, Shape: remora.Dims(e.Dims...).Append(cell.Shape)}
	return inlResult{e: n, t: n.Type}
}

// app inlines an application, whose arguments are its function's cells.
func (in *inliner) app(e *remora.App, env *inlEnv) inlResult {
	f := in.function(e.Fn, env, true)
	c := f.c
	if c.alts != nil {
		return in.appSum(e, env, f)
	}
	if c.prim != nil {
		return in.primApp(e, env, c, f.pre)
	}
	lam, ok := c.term.(*remora.Lam)
	if !ok {
		inlineErr(e.Pos, "%s is applied to terms before it is instantiated", remora.Short(c.term))
	}
	pre := f.pre
	benv := c.env
	var params []remora.Param
	var args []remora.Expr
	for i, p := range lam.Params {
		pt := c.env.arr(p.Type)
		if isFnAtom(pt.Elem) {
			a := in.function(e.Args[i], env, false)
			if len(a.frame) != len(pt.Shape) {
				inlineErr(e.Args[i].At(), "the argument is a frame %s of functions, the parameter's cells are %s: run Explicitize first", a.frame, remora.TypeString(pt))
			}
			in.valueRestriction(pt, e.Args[i])
			pre = inlConcat(pre, a.pre)
			benv = benv.bind(p.Name, &inlBinding{fn: a.c, frame: a.frame})
			continue
		}
		a := in.ordinary(e.Args[i], env, "an argument")
		in.exactCell(e.Args[i], a.t, pt)
		n := in.fresh(p.Name)
		params = append(params, remora.Param{Name: n, Type: pt})
		args = append(args, a.e)
		benv = benv.bind(p.Name, &inlBinding{out: n, cell: pt})
	}
	return inlPrepend(inlConcat(pre, inlLet(e.Pos, params, args)), in.inline(lam.Body, benv))
}

// exactCell refuses an argument that is not exactly its parameter's cell:
// the lifting is Explicitize's to make explicit.
func (in *inliner) exactCell(a remora.Expr, at, cell *remora.Arr) {
	if !remora.Equal(at, cell) {
		inlineErr(a.At(), "the argument has type %s, the parameter's cell type is %s: run Explicitize first", remora.TypeString(at), remora.TypeString(cell))
	}
}

// valueRestriction is the paper's value restriction: a polymorphic
// binding (of a Forall or Pi type) must be a syntactic value.
func (in *inliner) valueRestriction(t *remora.Arr, a remora.Expr) {
	switch t.Elem.(type) {
	case *remora.Forall, *remora.Pi:
		if !isSyntacticValue(a) {
			inlineErr(a.At(), "value restriction: %s is bound at the polymorphic type %s but is not a syntactic value (a λ, t-fn, i-fn, primitive, variable, or an instantiation of one)", remora.Short(a), remora.TypeString(t))
		}
	}
}

// isSyntacticValue reports whether e is a value without evaluating: an
// abstraction, a primitive, a variable, a literal, a type or index
// application of one, or a frame or REP of values.
func isSyntacticValue(e remora.Expr) bool {
	switch e := e.(type) {
	case *remora.Lit, *remora.Var, *remora.Prim, *remora.Lam, *remora.TLam, *remora.ILam:
		return true
	case *remora.TApp:
		return isSyntacticValue(e.Fn)
	case *remora.IApp:
		return isSyntacticValue(e.Fn)
	case *remora.Rep:
		return isSyntacticValue(e.E)
	case *remora.Frame:
		for _, el := range e.Elems {
			if !isSyntacticValue(el) {
				return false
			}
		}
		return true
	}
	return false
}

// primApp inlines an application of a primitive: the arguments are
// inlined in place; a function argument (the operator of the reduce, scan
// and fold family) becomes a primitive or a closed λ.
func (in *inliner) primApp(e *remora.App, env *inlEnv, c *inlClosure, pre []inlWrap) inlResult {
	ft, ok := remora.Instantiate(c.prim.Def.Type, c.indices, c.types).(*remora.Fn)
	if !ok {
		inlineErr(e.Pos, "%s is applied to terms before it is instantiated", c.prim.Def.Name)
	}
	def := c.prim.Def
	// isOp reports whether argument i is the operator of the reduce, scan
	// and fold family: one function, which stays a function.
	isOp := func(i int) bool { return i == 0 && def.Fold != nil }
	withFns := isFnAtom(remora.CanonArr(ft.Ret).Elem)
	for i, pt := range ft.Params {
		withFns = withFns || !isOp(i) && isFnAtom(remora.CanonArr(pt).Elem)
	}
	if withFns {
		switch def.Name {
		case "replicate":
			// replicate{τ | @s @c} is (REP [@s] ·): of an array of one
			// function, the same function over the larger frame.
			f := in.function(e.Args[0], env, false)
			return inlPrepend(pre, inlResult{fn: in.repFn(f, c.indices[0].S, e.Pos)})
		case "length":
			// length{τ | d @c} is d, whatever the items.
			f := in.function(e.Args[0], env, false)
			return inlResult{e: inlWrapAll(inlConcat(pre, f.pre), &remora.Reify{Pos: e.Pos, EndPos: e.EndPos, Index: c.indices[0]}, &remora.Arr{Elem: remora.Int}), t: &remora.Arr{Elem: remora.Int}}
		}
		what := "takes arrays of functions as data"
		switch {
		case def.Name == "if":
			what = "chooses a function at run time"
		case def.Fold != nil:
			what = "computes with functions as its items or accumulators"
		}
		inlineErr(e.Pos, "%s %s, which cannot be compiled (functions are inlined, so each must be known where it is applied)", remora.Short(in.primTerm(c)), what)
	}
	var args []remora.Expr
	for i, a := range e.Args {
		pt := remora.CanonArr(ft.Params[i])
		if isOp(i) {
			f := in.function(a, env, true)
			pre = inlConcat(pre, f.pre)
			args = append(args, in.operator(f.c, a.At()))
			continue
		}
		r := in.ordinary(a, env, "an argument")
		in.exactCell(a, r.t, pt)
		args = append(args, r.e)
	}
	t := remora.CanonArr(ft.Ret)
	if e.Type != nil {
		t = env.arr(e.Type)
	}
	return inlResult{e: inlWrapAll(pre, &remora.App{Pos: e.Pos, EndPos: e.EndPos, Fn: in.primTerm(c), Args: args, Type: t}, t), t: t}
}

// operator is a primitive's function argument: the primitive, or the λ
// with its body inlined, whose free variables are ordinary variables.
func (in *inliner) operator(c *inlClosure, pos semantics.Pos) remora.Expr {
	if c.alts != nil {
		return in.operatorSum(c, pos)
	}
	if c.prim != nil {
		return in.primTerm(c)
	}
	lam, ok := c.term.(*remora.Lam)
	if !ok {
		inlineErr(pos, "the operator %s is not instantiated", remora.Short(c.term))
	}
	benv := c.env
	n := &remora.Lam{Pos: lam.Pos, EndPos: lam.EndPos}
	for _, p := range lam.Params {
		pt := c.env.arr(p.Type)
		if isFnAtom(pt.Elem) {
			inlineErr(pos, "the operator %s takes functions, which cannot be compiled", remora.Short(lam))
		}
		x := in.fresh(p.Name)
		n.Params = append(n.Params, remora.Param{Name: x, Type: pt})
		benv = benv.bind(p.Name, &inlBinding{out: x, cell: pt})
	}
	b := in.ordinary(lam.Body, benv, "the operator's result")
	n.Body, n.Ret = b.e, b.t
	return n
}

// primTerm is an instantiated primitive as a term: f{τ … | ι …}.
func (in *inliner) primTerm(c *inlClosure) remora.Expr {
	p := c.prim
	var f remora.Expr = &remora.Prim{Pos: p.Pos, EndPos: p.EndPos, Def: p.Def}
	if len(c.indices) > 0 {
		f = &remora.IApp{Pos: p.Pos, Fn: f, Args: c.indices}
	}
	if len(c.types) > 0 {
		f = &remora.TApp{Pos: p.Pos, Fn: f, Args: c.types}
	}
	return f
}

// instantiate inlines a type application (ts) or an index application
// (is) of fn: a Tλ's or Iλ's body is inlined with its variables bound; a
// primitive keeps the arguments, and is an array when they leave no
// function (iota{ | [3]}).
func (in *inliner) instantiate(e, fn remora.Expr, ts []remora.Type, is []remora.Index, env *inlEnv) inlResult {
	f := in.function(fn, env, true)
	c := f.c
	if c.alts != nil {
		inlineErr(e.At(), "%s is instantiated where it is applied to types or indices, which cannot be compiled", in.describeSum(c))
	}
	var r inlResult
	switch t := c.term.(type) {
	case nil:
		nc := &inlClosure{prim: c.prim, types: append(append([]remora.Type{}, c.types...), ts...), indices: append(append([]remora.Index{}, c.indices...), is...)}
		it := remora.Instantiate(c.prim.Def.Type, nc.indices, nc.types)
		if isFnAtom(it) {
			r = inlResult{fn: &inlFn{c: nc}}
		} else {
			at := remora.CanonArr(it)
			r = inlResult{e: in.primTerm(nc), t: at}
		}
	case *remora.TLam:
		if ts == nil {
			inlineErr(e.At(), "%s is a type abstraction, given indices", remora.Short(t))
		}
		r = in.inline(t.Body, c.env.withTypes(t.Vars, ts))
	case *remora.ILam:
		if is == nil {
			inlineErr(e.At(), "%s is an index abstraction, given types", remora.Short(t))
		}
		r = in.inline(t.Body, c.env.withIndices(t.Vars, is))
	default:
		inlineErr(e.At(), "%s cannot be instantiated", remora.Short(c.term))
	}
	return inlPrepend(f.pre, r)
}

// unpack inlines an unbox; one whose body is a function is a prelude
// binding of that function.
func (in *inliner) unpack(e *remora.Unpack, env *inlEnv) inlResult {
	box := in.ordinary(e.Box, env, "a box")
	sig, ok := box.t.Elem.(*remora.Sigma)
	if !ok || len(box.t.Shape) > 0 || len(sig.Vars) != len(e.IVars) {
		inlineErr(e.Pos, "unbox of %s, of type %s, which is not one box", remora.Short(e.Box), remora.TypeString(box.t))
	}
	ivars := make([]string, len(e.IVars))
	is := make([]remora.Index, len(e.IVars))
	sub := remora.Subst{}
	for i, v := range e.IVars {
		ivars[i] = in.fresh(v)
		if remora.IsShapeVar(v) {
			is[i] = remora.ShapeIndex(remora.ShapeVar(ivars[i]))
		} else {
			is[i] = remora.NatIndex(remora.NatVar(ivars[i]))
		}
		sub[sig.Vars[i]] = is[i]
	}
	xt := remora.CanonArr(remora.TypeSubst{Indices: sub}.Type(sig.Body))
	x := in.fresh(e.X)
	benv := env.withIndices(e.IVars, is).bind(e.X, &inlBinding{out: x, cell: xt})
	u := &remora.Unpack{Pos: e.Pos, EndPos: e.EndPos, IVars: ivars, X: x, Box: box.e}
	body := in.inline(e.Body, benv)
	if body.fn != nil {
		return inlPrepend([]inlWrap{{pos: e.Pos, unbox: u}}, body)
	}
	u.Body = body.e
	return inlResult{e: u, t: body.t}
}

// mapIR inlines a MAP. A parameter of function type is bound to the
// function of its argument's cells: the values that vary over the frame
// (the closure's lifted bindings) become more parameters of the MAP. A
// MAP whose body is a function is an array of functions (mapFn).
func (in *inliner) mapIR(e *remora.Map, env *inlEnv) inlResult {
	frame := env.shape(e.Frame)
	var pre []inlWrap
	var params []remora.Param
	var args []remora.Expr
	benv := env
	noCells := false
	for i, p := range e.Params {
		pt := env.arr(p.Type)
		if isFnAtom(pt.Elem) {
			a := in.function(e.Args[i], env, false)
			in.valueRestriction(pt, e.Args[i])
			pre = inlConcat(pre, a.pre)
			if a.c.none && !emptyShape(pt.Shape) {
				// The array of functions is empty and its cells are
				// not: the MAP's frame is empty.
				noCells = true
				continue
			}
			ps, as, c := in.cells(a, pt.Shape, e.Args[i].At())
			params, args = append(params, ps...), append(args, as...)
			benv = benv.bind(p.Name, &inlBinding{fn: c, frame: pt.Shape})
			continue
		}
		a := in.ordinary(e.Args[i], env, "a MAP argument")
		n := in.fresh(p.Name)
		params = append(params, remora.Param{Name: n, Type: pt})
		args = append(args, a.e)
		benv = benv.bind(p.Name, &inlBinding{out: n, cell: pt})
	}
	if noCells {
		return in.noCells(e, env, frame, pre, params, args)
	}
	body := in.inline(e.Body, benv)
	switch {
	case body.fn == nil:
		t := &remora.Arr{Elem: body.t.Elem, Shape: frame.Append(body.t.Shape)}
		m := body.e
		if len(frame) > 0 || len(params) > 0 {
			m = &remora.Map{Pos: e.Pos, EndPos: e.EndPos, Frame: frame, Params: params, Args: args, Body: body.e, Type: t}
		}
		return inlResult{e: inlWrapAll(pre, m, t), t: t}
	case len(frame) == 0:
		return inlPrepend(inlConcat(pre, inlLet(e.Pos, params, args)), body)
	}
	return inlResult{fn: in.mapFn(e, frame, pre, params, args, body.fn)}
}

// noCells is a MAP over an empty frame one of whose arguments is an empty
// array of functions: its body, which would apply them, runs for no cell,
// and the MAP is the empty array of its type (its arguments are still
// evaluated, in a let).
func (in *inliner) noCells(e *remora.Map, env *inlEnv, frame remora.Shape, pre []inlWrap, params []remora.Param, args []remora.Expr) inlResult {
	t := env.arr(e.Type)
	fds, ok := frame.Const()
	if !ok || remora.Product(fds) != 0 {
		inlineErr(e.Pos, "an empty array of functions mapped over the frame %s, not known to be empty, cannot be compiled", frame)
	}
	var lets []remora.Param
	for _, p := range params {
		pt := p.Type.(*remora.Arr)
		lets = append(lets, remora.Param{Name: in.fresh(p.Name), Type: &remora.Arr{Elem: pt.Elem, Shape: frame.Append(pt.Shape)}})
	}
	pre = inlConcat(pre, inlLet(e.Pos, lets, args))
	if isFnAtom(t.Elem) {
		return inlResult{fn: &inlFn{pre: pre, frame: t.Shape, c: &inlClosure{none: true}}}
	}
	cell := &remora.Arr{Elem: t.Elem, Shape: t.Shape[len(frame):]}
	return inlResult{e: inlWrapAll(pre, &remora.Frame{Pos: e.Pos, EndPos: e.EndPos, Dims: fds, Cell: cell, Type: t}, t), t: t}
}

// emptyShape reports whether a shape has no positions, as far as its
// constant dimensions tell.
func emptyShape(s remora.Shape) bool {
	for _, it := range s {
		if it.Var == "" && it.Dim.IsConst() && it.Dim.Const == 0 {
			return true
		}
	}
	return false
}

// cells binds the cells of the array of functions f, used by a MAP over
// its frame, whose parameter's cells are arrays of functions over cell (a
// scalar function: cell is []): every lifted binding of its closure
// becomes a parameter of the MAP, bound to the lifted array, and the
// closure sees its cells.
func (in *inliner) cells(f *inlFn, cell remora.Shape, pos semantics.Pos) ([]remora.Param, []remora.Expr, *inlClosure) {
	var params []remora.Param
	var args []remora.Expr
	c := in.transform(f.c, nil, func(_ string, b *inlBinding, path remora.Shape) *inlBinding {
		if !b.lifted {
			return b
		}
		inner := cell.Append(path)
		n := in.fresh(b.out)
		params = append(params, remora.Param{Name: n, Type: &remora.Arr{Elem: b.cell.Elem, Shape: inner.Append(b.cell.Shape)}})
		args = append(args, &remora.Var{Pos: pos, Name: b.out})
		return &inlBinding{out: n, cell: b.cell, lifted: len(inner) > 0}
	})
	return params, args, c
}

// mapFn is a MAP over a non-empty frame whose body yields a function: an
// array of functions over the frame ++ the body's own frame. It is the
// body's function at every position, with the values it captures from
// inside the MAP (the MAP's parameters and the body's prelude) lifted: each
// is computed over the frame by a MAP of its own, bound outside. The MAP's
// arguments are bound once, outside (unless they are variables or
// literals), so that those MAPs do not compute them again. (A cell's work that no captured value depends on is not
// kept: a function does not need it, and Remora's only effect is going
// wrong, which Simplify does not keep either.)
func (in *inliner) mapFn(e *remora.Map, frame remora.Shape, pre []inlWrap, params []remora.Param, args []remora.Expr, body *inlFn) *inlFn {
	inside := map[string]bool{}
	for _, p := range params {
		inside[p.Name] = true
	}
	unboxed := map[string]bool{} // index variables a cell's unbox binds
	for _, w := range body.pre {
		if w.unbox != nil {
			inside[w.unbox.X] = true
			for _, v := range w.unbox.IVars {
				unboxed[v] = true
			}
		}
		for _, p := range w.params {
			inside[p.Name] = true
		}
	}
	if len(unboxed) > 0 {
		in.sameShapes(body.c, unboxed, e.Pos)
	}
	var outer inlWrap
	outer.pos = e.Pos
	mapArgs := make([]remora.Expr, len(args))
	for i, p := range params {
		switch a := args[i].(type) {
		case *remora.Var:
			// Nothing to compute again: use the variable itself.
			mapArgs[i] = &remora.Var{Pos: a.Pos, EndPos: a.EndPos, Name: a.Name}
			continue
		case *remora.Lit:
			mapArgs[i] = &remora.Lit{Pos: a.Pos, EndPos: a.EndPos, V: a.V}
			continue
		}
		n := in.fresh(p.Name)
		outer.params = append(outer.params, remora.Param{Name: n, Type: &remora.Arr{Elem: p.Type.(*remora.Arr).Elem, Shape: frame.Append(p.Type.(*remora.Arr).Shape)}})
		outer.args = append(outer.args, args[i])
		mapArgs[i] = &remora.Var{Pos: e.Pos, Name: n}
	}
	var lifts inlWrap
	lifts.pos = e.Pos
	c := in.transform(body.c, nil, func(_ string, b *inlBinding, path remora.Shape) *inlBinding {
		if !b.lifted && !inside[b.out] {
			return b
		}
		inner := body.frame.Append(path)
		vt := &remora.Arr{Elem: b.cell.Elem, Shape: inner.Append(b.cell.Shape)}
		if mentions(vt, unboxed) {
			inlineErr(e.Pos, "the functions made over the frame %s capture %s of type %s, whose shape is unboxed in each cell: a ragged array cannot be compiled", frame, b.out, remora.TypeString(vt))
		}
		var v remora.Expr = &remora.Var{Pos: e.Pos, Name: b.out}
		if !b.lifted && len(inner) > 0 {
			v = &remora.Rep{Pos: e.Pos, Frame: inner, E: v, Type: vt}
		}
		t := &remora.Arr{Elem: vt.Elem, Shape: frame.Append(vt.Shape)}
		m := &remora.Map{Pos: e.Pos, EndPos: e.EndPos, Frame: frame, Params: params, Args: mapArgs, Body: inlWrapAll(body.pre, v, vt), Type: t}
		n := in.fresh(b.out)
		lifts.params = append(lifts.params, remora.Param{Name: n, Type: t})
		lifts.args = append(lifts.args, m)
		return &inlBinding{out: n, cell: b.cell, lifted: true}
	})
	out := inlConcat(pre, inlLet(e.Pos, outer.params, outer.args), inlLet(e.Pos, lifts.params, lifts.args))
	return &inlFn{pre: out, frame: frame.Append(body.frame), c: c}
}

// sameShapes refuses a closure whose code depends on an index variable
// in unboxed (one its types or indices mention is bound to one): the
// functions made in each cell of a MAP would differ in their types.
func (in *inliner) sameShapes(c *inlClosure, unboxed map[string]bool, pos semantics.Pos) {
	seen := map[*inlClosure]bool{}
	var visit func(c *inlClosure)
	visit = func(c *inlClosure) {
		if c.term == nil && c.alts == nil || seen[c] {
			return
		}
		seen[c] = true
		for _, a := range c.alts {
			visit(a)
		}
		if c.alts != nil {
			return
		}
		for _, x := range in.typeNames(c.term) {
			free := map[string]bool{}
			if t, ok := c.env.ts.Types[x]; ok {
				remora.FreeIndexVars(t, free)
			}
			if ix, ok := c.env.ts.Indices[x]; ok {
				ix.FreeVars(free)
			}
			for v := range free {
				if unboxed[v] {
					inlineErr(pos, "the functions made over this frame depend on the index %s unboxed in each cell (%s), which cannot be compiled", v, remora.Short(c.term))
				}
			}
		}
		for _, x := range in.freeVars(c.term) {
			if b := c.env.lookup(x); b != nil && b.fn != nil {
				visit(b.fn)
			}
		}
	}
	visit(c)
}

// mentions reports whether t mentions an index variable of vs.
func mentions(t remora.Type, vs map[string]bool) bool {
	free := map[string]bool{}
	remora.FreeIndexVars(t, free)
	for v := range free {
		if vs[v] {
			return true
		}
	}
	return false
}

// repFn is (REP [F] f) of an array of functions: the same function over
// the larger frame, its lifted values replicated.
func (in *inliner) repFn(f *inlFn, frame remora.Shape, pos semantics.Pos) *inlFn {
	if len(frame) == 0 {
		return f
	}
	var lets inlWrap
	lets.pos = pos
	c := in.transform(f.c, nil, func(_ string, b *inlBinding, path remora.Shape) *inlBinding {
		if !b.lifted {
			return b
		}
		t := &remora.Arr{Elem: b.cell.Elem, Shape: frame.Append(f.frame).Append(path).Append(b.cell.Shape)}
		n := in.fresh(b.out)
		lets.params = append(lets.params, remora.Param{Name: n, Type: t})
		lets.args = append(lets.args, &remora.Rep{Pos: pos, Frame: frame, E: &remora.Var{Pos: pos, Name: b.out}, Type: t})
		return &inlBinding{out: n, cell: b.cell, lifted: true}
	})
	return &inlFn{pre: inlConcat(f.pre, inlLet(pos, lets.params, lets.args)), frame: frame.Append(f.frame), c: c}
}

// frameFn is a frame of functions: one array of functions, whose
// elements' captured values may differ and become frames of those
// values; distinct functions (MIMD) make a sum (mergeDistinct).
func (in *inliner) frameFn(e *remora.Frame, rs []inlResult) *inlFn {
	if len(e.Dims) == 0 {
		return rs[0].fn
	}
	var pre []inlWrap
	cs := make([]*inlClosure, len(rs))
	none := false
	for i, r := range rs {
		pre = inlConcat(pre, r.fn.pre)
		cs[i] = r.fn.c
		none = none || r.fn.c.none
	}
	inner := rs[0].fn.frame
	if none {
		// One element is empty, so all are (they have one shape).
		return &inlFn{pre: pre, frame: remora.Dims(e.Dims...).Append(inner), c: cs[0]}
	}
	var lets inlWrap
	lets.pos = e.Pos
	c := in.mergeDistinct(e, cs, inner, &lets)
	return &inlFn{pre: inlConcat(pre, inlLet(e.Pos, lets.params, lets.args)), frame: remora.Dims(e.Dims...).Append(inner), c: c}
}

// merge makes one closure of the closures cs of a frame's elements (each
// an array of functions of frame inner): their code must be the same;
// the ordinary values they capture become frames of those values, bound
// in lets.
func (in *inliner) merge(e *remora.Frame, cs []*inlClosure, inner remora.Shape, lets *inlWrap) *inlClosure {
	c0 := cs[0]
	for _, c := range cs[1:] {
		if !in.sameCode(c0, c) {
			inlineErr(e.Pos, "internal: merging distinct functions %s and %s", in.describe(c0), in.describe(c))
		}
	}
	if c0.alts != nil {
		return in.mergeSums(e, cs, inner, lets)
	}
	if c0.term == nil {
		return c0
	}
	env := c0.env
	for _, x := range in.freeVars(c0.term) {
		bs := make([]*inlBinding, len(cs))
		for i, c := range cs {
			bs[i] = c.env.lookup(x)
		}
		if bs[0] == nil {
			continue
		}
		if bs[0].fn != nil {
			fs := make([]*inlClosure, len(bs))
			for i, b := range bs {
				fs[i] = b.fn
			}
			if m := in.merge(e, fs, inner.Append(bs[0].frame), lets); m != bs[0].fn {
				env = env.bind(x, &inlBinding{fn: m, frame: bs[0].frame})
			}
			continue
		}
		same := true
		for _, b := range bs {
			same = same && !b.lifted && b.out == bs[0].out
		}
		if same {
			continue
		}
		cell := bs[0].cell
		vt := &remora.Arr{Elem: cell.Elem, Shape: inner.Append(cell.Shape)}
		f := &remora.Frame{Pos: e.Pos, Dims: e.Dims, Type: &remora.Arr{Elem: cell.Elem, Shape: remora.Dims(e.Dims...).Append(vt.Shape)}}
		for _, b := range bs {
			var v remora.Expr = &remora.Var{Pos: e.Pos, Name: b.out}
			if !b.lifted && len(inner) > 0 {
				v = &remora.Rep{Pos: e.Pos, Frame: inner, E: v, Type: vt}
			}
			f.Elems = append(f.Elems, v)
		}
		n := in.fresh(bs[0].out)
		lets.params = append(lets.params, remora.Param{Name: n, Type: f.Type})
		lets.args = append(lets.args, f)
		env = env.bind(x, &inlBinding{out: n, cell: cell, lifted: true})
	}
	if env == c0.env {
		return c0
	}
	return &inlClosure{term: c0.term, env: env}
}

// sameCode reports whether two closures run the same code: the same
// primitive at the same instantiation, or the same abstraction (the same
// term, or one printed alike) with the same types and indices for the
// variables its annotations mention, and the same code for the functions
// it captures. The ordinary values they capture may differ.
func (in *inliner) sameCode(a, b *inlClosure) bool {
	if a == b {
		return true
	}
	if a.none || b.none {
		return a.none && b.none
	}
	if a.alts != nil || b.alts != nil {
		return sameAlts(in, a, b)
	}
	if (a.term == nil) != (b.term == nil) {
		return false
	}
	if a.term == nil {
		if a.prim.Def != b.prim.Def || len(a.types) != len(b.types) || len(a.indices) != len(b.indices) {
			return false
		}
		for i := range a.types {
			if !remora.Equal(a.types[i], b.types[i]) {
				return false
			}
		}
		for i := range a.indices {
			if a.indices[i].String() != b.indices[i].String() {
				return false
			}
		}
		return true
	}
	if a.term != b.term && remora.ExprString(a.term) != remora.ExprString(b.term) {
		return false
	}
	for _, x := range in.typeNames(a.term) {
		ta, oka := a.env.ts.Types[x]
		tb, okb := b.env.ts.Types[x]
		if oka != okb || oka && !remora.Equal(ta, tb) {
			return false
		}
		ia, oka := a.env.ts.Indices[x]
		ib, okb := b.env.ts.Indices[x]
		if oka != okb || oka && ia.String() != ib.String() {
			return false
		}
	}
	for _, x := range in.freeVars(a.term) {
		ba, bb := a.env.lookup(x), b.env.lookup(x)
		if (ba == nil) != (bb == nil) || ba == nil {
			continue
		}
		if (ba.fn == nil) != (bb.fn == nil) || ba.fn != nil && !in.sameCode(ba.fn, bb.fn) {
			return false
		}
	}
	return true
}

// describe names a closure's code for an error.
func (in *inliner) describe(c *inlClosure) string {
	if c.none {
		return "an empty array of functions"
	}
	if c.alts != nil {
		return in.describeSum(c)
	}
	if c.term == nil {
		return remora.ExprString(in.primTerm(c))
	}
	return remora.Short(c.term)
}

// transform rebuilds the closure c with every ordinary binding b it
// captures replaced by f(x, b, path), through the functions it captures
// too: path is the frames of the function variables between c and b.
// Each binding met on several paths is replaced once per path, and each
// closure rebuilt once per path.
func (in *inliner) transform(c *inlClosure, path remora.Shape, f func(x string, b *inlBinding, path remora.Shape) *inlBinding) *inlClosure {
	type key struct {
		c    *inlClosure
		b    *inlBinding
		path string
	}
	memo := map[key]*inlClosure{}
	seen := map[key]*inlBinding{}
	var walk func(c *inlClosure, path remora.Shape) *inlClosure
	// binding is f's replacement of the ordinary binding b, once per path.
	binding := func(x string, b *inlBinding, path remora.Shape) *inlBinding {
		bk := key{b: b, path: path.String()}
		r, ok := seen[bk]
		if !ok {
			r = f(x, b, path)
			seen[bk] = r
		}
		return r
	}
	walk = func(c *inlClosure, path remora.Shape) *inlClosure {
		if c.term == nil && c.alts == nil {
			return c
		}
		k := key{c: c, path: path.String()}
		if m, ok := memo[k]; ok {
			return m
		}
		if c.alts != nil {
			// A sum: its tag is a binding like the values captured,
			// and its functions are walked on the same path.
			out := &inlClosure{alts: make([]*inlClosure, len(c.alts)), tag: binding("", c.tag, path)}
			changed := out.tag != c.tag
			for i, a := range c.alts {
				out.alts[i] = walk(a, path)
				changed = changed || out.alts[i] != a
			}
			if !changed {
				out = c
			}
			memo[k] = out
			return out
		}
		env := c.env
		for _, x := range in.freeVars(c.term) {
			b := c.env.lookup(x)
			if b == nil {
				continue
			}
			var nb *inlBinding
			if b.fn != nil {
				if nc := walk(b.fn, path.Append(b.frame)); nc != b.fn {
					nb = &inlBinding{fn: nc, frame: b.frame}
				}
			} else if r := binding(x, b, path); r != b {
				nb = r
			}
			if nb != nil {
				env = env.bind(x, nb)
			}
		}
		out := c
		if env != c.env {
			out = &inlClosure{term: c.term, env: env}
		}
		memo[k] = out
		return out
	}
	return walk(c, path)
}

// freeVars is the free term variables of a term, in order of appearance.
func (in *inliner) freeVars(e remora.Expr) []string {
	if vs, ok := in.free[e]; ok {
		return vs
	}
	var out []string
	seen := map[string]bool{}
	bound := map[string]int{}
	var walk func(e remora.Expr)
	bindIn := func(xs []string, body remora.Expr) {
		for _, x := range xs {
			bound[x]++
		}
		walk(body)
		for _, x := range xs {
			bound[x]--
		}
	}
	walk = func(e remora.Expr) {
		switch e := e.(type) {
		case *remora.Var:
			if bound[e.Name] == 0 && !seen[e.Name] {
				seen[e.Name] = true
				out = append(out, e.Name)
			}
		case *remora.Lam:
			bindIn(remora.NamesOf(e.Params), e.Body)
		case *remora.Map:
			for _, a := range e.Args {
				walk(a)
			}
			bindIn(remora.NamesOf(e.Params), e.Body)
		case *remora.Unpack:
			walk(e.Box)
			bindIn([]string{e.X}, e.Body)
		case *remora.Let:
			walk(e.Val)
			bindIn([]string{e.X}, e.Body)
		default:
			for _, c := range remora.Subterms(e) {
				walk(c)
			}
		}
	}
	walk(e)
	in.free[e] = out
	return out
}

// typeNames is the type and index variables a term's annotations mention
// (free in each annotation; bound ones of the term among them, which only
// makes sameCode stricter).
func (in *inliner) typeNames(e remora.Expr) []string {
	if vs, ok := in.names[e]; ok {
		return vs
	}
	set := map[string]bool{}
	ty := func(t remora.Type) {
		if t != nil {
			remora.FreeTypeVars(t, set)
			remora.FreeIndexVars(t, set)
		}
	}
	ix := func(i remora.Index) { i.FreeVars(set) }
	var walk func(e remora.Expr)
	walk = func(e remora.Expr) {
		switch e := e.(type) {
		case *remora.Frame:
			ty(e.Cell)
			if e.Type != nil {
				ty(e.Type)
			}
		case *remora.Lam:
			for _, p := range e.Params {
				ty(p.Type)
			}
			if e.Ret != nil {
				ty(e.Ret)
			}
		case *remora.App:
			if e.Type != nil {
				ty(e.Type)
			}
		case *remora.TApp:
			for _, t := range e.Args {
				ty(t)
			}
		case *remora.IApp:
			for _, i := range e.Args {
				ix(i)
			}
		case *remora.Pack:
			for _, i := range e.Indices {
				ix(i)
			}
			ty(e.Type)
		case *remora.Reify:
			ix(e.Index)
		case *remora.Reshape:
			ix(remora.ShapeIndex(e.Shape))
		case *remora.Map:
			ix(remora.ShapeIndex(e.Frame))
			for _, p := range e.Params {
				ty(p.Type)
			}
		case *remora.Rep:
			ix(remora.ShapeIndex(e.Frame))
		}
		for _, c := range remora.Subterms(e) {
			walk(c)
		}
	}
	walk(e)
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	in.names[e] = out
	return out
}

// inlReserveNames adds every term and index variable name of e to set.
func inlReserveNames(e remora.Expr, set map[string]bool) {
	switch e := e.(type) {
	case *remora.Var:
		set[e.Name] = true
	case *remora.Lam:
		for _, p := range e.Params {
			set[p.Name] = true
		}
	case *remora.Map:
		for _, p := range e.Params {
			set[p.Name] = true
		}
	case *remora.ILam:
		for _, v := range e.Vars {
			set[v] = true
		}
	case *remora.Unpack:
		set[e.X] = true
		for _, v := range e.IVars {
			set[v] = true
		}
	case *remora.Let:
		set[e.X] = true
	case *remora.LiftDim:
		set[e.D] = true
	}
	for _, c := range remora.Subterms(e) {
		inlReserveNames(c, set)
	}
}
