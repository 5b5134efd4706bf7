package remora

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// CheckOptions configure the type checker.
type CheckOptions struct {
	Derive  bool              // build the typing derivation
	Counter semantics.Counter // count the rules applied
	// Types, when not nil, records the type of every term of the
	// elaborated program (as go/types' Info.Types does), for the passes
	// that need a subterm's type: Explicitize reads frames off them.
	Types map[Expr]*Arr
}

// Info is what checking a program found.
type Info struct {
	Types       []*Arr                  // each top-level expression's type
	Derivations []*semantics.Derivation // one per expression, when asked for
}

// Check type checks a program by the rules of Figs 7–8 and elaborates it
// into the annotated core the semantics run on: basis names become
// primitives, lets become β-redexes, unbox and lift over a frame of boxes
// become lifted λs, and every application, frame and λ gets its type. The
// program is changed in place.
func Check(p *Program, opts *CheckOptions) (*Info, error) {
	if opts == nil {
		opts = &CheckOptions{}
	}
	info := &Info{}
	p.Types = nil
	for i, e := range p.Exprs {
		c := &checker{d: semantics.Deriver{Derive: opts.Derive, Counter: opts.Counter}, types: opts.Types}
		ne, t, d, err := c.top(e)
		if err != nil {
			return nil, err
		}
		p.Exprs[i] = ne
		p.Types = append(p.Types, t)
		info.Types = append(info.Types, t)
		if d != nil {
			info.Derivations = append(info.Derivations, d)
		}
	}
	return info, nil
}

// CheckExpr checks one closed expression.
func CheckExpr(e Expr, opts *CheckOptions) (Expr, *Arr, *semantics.Derivation, error) {
	if opts == nil {
		opts = &CheckOptions{}
	}
	c := &checker{d: semantics.Deriver{Derive: opts.Derive, Counter: opts.Counter}, types: opts.Types}
	return c.top(e)
}

type checker struct {
	types map[Expr]*Arr // CheckOptions.Types
	d     semantics.Deriver
	fresh int
	// With derivations asked for: held are, for each term being checked
	// (innermost last), the derivations of its subterms that checked, and
	// failed the derivation down to the rule that failed, as a type error
	// unwinds (top gives it to the error).
	held   [][]*semantics.Derivation
	failed *semantics.Derivation
}

// scope is Γ; Δ; Θ of Fig 7: term variables with their (array) types, type
// variables, and index variables (whose sort is in their name).
type scope struct {
	vars   map[string]*Arr
	tvars  map[string]bool
	ivars  map[string]bool
	parent *scope
	self   string // the let or definition whose value this scope checks
}

// defining is s while the value bound to x by a let or a definition is
// checked: x is not in scope there, and an unbound x says why.
func (s *scope) defining(x string) *scope { return &scope{parent: s, self: x} }

// inOwnValue reports whether x is used in the value of its own let or
// definition.
func (s *scope) inOwnValue(x string) bool {
	for ; s != nil; s = s.parent {
		if s.self == x {
			return true
		}
	}
	return false
}

func (s *scope) lookup(x string) (*Arr, bool) {
	for ; s != nil; s = s.parent {
		if t, ok := s.vars[x]; ok {
			return t, true
		}
	}
	return nil, false
}

// names are the term variables in scope and the basis's names, sorted,
// for a suggestion when a name is unbound.
func (s *scope) names() []string {
	var out []string
	for ; s != nil; s = s.parent {
		for x := range s.vars {
			out = append(out, x)
		}
	}
	for x := range Basis {
		out = append(out, x)
	}
	slices.Sort(out)
	return out
}

func (s *scope) hasT(x string) bool {
	for ; s != nil; s = s.parent {
		if s.tvars[x] {
			return true
		}
	}
	return false
}

func (s *scope) hasI(x string) bool {
	for ; s != nil; s = s.parent {
		if s.ivars[x] {
			return true
		}
	}
	return false
}

func (s *scope) with(vars map[string]*Arr, tvars, ivars []string) *scope {
	n := &scope{vars: vars, parent: s}
	if len(tvars) > 0 {
		n.tvars = map[string]bool{}
		for _, t := range tvars {
			n.tvars[t] = true
		}
	}
	if len(ivars) > 0 {
		n.ivars = map[string]bool{}
		for _, x := range ivars {
			n.ivars[x] = true
		}
	}
	return n
}

func (c *checker) top(e Expr) (ne Expr, t *Arr, d *semantics.Derivation, err error) {
	defer func() {
		if err != nil && c.failed != nil {
			err = semantics.Failing(err, c.failed)
		}
	}()
	defer semantics.Catch(&err)
	ne, t, d = c.expr(e, &scope{})
	return ne, t, d, nil
}

