package gpusim

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/semantics"
)

// Program is a parsed .cu file: the emitter's AST, read back.
type Program struct {
	Name  string                // the file's name, for messages
	File  *cuda.File            // its tables and functions
	funcs map[string]*cuda.Func // the functions by name
	// The file's text (Text): src as read, or (src "", read by
	// ParseParts) head + cuda.Prelude + rest.
	src, head, rest string
}

// Text is the file's text, as read.
func (p *Program) Text() string {
	if p.src != "" {
		return p.src
	}
	return p.head + cuda.Prelude + p.rest
}

// Error is an error of gpu-sim: an unsupported construct when parsing,
// or what the simulated program did. Pos is its position in the .cu
// file. In an emitted file, whose sites table gives the source program's
// positions (source.go), Source is the position the message names
// instead: the source program's statement, or only a file where no
// position applies (bad input).
type Error struct {
	File string
	Pos  cuda.Pos
	Kind string // "unsupported", "stuck", "overflow", "race", "out-of-bounds", "uninitialised", "divergence", "input", "cuda", "fuel"
	Msg  string
	// Source, when its File is set, is the position the message names
	// in place of File and Pos.
	Source semantics.Pos
	// Rule is the source program's rule of a stuck state (a site's, as
	// E-IMP-ALLOC); "" for what gpu-sim checks itself.
	Rule string
}

// Error formats the error as the project's errors are, file:line:col:
// RULE: message, the rule being the stuck state's, or gpu-sim's check
// ("gpu-sim race"); an unsupported construct and bad input name none.
func (e *Error) Error() string {
	return e.semantics().Error()
}

// Position is the position the message names: the source program's
// (Source), else the .cu file's.
func (e *Error) Position() semantics.Pos {
	if e.Source.File != "" {
		return e.Source
	}
	return semantics.Pos{File: e.File, Line: e.Pos.Line, Col: e.Pos.Col}
}

// rule is the rule the message names (Error).
func (e *Error) rule() string {
	switch {
	case e.Rule != "":
		return e.Rule
	case e.Kind == "unsupported" || e.Kind == "input":
		return ""
	}
	return "gpu-sim " + e.Kind
}

// semantics is the error as a *semantics.Error of the kind the driver
// compares (a race, a stuck state, an overflow, running out of fuel, bad
// input or an unsupported file), printing as e prints.
func (e *Error) semantics() *semantics.Error {
	kind := semantics.StuckError
	switch e.Kind {
	case "race":
		kind = semantics.RaceError
	case "fuel":
		kind = semantics.FuelError
	case "overflow":
		kind = semantics.OverflowError
	case "input":
		kind = semantics.InputError
	case "unsupported":
		kind = semantics.SyntaxError
	}
	return &semantics.Error{Pos: e.Position(), Kind: kind, Rule: e.rule(), Msg: e.Msg}
}

// ExitStatus is the exit status of a command that stops with this error:
// 2 for a file gpu-sim cannot read or bad input, 1 for a program that went
// wrong.
func (e *Error) ExitStatus() int {
	if e.Kind == "unsupported" || e.Kind == "input" {
		return 2
	}
	if e.Kind == "interrupted" { // Ctrl-C, as the interpreters' runs
		return 130
	}
	return 1
}

// token is a token of the emitted file: 32 bytes, a file lexing into
// some ten times its text's size of them.
type token struct {
	text      string
	line, col int32 // its position (pos)
	kind      tokKind
}

// tokKind is a token's kind.
type tokKind uint8

const (
	tEnd   tokKind = iota // the end of the file
	tID                   // an identifier or a keyword
	tInt                  // an integer literal (its digits)
	tFloat                // a float literal
	tStr                  // a string literal (its text, escapes decoded)
	tPunct                // punctuation (its text)
)

// String names the kind as messages do.
func (k tokKind) String() string {
	return [...]string{"end", "id", "int", "float", "str", "punct"}[k]
}

func (t token) pos() cuda.Pos { return cuda.Pos{Line: int(t.line), Col: int(t.col)} }

// maxLex is the longest text lex reads, so that a token's line and
// column fit its int32s.
const maxLex = 1<<31 - 1

// tooLong reports whether a text of n bytes from line on has a line or
// a column past maxLex.
func tooLong(n, line int) bool { return n > maxLex-line }

type parser struct {
	name string
	toks []token
	i    int

	// exprs and stmts are the lists being read (a call's arguments, a
	// block's statements, nested), each copied out at its end into a
	// slice of its length.
	exprs []cuda.Expr
	stmts []cuda.Stmt
}

