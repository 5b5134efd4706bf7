package dynamic

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora"
)

// ExprString prints a term in the dialect's syntax; it reads back as the
// same term (values print as literals: 1. for a float, a λ as its term).
func ExprString(e Expr) string {
	var b printer
	write(&b, e)
	return b.String()
}

// ExprStringMarked prints e and says where in the text its subterm target
// (the same node) is: runes [lo, hi), or -1, -1.
func ExprStringMarked(e, target Expr) (text string, lo, hi int) {
	b := lang.NewMarker(target)
	write(b, e)
	return b.String(), b.Lo, b.Hi
}

// printer is a builder that notes where it wrote one subterm.
type printer = lang.Marker[Expr]

func write(b *printer, e Expr) {
	defer b.Enter(e)()
	switch e := e.(type) {
	case *Var:
		b.WriteString(e.Name)
	case *Prim:
		b.WriteString(e.Def.Name)
	case *Lit:
		writeValue(b, e.V)
	case *Frame:
		writeFrame(b, e.Dims, e.Elems)
	case *Lam:
		e = unshadow(e)
		b.WriteString("(λ (")
		for i, p := range e.Params {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("(" + p.Name + " " + rankString(p.Rank) + ")")
		}
		b.WriteString(") ")
		write(b, e.Body)
		b.WriteByte(')')
	case *App:
		b.WriteByte('(')
		if e.Shape != nil {
			b.WriteString("apply/shape ")
			write(b, e.Shape)
			b.WriteByte(' ')
		}
		write(b, e.Fn)
		for _, a := range e.Args {
			b.WriteByte(' ')
			write(b, a)
		}
		b.WriteByte(')')
	case *Let:
		if e.X == "" { // a sequence: the value is computed and dropped
			b.WriteString("(begin ")
			write(b, e.Val)
			b.WriteByte(' ')
			write(b, e.Body)
			b.WriteByte(')')
			return
		}
		b.WriteString("(let ((" + e.X + " ")
		write(b, e.Val)
		b.WriteString(")) ")
		write(b, e.Body)
		b.WriteByte(')')
	case *Unbox:
		b.WriteString("(unbox " + e.X + " ")
		write(b, e.Box)
		b.WriteByte(' ')
		write(b, e.Body)
		b.WriteByte(')')
	case *Rec:
		// A body of definitions, which parseBody groups back into it.
		b.WriteString("(begin")
		for _, d := range e.Defs {
			b.WriteString(" (define ")
			l, ok := d.Val.(*Lam)
			if !ok {
				b.WriteString(d.X + " ")
				write(b, d.Val)
				b.WriteByte(')')
				continue
			}
			l = unshadow(l)
			b.WriteString("(" + d.X)
			for _, p := range l.Params {
				b.WriteString(" (" + p.Name + " " + rankString(p.Rank) + ")")
			}
			b.WriteString(") ")
			write(b, l.Body)
			b.WriteByte(')')
		}
		b.WriteByte(' ')
		write(b, e.Body)
		b.WriteByte(')')
	}
}

// writeFrame prints the elements of a frame of shape dims, nested.
func writeFrame(b *printer, dims []int64, elems []Expr) {
	writeNested(&b.Builder, dims, 0, func(i int) { write(b, elems[i]) })
}

// writeNested prints the cells off, off+1, … of an array of shape dims
// in nested brackets, each by cell.
func writeNested(b *strings.Builder, dims []int64, off int, cell func(i int)) {
	if len(dims) == 0 {
		cell(off)
		return
	}
	size := product(dims[1:])
	b.WriteByte('[')
	for i := 0; i < int(dims[0]); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeNested(b, dims[1:], off+i*size, cell)
	}
	b.WriteByte(']')
}

// writeValue prints a value as a literal term. An empty array prints as
// (array [dims]); a float always has a point or an exponent.
func writeValue(b *printer, v *remora.Value) {
	if v.Len() == 0 {
		b.WriteString("(array " + shapeString(v.Shape) + ")")
		return
	}
	if v.Kind < remora.KFunc {
		b.WriteString(v.TermString())
		return
	}
	// Functions and boxes print as terms, atom by atom.
	writeNested(&b.Builder, v.Shape, 0, func(i int) { writeAtom(b, v.A[i]) })
}

func writeAtom(b *printer, a remora.Atom) {
	switch a := a.(type) {
	case *Func:
		if a.Lam == nil {
			b.WriteString(a.Prim.Name)
		} else {
			write(b, a.closed())
		}
	case *remora.Box:
		b.WriteString("(box ")
		writeValue(b, a.Val)
		b.WriteByte(')')
	case *Pair:
		b.WriteString("(pair ")
		writeValue(b, a.Fst)
		b.WriteByte(' ')
		writeValue(b, a.Snd)
		b.WriteByte(')')
	default:
		b.WriteString(a.String())
	}
}

// shapeString prints a shape as Remora writes one: [2 3], or [] for a
// scalar's.
func shapeString(ds []int64) string { return remora.Dims(ds...).String() }

// unshadow renames the parameters of a λ that would capture a primitive of
// their name in its body: a primitive substituted under a binder that
// shadows its name ((λ ((+ 0)) (g + 1)) with g the primitive +) must not
// read back as the parameter.
func unshadow(l *Lam) *Lam {
	var ren map[string]Expr
	params := l.Params
	for i, p := range l.Params {
		if Basis[p.Name] == nil || !usesPrim(l.Body, p.Name) {
			continue
		}
		if ren == nil {
			ren = map[string]Expr{}
			params = append([]Param{}, l.Params...)
		}
		fresh := p.Name + "%"
		for n := 1; bindsOrUses(l.Body, fresh); n++ {
			fresh = fmt.Sprintf("%s%%%d", p.Name, n)
		}
		params[i].Name = fresh
		ren[p.Name] = &Var{Pos: l.Pos, Name: fresh}
	}
	if ren == nil {
		return l
	}
	return &Lam{Pos: l.Pos, Params: params, Body: subst(l.Body, ren)}
}

// usesPrim reports whether the primitive named x occurs in e.
func usesPrim(e Expr, x string) bool {
	found := false
	walk(e, func(e Expr) {
		switch e := e.(type) {
		case *Prim:
			found = found || e.Def.Name == x
		case *Lit:
			if e.V.Kind == remora.KFunc {
				for _, a := range e.V.A {
					if f, ok := a.(*Func); ok && (f.Prim != nil && f.Prim.Name == x || f.Lam != nil && usesPrim(f.Lam, x)) {
						found = true
					}
				}
			}
		}
	})
	return found
}

// bindsOrUses reports whether the name x occurs in e at all.
func bindsOrUses(e Expr, x string) bool {
	return strings.Contains(ExprString(e), x)
}

// walk calls f on e and every term inside it.
func walk(e Expr, f func(Expr)) {
	f(e)
	switch e := e.(type) {
	case *Frame:
		for _, x := range e.Elems {
			walk(x, f)
		}
	case *Lam:
		walk(e.Body, f)
	case *App:
		if e.Shape != nil {
			walk(e.Shape, f)
		}
		walk(e.Fn, f)
		for _, a := range e.Args {
			walk(a, f)
		}
	case *Let:
		walk(e.Val, f)
		walk(e.Body, f)
	case *Unbox:
		walk(e.Box, f)
		walk(e.Body, f)
	case *Rec:
		for _, d := range e.Defs {
			walk(d.Val, f)
		}
		walk(e.Body, f)
	}
}