// termRule is the typing rule of a term's form, for the node of a term
// whose premise failed.
func termRule(e Expr) string {
	switch e.(type) {
	case *Lit, *Frame:
		return RuleTArray.Name
	case *Var:
		return RuleTVar.Name
	case *Prim:
		return RuleTPrim.Name
	case *Lam:
		return RuleTAbst.Name
	case *TLam:
		return RuleTTAbst.Name
	case *ILam:
		return RuleTIAbst.Name
	case *App:
		return RuleTApp.Name
	case *TApp:
		return RuleTTApp.Name
	case *IApp:
		return RuleTIApp.Name
	case *Pack:
		return RuleTPack.Name
	case *Unpack:
		return RuleTUnpack.Name
	case *LiftDim:
		return RuleTLift.Name
	case *Reify:
		return RuleTReify.Name
	case *Reshape:
		return RuleTReshape.Name
	case *Map:
		return RuleTMap.Name
	case *Case:
		return RuleTCase.Name
	case *Rep:
		return RuleTRep.Name
	}
	return ""
}

// failing notes, as a type error unwinds through the check of e, the
// derivation down to it: the failing rule as a leaf at the innermost
// term, and at each term around it, its rule over the subterms that
// checked and the one that failed.
func (c *checker) failing(e Expr, r any) {
	se, ok := r.(*semantics.Error)
	if !ok {
		return
	}
	held := c.held[len(c.held)-1]
	if c.failed == nil {
		c.failed = semantics.FailedAt(se, Short(e), termRule(e))
		if len(held) == 0 {
			return
		}
	}
	// e's rule over its premises that held, then the one that failed.
	c.failed = &semantics.Derivation{Rule: termRule(e), Conclusion: Short(e) + " : …", Premises: append(held, c.failed)}
}

func typeErr(pos semantics.Pos, rule, format string, args ...any) {
	panic(semantics.Errorf(pos, semantics.TypeError, rule, format, args...))
}

// short prints a term for a derivation or an error, cut to a readable
// length.
func Short(e Expr) string {
	s := ExprString(e)
	if r := []rune(s); len(r) > 70 {
		s = string(r[:67]) + "..."
	}
	return s
}

func (c *checker) node(rule string, e Expr, t Type, premises ...*semantics.Derivation) *semantics.Derivation {
	return c.d.Node(rule, func() string { return Short(e) + " : " + TypeString(t) }, premises...)
}

func (c *checker) expr(e Expr, s *scope) (Expr, *Arr, *semantics.Derivation) {
	if c.d.Derive {
		c.held = append(c.held, nil)
		defer func() {
			if r := recover(); r != nil {
				c.failing(e, r)
				c.held = c.held[:len(c.held)-1]
				panic(r)
			}
			c.held = c.held[:len(c.held)-1]
		}()
	}
	ne, t, d := c.expr1(e, s)
	if c.types != nil {
		c.types[ne] = t
	}
	if c.d.Derive && len(c.held) > 1 && d != nil {
		c.held[len(c.held)-2] = append(c.held[len(c.held)-2], d)
	}
	return ne, t, d
}

