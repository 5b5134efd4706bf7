package remora

import (
	"fmt"
	"github.com/arraysem/arraysem/semantics"
	"strings"
	"sync/atomic"
)

// Type is a type of Fig 5: B | x | A_ι τ | τ … → σ | ∀[x …]τ | Π[(x γ) …]τ
// | Σ[(x γ) …]τ. Index variables carry their sort in their name (@s is a
// Shape), so Π and Σ list names only.
type Type interface{ typeNode() }

// Base is an atom type: int, float, bool or char.
type Base struct{ Name string }

// TVar is a type variable; T-TAPP instantiates it with atom types only.
type TVar struct{ Name string }

// Arr is the array type A_ι τ, written [τ ι …] or (Arr τ ι).
type Arr struct {
	Elem  Type
	Shape Shape
}

// Fn is the function type (-> (τ …) σ): argument cell types and result
// cell type.
type Fn struct {
	Params []Type
	Ret    Type
}

// Forall is ∀[x …]τ.
type Forall struct {
	Vars []string
	Body Type
}

// Pi is the dependent product Π[(x γ) …]τ.
type Pi struct {
	Vars []string
	Body Type
}

// Sigma is the dependent sum Σ[(x γ) …]τ.
type Sigma struct {
	Vars []string
	Body Type
}

func (*Base) typeNode()   {}
func (*TVar) typeNode()   {}
func (*Arr) typeNode()    {}
func (*Fn) typeNode()     {}
func (*Forall) typeNode() {}
func (*Pi) typeNode()     {}
func (*Sigma) typeNode()  {}

// The base types.
var (
	Int   = &Base{"int"}
	Float = &Base{"float"}
	Bool  = &Base{"bool"}
	Char  = &Base{"char"}
)

// ArrOf is the array type of elem with constant dimensions ds.
func ArrOf(elem Type, ds ...int64) *Arr { return &Arr{Elem: elem, Shape: Dims(ds...)} }

// Canon is the canonical form of t under the type equivalence ≅ (T-EQUIV
// of Fig 7 decides types equal by their canonical forms): nested
// array types collapse (A_[m…](A_[n…]τ) ≅ A_[m…n…]τ), and an atom type
// where an array type is expected is the scalar array of it (§4.2 of the
// compiler paper). The result of Canon on an array position is always an
// *Arr whose element is an atom type.
func Canon(t Type) Type {
	switch t := t.(type) {
	case *Arr:
		e := Canon(t.Elem)
		if in, ok := e.(*Arr); ok {
			return &Arr{Elem: in.Elem, Shape: t.Shape.Append(in.Shape)}
		}
		return &Arr{Elem: e, Shape: t.Shape}
	case *Fn:
		ps := make([]Type, len(t.Params))
		for i, p := range t.Params {
			ps[i] = CanonArr(p)
		}
		return &Fn{Params: ps, Ret: CanonArr(t.Ret)}
	case *Forall:
		return &Forall{Vars: t.Vars, Body: CanonArr(t.Body)}
	case *Pi:
		return &Pi{Vars: t.Vars, Body: CanonArr(t.Body)}
	case *Sigma:
		return &Sigma{Vars: t.Vars, Body: CanonArr(t.Body)}
	}
	return t
}

// CanonArr is Canon of t in an array position: an atom type becomes its
// scalar array type.
func CanonArr(t Type) *Arr {
	c := Canon(t)
	if a, ok := c.(*Arr); ok {
		return a
	}
	return &Arr{Elem: c}
}

// IsAtomType reports whether t is not an array type.
func IsAtomType(t Type) bool {
	_, ok := t.(*Arr)
	return !ok
}

// Equal decides τ ≅ σ: the canonical forms are equal up to the names of
// bound variables, with indices compared in canonical form.
func Equal(a, b Type) bool { return equal(Canon(a), Canon(b), nil, nil) }

