package remora

import (
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/internal/spantest"
	"github.com/arraysem/arraysem/semantics"
)

// children are e's subterms, and whether each must lie within e's span: a
// Let's Body follows its binding, outside the Let's span (see Expr).
func children(e Expr) (out []Expr, within []bool) {
	add := func(w bool, es ...Expr) {
		for _, c := range es {
			if c != nil {
				out, within = append(out, c), append(within, w)
			}
		}
	}
	switch e := e.(type) {
	case *Frame:
		add(true, e.Elems...)
	case *Lam:
		add(true, e.Body)
	case *TLam:
		add(true, e.Body)
	case *ILam:
		add(true, e.Body)
	case *App:
		add(true, e.Fn)
		add(true, e.Args...)
	case *TApp:
		add(true, e.Fn)
	case *IApp:
		add(true, e.Fn)
	case *Pack:
		add(true, e.Body)
	case *Unpack:
		add(true, e.Box, e.Body)
	case *Let:
		add(true, e.Val)
		add(false, e.Body)
	case *LiftDim:
		add(true, e.N, e.Body)
	case *Reshape:
		add(true, e.E)
	case *Map:
		add(true, e.Args...)
		add(true, e.Body)
	case *Rep:
		add(true, e.E)
	}
	return out, within
}

// TestSpans checks the spans of the s-expressions and of the terms of
// every example of the typed dialect and every program of
// testdata/parse.txt and testdata/check.txt that parses.
func TestSpans(t *testing.T) {
	srcs := spantest.SourcesOf(t, filepath.Join("..", "examples", "remora", "*.remora"),
		[]string{filepath.Join("testdata", "parse.txt"), filepath.Join("testdata", "check.txt")}, ";")
	spantest.Terms(t, srcs, spantest.Dialect[Expr]{
		Parse: func(file string, sexps []*semantics.SExp) ([]Expr, error) {
			p, err := ParseSExps(file, sexps)
			if err != nil {
				return nil, err
			}
			return p.Exprs, nil
		},
		Children:  children,
		WrittenAs: writtenAs,
		String:    Short,
	})
}

// writtenAs reports whether s, the s-expression e spans, is a form e can
// be elaborated from.
func writtenAs(e Expr, s *semantics.SExp) bool {
	form := func(kws ...string) bool {
		if !s.IsList('(') || len(s.List) == 0 {
			return false
		}
		for _, kw := range kws {
			if s.List[0].IsAtom(kw) {
				return true
			}
		}
		return false
	}
	switch e := e.(type) {
	case *Var:
		return s.IsAtom(e.Name)
	case *Lit:
		return s.Kind != semantics.Curly
	case *Frame:
		return s.IsList('[') || form("frame", "array", "boxes")
	case *Lam:
		return form("fn", "λ", "define")
	case *TLam:
		return form("t-fn", "define")
	case *ILam:
		return form("i-fn", "define")
	case *App:
		return s.IsList('(') && len(s.List) > 0 && !(s.List[0].Kind == semantics.Atom && keywords[s.List[0].Text])
	case *TApp:
		return s.Kind == semantics.Curly && len(s.Left) > 0 || form("t-app")
	case *IApp:
		return s.Kind == semantics.Curly && len(s.Right) > 0 || form("i-app")
	case *Pack:
		return form("box") || s.IsList('(') && len(s.List) == 2 && s.List[0].Kind == semantics.List
	case *Unpack:
		return form("unbox")
	case *Let:
		return s.Kind == semantics.List && len(s.List) > 0 && s.List[0].Kind == semantics.Atom && !keywords[s.List[0].Text] || form("define")
	case *LiftDim:
		return form("lift")
	case *Reify:
		return form("reify-dimension", "reify-shape")
	case *Reshape:
		return form("reshape")
	case *Map:
		return form("MAP")
	case *Rep:
		return form("REP")
	case *Case:
		return form("CASE")
	}
	return false
}
