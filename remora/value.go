package remora

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// Kind is the kind of the atoms of a Value.
type Kind uint8

// The atom kinds. Ints, booleans (0/1) and characters (code points) share
// the int64 buffer; floats have their own; functions and boxes are Atoms.
const (
	KInt Kind = iota
	KFloat
	KBool
	KChar
	KFunc
	KBox
	// KNum is an exact number that an int64 cannot hold: a big integer or
	// a rational, an Atom of the untyped dialect's Racket numbers
	// (remora/dynamic). The typed core never makes one.
	KNum
	// KPair is a pair of arrays, an Atom of the untyped dialect's basis
	// (pair, fst, snd, lookup). The typed core never makes one.
	KPair
)

var kindNames = [...]string{"int", "float", "bool", "char", "function", "box", "number", "pair"}

// String names the kind.
func (k Kind) String() string { return kindNames[k] }

// Value is a fully reduced array: a shape and a flat row-major buffer of
// atoms (flat data: a shape and one buffer). A scalar has the empty shape and one
// atom. Values are never mutated once built, so they are shared freely.
type Value struct {
	Shape []int64
	Kind  Kind
	I     []int64   // KInt, KBool, KChar
	F     []float64 // KFloat
	A     []Atom    // KFunc, KBox, KNum, KPair
}

// Atom is a non-base atom: a *Func or a *Box of the typed core, or a
// function of another dialect built on these values (remora/dynamic's
// closures). An atom prints itself.
type Atom interface{ String() string }

// Func is a function atom: a λ, Tλ or Iλ term, or a primitive with the
// index and type arguments given to it so far.
type Func struct {
	Term    Expr     // *Lam, *TLam or *ILam; nil for a primitive
	Prim    *PrimDef // the primitive
	Indices []Index  // a primitive's index arguments (I-APP)
	Types   []Type   // a primitive's type arguments (T-APP)
	Env     *Env     // the big-step closure's environment; nil in the small-step, whose terms are closed
}

// Box is a dependent-sum value (PACK ι … v): the witnesses of the hidden
// indices, and the contents.
type Box struct {
	Indices []Index
	Val     *Value
	Type    *Sigma // the box's type, with which empty contents are typed
}

// Len is the number of atoms.
func (v *Value) Len() int {
	switch v.Kind {
	case KFloat:
		return len(v.F)
	case KFunc, KBox, KNum, KPair:
		return len(v.A)
	}
	return len(v.I)
}

// NewValue makes a value of kind k and the given shape with room for n
// atoms (n must be the product of the shape).
func NewValue(k Kind, shape []int64, n int) *Value {
	v := &Value{Shape: shape, Kind: k}
	switch k {
	case KFloat:
		v.F = make([]float64, n)
	case KFunc, KBox, KNum, KPair:
		v.A = make([]Atom, n)
	default:
		v.I = make([]int64, n)
	}
	return v
}