func (c *checker) expr1(e Expr, s *scope) (Expr, *Arr, *semantics.Derivation) {
	switch e := forced(e).(type) {
	case *Lit:
		t := &Arr{Elem: c.litAtomType(e), Shape: Dims(e.V.Shape...)}
		rule := RuleTArray.Name
		if len(e.V.Shape) == 0 {
			rule = map[Kind]string{KInt: RuleTNum.Name, KFloat: RuleTFloat.Name, KBool: RuleTBool.Name, KChar: RuleTChar.Name}[e.V.Kind]
		}
		return e, t, c.node(rule, e, t)
	case *Var:
		if t, ok := s.lookup(e.Name); ok {
			return e, t, c.node(RuleTVar.Name, e, t)
		}
		if p, ok := Basis[e.Name]; ok {
			ne := &Prim{Pos: e.Pos, EndPos: e.EndPos, Def: p}
			t := &Arr{Elem: p.Type}
			return ne, t, c.node(RuleTPrim.Name, ne, t)
		}
		if s.inOwnValue(e.Name) {
			typeErr(e.Pos, RuleTVar.Name, "unbound variable %s: a definition is not in scope in its own value, for the typed core has no recursion (its iteration is the arrays' own: map, reduce, scan)", e.Name)
		}
		typeErr(e.Pos, RuleTVar.Name, "unbound variable %s%s", e.Name, semantics.DidYouMean(e.Name, s.names()))
	case *Prim:
		t := &Arr{Elem: e.Def.Type}
		return e, t, c.node(RuleTPrim.Name, e, t)
	case *Frame:
		return c.frame(e, s)
	case *Lam:
		return c.lam(e, s)
	case *TLam:
		for _, v := range e.Vars {
			if !c.uniq(e.Vars, v) {
				typeErr(e.Pos, RuleTTAbst.Name, "type variable %s bound twice", v)
			}
		}
		vars, body0 := renameShadowed(e.Vars, e.Body, s, false)
		body, bt, bd := c.expr(body0, s.with(nil, vars, nil))
		ne := &TLam{Pos: e.Pos, EndPos: e.EndPos, Vars: vars, Body: body}
		t := &Arr{Elem: &Forall{Vars: vars, Body: bt}}
		return ne, t, c.node(RuleTTAbst.Name, ne, t, bd)
	case *ILam:
		for _, v := range e.Vars {
			if !c.uniq(e.Vars, v) {
				typeErr(e.Pos, RuleTIAbst.Name, "index variable %s bound twice", v)
			}
		}
		vars, body0 := renameShadowed(e.Vars, e.Body, s, true)
		body, bt, bd := c.expr(body0, s.with(nil, nil, vars))
		ne := &ILam{Pos: e.Pos, EndPos: e.EndPos, Vars: vars, Body: body}
		t := &Arr{Elem: &Pi{Vars: vars, Body: bt}}
		return ne, t, c.node(RuleTIAbst.Name, ne, t, bd)
	case *App:
		return c.app(e, s)
	case *TApp:
		return c.tapp(e, s)
	case *IApp:
		return c.iapp(e, s)
	case *Pack:
		return c.pack(e, s)
	case *Unpack:
		return c.unpack(e, s)
	case *Let:
		// (let [x e] body) is ((λ [(x τ)] body) e), τ the type of e.
		val, vt, _ := c.expr(e.Val, s.defining(e.X))
		pt := Type(vt)
		if e.T != nil {
			c.kind(e.T, s, e.Pos)
			if !Equal(CanonArr(e.T), vt) {
				typeErr(e.Val.At(), RuleTApp.Name, "let %s is declared %s but its value has type %s", e.X, TypeString(e.T), TypeString(vt))
			}
			pt = e.T
		}
		app := &App{Pos: e.Pos, EndPos: e.EndPos, Fn: &Lam{Pos: e.Pos, EndPos: e.EndPos, Params: []Param{{Name: e.X, Type: pt}}, Body: e.Body}, Args: []Expr{val}}
		return c.app(app, s)
	case *LiftDim:
		return c.liftDim(e, s)
	case *Reify:
		c.sortOf(e.Index, s, e.Pos)
		t := &Arr{Elem: Int}
		if e.Index.IsShape {
			if _, hasVar := shapeRank(e.Index.S); hasVar {
				typeErr(e.Pos, RuleTReify.Name, "reify-shape %s: the rank of a shape with a Shape variable is not known statically", e.Index)
			}
			t = ArrOf(Int, int64(len(e.Index.S)))
		}
		return e, t, c.node(RuleTReify.Name, e, t)
	case *Reshape:
		ne, et, d := c.expr(e.E, s)
		c.sortOf(ShapeIndex(e.Shape), s, e.Pos)
		from, ok1 := et.Shape.Const()
		to, ok2 := e.Shape.Const()
		switch {
		case ok1 && ok2:
			if Product(from) != Product(to) {
				typeErr(e.Pos, RuleTReshape.Name, "cannot reshape %s (%d atoms) to %s (%d atoms)", et.Shape, Product(from), e.Shape, Product(to))
			}
		case !et.Shape.Equal(e.Shape):
			typeErr(e.Pos, RuleTReshape.Name, "cannot decide whether %s and %s have as many atoms (products of index variables are outside the decided fragment)", et.Shape, e.Shape)
		}
		t := &Arr{Elem: et.Elem, Shape: e.Shape}
		r := &Reshape{Pos: e.Pos, EndPos: e.EndPos, Shape: e.Shape, E: ne, Type: t}
		return r, t, c.node(RuleTReshape.Name, r, t, d)
	case *Map:
		return c.mapIR(e, s)
	case *Case:
		return c.checkCase(e, s)
	case *Rep:
		ne, et, d := c.expr(e.E, s)
		c.sortOf(ShapeIndex(e.Frame), s, e.Pos)
		t := &Arr{Elem: et.Elem, Shape: e.Frame.Append(et.Shape)}
		r := &Rep{Pos: e.Pos, EndPos: e.EndPos, Frame: e.Frame, E: ne, Type: t}
		return r, t, c.node(RuleTRep.Name, r, t, d)
	}
	typeErr(e.At(), "", "unexpected term %s", Short(e))
	return nil, nil, nil
}

func shapeRank(s Shape) (int, bool) {
	for _, it := range s {
		if it.Var != "" {
			return 0, true
		}
	}
	return len(s), false
}

func (c *checker) uniq(vs []string, v string) bool {
	n := 0
	for _, w := range vs {
		if w == v {
			n++
		}
	}
	return n == 1
}

