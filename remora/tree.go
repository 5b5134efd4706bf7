package remora

// The term structure shared by the compile path's passes (Inline,
// Simplify): a term's subterms in evaluation order, rebuilding a term
// with new ones, and the names a list of parameters binds.

// subterms are e's subterms in the order the big-step evaluates them
// (remora/eval.go): an application's function, then its arguments; a
// MAP's arguments, then its body; a box's contents before the body that
// opens it; a CASE's tag, then its alternatives, of which only the one
// the tag selects runs (Simplify's delayed).
func Subterms(e Expr) []Expr {
	switch e := forced(e).(type) {
	case *Frame:
		return e.Elems
	case *Lam:
		return []Expr{e.Body}
	case *TLam:
		return []Expr{e.Body}
	case *ILam:
		return []Expr{e.Body}
	case *App:
		return append([]Expr{e.Fn}, e.Args...)
	case *TApp:
		return []Expr{e.Fn}
	case *IApp:
		return []Expr{e.Fn}
	case *Pack:
		return []Expr{e.Body}
	case *Unpack:
		return []Expr{e.Box, e.Body}
	case *Let:
		return []Expr{e.Val, e.Body}
	case *LiftDim:
		return []Expr{e.N, e.Body}
	case *Reshape:
		return []Expr{e.E}
	case *Map:
		return append(append([]Expr{}, e.Args...), e.Body)
	case *Rep:
		return []Expr{e.E}
	case *Case:
		return append([]Expr{e.Tag}, e.Alts...)
	}
	return nil
}

// withSubterms is a new node like e with the subterms kids (in the order
// of subterms). e is not changed.
func WithSubterms(e Expr, kids []Expr) Expr {
	switch e := forced(e).(type) {
	case *Frame:
		n := *e
		n.Elems = kids
		return &n
	case *Lam:
		n := *e
		n.Body = kids[0]
		return &n
	case *TLam:
		n := *e
		n.Body = kids[0]
		return &n
	case *ILam:
		n := *e
		n.Body = kids[0]
		return &n
	case *App:
		n := *e
		n.Fn, n.Args = kids[0], kids[1:]
		return &n
	case *TApp:
		n := *e
		n.Fn = kids[0]
		return &n
	case *IApp:
		n := *e
		n.Fn = kids[0]
		return &n
	case *Pack:
		n := *e
		n.Body = kids[0]
		return &n
	case *Unpack:
		n := *e
		n.Box, n.Body = kids[0], kids[1]
		return &n
	case *Let:
		n := *e
		n.Val, n.Body = kids[0], kids[1]
		return &n
	case *LiftDim:
		n := *e
		n.N, n.Body = kids[0], kids[1]
		return &n
	case *Reshape:
		n := *e
		n.E = kids[0]
		return &n
	case *Map:
		n := *e
		n.Args, n.Body = kids[:len(kids)-1], kids[len(kids)-1]
		return &n
	case *Rep:
		n := *e
		n.E = kids[0]
		return &n
	case *Case:
		n := *e
		n.Tag, n.Alts = kids[0], kids[1:]
		return &n
	}
	return e
}

// abstractionVars are the variables a Tλ or Iλ binds.
func AbstractionVars(e Expr) []string {
	switch e := e.(type) {
	case *TLam:
		return e.Vars
	case *ILam:
		return e.Vars
	}
	return nil
}

func NamesOf(ps []Param) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}
