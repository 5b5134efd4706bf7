package fun

import (
	"unicode/utf8"

	"github.com/arraysem/arraysem/semantics"
)

// keywords may not be used as variable names.
var keywords = map[string]bool{
	"let": true, "in": true, "if": true, "then": true, "else": true, "kernel": true, "do": true,
	"transpose": true, "iota": true, "copy": true, "int": true, "input": true,
}

// IsKeyword reports whether name is a reserved word of FUN.
func IsKeyword(name string) bool { return keywords[name] }

// Ops are FUN's multi-character operators, for semantics.Scan.
var Ops = []string{"<=", ">=", "==", "!=", "&&", "||", "+!", "-!", "*!", "/!"}

// binOp is the scalar operator a spelling stands for. (A switch: a map
// of them was a lookup after every operand, a quarter of the time spent
// reading scalar expressions.)
func binOp(text string) (semantics.Op, bool) {
	switch text {
	case "+":
		return semantics.Add, true
	case "-":
		return semantics.Sub, true
	case "*":
		return semantics.Mul, true
	case "/":
		return semantics.Div, true
	case "%":
		return semantics.Mod, true
	case "==":
		return semantics.Eq, true
	case "!=":
		return semantics.Ne, true
	case "<":
		return semantics.Lt, true
	case "<=":
		return semantics.Le, true
	case ">":
		return semantics.Gt, true
	case ">=":
		return semantics.Ge, true
	case "&&":
		return semantics.And, true
	case "||":
		return semantics.Or, true
	// The checked operators (an extension, semantics.AddChecked): stuck
	// on overflow instead of wrapping.
	case "+!":
		return semantics.AddChecked, true
	case "-!":
		return semantics.SubChecked, true
	case "*!":
		return semantics.MulChecked, true
	case "/!":
		return semantics.DivChecked, true
	}
	return 0, false
}

// ParseFile parses a FUN program. Errors are *semantics.Error values of kind
// SyntaxError, positioned file:line:col.
func ParseFile(file, src string) (*Program, error) {
	s, err := semantics.ScanStream(file, src, Ops)
	if err != nil {
		return nil, err
	}
	defer s.Release() // the tree keeps no token
	p := &Parser{S: s}
	prog, err := p.Program(file)
	if err != nil {
		return nil, err
	}
	if prog.Format, err = semantics.ReadFormatHeader(file, src, "--"); err != nil {
		return nil, err
	}
	return prog, nil
}

// Parser is a recursive-descent parser for FUN. FUNMEM's parser embeds it
// and overrides how types are read.
type Parser struct {
	S *semantics.TokenStream
	// ParseType, when set, replaces the reading of a binding's type.
	ParseType func() (Type, error)
	// ParseExp, when set, is tried first for an expression; it reports
	// whether it read one (extensions add forms such as FUNMEM's alloc).
	ParseExp func() (Exp, bool, error)
	// Keywords, when set, replaces FUN's reserved words.
	Keywords map[string]bool
	// Memory for the names, constants and operators still to be read: a
	// tree's nodes live as long as it does, so the commonest are
	// allocated a slab at a time rather than one by one (the campaigns
	// read back every program they check). A Parser is not copied.
	idents Slab[Ident]
	consts Slab[Const]
	binops Slab[BinOp]
	// A body's statements and results are gathered on a stack (bodies
	// nest) and then given a list of their own, cut from a block of
	// lists (capacity its length: an append to one copies it).
	stms     []*Stm
	stmLists []*Stm
	resLists []*Ident
}

// cut is xs copied into a list of its own cut from *block (nil when xs
// is empty, as append leaves a list it never added to).
func cut[T any](block *[]T, xs []T) []T {
	n := len(xs)
	if n == 0 {
		return nil
	}
	if len(*block) < n {
		*block = make([]T, max(2*slabSize, n))
	}
	out := (*block)[:n:n]
	*block = (*block)[n:]
	copy(out, xs)
	return out
}

// Slab is memory for a parser's nodes of type T still to be handed out:
// a tree's nodes live as long as it does, so a slab allocates slabSize
// at a time. A Slab is not copied.
type Slab[T any] []T

// slabSize is how many nodes a slab allocates at once.
const slabSize = 16

// Next is a zero T of the slab's (allocating a slab when it is used up).
func (s *Slab[T]) Next() *T {
	if len(*s) == 0 {
		*s = make([]T, slabSize)
	}
	x := &(*s)[0]
	*s = (*s)[1:]
	return x
}

func (p *Parser) keyword(name string) bool {
	// The reserved words of FUN, FUNMEM and IMP are letters: a name that
	// ends in a digit or _ (most of what the translations name) is none,
	// answered without a lookup.
	if n := len(name); n > 0 && ('0' <= name[n-1] && name[n-1] <= '9' || name[n-1] == '_') {
		return false
	}
	if p.Keywords != nil {
		return p.Keywords[name]
	}
	return keywords[name]
}

