package tofun

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Rule is the name Lower's refusals carry: "pos: Lower: cannot compile …".
const Rule = "Lower"

// InternalError starts the message of an error Lower reports for a bug of
// its own (a panic it recovered from) rather than a refusal.
const InternalError = "internal error"

// refusal is how a refusal unwinds the translation to Lower, which returns
// it (as remora's checker unwinds a type error): never a panic out of Lower.
type refusal struct{ err *semantics.Error }

func refuse(pos semantics.Pos, construct, format string, args ...any) {
	panic(refusal{semantics.Errorf(pos, semantics.TypeError, Rule, "cannot compile %s to FUN: %s", construct, fmt.Sprintf(format, args...))})
}

// Lower translates an inlined, type-checked Remora IR program (the output
// of Explicitize and Inline, simplified or not: every application's
// function a primitive or a λ, lets as MAPs over the empty frame, no type
// variables, index variables bound only by unbox and lift) into a FUN
// program computing the same values. The i-th expression of p gives, in
// order, the FUN results described by FormatOf, which the program
// carries (fun.Program's Format). What FUN cannot compute is
// refused with an error "pos: Lower: cannot compile <construct> to FUN:
// <why>" (doc.go lists the refusals).
func Lower(p *remora.Program) (prog *fun.Program, err error) {
	l := &lowerer{pos: semantics.Pos{File: p.File, Line: 1, Col: 1}}
	defer func() {
		if r := recover(); r != nil {
			rf, ok := r.(refusal)
			if !ok {
				// A bug of Lower's, reported as an error rather than a
				// crash of the command (tests fail on it).
				rf.err = semantics.Errorf(l.pos, semantics.TypeError, Rule, "%s: %v", InternalError, r)
			}
			prog, err = nil, rf.err
		}
	}()
	if len(p.Types) != len(p.Exprs) {
		return nil, semantics.Errorf(semantics.Pos{File: p.File, Line: 1, Col: 1}, semantics.TypeError, Rule, "the program is not type checked (run remora.Check first)")
	}
	top := &block{l: l}
	var results []string
	f := &semantics.Format{Source: remora.Language.Name()}
	if p.Source != "" {
		// Elaborated from the dynamic dialect (remora.Program.Source),
		// whose boxes have no witnesses to print.
		f.Source, f.Untyped = p.Source, true
	}
	for i, e := range p.Exprs {
		v := l.expr(top, nil, e)
		restore := l.at(e.At())
		results = l.results(top, e.At(), v, results)
		it, err := formatItem(p.Types[i])
		if err != nil {
			refuse(e.At(), "the result", "%v", err)
		}
		if i < len(p.Rational) && p.Rational[i] {
			// The dialect's exact rationals: ints, numerator and
			// denominator on the last axis.
			if it.Box != nil && it.Box.Body.Box == nil {
				it.Box.Body.Atom = semantics.AtomRat
			} else if it.Box == nil {
				it.Atom = semantics.AtomRat
			}
		}
		if i < len(p.Open) && p.Open[i] && it.Box != nil && it.Box.Frame == 0 {
			// A box standing for the dialect's array of a run-time
			// shape prints as that array.
			it.Box.Open = true
		}
		f.Items = append(f.Items, it)
		restore()
	}
	prog = &fun.Program{File: p.File, Body: top.body(results...), Format: f}
	if err := fun.CheckCompileRank(prog, Rule); err != nil {
		return nil, err
	}
	return prog, nil
}

// lowerer carries the translation's state: the fresh names, and the
// position of the Remora construct being lowered, where the FUN
// statements made for it are placed.
type lowerer struct {
	namer
	pos semantics.Pos
}

// at makes pos (when known) the current position, and returns the
// function that restores the previous one.
func (l *lowerer) at(pos semantics.Pos) func() {
	old := l.pos
	if pos.IsValid() {
		l.pos = pos
	}
	return func() { l.pos = old }
}

// env binds Remora's term variables to lowered arrays, and its index
// variables (bound by unbox and lift) to the FUN int variables holding
// them, innermost first.
type env struct {
	name  string
	val   *val   // a term variable's value
	index string // an index variable's FUN variable
	next  *env
}

func (e *env) bind(x string, v *val) *env        { return &env{name: x, val: v, next: e} }
func (e *env) bindIndex(x string, n string) *env { return &env{name: x, index: n, next: e} }

func (e *env) lookup(x string) (*val, bool) {
	for ; e != nil; e = e.next {
		if e.name == x && e.val != nil {
			return e.val, true
		}
	}
	return nil, false
}

func (e *env) lookupIndex(x string) (string, bool) {
	for ; e != nil; e = e.next {
		if e.name == x && e.index != "" {
			return e.index, true
		}
	}
	return "", false
}

// val is a lowered Remora array: the kind of its atoms (a Remora Kind:
// int, float, bool, char or box; bools are FUN ints 0/1, chars their code
// points), the FUN size variables of its dimensions, and either the FUN
// variable holding it (manifest; its FUN type then has exactly these
// sizes) or a view: an index function (§5.5 of "The semantics of rank
// polymorphism") that, given 1-based FUN index variables for every
// dimension, emits the statements reading that atom into the block it is
// given. Replication, iota, reversal, rotation, reshaping, slicing and a
// MAP argument's cells are views, so they are never copied; a view is
// materialised, by nested kernels, only where FUN needs a variable (a
// kernel's or a fold's result, a program result). A frame of boxes is
// always a view: FUN has no arrays of boxes, so each box is computed where
// it is opened.
type val struct {
	kind remora.Kind
	sig  *remora.Sigma // a box's type
	dims []string
	name string
	at   func(b *block, idx []string) atom
}

