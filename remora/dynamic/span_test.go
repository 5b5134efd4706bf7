package dynamic

import (
	"fmt"
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
	case *App:
		add(true, e.Shape, e.Fn)
		add(true, e.Args...)
	case *Let:
		add(true, e.Val)
		add(false, e.Body)
	case *Unbox:
		add(true, e.Box, e.Body)
	}
	return out, within
}

// checkTermSpans checks the spans of the terms of a program parsed from
// src, whose s-expressions span spans: every term's span is known, in
// order, exactly one s-expression of the file (so its text reads as one
// s-expression spanning all of it) of a form the term can come from, and
// lies within its parent's (a Let's Body excepted).
func checkTermSpans(src string, spans map[spantest.Span]bool, e Expr, problems *[]string, checked *int) {
	bad := func(format string, args ...any) { *problems = append(*problems, fmt.Sprintf(format, args...)) }
	*checked++
	from, to := e.At(), e.End()
	switch {
	case !from.IsValid() || !to.IsValid():
		bad("%T %s at %v: span %v-%v is not known", e, ExprString(e), from, from, to)
	case !spantest.LessEq(from, to):
		bad("%T %s: Pos %v is after End %v", e, ExprString(e), from, to)
	case !spans[spantest.Span{From: from, To: to}]:
		bad("%T %s: span %v-%v is no s-expression's", e, ExprString(e), from, to)
	default:
		if s, err := spantest.OneSExp(src, from, to); err != nil {
			bad("%T %s at %v-%v: %v", e, ExprString(e), from, to, err)
		} else if !writtenAs(e, s) {
			bad("%T %s at %v-%v is written %s, no form of its kind", e, ExprString(e), from, to, s)
		}
	}
	cs, within := children(e)
	for i, c := range cs {
		if within[i] && !(spantest.LessEq(from, c.At()) && spantest.LessEq(c.End(), to)) {
			bad("%T %s at %v-%v is not within its %T at %v-%v", c, ExprString(c), c.At(), c.End(), e, from, to)
		}
		checkTermSpans(src, spans, c, problems, checked)
	}
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
	}
	return false
}

// TestSpans checks the spans of the s-expressions and of the terms of
// every example of the dialect and every program of testdata/*.txt that
// parses.
func TestSpans(t *testing.T) {
	goldens, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	srcs := spantest.SourcesOf(t, filepath.Join("..", "..", "examples", "remora-dynamic", "*.remora"), goldens, ";")
	files, terms := 0, 0
	for _, s := range srcs {
		sexps, _, err := semantics.ReadSExps(s.Name, s.Src)
		if err != nil {
			continue
		}
		spans, problems, _ := spantest.SExps(s.Src, sexps)
		p, err := ParseSExps(s.Name, sexps)
		if err == nil {
			files++
			for _, e := range p.Exprs {
				checkTermSpans(s.Src, spans, e, &problems, &terms)
			}
		}
		for i, pr := range problems {
			if i == 10 {
				t.Errorf("%s: … %d more", s.Name, len(problems)-i)
				break
			}
			t.Errorf("%s: %s", s.Name, pr)
		}
	}
	if files < 50 || terms < 1000 {
		t.Errorf("checked %d terms of %d programs: too few", terms, files)
	}
	t.Logf("checked %d terms of %d programs", terms, files)
}
