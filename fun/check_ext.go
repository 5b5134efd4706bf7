package fun

import "github.com/arraysem/arraysem/semantics"

// The type rules of the extension forms: T-LOOP, T-REDUCE, T-SCAN,
// T-FILTER and T-ASSERT (docs/fun.md). Their bodies are checked as a
// kernel's is, by T-STM and T-RESULT against a pattern, with their
// parameters (and a loop's index) bound in Γ for the body only, under the
// same no-shadowing rule as every binding.

// extension refuses an extension form in paper mode.
func (c *checker) extension(rule string, pos Pos, form string) error {
	if c.opts.Paper {
		return c.errorf(pos, rule, "%s is an extension (refused in paper mode)", form)
	}
	return nil
}

// bindParams adds a form's parameters to Γ (unbind removes them again);
// on an error, what was bound is undone.
func (c *checker) bindParams(rule string, ps []*Param) error {
	mark := len(c.bound)
	for _, p := range ps {
		if err := c.bind(rule, p.Name, p.Type); err != nil {
			c.unbind(mark)
			return err
		}
	}
	return nil
}

// BindParams binds each parameter with bind (a checker's binding in Γ,
// which returns its undo) and returns the function that undoes them all,
// last first; on an error, what was bound is undone. FUN's and FUNMEM's
// checkers bind the parameters of loop, reduce, scan and filter with it.
func BindParams(ps []*Param, bind func(x *Ident, t Type) (func(), error)) (func(), error) {
	var undo []func()
	all := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	for _, p := range ps {
		u, err := bind(p.Name, p.Type)
		if err != nil {
			all()
			return nil, err
		}
		undo = append(undo, u)
	}
	return all, nil
}

// loop is T-LOOP. With S0 = {y_j ↦ x_j}, each initial value is
// (x_j : S0(τ_j)) ∈ Γ; the body, under Γ, y1 : τ1, …, yn : τn, i : int,
// returns values of the parameters' types under T-RESULT's S (so a size
// parameter may change from one iteration to the next: an existential
// size); and the pattern's types are the parameters', renamed by
// {y_j ↦ p_j}. The sizes of the parameters and of the pattern are ints
// of Γ or bound by themselves, as T-IF's pattern's are.
func (c *checker) loop(s *Stm, e *LoopExp, concl string) (*semantics.Derivation, error) {
	rule := TLoop.Name
	if err := c.extension(rule, e.Loop, "loop"); err != nil {
		return nil, err
	}
	if len(e.Init) != len(e.Params) {
		return nil, c.errorf(e.Lparen, rule, "the loop has %d parameters, but %d initial values", len(e.Params), len(e.Init))
	}
	if len(s.Pat) != len(e.Params) {
		return nil, c.errorf(patPos(s), rule, "the loop gives %d values, but the pattern binds %d", len(e.Params), len(s.Pat))
	}
	if err := c.lookupInt(rule, e.Bound, "loop bound"); err != nil {
		return nil, err
	}
	if err := c.sizesInScope(rule, e.Params, true); err != nil {
		return nil, err
	}
	if err := c.sizesInScope(rule, s.Pat, true); err != nil {
		return nil, err
	}
	if err := c.substituted(rule, "initial value", e.Params, e.Init); err != nil {
		return nil, err
	}
	rename := map[string]*Ident{}
	for j, y := range e.Params {
		rename[y.Name.Name] = s.Pat[j].Name
	}
	for j, y := range e.Params {
		p := s.Pat[j]
		if want := substType(y.Type, rename); !p.Type.Same(want) {
			return nil, c.errorf(p.Lparen, rule, "%s is declared %s, but the loop's parameter %s gives %s", p.Name.Name, p.Type, PrintParam(y), want)
		}
	}
	defer c.unbind(len(c.bound))
	if err := c.bindParams(rule, e.Params); err != nil {
		return nil, err
	}
	if err := c.bind(rule, e.Var, Type{}); err != nil {
		return nil, err
	}
	d, _, err := c.body(e.Params, e.Body)
	if err != nil {
		return nil, err
	}
	return c.node(rule, concl, d), nil
}

