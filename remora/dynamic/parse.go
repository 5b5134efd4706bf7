package dynamic

import (
	"fmt"
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
	defer semantics.Catch(&err)
	p = &Program{File: file}
	var defs []*semantics.SExp
	for k, s := range sexps {
		if isDefine(s) {
			defs = append(defs, s)
			continue
		}
		p.Exprs = append(p.Exprs, parseBody(s.Pos, append(append([]*semantics.SExp{}, defs...), s), definedAfter(s, sexps[k+1:])))
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
	defer semantics.Catch(&err)
	var sc *scope
	for _, x := range bound {
		sc = sc.with(x)
	}
	return parseExpr(sexps[0], sc), nil
}

func fail(pos semantics.Pos, format string, args ...any) {
	panic(semantics.Errorf(pos, semantics.SyntaxError, "", format, args...))
}

// scope is the variables bound around a term: the dialect has no types,
// but an unbound name is still caught before the program runs.
//
// While a body's definitions are parsed (parseBody), the entries for its
// definitions record the references that resolve to them (uses, with the
// definition's index def), so that the body can be grouped into lets and
// recursive groups; and an entry may be only a hint (later): a definition
// that does not bind where it is named (it comes after, and this is not a
// function's body), which says why the name is unbound.
type scope struct {
	parent *scope
	name   string
	def    int       // the index of the body's definition this entry binds
	uses   *[]defRef // where references to it are recorded (nil: not recorded)
	later  string    // a hint, binding nothing: why the name is not bound here
}

// defRef is a reference to a body's definition: its index, and where.
type defRef struct {
	def int
	pos semantics.Pos
}

func (s *scope) with(x string) *scope { return &scope{parent: s, name: x} }

// resolve reports whether x is bound in s, recording the reference at pos
// when its binder is one of a body's definitions; when it is not bound,
// hint is the nearest hint for x ("" when there is none).
func (s *scope) resolve(x string, pos semantics.Pos) (bound bool, hint string) {
	for ; s != nil; s = s.parent {
		switch {
		case s.name != x:
		case s.later != "":
			if hint == "" {
				hint = s.later
			}
		default:
			if s.uses != nil {
				*s.uses = append(*s.uses, defRef{s.def, pos})
			}
			return true, ""
		}
	}
	return false, hint
}

// names are the names bound in s and the basis's, sorted, for a
// suggestion when a name is unbound.
func (s *scope) names() []string {
	var out []string
	for ; s != nil; s = s.parent {
		if s.later == "" && s.name != "" {
			out = append(out, s.name)
		}
	}
	out = append(out, BasisNames()...)
	slices.Sort(out)
	return out
}

func (s *scope) has(x string) bool {
	bound, _ := s.resolve(x, semantics.Pos{})
	return bound
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
// write λ bodies as sequences). An expression before the last is computed
// and its value dropped.
//
// A definition is Racket's, as the library's define is: in scope in the
// rest of the body, and a function's also in its own body and in the
// bodies of the functions before it, so functions may recurse and call
// each other. Each reference is resolved when it is parsed: to the
// nearest binder around it, where the definitions before the one being
// parsed come before (are nearer than) the function itself and the
// definitions after it, which come before the binders around the body and
// the basis. Definitions referred to only by what follows them are lets,
// as before; the others are grouped (groupBody) into recursive groups
// (Rec), each of which binds values as written, so that binding it
// computes nothing. sc is the scope around the body; it may hold hints
// (the top level's later definitions, definedAfter).
func parseBody(pos semantics.Pos, forms []*semantics.SExp, sc *scope) Expr {
	if len(forms) == 0 {
		fail(pos, "a body needs an expression")
	}
	last := forms[len(forms)-1]
	if isDefine(last) {
		fail(last.Pos, "a body must end with an expression, not a definition")
	}
	items := make([]*bodyItem, len(forms)-1)
	for i, f := range forms[:len(forms)-1] {
		items[i] = &bodyItem{s: f}
		if isDefine(f) {
			items[i].x, items[i].lam = definedName(f), isFunctionDefine(f)
		}
	}
	for i, it := range items {
		isc := itemScope(sc, items, i)
		if !isDefine(it.s) {
			it.val = parseExpr(it.s, isc)
			continue
		}
		it.x, it.val = parseDefine(it.s, isc)
	}
	bsc := sc
	for j, it := range items {
		if it.x != "" {
			bsc = &scope{parent: bsc, name: it.x, def: j}
		}
	}
	return groupBody(items, parseExpr(last, bsc))
}

// A bodyItem is a definition or an expression of a body, before its last
// expression.
type bodyItem struct {
	s    *semantics.SExp
	x    string // the name defined; "" for an expression whose value is dropped
	lam  bool   // a function's definition: (define (f …) …), (define f (λ …)), rerank
	val  Expr
	refs []defRef // the references in val to the body's definitions
}

// itemScope is the scope item i of a body is parsed in: sc, then the
// definitions after it (a function's body may use them; elsewhere they
// are hints), then those before it, then (for a function) itself.
func itemScope(sc *scope, items []*bodyItem, i int) *scope {
	it := items[i]
	s := sc
	for j := len(items) - 1; j > i; j-- {
		if x := items[j].x; x != "" {
			if it.lam {
				s = &scope{parent: s, name: x, def: j, uses: &it.refs}
			} else {
				s = &scope{parent: s, name: x, later: fmt.Sprintf("%s is used before its definition (at %s): only a function's body may refer to a definition after it", x, items[j].s.Pos)}
			}
		}
	}
	for j := 0; j < i; j++ {
		if x := items[j].x; x != "" {
			s = &scope{parent: s, name: x, def: j, uses: &it.refs}
		}
	}
	if it.x != "" {
		if it.lam {
			s = &scope{parent: s, name: it.x, def: i, uses: &it.refs}
		} else {
			s = &scope{parent: s, name: it.x, later: fmt.Sprintf("%s is used in its own definition, which computes a value: only a function may refer to itself", it.x)}
		}
	}
	return s
}

// definedAfter is the hints for the top-level definitions after the
// expression e: they are not in scope in it.
func definedAfter(e *semantics.SExp, rest []*semantics.SExp) *scope {
	var s *scope
	for i := len(rest) - 1; i >= 0; i-- {
		if isDefine(rest[i]) {
			if x := definedName(rest[i]); x != "" {
				s = &scope{parent: s, name: x, later: fmt.Sprintf("%s is defined (at %s) after the expression at %s: definitions scope over the expressions after them", x, rest[i].Pos, e.Pos)}
			}
		}
	}
	return s
}

// definedName is the name a definition defines, if it is one (parseDefine
// checks it in its turn).
func definedName(d *semantics.SExp) string {
	if len(d.List) < 2 {
		return ""
	}
	h := d.List[1]
	if h.IsList('(') && len(h.List) > 0 {
		h = h.List[0]
	}
	if h.Kind != semantics.Atom || h.Text == "" || keywords[h.Text] || h.Text[0] == '#' {
		return ""
	}
	if _, ok, _ := atomLiteral(h); ok {
		return ""
	}
	return h.Text
}

// isFunctionDefine reports whether a definition defines a function as
// written: (define (f …) …), or (define f e) with e a λ or a rerank.
func isFunctionDefine(d *semantics.SExp) bool {
	if len(d.List) < 3 {
		return false
	}
	if d.List[1].IsList('(') {
		return true
	}
	v := d.List[2]
	return len(d.List) == 3 && v.IsList('(') && len(v.List) > 0 && v.List[0].Kind == semantics.Atom &&
		(v.List[0].Text == "λ" || v.List[0].Text == "lambda" || v.List[0].Text == "fn" || v.List[0].Text == "rerank")
}

// groupBody nests a body's items around its last expression: a let for
// each, in order, except the definitions that are referred to before
// their end (by themselves, or by a function before them), which make
// recursive groups. A group starts at a function that refers to a
// definition after it (or to itself) and takes in the definitions it
// refers to and those that refer to a member, until none of its members
// refers past the last; an item in between that does neither is a let
// before the group (binding the group computes nothing, so nothing moves
// past a computation). A member must be a value as written (a λ, a
// primitive or a literal): a definition that computes a value cannot be
// used before it is made, and an expression or computed definition cannot
// use a member before the group is complete; both are refused here, where
// Racket would stop at run time ("undefined; cannot reference an
// identifier before its definition").
func groupBody(items []*bodyItem, body Expr) Expr {
	var out []Expr // lets and groups, in order
	var group []int
	var hoisted []int          // the items bound before the open group
	in := map[int]bool{}       // the members of the open group
	target := map[int]defRef{} // definitions a member refers to, after it (the first reference)
	last := -1                 // the last of them
	for i, it := range items {
		joins := false
		if t, ok := target[i]; ok {
			joins = true
			if !isDefValue(it.val) {
				fail(t.pos, "%s is used before its definition (at %s), which computes a value: only functions and literals can be used before they are defined", it.x, it.s.Pos)
			}
		}
		for _, r := range it.refs {
			if in[r.def] && r.def < i && !joins {
				if !it.lam && !isDefValue(it.val) {
					fail(r.pos, "%s is used here before %s, which %s refers to, is defined (at %s)", items[r.def].x, items[last].x, items[r.def].x, items[last].s.Pos)
				}
				joins = true
			}
		}
		for _, r := range it.refs {
			if r.def >= i {
				joins = true
				if _, seen := target[r.def]; !seen {
					target[r.def] = r
				}
				last = max(last, r.def)
			}
		}
		if !joins {
			out = append(out, &Let{Pos: it.s.Pos, EndPos: it.s.End, X: it.x, Val: it.val})
			if len(group) > 0 {
				hoisted = append(hoisted, i)
			}
			continue
		}
		group = append(group, i)
		in[i] = true
		if last <= i {
			out = append(out, recGroup(items, group, hoisted)...)
			group, hoisted, in, target, last = nil, nil, map[int]bool{}, map[int]defRef{}, -1
		}
	}
	for i := len(out) - 1; i >= 0; i-- {
		switch b := out[i].(type) {
		case *Let:
			b.Body = body
		case *Rec:
			b.Body = body
			b.unroll()
		}
		body = out[i]
	}
	return body
}

// isDefValue reports whether a definition's value is a member a group
// can bind as written: a λ, a primitive or a literal (a closed value, or
// one whose free names are the group's, which unrolling closes).
func isDefValue(e Expr) bool {
	switch e.(type) {
	case *Lam, *Prim, *Lit:
		return true
	}
	return false
}

// recGroup binds a complete group: its strongly connected components,
// each after those it refers to, a let for a member that refers neither
// to itself nor to a member that refers back to it (a forward reference
// that is no recursion: binding values computes nothing, so the order
// among them is free), a Rec for each other component (its bodies are set
// later). Inside the group every name of it means the member: a name
// defined twice among the members, a member's reference to another
// definition of a member's name, or a definition of a member's name among
// the items bound before the group (hoisted) would be captured or
// shadowed, and is refused.
func recGroup(items []*bodyItem, group, hoisted []int) []Expr {
	names := map[string]int{}
	for _, i := range group {
		if j, dup := names[items[i].x]; dup {
			fail(items[i].s.Pos, "%s is defined twice (also at %s) among definitions that refer to each other: rename one", items[i].x, items[j].s.Pos)
		}
		names[items[i].x] = i
	}
	for _, i := range hoisted {
		if j, dup := names[items[i].x]; dup && items[i].x != "" {
			fail(items[i].s.Pos, "%s is defined twice (also at %s), between definitions that refer to each other: rename one", items[i].x, items[j].s.Pos)
		}
	}
	for _, i := range group {
		for _, ref := range items[i].refs {
			if j, ok := names[items[ref.def].x]; ok && j != ref.def {
				fail(ref.pos, "%s here is the definition at %s, but %s, defined at %s, is bound with the definitions that refer to it, which would capture this name: rename one", items[ref.def].x, items[ref.def].s.Pos, items[j].x, items[j].s.Pos)
			}
		}
	}
	var out []Expr
	for _, comp := range components(items, group) {
		it := items[comp[0]]
		if len(comp) == 1 && !refersTo(it, comp[0]) {
			out = append(out, &Let{Pos: it.s.Pos, EndPos: it.s.End, X: it.x, Val: it.val})
			continue
		}
		slices.Sort(comp)
		r := &Rec{Pos: items[comp[0]].s.Pos, EndPos: items[comp[0]].s.End}
		for _, i := range comp {
			r.Defs = append(r.Defs, Def{Pos: items[i].s.Pos, EndPos: items[i].s.End, X: items[i].x, Val: items[i].val})
		}
		out = append(out, r)
	}
	return out
}

// refersTo reports whether item it refers to definition i.
func refersTo(it *bodyItem, i int) bool {
	return slices.ContainsFunc(it.refs, func(r defRef) bool { return r.def == i })
}

// components are the strongly connected components of the members of a
// group under "refers to", each after the components it refers to
// (Tarjan's algorithm, which finishes a component after those it reaches).
func components(items []*bodyItem, group []int) [][]int {
	member := map[int]bool{}
	for _, i := range group {
		member[i] = true
	}
	index, low := map[int]int{}, map[int]int{}
	onStack := map[int]bool{}
	var stack []int
	var out [][]int
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		onStack[v] = true
		for _, r := range items[v].refs {
			w := r.def
			if !member[w] {
				continue
			}
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			out = append(out, comp)
		}
	}
	for _, i := range group {
		if _, seen := index[i]; !seen {
			visit(i)
		}
	}
	return out
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

// parseDefine reads (define x e) and (define (f (x r) …) body …), in the
// scope parseBody gives it.
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
		bound, hint := sc.resolve(s.Text, s.Pos)
		if bound {
			return &Var{Pos: s.Pos, EndPos: s.End, Name: s.Text}
		}
		if p := Basis[s.Text]; p != nil {
			return &Prim{Pos: s.Pos, EndPos: s.End, Def: p}
		}
		if hint != "" {
			fail(s.Pos, "%s", hint)
		}
		fail(s.Pos, "%s is not bound (and is not in the basis)%s", s.Text, semantics.DidYouMean(s.Text, sc.names()))
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