// atom is one atom of a val: a FUN scalar variable, or a box.
type atom struct {
	name string
	box  *boxAtom
}

// boxAtom is a box: the FUN int variables of its witnesses, and its
// contents.
type boxAtom struct {
	wits []string
	val  *val
}

func elemOf(k remora.Kind) semantics.Elem {
	if k == remora.KFloat {
		return semantics.FloatElem
	}
	return semantics.IntElem
}

func (v *val) elem() semantics.Elem { return elemOf(v.kind) }
func (v *val) rank() int            { return len(v.dims) }

// scalar is the rank-0 val held by the FUN variable x.
func scalar(k remora.Kind, x string) *val { return &val{kind: k, name: x} }

// boxVal is the rank-0 val of one box.
func boxVal(sig *remora.Sigma, a *boxAtom) *val {
	return &val{kind: remora.KBox, sig: sig, at: func(*block, []string) atom { return atom{box: a} }}
}

// view is a val read through the index function at.
func view(k remora.Kind, sig *remora.Sigma, dims []string, at func(b *block, idx []string) atom) *val {
	return &val{kind: k, sig: sig, dims: dims, at: at}
}

// get reads the atom at the 1-based position idx (one variable per
// dimension) into b.
func (l *lowerer) get(b *block, v *val, idx []string) atom {
	if v.at != nil {
		return v.at(b, idx)
	}
	if len(idx) == 0 {
		return atom{name: v.name}
	}
	x := l.fresh("x")
	b.let(&fun.IndexExp{Arr: ident(v.name), Idx: idents(idx)}, param(x, funType(v.elem(), nil)))
	return atom{name: x}
}

// cell is the cell of v at the position prefix of its frame: a view.
func (l *lowerer) cell(v *val, prefix []string) *val {
	if len(prefix) == 0 {
		return v
	}
	prefix = cat(prefix)
	return view(v.kind, v.sig, v.dims[len(prefix):], func(b *block, idx []string) atom {
		return l.get(b, v, cat(prefix, idx...))
	})
}

// manifest is the FUN variable x of sizes xdims seen as a val whose sizes
// are dims (the same numbers, perhaps under other names): a view indexing
// x when the names differ, so that a val's manifest name always has the
// val's own sizes in its FUN type.
func (l *lowerer) manifest(k remora.Kind, x string, xdims, dims []string) *val {
	v := &val{kind: k, dims: xdims, name: x}
	if slices.Equal(xdims, dims) {
		return v
	}
	return view(k, nil, dims, func(b *block, idx []string) atom { return l.get(b, v, idx) })
}

// materialise is a FUN variable holding v with sizes dims (v's sizes,
// perhaps under other names): v's own variable when it has one with these
// names, else nested kernels over dims reading v.
func (l *lowerer) materialise(b *block, v *val, dims []string, pos semantics.Pos) string {
	if v.kind == remora.KBox {
		refuse(pos, "an array of boxes", "FUN has no arrays of boxes; a box can only be opened (unbox) where it is made")
	}
	if v.at == nil && slices.Equal(v.dims, dims) {
		return v.name
	}
	if len(dims) == 0 {
		return l.get(b, v, nil).name
	}
	return l.kernels(b, v.elem(), dims, nil, func(ib *block, idx []string) string {
		return l.get(ib, v, idx).name
	})
}

// kernels emits nested kernels over dims, whose innermost body f returns
// a variable of the element type elem with sizes cell, and returns the
// variable bound to the whole, of sizes dims ++ cell.
func (l *lowerer) kernels(b *block, elem semantics.Elem, dims, cell []string, f func(ib *block, idx []string) string) string {
	return l.kernelsFrom(b, elem, dims, cell, nil, f)
}

func (l *lowerer) kernelsFrom(b *block, elem semantics.Elem, dims, cell, idx []string, f func(ib *block, idx []string) string) string {
	if len(dims) == 0 {
		return f(b, idx)
	}
	i := l.fresh("i")
	inner := b.child()
	res := l.kernelsFrom(inner, elem, dims[1:], cell, cat(idx, i), f)
	r := l.fresh("k")
	b.let(&fun.KernelExp{Var: ident(i), Bound: ident(dims[0]), Body: inner.body(res)}, param(r, funType(elem, cat(dims, cell...))))
	return r
}

// scalarLet binds se to a fresh variable of the element type elem.
func (l *lowerer) scalarLet(b *block, base string, elem semantics.Elem, se fun.SExp) string {
	x := l.fresh(base)
	b.let(&fun.ScalarExp{X: se}, param(x, funType(elem, nil)))
	return x
}

func (l *lowerer) intLet(b *block, base string, se fun.SExp) string {
	return l.scalarLet(b, base, semantics.IntElem, se)
}

// assert emits an assert that se is not 0, failing with msg.
func (l *lowerer) assert(b *block, se fun.SExp, msg string) {
	b.let(&fun.AssertExp{Cond: se, HasMsg: true, Msg: msg}, param(l.fresh("ok"), intType))
}

// constSize is the int variable holding the constant c in b's scope.
func (l *lowerer) constSize(b *block, c int64) string {
	return l.sizeOf(b, c, nil)
}

