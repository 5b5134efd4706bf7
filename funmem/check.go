package funmem

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// CheckOptions configure the checker.
type CheckOptions struct {
	Paper   bool // refuse the extensions (inputs, scalar results)
	Derive  bool
	Counter semantics.Counter
}

// Info is what the checker learns about a well-typed program.
type Info struct {
	Results    []fun.Type
	Derivation *semantics.Derivation
}

// ResultString renders the program's type.
func (in *Info) ResultString() string {
	parts := make([]string, len(in.Results))
	for i, t := range in.Results {
		parts[i] = t.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Check type checks a FUNMEM program by the rules of Fig 8. As in FUN, no
// name may be bound twice along a path of scopes.
//
// The rules as printed need three readings (ERRATA.md): T-MEM-SLICE's
// result has the slice sizes [y2]…[y2n]; T-MEM-KERNEL checks the body's
// result against the item type by shape only, since E-MEM-KERNEL copies it
// into place whatever its memory; and LMADs are compared as polynomials,
// so that 0 + {(n : 1)} is R(n).
func Check(p *fun.Program, opts *CheckOptions) (*Info, error) {
	if opts == nil {
		opts = &CheckOptions{}
	}
	return checkers.Get().(*checker).check(p, opts)
}

// check is Check with c, a new checker or one release put back.
func (c *checker) check(p *fun.Program, opts *CheckOptions) (*Info, error) {
	c.opts, c.funOpts = opts, nil // FUN's options are made from opts
	d, results, err := c.program(p)
	if err != nil {
		return nil, err // c may hold bindings: it is not used again
	}
	for _, in := range p.Inputs {
		c.env.Remove(in.Name.Name)
	}
	c.release()
	return &Info{Results: results, Derivation: d}, nil
}

// checkers holds the checkers of the checks done, their Γ, definitions
// and undo stack empty again, for the next check: the campaigns check
// every pass's output, and making Γ and the maps anew was a tenth of
// the checker's time. A checker is only scratch space: what one check
// leaves in it (nothing, once release has looked) changes nothing.
var checkers = sync.Pool{New: func() any { return newChecker() }}

// newChecker is a checker with nothing in scope (Γ grows as it must).
func newChecker() *checker {
	return &checker{env: fun.NewScopeSized("FUNMEM", 64), lets: map[string]letDef{}, undo: make([]undoEntry, 0, 128)}
}

// release puts c back in checkers if a successful check left it as it
// found it: Γ empty, no definition and no undo entry left (it should
// always have; a checker that did not is dropped).
func (c *checker) release() {
	if c.env.Len() != 0 || len(c.undo) != 0 || len(c.lets) != 0 {
		return
	}
	c.opts, c.funOpts = nil, nil
	clear(c.subst)
	clear(c.types[:cap(c.types)])
	checkers.Put(c)
}

type checker struct {
	opts *CheckOptions
	env  *fun.Scope // Γ, shared with FUN's checker: no name bound twice
	// lets holds the int let-bindings in scope, as written: FUNMEM is in
	// A-normal form, so an LMAD often names a variable bound to the
	// expression another LMAD writes out (Support's offsets, sizes).
	// With each, its definition expanded and its normal form, made when
	// first asked for (letDef).
	lets map[string]letDef
	// undo is the stack of bindings the statements checked so far made
	// (stmBind), taken back as their bodies end (stms).
	undo []undoEntry
	// funOpts are the options FUN's checker types scalar expressions with.
	funOpts *fun.CheckOptions
	// subst is T-MEM-RESULT's renaming of the body whose results are
	// being checked (body).
	subst map[string]string
	// types holds the types of the results of the body stms checks.
	types []fun.Type
	// loopSubst are T-MEM-LOOP's two renamings (renamings).
	loopSubst [2]map[string]string
}

// renamings are two empty maps for T-MEM-LOOP's renamings of its
// parameters, the same two at every loop: a loop is done with them
// before it checks its body, where the next loop is.
func (c *checker) renamings() (map[string]string, map[string]string) {
	for i, m := range c.loopSubst {
		if m == nil {
			c.loopSubst[i] = map[string]string{}
		}
		clear(c.loopSubst[i])
	}
	return c.loopSubst[0], c.loopSubst[1]
}

// A letDef is an int let in scope: its definition as written, and that
// definition expanded and its normal form, each made when first asked
// for (most lets are never compared), so that comparing LMADs normalises
// each definition once, not at every comparison. What a let's variables
// stand for cannot change while it is in scope (no name is bound twice),
// so it does not matter when. One map entry holds the three, so that a
// let is bound and taken back with one map operation each.
type letDef struct {
	e, def  fun.SExp // def nil until made
	poly    Poly
	hasPoly bool
}

// poly is the normal form of x's definition (polyScope).
func (c *checker) poly(x string) (Poly, bool) {
	l, ok := c.lets[x]
	if !ok {
		return Poly{}, false
	}
	if l.hasPoly {
		return l.poly, true
	}
	p := normalizeIn(l.e, c)
	l = c.lets[x] // as normalizeIn left it
	l.poly, l.hasPoly = p, true
	c.lets[x] = l
	return p, true
}

// def is x's definition expanded, or nil when x is no int let in scope.
func (c *checker) def(x string) fun.SExp {
	l, ok := c.lets[x]
	if !ok {
		return nil
	}
	if l.def != nil {
		return l.def
	}
	d := c.expand(l.e)
	l = c.lets[x] // as expand left it
	l.def = d
	c.lets[x] = l
	return d
}

// expand replaces let-bound scalar variables by their definitions.
func (c *checker) expand(e fun.SExp) fun.SExp {
	return fun.Substitute(e, func(x *fun.Ident) fun.SExp { return c.def(x.Name) })
}

// same is equality of scalar expressions as polynomials, modulo the
// definitions in scope. Expressions written alike are equal without
// expanding and normalising them (the LMADs the rules compute are mostly
// the ones declared, letter for letter).
func (c *checker) same(a, b fun.SExp) bool {
	return sameText(a, b) || c.samePoly(a, b, nil)
}

// samePoly is normalizeIn(a, c).Equal(normalizeIn(fun.RenameSExp(b,
// subst), c)). Most of what the checker compares so are a variable and a
// constant, or two variables (an LMAD's offset 0 and the offset
// parameter of a fold's operand, a size and the size it is renamed to):
// those are compared by their names and the definitions in scope,
// without making the polynomial of a variable that has none.
func (c *checker) samePoly(a, b fun.SExp, subst map[string]string) bool {
	pa, xa, _ := c.leaf(a, nil)
	pb, xb, ok := c.leaf(b, subst)
	if !ok && subst != nil {
		pb = c.renamedPoly(b, subst)
	}
	switch {
	case xa != "" && xb != "":
		return xa == xb
	case xa != "":
		return isFactor(pb, xa)
	case xb != "":
		return isFactor(pa, xb)
	}
	return pa.Equal(pb)
}

// leaf is the normal form p of e, or for a variable (renamed by subst)
// that is no int let in scope only its name x (its normal form is the
// factor x). ok is false, and p nothing, for an expression that is no
// constant or variable when subst renames.
func (c *checker) leaf(e fun.SExp, subst map[string]string) (p Poly, x string, ok bool) {
	switch e := e.(type) {
	case *fun.Const:
		return constPoly(e.Value), "", true
	case fun.Var:
		name := e.Name
		if y, ok := subst[name]; ok {
			name = y
		}
		if p, ok := c.poly(name); ok {
			return p, "", true
		}
		return Poly{}, name, true
	}
	if subst == nil {
		return normalizeIn(e, c), "", true
	}
	return Poly{}, "", false
}

// isFactor reports whether p is the normal form of the variable x alone
// (factorPoly's: the monomial x with coefficient 1).
func isFactor(p Poly, x string) bool {
	return len(p.terms) == 1 && p.terms[0].key == x && p.terms[0].c == 1
}

// sameText reports whether two scalar expressions of ints are the same
// tree: the same variables, constants and operators.
func sameText(a, b fun.SExp) bool {
	switch a := a.(type) {
	case fun.Var:
		b, ok := b.(fun.Var)
		return ok && a.Name == b.Name
	case *fun.Const:
		b, ok := b.(*fun.Const)
		return ok && a.Value == b.Value
	case *fun.BinOp:
		b, ok := b.(*fun.BinOp)
		return ok && a.Op == b.Op && sameText(a.L, b.L) && sameText(a.R, b.R)
	case *fun.UnOp:
		b, ok := b.(*fun.UnOp)
		return ok && a.Op == b.Op && sameText(a.X, b.X)
	}
	return false
}

func (c *checker) errorf(pos fun.Pos, rule, format string, args ...any) error {
	return semantics.Errorf(pos, semantics.TypeError, rule, format, args...)
}

func (c *checker) node(rule, concl string, premises ...*semantics.Derivation) *semantics.Derivation {
	return semantics.Deriver{Derive: c.opts.Derive, Counter: c.opts.Counter}.Node(rule, func() string { return concl }, premises...)
}

// remove takes x out of Γ again (add's undo).
func (c *checker) remove(x *fun.Ident) { c.env.Remove(x.Name) }

// add adds x : t to Γ (stmBind keeps its bindings on the undo stack;
// the rules that bind for a body remove them when it is done).
func (c *checker) add(rule string, x *fun.Ident, t fun.Type) error {
	if c.opts.Paper && t.Elem == semantics.FloatElem {
		return c.errorf(x.NamePos, rule, "%s : %s: floats are an extension (refused in paper mode)", x.Name, t)
	}
	return c.env.Add(rule, x, t)
}

func (c *checker) lookup(rule string, x *fun.Ident, what string) (fun.Type, error) {
	return c.env.Lookup(rule, x, what)
}

func (c *checker) lookupInt(rule string, x *fun.Ident, what string) error {
	return c.env.LookupInt(rule, x, what)
}

func (c *checker) lookupArray(rule string, x *fun.Ident) (fun.Type, *ArrayMem, error) {
	t, err := c.lookup(rule, x, "array")
	if err != nil {
		return t, nil, err
	}
	a := ArrayOf(t)
	if a == nil {
		return t, nil, c.errorf(x.NamePos, rule, "%s has type %s, not an array type", x.Name, t)
	}
	return t, a, nil
}

// sexpType is Γ ⊢ se : τ with FUN's rules (T-CONST, T-VAR, T-OP, and the
// floats' T-FLOAT and T-CALL): τ is int or float, and mixing the two is
// refused as FUN refuses it (fun.TypeOfSExp).
func (c *checker) sexpType(e fun.SExp) (semantics.Elem, error) {
	if c.funOpts == nil { // FUN's options, made once per check
		c.funOpts = &fun.CheckOptions{Paper: c.opts.Paper, Counter: c.opts.Counter}
	}
	el, _, err := fun.TypeOfSExp(c.env, e, c.funOpts)
	return el, err
}

// sexp is Γ ⊢ se : int, for the places that take ints (sizes, assert
// conditions): se may compute with floats, but its value is an int.
// rule names the form that asks for the int.
func (c *checker) sexp(rule string, e fun.SExp) error {
	el, err := c.sexpType(e)
	if err != nil {
		return err
	}
	if el != semantics.IntElem {
		return c.errorf(e.Pos(), rule, "%s has type %s, but must be an int", fun.PrintSExp(e), el)
	}
	return nil
}

// wellFormed is Γ ⊢ τ (T-MEM-INT, T-MEM-ARRAY, T-MEM-LMAD), where the
// pattern pat may bind sizes, blocks and LMAD variables (as T-MEM-IF's
// Γ, p̄ ⊢ τ allows) when patternMayBind.
func (c *checker) wellFormed(rule string, p *fun.Param, pat []*fun.Param, patternMayBind bool) error {
	t := p.Type
	if c.opts.Paper && t.Elem == semantics.FloatElem {
		return c.errorf(p.Lparen, rule, "%s : %s: floats are an extension (refused in paper mode)", p.Name.Name, t)
	}
	if t.IsScalar() || IsMem(t) {
		c.opts.Counter.Hit(TMemInt.Name)
		return nil
	}
	a := ArrayOf(t)
	if a == nil {
		return c.errorf(p.Lparen, rule, "%s has type %s, which is not a FUNMEM type (arrays say where they live: @ m -> L)", p.Name.Name, t)
	}
	typeOf := func(x *fun.Ident) (fun.Type, bool) {
		if patternMayBind {
			// The pattern's own names, the last of a name first (as a map
			// filled in order would give it).
			for i := len(pat) - 1; i >= 0; i-- {
				if pat[i].Name.Name == x.Name {
					return pat[i].Type, true
				}
			}
		}
		return c.env.TypeOf(x)
	}
	needInt := func(x *fun.Ident, what string) error {
		tt, ok := typeOf(x)
		if !ok {
			return c.errorf(x.NamePos, rule, "%s %s is not in scope", what, x.Name)
		}
		if !tt.IsInt() {
			return c.errorf(x.NamePos, rule, "%s %s has type %s, not int", what, x.Name, tt)
		}
		return nil
	}
	for _, d := range t.Dims {
		if err := needInt(d, "size variable"); err != nil {
			return err
		}
	}
	// T-MEM-ARRAY: (x_mem : mem) ∈ Γ.
	bt, ok := typeOf(a.Block)
	if !ok {
		return c.errorf(a.Block.NamePos, TMemArray.Name, "memory block %s is not in scope", a.Block.Name)
	}
	if !IsMem(bt) {
		return c.errorf(a.Block.NamePos, TMemArray.Name, "%s has type %s, not mem", a.Block.Name, bt)
	}
	// T-MEM-LMAD: L = se + {(x1 : y1) … (xn : yn)} with FV(L) ints in Γ.
	if a.Index.IsRowMajor() && c.rowMajorHolds(t, a.Index.RowMajor, needInt) {
		c.opts.Counter.Hit(TMemLMAD.Name)
		c.opts.Counter.Hit(TMemArray.Name)
		return nil
	}
	off, dims := a.Index.LMAD()
	if len(dims) != len(t.Dims) {
		return c.errorf(a.Index.Pos, TMemLMAD.Name, "the LMAD %s has %d dimensions, but the array has %d", a.Index, len(dims), len(t.Dims))
	}
	for i, d := range dims {
		if !c.same(d.Elems, fun.Var{Ident: t.Dims[i]}) {
			return c.errorf(a.Index.Pos, TMemLMAD.Name, "the LMAD %s gives dimension %d %s elements, but the array has %s", a.Index, i+1, fun.PrintSExp(d.Elems), t.Dims[i].Name)
		}
	}
	// The variables of the offset, of each dimension's size and stride,
	// and of R's sizes, in that order, gathered in one buffer.
	var buf [16]*fun.Ident
	xs := fun.FreeVars(off, buf[:0])
	for _, d := range dims {
		xs = fun.FreeVars(d.Stride, fun.FreeVars(d.Elems, xs))
	}
	if a.Index.IsRowMajor() {
		for _, e := range a.Index.RowMajor {
			xs = fun.FreeVars(e, xs)
		}
	}
	for _, x := range xs {
		if err := needInt(x, "LMAD variable"); err != nil {
			var se *semantics.Error
			if errors.As(err, &se) { // reported by T-MEM-LMAD, not by the rule needInt names
				return semantics.Errorf(x.NamePos, semantics.TypeError, TMemLMAD.Name, "%s", se.Msg)
			}
			return err
		}
	}
	// Its variables ints, an LMAD's expressions are ints unless they hold
	// a float constant or a float function (an extension's): 0 + {(n :
	// 1.5)} passed, and FunMemToImp wrote j * 1.5 as an address.
	var sbuf [9]fun.SExp // rank 4 without allocating
	ses := append(sbuf[:0], off)
	for _, d := range dims {
		ses = append(ses, d.Elems, d.Stride)
	}
	for _, se := range ses {
		var bad fun.SExp
		fun.Inspect(se, func(n fun.Node) bool {
			switch n := n.(type) {
			case *fun.FloatConst, *fun.Call:
				if bad == nil {
					bad = n.(fun.SExp)
				}
				return false
			}
			return bad == nil
		})
		if bad != nil {
			return c.errorf(bad.Pos(), TMemLMAD.Name, "the LMAD %s holds %s, a float: offsets, sizes and strides are ints", a.Index, fun.PrintSExp(bad))
		}
	}
	c.opts.Counter.Hit(TMemLMAD.Name)
	c.opts.Counter.Hit(TMemArray.Name)
	return nil
}

// rowMajorHolds reports whether T-MEM-LMAD holds of R(rs), the LMAD of
// an array of type t, without expanding R (LMAD), which every array type
// of a program would: R's sizes are t's, their variables ints (needInt),
// and none holds a float. Its strides are products of the sizes, with no
// variable, float constant or call of their own, and its offset is 0:
// then the premises over the expanded LMAD hold too. When false, the
// premises are checked over it, so that a failure reads as it does.
func (c *checker) rowMajorHolds(t fun.Type, rs []fun.SExp, needInt func(*fun.Ident, string) error) bool {
	if len(rs) != len(t.Dims) {
		return false
	}
	for i, r := range rs {
		if !c.same(r, fun.Var{Ident: t.Dims[i]}) {
			return false
		}
	}
	var buf [16]*fun.Ident
	xs := buf[:0]
	for _, r := range rs {
		xs = fun.FreeVars(r, xs)
	}
	for _, x := range xs {
		if needInt(x, "LMAD variable") != nil {
			return false
		}
	}
	for _, r := range rs {
		if mayHoldFloat(r) {
			return false
		}
	}
	return true
}

// mayHoldFloat reports whether e may hold a float constant or a call
// (true for an expression of a kind it does not know).
func mayHoldFloat(e fun.SExp) bool {
	switch e := e.(type) {
	case fun.Var, *fun.Const:
		return false
	case *fun.BinOp:
		return mayHoldFloat(e.L) || mayHoldFloat(e.R)
	case *fun.UnOp:
		return mayHoldFloat(e.X)
	}
	return true
}

// sameType is type equality, LMADs compared as polynomials modulo the
// definitions in scope; subst renames variables of want first
// (T-MEM-RESULT's S). Scalars and arrays have an element type (int or
// float) that must be the same too.
func (c *checker) sameType(have, want fun.Type, subst map[string]string) bool {
	ren := func(x *fun.Ident) string {
		if s, ok := subst[x.Name]; ok {
			return s
		}
		return x.Name
	}
	if have.IsScalar() || want.IsScalar() || IsMem(have) || IsMem(want) {
		return have.IsScalar() == want.IsScalar() && IsMem(have) == IsMem(want) && have.Elem == want.Elem
	}
	ha, wa := ArrayOf(have), ArrayOf(want)
	if ha == nil || wa == nil || have.Elem != want.Elem || len(have.Dims) != len(want.Dims) || ha.Block.Name != ren(wa.Block) {
		return false
	}
	for i := range have.Dims {
		if have.Dims[i].Name != ren(want.Dims[i]) {
			return false
		}
	}
	// same(h, S(w)): the renamed tree is built only when the two are
	// not written alike (sameTextRenamed), as most LMADs are.
	same := func(h, w fun.SExp) bool {
		if len(subst) == 0 {
			return c.same(h, w)
		}
		return sameTextRenamed(h, w, subst) || c.samePoly(h, w, subst)
	}
	// R(a1, …, an) and R(b1, …, bn) are the same LMAD exactly when each
	// a_i is b_i: their offsets are 0, and their strides products of
	// their sizes (the same polynomials when the sizes are). So R(…) is
	// not expanded for it.
	if hr, wr := ha.Index.RowMajor, wa.Index.RowMajor; hr != nil && wr != nil && len(hr) == len(wr) {
		for i := range hr {
			if !same(hr[i], wr[i]) {
				return false
			}
		}
		return true
	}
	ho, hd := ha.Index.LMAD()
	wo, wd := wa.Index.LMAD()
	if len(hd) != len(wd) || !same(ho, wo) {
		return false
	}
	for i := range hd {
		if !same(hd[i].Elems, wd[i].Elems) || !same(hd[i].Stride, wd[i].Stride) {
			return false
		}
	}
	return true
}

// renamedPoly is normalizeIn(fun.RenameSExp(w, subst), c). A variable,
// as most of what T-MEM-RESULT compares are (an LMAD's parameters, named
// by the body's lets), is renamed without building the renamed tree.
func (c *checker) renamedPoly(w fun.SExp, subst map[string]string) Poly {
	v, ok := w.(fun.Var)
	if !ok {
		return normalizeIn(fun.RenameSExp(w, subst), c)
	}
	y, ok := subst[v.Name]
	if !ok {
		return normalizeIn(w, c)
	}
	if p, ok := c.poly(y); ok {
		return p
	}
	return factorPoly(y, fun.Var{Ident: &fun.Ident{Name: y, NamePos: v.NamePos}})
}

// sameTextRenamed is sameText(a, fun.RenameSExp(b, subst)), without
// building the renamed tree.
func sameTextRenamed(a, b fun.SExp, subst map[string]string) bool {
	switch a := a.(type) {
	case fun.Var:
		b, ok := b.(fun.Var)
		if !ok {
			return false
		}
		name := b.Name
		if y, ok := subst[name]; ok {
			name = y
		}
		return a.Name == name
	case *fun.Const:
		b, ok := b.(*fun.Const)
		return ok && a.Value == b.Value
	case *fun.BinOp:
		b, ok := b.(*fun.BinOp)
		return ok && a.Op == b.Op && sameTextRenamed(a.L, b.L, subst) && sameTextRenamed(a.R, b.R, subst)
	case *fun.UnOp:
		b, ok := b.(*fun.UnOp)
		return ok && a.Op == b.Op && sameTextRenamed(a.X, b.X, subst)
	}
	return false
}

func (c *checker) single(rule string, s *fun.Stm) (*fun.Param, error) {
	if len(s.Pat) != 1 {
		return nil, c.errorf(s.Pat[1].Lparen, rule, "this expression gives one value, but the pattern binds %d", len(s.Pat))
	}
	return s.Pat[0], nil
}

func (c *checker) expect(rule string, p *fun.Param, want fun.Type) error {
	if !c.sameType(p.Type, want, nil) {
		return c.errorf(p.Lparen, rule, "%s is declared %s, but the expression has type %s", p.Name.Name, p.Type, want)
	}
	return nil
}

func (c *checker) program(p *fun.Program) (*semantics.Derivation, []fun.Type, error) {
	rule := TMemProg.Name
	if c.opts.Paper && len(p.Inputs) > 0 {
		return nil, nil, c.errorf(p.Inputs[0].Lparen, rule, "input declarations are an extension (refused in paper mode)")
	}
	for _, in := range p.Inputs {
		if err := c.add(rule, in.Name, in.Type); err != nil {
			return nil, nil, err
		}
	}
	for _, in := range p.Inputs {
		if err := c.wellFormed(rule, in, p.Inputs, true); err != nil {
			if c.opts.Derive { // T-MEM-PROG over the input's failing premise
				err = semantics.Failing(err, &semantics.Derivation{Rule: rule, Conclusion: "⊢ …",
					Premises: []*semantics.Derivation{semantics.FailedAt(err, "Γ ⊢ input "+fun.PrintParam(in), rule)}})
			}
			return nil, nil, err
		}
	}
	// T-MEM-PROG: the results come in pairs (x_mem : mem) (x : [k]… @ x_mem -> R(k…)),
	// so that validity (Def 3.1) can read each block as a row-major array.
	// They are checked where the body's statements are in scope, as the
	// premise • ⊢ p̄ ← b has them.
	d, results, err := c.stms(p.Body, func(results []fun.Type) error {
		for i := 0; i < len(results); i++ {
			x := p.Body.Result[i]
			switch {
			case IsMem(results[i]):
				if i+1 == len(results) || ArrayOf(results[i+1]) == nil || ArrayOf(results[i+1]).Block.Name != x.Name {
					return c.errorf(x.NamePos, rule, "result %s is a memory block not followed by an array in it", x.Name)
				}
			case ArrayOf(results[i]) != nil:
				t := results[i]
				a := ArrayOf(t)
				if i == 0 || p.Body.Result[i-1].Name != a.Block.Name {
					return c.errorf(x.NamePos, rule, "result %s must be preceded by its memory block %s", x.Name, a.Block.Name)
				}
				if !c.rowMajor(t) {
					return c.errorf(x.NamePos, rule, "result %s has index function %s; a program's results are row-major with offset 0 (R(…))", x.Name, a.Index)
				}
			default:
				if c.opts.Paper {
					return c.errorf(x.NamePos, rule, "result %s is a scalar; the paper's programs return arrays (refused in paper mode)", x.Name)
				}
			}
		}
		return nil
	})
	if err != nil {
		if c.opts.Derive {
			err = semantics.FailedJudgement(err, "⊢ …", rule)
		}
		return nil, nil, err
	}
	results = slices.Clone(results) // stms' list is the next body's
	// The conclusion is printed only for a derivation, as stmRule's.
	concl := ""
	if c.opts.Derive {
		concl = "⊢ … : " + (&Info{Results: results}).ResultString()
	}
	return c.node(rule, concl, d), results, nil
}

// rowMajor reports whether an array type's LMAD is R of its dimensions.
func (c *checker) rowMajor(t fun.Type) bool {
	a := ArrayOf(t)
	sizes := make([]fun.SExp, len(t.Dims))
	for i, d := range t.Dims {
		sizes[i] = fun.Var{Ident: d}
	}
	r := fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &ArrayMem{Block: a.Block, Index: &IndexFn{RowMajor: sizes}}}
	return c.sameType(t, r, nil)
}

// stmBind checks a statement and binds its pattern (and, for a let of an
// int, its definition) on c's undo stack, which the enclosing stms
// unwinds when its body is done.
func (c *checker) stmBind(s *fun.Stm) (*semantics.Derivation, error) {
	d, err := c.stm(s)
	if err != nil {
		return nil, err
	}
	mark := len(c.undo)
	for _, p := range s.Pat {
		if err := c.add(TMemStm.Name, p.Name, p.Type); err != nil {
			c.unwind(mark)
			return nil, err
		}
		c.undo = append(c.undo, undoEntry{name: p.Name.Name})
	}
	if e, ok := s.Exp.(*fun.ScalarExp); ok && s.Pat[0].Type.IsInt() { // LMADs mention ints only
		name := s.Pat[0].Name.Name
		c.lets[name] = letDef{e: e.X}
		c.undo = append(c.undo, undoEntry{name: name, def: true})
	}
	return d, nil
}

// An undoEntry takes back one binding stmBind made: a name in Γ, or
// (def) a definition in lets.
type undoEntry struct {
	name string
	def  bool
}

// unwind takes back the bindings made since the undo stack had mark
// entries, the last first.
func (c *checker) unwind(mark int) {
	for i := len(c.undo) - 1; i >= mark; i-- {
		if e := c.undo[i]; !e.def {
			c.env.Remove(e.name)
		} else {
			delete(c.lets, e.name)
		}
		c.undo[i] = undoEntry{}
	}
	c.undo = c.undo[:mark]
}

// stm is Γ ⊢ s. With derivations asked for, its error carries the
// derivation down to the rule that failed: the rule of s over what its
// body's error carries (a kernel's, an if's, a fold's), or the failing
// rule as a leaf.
func (c *checker) stm(s *fun.Stm) (*semantics.Derivation, error) {
	d, err := c.stmRule(s)
	if err != nil && c.opts.Derive {
		rule := map[string]string{"*fun.IfExp": TMemIf.Name, "*fun.KernelExp": TMemKernel.Name, "*fun.LoopExp": TMemLoop.Name,
			"*fun.ReduceExp": TMemReduce.Name, "*fun.ScanExp": TMemScan.Name, "*fun.FilterExp": TMemFilter.Name}[fmt.Sprintf("%T", s.Exp)]
		if r, ok := s.Exp.(*fun.RedomapExp); ok {
			rule = TMemRedomap.Name
			if r.Scan {
				rule = TMemScanomap.Name
			}
		}
		if rule == "" {
			rule = TMemStm.Name
		}
		err = semantics.FailedJudgement(err, stmConclusion(s), rule)
	}
	return d, err
}

// stmConclusion is Γ ⊢ s as a derivation shows it: the statement up to
// its body.
func stmConclusion(s *fun.Stm) string {
	return "Γ ⊢ " + strings.SplitN(fun.PrintStm(s, true), " do ", 2)[0]
}

// stmRule is Γ ⊢ s by the rule of s's expression.
func (c *checker) stmRule(s *fun.Stm) (*semantics.Derivation, error) {
	// The conclusion prints the statement (its bodies too): only a
	// derivation shows it, so it is printed only when one is built.
	concl := ""
	if c.opts.Derive {
		concl = stmConclusion(s)
	}
	switch e := s.Exp.(type) {
	case *fun.ScalarExp:
		rule := TMemScalar.Name
		p, err := c.single(rule, s)
		if err != nil {
			return nil, err
		}
		el, err := c.sexpType(e.X)
		if err != nil {
			return nil, err
		}
		if !p.Type.IsScalar() || p.Type.Elem != el {
			return nil, c.errorf(p.Lparen, rule, "%s is declared %s, but a scalar expression has type %s", p.Name.Name, p.Type, el)
		}
		return c.node(rule, concl), nil

	case *AllocExp:
		rule := TMemAlloc.Name
		p, err := c.single(rule, s)
		if err != nil {
			return nil, err
		}
		if err := c.sexp(rule, e.Size); err != nil {
			return nil, err
		}
		if !IsMem(p.Type) {
			return nil, c.errorf(p.Lparen, rule, "%s is declared %s, but alloc gives a block of type mem", p.Name.Name, p.Type)
		}
		return c.node(rule, concl), nil

	case *fun.IndexExp:
		rule := TMemIndex.Name
		p, err := c.single(rule, s)
		if err != nil {
			return nil, err
		}
		t, _, err := c.lookupArray(rule, e.Arr)
		if err != nil {
			return nil, err
		}
		if len(e.Idx) != len(t.Dims) {
			return nil, c.errorf(e.Arr.NamePos, rule, "%s has rank %d but is indexed with %d indices", e.Arr.Name, len(t.Dims), len(e.Idx))
		}
		for _, y := range e.Idx {
			if err := c.lookupInt(rule, y, "index"); err != nil {
				return nil, err
			}
		}
		if !p.Type.IsScalar() || p.Type.Elem != t.Elem {
			return nil, c.errorf(p.Lparen, rule, "%s is declared %s, but indexing gives %s", p.Name.Name, p.Type, t.Elem)
		}
		return c.node(rule, concl), nil

	case *fun.IfExp:
		rule := TMemIf.Name
		if err := c.lookupInt(rule, e.Cond, "condition"); err != nil {
			return nil, err
		}
		if err := c.patternNames(rule, s.Pat); err != nil {
			return nil, err
		}
		for _, p := range s.Pat {
			if err := c.wellFormed(rule, p, s.Pat, true); err != nil {
				return nil, err
			}
		}
		d1, _, err := c.body(s.Pat, e.Then)
		if err != nil {
			return nil, err
		}
		d2, _, err := c.body(s.Pat, e.Else)
		if err != nil {
			if c.opts.Derive { // the branch that held, then the one that failed
				err = semantics.FailedJudgement(err, concl, rule, d1)
			}
			return nil, err
		}
		return c.node(rule, concl, d1, d2), nil

	case *fun.TransposeExp:
		rule := TMemTranspose.Name
		p, err := c.single(rule, s)
		if err != nil {
			return nil, err
		}
		t, a, err := c.lookupArray(rule, e.Arr)
		if err != nil {
			return nil, err
		}
		if len(t.Dims) != 2 {
			return nil, c.errorf(e.Arr.NamePos, rule, "transpose needs an array of rank 2, but %s has type %s", e.Arr.Name, t)
		}
		off, dims := a.Index.LMAD()
		want := fun.Type{Dims: []*fun.Ident{t.Dims[1], t.Dims[0]}, Elem: t.Elem,
			Ext: &ArrayMem{Block: a.Block, Index: &IndexFn{Offset: off, Dims: []LDim{dims[1], dims[0]}}}}
		if err := c.expect(rule, p, want); err != nil {
			return nil, err
		}
		return c.node(rule, concl), nil

	case *fun.SliceExp:
		rule := TMemSlice.Name
		p, err := c.single(rule, s)
		if err != nil {
			return nil, err
		}
		t, a, err := c.lookupArray(rule, e.Arr)
		if err != nil {
			return nil, err
		}
		if len(e.Slices) != len(t.Dims) {
			return nil, c.errorf(e.Arr.NamePos, rule, "%s has rank %d but is sliced in %d dimensions", e.Arr.Name, len(t.Dims), len(e.Slices))
		}
		var sizes []*fun.Ident
		for _, sl := range e.Slices {
			if err := c.lookupInt(rule, sl.Off, "slice offset"); err != nil {
				return nil, err
			}
			if err := c.lookupInt(rule, sl.Size, "slice size"); err != nil {
				return nil, err
			}
			sizes = append(sizes, sl.Size)
		}
		want := fun.Type{Dims: sizes, Elem: t.Elem, Ext: &ArrayMem{Block: a.Block, Index: SliceF(a.Index, e.Slices)}}
		if err := c.expect(rule, p, want); err != nil {
			return nil, err
		}
		return c.node(rule, concl), nil

	case *fun.KernelExp:
		rule := TMemKernel.Name
		p, err := c.single(rule, s)
		if err != nil {
			return nil, err
		}
		if err := c.lookupInt(rule, e.Bound, "kernel bound"); err != nil {
			return nil, err
		}
		if ArrayOf(p.Type) == nil || p.Type.Dims[0].Name != e.Bound.Name {
			return nil, c.errorf(p.Lparen, rule, "a kernel of bound %s gives an array of type [%s]… @ m -> L, but %s is declared %s", e.Bound.Name, e.Bound.Name, p.Name.Name, p.Type)
		}
		if err := c.wellFormed(rule, p, nil, false); err != nil { // Γ ⊢ [y]τ
			return nil, err
		}
		if err := c.add(rule, e.Var, fun.Type{}); err != nil {
			return nil, err
		}
		defer c.remove(e.Var)
		d, err := c.kernelBody(p, e.Body)
		if err != nil {
			return nil, err
		}
		return c.node(rule, concl, d), nil

	case *fun.IotaExp:
		rule := TMemIota.Name
		p, err := c.single(rule, s)
		if err != nil {
			return nil, err
		}
		if err := c.lookupInt(rule, e.N, "iota's argument"); err != nil {
			return nil, err
		}
		if ArrayOf(p.Type) == nil || len(p.Type.Dims) != 1 || p.Type.Dims[0].Name != e.N.Name || p.Type.Elem != semantics.IntElem {
			return nil, c.errorf(p.Lparen, rule, "iota %s gives [%s] @ m -> L, but %s is declared %s", e.N.Name, e.N.Name, p.Name.Name, p.Type)
		}
		if err := c.wellFormed(rule, p, nil, false); err != nil {
			return nil, err
		}
		return c.node(rule, concl), nil

	case *fun.CopyExp:
		rule := TMemCopy.Name
		p, err := c.single(rule, s)
		if err != nil {
			return nil, err
		}
		t, _, err := c.lookupArray(rule, e.Arr)
		if err != nil {
			return nil, err
		}
		if ArrayOf(p.Type) == nil || !p.Type.Same(t) {
			return nil, c.errorf(p.Lparen, rule, "copy %s gives %s @ m -> L, but %s is declared %s", e.Arr.Name, fun.Type{Dims: t.Dims, Elem: t.Elem}, p.Name.Name, p.Type)
		}
		if err := c.wellFormed(rule, p, nil, false); err != nil {
			return nil, err
		}
		return c.node(rule, concl), nil
	}
	if d, ok, err := c.stmExt(s, concl); ok {
		return d, err
	}
	return nil, c.errorf(s.Exp.Pos(), TMemStm.Name, "unknown expression %T", s.Exp)
}

func (c *checker) patternNames(rule string, pat []*fun.Param) error {
	// Patterns are short: each name is compared with those before it
	// rather than kept in a map made per pattern.
	for i, p := range pat {
		for _, q := range pat[:i] {
			if q.Name.Name == p.Name.Name {
				return c.errorf(p.Name.NamePos, rule, "%s is bound twice in this pattern", p.Name.Name)
			}
		}
	}
	return nil
}

// kernelBody checks Γ, (x : int) ⊢ (z : τ) ← b where τ is the item type
// of the kernel's array: the body's result must have τ's shape (an int, or
// an array of the item sizes) in any memory, since E-MEM-KERNEL copies it.
func (c *checker) kernelBody(p *fun.Param, b *fun.Body) (*semantics.Derivation, error) {
	d, _, err := c.stms(b, func(types []fun.Type) error {
		if len(b.Result) != 1 {
			return c.errorf(b.In, TMemResult.Name, "a kernel body returns one value, not %d", len(b.Result))
		}
		x := b.Result[0]
		item := p.Type.Row()
		have := types[0]
		if shaped(have, item) {
			return nil
		}
		return c.errorf(x.NamePos, TMemResult.Name, "the kernel body's result %s has type %s, but the items of %s have shape %s", x.Name, have, p.Name.Name, item)
	})
	return d, err
}

// body is Γ ⊢ p̄ ← b (T-MEM-STM, T-MEM-RESULT); with a nil pattern it
// infers one, for T-MEM-PROG.
func (c *checker) body(pat []*fun.Param, b *fun.Body) (*semantics.Derivation, []fun.Type, error) {
	return c.stms(b, func(types []fun.Type) error {
		if pat == nil {
			return nil
		}
		if len(b.Result) != len(pat) {
			return c.errorf(b.In, TMemResult.Name, "the body returns %d values, but the pattern binds %d", len(b.Result), len(pat))
		}
		// One map serves every body's renaming: it is used up before the
		// next body's results are checked.
		if c.subst == nil {
			c.subst = make(map[string]string, len(pat))
		}
		subst := c.subst
		clear(subst)
		for i, p := range pat {
			subst[p.Name.Name] = b.Result[i].Name
		}
		for i, p := range pat {
			if !c.sameType(types[i], p.Type, subst) {
				return c.errorf(b.Result[i].NamePos, TMemResult.Name, "result %s has type %s, but the binding %s needs %s",
					b.Result[i].Name, types[i], fun.PrintParam(p), substType(p.Type, subst))
			}
		}
		return nil
	})
}

// stms checks a body's statements (T-MEM-STM), then its results with
// result (T-MEM-RESULT), in the scope the statements make; it returns the
// results' types, in a list the next body checked uses again (every body
// but the program's is done with its types once result has looked).
func (c *checker) stms(b *fun.Body, result func([]fun.Type) error) (*semantics.Derivation, []fun.Type, error) {
	defer c.unwind(len(c.undo))
	var ds []*semantics.Derivation
	if c.opts.Derive {
		ds = make([]*semantics.Derivation, 0, len(b.Stms))
	}
	// failed is err with the T-MEM-STM chain down to the statement that
	// failed (atStm) or the results.
	failed := func(err error, atStm bool, leaf string) error {
		if !c.opts.Derive {
			return err
		}
		return semantics.FailedChain(err, TMemStm.Name, func(int) string { return "Γ ⊢ p̄ ← …" }, ds, atStm,
			&semantics.Derivation{Rule: leaf, Conclusion: "Γ ⊢ p̄ ← in (…)"})
	}
	for _, s := range b.Stms {
		d, err := c.stmBind(s)
		if err != nil {
			return nil, nil, failed(err, true, TMemStm.Name)
		}
		if c.opts.Derive {
			ds = append(ds, d)
		}
	}
	if cap(c.types) < len(b.Result) {
		c.types = make([]fun.Type, len(b.Result), max(len(b.Result), 8))
	}
	types := c.types[:len(b.Result)]
	for i, x := range b.Result {
		t, err := c.lookup(TMemResult.Name, x, "result")
		if err != nil {
			return nil, nil, failed(err, false, TMemResult.Name)
		}
		types[i] = t
	}
	if err := result(types); err != nil {
		return nil, nil, failed(err, false, TMemResult.Name)
	}
	d := c.node(TMemResult.Name, "Γ ⊢ p̄ ← in (…)")
	for i := len(b.Stms) - 1; i >= 0; i-- {
		var di *semantics.Derivation
		if ds != nil {
			di = ds[i]
		}
		d = c.node(TMemStm.Name, "Γ ⊢ p̄ ← …", di, d)
	}
	return d, types, nil
}

// substType renames a type's variables (T-MEM-RESULT's S, for messages).
func substType(t fun.Type, subst map[string]string) fun.Type {
	return fun.MapType(t, fun.Uses(fun.Renaming(subst)))
}

// SliceF is slice_f of eq (2) on symbolic LMADs, with 1-based offsets:
// the offset moves by Σ (o_i − 1)·s_i and the sizes become the slice's.
//
// The offset is Canon(off + (o_1 − 1)·s_1 + … + (o_n − 1)·s_n), made from
// one sum of normal forms rather than normalising the offset again at
// each step, which gives the same tree (sliceFSteps in the tests): each
// step's term is Canon'd, so only the occurrences of the variables left
// in it stand for them (used).
func SliceF(l *IndexFn, slices []fun.Slice) *IndexFn {
	off, dims := l.LMAD()
	out := &IndexFn{Pos: l.Pos}
	if len(slices) == 0 {
		out.Offset = off
		return out
	}
	out.Dims = make([]LDim, len(slices))
	sum := Normalize(off)
	for i, sl := range slices {
		// Normalize((o_i − 1)·s_i), without building the tree (Sub
		// writes o_i − 1 so).
		t := factorPoly(sl.Off.Name, fun.Var{Ident: sl.Off}).add(constPoly(-1)).mul(Normalize(dims[i].Stride))
		sum = sum.add(t.used())
		out.Dims[i] = LDim{Elems: fun.Var{Ident: sl.Size}, Stride: dims[i].Stride}
	}
	out.Offset = sum.Expr()
	return out
}

// IsRowMajor reports whether an array type's LMAD is R of its sizes (as
// polynomials, without definitions).
func IsRowMajor(t fun.Type) bool {
	c := &checker{opts: &CheckOptions{}, env: fun.NewScope("FUNMEM"), lets: map[string]letDef{}}
	return ArrayOf(t) != nil && c.rowMajor(t)
}
