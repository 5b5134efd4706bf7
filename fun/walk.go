package fun

import (
	"fmt"

	"github.com/arraysem/arraysem/semantics"
)

// The tree tools every pass over FUN trees shares (FUNMEM's translation
// and simplifier, IMP's translation, the generators and shrinkers of
// proofs-tests, and the lowerings to come): a walk in the manner of
// go/ast.Inspect, a copy that passes every identifier through a function
// (of which deep copy and renaming are instances), a statement rewrite,
// substitution of scalar expressions for variables, and constructors of
// scalar expressions.
//
// Languages extending FUN put nodes of their own into FUN's trees (FUNMEM's
// alloc and memory annotations). The tools reach inside such a node when
// it implements Extension (for Inspect) and ExpMapper or TypeMapper (for
// MapProgram and the copies); a node that does not is a leaf, shared by
// copies.

// Node is a node of a FUN tree: *Program, *Body, *Stm, *Param, *Ident, an
// Exp, an SExp, or a non-nil TypeExt.
type Node any

// Extension is implemented by the expressions and type annotations a
// language extending FUN adds, so that Inspect visits what they hold.
type Extension interface {
	// Children are the node's children, in source order.
	Children() []Node
}

// IdentFunc maps an identifier of a tree. binder is true for the
// identifiers that bind (pattern and input names, kernel, loop and
// redomap indices, the parameters of loop, reduce, scan, filter and
// redomap) and
// false for uses, types included (sizes, blocks, the variables of LMADs).
type IdentFunc func(x *Ident, binder bool) *Ident

// ExpMapper is implemented by an extension's expressions: MapIdents
// returns a deep copy with every identifier passed through f.
type ExpMapper interface {
	Exp
	MapIdents(f IdentFunc) Exp
}

// TypeMapper is implemented by an extension's type annotations:
// MapIdents returns a deep copy with every identifier passed through f.
type TypeMapper interface {
	TypeExt
	MapIdents(f IdentFunc) TypeExt
}

// Inspect traverses the tree of n depth first, in source order: it calls
// f(n), and when that returns true, inspects each child of n.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	inspectChildren(n, f)
}

// inspectChildren inspects the children of n, in source order. It visits
// them in place rather than collecting them in a slice first: the passes
// walk whole programs often, and a slice per node was most of their
// garbage.
func inspectChildren(n Node, f func(Node) bool) {
	idents := func(xs []*Ident) {
		for _, x := range xs {
			Inspect(x, f)
		}
	}
	params := func(ps []*Param) {
		for _, p := range ps {
			Inspect(p, f)
		}
	}
	switch n := n.(type) {
	case *Program:
		params(n.Inputs)
		Inspect(n.Body, f)
	case *Body:
		for _, s := range n.Stms {
			Inspect(s, f)
		}
		idents(n.Result)
	case *Stm:
		params(n.Pat)
		Inspect(n.Exp, f)
	case *Param:
		Inspect(n.Name, f)
		idents(n.Type.Dims)
		if n.Type.Ext != nil {
			Inspect(n.Type.Ext, f)
		}
	case *ScalarExp:
		Inspect(n.X, f)
	case *IndexExp:
		Inspect(n.Arr, f)
		idents(n.Idx)
	case *SliceExp:
		Inspect(n.Arr, f)
		for _, s := range n.Slices {
			Inspect(s.Off, f)
			Inspect(s.Size, f)
		}
	case *TransposeExp:
		Inspect(n.Arr, f)
	case *IotaExp:
		Inspect(n.N, f)
	case *CopyExp:
		Inspect(n.Arr, f)
	case *IfExp:
		Inspect(n.Cond, f)
		Inspect(n.Then, f)
		Inspect(n.Else, f)
	case *KernelExp:
		Inspect(n.Var, f)
		Inspect(n.Bound, f)
		Inspect(n.Body, f)
	case *LoopExp:
		params(n.Params)
		idents(n.Init)
		Inspect(n.Var, f)
		Inspect(n.Bound, f)
		Inspect(n.Body, f)
	case *ReduceExp:
		params(n.Params)
		Inspect(n.Ne, f)
		Inspect(n.Arr, f)
		Inspect(n.Body, f)
	case *ScanExp:
		params(n.Params)
		Inspect(n.Ne, f)
		Inspect(n.Arr, f)
		Inspect(n.Body, f)
	case *FilterExp:
		params(n.Params)
		Inspect(n.Arr, f)
		Inspect(n.Body, f)
	case *RedomapExp:
		params(n.Params)
		Inspect(n.Ne, f)
		Inspect(n.Var, f)
		Inspect(n.Bound, f)
		Inspect(n.Map, f)
		Inspect(n.Op, f)
	case *AssertExp:
		Inspect(n.Cond, f)
	case Var:
		Inspect(n.Ident, f)
	case *BinOp:
		Inspect(n.L, f)
		Inspect(n.R, f)
	case *UnOp:
		Inspect(n.X, f)
	case *Call:
		Inspect(n.Arg, f)
	case Extension:
		for _, c := range n.Children() {
			Inspect(c, f)
		}
	}
}