// sizeOf is the int variable holding c plus the FUN variables vars,
// bound once per scope.
func (l *lowerer) sizeOf(b *block, c int64, vars []string) string {
	if c == 0 && len(vars) == 1 {
		return vars[0]
	}
	vars = append([]string{}, vars...)
	sort.Strings(vars)
	key := sizeKey(c, vars)
	if x, ok := b.size(key); ok {
		return x
	}
	var se fun.SExp
	for _, v := range vars {
		if se == nil {
			se = sv(v)
		} else {
			se = bin(semantics.Add, se, sv(v))
		}
	}
	switch {
	case se == nil:
		se = ic(c)
	case c != 0:
		se = bin(semantics.Add, se, ic(c))
	}
	name := "c"
	if len(vars) > 0 {
		name = "n"
	}
	x := l.intLet(b, name, se)
	b.noteSize(key, x)
	return x
}

// nat is the int variable holding the Nat n, whose variables are index
// variables bound in en.
func (l *lowerer) nat(b *block, en *env, n remora.Nat, pos semantics.Pos) string {
	vars := make([]string, len(n.Vars))
	for i, x := range n.Vars {
		v, ok := en.lookupIndex(x)
		if !ok {
			refuse(pos, "the index variable "+x, "it is not bound by an unbox or a lift (only those index variables remain after Inline)")
		}
		vars[i] = v
	}
	return l.sizeOf(b, n.Const, vars)
}

// shape is the int variables of the dimensions of s.
func (l *lowerer) shape(b *block, en *env, s remora.Shape, pos semantics.Pos) []string {
	out := make([]string, len(s))
	for i, it := range s {
		if it.Var != "" {
			refuse(pos, "the shape variable "+it.Var, "a shape of unknown rank has no FUN type (FUN sizes are int variables, one per dimension)")
		}
		out[i] = l.nat(b, en, it.Dim, pos)
	}
	return out
}

// kindOf is the Remora kind of a canonical atom type, refusing functions.
func kindOf(t remora.Type, pos semantics.Pos) (remora.Kind, *remora.Sigma) {
	switch t := t.(type) {
	case *remora.Base:
		switch t.Name {
		case "float":
			return remora.KFloat, nil
		case "bool":
			return remora.KBool, nil
		case "char":
			return remora.KChar, nil
		}
		return remora.KInt, nil
	case *remora.Sigma:
		return remora.KBox, remora.Canon(t).(*remora.Sigma)
	case *remora.TVar:
		refuse(pos, "the type variable "+t.Name, "no type variable remains after Inline")
	}
	refuse(pos, "a function value", "FUN is first order: a function of type %s can only be applied (after Inline every application's function is a primitive)", remora.TypeString(t))
	return 0, nil
}

// arrOf is the canonical array type of t with its kind.
func arrOf(t remora.Type, pos semantics.Pos) (*remora.Arr, remora.Kind, *remora.Sigma) {
	a := remora.CanonArr(t)
	k, sig := kindOf(a.Elem, pos)
	return a, k, sig
}

// results appends the FUN results of one program expression (Decode's
// layout) to rs.
func (l *lowerer) results(b *block, pos semantics.Pos, v *val, rs []string) []string {
	if v.kind != remora.KBox {
		return append(rs, l.materialise(b, v, v.dims, pos))
	}
	if v.rank() != 0 {
		return l.boxFrameResults(b, pos, v, rs)
	}
	a := l.get(b, v, nil).box
	rs = append(rs, a.wits...)
	return l.results(b, pos, a.val, rs)
}

// boxFrameResults appends the results of a frame of boxes, which FUN
// cannot hold as one array since the boxes' contents may differ in shape:
// it is flattened as a segmented array is (the representation of
// irregular arrays in Futhark's and the Remora compiler's flattening),
// into one int array per witness, over the frame, and the flat data: every
// box's contents in row-major order, the boxes in the frame's row-major
// order, concatenated. Decode cuts the data into segments by the sizes the
// witnesses give the contents' type. The data is built by a loop over the
// frame's positions that carries the data so far, an array of existential
// size growing by each box's contents (as T-LOOP lets a loop carry sizes),
// so it copies quadratically many atoms: it is the results' cost only.
// Each box is computed where it is read (a frame of boxes is a view), once
// per witness array and once for the data.
func (l *lowerer) boxFrameResults(b *block, pos semantics.Pos, v *val, rs []string) []string {
	for _, x := range v.sig.Vars {
		if remora.IsShapeVar(x) {
			refuse(pos, "a frame of boxes hiding the shape "+x, "a FUN type has one int variable per dimension, so a shape's rank must be known")
		}
	}
	for j := range v.sig.Vars {
		w := l.kernels(b, semantics.IntElem, v.dims, nil, func(ib *block, idx []string) string {
			return l.get(ib, v, idx).box.wits[j]
		})
		rs = append(rs, w)
	}
	kind, _ := kindOf(remora.CanonArr(v.sig.Body).Elem, pos)
	if kind == remora.KBox {
		refuse(pos, "a frame of boxes of boxes as a result", "the data of a segmented array here is one level deep")
	}
	elem := elemOf(kind)
	n := l.productOf(b, v.dims)
	start := l.constSize(b, 0)
	empty := l.kernels(b, elem, []string{start}, nil, func(ib *block, _ []string) string {
		if elem == semantics.FloatElem {
			return l.scalarLet(ib, "z", elem, &fun.FloatConst{})
		}
		return l.intLet(ib, "z", ic(0))
	})
	p, k, ys := l.fresh("p"), l.fresh("k"), l.fresh("data")
	lb := b.child()
	box := l.get(lb, v, l.unflatten(lb, p, v.dims)).box
	s := l.productOf(lb, box.val.dims)
	flat := view(kind, nil, []string{s}, func(ib *block, t []string) atom {
		return l.get(ib, box.val, l.unflatten(ib, t[0], box.val.dims))
	})
	k1 := l.intLet(lb, "k", bin(semantics.Add, sv(k), sv(s)))
	grown := l.concat(&val{kind: kind, dims: []string{k}, name: ys}, flat, []string{k1})
	ys1 := l.materialise(lb, grown, []string{k1}, pos)
	kk, out := l.fresh("k"), l.fresh("data")
	b.let(&fun.LoopExp{
		Params: []*fun.Param{param(k, intType), param(ys, funType(elem, []string{k}))},
		Init:   idents([]string{start, empty}), Var: ident(p), Bound: ident(n), Body: lb.body(k1, ys1),
	}, param(kk, intType), param(out, funType(elem, []string{kk})))
	return append(rs, out)
}

