package remora

import (
	"fmt"
	"slices"
	"strings"
)

// The index language of Fig 5 (ι ::= n | x | [ι …] | (+ ι κ)), with the
// shape append (++ ι …) of the typed dialect. Indices are kept in a
// canonical form, so that equality and the frame-prefix relation are decided
// by comparing canonical forms:
//
//   - a Nat is a constant plus a sorted multiset of Nat variables (the free
//     commutative monoid on the variables, shifted by a constant);
//   - a Shape is a sequence of items, each a Nat (one dimension) or a Shape
//     variable spliced in (the free monoid on dimensions and variables).
//
// This decides equality exactly for the fragment (sums of naturals and
// variables, appends of dimensions and shape variables). What it cannot
// decide, e.g. whether @s ++ [3] equals [n] ++ @t, is reported as such.
//
// A variable's sort is written in its name, as docs/remora.md fixes: @s is a
// Shape, d a Nat.

// Nat is a canonical Nat index: Const + Vars[0] + Vars[1] + …, Vars sorted.
type Nat struct {
	Const int64
	Vars  []string
}

// ShapeItem is one item of a canonical Shape: a dimension, or (Var != "")
// a Shape variable spliced in.
type ShapeItem struct {
	Dim Nat
	Var string
}

// Shape is a canonical Shape index.
type Shape []ShapeItem

// Index is an index argument or parameter: a Nat or a Shape.
type Index struct {
	IsShape bool
	N       Nat
	S       Shape
}

// IsShapeVar reports whether the index variable name is of sort Shape.
func IsShapeVar(name string) bool { return strings.HasPrefix(name, "@") }

// SortOf names the sort of an index variable.
func SortOf(name string) string {
	if IsShapeVar(name) {
		return "Shape"
	}
	return "Nat"
}

// NatConst is the constant n.
func NatConst(n int64) Nat { return Nat{Const: n} }

// NatVar is the variable x.
func NatVar(x string) Nat { return Nat{Vars: []string{x}} }

// Plus is a + b in canonical form.
func (a Nat) Plus(b Nat) Nat {
	vs := append(append([]string{}, a.Vars...), b.Vars...)
	slices.Sort(vs)
	return Nat{Const: a.Const + b.Const, Vars: vs}
}

// Equal decides a = b.
func (a Nat) Equal(b Nat) bool {
	if a.Const != b.Const || len(a.Vars) != len(b.Vars) {
		return false
	}
	for i := range a.Vars {
		if a.Vars[i] != b.Vars[i] {
			return false
		}
	}
	return true
}

// IsConst reports whether a has no variables.
func (a Nat) IsConst() bool { return len(a.Vars) == 0 }

// String prints a as an index term: 3, d, (+ d 1), (+ d d 2).
func (a Nat) String() string {
	if len(a.Vars) == 0 {
		return fmt.Sprint(a.Const)
	}
	if a.Const == 0 && len(a.Vars) == 1 {
		return a.Vars[0]
	}
	parts := append([]string{}, a.Vars...)
	if a.Const != 0 {
		parts = append(parts, fmt.Sprint(a.Const))
	}
	return "(+ " + strings.Join(parts, " ") + ")"
}

// Dims is the shape of constant dimensions ds.
func Dims(ds ...int64) Shape {
	s := make(Shape, len(ds))
	for i, d := range ds {
		s[i] = ShapeItem{Dim: NatConst(d)}
	}
	return s
}

// ShapeVar is the shape @s.
func ShapeVar(x string) Shape { return Shape{{Var: x}} }

// Append is s ++ t.
func (s Shape) Append(t Shape) Shape {
	return append(append(Shape{}, s...), t...)
}

// Equal decides s = t.
func (s Shape) Equal(t Shape) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if !s[i].equal(t[i]) {
			return false
		}
	}
	return true
}

func (it ShapeItem) equal(o ShapeItem) bool {
	if it.Var != "" || o.Var != "" {
		return it.Var == o.Var
	}
	return it.Dim.Equal(o.Dim)
}

// IsPrefixOf decides whether s is a prefix of t (s ⊑ t, the order T-APP
// takes the largest frame in).
func (s Shape) IsPrefixOf(t Shape) bool {
	return len(s) <= len(t) && s.Equal(t[:len(s)])
}

