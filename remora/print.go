package remora

import (
	"strings"

	"github.com/arraysem/arraysem/lang"
)

// ExprString prints a core term in the typed dialect's surface syntax, so
// that `arraysem step` reads like the program the user wrote: frames as
// [e …], applications of instantiated primitives in the f{τ … | ι …}
// sugar, values as their literals. Lets the checker elaborated print as the
// β-redexes they became.
func ExprString(e Expr) string {
	var b printer
	writeExpr(&b, e)
	return b.String()
}

// ExprStringMarked prints e and says where in the text its subterm target
// (the same node, not an equal one) is: runes [lo, hi), or -1, -1.
func ExprStringMarked(e, target Expr) (text string, lo, hi int) {
	b := lang.NewMarker(target)
	writeExpr(b, e)
	return b.String(), b.Lo, b.Hi
}

// printer is a builder that notes where it wrote one subterm.
type printer = lang.Marker[Expr]

func writeExpr(b *printer, e Expr) {
	e = forced(e) // a chain's link prints as made (chain.go)
	defer b.Enter(e)()
	switch e := e.(type) {
	case *Var:
		b.WriteString(e.Name)
	case *Prim:
		b.WriteString(e.Def.Name)
	case *Lit:
		writeLit(b, e.V)
	case *Frame:
		if len(e.Elems) == 0 {
			b.WriteString("(frame " + dimsString(e.Dims) + " " + TypeString(CellTypeOf(e)) + ")")
			return
		}
		if allBaseLits(e.Elems) {
			// [#\a #\c] is the value "ac": print it as the parser reads it.
			b.WriteString(toValue(e).TermString())
			return
		}
		// A frame of several axes prints nested, as the papers draw it
		// ([[(+ 1 3) (+ 1 4)] …]); it reads back as the same frame, since
		// nesting collapses.
		writeNested(b, e.Dims, e.Elems)
	case *Lam:
		b.WriteString("(fn (")
		for i, p := range e.Params {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("[" + p.Name + " " + TypeString(p.Type) + "]")
		}
		b.WriteString(") ")
		writeExpr(b, e.Body)
		b.WriteByte(')')
	case *TLam:
		b.WriteString("(t-fn (" + strings.Join(e.Vars, " ") + ") ")
		writeExpr(b, e.Body)
		b.WriteByte(')')
	case *ILam:
		b.WriteString("(i-fn (" + strings.Join(e.Vars, " ") + ") ")
		writeExpr(b, e.Body)
		b.WriteByte(')')
	case *App:
		b.WriteByte('(')
		writeExpr(b, e.Fn)
		for _, a := range e.Args {
			b.WriteByte(' ')
			writeExpr(b, a)
		}
		b.WriteByte(')')
	case *TApp:
		if name, is, ok := sugarHead(e.Fn); ok && len(e.Args) > 0 {
			b.WriteString(name + "{" + typesString(e.Args) + " | " + indicesString(is) + "}")
			return
		}
		b.WriteString("(t-app ")
		writeExpr(b, e.Fn)
		b.WriteString(" " + typesString(e.Args) + ")")
	case *IApp:
		if name, is, ok := sugarHead(e); ok && len(e.Args) > 0 {
			b.WriteString(name + "{ | " + indicesString(is) + "}")
			return
		}
		b.WriteString("(i-app ")
		writeExpr(b, e.Fn)
		b.WriteString(" " + indicesString(e.Args) + ")")
	case *Pack:
		b.WriteString("(box (" + indicesString(e.Indices) + ") " + TypeString(e.Type) + " ")
		writeExpr(b, e.Body)
		b.WriteByte(')')
	case *Unpack:
		b.WriteString("(unbox ")
		writeExpr(b, e.Box)
		b.WriteString(" (" + strings.Join(append([]string{e.X}, e.IVars...), " ") + ") ")
		writeExpr(b, e.Body)
		b.WriteByte(')')
	case *Let:
		b.WriteString("(let [" + e.X + " ")
		if e.T != nil {
			b.WriteString(TypeString(e.T) + " ")
		}
		writeExpr(b, e.Val)
		b.WriteString("] ")
		writeExpr(b, e.Body)
		b.WriteByte(')')
	case *LiftDim:
		b.WriteString("(lift [" + e.D + " ")
		writeExpr(b, e.N)
		b.WriteString("] ")
		writeExpr(b, e.Body)
		b.WriteByte(')')
	case *Reify:
		if e.Index.IsShape {
			b.WriteString("(reify-shape " + e.Index.String() + ")")
		} else {
			b.WriteString("(reify-dimension " + e.Index.String() + ")")
		}
	case *Reshape:
		b.WriteString("(reshape [" + strings.Join(e.Shape.Items(), " ") + "] ")
		writeExpr(b, e.E)
		b.WriteByte(')')
	case *Map:
		b.WriteString("(MAP [" + strings.Join(e.Frame.Items(), " ") + "] (")
		for i, p := range e.Params {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("[" + p.Name + " " + TypeString(p.Type) + " ")
			writeExpr(b, e.Args[i])
			b.WriteByte(']')
		}
		b.WriteString(") ")
		writeExpr(b, e.Body)
		b.WriteByte(')')
	case *Case:
		writeCase(b, e)
	case *Rep:
		b.WriteString("(REP [" + strings.Join(e.Frame.Items(), " ") + "] ")
		writeExpr(b, e.E)
		b.WriteByte(')')
	default:
		b.WriteString("?")
	}
}