// Scalars of each base kind.
func IntScalar(n int64) *Value     { return &Value{Kind: KInt, I: []int64{n}} }
func FloatScalar(f float64) *Value { return &Value{Kind: KFloat, F: []float64{f}} }
func BoolScalar(b bool) *Value     { return &Value{Kind: KBool, I: []int64{b2i(b)}} }
func CharScalar(r rune) *Value     { return &Value{Kind: KChar, I: []int64{int64(r)}} }
func AtomScalar(k Kind, a Atom) *Value {
	return &Value{Kind: k, A: []Atom{a}}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// StringValue is the character vector of s.
func StringValue(s string) *Value {
	rs := []rune(s)
	v := NewValue(KChar, []int64{int64(len(rs))}, len(rs))
	for i, r := range rs {
		v.I[i] = int64(r)
	}
	return v
}

// CopyAtoms copies n atoms of src from so to dst at do; the kinds agree.
func CopyAtoms(dst *Value, do int, src *Value, so, n int) {
	switch dst.Kind {
	case KFloat:
		copy(dst.F[do:do+n], src.F[so:so+n])
	case KFunc, KBox, KNum, KPair:
		copy(dst.A[do:do+n], src.A[so:so+n])
	default:
		copy(dst.I[do:do+n], src.I[so:so+n])
	}
}

// slice is the atoms [lo, hi) of v as a value of the given shape, sharing
// v's buffer.
func (v *Value) slice(shape []int64, lo, hi int) *Value {
	out := &Value{Shape: shape, Kind: v.Kind}
	switch v.Kind {
	case KFloat:
		out.F = v.F[lo:hi:hi]
	case KFunc, KBox, KNum, KPair:
		out.A = v.A[lo:hi:hi]
	default:
		out.I = v.I[lo:hi:hi]
	}
	return out
}

// Cells splits v into the cells of its frame of rank r: the frame shape
// and the cells in row-major order, sharing v's buffer.
func (v *Value) Cells(r int) ([]int64, []*Value) {
	frame, cell := v.Shape[:r], v.Shape[r:]
	n, size := Product(frame), Product(cell)
	cells := make([]*Value, n)
	for i := range cells {
		cells[i] = v.slice(cell, i*size, (i+1)*size)
	}
	return frame, cells
}

// Strided is the array of v's items start, start+step, … (count of them),
// copied into a buffer of its own.
func (v *Value) Strided(start, step, count int) *Value {
	size := Product(v.Shape[1:])
	out := NewValue(v.Kind, append([]int64{int64(count)}, v.Shape[1:]...), count*size)
	for i := range count {
		CopyAtoms(out, i*size, v, (start+i*step)*size, size)
	}
	return out
}

// Item is the i-th cell of v's major axis.
func (v *Value) Item(i int) *Value {
	size := Product(v.Shape[1:])
	return v.slice(v.Shape[1:], i*size, (i+1)*size)
}

func Product(ds []int64) int {
	n := 1
	for _, d := range ds {
		n *= int(d)
	}
	return n
}

// checkedProduct is the number of atoms of an array of this shape, or an
// error when it is beyond what arraysem will allocate.
func CheckedProduct(shape []int64) (int, error) {
	n, err := semantics.Count(shape)
	if err != nil {
		return 0, err
	}
	return int(n), nil
}

// Stack builds the value of frame shape frame whose cells are cells (all
// of the shape cell and of one kind; kind gives the kind when there are no
// cells): the collapse of Fig 6.
func Stack(frame, cell []int64, kind Kind, cells []*Value) *Value {
	shape := append(append([]int64{}, frame...), cell...)
	size := Product(cell)
	if len(cells) > 0 {
		kind = cells[0].Kind
	}
	out := NewValue(kind, shape, size*len(cells))
	for i, c := range cells {
		CopyAtoms(out, i*size, c, 0, size)
	}
	return out
}

// Reshape is v with the same atoms seen at another shape.
func (v *Value) Reshape(shape []int64) *Value {
	out := *v
	out.Shape = shape
	return &out
}

// Equal reports whether two values are the same array. Functions compare
// by identity of their term, boxes by witnesses and contents; floats by
// value, with NaN equal to NaN so that a result can be compared with itself.
func (v *Value) Equal(w *Value) bool {
	if !semantics.SameShape(v.Shape, w.Shape) {
		return false
	}
	if v.Len() == 0 && w.Len() == 0 {
		return true
	}
	if v.Kind != w.Kind {
		return false
	}
	switch v.Kind {
	case KFloat:
		for i, f := range v.F {
			g := w.F[i]
			if f != g && !(math.IsNaN(f) && math.IsNaN(g)) {
				return false
			}
		}
	case KFunc, KNum, KPair:
		for i, a := range v.A {
			if a.String() != w.A[i].String() {
				return false
			}
		}
	case KBox:
		for i, a := range v.A {
			b, c := a.(*Box), w.A[i].(*Box)
			if len(b.Indices) != len(c.Indices) || !b.Val.Equal(c.Val) {
				return false
			}
			for j := range b.Indices {
				if b.Indices[j].String() != c.Indices[j].String() {
					return false
				}
			}
		}
	default:
		for i, x := range v.I {
			if x != w.I[i] {
				return false
			}
		}
	}
	return true
}

// String prints v: 42, 1.5, #t, #\h, "hey", [1 2 3], [[1 2] [3 4]]. A
// vector of characters prints as a string; an empty array prints its
// shape's brackets, [] or [[] []]; a box prints as (box (ι …) v).
func (v *Value) String() string {
	var b strings.Builder
	if v.Kind == KInt && len(v.I) > 1 {
		// Room for every atom at the widest one's width, a separator and
		// brackets: the builder then does not copy itself as it grows.
		lo, hi := slices.Min(v.I), slices.Max(v.I)
		var buf [20]byte
		w := max(len(strconv.AppendInt(buf[:0], lo, 10)), len(strconv.AppendInt(buf[:0], hi, 10)))
		b.Grow(len(v.I) * (w + 2))
	}
	v.write(&b, v.Shape, 0, false)
	return b.String()
}

// TermString prints v as a term that reads back as the same value: like
// String, but a float always has a point or an exponent (1. not 1).
func (v *Value) TermString() string {
	if v.Len() == 0 {
		// [] would read back as a frame with no cell type.
		return "(frame " + dimsString(v.Shape) + " " + v.Kind.String() + ")"
	}
	var b strings.Builder
	v.write(&b, v.Shape, 0, true)
	return b.String()
}

func (v *Value) write(b *strings.Builder, shape []int64, off int, term bool) {
	if len(shape) == 0 {
		if v.Kind == KInt {
			// The common atom, without a string of its own.
			var buf [20]byte
			b.Write(strconv.AppendInt(buf[:0], v.I[off], 10))
			return
		}
		s := v.atomString(off)
		if box, ok := v.atom(off).(*Box); ok && term && box.Type != nil {
			s = "(box (" + indicesString(box.Indices) + ") " + TypeString(box.Type) + " " + box.Val.TermString() + ")"
		}
		if term && v.Kind == KFloat && !strings.ContainsAny(s, ".en") {
			s += "."
		}
		b.WriteString(s)
		return
	}
	if len(shape) == 1 && v.Kind == KChar && shape[0] > 0 {
		rs := make([]rune, shape[0])
		for i := range rs {
			rs[i] = rune(v.I[off+i])
		}
		b.WriteString(semantics.QuoteString(string(rs)))
		return
	}
	size := Product(shape[1:])
	b.WriteByte('[')
	for i := int64(0); i < shape[0]; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		v.write(b, shape[1:], off+int(i)*size, term)
	}
	b.WriteByte(']')
}

