package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Ops are FUNMEM's multi-character operators: FUN's and the arrow of types.
var Ops = append([]string{"->"}, fun.Ops...)

var keywords = func() map[string]bool {
	k := map[string]bool{"mem": true, "alloc": true}
	for _, w := range []string{"let", "in", "if", "then", "else", "kernel", "do", "transpose", "iota", "copy", "int", "input"} {
		k[w] = true
	}
	return k
}()

// ParseFile parses a FUNMEM program: FUN's syntax, with the types of Fig 6
// (int, mem, [x]…[x] @ m -> L), float and [x]…[x]float @ m -> L (the
// floats extension), and the expression alloc se.
func ParseFile(file, src string) (*fun.Program, error) {
	s, err := semantics.ScanStream(file, src, Ops)
	if err != nil {
		return nil, err
	}
	defer s.Release() // the tree keeps no token
	p := newParser(s)
	prog, err := p.Program(file)
	if err != nil {
		return nil, err
	}
	if prog.Format, err = semantics.ReadFormatHeader(file, src, "--"); err != nil {
		return nil, err
	}
	return prog, nil
}

func newParser(s *semantics.TokenStream) *fun.Parser {
	p := &fun.Parser{S: s, Keywords: keywords}
	p.ParseType = func() (fun.Type, error) { return parseType(p) }
	p.ParseExp = func() (fun.Exp, bool, error) {
		if e, ok, err := parseFold(p); ok || err != nil {
			return e, ok, err
		}
		if !p.S.Is("alloc") {
			return nil, false, nil
		}
		pos := p.S.Next().Pos
		se, _, rp, err := p.ParenSExp()
		if err != nil {
			return nil, true, err
		}
		return &AllocExp{Alloc: pos, Size: se, Rparen: rp}, true, nil
	}
	return p
}

func parseType(p *fun.Parser) (fun.Type, error) {
	if p.S.Accept("mem") {
		return Mem(), nil
	}
	if p.S.Is("int") || p.S.Is("float") {
		return p.Type()
	}
	if !p.S.Is("[") {
		return fun.Type{}, p.S.Errorf("expected a type (int, float, mem or [n]…[float] @ m -> L), found %s", p.S.Peek())
	}
	t, err := p.Type()
	if err != nil {
		return fun.Type{}, err
	}
	if _, err := p.S.Expect("@"); err != nil {
		return fun.Type{}, p.S.Errorf("a FUNMEM array type says where it lives: [n] @ m -> L, found %s", p.S.Peek())
	}
	block, err := p.Ident("a memory block variable")
	if err != nil {
		return fun.Type{}, err
	}
	if _, err := p.S.Expect("->"); err != nil {
		return fun.Type{}, err
	}
	l, err := parseIndexFn(p)
	if err != nil {
		return fun.Type{}, err
	}
	t.Ext = &ArrayMem{Block: block, Index: l}
	return t, nil
}

// parseIndexFn reads R(se, …) or se + {(se : se) …}.
func parseIndexFn(p *fun.Parser) (*IndexFn, error) {
	start := p.S.Peek()
	if start.Kind == semantics.Ident && start.Text == "R" && p.S.PeekAt(1).Text == "(" {
		p.S.Next()
		p.S.Next()
		l := &IndexFn{Pos: start.Pos, RowMajor: []fun.SExp{}}
		for {
			se, err := p.SExp()
			if err != nil {
				return nil, err
			}
			l.RowMajor = append(l.RowMajor, se)
			if !p.S.Accept(",") {
				break
			}
		}
		if _, err := p.S.Expect(")"); err != nil {
			return nil, err
		}
		return l, nil
	}
	// The offset is the scalar expression before "+ {": parse it from the
	// tokens up to there, so that its last "+" is not taken for an operator.
	depth, j := 0, p.S.I
	for ; j < len(p.S.Toks); j++ {
		t := p.S.Toks[j]
		if t.Kind == semantics.EOF || (depth == 0 && t.Text == ")") {
			return nil, semantics.Errorf(start.Pos, semantics.SyntaxError, "", "expected an LMAD, offset + {(elements : stride) …}, or R(…)")
		}
		if t.Text == "(" {
			depth++
		} else if t.Text == ")" {
			depth--
		} else if t.Text == "{" {
			break
		}
	}
	if j == p.S.I || p.S.Toks[j-1].Text != "+" || j-1 == p.S.I {
		return nil, semantics.Errorf(start.Pos, semantics.SyntaxError, "", "expected an LMAD, offset + {(elements : stride) …}, or R(…)")
	}
	sub := &fun.Parser{S: &semantics.TokenStream{Toks: append(append([]semantics.Token(nil), p.S.Toks[p.S.I:j-1]...),
		semantics.Token{Kind: semantics.EOF, Pos: p.S.Toks[j-1].Pos})}, Keywords: keywords}
	off, err := sub.SExp()
	if err != nil {
		return nil, err
	}
	if t := sub.S.Peek(); t.Kind != semantics.EOF {
		return nil, sub.S.Errorf("unexpected %s in the LMAD's offset", t)
	}
	p.S.I = j + 1 // past "{"
	l := &IndexFn{Pos: start.Pos, Offset: off}
	for p.S.Accept("(") {
		elems, err := p.SExp()
		if err != nil {
			return nil, err
		}
		if _, err := p.S.Expect(":"); err != nil {
			return nil, err
		}
		stride, err := p.SExp()
		if err != nil {
			return nil, err
		}
		if _, err := p.S.Expect(")"); err != nil {
			return nil, err
		}
		l.Dims = append(l.Dims, LDim{Elems: elems, Stride: stride})
	}
	if _, err := p.S.Expect("}"); err != nil {
		return nil, err
	}
	return l, nil
}

// parseFold parses reduce, scan, filter, redomap and scanomap as FUN
// does, but with any number of parameters: FUNMEM binds an array operand
// with its support group (groups.go), and the checker counts the
// operands.
func parseFold(p *fun.Parser) (fun.Exp, bool, error) {
	t := p.S.Peek()
	if t.Kind != semantics.Ident || keywords[t.Text] || p.S.PeekAt(1).Text != "(" {
		return nil, false, nil
	}
	switch t.Text {
	case "redomap", "scanomap":
		e, err := p.Redomap(0)
		return e, true, err
	case "reduce", "scan", "filter":
	default:
		return nil, false, nil
	}
	kw := p.S.Next()
	var ps []*fun.Param
	for p.S.Is("(") {
		prm, err := p.Param()
		if err != nil {
			return nil, true, err
		}
		ps = append(ps, prm)
	}
	var ne *fun.Ident
	if kw.Text != "filter" {
		if _, err := p.S.Expect("="); err != nil {
			return nil, true, err
		}
		var err error
		if ne, err = p.Ident("the start value z (a variable)"); err != nil {
			return nil, true, err
		}
	}
	arr, err := p.After("over", "an array (a variable)")
	if err != nil {
		return nil, true, err
	}
	b, err := p.DoBody()
	if err != nil {
		return nil, true, err
	}
	switch kw.Text {
	case "reduce":
		return &fun.ReduceExp{Keyword: kw.Pos, Params: ps, Ne: ne, Arr: arr, Body: b}, true, nil
	case "scan":
		return &fun.ScanExp{Keyword: kw.Pos, Params: ps, Ne: ne, Arr: arr, Body: b}, true, nil
	}
	return &fun.FilterExp{Keyword: kw.Pos, Params: ps, Arr: arr, Body: b}, true, nil
}

// Print renders a FUNMEM program (FUN's printer renders the annotations).
func Print(p *fun.Program) string { return fun.Print(p) }