// Parse reads a file the emitter printed: the fixed prelude, verbatim,
// then the tables and functions of the subset the emitter produces.
// Anything else is an error "file:line:col: unsupported construct …".
func Parse(name, src string) (*Program, error) {
	at := strings.Index(src, cuda.Prelude)
	if at < 0 {
		return nil, &Error{File: name, Pos: cuda.Pos{Line: 1, Col: 1}, Kind: "unsupported",
			Msg: "unsupported construct: the file does not contain arraysem's CUDA prelude (this version's, verbatim)"}
	}
	return parse(name, src[:at], src[at+len(cuda.Prelude):], src)
}

// ParseParts reads a file the emitter printed from the text around its
// prelude (cuda.File.Parts): the file head + cuda.Prelude + rest, as
// Parse reads it, without the whole text made to find the prelude in.
func ParseParts(name, head, rest string) (*Program, error) {
	return parse(name, head, rest, "")
}

// preludeLines are the lines the prelude ends (it ends with a newline).
var preludeLines = strings.Count(cuda.Prelude, "\n")

// parse reads the file head + cuda.Prelude + rest (src, when it was read
// whole; else "").
func parse(name, head, rest, src string) (*Program, error) {
	for i, l := range strings.Split(head, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "//") {
			return nil, &Error{File: name, Pos: cuda.Pos{Line: i + 1, Col: 1}, Kind: "unsupported", Msg: "unsupported construct: text before the prelude"}
		}
	}
	line := strings.Count(head, "\n") + preludeLines + 1
	buf, _ := tokenBufs.Get().(*[]token)
	if buf == nil {
		buf = new([]token)
	}
	toks, err := lex(name, rest, line, *buf)
	defer func() {
		// Nothing keeps a token (the tree copies their texts and
		// positions): the slice goes back for the next file, emptied so
		// that it holds on to no file's text.
		clear(toks)
		*buf = toks[:0]
		tokenBufs.Put(buf)
	}()
	if err != nil {
		return nil, err
	}
	p := &parser{name: name, toks: toks}
	f := &cuda.File{Source: name}
	prog := &Program{Name: name, File: f, funcs: map[string]*cuda.Func{}, src: src, head: head, rest: rest}
	for p.peek().kind != tEnd {
		if p.peek().text == "static" {
			if err := p.table(f); err != nil {
				return nil, err
			}
			continue
		}
		fn, err := p.function()
		if err != nil {
			return nil, err
		}
		if prog.funcs[fn.Name] != nil {
			return nil, p.errAt(fn.Pos, "unsupported construct: %s is defined twice", fn.Name)
		}
		prog.funcs[fn.Name] = fn
		f.Funcs = append(f.Funcs, fn)
	}
	if m := prog.funcs["main"]; m == nil || m.Global {
		return nil, &Error{File: name, Kind: "unsupported", Msg: "unsupported construct: no host function main"}
	}
	return prog, nil
}

// tokenBufs holds the token slices of files read, for the next file to
// lex into: the campaigns read back every file they compile, and a file's
// tokens (about ten times its text) were a twentieth of what a campaign
// allocated.
var tokenBufs sync.Pool