// equal compares canonical types; ra and rb rename bound variables of a and
// b to common fresh names.
func equal(a, b Type, ra, rb map[string]string) bool {
	switch a := a.(type) {
	case *Base:
		b, ok := b.(*Base)
		return ok && a.Name == b.Name
	case *TVar:
		b, ok := b.(*TVar)
		return ok && rename(ra, a.Name) == rename(rb, b.Name)
	case *Arr:
		b, ok := b.(*Arr)
		return ok && equal(a.Elem, b.Elem, ra, rb) && renameShape(ra, a.Shape).Equal(renameShape(rb, b.Shape))
	case *Fn:
		b, ok := b.(*Fn)
		if !ok || len(a.Params) != len(b.Params) || !equal(a.Ret, b.Ret, ra, rb) {
			return false
		}
		for i := range a.Params {
			if !equal(a.Params[i], b.Params[i], ra, rb) {
				return false
			}
		}
		return true
	case *Forall, *Pi, *Sigma:
		ka, va, ba := binder(a)
		kb, vb, bb := binder(b)
		if ka != kb {
			return false
		}
		na, nb, ok := bindCommon(va, vb, ra, rb)
		return ok && equal(ba, bb, na, nb)
	}
	return false
}

// freshBinder numbers the names bindCommon invents; they contain % so they
// cannot clash with a user's names.
var freshBinder atomic.Int64

// bindCommon renames the binders xs of one type and ys of the other to the
// same fresh names, keeping their sorts (the @ prefix).
func bindCommon(xs, ys []string, ra, rb map[string]string) (map[string]string, map[string]string, bool) {
	if len(xs) != len(ys) {
		return nil, nil, false
	}
	na, nb := semantics.CloneMap(ra), semantics.CloneMap(rb)
	for i := range xs {
		if IsShapeVar(xs[i]) != IsShapeVar(ys[i]) {
			return nil, nil, false
		}
		f := fmt.Sprintf("%%%d", freshBinder.Add(1))
		if IsShapeVar(xs[i]) {
			f = "@" + f
		}
		na[xs[i]], nb[ys[i]] = f, f
	}
	return na, nb, true
}

func rename(m map[string]string, x string) string {
	if y, ok := m[x]; ok {
		return y
	}
	return x
}

func renameShape(m map[string]string, s Shape) Shape {
	if len(m) == 0 {
		return s
	}
	sub := Subst{}
	for k, v := range m {
		if IsShapeVar(k) {
			sub[k] = ShapeIndex(ShapeVar(v))
		} else {
			sub[k] = NatIndex(NatVar(v))
		}
	}
	return sub.Shape(s)
}

// TypeSubst substitutes types for type variables and indices for index
// variables in a type. Bound variables shadow; substituted types and
// indices are closed in every use the semantics makes (Tβ and Iβ fire on
// closed terms) and in the checker's instantiations, whose arguments
// mention only variables in scope, which the binders of the type it
// instantiates have been renamed away from.
type TypeSubst struct {
	Types   map[string]Type
	Indices Subst
}

// Type substitutes into t.
func (s TypeSubst) Type(t Type) Type {
	if len(s.Types) == 0 && len(s.Indices) == 0 {
		return t
	}
	switch t := t.(type) {
	case *TVar:
		if u, ok := s.Types[t.Name]; ok {
			return u
		}
		return t
	case *Arr:
		return &Arr{Elem: s.Type(t.Elem), Shape: s.Indices.Shape(t.Shape)}
	case *Fn:
		ps := make([]Type, len(t.Params))
		for i, p := range t.Params {
			ps[i] = s.Type(p)
		}
		return &Fn{Params: ps, Ret: s.Type(t.Ret)}
	case *Forall:
		vars, body := s.avoid(t.Vars, t.Body, false)
		inner := TypeSubst{Types: withoutTypes(s.Types, vars), Indices: s.Indices}
		return &Forall{Vars: vars, Body: inner.Type(body)}
	case *Pi:
		vars, body := s.avoid(t.Vars, t.Body, true)
		inner := TypeSubst{Types: s.Types, Indices: s.Indices.Without(vars)}
		return &Pi{Vars: vars, Body: inner.Type(body)}
	case *Sigma:
		vars, body := s.avoid(t.Vars, t.Body, true)
		inner := TypeSubst{Types: s.Types, Indices: s.Indices.Without(vars)}
		return &Sigma{Vars: vars, Body: inner.Type(body)}
	}
	return t
}