// litAtomType is the atom type of a value's atoms. Values of functions and
// boxes arise during reduction; checking them lets a test check that every
// step keeps the type (Theorem 1's preservation).
func (c *checker) litAtomType(e *Lit) Type {
	v := e.V
	switch v.Kind {
	case KFunc, KBox:
		var t Type
		for i, a := range v.A {
			var at Type
			switch a := a.(type) {
			case *Box:
				at = a.Type
			case *Func:
				if a.Prim != nil {
					at = Instantiate(a.Prim.Type, a.Indices, a.Types)
				} else {
					_, ft, _ := c.expr(a.Term, &scope{})
					at = ft.Elem
				}
			}
			if t == nil {
				t = at
			} else if !equal(Canon(t), Canon(at), nil, nil) {
				typeErr(e.Pos, RuleTArray.Name, "atom %d has type %s, the atoms before it %s", i+1, TypeString(at), TypeString(t))
			}
		}
		if t == nil {
			typeErr(e.Pos, RuleTArray.Name, "an empty array of %ss has no type to check", v.Kind)
		}
		return Canon(t)
	}
	return LitAtomType(v)
}

func LitAtomType(v *Value) Type {
	switch v.Kind {
	case KFloat:
		return Float
	case KBool:
		return Bool
	case KChar:
		return Char
	}
	return Int
}

// frame is T-ARRAY: every element has the same type A_ι τ, and the frame
// [l …] with shape [n …] has type A_[n …](A_ι τ) ≅ A_[n … ι…] τ.
func (c *checker) frame(e *Frame, s *scope) (Expr, *Arr, *semantics.Derivation) {
	ne := &Frame{Pos: e.Pos, EndPos: e.EndPos, Dims: e.Dims, Cell: e.Cell}
	var cell *Arr
	var ds []*semantics.Derivation
	if e.Cell != nil {
		ds = append(ds, c.kind(e.Cell, s, e.Pos))
		cell = CanonArr(e.Cell)
	}
	for i, el := range e.Elems {
		nel, t, d := c.expr(el, s)
		ne.Elems = append(ne.Elems, nel)
		ds = append(ds, d)
		if cell == nil {
			cell = t
		} else if !Equal(cell, t) {
			typeErr(el.At(), RuleTArray.Name, "element %d has type %s, but the frame's elements before it have type %s", i+1, TypeString(t), TypeString(cell))
		}
	}
	if cell == nil {
		typeErr(e.Pos, RuleTArray.Name, "an empty frame needs its cell type: (frame %s τ)", dimsString(e.Dims))
	}
	ne.Type = &Arr{Elem: cell.Elem, Shape: Dims(e.Dims...).Append(cell.Shape)}
	return ne, ne.Type, c.node(RuleTArray.Name, ne, ne.Type, ds...)
}

// lam is T-ABST.
func (c *checker) lam(e *Lam, s *scope) (Expr, *Arr, *semantics.Derivation) {
	vars := map[string]*Arr{}
	var ds []*semantics.Derivation
	params := make([]Param, len(e.Params))
	for i, p := range e.Params {
		if _, dup := vars[p.Name]; dup {
			typeErr(e.Pos, RuleTAbst.Name, "parameter %s bound twice", p.Name)
		}
		ds = append(ds, c.kind(p.Type, s, e.Pos))
		vars[p.Name] = CanonArr(p.Type)
		params[i] = Param{Name: p.Name, Type: vars[p.Name]}
	}
	body, bt, bd := c.expr(e.Body, s.with(vars, nil, nil))
	ne := &Lam{Pos: e.Pos, EndPos: e.EndPos, Params: params, Body: body, Ret: bt}
	pts := make([]Type, len(params))
	for i, p := range params {
		pts[i] = p.Type
	}
	t := &Arr{Elem: &Fn{Params: pts, Ret: bt}}
	return ne, t, c.node(RuleTAbst.Name, ne, t, append(ds, bd)...)
}

// mapIR is T-MAP, the typing of the compiler IR's explicit map: argument
// i has type [τi F ++ Ci] when parameter i's cell type is [τi Ci], and the
// body, typed with each parameter bound to its cell type, has type
// [σ B]; the MAP has type [σ F ++ B]. Unlike T-APP nothing is inferred:
// the frame is written, and every argument must have exactly it.
func (c *checker) mapIR(e *Map, s *scope) (Expr, *Arr, *semantics.Derivation) {
	c.sortOf(ShapeIndex(e.Frame), s, e.Pos)
	if len(e.Params) != len(e.Args) {
		typeErr(e.Pos, RuleTMap.Name, "MAP has %d parameters and %d arguments", len(e.Params), len(e.Args))
	}
	vars := map[string]*Arr{}
	ne := &Map{Pos: e.Pos, EndPos: e.EndPos, Frame: e.Frame}
	var ds []*semantics.Derivation
	for i, p := range e.Params {
		if _, dup := vars[p.Name]; dup {
			typeErr(e.Pos, RuleTMap.Name, "parameter %s bound twice", p.Name)
		}
		ds = append(ds, c.kind(p.Type, s, e.Pos))
		pt := CanonArr(p.Type)
		vars[p.Name] = pt
		na, at, ad := c.expr(e.Args[i], s)
		ds = append(ds, ad)
		want := &Arr{Elem: pt.Elem, Shape: e.Frame.Append(pt.Shape)}
		if !Equal(at, want) {
			typeErr(e.Args[i].At(), RuleTMap.Name, "MAP argument %s has type %s, but the frame %s around cells of type %s is %s", p.Name, TypeString(at), e.Frame, TypeString(pt), TypeString(want))
		}
		ne.Params = append(ne.Params, Param{Name: p.Name, Type: pt})
		ne.Args = append(ne.Args, na)
	}
	body, bt, bd := c.expr(e.Body, s.with(vars, nil, nil))
	ne.Body = body
	ne.Type = &Arr{Elem: bt.Elem, Shape: e.Frame.Append(bt.Shape)}
	return ne, ne.Type, c.node(RuleTMap.Name, ne, ne.Type, append(ds, bd)...)
}

