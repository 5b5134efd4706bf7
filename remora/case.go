package remora

import (
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// Case is (CASE e e0 e1 …) of the compiler IR: e is an int scalar, the
// tag, and the CASE is the alternative e_tag, the only one evaluated. It
// is the apply function of a defunctionalised array of functions
// (Reynolds' defunctionalisation): Inline compiles an application of an
// array of distinct functions — MIMD, ([+ -] 10 3), which §4.4 of
// "Remora Compiler — A Master's Project" leaves out — to a MAP over the
// array's frame whose cells carry the index of their function (the tag)
// and whose body branches on it, each alternative the inlined body of
// one function. The source dialects do not read CASE; the IR does. Type
// is filled in by the checker: the alternatives' one type.
type Case struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Tag    Expr
	Alts   []Expr
	Type   *Arr
}

// At is where the term starts: its Pos.
func (e *Case) At() semantics.Pos { return e.Pos }

// End is the position just after the term's source, or the zero Pos.
func (e *Case) End() semantics.Pos { return e.EndPos }

func (*Case) exprNode() {}

// checkCase is T-CASE.
func (c *checker) checkCase(e *Case, s *scope) (Expr, *Arr, *semantics.Derivation) {
	if len(e.Alts) == 0 {
		typeErr(e.Pos, RuleTCase.Name, "CASE needs at least one alternative")
	}
	tag, tt, td := c.expr(e.Tag, s)
	if !Equal(tt, &Arr{Elem: Int}) {
		typeErr(e.Tag.At(), RuleTCase.Name, "CASE's tag has type %s, not int", TypeString(tt))
	}
	ne := &Case{Pos: e.Pos, EndPos: e.EndPos, Tag: tag}
	ds := []*semantics.Derivation{td}
	var t *Arr
	for i, a := range e.Alts {
		na, at, ad := c.expr(a, s)
		if t == nil {
			t = at
		} else if !Equal(at, t) {
			typeErr(a.At(), RuleTCase.Name, "CASE's alternative %d has type %s, alternative 0 %s", i, TypeString(at), TypeString(t))
		}
		ne.Alts = append(ne.Alts, na)
		ds = append(ds, ad)
	}
	ne.Type = t
	return ne, t, c.node(RuleTCase.Name, ne, t, ds...)
}

// caseAlt is the alternative a CASE's tag value selects, or the error of
// a tag out of range (Inline makes none).
func CaseAlt(e *Case, tag *Value) (Expr, error) {
	k := tag.I[0]
	if k < 0 || k >= int64(len(e.Alts)) {
		return nil, semantics.Stuckf(e.Pos, RuleCASE.Name, "the tag %d is not one of the %d alternatives", k, len(e.Alts))
	}
	return e.Alts[k], nil
}

// evalCase is the big-step CASE: the tag, then the one alternative.
func (ev *evaluator) evalCase(e *Case, env *Env) (*Value, error) {
	tv, err := ev.eval(e.Tag, env)
	if err != nil {
		return nil, err
	}
	alt, err := CaseAlt(e, tv)
	if err != nil {
		return nil, err
	}
	ev.counter.Hit(RuleCASE.Name)
	return ev.eval(alt, env)
}

// writeCase prints (CASE e e0 e1 …).
func writeCase(b *printer, e *Case) {
	b.WriteString("(CASE ")
	writeExpr(b, e.Tag)
	for _, a := range e.Alts {
		b.WriteByte(' ')
		writeExpr(b, a)
	}
	b.WriteByte(')')
}

// parseCase reads (CASE e e0 e1 …).
func parseCase(s *semantics.SExp, args []*semantics.SExp) Expr {
	if len(args) < 2 {
		fail(s.Pos, "CASE is (CASE tag e0 e1 …), with at least one alternative")
	}
	c := &Case{Pos: s.Pos, EndPos: s.End, Tag: parseExpr(args[0])}
	for _, a := range args[1:] {
		c.Alts = append(c.Alts, parseExpr(a))
	}
	return c
}

// prettyCase lays out a CASE that does not fit on a line: the tag after
// CASE, each alternative on a line of its own.
func prettyCase(b *strings.Builder, e *Case, col int) {
	b.WriteString("(CASE ")
	pretty(b, e.Tag, col+6)
	for _, a := range e.Alts {
		b.WriteString("\n" + strings.Repeat(" ", col+2))
		pretty(b, a, col+2)
	}
	b.WriteByte(')')
}