// CutSuffix decides whether s = f ++ c and returns the frame f.
func (s Shape) CutSuffix(c Shape) (Shape, bool) {
	if len(c) > len(s) || !s[len(s)-len(c):].Equal(c) {
		return nil, false
	}
	return s[:len(s)-len(c)], true
}

// Const returns the dimensions of s when it has no variables.
func (s Shape) Const() ([]int64, bool) {
	ds := make([]int64, len(s))
	for i, it := range s {
		if it.Var != "" || !it.Dim.IsConst() {
			return nil, false
		}
		ds[i] = it.Dim.Const
	}
	return ds, true
}

// String prints s as [d …] when it is a plain list of dimensions, as @s
// when it is a single variable, and as (++ …) otherwise.
func (s Shape) String() string {
	if len(s) == 1 && s[0].Var != "" {
		return s[0].Var
	}
	var parts []string
	var run []string
	hasVar := false
	for _, it := range s {
		if it.Var != "" {
			hasVar = true
			if run != nil {
				parts = append(parts, "["+strings.Join(run, " ")+"]")
				run = nil
			}
			parts = append(parts, it.Var)
			continue
		}
		run = append(run, it.Dim.String())
	}
	if !hasVar {
		return "[" + strings.Join(run, " ") + "]"
	}
	if run != nil {
		parts = append(parts, "["+strings.Join(run, " ")+"]")
	}
	return "(++ " + strings.Join(parts, " ") + ")"
}

// Items prints the items of s as they go inside an array type [τ …].
func (s Shape) Items() []string {
	out := make([]string, len(s))
	for i, it := range s {
		if it.Var != "" {
			out[i] = it.Var
		} else {
			out[i] = it.Dim.String()
		}
	}
	return out
}

// String prints the index.
func (ix Index) String() string {
	if ix.IsShape {
		return ix.S.String()
	}
	return ix.N.String()
}

// NatIndex and ShapeIndex wrap a Nat and a Shape.
func NatIndex(n Nat) Index { return Index{N: n} }

// ShapeIndex wraps a Shape as an Index.
func ShapeIndex(s Shape) Index { return Index{IsShape: true, S: s} }

// Subst maps index variables to indices; a Nat variable must map to a Nat
// index and a Shape variable to a Shape index.
type Subst map[string]Index

// Nat substitutes into a.
func (m Subst) Nat(a Nat) Nat {
	out := Nat{Const: a.Const}
	for _, v := range a.Vars {
		if ix, ok := m[v]; ok {
			out = out.Plus(ix.N)
		} else {
			out = out.Plus(NatVar(v))
		}
	}
	return out
}

// Shape substitutes into s.
func (m Subst) Shape(s Shape) Shape {
	var out Shape
	for _, it := range s {
		if it.Var != "" {
			if ix, ok := m[it.Var]; ok {
				out = append(out, ix.S...)
			} else {
				out = append(out, it)
			}
			continue
		}
		out = append(out, ShapeItem{Dim: m.Nat(it.Dim)})
	}
	return out
}

// Index substitutes into ix.
func (m Subst) Index(ix Index) Index {
	if ix.IsShape {
		return ShapeIndex(m.Shape(ix.S))
	}
	return NatIndex(m.Nat(ix.N))
}

// Without is m less the variables vs (which a binder shadows).
func (m Subst) Without(vs []string) Subst {
	drop := false
	for _, v := range vs {
		if _, ok := m[v]; ok {
			drop = true
		}
	}
	if !drop {
		return m
	}
	out := Subst{}
	for k, v := range m {
		out[k] = v
	}
	for _, v := range vs {
		delete(out, v)
	}
	return out
}

// FreeVars adds the index variables of ix to set.
func (ix Index) FreeVars(set map[string]bool) {
	if !ix.IsShape {
		for _, v := range ix.N.Vars {
			set[v] = true
		}
		return
	}
	for _, it := range ix.S {
		if it.Var != "" {
			set[it.Var] = true
		}
		for _, v := range it.Dim.Vars {
			set[v] = true
		}
	}
}
