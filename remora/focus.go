package remora

import "github.com/arraysem/arraysem/lang"

// The focus of a step (lang.Focus): step descends an evaluation context to
// the redex and rebuilds the term along that path only, so the subterm at
// the same path in the term after the step is the contractum. redexPath
// follows step's descent; at finds a subterm by path.

// redexPath is the path (child indices, as at numbers them) from e to the
// subterm step reduces.
func redexPath(e Expr) []int {
	var path []int
	for {
		i := nextChild(e)
		if i < 0 {
			return path
		}
		path = append(path, i)
		e = at(e, []int{i})
	}
}

// nextChild is the child of e that step descends into, or -1 when e is
// itself the redex.
func nextChild(e Expr) int {
	switch e := e.(type) {
	case *App:
		if !isValue(e.Fn) {
			return 0
		}
		for i, a := range e.Args {
			if !isValue(a) {
				return i + 1
			}
		}
	case *Frame:
		for i, el := range e.Elems {
			if !isValue(el) {
				return i
			}
		}
	case *TApp:
		if !isValue(e.Fn) {
			return 0
		}
	case *IApp:
		if !isValue(e.Fn) {
			return 0
		}
	case *Pack:
		return 0
	case *Unpack:
		if !isValue(e.Box) {
			return 0
		}
	case *LiftDim:
		if !isValue(e.N) {
			return 0
		}
	case *Reshape:
		if !isValue(e.E) {
			return 0
		}
	}
	return -1
}

// at is the subterm of e at path (nil if there is none).
func at(e Expr, path []int) Expr {
	for _, i := range path {
		switch x := e.(type) {
		case *App:
			if i == 0 {
				e = x.Fn
			} else if i-1 < len(x.Args) {
				e = x.Args[i-1]
			} else {
				return nil
			}
		case *Frame:
			if i >= len(x.Elems) {
				return nil
			}
			e = x.Elems[i]
		case *TApp:
			e = x.Fn
		case *IApp:
			e = x.Fn
		case *Pack:
			e = x.Body
		case *Unpack:
			e = x.Box
		case *LiftDim:
			e = x.N
		case *Reshape:
			e = x.E
		default:
			return nil
		}
	}
	return e
}

// Focus is the focus of a step of Fig 6 from prev to next: the
// contractum's span in next as printed, and the redex of prev.
func Focus(prev, next Expr) lang.Focus {
	path := redexPath(prev)
	f := lang.Focus{Lo: -1, Hi: -1}
	if r := at(prev, path); r != nil {
		f.Redex = ExprString(r)
	}
	f.Text, f.Lo, f.Hi = ExprStringMarked(next, at(next, path))
	return f
}
