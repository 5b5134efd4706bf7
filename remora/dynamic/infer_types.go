package dynamic

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// What the elaborator knows of an expression (infer.go): a typed term and
// its type, or a static array of functions not yet elaborated.

// ity is the type of an elaborated array: its atoms and its shape. A
// dimension is an index of the typed core: a constant, or a sum of index
// variables (bound by an unbox or a lift around the term) and a
// constant, for a shape the dialect computes at run time.
type ity struct {
	elem  remora.Kind // KInt, KFloat, KBool, KChar or KBox
	box   *ity        // KBox: the type of the box's contents, whose dimensions it hides (only their number counts)
	shape []remora.Nat
}

// dimsOf is the constant shape ds.
func dimsOf(ds []int64) []remora.Nat {
	out := make([]remora.Nat, len(ds))
	for i, d := range ds {
		out[i] = remora.NatConst(d)
	}
	return out
}

// consts is the shape as constants, when it has no variables.
func consts(shape []remora.Nat) ([]int64, bool) {
	out := make([]int64, len(shape))
	for i, d := range shape {
		if !d.IsConst() {
			return nil, false
		}
		out[i] = d.Const
	}
	return out, true
}

// hasZero reports whether some dimension of shape is the constant 0, so
// that an array of that shape has no atoms whatever its variables.
func hasZero(shape []remora.Nat) bool {
	return slices.ContainsFunc(shape, func(d remora.Nat) bool { return d.IsConst() && d.Const == 0 })
}

// symbolic reports whether a dimension of shape is known only at run
// time.
func symbolic(shape []remora.Nat) bool {
	return slices.ContainsFunc(shape, func(d remora.Nat) bool { return !d.IsConst() })
}

func natsEqual(a, b []remora.Nat) bool {
	return slices.EqualFunc(a, b, remora.Nat.Equal)
}

// natsString writes a shape index: [2 d (+ d 1)].
func natsString(shape []remora.Nat) string {
	ds := make([]string, len(shape))
	for i, d := range shape {
		ds[i] = d.String()
	}
	return "[" + strings.Join(ds, " ") + "]"
}

// natTerm is a term giving the value of a dimension: a literal, or
// reify-dimension of the index.
func natTerm(d remora.Nat) string {
	if d.IsConst() {
		return strconv.FormatInt(d.Const, 10)
	}
	return "(reify-dimension " + d.String() + ")"
}

func (t ity) rank() int { return len(t.shape) }

// cell is the type with the given shape and t's atoms.
func (t ity) with(shape []remora.Nat) ity { return ity{elem: t.elem, box: t.box, shape: shape} }

// item is the type of t's items (its shape without the major axis).
func (t ity) item() ity { return t.with(t.shape[1:]) }

// sameAtoms reports whether t and u hold the same atoms (of boxes: of
// the same contents' atoms and rank).
func (t ity) sameAtoms(u ity) bool {
	if t.elem != u.elem {
		return false
	}
	if t.elem != remora.KBox {
		return true
	}
	return t.box.rank() == u.box.rank() && t.box.sameAtoms(*u.box)
}

func (t ity) equal(u ity) bool { return t.sameAtoms(u) && natsEqual(t.shape, u.shape) }

// atom writes the typed atom type: int, float, bool, char, or a box's
// Sigma hiding all its contents' dimensions.
func (t ity) atom() string { return t.atomAt(1) }

func (t ity) atomAt(depth int) string {
	if t.elem == remora.KNum {
		return "int"
	}
	if t.elem != remora.KBox {
		return t.elem.String()
	}
	vs := make([]string, t.box.rank())
	for i := range vs {
		vs[i] = "b%" + strconv.Itoa(depth) + "_" + strconv.Itoa(i+1)
	}
	body := t.box.atomAt(depth + 1)
	if len(vs) > 0 {
		body = "[" + body + " " + strings.Join(vs, " ") + "]"
	}
	return "(Sigma (" + strings.Join(vs, " ") + ") " + body + ")"
}

// String writes the typed type: int, [float 3], [int d (+ d 1)]; the
// dialect's exact rationals have an axis more, of 2 (numerator and
// denominator: [int 3 2]).
func (t ity) String() string {
	if len(t.shape) == 0 && t.elem != remora.KNum {
		return t.atom()
	}
	s := t.cix(t.shape)
	return "[" + t.atom() + " " + s[1:]
}

// cix is the index of the typed shape of cells of t's atoms of this
// (dialect) shape: the shape itself, with the axis of 2 of the exact
// rationals' numerators and denominators.
func (t ity) cix(shape []remora.Nat) string {
	if t.elem == remora.KNum {
		shape = append(append([]remora.Nat{}, shape...), remora.NatConst(2))
	}
	return natsString(shape)
}

// vars adds the index variables of t's shape to into.
func (t ity) vars(into map[string]bool) {
	for _, d := range t.shape {
		for _, v := range d.Vars {
			into[v] = true
		}
	}
}

// substNat replaces the variables of d by the indices sub gives.
func substNat(d remora.Nat, sub map[string]remora.Nat) remora.Nat {
	out := remora.NatConst(d.Const)
	for _, v := range d.Vars {
		if n, ok := sub[v]; ok {
			out = out.Plus(n)
		} else {
			out = out.Plus(remora.NatVar(v))
		}
	}
	return out
}

func substNats(ds []remora.Nat, sub map[string]remora.Nat) []remora.Nat {
	if ds == nil {
		return nil
	}
	out := make([]remora.Nat, len(ds))
	for i, d := range ds {
		out[i] = substNat(d, sub)
	}
	return out
}

func (t ity) subst(sub map[string]remora.Nat) ity { return t.with(substNats(t.shape, sub)) }