// Idents calls f on every identifier of the tree of n, binders and uses,
// in source order. It is how a pass renames in place or collects names.
func Idents(n Node, f func(*Ident)) {
	Inspect(n, func(m Node) bool {
		if x, ok := m.(*Ident); ok {
			f(x)
		}
		return true
	})
}

// Stms calls f on every statement of b, nested bodies included, in
// source order (a statement before the statements of its bodies).
func Stms(b *Body, f func(*Stm)) {
	Inspect(b, func(n Node) bool {
		if s, ok := n.(*Stm); ok {
			f(s)
			return true
		}
		return mayHoldBodies(n)
	})
}

// mayHoldBodies reports whether a statement or a body can lie under n:
// not under an identifier, a scalar expression (SExp's method is
// unexported: its kinds are fun's, and they hold only scalar expressions
// and identifiers) or a parameter without an extension's type, or whose
// extension's type is Bodiless, so that Stms and Bodies need not walk
// those.
func mayHoldBodies(n Node) bool {
	switch n := n.(type) {
	case *Ident, SExp:
		return false
	case *Param:
		_, leaf := n.Type.Ext.(Bodiless)
		return n.Type.Ext != nil && !leaf
	}
	return true
}

// Bodiless is implemented by an extension's type annotations that hold
// no statement nor body, only identifiers and scalar expressions (FUNMEM's
// block and LMAD): Stms and Bodies do not walk them.
type Bodiless interface {
	TypeExt
	Bodiless()
}

// Bodies calls f on b and then on every body nested in it (an if's then
// and else, the body of a kernel, loop, reduce, scan or filter), depth
// first, in source order.
func Bodies(b *Body, f func(*Body)) {
	Inspect(b, func(n Node) bool {
		if c, ok := n.(*Body); ok {
			f(c)
			return true
		}
		return mayHoldBodies(n)
	})
}

// Rewrite replaces, in place, each statement s of b and of the bodies
// nested in it by the statements f(s) (none to drop s, s itself to keep
// it). The bodies of a statement are rewritten before f sees it.
func Rewrite(b *Body, f func(*Stm) []*Stm) {
	var out []*Stm
	for _, s := range b.Stms {
		switch e := s.Exp.(type) {
		case *IfExp:
			Rewrite(e.Then, f)
			Rewrite(e.Else, f)
		case *RedomapExp:
			Rewrite(e.Map, f)
			Rewrite(e.Op, f)
		default:
			if b := ExpBody(e); b != nil {
				Rewrite(b, f)
			}
		}
		out = append(out, f(s)...)
	}
	b.Stms = out
}

// MapProgram returns a copy of p in which every identifier x is f(x,
// binder); every node of the tree is new, but for the identifiers f
// returns unchanged and the leaves of extensions that are no mappers.
func MapProgram(p *Program, f IdentFunc) *Program {
	return &Program{File: p.File, Inputs: MapParams(p.Inputs, f, true), Body: MapBody(p.Body, f), Format: p.Format}
}

