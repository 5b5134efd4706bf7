package dynamic

import (
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Values are the typed core's flat arrays (remora.Value): a shape and a
// buffer of atoms. Function atoms are *Func; boxes are *remora.Box with no
// witnesses or type, which print as (box v).

// Func is a function atom: a λ, or a primitive.
type Func struct {
	Lam  *Lam     // nil for a primitive
	Prim *PrimDef // the primitive
	Env  *env     // the big-step closure's environment; nil in the small-step, whose terms are closed
}

// Ranks are the cell ranks the function takes (All for any rank); a
// scalar primitive of variable arity gives its least arity's.
func (f *Func) Ranks() []int {
	if f.Lam == nil {
		return f.Prim.Ranks
	}
	rs := make([]int, len(f.Lam.Params))
	for i, p := range f.Lam.Params {
		rs[i] = p.Rank
	}
	return rs
}

// RanksFor are the cell ranks the function takes when applied to n
// arguments: a scalar primitive of variable arity takes n scalar cells.
func (f *Func) RanksFor(n int) []int {
	if f.Lam == nil {
		return f.Prim.RanksFor(n)
	}
	return f.Ranks()
}

// String prints the function as a term: the primitive's name, or the λ
// with the values of its free variables substituted in (so that the
// big-step prints a closure as the small-step, which substitutes as it
// goes, would).
func (f *Func) String() string {
	if f.Lam == nil {
		return f.Prim.Name
	}
	return ExprString(f.closed())
}

func (f *Func) closed() Expr {
	if f.Env == nil {
		return f.Lam
	}
	vals := map[string]Expr{}
	for e := f.Env; e != nil; e = e.parent {
		if _, seen := vals[e.name]; !seen {
			vals[e.name] = &Lit{Pos: f.Lam.Pos, V: e.val}
		}
	}
	return subst(f.Lam, vals)
}

// funcValue is the scalar array of one function.
func funcValue(f *Func) *remora.Value { return remora.AtomScalar(remora.KFunc, f) }

// boxValue is the scalar array of one box.
func boxValue(v *remora.Value) *remora.Value {
	return remora.AtomScalar(remora.KBox, &remora.Box{Val: v})
}

// env is the big-step environment: a persistent list of bindings.
type env struct {
	parent *env
	name   string
	val    *remora.Value
}

func (e *env) bind(x string, v *remora.Value) *env { return &env{parent: e, name: x, val: v} }

func (e *env) lookup(x string) (*remora.Value, bool) {
	for ; e != nil; e = e.parent {
		if e.name == x {
			return e.val, true
		}
	}
	return nil, false
}

// product is the number of atoms of an array of shape ds.
func product(ds []int64) int {
	n := 1
	for _, d := range ds {
		n *= int(d)
	}
	return n
}

// arity describes how many arguments the function takes.
func (f *Func) arity() string {
	if f.Lam == nil {
		return f.Prim.arity()
	}
	n := len(f.Lam.Params)
	return semantics.Plural(n, "argument")
}
