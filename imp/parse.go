package imp

import (
	"slices"
	"unicode/utf8"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Ops are IMP's multi-character operators: FUN's and the assignment arrow.
var Ops = append([]string{"<-"}, fun.Ops...)

var keywords = map[string]bool{
	"skip": true, "var": true, "int": true, "mem": true, "alloc": true, "if": true, "then": true, "else": true,
	"fi": true, "kernel": true, "do": true, "done": true, "input": true, "return": true,
}

// formWords are the words of the extensions' statements. They are not
// reserved, as programs translated from FUN name variables assert: a
// statement that starts with one of them followed by "<-" or "[" assigns,
// reads into or writes a variable of that name (see isForm).
var formWords = map[string]bool{"for": true, "assert": true, "reduce": true, "scan": true, "yield": true, "combine": true}

// isForm reports whether the current token is the form word w, not a
// variable of that name being assigned or written.
func (p *parser) isForm(w string) bool {
	if !p.S.Is(w) {
		return false
	}
	next := p.S.PeekAt(1)
	return !(next.Kind == semantics.Punct && (next.Text == "<-" || next.Text == "["))
}

// ParseFile parses an IMP program:
//
//	input n : int; input xs : [n] @ xs_mem;
//	var ys : mem; ys <- alloc n;
//	kernel i <= n do var t : int; t <- xs_mem[i - 1]; ys[i - 1] <- t * 2 done;
//	return ys : [n]
//
// A "<-" after a variable is an assignment; "x < -1" needs the space.
func ParseFile(file, src string) (*Program, error) {
	s, err := semantics.ScanStream(file, src, Ops)
	if err != nil {
		return nil, err
	}
	defer s.Release() // the tree keeps no token
	p := &parser{Parser: fun.Parser{S: s, Keywords: keywords}}
	prog, err := p.program(file)
	if err != nil {
		return nil, err
	}
	if prog.Format, err = semantics.ReadFormatHeader(file, src, "--"); err != nil {
		return nil, err
	}
	return prog, nil
}

type parser struct {
	fun.Parser
	stack []Stmt // the statements of the bodies being read (stmts)
	// the commonest statements' memory (most of what the translation
	// writes is var x : τ; x <- se), as fun.Parser allocates names
	decls   fun.Slab[Decl]
	assigns fun.Slab[Assign]
}

func (p *parser) program(file string) (*Program, error) {
	prog := &Program{File: file}
	for p.S.Is("input") {
		in, err := p.input()
		if err != nil {
			return nil, err
		}
		prog.Inputs = append(prog.Inputs, in)
		if _, err := p.S.Expect(";"); err != nil {
			return nil, err
		}
	}
	body, err := p.stmts("return")
	if err != nil {
		return nil, err
	}
	prog.Body = body
	ret, err := p.S.Expect("return")
	if err != nil {
		return nil, p.S.Errorf("expected a statement or return, found %s", p.S.Peek())
	}
	prog.RetPos = ret.Pos
	for {
		x, err := p.Ident("a result variable")
		if err != nil {
			return nil, err
		}
		r := &Result{Name: x}
		if p.S.Accept(":") {
			if r.Dims, err = p.dims(); err != nil {
				return nil, err
			}
			r.Elem = p.elem()
		}
		prog.Return = append(prog.Return, r)
		if !p.S.Accept(",") {
			break
		}
	}
	p.S.Accept(";")
	if t := p.S.Peek(); t.Kind != semantics.EOF {
		return nil, p.S.Errorf("unexpected %s after return", t)
	}
	return prog, nil
}

func (p *parser) input() (*Input, error) {
	at := p.S.Next().Pos
	x, err := p.Ident("an input name")
	if err != nil {
		return nil, err
	}
	if _, err := p.S.Expect(":"); err != nil {
		return nil, err
	}
	in := &Input{Pos: at, Name: x}
	if p.S.Accept("int") {
		return in, nil
	}
	if p.S.Accept("float") {
		in.Elem = semantics.FloatElem
		return in, nil
	}
	if !p.S.Is("[") {
		return nil, p.S.Errorf("expected int, float or [n]… @ block, found %s", p.S.Peek())
	}
	if in.Dims, err = p.dims(); err != nil {
		return nil, err
	}
	in.Elem = p.elem()
	if _, err := p.S.Expect("@"); err != nil {
		return nil, err
	}
	if in.Block, err = p.Ident("the block holding the input"); err != nil {
		return nil, err
	}
	return in, nil
}

// elem reads the element type after an array's shape: float, or nothing
// for int.
func (p *parser) elem() semantics.Elem {
	if p.S.Accept("float") {
		return semantics.FloatElem
	}
	return semantics.IntElem
}

// dims reads [se][se]….
func (p *parser) dims() ([]fun.SExp, error) {
	var ds []fun.SExp
	for p.S.Accept("[") {
		d, err := p.SExp()
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
		if _, err := p.S.Expect("]"); err != nil {
			return nil, err
		}
	}
	if ds == nil {
		return nil, p.S.Errorf("expected a shape [n]…, found %s", p.S.Peek())
	}
	return ds, nil
}

// stmts reads s; s; … up to the closing keyword closer (an optional ';'
// may end the sequence).
func (p *parser) stmts(closer string) ([]Stmt, error) {
	if err := p.S.Enter(); err != nil {
		return nil, err
	}
	// The statements gather on the parser's stack (a nested body's above
	// its enclosing one's) and leave it as a list of their number, rather
	// than a list grown by doubling for each body.
	mark := len(p.stack)
	body, err := p.gather(closer, mark)
	clear(p.stack[mark:])
	p.stack = p.stack[:mark]
	p.S.Leave()
	return body, err
}

// gather reads stmts' statements onto the stack above mark, and returns
// them as a list of their own.
func (p *parser) gather(closer string, mark int) ([]Stmt, error) {
	for !p.closed(closer) {
		s, err := p.stmt()
		if err != nil {
			return nil, err
		}
		p.stack = append(p.stack, s)
		if !p.S.Accept(";") && !p.closed(closer) {
			return nil, p.S.Errorf("expected ';' between statements, found %s", p.S.Peek())
		}
	}
	if len(p.stack) == mark {
		return nil, nil
	}
	return slices.Clone(p.stack[mark:]), nil
}

// closed reports whether the statements end here: at the closing keyword
// closer (a form word only as the form) or at the end of the text.
func (p *parser) closed(closer string) bool {
	return p.S.Peek().Kind == semantics.EOF || p.S.Is(closer) && (!formWords[closer] || p.isForm(closer))
}

func (p *parser) stmt() (Stmt, error) {
	t := p.S.Peek()
	word := "" // the statement's first word, if an identifier
	if t.Kind == semantics.Ident {
		word = t.Text
	}
	switch word {
	case "skip":
		p.S.Next()
		return &Skip{At: t.Pos}, nil
	case "var":
		p.S.Next()
		x, err := p.Ident("a variable")
		if err != nil {
			return nil, err
		}
		if _, err := p.S.Expect(":"); err != nil {
			return nil, err
		}
		tp := p.S.Peek().Pos
		var typ Type
		switch {
		case p.S.Accept("int"):
			typ = Int
		case p.S.Accept("mem"):
			typ = Mem
		case p.S.Accept("float"):
			typ = Float
		default:
			return nil, p.S.Errorf("expected int, float or mem, found %s", p.S.Peek())
		}
		d := p.decls.Next()
		*d = Decl{At: t.Pos, X: x, Type: typ, TypePos: tp}
		return d, nil
	case "if":
		p.S.Next()
		c, err := p.Ident("a condition variable")
		if err != nil {
			return nil, err
		}
		if _, err := p.S.Expect("then"); err != nil {
			return nil, err
		}
		s1, err := p.stmts("else")
		if err != nil {
			return nil, err
		}
		if _, err := p.S.Expect("else"); err != nil {
			return nil, err
		}
		s2, err := p.stmts("fi")
		if err != nil {
			return nil, err
		}
		fi, err := p.S.Expect("fi")
		if err != nil {
			return nil, err
		}
		return &If{At: t.Pos, Cond: c, Then: s1, Else: s2, Fi: fi.Pos}, nil
	case "kernel":
		p.S.Next()
		x, bound, body, done, err := p.loop("the kernel's index variable")
		if err != nil {
			return nil, err
		}
		return &Kernel{At: t.Pos, X: x, Bound: bound, Body: body, Done: done}, nil
	case "for":
		if !p.isForm("for") {
			break // a variable of that name
		}
		p.S.Next()
		x, bound, body, done, err := p.loop("the loop's index variable")
		if err != nil {
			return nil, err
		}
		return &For{At: t.Pos, X: x, Bound: bound, Body: body, Done: done}, nil
	case "assert":
		if !p.isForm("assert") {
			break // a variable of that name
		}
		p.S.Next()
		cond, _, rp, err := p.ParenSExp()
		if err != nil {
			return nil, err
		}
		a := &Assert{At: t.Pos, Cond: cond, Rparen: rp}
		if m := p.S.Peek(); m.Kind == semantics.Str {
			p.S.Next()
			a.Msg = semantics.Unquote(m.Text)
			a.MsgEnd = shift(m.Pos, utf8.RuneCountInString(m.Text))
		}
		return a, nil
	case "reduce":
		if !p.isForm("reduce") {
			break // a variable of that name
		}
		p.S.Next()
		x, err := p.Ident("the reduction's target variable")
		if err != nil {
			return nil, err
		}
		if _, err := p.S.Expect("<-"); err != nil {
			return nil, err
		}
		f, err := p.fold()
		if err != nil {
			return nil, err
		}
		return &Reduce{At: t.Pos, Target: x, Fold: *f}, nil
	case "scan":
		if !p.isForm("scan") {
			break // a variable of that name
		}
		p.S.Next()
		m, err := p.Ident("the scan's target block")
		if err != nil {
			return nil, err
		}
		if _, err := p.S.Expect("["); err != nil {
			return nil, err
		}
		addr, err := p.SExp()
		if err != nil {
			return nil, err
		}
		if _, err := p.S.Expect("]"); err != nil {
			return nil, err
		}
		if _, err := p.S.Expect("<-"); err != nil {
			return nil, err
		}
		f, err := p.fold()
		if err != nil {
			return nil, err
		}
		return &Scan{At: t.Pos, Block: m, Addr: addr, Fold: *f}, nil
	}
	x, err := p.Ident("a statement")
	if err != nil {
		return nil, err
	}
	if p.S.Accept("[") { // x[se] <- se
		idx, err := p.SExp()
		if err != nil {
			return nil, err
		}
		if _, err := p.S.Expect("]"); err != nil {
			return nil, err
		}
		if _, err := p.S.Expect("<-"); err != nil {
			return nil, err
		}
		v, _, rp, err := p.ParenSExp()
		if err != nil {
			return nil, err
		}
		return &Write{At: t.Pos, X: x, Index: idx, Value: v, Rparen: rp}, nil
	}
	if _, err := p.S.Expect("<-"); err != nil {
		return nil, err
	}
	if p.S.Accept("alloc") {
		n, _, rp, err := p.ParenSExp()
		if err != nil {
			return nil, err
		}
		return &Alloc{At: t.Pos, X: x, Size: n, Rparen: rp}, nil
	}
	if y := p.S.Peek(); y.Kind == semantics.Ident && p.S.PeekAt(1).Text == "[" && !keywords[y.Text] { // x <- y[se]
		yid, _ := p.Ident("")
		p.S.Next()
		idx, err := p.SExp()
		if err != nil {
			return nil, err
		}
		rb, err := p.S.Expect("]")
		if err != nil {
			return nil, err
		}
		return &Read{At: t.Pos, X: x, Y: yid, Index: idx, Rbrack: rb.Pos}, nil
	}
	se, _, rp, err := p.ParenSExp()
	if err != nil {
		return nil, err
	}
	a := p.assigns.Next()
	*a = Assign{At: t.Pos, X: x, SE: se, Rparen: rp}
	return a, nil
}

// loop reads x <= se do s done, after kernel, for or a fold's for.
func (p *parser) loop(what string) (*fun.Ident, fun.SExp, []Stmt, fun.Pos, error) {
	x, bound, err := p.header(what)
	if err != nil {
		return nil, nil, nil, fun.Pos{}, err
	}
	body, err := p.stmts("done")
	if err != nil {
		return nil, nil, nil, fun.Pos{}, err
	}
	done, err := p.S.Expect("done")
	if err != nil {
		return nil, nil, nil, fun.Pos{}, err
	}
	return x, bound, body, done.Pos, nil
}

// header reads x <= se do.
func (p *parser) header(what string) (*fun.Ident, fun.SExp, error) {
	x, err := p.Ident(what)
	if err != nil {
		return nil, nil, err
	}
	if _, err := p.S.Expect("<="); err != nil {
		return nil, nil, err
	}
	bound, err := p.SExp()
	if err != nil {
		return nil, nil, err
	}
	if _, err := p.S.Expect("do"); err != nil {
		return nil, nil, err
	}
	return x, bound, nil
}

// fold reads what follows reduce x <- and scan m[se] <-:
//
//	ne for i <= se do s1 yield y combine a, b do s2 yield c done
func (p *parser) fold() (*Fold, error) {
	ne, err := p.SExp()
	if err != nil {
		return nil, err
	}
	if _, err := p.S.Expect("for"); err != nil {
		return nil, err
	}
	f := &Fold{Neutral: ne}
	if f.X, f.Bound, err = p.header("the element index variable"); err != nil {
		return nil, err
	}
	if f.Body, f.Yield, err = p.part("the element part's result"); err != nil {
		return nil, err
	}
	if _, err := p.S.Expect("combine"); err != nil {
		return nil, err
	}
	if f.A, err = p.Ident("the accumulator variable"); err != nil {
		return nil, err
	}
	if _, err := p.S.Expect(","); err != nil {
		return nil, err
	}
	if f.B, err = p.Ident("the element variable"); err != nil {
		return nil, err
	}
	if _, err := p.S.Expect("do"); err != nil {
		return nil, err
	}
	if f.Combine, f.Result, err = p.part("the combine part's result"); err != nil {
		return nil, err
	}
	done, err := p.S.Expect("done")
	if err != nil {
		return nil, err
	}
	f.Done = done.Pos
	return f, nil
}

// part reads s yield x, the element or combine part of a fold.
func (p *parser) part(what string) ([]Stmt, *fun.Ident, error) {
	body, err := p.stmts("yield")
	if err != nil {
		return nil, nil, err
	}
	if _, err := p.S.Expect("yield"); err != nil {
		return nil, nil, err
	}
	y, err := p.Ident(what)
	if err != nil {
		return nil, nil, err
	}
	return body, y, nil
}