// Program parses input declarations and a body up to the end of file.
func (p *Parser) Program(file string) (*Program, error) {
	prog := &Program{File: file}
	for p.S.Accept("input") {
		for p.S.Is("(") {
			prm, err := p.Param()
			if err != nil {
				return nil, err
			}
			prog.Inputs = append(prog.Inputs, prm)
		}
		if len(prog.Inputs) == 0 {
			return nil, p.S.Errorf("expected '(' after input, found %s", p.S.Peek())
		}
	}
	body, err := p.Body()
	if err != nil {
		return nil, err
	}
	if t := p.S.Peek(); t.Kind != semantics.EOF {
		return nil, p.S.Errorf("unexpected %s after the program's result", t)
	}
	prog.Body = body
	return prog, nil
}

// Body parses statements followed by in (x, …).
func (p *Parser) Body() (*Body, error) {
	if err := p.S.Enter(); err != nil {
		return nil, err
	}
	defer p.S.Leave()
	b := &Body{}
	mark := len(p.stms)
	defer func() { p.stms = p.stms[:mark] }()
	for p.S.Is("let") {
		s, err := p.Stm()
		if err != nil {
			return nil, err
		}
		p.stms = append(p.stms, s)
	}
	b.Stms = cut(&p.stmLists, p.stms[mark:])
	if !p.S.Is("in") {
		return nil, p.S.Errorf("expected 'let' or 'in', found %s", p.S.Peek())
	}
	b.In = p.S.Next().Pos
	if _, err := p.S.Expect("("); err != nil {
		return nil, err
	}
	var res [4]*Ident // most bodies have one result, a few more
	rs := res[:0]
	for {
		id, err := p.Ident("a result variable")
		if err != nil {
			return nil, err
		}
		rs = append(rs, id)
		if !p.S.Accept(",") {
			break
		}
	}
	b.Result = cut(&p.resLists, rs)
	rp, err := p.S.Expect(")")
	if err != nil {
		return nil, err
	}
	b.Rparen = rp.Pos
	return b, nil
}

// Stm parses let p … p = e.
func (p *Parser) Stm() (*Stm, error) {
	s := &Stm{Let: p.S.Next().Pos}
	for p.S.Is("(") {
		prm, err := p.Param()
		if err != nil {
			return nil, err
		}
		s.Pat = append(s.Pat, prm)
	}
	if len(s.Pat) == 0 {
		return nil, p.S.Errorf("expected a binding '(x : type)' after let, found %s", p.S.Peek())
	}
	if _, err := p.S.Expect("="); err != nil {
		return nil, err
	}
	e, err := p.Exp()
	if err != nil {
		return nil, err
	}
	s.Exp = e
	return s, nil
}

// Param parses (x : τ).
func (p *Parser) Param() (*Param, error) {
	lp, err := p.S.Expect("(")
	if err != nil {
		return nil, err
	}
	name, err := p.Ident("a variable")
	if err != nil {
		return nil, err
	}
	if _, err := p.S.Expect(":"); err != nil {
		return nil, err
	}
	var t Type
	if p.ParseType != nil {
		t, err = p.ParseType()
	} else {
		t, err = p.Type()
	}
	if err != nil {
		return nil, err
	}
	rp, err := p.S.Expect(")")
	if err != nil {
		return nil, err
	}
	return &Param{Lparen: lp.Pos, Name: name, Type: t, Rparen: rp.Pos}, nil
}

// Type parses int or [x]…[x], and with floats (an extension) float or
// [x]…[x]float.
func (p *Parser) Type() (Type, error) {
	if p.S.Accept("int") {
		return Type{}, nil
	}
	if p.S.Accept("float") {
		return Type{Elem: semantics.FloatElem}, nil
	}
	if !p.S.Is("[") {
		return Type{}, p.S.Errorf("expected a type (int, float, [n]… or [n]…float), found %s", p.S.Peek())
	}
	var t Type
	for p.S.Is("[") {
		lb := p.S.Next()
		if k := p.S.Peek().Kind; k == semantics.Int || k == semantics.Float {
			return Type{}, p.S.Errorf("array sizes in FUN types are variables, not constants: bind the size with let first")
		}
		id, err := p.Ident("a size variable")
		if err != nil {
			return Type{}, err
		}
		id.NamePos = lb.Pos // errors about a dimension point at its [x]
		t.Dims = append(t.Dims, id)
		if _, err := p.S.Expect("]"); err != nil {
			return Type{}, err
		}
	}
	if p.S.Accept("float") {
		t.Elem = semantics.FloatElem
	}
	return t, nil
}