// avoid renames the binders vars of body (index binders when index is
// set, else type binders) that occur free in what s substitutes, so that
// the substitution cannot capture them: (Forall (a) (Forall (b) …))
// instantiated with a := b must not make the outer b the inner one's.
func (s TypeSubst) avoid(vars []string, body Type, index bool) ([]string, Type) {
	free := map[string]bool{}
	if index {
		for _, ix := range s.Indices {
			ix.FreeVars(free)
		}
		for _, t := range s.Types {
			FreeIndexVars(t, free)
		}
	} else {
		for _, t := range s.Types {
			FreeTypeVars(t, free)
		}
	}
	var ren TypeSubst
	out := vars
	for i, v := range vars {
		if !free[v] {
			continue
		}
		if ren.Types == nil && ren.Indices == nil {
			out = append([]string{}, vars...)
		}
		f := Fresh(v)
		out[i] = f
		if index {
			if ren.Indices == nil {
				ren.Indices = Subst{}
			}
			if IsShapeVar(v) {
				ren.Indices[v] = ShapeIndex(ShapeVar(f))
			} else {
				ren.Indices[v] = NatIndex(NatVar(f))
			}
		} else {
			if ren.Types == nil {
				ren.Types = map[string]Type{}
			}
			ren.Types[v] = &TVar{Name: f}
		}
	}
	if ren.Types == nil && ren.Indices == nil {
		return vars, body
	}
	return out, ren.Type(body)
}

// Fresh is a new name for the variable x: x with a number after a %,
// which no program can write, keeping the @ of a Shape variable.
func Fresh(x string) string {
	base, _, _ := strings.Cut(x, "%")
	return fmt.Sprintf("%s%%%d", base, freshBinder.Add(1))
}

func withoutTypes(m map[string]Type, vs []string) map[string]Type {
	drop := false
	for _, v := range vs {
		if _, ok := m[v]; ok {
			drop = true
		}
	}
	if !drop {
		return m
	}
	out := map[string]Type{}
	for k, v := range m {
		out[k] = v
	}
	for _, v := range vs {
		delete(out, v)
	}
	return out
}

// freeIndexVars adds the free index variables of t to set.
func FreeIndexVars(t Type, set map[string]bool) {
	switch t := t.(type) {
	case *Arr:
		FreeIndexVars(t.Elem, set)
		ShapeIndex(t.Shape).FreeVars(set)
	case *Fn:
		for _, p := range t.Params {
			FreeIndexVars(p, set)
		}
		FreeIndexVars(t.Ret, set)
	case *Forall:
		FreeIndexVars(t.Body, set)
	case *Pi, *Sigma:
		_, vs, body := binder(t)
		inner := map[string]bool{}
		FreeIndexVars(body, inner)
		addUnbound(set, inner, vs)
	}
}

func addUnbound(set, inner map[string]bool, bound []string) {
	for k := range inner {
		set[k] = true
	}
	for _, b := range bound {
		if inner[b] {
			delete(set, b)
		}
	}
}

// TypeString prints t in the typed dialect's syntax: int, [int 3 4],
// (-> ([int 3]) int), (Forall (t) …), (Pi (d @s) …), (Sigma (d) …).
// Scalar array types print as their atom type.
func TypeString(t Type) string {
	switch t := t.(type) {
	case *Base:
		return t.Name
	case *TVar:
		return t.Name
	case *Arr:
		if in, ok := t.Elem.(*Arr); ok {
			return fmt.Sprintf("(Arr %s %s)", TypeString(in), t.Shape)
		}
		if len(t.Shape) == 0 {
			return TypeString(t.Elem)
		}
		return "[" + TypeString(t.Elem) + " " + strings.Join(t.Shape.Items(), " ") + "]"
	case *Fn:
		ps := make([]string, len(t.Params))
		for i, p := range t.Params {
			ps[i] = TypeString(p)
		}
		return "(-> (" + strings.Join(ps, " ") + ") " + TypeString(t.Ret) + ")"
	case *Forall, *Pi, *Sigma:
		k, vs, body := binder(t)
		return "(" + k + " (" + strings.Join(vs, " ") + ") " + TypeString(body) + ")"
	}
	return fmt.Sprintf("%T", t)
}

// binder takes a binding type apart: its keyword (Forall, Pi, Sigma), its
// bound variables and its body; the keyword is "" for other types.
func binder(t Type) (string, []string, Type) {
	switch t := t.(type) {
	case *Forall:
		return "Forall", t.Vars, t.Body
	case *Pi:
		return "Pi", t.Vars, t.Body
	case *Sigma:
		return "Sigma", t.Vars, t.Body
	}
	return "", nil, nil
}
