package dynamic

import (
	"slices"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// The major-axis primitives and the library's basis (library.go), each
// as typed primitives instantiated at the shapes of its arguments, or a
// typed term computing what the dialect computes. A count or shape known
// only at run time is lifted to an index (scope.lift), which is stuck
// where the dialect is on a negative one; a result whose shape depends
// on values stands for a box (aval.hide).

// call writes (head a …).
func call(head string, as ...*aval) string {
	parts := []string{head}
	for _, a := range as {
		parts = append(parts, a.term)
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// natMinus is d - n as an int term.
func natMinus(d, n remora.Nat) string {
	if d.IsConst() && n.IsConst() {
		return itoa64(d.Const - n.Const)
	}
	return "(-! " + natTerm(d) + " " + natTerm(n) + ")"
}

func intScalarAval(term string) *aval { return &aval{term: term, typ: ity{elem: remora.KInt}} }

// major elaborates a primitive whose arguments are whole cells (a scalar
// frame).
func (el *elaborator) major(pos semantics.Pos, p *PrimDef, args []*aval) *aval {
	if base, ok := strings.CutSuffix(p.Name, "*"); ok && Basis[base] != nil && Basis[base].Cells != nil {
		// The library's starred forms: the result boxed.
		return el.boxOf(pos, el.major(pos, Basis[base], args))
	}
	for _, a := range args {
		if a.funs != nil {
			el.fail(pos, "%s takes arrays, not functions", p.Name)
		}
	}
	switch p.Name {
	case "box":
		return el.boxOf(pos, args[0])
	case "unsafe-unbox":
		return el.unsafeUnbox(pos, args[0])
	case "string->array", "array->string":
		a := args[0]
		if a.typ.rank() != 1 || a.typ.elem != remora.KChar && !hasZero(a.typ.shape) {
			el.fail(pos, "%s wants a string (a vector of characters), got %s: it would stop in δ", p.Name, a.typ)
		}
		return a
	}
	el.notRagged(pos, p.Name, args...)
	s := el.scope(pos)
	r := el.major1(pos, s, p, args)
	if i, ok := rearranges[p.Name]; ok {
		// Its atoms are some of the argument's.
		r.zero, r.nonzero = args[i].zero, args[i].nonzero
	}
	return s.close(r)
}

// rearranges are the primitives whose result's atoms are atoms of one
// argument (which one): what is known of them holds of the result.
var rearranges = map[string]int{
	"replicate": 1, "reshape": 1, "itemize": 0, "reverse": 0, "rotate": 0, "index": 0, "subvector": 0,
	"head": 0, "tail": 0, "behead": 0, "curtail": 0, "take": 1, "drop": 1, "take-right": 1, "drop-right": 1,
	"window": 1, "ravel": 0, "transpose": 1, "filter": 1, "nub": 0,
}

func (el *elaborator) major1(pos semantics.Pos, s *binders, p *PrimDef, args []*aval) *aval {
	if len(args) == 0 {
		el.fail(pos, "%s with no arguments is not elaborated", p.Name)
	}
	a := args[0]
	t := a.typ
	elems := []string{t.atom()}
	var d remora.Nat
	var item []remora.Nat
	if len(t.shape) > 0 {
		d, item = t.shape[0], t.shape[1:]
	}
	switch p.Name {
	case "iota":
		ds := s.liftAll(a, "iota's shape")
		var known *remora.Value
		if cds, ok := consts(ds); ok && smallShape(cds) {
			known = remora.NewValue(remora.KInt, cds, product(cds))
			for i := range known.I {
				known.I[i] = int64(i)
			}
		}
		return typedArray("iota{ | "+natsString(ds)+"}", ity{elem: remora.KInt, shape: ds}, known)
	case "length":
		el.needMajor(pos, "length", a)
		out := typedArray(call(instantiation("length", elems, d.String(), t.cix(item)), a), ity{elem: remora.KInt}, nil)
		out.nats = []remora.Nat{d}
		if d.IsConst() {
			out.known = remora.IntScalar(d.Const)
			out.nonzero = d.Const != 0
		}
		return out
	case "shape-of":
		x := el.fresh("x")
		out := typedArray("((fn (["+x+" "+t.String()+"]) (reify-shape "+natsString(t.shape)+")) "+a.term+")", ity{elem: remora.KInt, shape: dimsOf([]int64{int64(t.rank())})}, nil)
		out.nats = t.shape
		if ds, ok := consts(t.shape); ok {
			out.known = remora.NewValue(remora.KInt, []int64{int64(len(ds))}, len(ds))
			copy(out.known.I, ds)
		}
		return out
	case "append":
		return el.appendArrays(pos, args[0], args[1])
	case "reverse":
		el.needMajor(pos, p.Name, a)
		return typedArray(call(instantiation("reverse", elems, d.String(), t.cix(item)), a), t, nil)
	case "rotate":
		el.needMajor(pos, p.Name, a)
		if args[1].typ.elem != remora.KInt || len(args[1].typ.shape) != 0 {
			el.fail(pos, "rotate's shift is an int, got %s: it would stop in δ", args[1].typ)
		}
		return typedArray(call(instantiation("rotate", elems, d.String(), t.cix(item)), args...), t, nil)
	case "head":
		x, e := el.atLeastOne(pos, s, "head", a)
		return typedArray(call(instantiation("head", elems, e.String(), t.cix(item)), x), t.with(item), nil)
	case "behead":
		// The dialect's behead is the typed tail (ERRATA R16).
		x, e := el.atLeastOne(pos, s, "behead", a)
		return typedArray(call(instantiation("tail", elems, e.String(), t.cix(item)), x), t.with(append([]remora.Nat{e}, item...)), nil)
	case "tail":
		// The library's tail is the last item.
		x, e := el.atLeastOne(pos, s, "tail", a)
		return typedArray("("+instantiation("index", elems, natsString(x.typ.shape[:1]), t.cix(item), "1")+" "+x.term+" ["+natTerm(e)+"])", t.with(item), nil)
	case "curtail":
		x, e := el.atLeastOne(pos, s, "curtail", a)
		return typedArray("("+instantiation("subvector", elems, x.typ.shape[0].String(), e.String(), t.cix(item))+" "+x.term+" 0)", t.with(append([]remora.Nat{e}, item...)), nil)
	case "itemize":
		return typedArray("("+instantiation("replicate", elems, "[1]", t.cix(t.shape))+" "+a.term+")", t.with(append([]remora.Nat{remora.NatConst(1)}, t.shape...)), nil)
	case "reshape":
		ds := s.liftAll(a, "reshape's shape")
		return el.reshape(pos, s, ds, args[1])
	case "ravel":
		return el.ravel(pos, s, a)
	case "replicate":
		ds := s.liftAll(a, "replicate's shape")
		x := args[1]
		head := instantiation("replicate", []string{x.typ.atom()}, natsString(ds), x.typ.cix(x.typ.shape))
		return typedArray("("+head+" "+x.term+")", x.typ.with(append(append([]remora.Nat{}, ds...), x.typ.shape...)), nil)
	case "index":
		at := args[1]
		if at.typ.elem != remora.KInt && !hasZero(at.typ.shape) || at.typ.rank() != 1 {
			el.fail(pos, "index's position is a vector of ints, got %s: it would stop in δ", at.typ)
		}
		ls, ok := consts(at.typ.shape)
		if !ok || int(ls[0]) > t.rank() {
			el.fail(pos, "index's position is a vector of at most %d ints, got %s", t.rank(), at.typ)
		}
		l := int(ls[0])
		pos1 := at.term
		if l == 0 {
			pos1 = "((fn ([p " + at.typ.String() + "]) (frame [0] int)) " + at.term + ")"
		}
		head := instantiation("index", elems, natsString(t.shape[:l]), t.cix(t.shape[l:]), strconv.Itoa(l))
		return typedArray("("+head+" "+a.term+" "+pos1+")", t.with(t.shape[l:]), nil)
	case "subvector":
		el.needMajor(pos, p.Name, a)
		if args[1].typ.elem != remora.KInt || args[1].typ.rank() != 0 {
			el.fail(pos, "subvector's offset is an int, got %s: it would stop in δ", args[1].typ)
		}
		n := s.lift(args[2], "subvector's length")
		head := instantiation("subvector", elems, d.String(), n.String(), t.cix(item))
		return typedArray(call(head, a, args[1]), t.with(append([]remora.Nat{n}, item...)), nil)
	case "scatter":
		el.needMajor(pos, p.Name, a)
		if t.elem == remora.KBox {
			el.fail(pos, "scatter of boxes: the positions nothing goes to would hold no box")
		}
		at := args[1]
		if at.typ.elem != remora.KInt && !hasZero(at.typ.shape) || at.typ.rank() != 1 {
			el.fail(pos, "scatter's positions are a vector of ints, got %s: it would stop in δ", at.typ)
		}
		at = el.unify(pos, "scatter's items and positions", at, []remora.Nat{d})
		n := s.lift(args[2], "scatter's length")
		head := instantiation("scatter", elems, d.String(), n.String(), t.cix(item))
		return typedArray(call(head, a, at), t.with(append([]remora.Nat{n}, item...)), nil)
	case "filter":
		return el.filter(pos, args[0], args[1])
	case "take", "drop", "take-right", "drop-right":
		return el.take(pos, s, p.Name, args[0], args[1])
	case "window":
		return el.window(pos, s, args[0], args[1])
	case "nub-sieve":
		el.needMajor(pos, p.Name, a)
		return typedArray(el.sieve(pos, s, a), ity{elem: remora.KBool, shape: []remora.Nat{d}}, nil)
	case "nub":
		el.needMajor(pos, p.Name, a)
		x := s.let(a)
		return el.filter(pos, &aval{term: el.sieve(pos, s, x), typ: ity{elem: remora.KBool, shape: []remora.Nat{d}}}, x)
	case "equal":
		return el.equal(pos, s, args[0], args[1])
	case "base":
		return el.base(pos, s, args[0], args[1])
	case "antibase":
		return el.antibase(pos, p, args[0], args[1])
	case "select":
		return el.selectArrays(pos, s, args[0], args[1], args[2])
	case "transpose":
		return el.transpose(pos, s, args[0], args[1])
	case "shuffle", "deal":
		return el.shuffle(pos, s, p.Name, args)
	case "show":
		if a.known == nil {
			el.fail(pos, "show makes a string of a value's printed form, which the compiled levels do not have (of a value known before the program runs, it is that string)")
		}
		str := remora.StringValue(a.known.String())
		return el.evaluated(a, typedArray(str.TermString(), ity{elem: remora.KChar, shape: dimsOf(str.Shape)}, str))
	case "compose":
		el.fail(pos, "compose makes a function from functions at run time: apply them in a λ instead, (λ ((x 0)) (f (g x)))")
	case "pair", "fst", "snd", "lookup", "lookup+", "lookup*":
		el.fail(pos, "%s: pairs and association tables (records) are the library's Racket interop, which the typed core has no type for", p.Name)
	}
	el.fail(pos, "%s is not elaborated", p.Name)
	return nil
}

// sameDims refuses dimensions that differ (statically: the dialect would
// stop) or may differ (known only at run time).
func (el *elaborator) sameDims(pos semantics.Pos, what string, a, b []remora.Nat) {
	if natsEqual(a, b) {
		return
	}
	_, ok1 := consts(a)
	_, ok2 := consts(b)
	if ok1 && ok2 {
		el.fail(pos, "%s have shapes %s and %s: it would stop in δ", what, natsString(a), natsString(b))
	}
	el.fail(pos, "%s have shapes %s and %s, known only at run time, which may not agree (the dialect checks them as it runs)", what, natsString(a), natsString(b))
}

// unify is a at the shape want: a itself, or, where the two are known
// only at run time, a read at want once they are checked equal (stuck,
// as the dialect is, where they are not: cast); refused where they
// differ statically.
func (el *elaborator) unify(pos semantics.Pos, what string, a *aval, want []remora.Nat) *aval {
	if natsEqual(a.typ.shape, want) {
		return a
	}
	if len(a.typ.shape) != len(want) || mismatch(a.typ.shape, want) {
		el.sameDims(pos, what, a.typ.shape, want)
	}
	return el.cast(a, want)
}

// atLeastOne is a with its major axis written (+ e 1), and e: the typed
// head, tail and subvector want an array known to have an item. A
// length known only at run time is lifted less one, which is stuck, as
// the dialect is, where there are no items.
func (el *elaborator) atLeastOne(pos semantics.Pos, s *binders, name string, a *aval) (*aval, remora.Nat) {
	el.needMajor(pos, name, a)
	d := a.typ.shape[0]
	if d.Const >= 1 {
		return a, remora.Nat{Const: d.Const - 1, Vars: d.Vars}
	}
	if d.IsConst() {
		el.fail(pos, "%s of an array with no items: it would stop in δ", name)
	}
	e := s.lift(intScalarAval("(-! "+natTerm(d)+" 1)"), name+"'s array's length less one")
	item := a.typ.shape[1:]
	one := remora.Nat{Const: 1}.Plus(e)
	head := instantiation("subvector", []string{a.typ.atom()}, d.String(), one.String(), a.typ.cix(item))
	return typedArray("("+head+" "+a.term+" 0)", a.typ.with(append([]remora.Nat{one}, item...)), nil), e
}

// appendArrays is the dialect's append: items of one shape, ints joining
// floats as floats (an empty array takes the other's atoms).
func (el *elaborator) appendArrays(pos semantics.Pos, a, b *aval) *aval {
	el.needMajor(pos, "append", a)
	el.needMajor(pos, "append", b)
	el.sameDims(pos, "append's items", a.typ.shape[1:], b.typ.shape[1:])
	elem := a.typ
	switch {
	case a.typ.sameAtoms(b.typ):
	case isNum(a.typ.elem) && isNum(b.typ.elem):
		elem.elem = joinKinds(a.typ.elem, b.typ.elem)
	case hasZero(a.typ.shape):
		a, elem = el.emptyAs(pos, a, b.typ), b.typ
	case hasZero(b.typ.shape):
		b = el.emptyAs(pos, b, a.typ)
	default:
		el.fail(pos, "append joins %s and %s atoms: it would stop in δ", a.typ.atom(), b.typ.atom())
	}
	item := a.typ.shape[1:]
	head := instantiation("append", []string{elem.atom()}, a.typ.shape[0].String(), b.typ.shape[0].String(), elem.cix(item))
	shape := append([]remora.Nat{a.typ.shape[0].Plus(b.typ.shape[0])}, item...)
	return typedArray("("+head+" "+convertTo(a, elem.elem)+" "+convertTo(b, elem.elem)+")", elem.with(shape), nil)
}

// emptyAs is an array with no atoms as one of t's atoms, once computed.
func (el *elaborator) emptyAs(pos semantics.Pos, a *aval, t ity) *aval {
	ds, ok := consts(a.typ.shape)
	if !ok || t.elem == remora.KBox {
		el.fail(pos, "an empty array of %s atoms joined with %s atoms", a.typ.atom(), t.atom())
	}
	x := el.fresh("x")
	return typedArray("((fn (["+x+" "+a.typ.String()+"]) (frame "+shapeString(ds)+" "+t.atom()+")) "+a.term+")", t.with(a.typ.shape), nil)
}

// unsafeUnbox opens one box: its contents, whose shape it hides (the box
// is what stands for them).
func (el *elaborator) unsafeUnbox(pos semantics.Pos, b *aval) *aval {
	if b.typ.elem != remora.KBox || b.typ.rank() != 0 {
		el.fail(pos, "unsafe-unbox wants a box, got %s: it would stop in δ", b.typ)
	}
	s := el.scope(pos)
	b = s.open(b)
	in := b.typ.box
	hide := make([]string, in.rank())
	shape := make([]remora.Nat, in.rank())
	for i := range hide {
		hide[i] = el.fresh("d")
		shape[i] = remora.NatVar(hide[i])
	}
	out := &aval{term: b.term, typ: in.with(shape), hide: hide}
	if len(hide) == 0 {
		x := el.fresh("x")
		out = &aval{term: "(unbox " + b.term + " (" + x + ") " + x + ")", typ: *in}
	}
	return s.close(out)
}

// filter keeps the items whose boolean is #t: the typed filter (items
// first, ERRATA R16), whose box stands for the items kept.
func (el *elaborator) filter(pos semantics.Pos, bools, items *aval) *aval {
	el.needMajor(pos, "filter", items)
	el.notRagged(pos, "filter", bools, items)
	if bools.typ.rank() != 1 || bools.typ.elem != remora.KBool && !hasZero(bools.typ.shape) {
		el.fail(pos, "filter wants a vector of booleans, got %s: it would stop in δ", bools.typ)
	}
	d := items.typ.shape[0]
	bools = el.unify(pos, "filter's booleans and items", bools, []remora.Nat{d})
	item := items.typ.shape[1:]
	k := el.fresh("d")
	head := instantiation("filter", []string{items.typ.atom()}, d.String(), items.typ.cix(item))
	bt := bools.term
	if bools.typ.elem != remora.KBool {
		// No booleans (an empty array of any atoms), where the items
		// are none (checked by unify).
		bt = "(let [" + el.fresh("_") + " " + bools.term + "] (replicate{bool | [" + d.String() + "] []} #f))"
	}
	return &aval{term: "(" + head + " " + items.term + " " + bt + ")", typ: items.typ.with(append([]remora.Nat{remora.NatVar(k)}, item...)), hide: []string{k}}
}

// take elaborates take, drop, take-right and drop-right: a subvector
// whose length and offset come from the count, lifted (stuck, as the
// dialect is, where the count is negative or past the length).
func (el *elaborator) take(pos semantics.Pos, s *binders, name string, n, x *aval) *aval {
	el.needMajor(pos, name, x)
	d := x.typ.shape[0]
	m := s.lift(n, name+"'s count")
	var rest remora.Nat
	if d.IsConst() && m.IsConst() {
		if m.Const > d.Const {
			el.fail(pos, "%s: %d items of an array of %d: it would stop in δ", name, m.Const, d.Const)
		}
		rest = remora.NatConst(d.Const - m.Const)
	} else {
		rest = s.lift(intScalarAval(natMinus(d, m)), name+"'s count past the length")
	}
	length, off := m, "0"
	switch name {
	case "take-right":
		off = natTerm(rest)
	case "drop":
		length, off = rest, natTerm(m)
	case "drop-right":
		length = rest
	}
	item := x.typ.shape[1:]
	head := instantiation("subvector", []string{x.typ.atom()}, d.String(), length.String(), x.typ.cix(item))
	return typedArray("("+head+" "+x.term+" "+off+")", x.typ.with(append([]remora.Nat{length}, item...)), nil)
}

// window: the stack of x rotated by 0 … l-1, (rotate x (iota [l])), as
// the library defines it (not sliding windows); l may exceed the length,
// the rotations repeating.
func (el *elaborator) window(pos semantics.Pos, s *binders, n, x *aval) *aval {
	el.needMajor(pos, "window", x)
	d := x.typ.shape[0]
	l := s.lift(n, "window's length")
	x = s.let(x)
	item := x.typ.shape[1:]
	i := el.fresh("i")
	head := instantiation("rotate", []string{x.typ.atom()}, d.String(), x.typ.cix(item))
	term := "((fn ([" + i + " int]) (" + head + " " + x.term + " " + i + ")) iota{ | [" + l.String() + "]})"
	return typedArray(term, x.typ.with(append([]remora.Nat{l}, x.typ.shape...)), nil)
}

// atomEq is a typed function of two atoms of t that is #t where the
// dialect's equal holds of them (Racket's equal? on the atoms, as
// remora.Value.Equal compares them: floats equal or both NaN).
func (el *elaborator) atomEq(pos semantics.Pos, t ity) string {
	switch t.elem {
	case remora.KInt:
		return "="
	case remora.KBool:
		return "(fn ([a bool] [b bool]) (= (bool->int a) (bool->int b)))"
	case remora.KChar:
		return "(fn ([a char] [b char]) (= (char->int a) (char->int b)))"
	case remora.KFloat:
		return "(fn ([a float] [b float]) (or (and (<=. a b) (>=. a b)) (and (not (<=. a a)) (not (<=. b b)))))"
	case remora.KNum:
		// In lowest terms.
		return "(fn ([a [int 2]] [b [int 2]]) (and (= " + ratA + " " + ratC + ") (= " + ratB + " " + ratD + ")))"
	}
	el.fail(pos, "comparing boxes for equality (their contents may differ in shape)")
	return ""
}

// allTrue is the and of every atom of a boolean array of this shape:
// the last axis and-reduced, lifted over the others, and so on.
func (el *elaborator) allTrue(term string, shape []remora.Nat) string {
	for i := len(shape) - 1; i >= 0; i-- {
		v := el.fresh("v")
		term = "((fn ([" + v + " [bool " + shape[i].String() + "]]) (reduce-init{bool | " + shape[i].String() + " [] []} and #t " + v + ")) " + term + ")"
	}
	return term
}

// sieve is nub-sieve's term: item i is kept when no item before it
// equals it.
func (el *elaborator) sieve(pos semantics.Pos, s *binders, a *aval) string {
	a = s.let(a)
	t := a.typ
	d, item := t.shape[0], t.shape[1:]
	i, j := el.fresh("i"), el.fresh("j")
	at := func(k string) string {
		return "(" + instantiation("index", []string{t.atom()}, natsString([]remora.Nat{d}), t.cix(item), "1") + " " + a.term + " [" + k + "])"
	}
	eq := el.allTrue("("+el.atomEq(pos, t)+" "+at(j)+" "+at(i)+")", item)
	inner := "((fn ([" + j + " int]) (and (< " + j + " " + i + ") " + eq + ")) iota{ | [" + d.String() + "]})"
	return "((fn ([" + i + " int]) (not (reduce-init{bool | " + d.String() + " [] []} or #f " + inner + "))) iota{ | [" + d.String() + "]})"
}

// product is the number of atoms of a shape as an int term (checked).
func productTerm(shape []remora.Nat) string {
	if ds, ok := consts(shape); ok {
		n := int64(1)
		for _, d := range ds {
			n *= d
		}
		return itoa64(n)
	}
	term := "1"
	for _, d := range shape {
		if term == "1" {
			term = natTerm(d)
			continue
		}
		term = "(*! " + term + " " + natTerm(d) + ")"
	}
	return term
}

// atFlat is the term reading atom j (an int term, row-major) of x, whose
// shape is shape.
func atFlat(x string, t ity, j string) string {
	if t.rank() == 0 {
		return x
	}
	pos := make([]string, t.rank())
	for k := range pos {
		p := "1"
		if k+1 < t.rank() {
			p = productTerm(t.shape[k+1:])
		}
		q := j
		if p != "1" {
			q = "(/ " + j + " " + p + ")"
		}
		if k > 0 {
			q = "(% " + q + " " + natTerm(t.shape[k]) + ")"
		}
		pos[k] = q
	}
	return "(" + instantiation("index", []string{t.atom()}, natsString(t.shape), t.cix(nil), strconv.Itoa(t.rank())) + " " + x + " [" + strings.Join(pos, " ") + "])"
}

// reshape is the dialect's reshape: x's atoms in row-major order under
// the shape ds, cycled through when it wants more and dropped when it
// wants fewer (the library's docs): the typed reshape where the counts
// agree, else atom j of the result is atom j mod n of x (stuck, as the
// dialect is, where x has none and the result wants some).
func (el *elaborator) reshape(pos semantics.Pos, s *binders, ds []remora.Nat, x *aval) *aval {
	xs, ok1 := consts(x.typ.shape)
	cds, ok2 := consts(ds)
	switch {
	case ok1 && ok2 && product(xs) == product(cds):
		return typedArray("(reshape "+x.typ.cix(ds)+" "+x.term+")", x.typ.with(ds), nil)
	case natsEqual(ds, x.typ.shape):
		return x
	case x.typ.rank() == 0:
		return typedArray("("+instantiation("replicate", []string{x.typ.atom()}, natsString(ds), x.typ.cix(nil))+" "+x.term+")", x.typ.with(ds), nil)
	}
	x = s.let(x)
	j := el.fresh("j")
	n := productTerm(x.typ.shape)
	body := atFlat(x.term, x.typ, "(% "+j+" "+n+")")
	return typedArray("((fn (["+j+" int]) "+body+") iota{ | "+natsString(ds)+"})", x.typ.with(ds), nil)
}

// ravel is x's atoms as a vector.
func (el *elaborator) ravel(pos semantics.Pos, s *binders, x *aval) *aval {
	if x.typ.rank() == 1 {
		return x
	}
	var n remora.Nat
	if ds, ok := consts(x.typ.shape); ok {
		n = remora.NatConst(int64(product(ds)))
	} else {
		n = s.lift(intScalarAval(productTerm(x.typ.shape)), "ravel's length")
	}
	return el.reshape(pos, s, []remora.Nat{n}, x)
}

// equal is Racket's equal? on arrays: the same shape and the same atoms,
// exactness included ((equal 1 1.) is #f); arrays with no atoms of one
// shape are equal whatever their atoms.
func (el *elaborator) equal(pos semantics.Pos, s *binders, a, b *aval) *aval {
	if a.typ.elem == remora.KBox || b.typ.elem == remora.KBox {
		el.fail(pos, "equal of boxes (their contents may differ in shape)")
	}
	bool1 := ity{elem: remora.KBool}
	x, y := el.fresh("x"), el.fresh("y")
	fn := func(body string) string {
		return "((fn ([" + x + " " + a.typ.String() + "] [" + y + " " + b.typ.String() + "]) " + body + ") " + a.term + " " + b.term + ")"
	}
	if a.typ.rank() != b.typ.rank() {
		return typedArray(fn("#f"), bool1, nil)
	}
	if joinKinds(a.typ.elem, b.typ.elem) == remora.KNum {
		// An exact integer and an exact rational: the dialect's kinds
		// differ only where the values do (an array of rationals holds
		// one that is no int64), so the values decide.
		a = typedArray(toRat(a), ity{elem: remora.KNum, shape: a.typ.shape}, nil)
		b = typedArray(toRat(b), ity{elem: remora.KNum, shape: b.typ.shape}, nil)
		x, y = el.fresh("x"), el.fresh("y")
	}
	dimsEq := "#t"
	for i := range a.typ.shape {
		da, db := a.typ.shape[i], b.typ.shape[i]
		if da.Equal(db) {
			continue
		}
		if da.IsConst() && db.IsConst() {
			return typedArray(fn("#f"), bool1, nil)
		}
		dimsEq = "(and " + dimsEq + " (= " + natTerm(da) + " " + natTerm(db) + "))"
	}
	if !a.typ.sameAtoms(b.typ) {
		// Of different kinds of atoms: equal only if both are empty.
		return typedArray(fn("(and "+dimsEq+" (= "+productTerm(a.typ.shape)+" 0))"), bool1, nil)
	}
	if natsEqual(a.typ.shape, b.typ.shape) {
		return typedArray(fn(el.allTrue("("+el.atomEq(pos, a.typ)+" "+x+" "+y+")", a.typ.shape)), bool1, nil)
	}
	// Shapes known only at run time: the atoms are compared (by their
	// row-major positions) only where the shapes agree.
	inner := el.scope(pos)
	m := inner.lift(intScalarAval("(if{int | } "+dimsEq+" "+productTerm(a.typ.shape)+" 0)"), "equal's atoms")
	j := el.fresh("j")
	cmp := "((fn ([" + j + " int]) (" + el.atomEq(pos, a.typ) + " " + atFlat(x, a.typ, j) + " " + atFlat(y, b.typ, j) + ")) iota{ | [" + m.String() + "]})"
	body := inner.close(typedArray("(and "+dimsEq+" (reduce-init{bool | "+m.String()+" [] []} and #t "+cmp+"))", bool1, nil))
	return typedArray(fn(body.term), bool1, nil)
}

// base reads digits in the mixed radix radices (APL's decode), exactly:
// a fold over the positions with checked arithmetic. Of lengths that
// differ (the library's rule), the radices are extended at the front by
// copies of the first, the digits by zeros.
func (el *elaborator) base(pos semantics.Pos, s *binders, rs, ds *aval) *aval {
	for _, v := range []*aval{rs, ds} {
		if v.typ.rank() != 1 || v.typ.elem != remora.KInt {
			el.fail(pos, "base of %s: only vectors of exact integers are elaborated (the dialect's arithmetic of floats there keeps exact zeros a compiled float does not)", v.typ)
		}
	}
	kr, kd := rs.typ.shape[0], ds.typ.shape[0]
	nr, okr := consts(rs.typ.shape)
	nd, okd := consts(ds.typ.shape)
	if !okr || !okd {
		el.sameDims(pos, "base's radices and digits", rs.typ.shape, ds.typ.shape)
	}
	rs, ds = s.let(rs), s.let(ds)
	acc, i := el.fresh("acc"), el.fresh("i")
	at := func(v *aval, k remora.Nat, j string) string {
		return "(index{int | [" + k.String() + "] [] 1} " + v.term + " [" + j + "])"
	}
	k := kr
	radix, digit := at(rs, kr, i), at(ds, kd, i)
	if okr && okd && nr[0] != nd[0] {
		if nr[0] == 0 {
			el.fail(pos, "base: no radix to extend over %s: it would stop in δ", semantics.Plural(int(nd[0]), "digit"))
		}
		n := max(nr[0], nd[0])
		k = remora.NatConst(n)
		radix = at(rs, kr, "(max 0 (- "+i+" "+itoa64(n-nr[0])+"))")
		digit = "0"
		if nd[0] > 0 {
			digit = "(if{int | } (< " + i + " " + itoa64(n-nd[0]) + ") 0 " + at(ds, kd, "(max 0 (- "+i+" "+itoa64(n-nd[0])+"))") + ")"
		}
	}
	op := "(fn ([" + acc + " int] [" + i + " int]) (+! (*! " + acc + " " + radix + ") " + digit + "))"
	return typedArray("(fold{int int | "+k.String()+" [] []} "+op+" 0 iota{ | ["+k.String()+"]})", ity{elem: remora.KInt}, nil)
}

// antibase writes n in the mixed radix radices (APL's encode), going on
// with copies of the first radix until n is written (the library's
// rule): the length of the result depends on n's value, so it is
// elaborated where the radices and n are known, by the dialect's own
// rule, and refused where they are not.
func (el *elaborator) antibase(pos semantics.Pos, p *PrimDef, rs, n *aval) *aval {
	if rs.typ.rank() != 1 || rs.typ.elem != remora.KInt && !hasZero(rs.typ.shape) {
		el.fail(pos, "antibase's radices are a vector of ints, got %s: it would stop in δ", rs.typ)
	}
	if n.typ.rank() != 0 || n.typ.elem != remora.KInt {
		el.fail(pos, "antibase's number is an int, got %s: it would stop in δ", n.typ)
	}
	if rs.known == nil || n.known == nil {
		panic(&inferError{pos: pos, needsKnown: true, msg: "antibase of values known only at run time: the dialect writes the number with as many copies of the first radix as it needs, a length known only as the program runs (give the radices and the number as literals)"})
	}
	args := []*aval{rs, n}
	v := el.knownApp(pos, p, args)
	if v == nil {
		el.fail(pos, "antibase of %s in the radices %s: it would stop in δ", n.known, rs.known)
	}
	return typedArray(evalThen(args, v.TermString()), ity{elem: remora.KInt, shape: dimsOf(v.Shape)}, v)
}

// tryKnown runs f, returning the refusal it raised of a construct the
// elaboration compiles only where its arguments are known
// (inferError.needsKnown), if any.
func tryKnown(f func() *aval) (v *aval, nk *inferError) {
	defer func() {
		if r := recover(); r != nil {
			k, ok := r.(*inferError)
			if !ok || !k.needsKnown {
				panic(r)
			}
			nk = k
		}
	}()
	return f(), nil
}

// selectArrays is (select b x y): x where b is #t, else y, whole arrays
// (the library's if of arrays). Of one type it indexes the frame [x y];
// of shapes that differ the result's shape depends on b, so the two are
// boxed and the box chosen stands for the result.
func (el *elaborator) selectArrays(pos semantics.Pos, s *binders, b, x, y *aval) *aval {
	if b.typ.elem != remora.KBool || b.typ.rank() != 0 {
		el.fail(pos, "select's condition is a bool, got %s: it would stop in δ", b.typ)
	}
	if b.known != nil {
		u, v := el.fresh("u"), el.fresh("v")
		pick := u
		if b.known.I[0] == 0 {
			pick = v
		}
		out := *x
		if pick == v {
			out = *y
		}
		out.term = "((fn ([" + u + " " + x.typ.String() + "] [" + v + " " + y.typ.String() + "]) " + pick + ") " + x.term + " " + y.term + ")"
		out.known, out.nats = nil, nil
		return &out
	}
	if !x.typ.sameAtoms(y.typ) {
		el.fail(pos, "select's arrays hold %s and %s atoms: the kind of the result would depend on the condition", x.typ.atom(), y.typ.atom())
	}
	el.mustBeDefinite(pos, x, y)
	if natsEqual(x.typ.shape, y.typ.shape) {
		head := instantiation("index", []string{x.typ.atom()}, "[2]", x.typ.cix(x.typ.shape), "1")
		return typedArray("("+head+" ["+x.term+" "+y.term+"] [(if{int | } "+b.term+" 0 1)])", x.typ, nil)
	}
	if x.typ.rank() != y.typ.rank() {
		el.fail(pos, "select's arrays have ranks %d and %d: the rank of the result would depend on the condition", x.typ.rank(), y.typ.rank())
	}
	bx, by := el.boxOf(pos, x), el.boxOf(pos, y)
	hide := make([]string, x.typ.rank())
	shape := make([]remora.Nat, len(hide))
	for i := range hide {
		hide[i] = el.fresh("d")
		shape[i] = remora.NatVar(hide[i])
	}
	return &aval{term: "(if{" + bx.typ.atom() + " | } " + b.term + " " + bx.term + " " + by.term + ")", typ: x.typ.with(shape), hide: hide}
}

// transpose is the Redex model's axis permutation: axis i of the result
// is axis perm[i] of x, each atom read by index at the permuted position.
func (el *elaborator) transpose(pos semantics.Pos, s *binders, perm, x *aval) *aval {
	ps := el.knownInts(pos, "transpose", "permutation", perm, 1)
	r := x.typ.rank()
	seen := make([]bool, r)
	if len(ps) != r {
		el.fail(pos, "transpose: %s is not a permutation of the %d axes of %s: it would stop in δ", perm.known, r, x.typ)
	}
	for _, p := range ps {
		if p < 0 || int(p) >= r || seen[p] {
			el.fail(pos, "transpose: %s is not a permutation of the %d axes of %s: it would stop in δ", perm.known, r, x.typ)
		}
		seen[p] = true
	}
	if r == 0 || slices.IsSorted(ps) {
		return el.evaluated(perm, x)
	}
	x = s.let(x)
	shape := make([]remora.Nat, r)
	is := make([]string, r)
	js := make([]string, r)
	for i, p := range ps {
		shape[i] = x.typ.shape[p]
		is[i] = el.fresh("i")
	}
	for i, p := range ps {
		js[p] = is[i]
	}
	term := "(" + instantiation("index", []string{x.typ.atom()}, natsString(x.typ.shape), x.typ.cix(nil), strconv.Itoa(r)) + " " + x.term + " [" + strings.Join(js, " ") + "])"
	for i := r - 1; i >= 0; i-- {
		term = "((fn ([" + is[i] + " int]) " + term + ") iota{ | [" + shape[i].String() + "]})"
	}
	return el.evaluated(perm, typedArray(term, x.typ.with(shape), nil))
}

// evaluated is r, computed after a (whose value the elaboration used
// statically, but whose computation may go wrong).
func (el *elaborator) evaluated(a, r *aval) *aval {
	if isName(a.term) {
		return r
	}
	out := *r
	out.term = "(let [" + el.fresh("_") + " " + a.term + "] " + r.term + ")"
	return &out
}

// shuffle elaborates shuffle and deal: the library draws a permutation
// from a generator seeded with the array's length (pcg), so for a length
// known here the permutation is known, and the result gathers the items
// in its order.
func (el *elaborator) shuffle(pos semantics.Pos, s *binders, name string, args []*aval) *aval {
	x := args[len(args)-1]
	el.needMajor(pos, name, x)
	d := x.typ.shape[0]
	if !d.IsConst() {
		el.fail(pos, "%s of a number of items known only at run time: its permutation is drawn from a generator seeded with that number", name)
	}
	perm := pcg(int(d.Const)).Perm(int(d.Const))
	if name == "deal" {
		n := el.knownInts(pos, "deal", "count", args[0], 0)[0]
		if n > d.Const {
			el.fail(pos, "deal: %d items of an array of %d: it would stop in δ", n, d.Const)
		}
		perm = perm[:n]
	}
	ps := make([]string, len(perm))
	for i, p := range perm {
		ps[i] = strconv.Itoa(p)
	}
	x = s.let(x)
	i := el.fresh("i")
	at := "[" + strings.Join(ps, " ") + "]"
	if len(ps) == 0 {
		at = "(frame [0] int)"
	}
	term := "((fn ([" + i + " int]) " + itemAt(x, i).term + ") " + at + ")"
	out := typedArray(term, x.typ.with(append([]remora.Nat{remora.NatConst(int64(len(perm)))}, x.typ.shape[1:]...)), nil)
	if name == "deal" {
		return el.evaluated(args[0], out)
	}
	return out
}
