package funmem

import (
	"cmp"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// A Poly is a scalar expression in normal form: a sum of monomials with
// integer coefficients. Variables are the factors of monomials; a
// subexpression that is not a polynomial (a division, a comparison) is an
// opaque factor, compared by its printed form. Two expressions with equal
// normal forms are equal for all values of their variables, also under
// int64's wrapping arithmetic (a commutative ring), so the type checker can
// accept an LMAD written differently from the one a rule computes.
//
// The monomials are a slice sorted by their key, not a map: the checker
// normalises many small index expressions, and a map per intermediate
// polynomial was most of the campaigns' allocation (docs/performance.md).
// A Poly is never changed once built, so results share slices freely.
type Poly struct {
	terms []mono // sorted by key; no coefficient is 0
	atoms []atom // factor → the expression it stands for, one entry per factor
}

// A mono is a monomial with its coefficient.
type mono struct {
	key string   // the factors, sorted, joined by "·" ("" for the constant)
	fs  []string // the factors, sorted
	c   int64
}

// An atom is a factor and the expression it stands for.
type atom struct {
	name string
	e    fun.SExp
}

func constPoly(k int64) Poly {
	switch {
	case k == 0:
		return Poly{}
	case smallConst <= k && k < smallConst+int64(len(smallConsts)):
		return Poly{terms: smallConsts[k-smallConst : k-smallConst+1 : k-smallConst+1]}
	}
	return Poly{terms: []mono{{c: k}}}
}

// smallConsts are the monomials of the constants from smallConst on,
// which constPoly shares (a Poly is never changed): the checker
// normalises the 0s, 1s and small strides of LMADs all the time.
var smallConsts = func() (ms [64]mono) {
	for i := range ms {
		ms[i].c = smallConst + int64(i)
	}
	return ms
}()

const smallConst = -8

// factorPoly is the polynomial of one factor, name, standing for e.
func factorPoly(name string, e fun.SExp) Poly {
	// One allocation for its three one-element slices: variables are most
	// of what the checker normalises.
	b := &struct {
		m [1]mono
		f [1]string
		a [1]atom
	}{f: [1]string{name}, a: [1]atom{{name, e}}}
	b.m[0] = mono{key: name, fs: b.f[:], c: 1}
	return Poly{terms: b.m[:], atoms: b.a[:]}
}

// Normalize computes the normal form of e.
func Normalize(e fun.SExp) Poly { return normalizeIn(e, nil) }

// A polyScope gives the normal forms of let-bound variables and expands
// them in an expression: normalizeIn(e, s) is Normalize(s.expand(e)),
// without building the expanded tree (the checker's definitions, which
// it compares LMADs modulo).
type polyScope interface {
	poly(x string) (Poly, bool)
	expand(e fun.SExp) fun.SExp
}

// normalizeIn is Normalize of e with the variables s defines replaced by
// their definitions (s nil: none).
func normalizeIn(e fun.SExp, s polyScope) Poly {
	switch e := e.(type) {
	case *fun.Const:
		return constPoly(e.Value)
	case fun.Var:
		if s != nil {
			if p, ok := s.poly(e.Name); ok {
				return p
			}
		}
		return factorPoly(e.Name, e)
	case *fun.UnOp:
		return normalizeIn(e.X, s).scale(-1)
	case *fun.BinOp:
		switch e.Op {
		case semantics.Add:
			return normalizeIn(e.L, s).add(normalizeIn(e.R, s))
		case semantics.Sub:
			return normalizeIn(e.L, s).add(normalizeIn(e.R, s).scale(-1))
		case semantics.Mul:
			return normalizeIn(e.L, s).mul(normalizeIn(e.R, s))
		}
		// Not a polynomial: an opaque factor over normalised operands.
		l, r := normalizeIn(e.L, s).Expr(), normalizeIn(e.R, s).Expr()
		atom := &fun.BinOp{Op: e.Op, L: l, R: r}
		if k, ok := constOf(l); ok {
			if k2, ok := constOf(r); ok {
				if v, err := semantics.Binary(e.Op, k, k2); err == nil {
					return constPoly(v)
				}
			}
		}
		return opaque(atom)
	case *fun.FloatConst, *fun.Call:
		// Floats are no ring (IEEE addition does not associate): a float
		// constant, and a call with its argument as written, are opaque.
		if s != nil {
			return opaque(s.expand(e))
		}
		return opaque(e)
	}
	return constPoly(0)
}

// opaque is the polynomial of one factor that stands for e as printed.
func opaque(e fun.SExp) Poly { return factorPoly("⟨"+fun.PrintSExp(e)+"⟩", e) }

func constOf(e fun.SExp) (int64, bool) {
	c, ok := e.(*fun.Const)
	if !ok {
		return 0, false
	}
	return c.Value, true
}

func (p Poly) scale(k int64) Poly {
	if k == 1 {
		return p
	}
	q := Poly{terms: make([]mono, 0, len(p.terms)), atoms: p.atoms}
	for _, m := range p.terms {
		if c := m.c * k; c != 0 {
			m.c = c
			q.terms = append(q.terms, m)
		}
	}
	return q
}

// mergeAtoms is a's factors and b's, b's expression where both name one
// (as the maps this replaces were updated: the right operand last).
func mergeAtoms(a, b []atom) []atom {
	switch {
	case len(b) == 0:
		return a
	case len(a) == 0:
		return b
	// The order of a list is never looked at (atom finds a name, used
	// keeps the order it has): when the merge would hold what a or b
	// holds, that list is it, shared as a Poly's lists are.
	case atomsIn(b, a, true): // b's atoms a's, the same expressions
		return a
	case atomsIn(a, b, false): // a's names b's, b's expressions kept
		return b
	}
	// Room for b's names too: the merges of an index's terms add them.
	out := append(make([]atom, 0, len(a)+len(b)), a...)
next:
	for _, x := range b {
		for i := range out {
			if out[i].name == x.name {
				out[i] = x
				continue next
			}
		}
		out = append(out, x)
	}
	return out
}

// atomsIn reports whether every factor of xs is one of ys, standing for
// the same expression when sameExp.
func atomsIn(xs, ys []atom, sameExp bool) bool {
next:
	for _, x := range xs {
		for _, y := range ys {
			if x.name == y.name {
				if sameExp && x.e != y.e {
					return false
				}
				continue next
			}
		}
		return false
	}
	return true
}

func (p Poly) add(o Poly) Poly {
	// Adding 0 (no terms, no atoms) gives the other, as the merge would
	// (a Poly is never changed: the two may share their slices).
	switch {
	case len(o.terms) == 0 && len(o.atoms) == 0:
		return p
	case len(p.terms) == 0 && len(p.atoms) == 0:
		return o
	}
	q := Poly{terms: make([]mono, 0, len(p.terms)+len(o.terms)), atoms: mergeAtoms(p.atoms, o.atoms)}
	i, j := 0, 0
	for i < len(p.terms) || j < len(o.terms) {
		switch {
		case j == len(o.terms) || i < len(p.terms) && p.terms[i].key < o.terms[j].key:
			q.terms = append(q.terms, p.terms[i])
			i++
		case i == len(p.terms) || o.terms[j].key < p.terms[i].key:
			q.terms = append(q.terms, o.terms[j])
			j++
		default:
			if s := p.terms[i].c + o.terms[j].c; s != 0 {
				m := p.terms[i]
				m.c = s
				q.terms = append(q.terms, m)
			}
			i++
			j++
		}
	}
	return q
}

func (p Poly) mul(o Poly) Poly {
	// A constant factor scales the other's monomials, which stay in order.
	switch {
	case len(p.terms) == 1 && p.terms[0].key == "":
		q := o.scale(p.terms[0].c)
		q.atoms = mergeAtoms(p.atoms, o.atoms)
		return q
	case len(o.terms) == 1 && o.terms[0].key == "":
		q := p.scale(o.terms[0].c)
		q.atoms = mergeAtoms(p.atoms, o.atoms)
		return q
	}
	q := Poly{terms: make([]mono, 0, len(p.terms)*len(o.terms)), atoms: mergeAtoms(p.atoms, o.atoms)}
	for _, m1 := range p.terms {
		for _, m2 := range o.terms {
			m := mulMono(m1, m2)
			m.c = m1.c * m2.c
			q.terms = append(q.terms, m)
		}
	}
	slices.SortStableFunc(q.terms, func(a, b mono) int { return strings.Compare(a.key, b.key) })
	// Sum the coefficients of equal monomials, dropping those that are 0.
	out := q.terms[:0]
	for _, m := range q.terms {
		if n := len(out); n > 0 && out[n-1].key == m.key {
			out[n-1].c += m.c
			continue
		}
		if n := len(out); n > 0 && out[n-1].c == 0 {
			out = out[:n-1]
		}
		out = append(out, m)
	}
	if n := len(out); n > 0 && out[n-1].c == 0 {
		out = out[:n-1]
	}
	q.terms = out
	return q
}

// mulMono is the product of two monomials' factors (coefficient unset).
func mulMono(a, b mono) mono {
	switch {
	case len(a.fs) == 0:
		return mono{key: b.key, fs: b.fs}
	case len(b.fs) == 0:
		return mono{key: a.key, fs: a.fs}
	}
	fs := make([]string, 0, len(a.fs)+len(b.fs))
	i, j := 0, 0
	for i < len(a.fs) || j < len(b.fs) {
		if j == len(b.fs) || i < len(a.fs) && a.fs[i] <= b.fs[j] {
			fs = append(fs, a.fs[i])
			i++
		} else {
			fs = append(fs, b.fs[j])
			j++
		}
	}
	return mono{key: strings.Join(fs, "·"), fs: fs}
}

// used is p with only the atoms of the factors its monomials have: the
// normal form of p.Expr(), whose other variables are gone, which an
// operation on an expression in normal form starts from. (An atom whose
// terms cancelled would otherwise stay in p's list and stand for its name
// in a later operation: add and mul keep the right operand's atom of a
// name.)
func (p Poly) used() Poly {
	in := func(a atom) bool {
		for _, m := range p.terms {
			if slices.Contains(m.fs, a.name) {
				return true
			}
		}
		return false
	}
	for i, a := range p.atoms {
		if !in(a) {
			out := Poly{terms: p.terms, atoms: slices.Clone(p.atoms[:i])}
			for _, b := range p.atoms[i+1:] {
				if in(b) {
					out.atoms = append(out.atoms, b)
				}
			}
			return out
		}
	}
	return p
}

// Equal reports whether two normal forms are the same polynomial.
func (p Poly) Equal(o Poly) bool {
	return slices.EqualFunc(p.terms, o.terms, func(a, b mono) bool { return a.key == b.key && a.c == b.c })
}

// SameValue reports whether two scalar expressions are equal as
// polynomials. Two written alike are (sameText), without normalising
// them: the simplifier compares an LMAD's sizes and strides with those
// of R(…), most of them written as R's.
func SameValue(a, b fun.SExp) bool {
	return sameText(a, b) || Normalize(a).Equal(Normalize(b))
}

// atom is the expression factor f stands for.
func (p Poly) atom(f string) fun.SExp {
	for _, a := range p.atoms {
		if a.name == f {
			return a.e
		}
	}
	return nil
}

// Expr turns a normal form back into a scalar expression: monomials of
// higher degree first, then by their factors, the constant last.
func (p Poly) Expr() fun.SExp {
	// Higher degrees first, then by name.
	// (Keys are distinct, so the order is total: terms already in it,
	// as a polynomial of one degree is, need no sorted copy, and any
	// sort gives the same order.)
	monos := p.terms
	if len(monos) > 1 && !slices.IsSortedFunc(monos, exprOrder) {
		var buf [8]mono // most polynomials are short: sort them on the stack
		monos = append(buf[:0], p.terms...)
		slices.SortFunc(monos, exprOrder)
	}
	var out fun.SExp
	for _, m := range monos {
		c := m.c
		neg := c < 0 && out != nil
		if neg {
			c = -c
		}
		var term fun.SExp
		for _, f := range m.fs {
			if term == nil {
				term = p.atom(f)
			} else {
				term = &fun.BinOp{Op: semantics.Mul, L: term, R: p.atom(f)}
			}
		}
		switch {
		case term == nil:
			term = &fun.Const{Value: c}
		case c != 1:
			term = &fun.BinOp{Op: semantics.Mul, L: &fun.Const{Value: c}, R: term}
		}
		switch {
		case out == nil:
			out = term
		case neg:
			out = &fun.BinOp{Op: semantics.Sub, L: out, R: term}
		default:
			out = &fun.BinOp{Op: semantics.Add, L: out, R: term}
		}
	}
	if out == nil {
		return &fun.Const{Value: 0}
	}
	return out
}

// exprOrder is the order of Expr's monomials: higher degrees first, then
// by their factors.
func exprOrder(a, b mono) int {
	return cmp.Or(cmp.Compare(len(b.fs), len(a.fs)), strings.Compare(a.key, b.key))
}

// Canon rewrites e in normal form.
func Canon(e fun.SExp) fun.SExp { return Normalize(e).Expr() }

// binop is Canon(a op b). The LMADs the rules compute (Fig 8's R, slice,
// transpose) combine constants and variables with 0s and 1s most of the
// time; those cases are answered without normalising, with what Canon
// gives for them.
func binop(a, b fun.SExp, op byte) fun.SExp {
	o := semantics.Add
	switch op {
	case '-':
		o = semantics.Sub
	case '*':
		o = semantics.Mul
	}
	ka, aConst := constOf(a)
	kb, bConst := constOf(b)
	_, aVar := a.(fun.Var)
	_, bVar := b.(fun.Var)
	switch {
	case aConst && bConst:
		v, _ := semantics.Binary(o, ka, kb) // +, - and * wrap; never an error
		return &fun.Const{Value: v}
	case aVar && bConst && (o == semantics.Mul && kb == 1 || o != semantics.Mul && kb == 0):
		return a
	case bVar && aConst && (o == semantics.Mul && ka == 1 || o == semantics.Add && ka == 0):
		return b
	case aVar && bConst && o != semantics.Mul:
		// v ± k (k ≠ 0): the monomial v, then the constant.
		if o == semantics.Sub {
			kb = -kb // wraps as scale(-1) does
		}
		return linear(a, kb)
	case bVar && aConst && o == semantics.Add:
		return linear(b, ka)
	case o == semantics.Mul && (aVar && bConst || bVar && aConst):
		// k·v (k ≠ 1): 0, or the constant times v.
		v, k := a, kb
		if bVar {
			v, k = b, ka
		}
		if k == 0 {
			return &fun.Const{Value: 0}
		}
		return &fun.BinOp{Op: semantics.Mul, L: &fun.Const{Value: k}, R: v}
	case o == semantics.Mul:
		if e, ok := varProduct(a, b); ok {
			return e
		}
	}
	return Canon(&fun.BinOp{Op: o, L: a, R: b})
}

// linear is Canon(v + k) for a variable v and a constant k ≠ 0: v + k, or
// v - |k| when k is negative (Expr's rendering of the two monomials).
func linear(v fun.SExp, k int64) fun.SExp {
	if k < 0 {
		return &fun.BinOp{Op: semantics.Sub, L: v, R: &fun.Const{Value: -k}}
	}
	return &fun.BinOp{Op: semantics.Add, L: v, R: &fun.Const{Value: k}}
}

// varProduct is Canon(a * b) when a and b are variables or products of
// variables: one monomial whose factors are the variables sorted by name
// (stably), multiplied from the left, each name standing for its last
// occurrence (as mergeAtoms keeps the right operand's). The LMADs of
// row-major arrays are such products (their strides), and normalising
// them was most of binop's time.
func varProduct(a, b fun.SExp) (fun.SExp, bool) {
	var buf [8]fun.Var
	vs, ok := appendFactors(buf[:0], a)
	if !ok {
		return nil, false
	}
	if vs, ok = appendFactors(vs, b); !ok {
		return nil, false
	}
	// The last occurrence of each name stands for it: give every
	// occurrence that one's variable, then sort stably by name.
	for i := range vs {
		for j := len(vs) - 1; j > i; j-- {
			if vs[j].Name == vs[i].Name {
				vs[i] = vs[j]
				break
			}
		}
	}
	slices.SortStableFunc(vs, func(x, y fun.Var) int { return strings.Compare(x.Name, y.Name) })
	var out fun.SExp = vs[0]
	for _, v := range vs[1:] {
		out = &fun.BinOp{Op: semantics.Mul, L: out, R: v}
	}
	return out, true
}

// appendFactors appends the variables of e, a variable or a product of
// variables, in order; ok is false for any other expression.
func appendFactors(vs []fun.Var, e fun.SExp) ([]fun.Var, bool) {
	switch e := e.(type) {
	case fun.Var:
		return append(vs, e), true
	case *fun.BinOp:
		if e.Op != semantics.Mul {
			return vs, false
		}
		vs, ok := appendFactors(vs, e.L)
		if !ok {
			return vs, false
		}
		return appendFactors(vs, e.R)
	}
	return vs, false
}

// IndexOffset is off + Σ (idx_i − 1)·s_i, s_i the stride of dims[i], in
// normal form: the offset an LMAD gives 1-based indices. It is what adding
// the terms one at a time with Sub, Mul and Add gives, tree for tree,
// computed on the polynomials and turned into an expression once rather
// than at every operation (FunMemToImp applies an LMAD at every read and
// write it makes; the copies' nested kernels apply it to ever longer
// indices). With no index it is off as it is.
func IndexOffset(off fun.SExp, idx []fun.SExp, dims []LDim) fun.SExp {
	if len(idx) == 0 {
		return off
	}
	p := Normalize(off)
	for i, y := range idx {
		t := Normalize(y).add(constPoly(-1)).used() // Sub(y, 1)
		t = t.mul(Normalize(dims[i].Stride)).used() // Mul(…, s_i)
		p = p.add(t).used()                         // Add(…, …)
	}
	return p.Expr()
}