// aval is what an expression elaborates to: a typed array (its term, its
// type, and what else the elaborator knows of it), or a static array of
// functions not yet elaborated.
type aval struct {
	term  string
	typ   ity
	known *remora.Value // the array's value, when it is known statically (small ones)
	// nats: an int scalar or vector whose atoms are these indices (a
	// length, a shape), so that a shape made of them is an index without
	// a lift.
	nats []remora.Nat
	// hide: the term is a box, (Sigma (hide…) typ), standing for an
	// array whose shape the dialect computes at run time (a filter, an
	// iota of a computed shape): the dialect's value is its contents.
	// Every operation opens it (scope.open).
	hide []string
	// ragged: an array mapped over a frame of run-time size whose cells
	// are not scalars. When that frame is empty the dialect gives the
	// array the frame's shape (its first ragged dimensions, ERRATA R10)
	// where the typed core gives the frame and the cells' shape; only
	// what cannot tell the two apart may use it.
	ragged int
	// nonzero: an int array whose atoms are known not to be 0, even where
	// their values are not known (the cells of a known array); zero: one
	// whose atoms are all known to be 0.
	nonzero, zero bool
	// mz: a float array where the dialect may hold an exact 0 instead
	// (a product (* n x) of an exact n that may be 0, which is exact 0
	// in Racket): the term gives -0.0 there, which a float + absorbs as
	// the dialect's exact 0 is absorbed. Such an array may only be added
	// to a float (or have one subtracted from it); anything else would
	// show the difference (mustBeDefinite).
	mz   bool
	mzAt semantics.Pos // the product that made it

	// A static array of functions, of shape fshape: one closure per cell
	// in row-major order, or (percell) one closure standing for every
	// cell, whose captured arrays (closure.caps) vary over the frame.
	funs    []*closure
	fshape  []remora.Nat
	percell bool
	// foldOp: an array of functions foldFnArray made a fold's operator
	// (infer_mimd.go), its items and initial value already replicated.
	foldOp bool
	// pre are the bindings "[x e]" of the arguments a curried λ was
	// given before it returned this function: whatever array term uses
	// the function is wrapped in them, so that they are computed (and go
	// wrong) as the dialect computes them.
	pre []string
	// capref: a parameter of a curried λ over a frame, which only the
	// function it returns may use (curried).
	capref string
}

type closure struct {
	lam  *Lam
	prim *PrimDef
	env  *ienv
	// caps are the arrays a λ returned over a frame captured: each
	// binds a parameter of the λ that returned it to the cell of an
	// argument at the function's position in the frame.
	caps []capture
}

type capture struct {
	name string // the parameter
	arr  *aval  // the argument, over (a prefix of) the function array's frame
	cell ity
}

func (c *closure) ranks(n int) []int {
	if c.prim != nil {
		return c.prim.RanksFor(n)
	}
	return (&Func{Lam: c.lam}).Ranks()
}

type ienv struct {
	parent *ienv
	name   string
	val    *aval
}

func (e *ienv) lookup(x string) *aval {
	for ; e != nil; e = e.parent {
		if e.name == x {
			return e.val
		}
	}
	return nil
}

const knownLimit = 64 // atoms of a value the elaborator keeps track of

// smallShape reports whether an array of shape ds has at most knownLimit
// atoms, without computing a product that could wrap around: the
// elaborator computes a value (by the dialect's δ) only where it will
// keep it, so that what it costs to compile does not grow with the sizes
// a program names.
func smallShape(ds []int64) bool {
	n, ok := atomCount(ds)
	return ok && n <= knownLimit
}

// atomCount is the number of atoms of an array of shape ds, false when
// a dimension is negative or the count is past what an int64 holds.
func atomCount(ds []int64) (int64, bool) {
	n := int64(1)
	for _, d := range ds {
		if d < 0 {
			return 0, false
		}
		if d != 0 && n > math.MaxInt64/d {
			// Past int64, unless a later dimension is 0.
			return 0, slices.Contains(ds, 0)
		}
		n *= d
	}
	return n, true
}

// typedArray is a typed array of this term and type; known, when not
// nil, is its value (kept when it is small).
func typedArray(term string, t ity, known *remora.Value) *aval {
	v := &aval{term: term, typ: t}
	if known != nil {
		v.nonzero = known.Kind == remora.KInt && !slices.Contains(known.I, 0)
		v.zero = known.Kind == remora.KInt && known.Len() > 0 && !slices.ContainsFunc(known.I, func(x int64) bool { return x != 0 })
		if known.Len() <= knownLimit {
			v.known = known
			if known.Kind == remora.KInt && len(known.Shape) <= 1 {
				v.nats = dimsOf(known.I)
			}
		}
	}
	return v
}

// like is a typed array of this term with what a's atoms are known to be
// (the flags, not the value): a's cells, or a's value bound to a name.
func like(term string, t ity, a *aval) *aval {
	return &aval{term: term, typ: t, nonzero: a.nonzero, zero: a.zero, mz: a.mz, mzAt: a.mzAt}
}

// subst is a copy of a with its index variables replaced.
func (a *aval) subst(sub map[string]remora.Nat) *aval {
	b := *a
	b.typ = a.typ.subst(sub)
	b.nats = substNats(a.nats, sub)
	return &b
}

// mentions reports whether an index variable of xs occurs in what a
// says.
func (a *aval) mentions(xs map[string]bool) bool {
	vs := map[string]bool{}
	a.typ.vars(vs)
	for _, d := range a.nats {
		for _, v := range d.Vars {
			vs[v] = true
		}
	}
	for v := range vs {
		if xs[v] {
			return true
		}
	}
	return false
}

func setOf(xs []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}
