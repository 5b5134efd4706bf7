package dynamic

import (
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/internal/spantest"
	"github.com/arraysem/arraysem/semantics"
)

// children are e's subterms, and whether each must lie within e's span: a
// Let's Body follows its binding, outside the Let's span (see Expr), as
// a Rec's body and later definitions follow its first.
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
	case *App:
		add(true, e.Shape, e.Fn)
		add(true, e.Args...)
	case *Let:
		add(true, e.Val)
		add(false, e.Body)
	case *Unbox:
		add(true, e.Box, e.Body)
	case *Rec:
		// A Rec spans its first definition; the others, and the body,
		// follow it.
		for i, d := range e.Defs {
			add(i == 0, d.Val)
		}
		add(false, e.Body)
	}
	return out, within
}

// writtenAs reports whether s, the s-expression e spans, is a form e can
// be read from.
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
		return s.IsAtom(e.Name) || form("rerank")
	case *Prim:
		return s.IsAtom(e.Def.Name)
	case *Lit:
		return s.Kind != semantics.Curly
	case *Frame:
		return s.IsList('[') || form("vec")
	case *Lam:
		return form("λ", "lambda", "fn", "define", "def", "rerank")
	case *App:
		return s.IsList('(') && len(s.List) > 0 || form("apply/shape", "rerank")
	case *Let:
		// A binding (x e), a definition, or an expression of a body
		// whose value is dropped.
		return true
	case *Unbox:
		return form("unbox")
	case *Rec:
		return form("define", "def")
	}
	return false
}

// TestSpans checks the spans of the s-expressions and of the terms of
// every example of the dialect and every program of testdata/*.txt that
// parses.
func TestSpans(t *testing.T) {
	goldens, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	srcs := spantest.SourcesOf(t, filepath.Join("..", "..", "examples", "remora-dynamic", "*.remora"), goldens, ";")
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
		String:    ExprString,
	})
}
