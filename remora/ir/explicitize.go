package ir

import (
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Explicitize is the stage of §4.3 of "Remora Compiler — A Master's Project": it makes
// every implicit lift explicit. An application (f a …) whose principal
// frame F is not empty becomes
//
//	(MAP [F] ([x τ a′] …) (f x …))
//
// where τ is the parameter's cell type and a′ is a grown to the frame F:
// a itself when its frame is F, (REP [F] a) when its frame is empty, and
// (MAP [Fa] ([y τ a]) (REP [Q] y)) when its frame Fa is a proper prefix of
// F = Fa ++ Q (each cell is replicated inside the argument's own frame,
// which is the REPLICATE of §5.5). So every function receives cells of
// exactly its parameters' types, and the lifting that Fig 6's lift and map
// rules do at run time is now in the program. An applied λ, which the
// checker makes of every let, becomes the MAP itself, with the λ's body as
// the MAP's: a let is a MAP over the empty frame, as in the paper. A
// frame of functions is mapped over like an argument.
//
// p must be checked; the result is checked again by the caller (the
// driver re-checks every stage). p is not changed.
func Explicitize(p *remora.Program) (*remora.Program, error) {
	types := map[remora.Expr]*remora.Arr{}
	q := &remora.Program{File: p.File, Exprs: append([]remora.Expr{}, p.Exprs...)}
	if _, err := remora.Check(q, &remora.CheckOptions{Types: types}); err != nil {
		return nil, err
	}
	x := &explicitizer{types: types}
	out := &remora.Program{File: p.File, Source: p.Source, Open: p.Open, Rational: p.Rational}
	for _, e := range q.Exprs {
		ne, err := x.top(e)
		if err != nil {
			return nil, err
		}
		out.Exprs = append(out.Exprs, ne)
	}
	return out, nil
}

type explicitizer struct {
	types map[remora.Expr]*remora.Arr
}

func (x *explicitizer) top(e remora.Expr) (ne remora.Expr, err error) {
	defer semantics.Catch(&err)
	return x.expr(e), nil
}

// typeOf is a checked term's type.
func (x *explicitizer) typeOf(e remora.Expr) *remora.Arr {
	t, ok := x.types[e]
	if !ok {
		fail(e.At(), "Explicitize: no type recorded for %s", remora.Short(e))
	}
	return t
}

func (x *explicitizer) expr(e remora.Expr) remora.Expr {
	switch e := e.(type) {
	case *remora.Var, *remora.Prim, *remora.Lit, *remora.Reify:
		return e
	case *remora.Frame:
		n := *e
		n.Elems = make([]remora.Expr, len(e.Elems))
		for i, el := range e.Elems {
			n.Elems[i] = x.expr(el)
		}
		return &n
	case *remora.Lam:
		n := *e
		n.Body = x.expr(e.Body)
		return &n
	case *remora.TLam:
		n := *e
		n.Body = x.expr(e.Body)
		return &n
	case *remora.ILam:
		n := *e
		n.Body = x.expr(e.Body)
		return &n
	case *remora.TApp:
		n := *e
		n.Fn = x.expr(e.Fn)
		return &n
	case *remora.IApp:
		n := *e
		n.Fn = x.expr(e.Fn)
		return &n
	case *remora.Pack:
		n := *e
		n.Body = x.expr(e.Body)
		return &n
	case *remora.Unpack:
		n := *e
		n.Box, n.Body = x.expr(e.Box), x.expr(e.Body)
		return &n
	case *remora.LiftDim:
		n := *e
		n.N, n.Body = x.expr(e.N), x.expr(e.Body)
		return &n
	case *remora.Reshape:
		n := *e
		n.E = x.expr(e.E)
		return &n
	case *remora.Rep:
		n := *e
		n.E = x.expr(e.E)
		return &n
	case *remora.Case:
		n := *e
		n.Tag = x.expr(e.Tag)
		n.Alts = make([]remora.Expr, len(e.Alts))
		for i, a := range e.Alts {
			n.Alts[i] = x.expr(a)
		}
		return &n
	case *remora.Map:
		n := *e
		n.Args = make([]remora.Expr, len(e.Args))
		for i, a := range e.Args {
			n.Args[i] = x.expr(a)
		}
		n.Body = x.expr(e.Body)
		return &n
	case *remora.App:
		return x.app(e)
	}
	fail(e.At(), "Explicitize: unexpected term %s", remora.Short(e))
	return nil
}

// app makes an application's frame explicit.
func (x *explicitizer) app(e *remora.App) remora.Expr {
	ft := x.typeOf(e.Fn)
	f := ft.Elem.(*remora.Fn)
	ret := f.Ret.(*remora.Arr)
	frame, ok := e.Type.Shape.CutSuffix(ret.Shape)
	if !ok {
		fail(e.Pos, "Explicitize: the application's type %s does not end with its function's result %s", remora.TypeString(e.Type), remora.TypeString(ret))
	}
	params := make([]remora.Param, len(e.Args))
	args := make([]remora.Expr, len(e.Args))
	for i, a := range e.Args {
		cell := f.Params[i].(*remora.Arr)
		params[i] = remora.Param{Name: remora.Fresh("x"), Type: cell}
		args[i] = x.grow(x.expr(a), x.typeOf(a), cell, frame)
	}
	fn := x.expr(e.Fn)
	lam, isLam := fn.(*remora.Lam)
	if isLam && len(ft.Shape) == 0 {
		// An applied λ (a let): the MAP binds its parameters.
		for i := range params {
			params[i].Name = lam.Params[i].Name
		}
		return &remora.Map{Pos: e.Pos, EndPos: e.EndPos, Frame: frame, Params: params, Args: args, Body: lam.Body}
	}
	if len(frame) == 0 {
		return &remora.App{Pos: e.Pos, EndPos: e.EndPos, Fn: fn, Args: args, Type: e.Type}
	}
	vars := make([]remora.Expr, len(params))
	for i, p := range params {
		vars[i] = &remora.Var{Pos: e.Pos, Name: p.Name}
	}
	call := &remora.App{Pos: e.Pos, EndPos: e.EndPos, Args: vars, Type: ret}
	if len(ft.Shape) > 0 {
		// A frame of functions is one more argument of the MAP.
		g := remora.Param{Name: remora.Fresh("f"), Type: &remora.Arr{Elem: f}}
		call.Fn = &remora.Var{Pos: e.Pos, Name: g.Name}
		return &remora.Map{Pos: e.Pos, EndPos: e.EndPos, Frame: frame,
			Params: append([]remora.Param{g}, params...),
			Args:   append([]remora.Expr{x.grow(fn, ft, g.Type.(*remora.Arr), frame)}, args...),
			Body:   call}
	}
	if !remora.IsValue(fn) && !isFunctionValue(fn) {
		// Fig 6 evaluates the function once, before the arguments: bind
		// it outside the MAP so that the body does not evaluate it per
		// cell (nor, over an empty frame, not at all).
		g := remora.Param{Name: remora.Fresh("f"), Type: ft}
		call.Fn = &remora.Var{Pos: e.Pos, Name: g.Name}
		inner := &remora.Map{Pos: e.Pos, EndPos: e.EndPos, Frame: frame, Params: params, Args: args, Body: call}
		return &remora.Map{Pos: e.Pos, EndPos: e.EndPos, Params: []remora.Param{g}, Args: []remora.Expr{fn}, Body: inner}
	}
	call.Fn = fn
	return &remora.Map{Pos: e.Pos, EndPos: e.EndPos, Frame: frame, Params: params, Args: args, Body: call}
}

// isFunctionValue reports whether a function term cannot go wrong or do
// work when evaluated: a variable, a primitive, an abstraction, or a type
// or index application of one of them.
func isFunctionValue(e remora.Expr) bool {
	switch e := e.(type) {
	case *remora.Var, *remora.Prim, *remora.Lam, *remora.TLam, *remora.ILam:
		return true
	case *remora.TApp:
		return isFunctionValue(e.Fn)
	case *remora.IApp:
		return isFunctionValue(e.Fn)
	}
	return false
}

// grow makes the argument a, of type at (its frame around cells of type
// cell), have exactly the frame: a REP when a has no frame, a MAP over
// a's own frame replicating each cell when its frame is a proper prefix.
func (x *explicitizer) grow(a remora.Expr, at, cell *remora.Arr, frame remora.Shape) remora.Expr {
	own, ok := at.Shape.CutSuffix(cell.Shape)
	if !ok || !own.IsPrefixOf(frame) {
		fail(a.At(), "Explicitize: argument of type %s is not a frame prefix of %s around cells of type %s", remora.TypeString(at), frame, remora.TypeString(cell))
	}
	if len(own) == len(frame) {
		return a
	}
	rest := frame[len(own):]
	if len(own) == 0 {
		return &remora.Rep{Pos: a.At(), Frame: rest, E: a}
	}
	if mutant.On("explicitize-rep-outside") { // mutant: the frame's items in the wrong order
		return &remora.Rep{Pos: a.At(), Frame: rest, E: a}
	}
	y := remora.Fresh("y")
	return &remora.Map{Pos: a.At(), Frame: own,
		Params: []remora.Param{{Name: y, Type: cell}},
		Args:   []remora.Expr{a},
		Body:   &remora.Rep{Pos: a.At(), Frame: rest, E: &remora.Var{Pos: a.At(), Name: y}}}
}

// fail stops a pass at pos: Explicitize and Inline work deep in a
// recursion and report the first term they cannot translate, which their
// entry points turn into their error (semantics.Catch).
func fail(pos semantics.Pos, format string, args ...any) {
	panic(semantics.Errorf(pos, semantics.SyntaxError, "", format, args...))
}
