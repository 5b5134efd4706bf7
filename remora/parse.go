package remora

import (
	"math"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// ParseFile parses a file of the typed dialect (docs/remora.md). Top-level
// definitions scope over everything after them; every top-level expression
// is one result of the program. A first line "#lang NAME" is returned as
// lang for the caller to choose the dialect by.
func ParseFile(file, src string) (p *Program, lang string, err error) {
	sexps, lang, err := semantics.ReadSExps(file, src)
	if err != nil {
		return nil, lang, err
	}
	p, err = ParseSExps(file, sexps)
	return p, lang, err
}

// ParseSExps parses the s-expressions of a typed-dialect file.
func ParseSExps(file string, sexps []*semantics.SExp) (p *Program, err error) {
	defer semantics.Catch(&err)
	p = &Program{File: file}
	var defs []*semantics.SExp
	for _, s := range sexps {
		if isDefine(s) {
			defs = append(defs, s)
			continue
		}
		p.Exprs = append(p.Exprs, parseBody(s.Pos, append(append([]*semantics.SExp{}, defs...), s)))
	}
	if len(p.Exprs) > 0 && len(defs) > 0 && isDefine(sexps[len(sexps)-1]) {
		// Every expression is checked with the definitions before it; one
		// after the last would never be checked, nor used.
		last := sexps[len(sexps)-1]
		fail(last.Pos, "a definition after the last expression is never used (definitions scope over the expressions after them)")
	}
	if len(p.Exprs) == 0 {
		pos := semantics.Pos{File: file, Line: 1, Col: 1}
		if len(sexps) > 0 {
			pos = sexps[len(sexps)-1].Pos
		}
		fail(pos, "the program has no expression to evaluate (only definitions)")
	}
	return p, nil
}

// ParseExpr parses one expression of the typed dialect (used by tests and
// the REPL).
func ParseExpr(file, src string) (e Expr, err error) {
	sexps, _, err := semantics.ReadSExps(file, src)
	if err != nil {
		return nil, err
	}
	if len(sexps) != 1 {
		return nil, semantics.Errorf(semantics.Pos{File: file, Line: 1, Col: 1}, semantics.SyntaxError, "", "want one expression, got %d", len(sexps))
	}
	defer semantics.Catch(&err)
	return parseExpr(sexps[0]), nil
}

// ParseType parses a type.
func ParseType(file, src string) (t Type, err error) {
	sexps, _, err := semantics.ReadSExps(file, src)
	if err != nil {
		return nil, err
	}
	if len(sexps) != 1 {
		return nil, semantics.Errorf(semantics.Pos{File: file, Line: 1, Col: 1}, semantics.SyntaxError, "", "want one type, got %d", len(sexps))
	}
	defer semantics.Catch(&err)
	return parseType(sexps[0]), nil
}

func fail(pos semantics.Pos, format string, args ...any) {
	panic(semantics.Errorf(pos, semantics.SyntaxError, "", format, args...))
}

func isDefine(s *semantics.SExp) bool {
	return s.Kind == semantics.List && s.Bracket == '(' && len(s.List) > 0 && s.List[0].IsAtom("define")
}

// keywords are the special forms; they cannot name variables.
var keywords = map[string]bool{
	"define": true, "fn": true, "λ": true, "t-fn": true, "i-fn": true, "t-app": true, "i-app": true,
	"let": true, "frame": true, "array": true, "box": true, "boxes": true, "unbox": true,
	"lift": true, "reify-dimension": true, "reify-shape": true, "reshape": true,
	"MAP": true, "REP": true, "CASE": true,
}

// parseBody parses definitions followed by one expression into nested lets.
func parseBody(pos semantics.Pos, forms []*semantics.SExp) Expr {
	if len(forms) == 0 {
		fail(pos, "a body needs an expression")
	}
	last := forms[len(forms)-1]
	if isDefine(last) {
		fail(last.Pos, "a body must end with an expression, not a definition")
	}
	body := parseExpr(last)
	for i := len(forms) - 2; i >= 0; i-- {
		d := forms[i]
		if !isDefine(d) {
			fail(d.Pos, "only definitions may come before a body's expression")
		}
		x, val := parseDefine(d)
		body = &Let{Pos: d.Pos, EndPos: d.End, X: x, Val: val, Body: body}
	}
	return body
}

// parseDefine reads (define x e) and (define (f{t … | i …} [x τ] …) body …).
func parseDefine(d *semantics.SExp) (string, Expr) {
	if len(d.List) < 3 {
		fail(d.Pos, "define wants a name and a value: (define x e) or (define (f [x τ] …) body)")
	}
	head := d.List[1]
	if head.Kind == semantics.Atom {
		if len(d.List) != 3 {
			fail(d.Pos, "(define x e) takes one expression")
		}
		return name(head), parseExpr(d.List[2])
	}
	if !head.IsList('(') || len(head.List) == 0 {
		fail(head.Pos, "define wants a name or (name [x τ] …)")
	}
	fhead := head.List[0]
	var tvars, ivars []*semantics.SExp
	if fhead.Kind == semantics.Curly {
		tvars, ivars = fhead.Left, fhead.Right
		fhead = fhead.Head
	}
	f := name(fhead)
	var e Expr = &Lam{Pos: d.Pos, EndPos: d.End, Params: parseParams(head.List[1:]), Body: parseBody(d.Pos, d.List[2:])}
	if len(tvars) > 0 {
		e = &TLam{Pos: d.Pos, EndPos: d.End, Vars: typeVars(tvars), Body: e}
	}
	if len(ivars) > 0 {
		e = &ILam{Pos: d.Pos, EndPos: d.End, Vars: indexVars(ivars), Body: e}
	}
	return f, e
}

func name(s *semantics.SExp) string {
	if s.Kind != semantics.Atom || s.Text == "" {
		fail(s.Pos, "want a name, got %s", s)
	}
	if keywords[s.Text] {
		fail(s.Pos, "%s is a keyword, not a name", s.Text)
	}
	if _, ok := parseNumber(s.Text); ok || s.Text[0] == '#' || isDigits(s.Text) {
		fail(s.Pos, "want a name, got the literal %s", s.Text)
	}
	return s.Text
}

func typeVars(ss []*semantics.SExp) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = name(s)
		if IsShapeVar(out[i]) {
			fail(s.Pos, "type variable %s: names starting with @ are Shape index variables", out[i])
		}
	}
	return out
}