func (v *Value) atom(i int) Atom {
	if v.Kind >= KFunc {
		return v.A[i]
	}
	return nil
}

func (v *Value) atomString(i int) string {
	switch v.Kind {
	case KInt:
		return strconv.FormatInt(v.I[i], 10)
	case KFloat:
		return FormatFloat(v.F[i])
	case KBool:
		if v.I[i] != 0 {
			return "#t"
		}
		return "#f"
	case KChar:
		return semantics.QuoteChar(rune(v.I[i]))
	}
	return v.A[i].String()
}

// FormatFloat prints f in Go's shortest form, always as a float (3.0,
// 0.5, 1e+21: never like an int, as Racket prints them too), with +inf.0,
// -inf.0 and +nan.0 as Racket spells them.
func FormatFloat(f float64) string { return semantics.FormatRacketFloat(f) }

// String prints a box: (box (ι …) v), or (box v) for a box of the
// untyped dialect, which has no witnesses.
func (a *Box) String() string {
	if a.Type == nil && len(a.Indices) == 0 {
		return "(box " + a.Val.String() + ")"
	}
	ws := make([]string, len(a.Indices))
	for i, w := range a.Indices {
		ws[i] = w.String()
	}
	return fmt.Sprintf("(box (%s) %s)", strings.Join(ws, " "), a.Val)
}

// String prints a function: its term, or the primitive with its
// instantiation in the f{τ … | ι …} sugar.
func (f *Func) String() string {
	if f.Prim == nil {
		return ExprString(f.closed())
	}
	if len(f.Types) == 0 && len(f.Indices) == 0 {
		return f.Prim.Name
	}
	ts := make([]string, len(f.Types))
	for i, t := range f.Types {
		ts[i] = TypeString(t)
	}
	is := make([]string, len(f.Indices))
	for i, x := range f.Indices {
		is[i] = x.String()
	}
	return f.Prim.Name + "{" + strings.Join(ts, " ") + " | " + strings.Join(is, " ") + "}"
}

// kindOf is the atom kind of the canonical atom type t.
func kindOf(t Type) Kind {
	switch t := t.(type) {
	case *Base:
		switch t.Name {
		case "float":
			return KFloat
		case "bool":
			return KBool
		case "char":
			return KChar
		}
		return KInt
	case *Sigma:
		return KBox
	case *Fn, *Forall, *Pi:
		return KFunc
	}
	return KInt // a type variable: only empty arrays are built from a type alone
}

// closed is a closure's term with its environment substituted in, so that
// the big-step prints a function as the small-step (which substitutes as
// it goes) would: (fn ([y int]) (+ 1 y)), not (fn ([y int]) (+ x y)).
func (f *Func) closed() Expr { return f.Env.close(f.Term) }

// close is the term t with env substituted in: the term the small-step
// would have at that point (the rules as written show their judgements
// so, fig6.go).
func (env *Env) close(t Expr) Expr {
	if env == nil {
		return t
	}
	vals := map[string]Expr{}
	ts := TypeSubst{Types: map[string]Type{}, Indices: Subst{}}
	for e := env; e != nil; e = e.parent {
		switch {
		case e.val != nil:
			if _, seen := vals[e.name]; !seen {
				vals[e.name] = &Lit{V: e.val}
			}
		case e.tval != nil:
			if _, seen := ts.Types[e.name]; !seen {
				ts.Types[e.name] = e.tval
			}
		case e.ival != nil:
			if _, seen := ts.Indices[e.name]; !seen {
				ts.Indices[e.name] = *e.ival
			}
		}
	}
	return substExpr(t, vals, ts)
}