// productOf is an int variable holding the product of the sizes dims (1
// for none).
func (l *lowerer) productOf(b *block, dims []string) string {
	if len(dims) == 0 {
		return l.constSize(b, 1)
	}
	if len(dims) == 1 {
		return dims[0]
	}
	var se fun.SExp = sv(dims[0])
	for _, d := range dims[1:] {
		se = bin(semantics.Mul, se, sv(d))
	}
	return l.intLet(b, "n", se)
}

// unflatten is the 1-based position, one variable per dimension of dims,
// of the 1-based row-major position p.
func (l *lowerer) unflatten(b *block, p string, dims []string) []string {
	idx := make([]string, len(dims))
	if len(dims) == 0 {
		return idx
	}
	q := l.intLet(b, "q", bin(semantics.Sub, sv(p), ic(1)))
	for i := len(dims) - 1; i > 0; i-- {
		idx[i] = l.intLet(b, "i", bin(semantics.Add, bin(semantics.Mod, sv(q), sv(dims[i])), ic(1)))
		q = l.intLet(b, "q", bin(semantics.Div, sv(q), sv(dims[i])))
	}
	idx[0] = l.intLet(b, "i", bin(semantics.Add, sv(q), ic(1)))
	return idx
}

// expr lowers the Remora expression e, evaluated in b with en.
func (l *lowerer) expr(b *block, en *env, e remora.Expr) *val {
	defer l.at(e.At())()
	switch e := e.(type) {
	case *remora.Lit:
		return l.lit(b, e.V, e.Pos)
	case *remora.Var:
		if v, ok := en.lookup(e.Name); ok {
			return v
		}
		refuse(e.Pos, "the variable "+e.Name, "it is unbound, or bound to a function (FUN is first order; Inline should have removed it)")
	case *remora.Frame:
		return l.frame(b, en, e)
	case *remora.App:
		return l.app(b, en, e)
	case *remora.TApp, *remora.IApp:
		// iota{ | [2 3]} is an instantiated primitive that is an array.
		if p, is, ts, ok := primOf(e); ok {
			t := instantiate(p, is, ts)
			if a, isArr := t.(*remora.Arr); isArr {
				if _, isFn := a.Elem.(*remora.Fn); !isFn {
					return l.callPrim(b, en, e.At(), p, is, ts, nil, nil)
				}
			}
			refuse(e.At(), "the primitive "+p.Name, "a primitive not applied is a function value, which FUN cannot hold")
		}
		refuse(e.At(), "a type or index application", "only a primitive's instantiation remains after Inline")
	case *remora.Prim:
		refuse(e.Pos, "the primitive "+e.Def.Name, "a primitive not applied is a function value, which FUN cannot hold")
	case *remora.Lam, *remora.TLam, *remora.ILam:
		refuse(e.At(), "a function", "FUN is first order: after Inline a λ appears only as a reduce's or fold's operator")
	case *remora.Pack:
		return l.pack(b, en, e)
	case *remora.Unpack:
		return l.unpack(b, en, e)
	case *remora.LiftDim:
		return l.liftDim(b, en, e)
	case *remora.Reify:
		return l.reify(b, en, e)
	case *remora.Reshape:
		return l.reshape(b, en, e)
	case *remora.Map:
		return l.mapIR(b, en, e)
	case *remora.Case:
		return l.caseIR(b, en, e)
	case *remora.Rep:
		v := l.expr(b, en, e.E)
		return l.rep(l.shape(b, en, e.Frame, e.Pos), v)
	}
	refuse(e.At(), fmt.Sprintf("%T", e), "not a form of the checked IR (check the program first)")
	return nil
}

// rep is v replicated over the frame fd: a view.
func (l *lowerer) rep(fd []string, v *val) *val {
	if len(fd) == 0 {
		return v
	}
	return view(v.kind, v.sig, cat(fd, v.dims...), func(b *block, idx []string) atom {
		return l.get(b, v, idx[len(fd):])
	})
}

