package remora

// TreeReducesFloats reports whether p applies the reduce primitive (the
// one without an initial value) to floats with an operator that adds or
// multiplies them. The dynamic dialect's reduce is tree-shaped and its
// elaboration is the typed reduce, a left fold: on floats the two round
// differently, which the comparisons of the levels accept within
// semantics.FloatReassociationBound for such an elaborated program (the
// typed dialect's own reduce is a left fold at every Remora level).
func TreeReducesFloats(p *Program) bool {
	found := false
	var walk func(e Expr)
	walk = func(e Expr) {
		if found || e == nil {
			return
		}
		if a, ok := e.(*App); ok {
			if def, _, ok := PrimOf(a.Fn); ok && def.Name == "reduce" && len(a.Args) > 0 && addsOrMultipliesFloats(a.Args[0]) {
				found = true
				return
			}
		}
		for _, k := range Subterms(e) {
			walk(k)
		}
	}
	for _, e := range p.Exprs {
		walk(e)
	}
	return found
}

// addsOrMultipliesFloats reports whether an operator term uses float + or *.
func addsOrMultipliesFloats(e Expr) bool {
	if p, ok := e.(*Prim); ok {
		return p.Def.Name == "+." || p.Def.Name == "*."
	}
	for _, k := range Subterms(e) {
		if addsOrMultipliesFloats(k) {
			return true
		}
	}
	return false
}