// fold is T-REDUCE (scan false) and T-SCAN (scan true): xs : [n]τ in Γ,
// the operands a and b and the start z of type τ, and the body, under Γ,
// a : τ, b : τ, giving a τ; the result is a τ (reduce) or an [n]τ (scan).
// τ's sizes are those of xs's rows, in scope outside the form.
func (c *checker) fold(rule, form string, s *Stm, ps []*Param, ne, arr *Ident, body *Body, scan bool, concl string) (*semantics.Derivation, error) {
	if err := c.extension(rule, s.Exp.Pos(), form); err != nil {
		return nil, err
	}
	p, err := c.singleBinding(rule, s)
	if err != nil {
		return nil, err
	}
	row, err := c.rows(rule, ps, arr)
	if err != nil {
		return nil, err
	}
	zt, err := c.env.Lookup(rule, ne, "start value")
	if err != nil {
		return nil, err
	}
	if !zt.Same(row) {
		return nil, c.errorf(ne.NamePos, rule, "start value %s has type %s, but the rows of %s have type %s", ne.Name, zt, arr.Name, row)
	}
	want := row
	if scan {
		want = Type{Dims: append([]*Ident{c.outer(arr)}, row.Dims...), Elem: row.Elem}
	}
	if err := c.expectType(rule, p, want); err != nil {
		return nil, err
	}
	defer c.unbind(len(c.bound))
	if err := c.bindParams(rule, ps); err != nil {
		return nil, err
	}
	op := &Param{Lparen: p.Lparen, Name: p.Name, Type: row, Rparen: p.Rparen}
	d, _, err := c.body([]*Param{op}, body)
	if err != nil {
		return nil, err
	}
	return c.node(rule, concl, d), nil
}

// rows checks (xs : [n]τ) ∈ Γ, that the parameters ps (of reduce, scan
// or filter) have type τ and distinct names, and returns τ.
func (c *checker) rows(rule string, ps []*Param, arr *Ident) (Type, error) {
	t, err := c.lookupArray(rule, arr)
	if err != nil {
		return Type{}, err
	}
	row := t.Row()
	if err := c.sizesInScope(rule, ps, false); err != nil {
		return Type{}, err
	}
	for _, q := range ps {
		if !q.Type.Same(row) {
			return Type{}, c.errorf(q.Lparen, rule, "%s is declared %s, but the rows of %s have type %s", q.Name.Name, q.Type, arr.Name, row)
		}
	}
	return row, nil
}

// outer is the outer size of array x's type in Γ (x checked already).
func (c *checker) outer(x *Ident) *Ident {
	t, _ := c.env.TypeOf(x)
	return t.Dims[0]
}

// filter is T-FILTER: xs : [n]τ in Γ, the row x : τ, and the body, under
// Γ, x : τ, giving one int; the pattern binds the size first and the array
// of that size, (k : int) (ys : [k]τ): k is known only at run time (an
// existential size, bound as T-IF's pattern binds one).
func (c *checker) filter(s *Stm, e *FilterExp, concl string) (*semantics.Derivation, error) {
	rule := TFilter.Name
	if err := c.extension(rule, e.Keyword, "filter"); err != nil {
		return nil, err
	}
	row, err := c.rows(rule, e.Params, e.Arr)
	if err != nil {
		return nil, err
	}
	if len(s.Pat) != 2 || !s.Pat[0].Type.IsInt() || s.Pat[1].Type.Rank() == 0 || s.Pat[1].Type.Dims[0].Name != s.Pat[0].Name.Name {
		return nil, c.errorf(patPos(s), rule, "a filter gives its size and an array of that size: bind them size first, as (k : int) (ys : [k]…), not %s", PrintPattern(s.Pat))
	}
	if err := c.sizesInScope(rule, s.Pat, true); err != nil {
		return nil, err
	}
	ys := s.Pat[1]
	if got := ys.Type.Row(); !got.Same(row) {
		return nil, c.errorf(ys.Lparen, rule, "%s is declared %s, but the rows of %s have type %s", ys.Name.Name, ys.Type, e.Arr.Name, row)
	}
	defer c.unbind(len(c.bound))
	if err := c.bindParams(rule, e.Params); err != nil {
		return nil, err
	}
	keep := &Param{Lparen: e.Keyword, Name: &Ident{NamePos: e.Keyword, Name: "keep"}, Rparen: e.Keyword}
	d, _, err := c.body([]*Param{keep}, e.Body)
	if err != nil {
		return nil, err
	}
	return c.node(rule, concl, d), nil
}

// assert is T-ASSERT: Γ ⊢ se : int, and the statement binds one int.
func (c *checker) assert(s *Stm, e *AssertExp, concl string) (*semantics.Derivation, error) {
	rule := TAssert.Name
	if err := c.extension(rule, e.Keyword, "assert"); err != nil {
		return nil, err
	}
	p, err := c.singleBinding(rule, s)
	if err != nil {
		return nil, err
	}
	d, el, err := c.sexp(e.Cond)
	if err != nil {
		return nil, err
	}
	if el != semantics.IntElem {
		return nil, c.errorf(e.Cond.Pos(), rule, "the condition %s is a float, not an int (compare it: x > 0.0)", PrintSExp(e.Cond))
	}
	if err := c.expectType(rule, p, Type{}); err != nil {
		return nil, err
	}
	return c.node(rule, concl, d), nil
}

// patPos is where a statement's pattern starts (its let, for a tree built
// with none).
func patPos(s *Stm) Pos {
	if len(s.Pat) > 0 {
		return s.Pat[0].Lparen
	}
	return s.Let
}