// mapIR lowers (MAP [F] ([x τ e] …) body): nested kernels over F, whose
// innermost body binds each x to its argument's cell there and runs body;
// over the empty frame, a let.
func (l *lowerer) mapIR(b *block, en *env, e *remora.Map) *val {
	fd := l.shape(b, en, e.Frame, e.Pos)
	args := make([]*val, len(e.Args))
	ranks := make([]int, len(e.Args))
	for i, a := range e.Args {
		kindOf(remora.CanonArr(e.Params[i].Type).Elem, a.At())
		args[i] = l.expr(b, en, a)
		ranks[i] = len(fd)
	}
	rt, k, sig := arrOf(e.Type, e.Pos)
	if v, ok := l.replicating(b, en, e, fd, args); ok {
		return v
	}
	return l.mapFrame(b, en, e.Pos, fd, args, ranks, rt.Shape[len(e.Frame):], k, sig, func(ib *block, cells []*val) *val {
		inner := en
		for i, p := range e.Params {
			inner = inner.bind(p.Name, cells[i])
		}
		return l.expr(ib, inner, e.Body)
	})
}

// replicating recognises the MAP that Explicitize makes to grow an
// argument of a smaller frame, (MAP [F] ([y τ a]) (REP [Q] y)), or one
// whose body is a parameter: a view of a, read at the position less the
// Q indices, instead of a copy (§5.5's replication as an index function).
func (l *lowerer) replicating(b *block, en *env, e *remora.Map, fd []string, args []*val) (*val, bool) {
	body, q := e.Body, remora.Shape(nil)
	if r, ok := body.(*remora.Rep); ok {
		body, q = r.E, r.Frame
	}
	x, ok := body.(*remora.Var)
	if !ok {
		return nil, false
	}
	for i, p := range e.Params {
		if p.Name != x.Name {
			continue
		}
		a := args[i]
		qd := l.shape(b, en, q, e.Pos)
		return view(a.kind, a.sig, cat(cat(fd, qd...), a.dims[len(fd):]...), func(b *block, idx []string) atom {
			return l.get(b, a, cat(idx[:len(fd)], idx[len(fd)+len(qd):]...))
		}), true
	}
	return nil, false
}

// mapFrame runs body once per position of the frame fd, each argument i
// (of frame rank ranks[i], a prefix of fd) cut into the cell at that
// position, and stacks the results, cells of Remora shape cell and kind
// k: nested kernels, or, for boxes, a view that runs body where a box is
// read. A scalar cell is read once, at the start of the iteration.
func (l *lowerer) mapFrame(b *block, en *env, pos semantics.Pos, fd []string, args []*val, ranks []int, cell remora.Shape, k remora.Kind, sig *remora.Sigma, body func(ib *block, cells []*val) *val) *val {
	if len(fd) == 0 {
		return body(b, args)
	}
	cells := func(ib *block, idx []string) []*val {
		cs := make([]*val, len(args))
		for i, a := range args {
			cs[i] = l.cell(a, idx[:ranks[i]])
			if cs[i].rank() == 0 && cs[i].kind != remora.KBox && cs[i].at != nil {
				cs[i] = scalar(cs[i].kind, l.get(ib, cs[i], nil).name)
			}
		}
		return cs
	}
	if k == remora.KBox {
		v := view(k, sig, cat(fd, l.shape(b, en, cell, pos)...), func(ib *block, idx []string) atom {
			v := body(ib, cells(ib, idx[:len(fd)]))
			return l.get(ib, v, idx[len(fd):])
		})
		l.force(b, v)
		return v
	}
	cd := l.shape(b, en, cell, pos)
	name := l.kernels(b, elemOf(k), fd, cd, func(ib *block, idx []string) string {
		v := body(ib, cells(ib, idx))
		return l.materialise(ib, v, cd, pos)
	})
	return &val{kind: k, dims: cat(fd, cd...), name: name}
}

// force computes every box of a frame of boxes once, where it is made,
// and drops them: a frame of boxes is a view that computes each box where
// it is read, so without this a box that goes wrong (a δ stuck in the
// MAP's body) but is never opened would not go wrong in FUN, while
// Remora, which computes every cell, does. The boxes' contents that are
// frames of boxes are forced in turn.
func (l *lowerer) force(b *block, v *val) {
	l.kernels(b, semantics.IntElem, v.dims, nil, func(ib *block, idx []string) string {
		if a := l.get(ib, v, idx).box; a.val.kind == remora.KBox {
			l.force(ib, a.val)
		}
		return l.constSize(ib, 0)
	})
}

// lit lowers a literal: a scalar is a let; an array is built by nested
// kernels whose body picks the atom at the flat position by a balanced
// tree of ifs over the runs of equal atoms (exact for every float).
func (l *lowerer) lit(b *block, v *remora.Value, pos semantics.Pos) *val {
	switch v.Kind {
	case remora.KInt, remora.KBool, remora.KChar, remora.KFloat:
	case remora.KBox:
		return l.litBoxes(b, v, pos)
	default:
		refuse(pos, "a literal of "+v.Kind.String()+"s", "only literals of ints, floats, booleans and characters have FUN values")
	}
	if len(v.Shape) == 0 {
		return scalar(v.Kind, l.constAtom(b, v, 0))
	}
	dims := make([]string, len(v.Shape))
	for i, d := range v.Shape {
		dims[i] = l.constSize(b, d)
	}
	segs := segments(v)
	starts := make([]int, len(segs))
	for j, sg := range segs {
		starts[j] = sg.start
	}
	name := l.kernels(b, elemOf(v.Kind), dims, nil, func(ib *block, idx []string) string {
		if len(segs) == 0 {
			return l.constAtom(ib, v, -1)
		}
		var flat string
		if len(segs) > 1 || segs[0].step != 0 {
			flat = l.flatten(ib, dims, idx)
		}
		return l.selectTree(ib, flat, starts, 0, len(segs)-1, v.Kind, nil, func(bb *block, j int) atom {
			sg := segs[j]
			if sg.step == 0 {
				return atom{name: l.constAtom(bb, v, sg.start)}
			}
			// a + (p - (start+1))·step, wrapping as the literal's ints do.
			off := bin(semantics.Sub, sv(flat), ic(int64(sg.start+1)))
			return atom{name: l.intLet(bb, "c", bin(semantics.Add, ic(v.I[sg.start]), bin(semantics.Mul, off, ic(sg.step))))}
		}).name
	})
	return &val{kind: v.Kind, dims: dims, name: name}
}

