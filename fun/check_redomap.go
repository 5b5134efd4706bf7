package fun

import "github.com/arraysem/arraysem/semantics"

// redomap is T-REDOMAP (e.Scan false) and T-SCANOMAP (e.Scan true):
//
//	(n : int) ∈ Γ   (z : τ) ∈ Γ   Γ, i : int ⊢ (y : τ) ← m   Γ, a : τ, b : τ ⊢ (c : τ) ← o
//	---------------------------------------------------------------------------------
//	Γ ⊢ redomap (a : τ) (b : τ) = z for i <= n do m combine o : τ     (scanomap: [n]τ)
//
// τ is the type the operands declare (both the same), its sizes ints of
// Γ; the map body sees i but not the operands, the operator body the
// operands but not i. It is T-REDUCE over the array kernel i <= n do m,
// without the array.
func (c *checker) redomap(s *Stm, e *RedomapExp, concl string) (*semantics.Derivation, error) {
	rule, form := TRedomap.Name, RedomapWord(e)
	if e.Scan {
		rule = TScanomap.Name
	}
	if err := c.extension(rule, e.Keyword, form); err != nil {
		return nil, err
	}
	p, err := c.singleBinding(rule, s)
	if err != nil {
		return nil, err
	}
	if len(e.Params) != 2 {
		return nil, c.errorf(e.Keyword, rule, "%s takes two parameters (a : type) (b : type), not %d", form, len(e.Params))
	}
	if err := c.lookupInt(rule, e.Bound, form+" bound"); err != nil {
		return nil, err
	}
	if err := c.sizesInScope(rule, e.Params, false); err != nil {
		return nil, err
	}
	a, b := e.Params[0], e.Params[1]
	t := a.Type
	if !b.Type.Same(t) {
		return nil, c.errorf(b.Lparen, rule, "%s is declared %s, but %s is declared %s: the operands have one type", b.Name.Name, b.Type, a.Name.Name, t)
	}
	zt, err := c.env.Lookup(rule, e.Ne, "start value")
	if err != nil {
		return nil, err
	}
	if !zt.Same(t) {
		return nil, c.errorf(e.Ne.NamePos, rule, "start value %s has type %s, but the operands have type %s", e.Ne.Name, zt, t)
	}
	want := t
	if e.Scan {
		want = Type{Dims: append([]*Ident{e.Bound}, t.Dims...), Elem: t.Elem}
	}
	if err := c.expectType(rule, p, want); err != nil {
		return nil, err
	}
	elem := &Param{Lparen: p.Lparen, Name: p.Name, Type: t, Rparen: p.Rparen}
	dm, err := c.redomapMap(rule, e, elem)
	if err != nil {
		return nil, err
	}
	defer c.unbind(len(c.bound))
	if err := c.bindParams(rule, e.Params); err != nil {
		return nil, err
	}
	do, _, err := c.body([]*Param{elem}, e.Op)
	if err != nil {
		return nil, err
	}
	return c.node(rule, concl, dm, do), nil
}

// redomapMap checks a redomap's map body under Γ, i : int against the
// element's binding.
func (c *checker) redomapMap(rule string, e *RedomapExp, elem *Param) (*semantics.Derivation, error) {
	defer c.unbind(len(c.bound))
	if err := c.bind(rule, e.Var, Type{}); err != nil {
		return nil, err
	}
	d, _, err := c.body([]*Param{elem}, e.Map)
	return d, err
}