// Ident parses a variable name; what describes it in the error.
func (p *Parser) Ident(what string) (*Ident, error) {
	t := p.S.Peek()
	if t.Kind != semantics.Ident || p.keyword(t.Text) {
		return nil, p.S.Errorf("expected %s, found %s", what, t)
	}
	p.S.Next()
	id := p.idents.Next()
	*id = Ident{NamePos: t.Pos, Name: t.Text}
	return id, nil
}

// Exp parses an expression.
func (p *Parser) Exp() (Exp, error) {
	if p.ParseExp != nil {
		if e, ok, err := p.ParseExp(); ok || err != nil {
			return e, err
		}
	}
	t := p.S.Peek()
	if e, ok, err := p.extension(); ok || err != nil {
		return e, err
	}
	if t.Kind == semantics.Ident {
		switch t.Text {
		case "if":
			p.S.Next()
			c, err := p.Ident("a condition variable")
			if err != nil {
				return nil, err
			}
			if _, err := p.S.Expect("then"); err != nil {
				return nil, err
			}
			b1, err := p.Body()
			if err != nil {
				return nil, err
			}
			if _, err := p.S.Expect("else"); err != nil {
				return nil, err
			}
			b2, err := p.Body()
			if err != nil {
				return nil, err
			}
			return &IfExp{If: t.Pos, Cond: c, Then: b1, Else: b2}, nil
		case "kernel":
			p.S.Next()
			x, y, b, err := p.IndexedBody("kernel")
			if err != nil {
				return nil, err
			}
			return &KernelExp{Kernel: t.Pos, Var: x, Bound: y, Body: b}, nil
		case "transpose", "iota", "copy":
			p.S.Next()
			x, err := p.Ident("a variable (FUN is in A-normal form)")
			if err != nil {
				return nil, err
			}
			switch t.Text {
			case "transpose":
				return &TransposeExp{Keyword: t.Pos, Arr: x}, nil
			case "iota":
				return &IotaExp{Keyword: t.Pos, N: x}, nil
			}
			return &CopyExp{Keyword: t.Pos, Arr: x}, nil
		}
		if !p.keyword(t.Text) && p.S.PeekAt(1).Kind == semantics.Punct && p.S.PeekAt(1).Text == "[" {
			return p.indexOrSlice()
		}
	}
	se, lp, rp, err := p.ParenSExp()
	if err != nil {
		return nil, err
	}
	return &ScalarExp{X: se, Lparen: lp, Rparen: rp}, nil
}

// indexOrSlice parses x[y, …] or x[o : s, …].
func (p *Parser) indexOrSlice() (Exp, error) {
	arr, _ := p.Ident("an array")
	p.S.Next() // '['
	const anf = "an index variable (FUN is in A-normal form: bind the index with let first)"
	first, err := p.Ident(anf)
	if err != nil {
		return nil, err
	}
	if p.S.Accept(":") {
		e := &SliceExp{Arr: arr}
		off := first
		for {
			size, err := p.Ident("a slice size variable")
			if err != nil {
				return nil, err
			}
			e.Slices = append(e.Slices, Slice{Off: off, Size: size})
			if !p.S.Accept(",") {
				break
			}
			if off, err = p.Ident("a slice offset variable"); err != nil {
				return nil, err
			}
			if _, err := p.S.Expect(":"); err != nil {
				return nil, err
			}
		}
		rb, err := p.S.Expect("]")
		if err != nil {
			return nil, err
		}
		e.Rbrack = rb.Pos
		return e, nil
	}
	e := &IndexExp{Arr: arr, Idx: []*Ident{first}}
	for p.S.Accept(",") {
		id, err := p.Ident(anf)
		if err != nil {
			return nil, err
		}
		e.Idx = append(e.Idx, id)
	}
	if p.S.Is(":") {
		return nil, p.S.Errorf("mixed indices and slices: slice every dimension (o : s) or index every one")
	}
	rb, err := p.S.Expect("]")
	if err != nil {
		return nil, err
	}
	e.Rbrack = rb.Pos
	return e, nil
}

// SExp parses a scalar expression by precedence climbing.
func (p *Parser) SExp() (SExp, error) {
	se, _, _, err := p.sexp(1)
	return se, err
}

// ParenSExp parses a scalar expression, as SExp does, and also returns
// the outermost parentheses around the whole of it, if it is written in
// parentheses (else invalid positions): its span leaves them out, so a
// node that ends in a scalar expression records them to know its own end.
func (p *Parser) ParenSExp() (se SExp, lparen, rparen Pos, err error) {
	se, from, to, err := p.sexp(1)
	if err != nil {
		return nil, Pos{}, Pos{}, err
	}
	return se, parenBefore(se, from), parenAfter(se, to), nil
}

// tokenEnd is the position just after token t: exact for identifiers,
// integers and one-character delimiters (an operator's ASCII spelling may
// stand for a one-rune Unicode one).
func tokenEnd(t semantics.Token) Pos { return shift(t.Pos, utf8.RuneCountInString(t.Text)) }