// MapBody is MapProgram for a body.
func MapBody(b *Body, f IdentFunc) *Body {
	if b == nil {
		return nil
	}
	out := &Body{In: b.In, Result: MapIdentList(b.Result, f), Rparen: b.Rparen}
	if b.Stms != nil {
		// The statements are made at once (one allocation for them all,
		// not one each), as MapParams makes a pattern's bindings.
		out.Stms = make([]*Stm, len(b.Stms))
		stms := make([]Stm, len(b.Stms))
		for i, s := range b.Stms {
			stms[i] = Stm{Let: s.Let, Pat: MapParams(s.Pat, f, true), Exp: MapExp(s.Exp, f)}
			out.Stms[i] = &stms[i]
		}
	}
	return out
}

// MapStm is MapProgram for a statement.
func MapStm(s *Stm, f IdentFunc) *Stm {
	return &Stm{Let: s.Let, Pat: MapParams(s.Pat, f, true), Exp: MapExp(s.Exp, f)}
}

// MapParams is MapProgram for a pattern or input declarations; binder
// says whether their names bind (they do in patterns and inputs).
func MapParams(ps []*Param, f IdentFunc, binder bool) []*Param {
	if ps == nil {
		return nil
	}
	out := make([]*Param, len(ps))
	made := make([]Param, len(ps)) // one allocation for them all
	for i, p := range ps {
		made[i] = Param{Lparen: p.Lparen, Name: f(p.Name, binder), Type: MapType(p.Type, f), Rparen: p.Rparen}
		out[i] = &made[i]
	}
	return out
}

// MapType is MapProgram for a type: its sizes and, through TypeMapper,
// its extension's annotation.
func MapType(t Type, f IdentFunc) Type {
	out := Type{Dims: MapIdentList(t.Dims, f), Elem: t.Elem, Ext: t.Ext}
	if m, ok := t.Ext.(TypeMapper); ok {
		out.Ext = m.MapIdents(f)
	}
	return out
}

// MapExp is MapProgram for an expression. An extension's expression that
// is no ExpMapper is returned as it is.
func MapExp(e Exp, f IdentFunc) Exp {
	use := func(x *Ident) *Ident { return f(x, false) }
	switch e := e.(type) {
	case *ScalarExp:
		return &ScalarExp{X: MapSExp(e.X, f), Lparen: e.Lparen, Rparen: e.Rparen}
	case *IndexExp:
		return &IndexExp{Arr: use(e.Arr), Idx: MapIdentList(e.Idx, f), Rbrack: e.Rbrack}
	case *SliceExp:
		out := &SliceExp{Arr: use(e.Arr), Rbrack: e.Rbrack}
		for _, s := range e.Slices {
			out.Slices = append(out.Slices, Slice{Off: use(s.Off), Size: use(s.Size)})
		}
		return out
	case *TransposeExp:
		return &TransposeExp{Keyword: e.Keyword, Arr: use(e.Arr)}
	case *IotaExp:
		return &IotaExp{Keyword: e.Keyword, N: use(e.N)}
	case *CopyExp:
		return &CopyExp{Keyword: e.Keyword, Arr: use(e.Arr)}
	case *IfExp:
		return &IfExp{If: e.If, Cond: use(e.Cond), Then: MapBody(e.Then, f), Else: MapBody(e.Else, f)}
	case *KernelExp:
		return &KernelExp{Kernel: e.Kernel, Var: f(e.Var, true), Bound: use(e.Bound), Body: MapBody(e.Body, f)}
	case *LoopExp:
		return &LoopExp{Loop: e.Loop, Params: MapParams(e.Params, f, true), Lparen: e.Lparen, Init: MapIdentList(e.Init, f),
			Rparen: e.Rparen, Var: f(e.Var, true), Bound: use(e.Bound), Body: MapBody(e.Body, f)}
	case *ReduceExp:
		return &ReduceExp{Keyword: e.Keyword, Params: MapParams(e.Params, f, true), Ne: use(e.Ne), Arr: use(e.Arr), Body: MapBody(e.Body, f)}
	case *ScanExp:
		return &ScanExp{Keyword: e.Keyword, Params: MapParams(e.Params, f, true), Ne: use(e.Ne), Arr: use(e.Arr), Body: MapBody(e.Body, f)}
	case *FilterExp:
		return &FilterExp{Keyword: e.Keyword, Params: MapParams(e.Params, f, true), Arr: use(e.Arr), Body: MapBody(e.Body, f)}
	case *RedomapExp:
		return &RedomapExp{Keyword: e.Keyword, Scan: e.Scan, Params: MapParams(e.Params, f, true), Ne: use(e.Ne), Var: f(e.Var, true),
			Bound: use(e.Bound), Map: MapBody(e.Map, f), Combine: e.Combine, Op: MapBody(e.Op, f)}
	case *AssertExp:
		out := *e
		out.Cond = MapSExp(e.Cond, f)
		return &out
	case ExpMapper:
		return e.MapIdents(f)
	}
	return e
}