// segment is a run of a literal's atoms from flat position start: equal
// atoms (step 0), or for ints, booleans and characters an arithmetic
// progression by step.
type segment struct {
	start int
	step  int64
}

// segments cuts a literal's atoms, in row-major order, into segments
// greedily: an atom that does not continue the current one starts the
// next.
func segments(v *remora.Value) []segment {
	var segs []segment
	for i := 0; i < v.Len(); i++ {
		if len(segs) > 0 {
			sg := &segs[len(segs)-1]
			switch {
			case sameAtom(v, i-1, i) && sg.step == 0:
				continue
			case v.Kind != remora.KFloat && i == sg.start+1:
				sg.step = v.I[i] - v.I[i-1]
				continue
			case v.Kind != remora.KFloat && sg.step != 0 && v.I[i]-v.I[i-1] == sg.step:
				continue
			}
		}
		segs = append(segs, segment{start: i})
	}
	return segs
}

func sameAtom(v *remora.Value, i, j int) bool {
	if v.Kind == remora.KFloat {
		return math.Float64bits(v.F[i]) == math.Float64bits(v.F[j]) || (math.IsNaN(v.F[i]) && math.IsNaN(v.F[j]))
	}
	return v.I[i] == v.I[j]
}

// constAtom binds the atom at flat position i of v (the zero of its kind
// for i < 0) to a fresh variable.
func (l *lowerer) constAtom(b *block, v *remora.Value, i int) string {
	if v.Kind != remora.KFloat {
		var k int64
		if i >= 0 {
			k = v.I[i]
		}
		return l.intLet(b, "c", ic(k))
	}
	f := 0.0
	if i >= 0 {
		f = v.F[i]
	}
	return l.scalarLet(b, "f", semantics.FloatElem, floatConst(f))
}

// floatConst is f as a FUN scalar expression: FUN has no literal for NaN
// or the infinities, so those are the divisions that give them.
func floatConst(f float64) fun.SExp {
	switch {
	case math.IsNaN(f):
		return bin(semantics.Div, fun.Float(0), fun.Float(0))
	case math.IsInf(f, 1):
		return bin(semantics.Div, fun.Float(1), fun.Float(0))
	case math.IsInf(f, -1):
		return bin(semantics.Div, fun.Float(-1), fun.Float(0))
	}
	return fun.Float(f)
}

// flatten is the 1-based row-major position of the 1-based index idx in
// an array of sizes dims.
func (l *lowerer) flatten(b *block, dims, idx []string) string {
	if len(idx) == 1 {
		return idx[0]
	}
	var se fun.SExp = bin(semantics.Sub, sv(idx[0]), ic(1))
	for k := 1; k < len(idx); k++ {
		se = bin(semantics.Add, bin(semantics.Mul, se, sv(dims[k])), bin(semantics.Sub, sv(idx[k]), ic(1)))
	}
	return l.intLet(b, "p", bin(semantics.Add, se, ic(1)))
}

// selectTree picks, by the 1-based position p, among the leaves lo..hi,
// where leaf j covers the positions from starts[j]+1 up to starts[j+1]: a
// balanced tree of FUN ifs (depth log n), each leaf emitted in its own
// branch so that only the chosen one runs.
func (l *lowerer) selectTree(b *block, p string, starts []int, lo, hi int, k remora.Kind, sig *remora.Sigma, leaf func(bb *block, j int) atom) atom {
	if lo == hi {
		return leaf(b, lo)
	}
	mid := (lo + hi) / 2
	c := l.intLet(b, "lo", bin(semantics.Le, sv(p), ic(int64(starts[mid+1]))))
	return l.ifAtom(b, c, k, sig,
		func(tb *block) atom { return l.selectTree(tb, p, starts, lo, mid, k, sig, leaf) },
		func(eb *block) atom { return l.selectTree(eb, p, starts, mid+1, hi, k, sig, leaf) })
}