// sexp parses a scalar expression of operators of precedence minPrec or
// more; [from, to) is its outer span, the parentheses around the whole of
// it included.
func (p *Parser) sexp(minPrec int) (e SExp, from, to Pos, err error) {
	l, from, to, err := p.unary()
	if err != nil {
		return nil, from, to, err
	}
	for {
		t := p.S.Peek()
		if t.Kind != semantics.Punct {
			return l, from, to, nil
		}
		op, ok := binOp(t.Text)
		if !ok || op.Prec() < minPrec {
			return l, from, to, nil
		}
		p.S.Next()
		r, _, rto, err := p.sexp(op.Prec() + 1)
		if err != nil {
			return nil, from, to, err
		}
		b := p.binops.Next()
		*b = BinOp{OpPos: t.Pos, Op: op, L: l, R: r, Lparen: parenBefore(l, from), Rparen: parenAfter(r, rto)}
		l = b
		to = rto
	}
}

// unary parses a constant, a variable, a negation or a parenthesized
// scalar expression; [from, to) is its outer span.
func (p *Parser) unary() (e SExp, from, to Pos, err error) {
	if err := p.S.Enter(); err != nil {
		return nil, from, to, err
	}
	defer p.S.Leave()
	t := p.S.Peek()
	switch {
	case t.Kind == semantics.Int:
		if t.Big {
			return nil, from, to, p.S.Errorf("integer %s does not fit in 64 bits", t.Text)
		}
		p.S.Next()
		c := p.consts.Next()
		*c = Const{ValuePos: t.Pos, Value: t.Val, ValueEnd: tokenEnd(t)}
		return c, c.ValuePos, c.ValueEnd, nil
	case t.Kind == semantics.Float:
		p.S.Next()
		c := &FloatConst{ValuePos: t.Pos, Value: t.F, ValueEnd: tokenEnd(t)}
		return c, c.ValuePos, c.ValueEnd, nil
	case t.Kind == semantics.Punct && t.Text == "-":
		p.S.Next()
		if n := p.S.Peek(); n.Kind == semantics.Int {
			// -k is the constant -k, so that negative constants print and
			// parse back alike (and -9223372036854775808 is a literal).
			p.S.Next()
			c := p.consts.Next()
			*c = Const{ValuePos: t.Pos, Value: -n.Val, ValueEnd: tokenEnd(n)}
			return c, c.ValuePos, c.ValueEnd, nil
		}
		if n := p.S.Peek(); n.Kind == semantics.Float {
			// -f is the constant -f, as -k is.
			p.S.Next()
			c := &FloatConst{ValuePos: t.Pos, Value: -n.F, ValueEnd: tokenEnd(n)}
			return c, c.ValuePos, c.ValueEnd, nil
		}
		x, _, xto, err := p.unary()
		if err != nil {
			return nil, from, to, err
		}
		return &UnOp{OpPos: t.Pos, Op: semantics.Neg, X: x, Rparen: parenAfter(x, xto)}, t.Pos, xto, nil
	case t.Kind == semantics.Punct && t.Text == "(":
		p.S.Next()
		x, _, _, err := p.sexp(1)
		if err != nil {
			return nil, from, to, err
		}
		rp, err := p.S.Expect(")")
		if err != nil {
			return nil, from, to, err
		}
		return x, t.Pos, tokenEnd(rp), nil
	case t.Kind == semantics.Ident && p.isCall():
		return p.call()
	case t.Kind == semantics.Ident && !p.keyword(t.Text):
		id, _ := p.Ident("")
		return Var{id}, id.NamePos, id.End(), nil
	}
	return nil, from, to, p.S.Errorf("expected a scalar expression, found %s", t)
}

// isCall reports whether the current token starts a call f(se) of a
// built-in function. The functions' names are not reserved (int is, as a
// type): a name followed by '(' is a call, as no variable is.
func (p *Parser) isCall() bool {
	// The '(' first: most names are variables, asked about with no
	// lookup.
	if next := p.S.PeekAt(1); next.Kind != semantics.Punct || next.Text != "(" {
		return false
	}
	_, ok := semantics.LookupFunc(p.S.Peek().Text)
	return ok
}

// call parses f(se); its span runs from the name to the ')'.
func (p *Parser) call() (e SExp, from, to Pos, err error) {
	name := p.S.Next()
	f, _ := semantics.LookupFunc(name.Text)
	p.S.Next() // '('
	arg, _, _, err := p.sexp(1)
	if err != nil {
		return nil, from, to, err
	}
	rp, err := p.S.Expect(")")
	if err != nil {
		return nil, from, to, err
	}
	return &Call{NamePos: name.Pos, Func: f, Arg: arg, Rparen: rp.Pos}, name.Pos, tokenEnd(rp), nil
}
