package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// redomap is T-MEM-REDOMAP (e.Scan false) and T-MEM-SCANOMAP: FUN's
// T-REDOMAP with memory. The operands are two, of one shape τ (the first
// operand's sizes and element type), an array one a support group (the
// semantics binds its support from the value, as a reduce's); the start
// z has τ's shape in any memory; the map body, under Γ, i : int, and the
// operator body, under Γ and the parameters, each give one value of τ's
// shape, in any memory. The pattern: for redomap one int or float, or a
// support group of τ's shape (as reduce's); for scanomap a fresh [n]τ in
// a block of Γ (as scan's).
func (c *checker) redomap(s *fun.Stm, e *fun.RedomapExp, concl string) (*semantics.Derivation, error) {
	rule, form := TMemRedomap.Name, fun.RedomapWord(e)
	if e.Scan {
		rule = TMemScanomap.Name
	}
	if err := c.extension(rule, e.Keyword, form); err != nil {
		return nil, err
	}
	if err := c.lookupInt(rule, e.Bound, form+" bound"); err != nil {
		return nil, err
	}
	ps := e.Params
	if err := c.patternNames(rule, ps); err != nil {
		return nil, err
	}
	gs := Groups(ps)
	if len(gs) != 2 {
		return nil, c.errorf(patPos(ps), rule, "%s takes 2 operands, but its parameters give %d", form, len(gs))
	}
	first := ps[gs[0].Operand]
	tau := fun.Type{Dims: first.Type.Dims, Elem: first.Type.Elem}
	for _, g := range gs {
		p := ps[g.Operand]
		if !shaped(p.Type, tau) {
			return nil, c.errorf(p.Lparen, rule, "%s is declared %s, but %s is declared %s: the operands have one shape", p.Name.Name, p.Type, first.Name.Name, first.Type)
		}
		if tau.Rank() > 0 && !g.IsArray() {
			return nil, c.errorf(p.Lparen, rule, "%s is an array bound at run time: its LMAD is x_off + {(d : x_s) …} over parameters (x_mem : mem) (x_off : int) (x_s : int) … before it", p.Name.Name)
		}
	}
	for _, p := range ps {
		if err := c.wellFormed(rule, p, ps, true); err != nil {
			return nil, err
		}
	}
	zt, err := c.lookup(rule, e.Ne, "start value")
	if err != nil {
		return nil, err
	}
	if !shaped(zt, tau) {
		return nil, c.errorf(e.Ne.NamePos, rule, "start value %s has type %s, but the operands have shape %s", e.Ne.Name, zt, tau)
	}
	if err := c.redomapPattern(rule, form, s, e, tau); err != nil {
		return nil, err
	}
	result := func(body *fun.Body, what string) func([]fun.Type) error {
		return func(types []fun.Type) error {
			if len(body.Result) != 1 {
				return c.errorf(body.In, TMemResult.Name, "a %s's %s body returns one value, not %d", form, what, len(body.Result))
			}
			if !shaped(types[0], tau) {
				return c.errorf(body.Result[0].NamePos, TMemResult.Name, "the %s's %s body's result %s has type %s, but it must have shape %s", form, what, body.Result[0].Name, types[0], tau)
			}
			return nil
		}
	}
	dm, err := c.redomapMap(rule, e, result(e.Map, "map"))
	if err != nil {
		return nil, err
	}
	if err := c.addAll(rule, ps); err != nil {
		return nil, err
	}
	defer c.removeAll(ps)
	do, _, err := c.stms(e.Op, result(e.Op, "operator"))
	if err != nil {
		return nil, err
	}
	return c.node(rule, concl, dm, do), nil
}

// redomapMap checks the map body under Γ, i : int.
func (c *checker) redomapMap(rule string, e *fun.RedomapExp, result func([]fun.Type) error) (*semantics.Derivation, error) {
	if err := c.add(rule, e.Var, fun.Type{}); err != nil {
		return nil, err
	}
	defer c.remove(e.Var)
	d, _, err := c.stms(e.Map, result)
	return d, err
}

// redomapPattern checks the pattern of a redomap (a value of shape τ, an
// array with its support) or a scanomap (a fresh [n]τ).
func (c *checker) redomapPattern(rule, form string, s *fun.Stm, e *fun.RedomapExp, tau fun.Type) error {
	pat := s.Pat
	if err := c.patternNames(rule, pat); err != nil {
		return err
	}
	if !e.Scan {
		gs := Groups(pat)
		if len(gs) != 1 || !shaped(pat[gs[0].Operand].Type, tau) || (tau.Rank() > 0 && !gs[0].IsArray()) {
			return c.errorf(patPos(pat), rule, "redomap gives one value of shape %s (an array with its support: (x_mem : mem) (x_off : int) (x_s : int) … (x : … @ x_mem -> x_off + {…})), not %s", tau, fun.PrintPattern(pat))
		}
		for _, p := range pat {
			if err := c.wellFormed(rule, p, pat, true); err != nil {
				return err
			}
		}
		return nil
	}
	p, err := c.single(rule, s)
	if err != nil {
		return err
	}
	want := fun.Type{Dims: append([]*fun.Ident{e.Bound}, tau.Dims...), Elem: tau.Elem}
	if ArrayOf(p.Type) == nil || !p.Type.Same(want) {
		return c.errorf(p.Lparen, rule, "%s gives an array of shape %s @ m -> L, but %s is declared %s", form, want, p.Name.Name, p.Type)
	}
	return c.wellFormed(rule, p, nil, false)
}