// ifAtom is FUN's if on the int variable c, whose branches compute atoms
// of kind k. A box's branches return its witnesses, the sizes of its
// contents and its contents materialised: the pattern binds them as T-IF
// binds existential sizes, so the two branches' boxes may differ in
// their sizes.
func (l *lowerer) ifAtom(b *block, c string, k remora.Kind, sig *remora.Sigma, then, els func(bb *block) atom) atom {
	if k != remora.KBox {
		tb, eb := b.child(), b.child()
		t, e := then(tb), els(eb)
		x := l.fresh("r")
		b.let(&fun.IfExp{Cond: ident(c), Then: tb.body(t.name), Else: eb.body(e.name)}, param(x, funType(elemOf(k), nil)))
		return atom{name: x}
	}
	branch := func(f func(bb *block) atom) (*fun.Body, *boxAtom) {
		bb := b.child()
		a := f(bb).box
		if a.val.kind == remora.KBox {
			refuse(semantics.Pos{}, "a box of boxes chosen at run time", "FUN's if returns arrays of ints or floats")
		}
		arr := l.materialise(bb, a.val, a.val.dims, semantics.Pos{})
		return bb.body(cat(cat(a.wits, a.val.dims...), arr)...), a
	}
	tbody, ta := branch(then)
	ebody, _ := branch(els)
	pat, out := l.boxPattern(ta)
	b.let(&fun.IfExp{Cond: ident(c), Then: tbody, Else: ebody}, pat...)
	return atom{box: out}
}

// boxPattern is a FUN pattern that binds a box of a's type, as T-IF and
// a loop bind existential sizes: a fresh int for each witness and each
// size of the contents, then the contents; and the box those hold.
func (l *lowerer) boxPattern(a *boxAtom) ([]*fun.Param, *boxAtom) {
	var ps []*fun.Param
	out := &boxAtom{}
	for range a.wits {
		w := l.fresh("w")
		out.wits = append(out.wits, w)
		ps = append(ps, param(w, intType))
	}
	var dims []string
	for range a.val.dims {
		d := l.fresh("n")
		dims = append(dims, d)
		ps = append(ps, param(d, intType))
	}
	x := l.fresh("box")
	ps = append(ps, param(x, funType(a.val.elem(), dims)))
	out.val = &val{kind: a.val.kind, sig: a.val.sig, dims: dims, name: x}
	return ps, out
}

// frame lowers [e …] and (frame [dims] e …): the elements are lowered in
// order; an atom of the frame is the atom of the element its frame
// position selects (a tree of ifs). A frame of ints, floats, booleans or
// characters is materialised at once; a frame of boxes stays a view.
func (l *lowerer) frame(b *block, en *env, e *remora.Frame) *val {
	t, k, sig := arrOf(e.Type, e.Pos)
	elems := make([]*val, len(e.Elems))
	for i, el := range e.Elems {
		elems[i] = l.expr(b, en, el)
	}
	dims := l.shape(b, en, t.Shape, e.Pos)
	v := l.stacked(en, k, sig, dims, len(e.Dims), elems, e.Pos)
	if k == remora.KBox {
		return v
	}
	return &val{kind: k, dims: dims, name: l.materialise(b, v, dims, e.Pos)}
}

// stacked is the view of the elements elems stacked in a frame, the first
// r of the sizes dims: its atom at a position is the atom of the element
// the frame position selects (a tree of ifs) at the rest of the position.
func (l *lowerer) stacked(en *env, k remora.Kind, sig *remora.Sigma, dims []string, r int, elems []*val, pos semantics.Pos) *val {
	fr := dims[:r]
	starts := make([]int, len(elems))
	for i := range starts {
		starts[i] = i
	}
	return view(k, sig, dims, func(ib *block, idx []string) atom {
		if len(elems) == 0 {
			return l.zeroAtom(ib, en, k, sig, pos)
		}
		rest := idx[len(fr):]
		if len(elems) == 1 {
			return l.get(ib, elems[0], rest)
		}
		p := l.flatten(ib, fr, idx[:len(fr)])
		return l.selectTree(ib, p, starts, 0, len(elems)-1, k, sig, func(bb *block, j int) atom {
			return l.get(bb, elems[j], rest)
		})
	})
}

// litBoxes lowers a literal of boxes: each box's witnesses are constants
// and its contents a literal; a frame of them is stacked (a view).
func (l *lowerer) litBoxes(b *block, v *remora.Value, pos semantics.Pos) *val {
	elems := make([]*val, len(v.A))
	var sig *remora.Sigma
	for i, a := range v.A {
		bx, ok := a.(*remora.Box)
		if !ok || bx.Type == nil {
			refuse(pos, "a literal box", "it has no Sigma type")
		}
		sig = remora.Canon(bx.Type).(*remora.Sigma)
		ba := &boxAtom{val: l.lit(b, bx.Val, pos)}
		for _, ix := range bx.Indices {
			if ix.IsShape || !ix.N.IsConst() {
				refuse(pos, "the box "+remora.TypeString(bx.Type), "a Shape witness (%s) has no FUN value: FUN sizes are one int per dimension", ix)
			}
			ba.wits = append(ba.wits, l.constSize(b, ix.N.Const))
		}
		elems[i] = boxVal(sig, ba)
	}
	if len(v.Shape) == 0 {
		return elems[0]
	}
	if sig == nil {
		refuse(pos, "an empty literal of boxes", "its box type is not known")
	}
	dims := make([]string, len(v.Shape))
	for i, d := range v.Shape {
		dims[i] = l.constSize(b, d)
	}
	return l.stacked(nil, remora.KBox, sig, dims, len(dims), elems, pos)
}