// sugarHead recognises (I-APP x ι …) and x for a variable or primitive x,
// which print as x{… | ι …}.
func sugarHead(e Expr) (string, []Index, bool) {
	switch e := e.(type) {
	case *Var:
		return e.Name, nil, true
	case *Prim:
		return e.Def.Name, nil, true
	case *IApp:
		switch f := e.Fn.(type) {
		case *Var:
			return f.Name, e.Args, true
		case *Prim:
			return f.Def.Name, e.Args, true
		}
	}
	return "", nil, false
}

// writeLit prints a value as a term: like Value.String, except that an
// empty array says its shape and atom type so that it reads back.
func writeLit(b *printer, v *Value) {
	b.WriteString(v.TermString())
}

func writeNested(b *printer, dims []int64, es []Expr) {
	if len(dims) == 0 {
		writeExpr(b, es[0])
		return
	}
	if len(dims) == 1 && allBaseLits(es) {
		// A row of scalar literals is the value the reader makes of it.
		b.WriteString(toValue(&Frame{Dims: dims, Elems: es}).TermString())
		return
	}
	size := len(es) / int(dims[0])
	b.WriteByte('[')
	for i := 0; i < int(dims[0]); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeNested(b, dims[1:], es[i*size:(i+1)*size])
	}
	b.WriteByte(']')
}

func dimsString(ds []int64) string {
	return Dims(ds...).String()
}

func typesString(ts []Type) string {
	ss := make([]string, len(ts))
	for i, t := range ts {
		ss[i] = TypeString(t)
	}
	return strings.Join(ss, " ")
}

func indicesString(is []Index) string {
	ss := make([]string, len(is))
	for i, x := range is {
		ss[i] = x.String()
	}
	return strings.Join(ss, " ")
}

// cellTypeOf is the cell type of a frame: written, or from its type.
func CellTypeOf(f *Frame) Type {
	if f.Cell != nil {
		return f.Cell
	}
	if f.Type != nil {
		return &Arr{Elem: f.Type.Elem, Shape: f.Type.Shape[len(f.Dims):]}
	}
	return Int
}

// allBaseLits reports whether es are scalar literals of one base kind.
func allBaseLits(es []Expr) bool {
	var k Kind
	for i, e := range es {
		l, ok := e.(*Lit)
		if !ok || len(l.V.Shape) != 0 || l.V.Kind >= KFunc || i > 0 && l.V.Kind != k {
			return false
		}
		k = l.V.Kind
	}
	return true
}