func indexVars(ss []*semantics.SExp) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = name(s)
	}
	return out
}

func parseParams(ss []*semantics.SExp) []Param {
	ps := make([]Param, len(ss))
	for i, s := range ss {
		if s.Kind != semantics.List || len(s.List) != 2 {
			fail(s.Pos, "a parameter is [x τ], got %s", s)
		}
		ps[i] = Param{Name: name(s.List[0]), Type: parseType(s.List[1])}
		if IsShapeVar(ps[i].Name) {
			fail(s.Pos, "parameter %s: names starting with @ are Shape index variables", ps[i].Name)
		}
	}
	return ps
}

// number is a parsed numeric literal.
type number struct {
	isFloat bool
	i       int64
	f       float64
}

func parseNumber(s string) (number, bool) {
	if s == "" || !(s[0] >= '0' && s[0] <= '9' || (s[0] == '-' || s[0] == '+' || s[0] == '.') && len(s) > 1) {
		return number{}, false
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return number{i: i}, true
	}
	if strings.ContainsAny(s, ".eE") && !strings.ContainsAny(s, "xXpP_") {
		if f, err := strconv.ParseFloat(s, 64); err == nil || strings.Contains(err.Error(), "range") {
			return number{isFloat: true, f: f}, true
		}
	}
	return number{}, false
}

// AtomLiteral reads s as a literal: a number, a boolean, a character, or
// a string (a character vector), shared by both dialects. ok is false when
// s is no literal; err says when it is one out of range.
func AtomLiteral(s *semantics.SExp) (v *Value, ok bool, err error) {
	defer semantics.Catch(&err)
	v, ok = parseAtomLit(s)
	return v, ok, nil
}

