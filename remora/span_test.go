package remora

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
	}
	return out, within
}

// checkTermSpans checks the spans of the terms of a program parsed from
// src, whose s-expressions span spans: every term's span is known, in
// order, exactly one s-expression of the file (so its text reads as one
// s-expression spanning all of it), and lies within its parent's (a Let's
// Body excepted).
func checkTermSpans(src string, spans map[spantest.Span]bool, e Expr, problems *[]string, checked *int) {
	bad := func(format string, args ...any) { *problems = append(*problems, fmt.Sprintf(format, args...)) }
	*checked++
	from, to := e.At(), e.End()
	switch {
	case !from.IsValid() || !to.IsValid():
		bad("%T %s at %v: span %v-%v is not known", e, short(e), from, from, to)
	case !spantest.LessEq(from, to):
		bad("%T %s: Pos %v is after End %v", e, short(e), from, to)
	case !spans[spantest.Span{From: from, To: to}]:
		bad("%T %s: span %v-%v is no s-expression's", e, short(e), from, to)
	default:
		if s, err := spantest.OneSExp(src, from, to); err != nil {
			bad("%T %s at %v-%v: %v", e, short(e), from, to, err)
		} else if !writtenAs(e, s) {
			bad("%T %s at %v-%v is written %s, no form of its kind", e, short(e), from, to, s)
		}
	}
	cs, within := children(e)
	for i, c := range cs {
		if within[i] && !(spantest.LessEq(from, c.At()) && spantest.LessEq(c.End(), to)) {
			bad("%T %s at %v-%v is not within its %T at %v-%v", c, short(c), c.At(), c.End(), e, from, to)
		}
		checkTermSpans(src, spans, c, problems, checked)
	}
}

// TestSpans checks the spans of the s-expressions and of the terms of
// every example of the typed dialect and every program of
// testdata/parse.txt and testdata/check.txt that parses.
func TestSpans(t *testing.T) {
	srcs := spantest.SourcesOf(t, filepath.Join("..", "examples", "remora", "*.remora"),
		[]string{filepath.Join("testdata", "parse.txt"), filepath.Join("testdata", "check.txt")}, ";")
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
	}
	return false
}
