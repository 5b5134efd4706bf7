package remora

import (
	"strconv"
	"strings"
)

// SourceLines prints a program's values as its source prints them: as
// the typed dialect does (ValueLines), or, for a program elaborated from
// the dynamic dialect (Program.Source), as that dialect does: a box
// without its witnesses, (box v), and a result that stands for an array
// whose shape the dialect computes at run time (Program.Open) as that
// array.
func (p *Program) SourceLines(vs []*Value) []string {
	if p.Source == "" {
		return ValueLines(vs)
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		if i < len(p.Open) && p.Open[i] && v.Kind == KBox && len(v.Shape) == 0 {
			v = v.A[0].(*Box).Val
		}
		if i < len(p.Rational) && p.Rational[i] && v.Kind == KInt {
			out[i] = rationalString(v)
			continue
		}
		out[i] = untypedBoxes(v).String()
	}
	return out
}

// untypedBoxes is v with its boxes (and theirs) as the dynamic dialect's,
// which print without witnesses.
func untypedBoxes(v *Value) *Value {
	if v.Kind != KBox {
		return v
	}
	w := *v
	w.A = make([]Atom, len(v.A))
	for i, a := range v.A {
		w.A[i] = &Box{Val: untypedBoxes(a.(*Box).Val)}
	}
	return &w
}

// rationalString prints an int array whose last axis (of 2) holds
// numerators and denominators as the exact rationals they are: n, or
// n/d.
func rationalString(v *Value) string {
	var b strings.Builder
	var rec func(dim, off int)
	rec = func(dim, off int) {
		if dim >= len(v.Shape)-1 {
			b.WriteString(strconv.FormatInt(v.I[off], 10))
			if v.I[off+1] != 1 {
				b.WriteString("/" + strconv.FormatInt(v.I[off+1], 10))
			}
			return
		}
		stride := Product(v.Shape[dim+1:])
		b.WriteByte('[')
		for i := 0; i < int(v.Shape[dim]); i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			rec(dim+1, off+i*stride)
		}
		b.WriteByte(']')
	}
	if len(v.Shape) == 0 || v.Shape[len(v.Shape)-1] != 2 {
		return v.String()
	}
	rec(0, 0)
	return b.String()
}