// app is T-APP: the function has type A_Ff (τ … → σ), argument i has type
// A_Fi τi (its cells are the parameter's type and its frame Fi), and the
// application's frame is the largest of Ff, F1, …, of which every other is
// a prefix; the result is A_F σ.
func (c *checker) app(e *App, s *scope) (Expr, *Arr, *semantics.Derivation) {
	fn, ft, fd := c.expr(e.Fn, s)
	ds := []*semantics.Derivation{fd}
	f, ok := ft.Elem.(*Fn)
	if !ok {
		switch ft.Elem.(type) {
		case *Forall:
			typeErr(e.Pos, RuleTApp.Name, "%s has type %s: apply it to types first, (t-app f τ …) or f{τ … | }", Short(fn), TypeString(ft))
		case *Pi:
			typeErr(e.Pos, RuleTApp.Name, "%s has type %s: apply it to indices first, (i-app f ι …) or f{ | ι …}", Short(fn), TypeString(ft))
		}
		typeErr(e.Pos, RuleTApp.Name, "%s is not a function: it has type %s", Short(fn), TypeString(ft))
	}
	if len(e.Args) != len(f.Params) {
		typeErr(e.Pos, RuleTApp.Name, "%s takes %s, got %d", Short(fn), semantics.Plural(len(f.Params), "argument"), len(e.Args))
	}
	ne := &App{Pos: e.Pos, EndPos: e.EndPos, Fn: fn}
	frames := []Shape{ft.Shape}
	for i, a := range e.Args {
		na, at, ad := c.expr(a, s)
		ne.Args = append(ne.Args, na)
		ds = append(ds, ad)
		want := f.Params[i].(*Arr)
		if !equal(at.Elem, want.Elem, nil, nil) {
			typeErr(a.At(), RuleTApp.Name, "argument %d has atoms of type %s, the function wants %s (cells of type %s)", i+1, TypeString(at.Elem), TypeString(want.Elem), TypeString(want))
		}
		frame, ok := at.Shape.CutSuffix(want.Shape)
		if !ok {
			typeErr(a.At(), RuleTApp.Name, "argument %d has type %s, which is not a frame of cells of type %s%s", i+1, TypeString(at), TypeString(want), undecided(at.Shape, want.Shape))
		}
		frames = append(frames, frame)
	}
	bigAt := 0
	for i, fr := range frames {
		if len(fr) > len(frames[bigAt]) {
			bigAt = i
		}
	}
	big := frames[bigAt]
	what := func(i int) string {
		if i == 0 {
			return "the function's frame"
		}
		return fmt.Sprintf("argument %d's frame", i)
	}
	for i, fr := range frames {
		if !fr.IsPrefixOf(big) {
			a, b := min(i, bigAt), max(i, bigAt)
			typeErr(e.Pos, RuleTApp.Name, "frames %s and %s do not agree (%s and %s: neither is a prefix of the other)", frames[a], frames[b], what(a), what(b))
		}
	}
	ret := f.Ret.(*Arr)
	ne.Type = &Arr{Elem: ret.Elem, Shape: big.Append(ret.Shape)}
	return ne, ne.Type, c.node(RuleTApp.Name, ne, ne.Type, ds...)
}

// undecided explains a failed suffix test that involves Shape variables the
// decision procedure cannot see through.
func undecided(s, cell Shape) string {
	for _, it := range append(append(Shape{}, s...), cell...) {
		if it.Var != "" {
			return " (shapes with Shape variables are compared item by item: " + s.String() + " would have to end with " + cell.String() + ")"
		}
	}
	return ""
}