// ExpBody is the one body of a kernel, loop, reduce, scan or filter, or
// nil for an expression without one or with two (an if, a redomap:
// ExpBodies gives them).
func ExpBody(e Exp) *Body {
	switch e := e.(type) {
	case *KernelExp:
		return e.Body
	case *LoopExp:
		return e.Body
	case *ReduceExp:
		return e.Body
	case *ScanExp:
		return e.Body
	case *FilterExp:
		return e.Body
	}
	return nil
}

// ExpParams are the parameters an expression binds for its body (a
// loop's, reduce's, scan's or filter's, a redomap's operator's; nil for
// the other forms): the
// bindings a language extending FUN annotates as it does patterns.
func ExpParams(e Exp) []*Param {
	switch e := e.(type) {
	case *LoopExp:
		return e.Params
	case *ReduceExp:
		return e.Params
	case *ScanExp:
		return e.Params
	case *FilterExp:
		return e.Params
	case *RedomapExp:
		return e.Params
	}
	return nil
}

// ExpBodies are the bodies of an expression, in source order: an if's
// then and else, a redomap's map and operator, the one body of a kernel,
// loop, reduce, scan or filter; nil for the forms without one.
func ExpBodies(e Exp) []*Body {
	switch e := e.(type) {
	case *IfExp:
		return []*Body{e.Then, e.Else}
	case *RedomapExp:
		return []*Body{e.Map, e.Op}
	}
	if b := ExpBody(e); b != nil {
		return []*Body{b}
	}
	return nil
}

// ExpIndex is the index variable an expression binds in its body (a
// kernel's, a loop's, a redomap's map's), or nil.
func ExpIndex(e Exp) *Ident {
	switch e := e.(type) {
	case *KernelExp:
		return e.Var
	case *LoopExp:
		return e.Var
	case *RedomapExp:
		return e.Var
	}
	return nil
}

// WithBodies is a copy of a form with parameters ps and bodies bs, in
// ExpBodies's order (either nil: the expression's own). Passes that
// rewrite every body of a form, a redomap's two included, rebuild it with
// it; other expressions are returned as they are.
func WithBodies(e Exp, ps []*Param, bs []*Body) Exp {
	if bs == nil {
		bs = ExpBodies(e)
	}
	switch e := e.(type) {
	case *IfExp:
		c := *e
		c.Then, c.Else = bs[0], bs[1]
		return &c
	case *KernelExp:
		c := *e
		c.Body = bs[0]
		return &c
	case *RedomapExp:
		c := *e
		if ps != nil {
			c.Params = ps
		}
		c.Map, c.Op = bs[0], bs[1]
		return &c
	}
	if len(bs) != 1 {
		return e
	}
	return WithParts(e, ps, bs[0])
}

// WithParts is a copy of a loop, reduce, scan or filter with parameters
// ps and body b (either nil: the expression's own); other expressions are
// returned as they are. Passes that rewrite the parts ExpParams and
// ExpBody give them (FUNMEM's annotations, expansion, simplification)
// rebuild the form with it.
func WithParts(e Exp, ps []*Param, b *Body) Exp {
	if ps == nil {
		ps = ExpParams(e)
	}
	if b == nil {
		b = ExpBody(e)
	}
	switch e := e.(type) {
	case *LoopExp:
		c := *e
		c.Params, c.Body = ps, b
		return &c
	case *ReduceExp:
		c := *e
		c.Params, c.Body = ps, b
		return &c
	case *ScanExp:
		c := *e
		c.Params, c.Body = ps, b
		return &c
	case *FilterExp:
		c := *e
		c.Params, c.Body = ps, b
		return &c
	}
	return e
}

