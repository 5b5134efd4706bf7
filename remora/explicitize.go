package remora

import "github.com/arraysem/arraysem/internal/mutant"

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
func Explicitize(p *Program) (*Program, error) {
	types := map[Expr]*Arr{}
	q := &Program{File: p.File, Exprs: append([]Expr{}, p.Exprs...)}
	if _, err := Check(q, &CheckOptions{Types: types}); err != nil {
		return nil, err
	}
	x := &explicitizer{types: types}
	out := &Program{File: p.File, Source: p.Source, Open: p.Open, Rational: p.Rational}
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
	types map[Expr]*Arr
}

func (x *explicitizer) top(e Expr) (ne Expr, err error) {
	defer catch(&err)
	return x.expr(e), nil
}

// typeOf is a checked term's type.
func (x *explicitizer) typeOf(e Expr) *Arr {
	t, ok := x.types[e]
	if !ok {
		fail(e.At(), "Explicitize: no type recorded for %s", short(e))
	}
	return t
}

func (x *explicitizer) expr(e Expr) Expr {
	switch e := e.(type) {
	case *Var, *Prim, *Lit, *Reify:
		return e
	case *Frame:
		n := *e
		n.Elems = make([]Expr, len(e.Elems))
		for i, el := range e.Elems {
			n.Elems[i] = x.expr(el)
		}
		return &n
	case *Lam:
		n := *e
		n.Body = x.expr(e.Body)
		return &n
	case *TLam:
		n := *e
		n.Body = x.expr(e.Body)
		return &n
	case *ILam:
		n := *e
		n.Body = x.expr(e.Body)
		return &n
	case *TApp:
		n := *e
		n.Fn = x.expr(e.Fn)
		return &n
	case *IApp:
		n := *e
		n.Fn = x.expr(e.Fn)
		return &n
	case *Pack:
		n := *e
		n.Body = x.expr(e.Body)
		return &n
	case *Unpack:
		n := *e
		n.Box, n.Body = x.expr(e.Box), x.expr(e.Body)
		return &n
	case *LiftDim:
		n := *e
		n.N, n.Body = x.expr(e.N), x.expr(e.Body)
		return &n
	case *Reshape:
		n := *e
		n.E = x.expr(e.E)
		return &n
	case *Rep:
		n := *e
		n.E = x.expr(e.E)
		return &n
	case *Map:
		n := *e
		n.Args = make([]Expr, len(e.Args))
		for i, a := range e.Args {
			n.Args[i] = x.expr(a)
		}
		n.Body = x.expr(e.Body)
		return &n
	case *App:
		return x.app(e)
	}
	fail(e.At(), "Explicitize: unexpected term %s", short(e))
	return nil
}

// app makes an application's frame explicit.
func (x *explicitizer) app(e *App) Expr {
	ft := x.typeOf(e.Fn)
	f := ft.Elem.(*Fn)
	ret := f.Ret.(*Arr)
	frame, ok := e.Type.Shape.CutSuffix(ret.Shape)
	if !ok {
		fail(e.Pos, "Explicitize: the application's type %s does not end with its function's result %s", TypeString(e.Type), TypeString(ret))
	}
	params := make([]Param, len(e.Args))
	args := make([]Expr, len(e.Args))
	for i, a := range e.Args {
		cell := f.Params[i].(*Arr)
		params[i] = Param{Name: Fresh("x"), Type: cell}
		args[i] = x.grow(x.expr(a), x.typeOf(a), cell, frame)
	}
	fn := x.expr(e.Fn)
	lam, isLam := fn.(*Lam)
	if isLam && len(ft.Shape) == 0 {
		// An applied λ (a let): the MAP binds its parameters.
		for i := range params {
			params[i].Name = lam.Params[i].Name
		}
		return &Map{Pos: e.Pos, EndPos: e.EndPos, Frame: frame, Params: params, Args: args, Body: lam.Body}
	}
	if len(frame) == 0 {
		return &App{Pos: e.Pos, EndPos: e.EndPos, Fn: fn, Args: args, Type: e.Type}
	}
	vars := make([]Expr, len(params))
	for i, p := range params {
		vars[i] = &Var{Pos: e.Pos, Name: p.Name}
	}
	call := &App{Pos: e.Pos, EndPos: e.EndPos, Args: vars, Type: ret}
	if len(ft.Shape) > 0 {
		// A frame of functions is one more argument of the MAP.
		g := Param{Name: Fresh("f"), Type: &Arr{Elem: f}}
		call.Fn = &Var{Pos: e.Pos, Name: g.Name}
		return &Map{Pos: e.Pos, EndPos: e.EndPos, Frame: frame,
			Params: append([]Param{g}, params...),
			Args:   append([]Expr{x.grow(fn, ft, g.Type.(*Arr), frame)}, args...),
			Body:   call}
	}
	if !isValue(fn) && !isFunctionValue(fn) {
		// Fig 6 evaluates the function once, before the arguments: bind
		// it outside the MAP so that the body does not evaluate it per
		// cell (nor, over an empty frame, not at all).
		g := Param{Name: Fresh("f"), Type: ft}
		call.Fn = &Var{Pos: e.Pos, Name: g.Name}
		inner := &Map{Pos: e.Pos, EndPos: e.EndPos, Frame: frame, Params: params, Args: args, Body: call}
		return &Map{Pos: e.Pos, EndPos: e.EndPos, Params: []Param{g}, Args: []Expr{fn}, Body: inner}
	}
	call.Fn = fn
	return &Map{Pos: e.Pos, EndPos: e.EndPos, Frame: frame, Params: params, Args: args, Body: call}
}

// isFunctionValue reports whether a function term cannot go wrong or do
// work when evaluated: a variable, a primitive, an abstraction, or a type
// or index application of one of them.
func isFunctionValue(e Expr) bool {
	switch e := e.(type) {
	case *Var, *Prim, *Lam, *TLam, *ILam:
		return true
	case *TApp:
		return isFunctionValue(e.Fn)
	case *IApp:
		return isFunctionValue(e.Fn)
	}
	return false
}

// grow makes the argument a, of type at (its frame around cells of type
// cell), have exactly the frame: a REP when a has no frame, a MAP over
// a's own frame replicating each cell when its frame is a proper prefix.
func (x *explicitizer) grow(a Expr, at, cell *Arr, frame Shape) Expr {
	own, ok := at.Shape.CutSuffix(cell.Shape)
	if !ok || !own.IsPrefixOf(frame) {
		fail(a.At(), "Explicitize: argument of type %s is not a frame prefix of %s around cells of type %s", TypeString(at), frame, TypeString(cell))
	}
	if len(own) == len(frame) {
		return a
	}
	rest := frame[len(own):]
	if len(own) == 0 {
		return &Rep{Pos: a.At(), Frame: rest, E: a}
	}
	if mutant.On("explicitize-rep-outside") { // mutant: the frame's items in the wrong order
		return &Rep{Pos: a.At(), Frame: rest, E: a}
	}
	y := Fresh("y")
	return &Map{Pos: a.At(), Frame: own,
		Params: []Param{{Name: y, Type: cell}},
		Args:   []Expr{a},
		Body:   &Rep{Pos: a.At(), Frame: rest, E: &Var{Pos: a.At(), Name: y}}}
}