// tapp is T-TAPP, restricted to atom type arguments.
func (c *checker) tapp(e *TApp, s *scope) (Expr, *Arr, *semantics.Derivation) {
	fn, ft, fd := c.expr(e.Fn, s)
	fa, ok := ft.Elem.(*Forall)
	if !ok {
		typeErr(e.Pos, RuleTTApp.Name, "%s is not a type abstraction: it has type %s", Short(fn), TypeString(ft))
	}
	if len(ft.Shape) != 0 {
		typeErr(e.Pos, RuleTTApp.Name, "type application needs one type abstraction, got a frame %s of them", ft.Shape)
	}
	if len(e.Args) != len(fa.Vars) {
		typeErr(e.Pos, RuleTTApp.Name, "%s takes %s (%s), got %d", Short(fn), semantics.Plural(len(fa.Vars), "type argument"), strings.Join(fa.Vars, " "), len(e.Args))
	}
	ds := []*semantics.Derivation{fd}
	sub := TypeSubst{Types: map[string]Type{}}
	args := make([]Type, len(e.Args))
	for i, a := range e.Args {
		ds = append(ds, c.kind(a, s, e.Pos))
		ca := Canon(a)
		if !IsAtomType(ca) {
			typeErr(e.Pos, RuleTTApp.Name, "type arguments are atom types, not array types; %s is an array type", arrayTypeString(ca))
		}
		args[i] = ca
		sub.Types[fa.Vars[i]] = ca
	}
	t := CanonArr(sub.Type(fa.Body))
	ne := &TApp{Pos: e.Pos, EndPos: e.EndPos, Fn: fn, Args: args}
	return ne, t, c.node(RuleTTApp.Name, ne, t, ds...)
}

// iapp is T-IAPP: the indices have the sorts the Π asks for.
func (c *checker) iapp(e *IApp, s *scope) (Expr, *Arr, *semantics.Derivation) {
	fn, ft, fd := c.expr(e.Fn, s)
	pi, ok := ft.Elem.(*Pi)
	if !ok {
		typeErr(e.Pos, RuleTIApp.Name, "%s is not an index abstraction: it has type %s", Short(fn), TypeString(ft))
	}
	if len(ft.Shape) != 0 {
		typeErr(e.Pos, RuleTIApp.Name, "index application needs one index abstraction, got a frame %s of them", ft.Shape)
	}
	if len(e.Args) != len(pi.Vars) {
		typeErr(e.Pos, RuleTIApp.Name, "%s takes %s (%s), got %d", Short(fn), indicesCount(len(pi.Vars)), strings.Join(pi.Vars, " "), len(e.Args))
	}
	ds := []*semantics.Derivation{fd}
	sub := Subst{}
	for i, a := range e.Args {
		ds = append(ds, c.sortOf(a, s, e.Pos))
		if a.IsShape != IsShapeVar(pi.Vars[i]) {
			typeErr(e.Pos, RuleTIApp.Name, "index %d (for %s) must be a %s, got the %s %s", i+1, pi.Vars[i], SortOf(pi.Vars[i]), sortName(a), a)
		}
		sub[pi.Vars[i]] = a
	}
	t := CanonArr(TypeSubst{Indices: sub}.Type(pi.Body))
	ne := &IApp{Pos: e.Pos, EndPos: e.EndPos, Fn: fn, Args: e.Args}
	return ne, t, c.node(RuleTIApp.Name, ne, t, ds...)
}

func sortName(ix Index) string {
	if ix.IsShape {
		return "Shape"
	}
	return "Nat"
}

// pack is T-PACK: the contents have the Σ's body type at the witnesses.
func (c *checker) pack(e *Pack, s *scope) (Expr, *Arr, *semantics.Derivation) {
	kd := c.kind(e.Type, s, e.Pos)
	sig := Canon(e.Type).(*Sigma)
	if len(e.Indices) != len(sig.Vars) {
		typeErr(e.Pos, RuleTPack.Name, "%s hides %d indices, the box gives %d", TypeString(sig), len(sig.Vars), len(e.Indices))
	}
	ds := []*semantics.Derivation{kd}
	sub := Subst{}
	for i, ix := range e.Indices {
		ds = append(ds, c.sortOf(ix, s, e.Pos))
		if ix.IsShape != IsShapeVar(sig.Vars[i]) {
			typeErr(e.Pos, RuleTPack.Name, "witness %d (for %s) must be a %s, got the %s %s", i+1, sig.Vars[i], SortOf(sig.Vars[i]), sortName(ix), ix)
		}
		sub[sig.Vars[i]] = ix
	}
	body, bt, bd := c.expr(e.Body, s)
	want := TypeSubst{Indices: sub}.Type(sig.Body)
	if !Equal(bt, want) {
		typeErr(e.Body.At(), RuleTPack.Name, "the box's contents have type %s; with these witnesses %s wants %s", TypeString(bt), TypeString(sig), TypeString(want))
	}
	ne := &Pack{Pos: e.Pos, EndPos: e.EndPos, Indices: e.Indices, Body: body, Type: sig}
	t := &Arr{Elem: sig}
	return ne, t, c.node(RuleTPack.Name, ne, t, append(ds, bd)...)
}