// MapSExp is MapProgram for a scalar expression (whose identifiers are
// all uses).
func MapSExp(e SExp, f IdentFunc) SExp {
	switch e := e.(type) {
	case *Const:
		c := *e
		return &c
	case *FloatConst:
		c := *e
		return &c
	case *Call:
		return &Call{NamePos: e.NamePos, Func: e.Func, Arg: MapSExp(e.Arg, f), Rparen: e.Rparen}
	case Var:
		return Var{Ident: f(e.Ident, false)}
	case *BinOp:
		return &BinOp{OpPos: e.OpPos, Op: e.Op, L: MapSExp(e.L, f), R: MapSExp(e.R, f), Lparen: e.Lparen, Rparen: e.Rparen}
	case *UnOp:
		return &UnOp{OpPos: e.OpPos, Op: e.Op, X: MapSExp(e.X, f), Rparen: e.Rparen}
	}
	panic(fmt.Sprintf("fun.MapSExp: unknown scalar expression %T", e))
}

// MapIdentList is MapProgram for a list of identifiers that are uses (a
// body's results, a type's sizes).
func MapIdentList(xs []*Ident, f IdentFunc) []*Ident {
	if xs == nil {
		return nil
	}
	out := make([]*Ident, len(xs))
	for i, x := range xs {
		out[i] = f(x, false)
	}
	return out
}

// CloneIdent returns a new identifier, equal to x.
func CloneIdent(x *Ident) *Ident {
	c := *x
	return &c
}

// CloneProgram returns a deep copy of p: no node of the copy is shared with
// p (but the leaves of extensions that are no mappers).
func CloneProgram(p *Program) *Program { return MapProgram(p, All(CloneIdent)) }

// SameOr is p when q, what a pass made of it, is equal to it, node for
// node and position for position (the pass changed nothing), else q: a
// pass that works on a copy returns its input unchanged, so that the
// walks of a registry that remembers stages (lang.Registry.Memo) see one
// program where nothing changed.
func SameOr(p, q *Program) *Program {
	if Equal(p, q) {
		return p
	}
	return q
}

// CloneBody returns a deep copy of b.
func CloneBody(b *Body) *Body { return MapBody(b, All(CloneIdent)) }

// CloneStm returns a deep copy of s.
func CloneStm(s *Stm) *Stm { return MapStm(s, All(CloneIdent)) }

// CloneExp returns a deep copy of e.
func CloneExp(e Exp) Exp { return MapExp(e, All(CloneIdent)) }

// CloneSExp returns a deep copy of e.
func CloneSExp(e SExp) SExp { return MapSExp(e, All(CloneIdent)) }

// Renaming renames by m: it gives an identifier whose name m maps a new
// identifier of the new name at the same position, and keeps the others.
func Renaming(m map[string]string) func(*Ident) *Ident {
	return func(x *Ident) *Ident {
		if y, ok := m[x.Name]; ok {
			return &Ident{NamePos: x.NamePos, Name: y}
		}
		return x
	}
}

// All is the IdentFunc that passes every identifier, binders and uses,
// through f.
func All(f func(*Ident) *Ident) IdentFunc {
	return func(x *Ident, _ bool) *Ident { return f(x) }
}

// Uses is the IdentFunc that passes the uses of variables through f and
// keeps the binders, for substitutions that must not touch patterns.
func Uses(f func(*Ident) *Ident) IdentFunc {
	return func(x *Ident, binder bool) *Ident {
		if binder {
			return x
		}
		return f(x)
	}
}

