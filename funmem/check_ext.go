package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// The type rules of the extension forms: T-MEM-LOOP, T-MEM-REDUCE,
// T-MEM-SCAN, T-MEM-FILTER and T-MEM-ASSERT (docs/funmem.md), and
// T-MEM-REDOMAP and T-MEM-SCANOMAP (check_redomap.go). FUN's rules
// (T-LOOP …) with memory: a loop's parameters, initial values, results
// and pattern are compared as T-MEM-IF compares a pattern with its
// branches (T-MEM-RESULT's S, LMADs as polynomials); the array operands
// of a reduce, scan or filter are support groups (groups.go), checked by
// shape against xs's rows, since the semantics binds their support from
// the values; a scan's and a filter's pattern is a fresh array as a
// kernel's is.

// stmExt checks an extension form, reporting whether s is one.
func (c *checker) stmExt(s *fun.Stm, concl string) (*semantics.Derivation, bool, error) {
	var d *semantics.Derivation
	var err error
	switch e := s.Exp.(type) {
	case *fun.AssertExp:
		d, err = c.assert(s, e, concl)
	case *fun.LoopExp:
		d, err = c.loop(s, e, concl)
	case *fun.ReduceExp:
		d, err = c.fold(TMemReduce.Name, "reduce", s, e.Params, e.Ne, e.Arr, e.Body, concl)
	case *fun.ScanExp:
		d, err = c.fold(TMemScan.Name, "scan", s, e.Params, e.Ne, e.Arr, e.Body, concl)
	case *fun.FilterExp:
		d, err = c.fold(TMemFilter.Name, "filter", s, e.Params, nil, e.Arr, e.Body, concl)
	case *fun.RedomapExp:
		d, err = c.redomap(s, e, concl)
	default:
		return nil, false, nil
	}
	return d, true, err
}

// extension refuses an extension form in paper mode.
func (c *checker) extension(rule string, pos fun.Pos, form string) error {
	if c.opts.Paper {
		return c.errorf(pos, rule, "%s is an extension (refused in paper mode)", form)
	}
	return nil
}

// addAll adds parameters to Γ (removeAll takes them out again): a
// parameter that cannot be bound leaves Γ as it was.
func (c *checker) addAll(rule string, ps []*fun.Param) error {
	for i, p := range ps {
		if err := c.add(rule, p.Name, p.Type); err != nil {
			c.removeAll(ps[:i])
			return err
		}
	}
	return nil
}

// removeAll takes the parameters addAll bound out of Γ again.
func (c *checker) removeAll(ps []*fun.Param) {
	for i := len(ps) - 1; i >= 0; i-- {
		c.env.Remove(ps[i].Name.Name)
	}
}

// assert is T-MEM-ASSERT: Γ ⊢ se : int, and the statement binds one int.
func (c *checker) assert(s *fun.Stm, e *fun.AssertExp, concl string) (*semantics.Derivation, error) {
	rule := TMemAssert.Name
	if err := c.extension(rule, e.Keyword, "assert"); err != nil {
		return nil, err
	}
	p, err := c.single(rule, s)
	if err != nil {
		return nil, err
	}
	if err := c.sexp(rule, e.Cond); err != nil {
		return nil, err
	}
	if !p.Type.IsInt() {
		return nil, c.errorf(p.Lparen, rule, "%s is declared %s, but assert gives int", p.Name.Name, p.Type)
	}
	return c.node(rule, concl), nil
}

