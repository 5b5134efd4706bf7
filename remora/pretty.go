package remora

import (
	"strings"
	"unicode/utf8"
)

// PrettyWidth is the width PrettyString keeps lines within where it can.
const PrettyWidth = 100

// PrettyString prints a term as ExprString does, but breaks the forms of
// the compiler IR across lines when they do not fit in PrettyWidth, as
// Appendix A of "The semantics of rank polymorphism" lays out its MAPs: a
// MAP's arguments one per line under the first, its body indented below;
// an application's arguments, an abstraction's and an unbox's body
// likewise. The text
// reads back as the same term (the reader ignores layout).
func PrettyString(e Expr) string {
	var b strings.Builder
	pretty(&b, e, 0)
	return b.String()
}

func pretty(b *strings.Builder, e Expr, col int) {
	e = forced(e)
	flat := ExprString(e)
	if col+utf8.RuneCountInString(flat) <= PrettyWidth {
		b.WriteString(flat)
		return
	}
	nl := func(c int) { b.WriteString("\n" + strings.Repeat(" ", c)) }
	switch e := e.(type) {
	case *Map:
		head := "(MAP [" + strings.Join(e.Frame.Items(), " ") + "] ("
		b.WriteString(head)
		at := col + utf8.RuneCountInString(head)
		for i, p := range e.Params {
			if i > 0 {
				nl(at)
			}
			open := "[" + p.Name + " " + TypeString(p.Type) + " "
			b.WriteString(open)
			pretty(b, e.Args[i], at+utf8.RuneCountInString(open))
			b.WriteByte(']')
		}
		b.WriteByte(')')
		nl(col + 2)
		pretty(b, e.Body, col+2)
		b.WriteByte(')')
	case *App:
		b.WriteByte('(')
		pretty(b, e.Fn, col+1)
		for _, a := range e.Args {
			nl(col + 2)
			pretty(b, a, col+2)
		}
		b.WriteByte(')')
	case *Lam:
		l := *e
		l.Body = &Var{Name: "_"}
		head := strings.TrimSuffix(ExprString(&l), " _)")
		b.WriteString(head)
		nl(col + 2)
		pretty(b, e.Body, col+2)
		b.WriteByte(')')
	case *TLam:
		b.WriteString("(t-fn (" + strings.Join(e.Vars, " ") + ")")
		nl(col + 2)
		pretty(b, e.Body, col+2)
		b.WriteByte(')')
	case *ILam:
		b.WriteString("(i-fn (" + strings.Join(e.Vars, " ") + ")")
		nl(col + 2)
		pretty(b, e.Body, col+2)
		b.WriteByte(')')
	case *Case:
		prettyCase(b, e, col)
	case *Rep:
		head := "(REP [" + strings.Join(e.Frame.Items(), " ") + "]"
		b.WriteString(head)
		nl(col + 2)
		pretty(b, e.E, col+2)
		b.WriteByte(')')
	case *Unpack:
		b.WriteString("(unbox ")
		pretty(b, e.Box, col+7)
		nl(col + 2)
		b.WriteString("(" + strings.Join(append([]string{e.X}, e.IVars...), " ") + ")")
		nl(col + 2)
		pretty(b, e.Body, col+2)
		b.WriteByte(')')
	default:
		b.WriteString(flat)
	}
}
