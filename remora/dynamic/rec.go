package dynamic

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// Recursion. A body's definitions that refer to themselves or to each
// other make a Rec (parseBody groups them), whose members are values as
// written, and every one of them is a λ on a cycle of references (a
// definition referred to before it is made but on no cycle is a let,
// parseBody's recGroup). Both semantics give a member's
// name, in the Rec's body, its unrolling: for a λ, the λ whose body is
// the group again around the λ's own body,
//
//	(begin (define (f (n 0)) (g n)) (define (g (n 0)) (f n)) body)
//	  ⟶β  body[f := (λ ((n 0)) (begin (define (f …) …) (define (g …) …) (g n))),
//	           g := (λ ((n 0)) (begin (define (f …) …) (define (g …) …) (f n)))]
//
// and for a primitive or a literal, itself. An unrolled λ is closed (the
// group inside binds its names), so substitution stays capture-free, and
// applying it meets the group again, which unrolls once more: one β step
// per call, the same in the big-step (which binds the unrolled λs as
// closures over the Rec's environment) and the small-step (which
// substitutes them). The dialect's if computes both branches, so a
// recursion ends only when its recursive call is mapped over an empty
// frame; the others are stopped by the bounds (the big-step's depth,
// the small-step's fuel and depth).

// newRec is the Rec of defs around body, with its unrollings.
func newRec(pos, end semantics.Pos, defs []Def, body Expr) *Rec {
	r := &Rec{Pos: pos, EndPos: end, Defs: defs, Body: body}
	r.unroll()
	return r
}

// unroll computes r.unrolled from r.Defs. The Recs inside the unrolled
// λs share the slice, so each λ is built once per group.
func (r *Rec) unroll() {
	r.unrolled = make([]Expr, len(r.Defs))
	names := map[string]bool{}
	for _, d := range r.Defs {
		names[d.X] = true
	}
	for i, d := range r.Defs {
		l, ok := d.Val.(*Lam)
		if !ok {
			r.unrolled[i] = d.Val
			continue
		}
		l = uncaptured(l, names)
		r.unrolled[i] = &Lam{Pos: l.Pos, Params: l.Params, Body: &Rec{Pos: d.Pos, Defs: r.Defs, Body: l.Body, unrolled: r.unrolled}}
	}
}

// bindings is what each name of the group stands for in its body.
func (r *Rec) bindings() map[string]Expr {
	vals := make(map[string]Expr, len(r.Defs))
	for i, d := range r.Defs {
		vals[d.X] = r.unrolled[i]
	}
	return vals
}

// uncaptured renames the parameters of l that the group's names, bound
// around l's body by its unrolling, would capture.
func uncaptured(l *Lam, names map[string]bool) *Lam {
	var ren map[string]Expr
	params := l.Params
	taken := func(x string) bool {
		if names[x] || bindsOrUses(l.Body, x) {
			return true
		}
		for _, p := range params {
			if p.Name == x {
				return true
			}
		}
		return false
	}
	for i, p := range l.Params {
		if !names[p.Name] {
			continue
		}
		if ren == nil {
			ren = map[string]Expr{}
			params = append([]Param{}, l.Params...)
		}
		fresh := p.Name + "%"
		for n := 1; taken(fresh); n++ {
			fresh = fmt.Sprintf("%s%%%d", p.Name, n)
		}
		params[i].Name = fresh
		ren[p.Name] = &Var{Pos: l.Pos, Name: fresh}
	}
	if ren == nil {
		return l
	}
	return &Lam{Pos: l.Pos, EndPos: l.EndPos, Params: params, Body: subst(l.Body, ren)}
}

// refusal is why the elaboration into the typed core (infer.go) stops at
// r: the typed core has no recursion, and the Remora compiler refuses
// recursive definitions.
func (r *Rec) refusal() string {
	fs := make([]string, len(r.Defs))
	for i, d := range r.Defs {
		fs[i] = d.X
	}
	what := fs[0] + " refers to itself"
	if len(fs) > 1 {
		what = strings.Join(fs[:len(fs)-1], ", ") + " and " + fs[len(fs)-1] + " refer to each other"
	}
	return "recursion: " + what + ", and the typed core has no recursion (the Remora compiler refuses recursive definitions too): a recursive program is not elaborated"
}