// loop is T-MEM-LOOP. The parameters and the pattern are well formed
// (sizes, blocks and LMAD variables may be bound by themselves, as
// T-MEM-IF's pattern's); with S0 = {y_j ↦ x_j}, each initial value has
// S0(τ_j); the body, under Γ, ȳ, i : int, returns values of the
// parameters' types under T-MEM-RESULT's S; and the pattern's types are
// the parameters', renamed by {y_j ↦ p_j}.
func (c *checker) loop(s *fun.Stm, e *fun.LoopExp, concl string) (*semantics.Derivation, error) {
	rule := TMemLoop.Name
	if err := c.extension(rule, e.Loop, "loop"); err != nil {
		return nil, err
	}
	if len(e.Init) != len(e.Params) {
		return nil, c.errorf(e.Lparen, rule, "the loop has %d parameters, but %d initial values", len(e.Params), len(e.Init))
	}
	if len(s.Pat) != len(e.Params) {
		return nil, c.errorf(patPos(s.Pat), rule, "the loop gives %d values, but the pattern binds %d", len(e.Params), len(s.Pat))
	}
	if err := c.lookupInt(rule, e.Bound, "loop bound"); err != nil {
		return nil, err
	}
	for _, ps := range [][]*fun.Param{e.Params, s.Pat} {
		if err := c.patternNames(rule, ps); err != nil {
			return nil, err
		}
		for _, p := range ps {
			if err := c.wellFormed(rule, p, ps, true); err != nil {
				return nil, err
			}
		}
	}
	s0, toPat := c.renamings()
	for j, y := range e.Params {
		s0[y.Name.Name] = e.Init[j].Name
		toPat[y.Name.Name] = s.Pat[j].Name.Name
	}
	for j, y := range e.Params {
		x := e.Init[j]
		t, err := c.lookup(rule, x, "initial value")
		if err != nil {
			return nil, err
		}
		if !c.sameType(t, y.Type, s0) {
			return nil, c.errorf(x.NamePos, rule, "initial value %s has type %s, but the parameter %s needs %s", x.Name, t, fun.PrintParam(y), substType(y.Type, s0))
		}
		if p := s.Pat[j]; !c.sameType(p.Type, y.Type, toPat) {
			return nil, c.errorf(p.Lparen, rule, "%s is declared %s, but the loop's parameter %s gives %s", p.Name.Name, p.Type, fun.PrintParam(y), substType(y.Type, toPat))
		}
	}
	if err := c.addAll(rule, e.Params); err != nil {
		return nil, err
	}
	defer c.removeAll(e.Params)
	if err := c.add(rule, e.Var, fun.Type{}); err != nil {
		return nil, err
	}
	defer c.remove(e.Var)
	d, _, err := c.body(e.Params, e.Body)
	if err != nil {
		return nil, err
	}
	return c.node(rule, concl, d), nil
}