// lex splits src, which begins on line, into tokens, appended to toks[:0]
// (a slice to reuse, or nil), ending with one of kind "" at the end. On
// an error the tokens are those before it (for the caller to reuse).
func lex(name, src string, line int, toks []token) ([]token, error) {
	// The emitter's files run about one token to every 6 bytes after the
	// prelude (4.5 to 7 on the generated programs): room for one every 4
	// at once rather than by doubling (at one every 6 most files outgrew
	// it).
	if tooLong(len(src), line) {
		return toks[:0], &Error{File: name, Pos: cuda.Pos{Line: line, Col: 1}, Kind: "unsupported", Msg: "unsupported construct: a file of more than 2 GiB after the prelude"}
	}
	if n := len(src)/4 + 16; cap(toks) < n {
		toks = make([]token, 0, n)
	}
	toks = toks[:0]
	col := 1
	i := 0
	// adv moves past n bytes that may hold newlines (a block comment, a
	// string with an escaped one); past the others, col moves by the
	// bytes (columns count bytes).
	adv := func(n int) {
		for k := 0; k < n; k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		pos := cuda.Pos{Line: line, Col: col}
		tok := func(k tokKind, text string) token { return token{text, int32(line), int32(col), k} }
		switch {
		case c == '\n':
			line, col, i = line+1, 1, i+1
		case c == ' ' || c == '\t' || c == '\r':
			// Indentation comes in runs of spaces.
			j := i + 1
			for j < len(src) && src[j] == ' ' {
				j++
			}
			col, i = col+j-i, j
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			n := strings.IndexByte(src[i:], '\n') // the newline is whitespace
			if n < 0 {
				n = len(src) - i
			}
			col, i = col+n, i+n
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return toks, &Error{File: name, Pos: pos, Kind: "unsupported", Msg: "unsupported construct: unterminated comment"}
			}
			adv(end + 4)
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(src) && idByte[src[j]] {
				j++
			}
			toks = append(toks, tok(tID, src[i:j]))
			col, i = col+j-i, j
		case c >= '0' && c <= '9':
			// An integer (with LL), or a float literal as the emitter
			// prints one: digits, a fraction, an exponent (1.5, 1e+21).
			if n, isFloat := semantics.ScanNumber(src[i:]); isFloat {
				toks = append(toks, tok(tFloat, src[i:i+n]))
				col, i = col+n, i+n
				continue
			}
			j := i
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			text := src[i:j]
			if strings.HasPrefix(src[j:], "LL") {
				j += 2
			}
			toks = append(toks, tok(tInt, text))
			col, i = col+j-i, j
		case c == '"':
			// Most strings (the sites' messages) have no escape: their
			// text is the source's.
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\\' && src[j] != '\n' {
				j++
			}
			if j < len(src) && src[j] == '"' {
				toks = append(toks, tok(tStr, src[i+1:j]))
				col, i = col+j+1-i, j+1
				continue
			}
			var b strings.Builder
			j = i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\n' {
					break
				}
				if src[j] == '\\' && j+1 < len(src) {
					j++
					switch {
					case src[j] == 'n':
						b.WriteByte('\n')
					case src[j] >= '0' && src[j] <= '7' && j+2 < len(src):
						k, _ := strconv.ParseUint(src[j:j+3], 8, 8)
						b.WriteByte(byte(k))
						j += 2
					default:
						b.WriteByte(src[j])
					}
					j++
					continue
				}
				b.WriteByte(src[j])
				j++
			}
			if j >= len(src) || src[j] != '"' {
				return toks, &Error{File: name, Pos: pos, Kind: "unsupported", Msg: "unsupported construct: unterminated string"}
			}
			toks = append(toks, tok(tStr, b.String()))
			adv(j + 1 - i)
		default:
			// The punctuation of the emitted subset, two-character
			// operators first.
			op := ""
			if i+1 < len(src) {
				switch src[i+1] { // the second characters of the two
				case '=', '&', '|', '+':
					switch two := src[i : i+2]; two {
					case "==", "!=", "<=", ">=", "&&", "||", "++":
						op = two
					}
				}
			}
			if op == "" {
				switch c {
				case '(', ')', '{', '}', '[', ']', ';', ',', '.', '=', '<', '>', '!', '-', '+', '*', '&':
					op = src[i : i+1]
				}
			}
			if op == "" {
				return toks, &Error{File: name, Pos: pos, Kind: "unsupported", Msg: fmt.Sprintf("unsupported construct: character %q", c)}
			}
			toks = append(toks, tok(tPunct, op))
			col, i = col+len(op), i+len(op)
		}
	}
	return append(toks, token{line: int32(line), col: int32(col)}), nil
}

// idByte holds the bytes an identifier continues with.
var idByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return t
}()

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) peekAt(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEnd {
		p.i++
	}
	return t
}

