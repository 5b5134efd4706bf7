package dynamic

import (
	"slices"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Shapes known only at run time (§4 of the rank-polymorphism paper,
// "Design goals", and the size slicing paper's existential sizes). Where
// the dialect computes a shape from values ((iota [n]) of a run-time n,
// filter, take of a run-time count), the typed core binds a Nat index
// variable to the run-time size (lift, or unbox of a box holding one)
// and types the array with it, inside the binder; the result, if its
// type mentions the variable, is boxed again, (Sigma (d …) τ), and the
// elaborator remembers that the box stands for its contents (aval.hide):
// the next operation opens it with unbox, and so on. A box the dialect
// writes ((box e)) is a Sigma too, hiding every dimension of its
// contents, so that boxes of contents of different shapes make one
// array.
//
// A binders value is one such region: the unboxes (and lets) an
// operation wraps around its term, the index variables they bind, and
// close, which wraps a result and boxes it over the variables its type
// mentions.
type binders struct {
	el    *elaborator
	pos   semantics.Pos
	wraps []string // opening texts, outermost first, each closed by ")"
	dims  []string // the index variables the wraps bind
	boxes bool     // some wrap opens a box (not only lets)
	pre   []string // the bindings of functions' arguments (aval.pre)
}

func (el *elaborator) scope(pos semantics.Pos) *binders { return &binders{el: el, pos: pos} }

// open is a's contents when a stands for a box's contents (aval.hide),
// bound by an unbox around the scope's term to fresh names; else a.
func (s *binders) open(a *aval) *aval {
	if a == nil || len(a.hide) == 0 {
		return a
	}
	x := s.el.fresh("x")
	sub := map[string]remora.Nat{}
	ds := make([]string, len(a.hide))
	for i, h := range a.hide {
		ds[i] = s.el.fresh("d")
		sub[h] = remora.NatVar(ds[i])
	}
	s.wraps = append(s.wraps, "(unbox "+a.term+" ("+x+" "+strings.Join(ds, " ")+") ")
	s.dims = append(s.dims, ds...)
	s.boxes = true
	b := a.subst(sub)
	b.term, b.hide, b.known = x, nil, nil
	return b
}

// let binds a's term to a fresh name around the scope's term (so that
// what uses it several times computes it once).
func (s *binders) let(a *aval) *aval {
	if isName(a.term) {
		return a
	}
	x := s.el.fresh("v")
	s.wraps = append(s.wraps, "(let ["+x+" "+a.term+"] ")
	b := *a
	b.term = x
	return &b
}

// isName reports whether a term is a variable or a literal number (which
// costs nothing to repeat and cannot go wrong).
func isName(term string) bool {
	t := plain(term)
	return t != "" && !strings.ContainsAny(t, "()[] ")
}

// lift is an index whose value is the int scalar n's: n's own (a known
// value, a length), or a fresh variable bound to it by a lift, which is
// stuck if n is negative, as the dialect is where a size is negative.
func (s *binders) lift(n *aval, what string) remora.Nat {
	if len(n.typ.shape) != 0 || n.typ.elem != remora.KInt {
		s.el.fail(s.pos, "%s is an int, got %s", what, n.typ)
	}
	if len(n.nats) == 1 {
		if n.nats[0].IsConst() && n.nats[0].Const < 0 {
			s.el.fail(s.pos, "%s is %d, not a natural: it would stop in δ", what, n.nats[0].Const)
		}
		return n.nats[0]
	}
	d, y, z := s.el.fresh("d"), s.el.fresh("n"), s.el.fresh("_")
	s.wraps = append(s.wraps, "(unbox (lift ["+y+" "+n.term+"] (reify-dimension "+y+")) ("+z+" "+d+") ")
	s.dims = append(s.dims, d)
	s.boxes = true
	return remora.NatVar(d)
}

// liftAll lifts each int of a vector (a shape): a frame's cells where
// the vector was written as one, else its items, the vector bound once.
func (s *binders) liftAll(v *aval, what string) []remora.Nat {
	if len(v.typ.shape) != 1 || v.typ.elem != remora.KInt && !hasZero(v.typ.shape) {
		s.el.fail(s.pos, "%s is a vector of ints, got %s", what, v.typ)
	}
	if len(v.nats) > 0 || hasZero(v.typ.shape) {
		for _, d := range v.nats {
			if d.IsConst() && d.Const < 0 {
				s.el.fail(s.pos, "%s has the negative %d: it would stop in δ", what, d.Const)
			}
		}
		return v.nats
	}
	k, ok := consts(v.typ.shape)
	if !ok {
		s.el.fail(s.pos, "%s has a length known only at run time: the rank of the shape it makes would be too", what)
	}
	v = s.let(v)
	out := make([]remora.Nat, k[0])
	for i := range out {
		out[i] = s.lift(&aval{term: "(index{int | " + natsString(v.typ.shape) + " [] 1} " + v.term + " [" + itoa(i) + "])", typ: ity{elem: remora.KInt}}, what)
	}
	return out
}

// close wraps r in the scope's binders. If r's type mentions the index
// variables they bind, r is boxed over them (joining the variables r
// hides already): it stands for the box's contents from here on.
func (s *binders) close(r *aval) *aval {
	if r.funs != nil {
		if s.boxes {
			s.el.fail(s.pos, "a function made where a shape is known only at run time (a box or a computed size): the typed core's functions cannot take their types from it")
		}
		out := *r
		out.pre = slices.Concat(s.pre, letBindings(s.wraps), r.pre)
		return &out
	}
	if len(s.wraps) == 0 && len(s.pre) == 0 && len(s.dims) == 0 {
		return r
	}
	bound := setOf(s.dims)
	out := *r
	if r.mentions(bound) {
		vs := map[string]bool{}
		r.typ.vars(vs)
		var hid []string
		for _, d := range s.dims {
			if vs[d] {
				hid = append(hid, d)
			}
		}
		if len(hid) > 0 {
			all := append(append([]string{}, r.hide...), hid...)
			sig := "(Sigma (" + strings.Join(all, " ") + ") " + r.typ.String() + ")"
			if len(r.hide) == 0 {
				out.term = "(box (" + strings.Join(hid, " ") + ") " + sig + " " + r.term + ")"
			} else {
				z := s.el.fresh("z")
				out.term = "(unbox " + r.term + " (" + z + " " + strings.Join(r.hide, " ") + ") (box (" + strings.Join(all, " ") + ") " + sig + " " + z + "))"
			}
			out.hide = all
		}
		// What is known in terms of variables that go out of scope
		// unhidden goes.
		hidden := setOf(out.hide)
		for _, d := range out.nats {
			for _, v := range d.Vars {
				if bound[v] && !hidden[v] {
					out.nats = nil
				}
			}
		}
	}
	term := out.term
	for i := len(s.wraps) - 1; i >= 0; i-- {
		term = s.wraps[i] + term + ")"
	}
	out.term = wrapLets(s.pre, term)
	return &out
}

// letBindings are the bindings "[x e]" of the scope's lets (a scope
// around a function has no unboxes).
func letBindings(wraps []string) []string {
	var out []string
	for _, w := range wraps {
		out = append(out, strings.TrimPrefix(strings.TrimSuffix(w, " "), "(let "))
	}
	return out
}

// wrapLets wraps a term in let bindings "[x e]", the first outermost.
func wrapLets(pre []string, term string) string {
	for i := len(pre) - 1; i >= 0; i-- {
		term = "(let " + pre[i] + " " + term + ")"
	}
	return term
}

// withPre is r with the bindings pre around it: on its term, or, for a
// function, on the terms that will use it.
func withPre(pre []string, r *aval) *aval {
	if len(pre) == 0 {
		return r
	}
	out := *r
	if r.funs != nil {
		out.pre = slices.Concat(pre, r.pre)
	} else {
		out.term = wrapLets(pre, r.term)
	}
	return &out
}

// boxOf is the dialect's (box a): a's contents with every dimension
// hidden, (Sigma (b …) [τ b …]).
func (el *elaborator) boxOf(pos semantics.Pos, a *aval) *aval {
	el.mustBeDefinite(pos, a)
	el.notRagged(pos, "box", a)
	if a.typ.elem == remora.KNum {
		el.fail(pos, "a box of exact rationals (a compiled box holds ints, floats, booleans or characters)")
	}
	if hidesAll(a) {
		// The box that stands for a is the dialect's box of it already.
		inner := a.typ
		return &aval{term: a.term, typ: ity{elem: remora.KBox, box: &inner}}
	}
	s := el.scope(pos)
	a = s.open(a)
	inner := a.typ
	t := ity{elem: remora.KBox, box: &inner}
	ws := natsString(a.typ.shape)
	term := "(box (" + ws[1:len(ws)-1] + ") " + t.atom() + " " + a.term + ")"
	return s.close(typedArray(term, t, nil))
}

// notRagged refuses an array mapped over a frame of run-time size whose
// cells are not scalars (aval.ragged) where the difference would show.
func (el *elaborator) notRagged(pos semantics.Pos, what string, as ...*aval) {
	for _, a := range as {
		if a != nil && a.ragged > 0 {
			el.fail(pos, "%s of an array mapped over a frame of run-time size: where that frame is empty the dialect gives the array the frame's shape, without the cells' (ERRATA R10), which the compiled program cannot tell ahead", what)
		}
	}
}

// hidesAll reports whether a stands for a box that hides each of its
// dimensions in order, (Sigma (d …) [τ d …]): the dialect's box of it.
func hidesAll(a *aval) bool {
	if len(a.hide) != a.typ.rank() || len(a.hide) == 0 {
		return false
	}
	for i, d := range a.typ.shape {
		if !d.Equal(remora.NatVar(a.hide[i])) {
			return false
		}
	}
	return true
}

// collapseBoxes is the dialect's collapse of cells whose shapes it
// computes at run time: term is a frame (of shape frame) of boxes each
// standing for one cell, (Sigma (hide…) cell); the dialect makes one
// array of them if their shapes agree, and is stuck in collapse if not.
// So is the typed term: the witnesses over the frame are compared with
// their maximum (stuck on a division by zero where one differs), the
// maximum bound by a lift, and each box read at that shape.
func (el *elaborator) collapseBoxes(pos semantics.Pos, frame []remora.Nat, term string, cell ity, hide []string) *aval {
	s := el.scope(pos)
	b := el.fresh("bs")
	s.wraps = append(s.wraps, "(let ["+b+" "+term+"] ")
	sig := "(Sigma (" + strings.Join(hide, " ") + ") " + cell.String() + ")"
	// opened is the term reading each box over the frame, its contents
	// bound to c and its witnesses to fresh names.
	opened := func(body func(c string, sub map[string]remora.Nat) string) string {
		x, c := el.fresh("b"), el.fresh("c")
		sub := map[string]remora.Nat{}
		var hs []string
		for _, h := range hide {
			n := el.fresh("d")
			hs = append(hs, n)
			sub[h] = remora.NatVar(n)
		}
		return "((fn ([" + x + " " + sig + "]) (unbox " + x + " (" + c + " " + strings.Join(hs, " ") + ") " + body(c, sub) + ")) " + b + ")"
	}
	reduceOver := func(op, unit, t, v string) string {
		for i := len(frame) - 1; i >= 0; i-- {
			y := el.fresh("v")
			v = "((fn ([" + y + " [" + t + " " + frame[i].String() + "]]) (reduce-init{" + t + " | " + frame[i].String() + " [] []} " + op + " " + unit + " " + y + ")) " + v + ")"
		}
		return v
	}
	ok := "#t"
	var ms []string
	for _, h := range hide {
		w := el.fresh("w")
		s.wraps = append(s.wraps, "(let ["+w+" "+opened(func(_ string, sub map[string]remora.Nat) string { return "(reify-dimension " + sub[h].String() + ")" })+"] ")
		m := el.fresh("m")
		s.wraps = append(s.wraps, "(let ["+m+" "+reduceOver("max", "0", "int", w)+"] ")
		ok = "(and " + ok + " " + el.allTrue("(= "+w+" "+m+")", frame) + ")"
		ms = append(ms, m)
	}
	agree := el.fresh("agree")
	s.wraps = append(s.wraps, "(let ["+agree+" (/! 1 (bool->int "+ok+"))] ")
	sub := map[string]remora.Nat{}
	for i, h := range hide {
		sub[h] = s.lift(intScalarAval("(*! "+ms[i]+" "+agree+")"), "the collapsed cells' shape")
	}
	want := cell.subst(sub)
	read := opened(func(c string, own map[string]remora.Nat) string {
		j := el.fresh("j")
		return "((fn ([" + j + " int]) " + atFlat(c, cell.subst(own), j) + ") iota{ | " + natsString(want.shape) + "})"
	})
	r := &aval{term: read, typ: want.with(append(append([]remora.Nat{}, frame...), want.shape...))}
	if symbolic(frame) {
		r.ragged = len(frame)
	}
	return s.close(r)
}
