package fun

import "github.com/arraysem/arraysem/semantics"

// The parser of the extension forms (loop, reduce, scan, filter, assert,
// redomap, scanomap).
// Their words are not reserved, so that programs naming variables loop or
// scan still parse: a word starts its form only where an expression
// starts, and only when the next token could not follow a variable there
// — '(' for loop, reduce, scan, filter, redomap and scanomap; for assert, a token that starts
// a scalar expression and is no operator (a constant, a variable or '(';
// write assert (-x …) or assert 0 - x … for a negation, since assert - x
// is the variable assert minus x).

// extension parses an extension form if one starts here, reporting
// whether it did.
func (p *Parser) extension() (Exp, bool, error) {
	t := p.S.Peek()
	if t.Kind != semantics.Ident || p.keyword(t.Text) {
		return nil, false, nil
	}
	next := p.S.PeekAt(1)
	paren := next.Kind == semantics.Punct && next.Text == "("
	var e Exp
	var err error
	switch {
	case t.Text == "loop" && paren:
		e, err = p.loop()
	case (t.Text == "reduce" || t.Text == "scan") && paren:
		e, err = p.fold()
	case t.Text == "filter" && paren:
		e, err = p.filter()
	case (t.Text == "redomap" || t.Text == "scanomap") && paren:
		e, err = p.Redomap(2)
	case t.Text == "assert" && (paren || next.Kind == semantics.Int || next.Kind == semantics.Ident && !p.keyword(next.Text)):
		e, err = p.assert()
	default:
		return nil, false, nil
	}
	return e, true, err
}

// params parses the bindings (x : τ) … of a form, want of them (any
// number, at least one, when want is 0); form names it in errors.
func (p *Parser) params(form string, want int) ([]*Param, error) {
	var ps []*Param
	for p.S.Is("(") {
		prm, err := p.Param()
		if err != nil {
			return nil, err
		}
		ps = append(ps, prm)
	}
	switch {
	case want == 0 && len(ps) == 0:
		return nil, p.S.Errorf("expected a parameter '(x : type)' after %s, found %s", form, p.S.Peek())
	case want == 1 && len(ps) != 1:
		return nil, p.S.Errorf("%s takes one parameter (x : type), not %d", form, len(ps))
	case want == 2 && len(ps) != 2:
		return nil, p.S.Errorf("%s takes two parameters (a : type) (b : type), not %d", form, len(ps))
	}
	return ps, nil
}

// loop parses loop (y : τ) … = (x, …) for i <= t do b.
func (p *Parser) loop() (Exp, error) {
	e := &LoopExp{Loop: p.S.Next().Pos}
	var err error
	if e.Params, err = p.params("loop", 0); err != nil {
		return nil, err
	}
	if _, err := p.S.Expect("="); err != nil {
		return nil, err
	}
	lp, err := p.S.Expect("(")
	if err != nil {
		return nil, err
	}
	e.Lparen = lp.Pos
	for {
		x, err := p.Ident("an initial value (a variable)")
		if err != nil {
			return nil, err
		}
		e.Init = append(e.Init, x)
		if !p.S.Accept(",") {
			break
		}
	}
	rp, err := p.S.Expect(")")
	if err != nil {
		return nil, err
	}
	e.Rparen = rp.Pos
	if _, err := p.S.Expect("for"); err != nil {
		return nil, err
	}
	if e.Var, e.Bound, e.Body, err = p.IndexedBody("loop"); err != nil {
		return nil, err
	}
	return e, nil
}

// IndexedBody parses the x <= y do b that ends a kernel and a loop; what
// names the form in messages.
func (p *Parser) IndexedBody(what string) (x, y *Ident, b *Body, err error) {
	if x, err = p.Ident("the " + what + "'s index variable"); err != nil {
		return nil, nil, nil, err
	}
	if y, err = p.After("<=", "the "+what+"'s bound (a variable)"); err != nil {
		return nil, nil, nil, err
	}
	b, err = p.DoBody()
	return x, y, b, err
}

// After parses word, then a variable (what describes it for messages).
func (p *Parser) After(word, what string) (*Ident, error) {
	if _, err := p.S.Expect(word); err != nil {
		return nil, err
	}
	return p.Ident(what)
}

// DoBody parses do b.
func (p *Parser) DoBody() (*Body, error) {
	if _, err := p.S.Expect("do"); err != nil {
		return nil, err
	}
	return p.Body()
}

// fold parses reduce (a : τ) (b : τ) = z over xs do b, and scan alike.
func (p *Parser) fold() (Exp, error) {
	kw := p.S.Next()
	ps, err := p.params(kw.Text, 2)
	if err != nil {
		return nil, err
	}
	ne, err := p.After("=", "the start value z (a variable)")
	if err != nil {
		return nil, err
	}
	arr, err := p.After("over", "an array (a variable)")
	if err != nil {
		return nil, err
	}
	b, err := p.DoBody()
	if err != nil {
		return nil, err
	}
	if kw.Text == "scan" {
		return &ScanExp{Keyword: kw.Pos, Params: ps, Ne: ne, Arr: arr, Body: b}, nil
	}
	return &ReduceExp{Keyword: kw.Pos, Params: ps, Ne: ne, Arr: arr, Body: b}, nil
}

// Redomap parses redomap (a : τ) (b : τ) = z for i <= n do map combine
// op, and scanomap alike (the word is the next token): map and op are
// bodies, each ending at its in (…). It takes want parameters: FUN's two,
// or, with want 0, any number but none (FUNMEM binds an array operand
// with its support group).
func (p *Parser) Redomap(want int) (Exp, error) {
	kw := p.S.Next()
	e := &RedomapExp{Keyword: kw.Pos, Scan: kw.Text == "scanomap"}
	var err error
	if e.Params, err = p.params(kw.Text, want); err != nil {
		return nil, err
	}
	if e.Ne, err = p.After("=", "the start value z (a variable)"); err != nil {
		return nil, err
	}
	if _, err := p.S.Expect("for"); err != nil {
		return nil, err
	}
	if e.Var, e.Bound, e.Map, err = p.IndexedBody(kw.Text); err != nil {
		return nil, err
	}
	c, err := p.S.Expect("combine")
	if err != nil {
		return nil, err
	}
	e.Combine = c.Pos
	if e.Op, err = p.Body(); err != nil {
		return nil, err
	}
	return e, nil
}

// filter parses filter (x : τ) over xs do b.
func (p *Parser) filter() (Exp, error) {
	e := &FilterExp{Keyword: p.S.Next().Pos}
	var err error
	if e.Params, err = p.params("filter", 1); err != nil {
		return nil, err
	}
	if e.Arr, err = p.After("over", "an array (a variable)"); err != nil {
		return nil, err
	}
	if e.Body, err = p.DoBody(); err != nil {
		return nil, err
	}
	return e, nil
}

// assert parses assert se, optionally followed by a string literal.
func (p *Parser) assert() (Exp, error) {
	e := &AssertExp{Keyword: p.S.Next().Pos}
	var err error
	if e.Cond, e.Lparen, e.Rparen, err = p.ParenSExp(); err != nil {
		return nil, err
	}
	if t := p.S.Peek(); IsStringLit(t) {
		p.S.Next()
		e.HasMsg, e.Msg, e.MsgPos, e.MsgEnd = true, StringLit(t), t.Pos, tokenEnd(t)
	}
	return e, nil
}