func (p *parser) errAt(pos cuda.Pos, format string, args ...any) *Error {
	return &Error{File: p.name, Pos: pos, Kind: "unsupported", Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) unsupported(t token) *Error {
	what := t.text
	if t.kind == tEnd {
		what = "end of file"
	}
	return p.errAt(t.pos(), "unsupported construct %q", what)
}

func (p *parser) expect(texts ...string) error {
	for _, s := range texts {
		if t := p.next(); t.text != s || t.kind == tStr {
			return p.unsupported(t)
		}
	}
	return nil
}

func (p *parser) ident() (token, error) {
	t := p.next()
	if t.kind != tID {
		return t, p.unsupported(t)
	}
	return t, nil
}

// table is static const char *const NAME[] = {"…", …, nullptr};
func (p *parser) table(f *cuda.File) error {
	if err := p.expect("static", "const", "char", "*", "const"); err != nil {
		return err
	}
	name, err := p.ident()
	if err != nil {
		return err
	}
	if err := p.expect("[", "]", "=", "{"); err != nil {
		return err
	}
	var items []string
	for {
		t := p.next()
		if t.kind == tID && t.text == "nullptr" {
			break
		}
		if t.kind != tStr {
			return p.unsupported(t)
		}
		items = append(items, t.text)
		if err := p.expect(","); err != nil {
			return err
		}
	}
	if p.peek().text == "," {
		p.next()
	}
	if err := p.expect("}", ";"); err != nil {
		return err
	}
	switch name.text {
	case "arraysem_sites":
		f.Sites = items
	case "arraysem_inputs":
		f.Inputs = items
	case "arraysem_defaults":
		f.Defaults = items
	case "arraysem_format":
		if len(items) != 1 {
			return p.errAt(name.pos(), "unsupported construct: arraysem_format holds one format")
		}
		fm, err := semantics.ParseFormat(items[0])
		if err != nil {
			return p.errAt(name.pos(), "unsupported construct: %v", err)
		}
		f.Format = fm
	case "arraysem_graphic":
		// The printing of characters reads it; the simulator prints by
		// Go's unicode tables, which it must be.
		if len(items) > 1 || len(items) == 1 && items[0] != cuda.GraphicRanges() {
			return p.errAt(name.pos(), "unsupported construct: arraysem_graphic is not unicode.IsGraphic's ranges")
		}
	default:
		return p.errAt(name.pos(), "unsupported construct: table %s", name.text)
	}
	return nil
}

// typ reads one of the subset's types.
func (p *parser) typ() (string, bool) {
	t := p.peek()
	switch t.text {
	case "int64_t", "arraysem_error", "arraysem_block", "int", "char", "void", "double":
	default:
		return "", false
	}
	p.next()
	typ := t.text
	for p.peek().text == "*" {
		p.next()
		if strings.HasSuffix(typ, "*") {
			typ += "*"
		} else {
			typ += " *"
		}
	}
	return typ, true
}

func knownType(t string) bool {
	for _, k := range cuda.Types {
		if k == t {
			return true
		}
	}
	return false
}

func (p *parser) function() (*cuda.Func, error) {
	start := p.peek()
	fn := &cuda.Func{Pos: start.pos()}
	switch start.text {
	case "__global__":
		p.next()
		fn.Global = true
	case "__device__":
		// A part of a parallel reduce or scan: __device__ static int64_t.
		p.next()
		if err := p.expect("static"); err != nil {
			return nil, err
		}
		fn.Device = true
	}
	res, ok := p.typ()
	if !ok || (res != "void" && res != "int" && !(fn.Device && res == "int64_t")) || (fn.Device != (res == "int64_t")) {
		return nil, p.unsupported(p.peek())
	}
	fn.Result = res
	name, err := p.ident()
	if err != nil {
		return nil, err
	}
	fn.Name = name.text
	if err := p.expect("("); err != nil {
		return nil, err
	}
	for p.peek().text != ")" {
		if len(fn.Params) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		t, ok := p.typ()
		if !ok || !knownType(t) {
			return nil, p.unsupported(p.peek())
		}
		n, err := p.ident()
		if err != nil {
			return nil, err
		}
		fn.Params = append(fn.Params, cuda.Param{Type: t, Name: n.text})
	}
	p.next()
	fn.Body, err = p.block()
	return fn, err
}

func (p *parser) block() ([]cuda.Stmt, error) {
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	mark := len(p.stmts)
	defer func() { clear(p.stmts[mark:]); p.stmts = p.stmts[:mark] }()
	for p.peek().text != "}" {
		if p.peek().kind == tEnd {
			return nil, p.unsupported(p.peek())
		}
		s, err := p.stmt()
		if err != nil {
			return nil, err
		}
		p.stmts = append(p.stmts, s)
	}
	p.next()
	if len(p.stmts) == mark {
		return nil, nil
	}
	return append([]cuda.Stmt(nil), p.stmts[mark:]...), nil
}

func (p *parser) stmt() (cuda.Stmt, error) {
	t := p.peek()
	switch t.text {
	case "if":
		p.next()
		if err := p.expect("("); err != nil {
			return nil, err
		}
		cond, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		s := &cuda.If{Pos: t.pos(), Cond: cond}
		if s.Then, err = p.block(); err != nil {
			return nil, err
		}
		if p.peek().text == "else" {
			p.next()
			if s.Else, err = p.block(); err != nil {
				return nil, err
			}
		}
		return s, nil
	case "for":
		p.next()
		if err := p.expect("(", "int64_t"); err != nil {
			return nil, err
		}
		v, err := p.ident()
		if err != nil {
			return nil, err
		}
		if err := p.expect("="); err != nil {
			return nil, err
		}
		s := &cuda.For{Pos: t.pos(), Var: v.text}
		if s.From, err = p.expr(); err != nil {
			return nil, err
		}
		if err := p.expect(";", v.text, "<="); err != nil {
			return nil, err
		}
		if s.Bound, err = p.expr(); err != nil {
			return nil, err
		}
		if err := p.expect(";", v.text, "++", ")"); err != nil {
			return nil, err
		}
		s.Body, err = p.block()
		return s, err
	case "return":
		p.next()
		s := &cuda.Return{Pos: t.pos()}
		if p.peek().text != ";" {
			v, err := p.expr()
			if err != nil {
				return nil, err
			}
			s.Value = v
		}
		return s, p.expect(";")
	case "__shared__":
		// __shared__ int64_t NAME[SIZE];
		p.next()
		if err := p.expect("int64_t"); err != nil {
			return nil, err
		}
		n, err := p.ident()
		if err != nil {
			return nil, err
		}
		if err := p.expect("["); err != nil {
			return nil, err
		}
		size := p.next()
		k, err := strconv.ParseInt(size.text, 10, 64)
		if size.kind != tInt || err != nil || k < 1 || k > 1<<16 {
			return nil, p.errAt(size.pos(), "unsupported construct: a shared array of %s elements", size.text)
		}
		return &cuda.Shared{Pos: t.pos(), Name: n.text, Size: k}, p.expect("]", ";")
	case "ARRAYSEM_LAUNCH", "ARRAYSEM_LAUNCH_SYNC":
		p.next()
		s := &cuda.Launch{Pos: t.pos(), Sync: t.text == "ARRAYSEM_LAUNCH_SYNC"}
		if err := p.expect("("); err != nil {
			return nil, err
		}
		k, err := p.ident()
		if err != nil {
			return nil, err
		}
		s.Kernel = k.text
		args, err := p.args()
		if err != nil {
			return nil, err
		}
		if len(args) < 2 {
			return nil, p.errAt(t.pos(), "unsupported construct: a launch wants a grid and a block size")
		}
		s.Grid, s.Block, s.Args = args[0], args[1], args[2:]
		return s, p.expect(";")
	}
	switch t.text {
	case "while", "do", "switch", "goto", "break", "continue", "case", "default", "struct", "typedef", "static", "const", "__device__", "unsigned", "long", "auto":
		return nil, p.unsupported(t)
	}
	if typ, ok := p.typ(); ok {
		if !knownType(typ) {
			return nil, p.errAt(t.pos(), "unsupported construct: type %s", typ)
		}
		n, err := p.ident()
		if err != nil {
			return nil, err
		}
		s := &cuda.Decl{Pos: t.pos(), Type: typ, Name: n.text}
		if p.peek().text == "=" {
			p.next()
			if p.peek().text == "{" {
				lb := p.next()
				elems, err := p.exprList("}")
				if err != nil {
					return nil, err
				}
				s.Init = &cuda.InitList{Pos: lb.pos(), Elems: elems}
			} else if s.Init, err = p.expr(); err != nil {
				return nil, err
			}
		}
		return s, p.expect(";")
	}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.peek().text == "=" {
		p.next()
		switch x.(type) {
		case *cuda.Ident, *cuda.Field, *cuda.Index:
		default:
			return nil, p.errAt(t.pos(), "unsupported construct: assignment to %s", cuda.ExprString(x))
		}
		r, err := p.expr()
		if err != nil {
			return nil, err
		}
		return &cuda.Assign{Pos: t.pos(), LHS: x, RHS: r}, p.expect(";")
	}
	if _, ok := x.(*cuda.Call); !ok {
		return nil, p.errAt(t.pos(), "unsupported construct: expression statement %s", cuda.ExprString(x))
	}
	return &cuda.ExprStmt{Pos: t.pos(), X: x}, p.expect(";")
}

// args reads ", a, b)" after a launch's kernel or "(a, b)" after a call's
// name (the opening parenthesis already read for calls).
func (p *parser) args() ([]cuda.Expr, error) {
	var out []cuda.Expr
	for p.peek().text == "," {
		p.next()
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, p.expect(")")
}

// prec is the precedence of the binary operator op, 0 for a token that
// is none (a switch: a map of them was a lookup after every operand of
// the emitted file).
func prec(op string) int {
	switch op {
	case "||":
		return 1
	case "&&":
		return 2
	case "==", "!=":
		return 3
	case "<", "<=", ">", ">=":
		return 4
	case "+":
		return 5
	}
	return 0
}

func (p *parser) expr() (cuda.Expr, error) { return p.binary(1) }

func (p *parser) binary(min int) (cuda.Expr, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		prec := prec(t.text)
		if prec == 0 || t.kind == tStr || prec < min {
			return l, nil
		}
		p.next()
		r, err := p.binary(prec + 1)
		if err != nil {
			return nil, err
		}
		l = &cuda.Binary{Pos: t.pos(), Op: t.text, L: l, R: r}
	}
}

func (p *parser) unary() (cuda.Expr, error) {
	t := p.peek()
	switch t.text {
	case "-", "!", "&":
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &cuda.Unary{Pos: t.pos(), Op: t.text, X: x}, nil
	case "(":
		// A cast: (int64_t)x, (double)x or (void **)x.
		if n := p.peekAt(1); n.text == "int64_t" || n.text == "void" || n.text == "double" {
			p.next()
			p.next()
			typ := n.text
			for p.peek().text == "*" {
				p.next()
				if strings.HasSuffix(typ, "*") {
					typ += "*"
				} else {
					typ += " *"
				}
			}
			if typ != "int64_t" && typ != "void **" && typ != "double" {
				return nil, p.errAt(n.pos(), "unsupported construct: cast to %s", typ)
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			x, err := p.unary()
			if err != nil {
				return nil, err
			}
			return &cuda.Cast{Pos: t.pos(), Type: typ, X: x}, nil
		}
	}
	return p.postfix()
}

func (p *parser) postfix() (cuda.Expr, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch t.text {
		case ".":
			p.next()
			n, err := p.ident()
			if err != nil {
				return nil, err
			}
			x = &cuda.Field{Pos: t.pos(), X: x, Name: n.text}
		case "[":
			p.next()
			i, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expect("]"); err != nil {
				return nil, err
			}
			x = &cuda.Index{Pos: t.pos(), X: x, I: i}
		default:
			return x, nil
		}
	}
}

func (p *parser) primary() (cuda.Expr, error) {
	t := p.next()
	switch t.kind {
	case tInt:
		v, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return nil, p.errAt(t.pos(), "unsupported construct: integer %s", t.text)
		}
		return &cuda.Int{Pos: t.pos(), V: v}, nil
	case tFloat:
		v, err := semantics.ParseFloatLiteral(t.text)
		if err != nil {
			return nil, p.errAt(t.pos(), "unsupported construct: float %s", t.text)
		}
		return &cuda.Float{Pos: t.pos(), V: v}, nil
	case tStr:
		return &cuda.Str{Pos: t.pos(), S: t.text}, nil
	case tID:
		if t.text == "sizeof" {
			if err := p.expect("("); err != nil {
				return nil, err
			}
			typ, ok := p.typ()
			if !ok || (typ != "int64_t" && typ != "arraysem_error") {
				return nil, p.unsupported(p.peek())
			}
			return &cuda.Sizeof{Pos: t.pos(), Type: typ}, p.expect(")")
		}
		if p.peek().text == "(" {
			p.next()
			args, err := p.exprList(")")
			if err != nil {
				return nil, err
			}
			return &cuda.Call{Pos: t.pos(), Fun: t.text, Args: args}, nil
		}
		return &cuda.Ident{Pos: t.pos(), Name: t.text}, nil
	}
	if t.text == "(" {
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		return x, p.expect(")")
	}
	return nil, p.unsupported(t)
}

// exprList reads expressions separated by commas up to the closing token
// close, which it consumes: an initializer list's, or a call's arguments.
func (p *parser) exprList(close string) ([]cuda.Expr, error) {
	mark := len(p.exprs)
	defer func() { clear(p.exprs[mark:]); p.exprs = p.exprs[:mark] }()
	for p.peek().text != close {
		if len(p.exprs) > mark {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		p.exprs = append(p.exprs, e)
	}
	p.next()
	if len(p.exprs) == mark {
		return nil, nil
	}
	return append([]cuda.Expr(nil), p.exprs[mark:]...), nil
}
