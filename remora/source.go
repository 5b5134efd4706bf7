package remora

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
