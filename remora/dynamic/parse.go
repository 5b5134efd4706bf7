package dynamic

import (
	"slices"
	"strconv"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// ParseFile parses a file of the dialect. Top-level definitions scope over
// everything after them; every top-level expression is one result. A first
// line "#lang NAME" is returned as lang.
func ParseFile(file, src string) (p *Program, lang string, err error) {
	sexps, lang, err := semantics.ReadSExps(file, src)
	if err != nil {
		return nil, lang, err
	}
	p, err = ParseSExps(file, sexps)
	return p, lang, err
}

// ParseSExps parses the s-expressions of a file of the dialect.
func ParseSExps(file string, sexps []*semantics.SExp) (p *Program, err error) {
	defer catch(&err)
	p = &Program{File: file}
	var defs []*semantics.SExp
	for _, s := range sexps {
		if isDefine(s) {
			defs = append(defs, s)
			continue
		}
		p.Exprs = append(p.Exprs, parseBody(s.Pos, append(append([]*semantics.SExp{}, defs...), s), nil))
	}
	if len(p.Exprs) > 0 && len(defs) > 0 && isDefine(sexps[len(sexps)-1]) {
		last := sexps[len(sexps)-1]
		fail(last.Pos, "a definition after the last expression is never used (definitions scope over the expressions after them)")
	}
	if len(defs) > 0 && (len(p.Exprs) == 0 || isDefine(sexps[len(sexps)-1])) {
		// Definitions no expression follows: their own errors come first.
		last := defs[len(defs)-1]
		parseBody(last.Pos, append(append([]*semantics.SExp{}, defs...), &semantics.SExp{Pos: last.Pos, End: last.End, Kind: semantics.Atom, Text: "0"}), nil)
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

// ParseExpr parses one expression; names in scope are bound around it by
// the caller (the REPL's definitions).
func ParseExpr(file, src string, bound []string) (e Expr, err error) {
	sexps, _, err := semantics.ReadSExps(file, src)
	if err != nil {
		return nil, err
	}
	if len(sexps) != 1 {
		return nil, semantics.Errorf(semantics.Pos{File: file, Line: 1, Col: 1}, semantics.SyntaxError, "", "want one expression, got %d", len(sexps))
	}
	defer catch(&err)
	var sc *scope
	for _, x := range bound {
		sc = sc.with(x)
	}
	return parseExpr(sexps[0], sc), nil
}

func catch(err *error) {
	if r := recover(); r != nil {
		se, ok := r.(*semantics.Error)
		if !ok {
			panic(r)
		}
		*err = se
	}
}

func fail(pos semantics.Pos, format string, args ...any) {
	panic(semantics.Errorf(pos, semantics.SyntaxError, "", format, args...))
}

// scope is the variables bound around a term: the dialect has no types,
// but an unbound name is still caught before the program runs.
type scope struct {
	parent *scope
	name   string
}

func (s *scope) with(x string) *scope { return &scope{parent: s, name: x} }

func (s *scope) has(x string) bool {
	for ; s != nil; s = s.parent {
		if s.name == x {
			return true
		}
	}
	return false
}

func isDefine(s *semantics.SExp) bool {
	return s.IsList('(') && len(s.List) > 0 && (s.List[0].IsAtom("define") || s.List[0].IsAtom("def"))
}

// keywords are the special forms; they cannot name variables.
var keywords = map[string]bool{
	"define": true, "λ": true, "lambda": true, "let": true, "unbox": true, "array": true, "begin": true,
	// The Racket implementation's other spellings: def and fn for define
	// and λ, alit (what #A(d …)(atom …) reads as) for array, vec for a
	// frame, rerank (#r(r …)f) and apply/shape.
	"def": true, "fn": true, "alit": true, "vec": true, "rerank": true, "apply/shape": true,
}

// parseBody parses a body: definitions and expressions, the last an
// expression, whose value is the body's (Racket's bodies; library docs
// write λ bodies as sequences). Each definition scopes over what follows
// it; an expression before the last is computed and its value dropped.
func parseBody(pos semantics.Pos, forms []*semantics.SExp, sc *scope) Expr {
	if len(forms) == 0 {
		fail(pos, "a body needs an expression")
	}
	last := forms[len(forms)-1]
	if isDefine(last) {
		fail(last.Pos, "a body must end with an expression, not a definition")
	}
	var defs []*Let
	for _, d := range forms[:len(forms)-1] {
		if !isDefine(d) {
			defs = append(defs, &Let{Pos: d.Pos, EndPos: d.End, Val: parseExpr(d, sc)})
			continue
		}
		x, val := parseDefine(d, sc)
		defs = append(defs, &Let{Pos: d.Pos, EndPos: d.End, X: x, Val: val})
		sc = sc.with(x)
	}
	return nestLets(defs, parseExpr(last, sc))
}

// nestLets makes body the body of the last let, that let the body of the
// one before, and so on: the first let is outermost.
func nestLets(lets []*Let, body Expr) Expr {
	for i := len(lets) - 1; i >= 0; i-- {
		lets[i].Body = body
		body = lets[i]
	}
	return body
}

// parseDefine reads (define x e) and (define (f (x r) …) body …). A
// definition is not recursive: the dialect's iteration is its arrays.
func parseDefine(d *semantics.SExp, sc *scope) (string, Expr) {
	if len(d.List) < 3 {
		fail(d.Pos, "define wants a name and a value: (define x e) or (define (f (x rank) …) body)")
	}
	head := d.List[1]
	if head.Kind == semantics.Atom {
		if len(d.List) != 3 {
			fail(d.Pos, "(define x e) takes one expression")
		}
		return name(head), parseExpr(d.List[2], sc)
	}
	if !head.IsList('(') || len(head.List) == 0 {
		fail(head.Pos, "define wants a name or (name (x rank) …)")
	}
	f := name(head.List[0])
	params := parseParams(head.List[1:])
	return f, &Lam{Pos: d.Pos, EndPos: d.End, Params: params, Body: parseBody(d.Pos, d.List[2:], bindParams(sc, params))}
}

func bindParams(sc *scope, ps []Param) *scope {
	for _, p := range ps {
		sc = sc.with(p.Name)
	}
	return sc
}

func name(s *semantics.SExp) string {
	if s.Kind != semantics.Atom || s.Text == "" {
		fail(s.Pos, "want a name, got %s", s)
	}
	if keywords[s.Text] {
		fail(s.Pos, "%s is a keyword, not a name", s.Text)
	}
	if _, ok, _ := atomLiteral(s); ok || s.Text[0] == '#' {
		fail(s.Pos, "want a name, got the literal %s", s.Text)
	}
	return s.Text
}

// parseParams reads ((x r) …): each parameter's cell rank is a natural
// number or all.
func parseParams(ss []*semantics.SExp) []Param {
	ps := make([]Param, len(ss))
	seen := map[string]bool{}
	for i, s := range ss {
		if s.Kind != semantics.List || len(s.List) != 2 {
			fail(s.Pos, "a parameter is (x rank), with rank a natural number or all; got %s", s)
		}
		ps[i].Name = name(s.List[0])
		if seen[ps[i].Name] {
			fail(s.Pos, "parameter %s appears twice", ps[i].Name)
		}
		seen[ps[i].Name] = true
		ps[i].Rank = parseRank(s.List[1])
	}
	return ps
}

// parseRank reads a cell rank: a natural number or all.
func parseRank(r *semantics.SExp) int {
	if r.IsAtom("all") {
		return All
	}
	n, err := strconv.ParseInt(r.Text, 10, 32)
	if r.Kind != semantics.Atom || err != nil || n < 0 || r.Text[0] == '+' {
		fail(r.Pos, "a cell rank is a natural number or all, got %s", r)
	}
	return int(n)
}

// atomLiteral reads a literal atom: Racket's exact numbers beyond int64
// (big integers, fractions 3/5), then the typed core's literals.
func atomLiteral(s *semantics.SExp) (*remora.Value, bool, error) {
	if s.Kind == semantics.Atom {
		if x, ok := parseNumber(s.Text); ok {
			return numScalar(x), true, nil
		}
	}
	return remora.AtomLiteral(s)
}

func parseExpr(s *semantics.SExp, sc *scope) Expr {
	v, ok, err := atomLiteral(s)
	if err != nil {
		panic(err)
	}
	if ok {
		return &Lit{Pos: s.Pos, EndPos: s.End, V: v}
	}
	switch s.Kind {
	case semantics.Atom:
		if s.Text[0] == '#' {
			fail(s.Pos, "unknown literal %s", s.Text)
		}
		if keywords[s.Text] {
			fail(s.Pos, "%s is a keyword, not an expression", s.Text)
		}
		if sc.has(s.Text) {
			return &Var{Pos: s.Pos, EndPos: s.End, Name: s.Text}
		}
		if p := Basis[s.Text]; p != nil {
			return &Prim{Pos: s.Pos, EndPos: s.End, Def: p}
		}
		fail(s.Pos, "%s is not bound (and is not in the basis)", s.Text)
	case semantics.Curly:
		fail(s.Pos, "%s: type and index applications f{τ | ι} belong to the typed dialect (#lang remora)", s)
	}
	if s.Bracket == '[' {
		return frame(s.Pos, s.End, parseExprs(s.List, sc))
	}
	if len(s.List) == 0 {
		fail(s.Pos, "() is not an expression")
	}
	head, args := s.List[0], s.List[1:]
	if head.Kind == semantics.Atom && keywords[head.Text] && !sc.has(head.Text) {
		return parseForm(s, head.Text, args, sc)
	}
	return &App{Pos: s.Pos, EndPos: s.End, Fn: parseExpr(head, sc), Args: parseExprs(args, sc)}
}

func parseExprs(ss []*semantics.SExp, sc *scope) []Expr {
	out := make([]Expr, len(ss))
	for i, s := range ss {
		out[i] = parseExpr(s, sc)
	}
	return out
}

func parseForm(s *semantics.SExp, kw string, args []*semantics.SExp, sc *scope) Expr {
	switch kw {
	case "define", "def":
		fail(s.Pos, "%s is allowed only at the top level or in a body", kw)
	case "λ", "lambda", "fn":
		if len(args) < 2 || !args[0].IsList('(') {
			fail(s.Pos, "λ is (λ ((x rank) …) body)")
		}
		params := parseParams(args[0].List)
		return &Lam{Pos: s.Pos, EndPos: s.End, Params: params, Body: parseBody(s.Pos, args[1:], bindParams(sc, params))}
	case "let":
		// (let ((x e) …) body …) binds in order, as let* does.
		if len(args) < 2 || args[0].Kind != semantics.List {
			fail(s.Pos, "let is (let ((x e) …) body)")
		}
		var binds []*Let
		for _, b := range args[0].List {
			if b.Kind != semantics.List || len(b.List) != 2 {
				fail(b.Pos, "a let binding is (x e), got %s", b)
			}
			x := name(b.List[0])
			binds = append(binds, &Let{Pos: b.Pos, EndPos: b.End, X: x, Val: parseExpr(b.List[1], sc)})
			sc = sc.with(x)
		}
		return nestLets(binds, parseBody(s.Pos, args[1:], sc))
	case "unbox":
		if len(args) < 3 {
			fail(s.Pos, "unbox is (unbox x e body)")
		}
		x := name(args[0])
		return &Unbox{Pos: s.Pos, EndPos: s.End, X: x, Box: parseExpr(args[1], sc), Body: parseBody(s.Pos, args[2:], sc.with(x))}
	case "array", "alit":
		return parseArray(s, args)
	case "vec":
		// (vec e …) is the frame [e …].
		return frame(s.Pos, s.End, parseExprs(args, sc))
	case "rerank":
		return parseRerank(s, args, sc)
	case "apply/shape":
		// (apply/shape S f a …): f applied to a …, with S the result's
		// shape should the frame be empty.
		if len(args) < 2 {
			fail(s.Pos, "apply/shape is (apply/shape shape f arg …)")
		}
		return &App{Pos: s.Pos, EndPos: s.End, Shape: parseExpr(args[0], sc), Fn: parseExpr(args[1], sc), Args: parseExprs(args[2:], sc)}
	case "begin":
		return parseBody(s.Pos, args, sc)
	}
	fail(s.Pos, "unknown form %s", kw)
	return nil
}

// parseRerank reads (rerank (r …) f), which #r(r …)f abbreviates: f with
// its cells' ranks replaced, the λ ((x1 r) …) (f x1 …). Its parameters'
// names have a % that no program's names have, so f cannot capture them.
func parseRerank(s *semantics.SExp, args []*semantics.SExp, sc *scope) Expr {
	if len(args) != 2 || args[0].Kind != semantics.List {
		fail(s.Pos, "rerank is (rerank (rank …) f), or #r(rank …)f")
	}
	var params []Param
	call := &App{Pos: s.Pos, EndPos: s.End, Fn: parseExpr(args[1], sc)}
	for i, r := range args[0].List {
		p := Param{Name: "x%" + strconv.Itoa(i+1), Rank: parseRank(r)}
		params = append(params, p)
		call.Args = append(call.Args, &Var{Pos: s.Pos, EndPos: s.End, Name: p.Name})
	}
	return &Lam{Pos: s.Pos, EndPos: s.End, Params: params, Body: call}
}

// parseArray reads (array [d …] atom …), the literal array of those
// dimensions whose atoms are given in row-major order; with no atoms it
// is the empty array of that shape, which must have a 0 dimension. (alit (d …) atom …) and #A(d …)(atom
// …) are the Racket implementation's spellings of it.
func parseArray(s *semantics.SExp, args []*semantics.SExp) Expr {
	if len(args) == 0 || args[0].Kind != semantics.List {
		fail(s.Pos, "array is (array [d …] atom …), or (alit (d …) atom …)")
	}
	ds := make([]int64, len(args[0].List))
	for i, d := range args[0].List {
		n, err := strconv.ParseInt(d.Text, 10, 64)
		if d.Kind != semantics.Atom || err != nil || n < 0 {
			fail(d.Pos, "a dimension is a natural number, got %s", d)
		}
		ds[i] = n
	}
	total, err := semantics.Count(ds)
	if err != nil {
		fail(args[0].Pos, "%v", err)
	}
	atoms := args[1:]
	if len(atoms) == 0 && total == 0 {
		return &Lit{Pos: s.Pos, EndPos: s.End, V: emptyResult(ds)}
	}
	if int64(len(atoms)) != total {
		fail(s.Pos, "an array of shape %s has %d atoms, got %d", shapeString(ds), total, len(atoms))
	}
	elems := make([]Expr, len(atoms))
	for i, a := range atoms {
		v, ok, err := atomLiteral(a)
		if err != nil {
			panic(err)
		}
		if !ok || len(v.Shape) != 0 {
			fail(a.Pos, "an array's atoms are literal numbers, booleans or characters, got %s", a)
		}
		elems[i] = &Lit{Pos: a.Pos, EndPos: a.End, V: v}
	}
	l, ok := literal(s.Pos, s.End, ds, elems, true)
	if !ok {
		fail(s.Pos, "an array's atoms are of one kind (ints and floats may mix)")
	}
	return l
}

// frame builds [e …], folding one whose elements are literal arrays of
// one shape into a single literal: nesting collapses ([[1 2] [3 4]] has
// shape [2 2]), and big literal arrays stay flat. What it builds spans
// [pos, end), the frame's form.
func frame(pos, end semantics.Pos, es []Expr) Expr {
	dims := []int64{int64(len(es))}
	if len(es) == 0 {
		return &Lit{Pos: pos, EndPos: end, V: emptyResult(dims)}
	}
	if l, ok := literal(pos, end, dims, es, false); ok {
		return l
	}
	// A frame of frames of the same dimensions is one frame.
	if inner, ok := es[0].(*Frame); ok {
		var elems []Expr
		for _, e := range es {
			f, ok := e.(*Frame)
			if !ok || !slices.Equal(f.Dims, inner.Dims) {
				elems = nil
				break
			}
			elems = append(elems, f.Elems...)
		}
		if elems != nil {
			return &Frame{Pos: pos, EndPos: end, Dims: append(dims, inner.Dims...), Elems: elems}
		}
	}
	return &Frame{Pos: pos, EndPos: end, Dims: dims, Elems: es}
}

// cells0Kind is the atom kind of the first element, a literal.
func cells0Kind(es []Expr) remora.Kind {
	if l, ok := es[0].(*Lit); ok {
		return l.V.Kind
	}
	return remora.KFunc
}

// literal folds elements that are literal arrays of base atoms, of one
// shape and one kind, into one literal. With mix, ints join floats as
// floats ((array [2] 1 2.5)); a frame [1 2.5] stays a frame, which
// collapses when it runs, so that it prints back as it was written.
func literal(pos, end semantics.Pos, dims []int64, es []Expr, mix bool) (Expr, bool) {
	cells := make([]*remora.Value, len(es))
	for i, e := range es {
		l, ok := e.(*Lit)
		if !ok || !isBase(l.V.Kind) || l.V.Len() == 0 || !mix && l.V.Kind != cells0Kind(es) {
			return nil, false
		}
		cells[i] = l.V
	}
	v, err := collapse(pos, dims, cells)
	if err != nil {
		return nil, false
	}
	return &Lit{Pos: pos, EndPos: end, V: v}, true
}