// fold is T-MEM-REDUCE, T-MEM-SCAN and T-MEM-FILTER (ne nil): (xs : [n]τ
// @ …) ∈ Γ; the operands (two for reduce and scan, one for filter) have
// τ's shape, an array one as a support group; the start z has τ's shape
// in any memory; the body, under Γ and the parameters, gives one value of
// τ's shape (an int for filter), in any memory. The pattern: for reduce
// one int, or a support group of τ's shape; for scan a fresh [n]τ in a
// block of Γ; for filter (k : int) (ys : [k]τ @ m -> L), L over Γ and k.
func (c *checker) fold(rule, form string, s *fun.Stm, ps []*fun.Param, ne, arr *fun.Ident, body *fun.Body, concl string) (*semantics.Derivation, error) {
	if err := c.extension(rule, s.Exp.Pos(), form); err != nil {
		return nil, err
	}
	xt, _, err := c.lookupArray(rule, arr)
	if err != nil {
		return nil, err
	}
	row := xt.Row()
	if err := c.patternNames(rule, ps); err != nil {
		return nil, err
	}
	want := 2
	if ne == nil {
		want = 1
	}
	if err := c.operands(rule, form, ps, want, row, arr); err != nil {
		return nil, err
	}
	if ne != nil {
		zt, err := c.lookup(rule, ne, "start value")
		if err != nil {
			return nil, err
		}
		if !shaped(zt, row) {
			return nil, c.errorf(ne.NamePos, rule, "start value %s has type %s, but the rows of %s have shape %s", ne.Name, zt, arr.Name, row)
		}
	}
	if err := c.foldPattern(rule, form, s, xt, row); err != nil {
		return nil, err
	}
	if err := c.addAll(rule, ps); err != nil {
		return nil, err
	}
	defer c.removeAll(ps)
	result := row
	if ne == nil {
		result = fun.Type{}
	}
	d, _, err := c.stms(body, func(types []fun.Type) error {
		if len(body.Result) != 1 {
			return c.errorf(body.In, TMemResult.Name, "a %s body returns one value, not %d", form, len(body.Result))
		}
		if !shaped(types[0], result) {
			return c.errorf(body.Result[0].NamePos, TMemResult.Name, "the %s body's result %s has type %s, but it must have shape %s", form, body.Result[0].Name, types[0], result)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c.node(rule, concl, d), nil
}

// shaped reports whether t is a scalar of shape's type (int or float) or
// an array of shape's sizes and element type in some memory.
func shaped(t, shape fun.Type) bool {
	if shape.Rank() == 0 {
		return t.IsScalar() && t.Elem == shape.Elem
	}
	return ArrayOf(t) != nil && t.Same(shape)
}

// operands checks the parameters of a reduce, scan or filter: want
// operands of the rows' shape, an array one in support form with its
// block a mem and its offset and strides ints, all well formed.
func (c *checker) operands(rule, form string, ps []*fun.Param, want int, row fun.Type, arr *fun.Ident) error {
	gs := Groups(ps)
	if len(gs) != want {
		return c.errorf(patPos(ps), rule, "%s takes %d operands, but its parameters give %d", form, want, len(gs))
	}
	for _, g := range gs {
		p := ps[g.Operand]
		if !shaped(p.Type, row) {
			return c.errorf(p.Lparen, rule, "%s is declared %s, but the rows of %s have shape %s", p.Name.Name, p.Type, arr.Name, row)
		}
		if row.Rank() > 0 && !g.IsArray() {
			return c.errorf(p.Lparen, rule, "%s is an array bound at run time: its LMAD is x_off + {(d : x_s) …} over parameters (x_mem : mem) (x_off : int) (x_s : int) … before it", p.Name.Name)
		}
	}
	for _, p := range ps {
		if err := c.wellFormed(rule, p, ps, true); err != nil {
			return err
		}
	}
	return nil
}

// foldPattern checks the pattern of a reduce, scan or filter.
func (c *checker) foldPattern(rule, form string, s *fun.Stm, xt, row fun.Type) error {
	pat := s.Pat
	if err := c.patternNames(rule, pat); err != nil {
		return err
	}
	switch form {
	case "reduce":
		gs := Groups(pat)
		if len(gs) != 1 || !shaped(pat[gs[0].Operand].Type, row) || (row.Rank() > 0 && !gs[0].IsArray()) {
			return c.errorf(patPos(pat), rule, "reduce gives one value of shape %s (an array with its support: (x_mem : mem) (x_off : int) (x_s : int) … (x : … @ x_mem -> x_off + {…})), not %s", row, fun.PrintPattern(pat))
		}
		for _, p := range pat {
			if err := c.wellFormed(rule, p, pat, true); err != nil {
				return err
			}
		}
	case "scan":
		p, err := c.single(rule, s)
		if err != nil {
			return err
		}
		want := fun.Type{Dims: xt.Dims, Elem: xt.Elem}
		if ArrayOf(p.Type) == nil || !p.Type.Same(want) {
			return c.errorf(p.Lparen, rule, "scan gives an array of shape %s @ m -> L, but %s is declared %s", want, p.Name.Name, p.Type)
		}
		return c.wellFormed(rule, p, nil, false)
	case "filter":
		if len(pat) != 2 || !pat[0].Type.IsInt() || ArrayOf(pat[1].Type) == nil || pat[1].Type.Dims[0].Name != pat[0].Name.Name ||
			!pat[1].Type.Row().Same(row) {
			return c.errorf(patPos(pat), rule, "a filter gives its size and an array of that size: bind (k : int) (ys : [k]%s @ m -> L), not %s", dimsString(row), fun.PrintPattern(pat))
		}
		return c.wellFormed(rule, pat[1], pat, true)
	}
	return nil
}

// dimsString renders the sizes and element type of a type, [n][m] or
// [n][m]float (nothing for an int, float for a float).
func dimsString(t fun.Type) string {
	out := ""
	for _, d := range t.Dims {
		out += "[" + d.Name + "]"
	}
	if t.Elem == semantics.FloatElem {
		out += "float"
	}
	return out
}