// zeroAtom is an atom of kind k that is never read (an atom of an empty
// array, which FUN's kernels still type): 0, or a box of zero witnesses.
func (l *lowerer) zeroAtom(b *block, en *env, k remora.Kind, sig *remora.Sigma, pos semantics.Pos) atom {
	switch k {
	case remora.KFloat:
		return atom{name: l.scalarLet(b, "f", semantics.FloatElem, fun.Float(0))}
	case remora.KBox:
		a := &boxAtom{}
		inner := en
		for _, x := range sig.Vars {
			if remora.IsShapeVar(x) {
				refuse(pos, "the box type "+remora.TypeString(sig), "a Shape witness has no FUN value")
			}
			w := l.constSize(b, 0)
			a.wits = append(a.wits, w)
			inner = inner.bindIndex(x, w)
		}
		t, ck, csig := arrOf(sig.Body, pos)
		dims := l.shape(b, inner, t.Shape, pos)
		a.val = view(ck, csig, dims, func(ib *block, _ []string) atom { return l.zeroAtom(ib, inner, ck, csig, pos) })
		return atom{box: a}
	}
	return atom{name: l.constSize(b, 0)}
}

// pack lowers (box (ι …) Σ e): the witnesses' int variables and e.
func (l *lowerer) pack(b *block, en *env, e *remora.Pack) *val {
	a := &boxAtom{}
	for _, ix := range e.Indices {
		if ix.IsShape {
			refuse(e.Pos, "the box "+remora.TypeString(e.Type), "a Shape witness (%s) has no FUN value: FUN sizes are one int per dimension", ix)
		}
		a.wits = append(a.wits, l.nat(b, en, ix.N, e.Pos))
	}
	a.val = l.expr(b, en, e.Body)
	return boxVal(remora.Canon(e.Type).(*remora.Sigma), a)
}

// unpack lowers (unbox e (x d …) body): the box's witnesses' variables
// become the index variables d …, its contents x.
func (l *lowerer) unpack(b *block, en *env, e *remora.Unpack) *val {
	bv := l.expr(b, en, e.Box)
	if bv.kind != remora.KBox || bv.rank() != 0 {
		refuse(e.Pos, "unbox", "its argument is not one box (a frame of boxes is opened by a MAP around the unbox)")
	}
	a := l.get(b, bv, nil).box
	inner := en
	for i, x := range e.IVars {
		if remora.IsShapeVar(x) {
			refuse(e.Pos, "unbox of a Shape witness "+x, "a shape of unknown rank has no FUN type")
		}
		inner = inner.bindIndex(x, a.wits[i])
	}
	return l.expr(b, inner.bind(e.X, a.val), e.Body)
}

// liftDim lowers (lift [d e] body): d is the int e (a negative one is
// stuck, as in Remora), and the result is the box of body with witness d.
func (l *lowerer) liftDim(b *block, en *env, e *remora.LiftDim) *val {
	nv := l.expr(b, en, e.N)
	n := l.get(b, nv, nil).name
	l.assert(b, bin(semantics.Ge, sv(n), ic(0)), "lift: a dimension cannot be negative")
	v := l.expr(b, en.bindIndex(e.D, n), e.Body)
	return boxVal(remora.Canon(e.Type).(*remora.Sigma), &boxAtom{wits: []string{n}, val: v})
}

// reify lowers (reify-dimension ι) to ι's int variable, and
// (reify-shape ι) to the vector of its dimensions' variables.
func (l *lowerer) reify(b *block, en *env, e *remora.Reify) *val {
	if !e.Index.IsShape {
		return scalar(remora.KInt, l.nat(b, en, e.Index.N, e.Pos))
	}
	ds := l.shape(b, en, e.Index.S, e.Pos)
	n := l.constSize(b, int64(len(ds)))
	starts := make([]int, len(ds))
	for i := range starts {
		starts[i] = i
	}
	name := l.kernels(b, semantics.IntElem, []string{n}, nil, func(ib *block, idx []string) string {
		if len(ds) == 0 {
			return l.constSize(ib, 0)
		}
		return l.selectTree(ib, idx[0], starts, 0, len(ds)-1, remora.KInt, nil, func(bb *block, j int) atom {
			return atom{name: ds[j]}
		}).name
	})
	return &val{kind: remora.KInt, dims: []string{n}, name: name}
}

// reshape lowers (reshape [S] e): a view reading e at the row-major
// position of each index.
func (l *lowerer) reshape(b *block, en *env, e *remora.Reshape) *val {
	v := l.expr(b, en, e.E)
	t, k, sig := arrOf(e.Type, e.Pos)
	dims := l.shape(b, en, t.Shape, e.Pos)
	return l.reshaped(v, k, sig, dims)
}

// reshaped is v's atoms in row-major order seen with sizes dims.
func (l *lowerer) reshaped(v *val, k remora.Kind, sig *remora.Sigma, dims []string) *val {
	if slices.Equal(v.dims, dims) {
		return v
	}
	return view(k, sig, dims, func(b *block, idx []string) atom {
		var p string
		if len(idx) == 0 {
			p = l.constSize(b, 1)
		} else {
			p = l.flatten(b, dims, idx)
		}
		// p-1 = Σ (src_j - 1) · stride_j over v's dimensions.
		src := make([]string, len(v.dims))
		rest := l.intLet(b, "q", bin(semantics.Sub, sv(p), ic(1)))
		for j := len(v.dims) - 1; j >= 0; j-- {
			src[j] = l.intLet(b, "s", bin(semantics.Add, bin(semantics.Mod, sv(rest), sv(v.dims[j])), ic(1)))
			if j > 0 {
				rest = l.intLet(b, "q", bin(semantics.Div, sv(rest), sv(v.dims[j])))
			}
		}
		return l.get(b, v, src)
	})
}