// Substitute returns e with each variable x for which f returns an
// expression replaced by it; the rest of e is copied, but for the
// variables kept and the constants, which are shared.
func Substitute(e SExp, f func(*Ident) SExp) SExp {
	switch e := e.(type) {
	case Var:
		if r := f(e.Ident); r != nil {
			return r
		}
		return e
	case *UnOp:
		return &UnOp{OpPos: e.OpPos, Op: e.Op, X: Substitute(e.X, f)}
	case *Call:
		return &Call{NamePos: e.NamePos, Func: e.Func, Arg: Substitute(e.Arg, f)}
	case *BinOp:
		return &BinOp{OpPos: e.OpPos, Op: e.Op, L: Substitute(e.L, f), R: Substitute(e.R, f)}
	}
	return e
}

// RenameSExp renames the variables of a scalar expression by m.
func RenameSExp(e SExp, m map[string]string) SExp {
	return Substitute(e, func(x *Ident) SExp {
		if y, ok := m[x.Name]; ok {
			return Var{Ident: &Ident{NamePos: x.NamePos, Name: y}}
		}
		return nil
	})
}

// Scalar expression constructors, for passes that build trees (positions
// are zero: built nodes have no source).

// Int is the constant k.
func Int(k int64) SExp { return &Const{Value: k} }

// Named is the variable named x.
func Named(x string) SExp { return Var{Ident: &Ident{Name: x}} }

// Binary is l op r.
func Binary(op semantics.Op, l, r SExp) SExp { return &BinOp{Op: op, L: l, R: r} }

// Neg is −x.
func Neg(x SExp) SExp { return &UnOp{Op: semantics.Neg, X: x} }

// CanFail reports whether a scalar expression can be stuck: a partial
// operator (semantics.Op.Partial: division or remainder by anything but a
// non-zero constant, a checked operator whose operands are not constants
// it holds on) or int(se), which is stuck on NaN and ±Inf. Passes that
// move a computation to where it runs more often, or drop it, ask it.
func CanFail(e SExp) bool {
	switch e := e.(type) {
	case *BinOp:
		if e.Op.Partial() && !holds(e) {
			return true
		}
		return CanFail(e.L) || CanFail(e.R)
	case *UnOp:
		return CanFail(e.X)
	case *Call:
		return e.Func == semantics.ToInt || CanFail(e.Arg)
	}
	return false
}

// holds reports whether a partial operator cannot be stuck on its
// operands: a division or remainder by a non-zero constant, or a
// checked operator whose constant operands it holds on.
func holds(e *BinOp) bool {
	r, ok := e.R.(*Const)
	if !ok {
		return false
	}
	if !e.Op.IsChecked() {
		return r.Value != 0
	}
	l, ok := e.L.(*Const)
	if !ok {
		return false
	}
	_, err := semantics.Binary(e.Op, l.Value, r.Value)
	return err == nil
}

// FormName names a statement's form (kernel, iota, reduce, …), for the
// notes of the passes.
func FormName(e Exp) string {
	switch e := e.(type) {
	case *KernelExp:
		return "kernel"
	case *IotaExp:
		return "iota"
	case *CopyExp:
		return "copy"
	case *LoopExp:
		return "loop"
	case *ReduceExp:
		return "reduce"
	case *ScanExp:
		return "scan"
	case *FilterExp:
		return "filter"
	case *RedomapExp:
		return RedomapWord(e)
	case *IfExp:
		return "if"
	case *AssertExp:
		return "assert"
	case *IndexExp:
		return "read"
	case *SliceExp:
		return "slice"
	case *TransposeExp:
		return "transpose"
	}
	return "scalar statement"
}

// Binders are the names bound anywhere in b: its statements' patterns,
// the indices and parameters of the forms in it, at any depth.
func Binders(b *Body) map[string]bool {
	out := map[string]bool{}
	BindersInto(out, b)
	return out
}

// BindersInto adds the names bound anywhere in n to out.
func BindersInto(out map[string]bool, n Node) {
	Inspect(n, func(n Node) bool {
		switch n := n.(type) {
		case *Param:
			out[n.Name.Name] = true
		case *KernelExp:
			out[n.Var.Name] = true
		case *LoopExp:
			out[n.Var.Name] = true
		case *RedomapExp:
			out[n.Var.Name] = true
		}
		return true
	})
}