func parseAtomLit(s *semantics.SExp) (*Value, bool) {
	switch s.Kind {
	case semantics.String:
		return StringValue(s.Text), true
	case semantics.Char:
		return CharScalar([]rune(s.Text)[0]), true
	case semantics.Atom:
		switch s.Text {
		case "#t", "#true":
			return BoolScalar(true), true
		case "#f", "#false":
			return BoolScalar(false), true
		case "+inf.0":
			return FloatScalar(math.Inf(1)), true
		case "-inf.0":
			return FloatScalar(math.Inf(-1)), true
		case "+nan.0":
			return FloatScalar(math.NaN()), true
		}
		if n, ok := parseNumber(s.Text); ok {
			if n.isFloat {
				return FloatScalar(n.f), true
			}
			return IntScalar(n.i), true
		}
		if _, err := strconv.ParseInt(s.Text, 10, 64); err != nil && isDigits(s.Text) {
			fail(s.Pos, "integer literal %s does not fit in 64 bits", s.Text)
		}
	}
	return nil, false
}

func isDigits(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func parseExpr(s *semantics.SExp) Expr {
	if v, ok := parseAtomLit(s); ok {
		return &Lit{Pos: s.Pos, EndPos: s.End, V: v}
	}
	switch s.Kind {
	case semantics.Atom:
		if strings.HasPrefix(s.Text, "#") {
			fail(s.Pos, "unknown literal %s", s.Text)
		}
		return &Var{Pos: s.Pos, EndPos: s.End, Name: name(s)}
	case semantics.Curly:
		var e Expr = parseExpr(s.Head)
		if len(s.Right) > 0 {
			e = &IApp{Pos: s.Pos, EndPos: s.End, Fn: e, Args: parseIndices(s.Right)}
		}
		if len(s.Left) > 0 {
			e = &TApp{Pos: s.Pos, EndPos: s.End, Fn: e, Args: parseTypes(s.Left)}
		}
		return e
	}
	if s.Bracket == '[' {
		return frame(s.Pos, s.End, []int64{int64(len(s.List))}, parseExprs(s.List), nil)
	}
	if len(s.List) == 0 {
		fail(s.Pos, "() is not an expression")
	}
	head, args := s.List[0], s.List[1:]
	if head.Kind == semantics.Atom && keywords[head.Text] {
		return parseForm(s, head.Text, args)
	}
	return &App{Pos: s.Pos, EndPos: s.End, Fn: parseExpr(head), Args: parseExprs(args)}
}

func parseExprs(ss []*semantics.SExp) []Expr {
	out := make([]Expr, len(ss))
	for i, s := range ss {
		out[i] = parseExpr(s)
	}
	return out
}

func want(s *semantics.SExp, args []*semantics.SExp, n int, form string) {
	if len(args) < n {
		fail(s.Pos, "%s wants %s", s.List[0].Text, form)
	}
}

func parseForm(s *semantics.SExp, kw string, args []*semantics.SExp) Expr {
	switch kw {
	case "define":
		fail(s.Pos, "define is allowed only at the top level or at the start of a body")
	case "fn", "λ":
		want(s, args, 2, "([x τ] …) body")
		if !args[0].IsList('(') {
			fail(args[0].Pos, "fn wants its parameters in parentheses: (fn ([x τ] …) body)")
		}
		return &Lam{Pos: s.Pos, EndPos: s.End, Params: parseParams(args[0].List), Body: parseBody(s.Pos, args[1:])}
	case "t-fn":
		want(s, args, 2, "(t …) body")
		if args[0].Kind != semantics.List {
			fail(args[0].Pos, "t-fn wants its type variables in a list")
		}
		return &TLam{Pos: s.Pos, EndPos: s.End, Vars: typeVars(args[0].List), Body: parseBody(s.Pos, args[1:])}
	case "i-fn":
		want(s, args, 2, "(d @s …) body")
		if args[0].Kind != semantics.List {
			fail(args[0].Pos, "i-fn wants its index variables in a list")
		}
		return &ILam{Pos: s.Pos, EndPos: s.End, Vars: indexVars(args[0].List), Body: parseBody(s.Pos, args[1:])}
	case "t-app":
		want(s, args, 1, "a function and types")
		return &TApp{Pos: s.Pos, EndPos: s.End, Fn: parseExpr(args[0]), Args: parseTypes(args[1:])}
	case "i-app":
		want(s, args, 1, "a function and indices")
		return &IApp{Pos: s.Pos, EndPos: s.End, Fn: parseExpr(args[0]), Args: parseIndices(args[1:])}
	case "let":
		want(s, args, 2, "[x e] body")
		var binds []*semantics.SExp
		if args[0].IsList('(') {
			binds = args[0].List
		} else {
			binds = args[:1]
		}
		body := parseBody(s.Pos, args[1:])
		for i := len(binds) - 1; i >= 0; i-- {
			b := binds[i]
			if b.Kind != semantics.List || len(b.List) < 2 || len(b.List) > 3 {
				fail(b.Pos, "a let binding is [x e] or [x τ e], got %s", b)
			}
			l := &Let{Pos: b.Pos, EndPos: b.End, X: name(b.List[0]), Val: parseExpr(b.List[len(b.List)-1]), Body: body}
			if len(b.List) == 3 {
				l.T = parseType(b.List[1])
			}
			body = l
		}
		return body
	case "frame", "array":
		want(s, args, 1, "[dims] and elements")
		dims := constDims(args[0])
		n := Product(dims)
		if n == 0 {
			if len(args) != 2 {
				fail(s.Pos, "an empty %s is (%s %s τ): it has no elements, only its cell type", kw, kw, args[0])
			}
			return frame(s.Pos, s.End, dims, nil, parseType(args[1]))
		}
		if len(args)-1 != n {
			fail(s.Pos, "%s %s wants %d elements, got %d", kw, args[0], n, len(args)-1)
		}
		es := parseExprs(args[1:])
		return frame(s.Pos, s.End, dims, es, nil)
	case "box":
		want(s, args, 3, "(ι …) (Sigma (x …) τ) e")
		if len(args) != 3 || args[0].Kind != semantics.List {
			fail(s.Pos, "box is (box (ι …) (Sigma (x …) τ) e)")
		}
		sig, ok := parseType(args[1]).(*Sigma)
		if !ok {
			fail(args[1].Pos, "box wants a Sigma type, got %s", args[1])
		}
		return &Pack{Pos: s.Pos, EndPos: s.End, Indices: parseIndices(args[0].List), Type: sig, Body: parseExpr(args[2])}
	case "boxes":
		want(s, args, 3, "(x …) τ [dims] ((ι …) e) …")
		if args[0].Kind != semantics.List {
			fail(args[0].Pos, "boxes wants the hidden index variables in a list")
		}
		sig := &Sigma{Vars: indexVars(args[0].List), Body: parseType(args[1])}
		dims := constDims(args[2])
		if len(args)-3 != Product(dims) {
			fail(s.Pos, "boxes %s wants %d boxes, got %d", args[2], Product(dims), len(args)-3)
		}
		var es []Expr
		for _, b := range args[3:] {
			if !b.IsList('(') || len(b.List) != 2 || b.List[0].Kind != semantics.List {
				fail(b.Pos, "a box of boxes is ((ι …) e), got %s", b)
			}
			es = append(es, &Pack{Pos: b.Pos, EndPos: b.End, Indices: parseIndices(b.List[0].List), Type: sig, Body: parseExpr(b.List[1])})
		}
		var cell Type
		if len(es) == 0 {
			cell = sig
		}
		return frame(s.Pos, s.End, dims, es, cell)
	case "unbox":
		want(s, args, 3, "e (x d …) body")
		if !args[1].IsList('(') || len(args[1].List) == 0 {
			fail(args[1].Pos, "unbox binds (x d …): the contents, then the hidden indices")
		}
		vars := args[1].List
		return &Unpack{Pos: s.Pos, EndPos: s.End, Box: parseExpr(args[0]), X: name(vars[0]), IVars: indexVars(vars[1:]), Body: parseBody(s.Pos, args[2:])}
	case "lift":
		want(s, args, 2, "[d e] body")
		b := args[0]
		if !b.IsList('[') || len(b.List) != 2 {
			fail(b.Pos, "lift binds [d e]")
		}
		d := name(b.List[0])
		if IsShapeVar(d) {
			fail(b.Pos, "lift binds a Nat (a dimension); %s is a Shape variable", d)
		}
		return &LiftDim{Pos: s.Pos, EndPos: s.End, D: d, N: parseExpr(b.List[1]), Body: parseBody(s.Pos, args[1:])}
	case "reify-dimension", "reify-shape":
		if len(args) != 1 {
			fail(s.Pos, "%s wants one index", kw)
		}
		ix := parseIndex(args[0])
		if ix.IsShape != (kw == "reify-shape") {
			fail(args[0].Pos, "%s wants a %s, got %s", kw, map[bool]string{true: "Shape", false: "Nat"}[kw == "reify-shape"], args[0])
		}
		return &Reify{Pos: s.Pos, EndPos: s.End, Index: ix}
	case "MAP":
		// (MAP [F] ([x τ e] …) body): the compiler IR's explicit map.
		want(s, args, 3, "[frame] ([x τ e] …) body")
		if !args[0].IsList('[') {
			fail(args[0].Pos, "MAP wants its frame shape in brackets: (MAP [F] ([x τ e] …) body)")
		}
		if !args[1].IsList('(') {
			fail(args[1].Pos, "MAP wants its arguments in parentheses: (MAP [F] ([x τ e] …) body)")
		}
		m := &Map{Pos: s.Pos, EndPos: s.End, Frame: shapeOf(args[0].List), Body: parseBody(s.Pos, args[2:])}
		for _, b := range args[1].List {
			if !b.IsList('[') || len(b.List) != 3 {
				fail(b.Pos, "a MAP argument is [x τ e], got %s", b)
			}
			m.Params = append(m.Params, Param{Name: name(b.List[0]), Type: parseType(b.List[1])})
			m.Args = append(m.Args, parseExpr(b.List[2]))
		}
		return m
	case "CASE":
		// (CASE e e0 e1 …): the alternative e's value selects.
		return parseCase(s, args)
	case "REP":
		// (REP [F] e): e replicated over the frame F.
		if len(args) != 2 || !args[0].IsList('[') {
			fail(s.Pos, "REP is (REP [F] e)")
		}
		return &Rep{Pos: s.Pos, EndPos: s.End, Frame: shapeOf(args[0].List), E: parseExpr(args[1])}
	case "reshape":
		if len(args) != 2 {
			fail(s.Pos, "reshape is (reshape [ι …] e)")
		}
		ix := parseIndex(args[0])
		if !ix.IsShape {
			fail(args[0].Pos, "reshape wants a shape, got %s", args[0])
		}
		return &Reshape{Pos: s.Pos, EndPos: s.End, Shape: ix.S, E: parseExpr(args[1])}
	}
	fail(s.Pos, "unknown form %s", kw)
	return nil
}

func constDims(s *semantics.SExp) []int64 {
	if !s.IsList('[') {
		fail(s.Pos, "want dimensions [n …], got %s", s)
	}
	ds := make([]int64, len(s.List))
	for i, d := range s.List {
		n, ok := parseNumber(d.Text)
		if d.Kind != semantics.Atom || !ok || n.isFloat || n.i < 0 {
			fail(d.Pos, "a frame's dimensions are natural numbers, got %s", d)
		}
		ds[i] = n.i
	}
	if _, err := CheckedProduct(ds); err != nil {
		fail(s.Pos, "%v", err)
	}
	return ds
}

// frame builds a frame, folding one whose elements are all literals of one
// kind and shape into a single literal: nesting collapses, as docs/remora.md
// says ([[1 2] [3 4]] has shape [2 2]), and big literal arrays stay flat.
// Either spans [pos, end), the frame's form.
func frame(pos, end semantics.Pos, dims []int64, es []Expr, cell Type) Expr {
	if len(es) > 0 {
		first, ok := es[0].(*Lit)
		if ok && first.V.Kind <= KChar {
			vals := make([]*Value, len(es))
			for i, e := range es {
				l, ok := e.(*Lit)
				if !ok || l.V.Kind != first.V.Kind || !semantics.SameShape(l.V.Shape, first.V.Shape) || l.V.Len() == 0 {
					vals = nil
					break
				}
				vals[i] = l.V
			}
			if vals != nil {
				return &Lit{Pos: pos, EndPos: end, V: Stack(dims, first.V.Shape, first.V.Kind, vals)}
			}
		}
	}
	return &Frame{Pos: pos, EndPos: end, Dims: dims, Elems: es, Cell: cell}
}

func parseTypes(ss []*semantics.SExp) []Type {
	out := make([]Type, len(ss))
	for i, s := range ss {
		out[i] = parseType(s)
	}
	return out
}

func parseType(s *semantics.SExp) Type {
	switch s.Kind {
	case semantics.Atom:
		switch s.Text {
		case "int", "float", "bool", "char":
			return &Base{s.Text}
		}
		n := name(s)
		if IsShapeVar(n) {
			fail(s.Pos, "%s is a Shape index, not a type", n)
		}
		return &TVar{Name: n}
	case semantics.List:
		if s.Bracket == '[' {
			if len(s.List) == 0 {
				fail(s.Pos, "an array type is [τ ι …]")
			}
			return &Arr{Elem: parseType(s.List[0]), Shape: shapeOf(s.List[1:])}
		}
		if len(s.List) == 0 || s.List[0].Kind != semantics.Atom {
			break
		}
		args := s.List[1:]
		binders := func() []string {
			if len(args) != 2 || args[0].Kind != semantics.List {
				fail(s.Pos, "%s is (%s (x …) τ)", s.List[0].Text, s.List[0].Text)
			}
			return indexVars(args[0].List)
		}
		switch s.List[0].Text {
		case "Arr", "A":
			if len(args) != 2 {
				fail(s.Pos, "Arr is (Arr τ ι)")
			}
			ix := parseIndex(args[1])
			if !ix.IsShape {
				fail(args[1].Pos, "an array's index is a Shape, got the Nat %s", args[1])
			}
			return &Arr{Elem: parseType(args[0]), Shape: ix.S}
		case "->", "→":
			if len(args) != 2 || !args[0].IsList('(') {
				fail(s.Pos, "a function type is (-> (τ …) σ)")
			}
			return &Fn{Params: parseTypes(args[0].List), Ret: parseType(args[1])}
		case "Forall", "∀":
			vs := binders()
			for i, v := range vs {
				if IsShapeVar(v) {
					fail(args[0].List[i].Pos, "type variable %s: names starting with @ are Shape index variables", v)
				}
			}
			return &Forall{Vars: vs, Body: parseType(args[1])}
		case "Pi", "Π":
			vs := binders()
			return &Pi{Vars: vs, Body: parseType(args[1])}
		case "Sigma", "Σ":
			vs := binders()
			return &Sigma{Vars: vs, Body: parseType(args[1])}
		}
	}
	fail(s.Pos, "want a type, got %s", s)
	return nil
}

// shapeOf reads the items of [τ ι …]: a Nat is one dimension, a Shape is
// spliced in.
func shapeOf(ss []*semantics.SExp) Shape {
	var out Shape
	for _, s := range ss {
		ix := parseIndex(s)
		if ix.IsShape {
			out = append(out, ix.S...)
		} else {
			out = append(out, ShapeItem{Dim: ix.N})
		}
	}
	return out
}

func parseIndices(ss []*semantics.SExp) []Index {
	out := make([]Index, len(ss))
	for i, s := range ss {
		out[i] = parseIndex(s)
	}
	return out
}

func parseIndex(s *semantics.SExp) Index {
	switch s.Kind {
	case semantics.Atom:
		if n, ok := parseNumber(s.Text); ok {
			if n.isFloat || n.i < 0 {
				fail(s.Pos, "an index is a natural number, got %s", s.Text)
			}
			return NatIndex(NatConst(n.i))
		}
		if isDigits(s.Text) {
			fail(s.Pos, "index %s does not fit in 64 bits", s.Text)
		}
		x := name(s)
		if IsShapeVar(x) {
			return ShapeIndex(ShapeVar(x))
		}
		return NatIndex(NatVar(x))
	case semantics.List:
		if s.Bracket == '[' {
			return ShapeIndex(shapeOf(s.List))
		}
		if len(s.List) > 0 && s.List[0].IsAtom("+") {
			sum := Nat{}
			for _, a := range s.List[1:] {
				ix := parseIndex(a)
				if ix.IsShape {
					fail(a.Pos, "+ adds Nats (S-PLUS); %s is a Shape (append shapes with ++)", a)
				}
				sum = sum.Plus(ix.N)
			}
			return NatIndex(sum)
		}
		if len(s.List) > 0 && s.List[0].IsAtom("++") {
			var sh Shape
			for _, a := range s.List[1:] {
				ix := parseIndex(a)
				if !ix.IsShape {
					fail(a.Pos, "++ appends Shapes; %s is a Nat (write [%s] for a one-dimension shape)", a, a)
				}
				sh = sh.Append(ix.S)
			}
			return ShapeIndex(sh)
		}
	}
	fail(s.Pos, "want an index (n, d, @s, (+ ι …), [ι …], (++ ι …)), got %s", s)
	return Index{}
}