// unpack is T-UNPACK: the contents are bound at the Σ's body type with the
// hidden indices as fresh variables, and the result's type must not
// mention them. Over a frame of boxes (the compiler paper's A.3) the unbox
// is lifted: ((λ [(b Σ)] (unbox b …)) e).
func (c *checker) unpack(e *Unpack, s *scope) (Expr, *Arr, *semantics.Derivation) {
	box, bt, bd := c.expr(e.Box, s)
	sig, ok := bt.Elem.(*Sigma)
	if !ok {
		typeErr(e.Box.At(), RuleTUnpack.Name, "unbox wants a box, got %s of type %s", Short(box), TypeString(bt))
	}
	if len(bt.Shape) > 0 {
		c.fresh++
		b := fmt.Sprintf("box%%%d", c.fresh)
		inner := &Unpack{Pos: e.Pos, EndPos: e.EndPos, IVars: e.IVars, X: e.X, Box: &Var{Pos: e.Box.At(), Name: b}, Body: e.Body}
		return c.app(&App{Pos: e.Pos, EndPos: e.EndPos, Fn: &Lam{Pos: e.Pos, EndPos: e.EndPos, Params: []Param{{Name: b, Type: sig}}, Body: inner}, Args: []Expr{box}}, s)
	}
	if len(e.IVars) != len(sig.Vars) {
		typeErr(e.Pos, RuleTUnpack.Name, "%s hides %d indices, unbox binds %d", TypeString(sig), len(sig.Vars), len(e.IVars))
	}
	ivars, ebody := renameShadowed(e.IVars, e.Body, s, true)
	e = &Unpack{Pos: e.Pos, EndPos: e.EndPos, IVars: ivars, X: e.X, Box: e.Box, Body: ebody}
	sub := Subst{}
	for i, x := range e.IVars {
		if IsShapeVar(x) != IsShapeVar(sig.Vars[i]) {
			typeErr(e.Pos, RuleTUnpack.Name, "%s stands for %s, a %s; name it with%s @", x, sig.Vars[i], SortOf(sig.Vars[i]), map[bool]string{true: "", false: "out"}[IsShapeVar(sig.Vars[i])])
		}
		if IsShapeVar(x) {
			sub[sig.Vars[i]] = ShapeIndex(ShapeVar(x))
		} else {
			sub[sig.Vars[i]] = NatIndex(NatVar(x))
		}
	}
	xt := CanonArr(TypeSubst{Indices: sub}.Type(sig.Body))
	body, rt, rd := c.expr(e.Body, s.with(map[string]*Arr{e.X: xt}, nil, e.IVars))
	free := map[string]bool{}
	FreeIndexVars(rt, free)
	for _, x := range e.IVars {
		if free[x] {
			typeErr(e.Pos, RuleTUnpack.Name, "the hidden index %s leaks into the result type %s (box the result again, or return something whose type does not depend on it)", x, TypeString(rt))
		}
	}
	ne := &Unpack{Pos: e.Pos, EndPos: e.EndPos, IVars: e.IVars, X: e.X, Box: box, Body: body}
	return ne, rt, c.node(RuleTUnpack.Name, ne, rt, bd, rd)
}

// liftDim types (lift [d e] body): e is an int, and the result is the box
// Σ[d] τ of the body's type τ (lifted, like unbox, over a frame of ints).
func (c *checker) liftDim(e *LiftDim, s *scope) (Expr, *Arr, *semantics.Derivation) {
	n, nt, nd := c.expr(e.N, s)
	if !equal(nt.Elem, Int, nil, nil) {
		typeErr(e.N.At(), RuleTLift.Name, "lift binds a dimension to an int, got %s", TypeString(nt))
	}
	if len(nt.Shape) > 0 {
		c.fresh++
		x := fmt.Sprintf("n%%%d", c.fresh)
		inner := &LiftDim{Pos: e.Pos, EndPos: e.EndPos, D: e.D, N: &Var{Pos: e.N.At(), Name: x}, Body: e.Body}
		return c.app(&App{Pos: e.Pos, EndPos: e.EndPos, Fn: &Lam{Pos: e.Pos, EndPos: e.EndPos, Params: []Param{{Name: x, Type: Int}}, Body: inner}, Args: []Expr{n}}, s)
	}
	ds, ebody := renameShadowed([]string{e.D}, e.Body, s, true)
	body, bt, bd := c.expr(ebody, s.with(nil, nil, ds))
	sig := &Sigma{Vars: ds, Body: bt}
	ne := &LiftDim{Pos: e.Pos, EndPos: e.EndPos, D: ds[0], N: n, Body: body, Type: sig}
	t := &Arr{Elem: sig}
	return ne, t, c.node(RuleTLift.Name, ne, t, nd, bd)
}

// kind checks Δ; Θ ⊢ τ (Fig 8): type variables bound, indices well sorted.
func (c *checker) kind(t Type, s *scope, pos semantics.Pos) *semantics.Derivation {
	conc := func() string { return TypeString(t) + " type" }
	switch t := t.(type) {
	case *Base:
		return c.d.Node(RuleKBase.Name, conc)
	case *TVar:
		if !s.hasT(t.Name) {
			typeErr(pos, RuleKVar.Name, "unbound type variable %s", t.Name)
		}
		return c.d.Node(RuleKVar.Name, conc)
	case *Arr:
		ed := c.kind(t.Elem, s, pos)
		return c.d.Node(RuleKArray.Name, conc, ed, c.sortOf(ShapeIndex(t.Shape), s, pos))
	case *Fn:
		var ds []*semantics.Derivation
		for _, p := range t.Params {
			ds = append(ds, c.kind(p, s, pos))
		}
		return c.d.Node(RuleKFun.Name, conc, append(ds, c.kind(t.Ret, s, pos))...)
	case *Forall:
		return c.d.Node(RuleKUniv.Name, conc, c.kind(t.Body, s.with(nil, t.Vars, nil), pos))
	case *Pi:
		return c.d.Node(RuleKDProd.Name, conc, c.kind(t.Body, s.with(nil, nil, t.Vars), pos))
	case *Sigma:
		return c.d.Node(RuleKDSum.Name, conc, c.kind(t.Body, s.with(nil, nil, t.Vars), pos))
	}
	return nil
}

// sortOf checks Θ ⊢ ι :: γ (Fig 8): every index variable is bound.
func (c *checker) sortOf(ix Index, s *scope, pos semantics.Pos) *semantics.Derivation {
	check := func(x string) *semantics.Derivation {
		if !s.hasI(x) {
			typeErr(pos, RuleSVar.Name, "unbound index variable %s", x)
		}
		return c.d.Node(RuleSVar.Name, func() string { return x + " :: " + SortOf(x) })
	}
	nat := func(n Nat) *semantics.Derivation {
		var ds []*semantics.Derivation
		for _, v := range n.Vars {
			ds = append(ds, check(v))
		}
		rule := RuleSNat.Name
		if len(n.Vars) > 1 || len(n.Vars) == 1 && n.Const != 0 {
			rule = RuleSPlus.Name
		} else if len(n.Vars) == 1 {
			return ds[0]
		}
		return c.d.Node(rule, func() string { return n.String() + " :: Nat" }, ds...)
	}
	if !ix.IsShape {
		return nat(ix.N)
	}
	var ds []*semantics.Derivation
	hasVar := false
	for _, it := range ix.S {
		if it.Var != "" {
			hasVar = true
			ds = append(ds, check(it.Var))
		} else {
			ds = append(ds, nat(it.Dim))
		}
	}
	rule := RuleSShape.Name
	if hasVar && len(ix.S) > 1 {
		rule = RuleSAppend.Name
	} else if hasVar {
		return ds[0]
	}
	return c.d.Node(rule, func() string { return ix.S.String() + " :: Shape" }, ds...)
}

// renameShadowed renames the binders vars of body that shadow a type
// variable (index variable, when index is set) already in scope. Types in
// Γ may mention the outer variable; a binder of the same name would
// otherwise capture it when T-TAPP, T-IAPP or proj substitutes for the
// inner one (Fig 7 assumes the Barendregt convention).
func renameShadowed(vars []string, body Expr, s *scope, index bool) ([]string, Expr) {
	var ren TypeSubst
	out := vars
	for i, v := range vars {
		if index && !s.hasI(v) || !index && !s.hasT(v) {
			continue
		}
		if ren.Types == nil && ren.Indices == nil {
			out = append([]string{}, vars...)
			ren.Types, ren.Indices = map[string]Type{}, Subst{}
		}
		f := Fresh(v)
		out[i] = f
		switch {
		case !index:
			ren.Types[v] = &TVar{Name: f}
		case IsShapeVar(v):
			ren.Indices[v] = ShapeIndex(ShapeVar(f))
		default:
			ren.Indices[v] = NatIndex(NatVar(f))
		}
	}
	if ren.Types == nil {
		return vars, body
	}
	return out, substExpr(body, nil, ren)
}

// arrayTypeString prints an array type so that a scalar array type is not
// mistaken for its atom type: (Arr int []), not int.
func arrayTypeString(t Type) string {
	if a, ok := t.(*Arr); ok && len(a.Shape) == 0 {
		return "(Arr " + TypeString(a.Elem) + " [])"
	}
	return TypeString(t)
}

// indicesCount is "1 index", "2 indices".
func indicesCount(n int) string {
	if n == 1 {
		return "1 index"
	}
	return fmt.Sprintf("%d indices", n)
}
