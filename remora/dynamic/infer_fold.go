package dynamic

import (
	"slices"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// The reduce and scan family. reduce is the library's tree (adjacent
// pairs, level by level, the base only where there are no items): the
// typed reduce where the operator is a primitive known to be associative
// on the items' atoms, else the tree itself, unrolled level by level
// over a length known when the program is elaborated, or a loop of
// levels over a box otherwise. The scans and folds are the typed ones,
// their operator η-expanded at the item and accumulator types; an
// accumulator whose type changes is handled by computing the first step
// on its own (an exact integer becoming a float) or by carrying a box
// (a shape that changes).

// associativeOn are the primitive operators a tree-shaped reduce of
// items of these atoms may be elaborated as a left fold with (the typed
// reduce, which Lower runs in parallel): float + and * are not
// associative, so their trees are the dialect's values only as trees.
var associativeOn = map[string][]remora.Kind{
	"+": {remora.KInt}, "*": {remora.KInt}, "max": {remora.KInt, remora.KFloat}, "min": {remora.KInt, remora.KFloat},
	"and": {remora.KBool}, "or": {remora.KBool},
}

// opTerm is the operator applied to two typed names of types a and b,
// η-expanded: (fn ([x a] [y b]) body), and the body.
func (el *elaborator) opTerm(pos semantics.Pos, op *aval, a, b ity) (string, *aval) {
	x, y := el.fresh("a"), el.fresh("b")
	body := el.apply(pos, op, []*aval{typedArray(x, a, nil), typedArray(y, b, nil)})
	if body.funs != nil {
		el.fail(pos, "the operator returns a function")
	}
	el.mustBeDefinite(pos, body)
	return "(fn ([" + x + " " + a.String() + "] [" + y + " " + b.String() + "]) " + body.term + ")", body
}

// itemAt is item k (an int term) of arr, a name.
func itemAt(arr *aval, k string) *aval {
	t := arr.typ
	head := instantiation("index", []string{t.atom()}, natsString(t.shape[:1]), t.cix(t.shape[1:]), "1")
	return typedArray("("+head+" "+arr.term+" ["+k+"])", t.item(), nil)
}

// fold elaborates the reduce and scan family.
func (el *elaborator) fold(pos semantics.Pos, p *PrimDef, args []*aval) *aval {
	op := args[0]
	if op.funs == nil {
		el.fail(pos, "%s's operator must be a function, got an array of %s atoms: it would stop in β", p.Name, op.typ.elem)
	}
	if op.percell {
		el.fail(pos, "%s's operator is an array of functions a λ returned over a frame", p.Name)
	}
	if len(op.fshape) > 0 && !op.foldOp {
		return el.foldFnArray(pos, p, args) // infer_mimd.go
	}
	arr := args[len(args)-1]
	el.needMajor(pos, p.Name, arr)
	el.notRagged(pos, p.Name, args[1:]...)
	var init *aval
	if p.Fold.TakesInit() {
		init = args[1]
		if init.funs != nil {
			el.fail(pos, "%s's initial value is a function", p.Name)
		}
	}
	s := el.scope(pos)
	var r *aval
	switch {
	case p.Tree:
		r = el.treeReduce(pos, s, op, init, arr)
	case p.Fold.ReplicatesInit():
		r = el.scan(pos, s, p, op, init, arr)
	default:
		r = el.foldAcc(pos, s, p.Typed, op, init, arr)
	}
	return s.close(r)
}

// padded is the reduce family's initial value replicated over the
// leading axes the items have beyond it (the typed basis's @pad); ok is
// false when it is no suffix of the items' shape.
func padded(init *aval, item ity) (*aval, bool) {
	pad := len(item.shape) - len(init.typ.shape)
	if pad < 0 || !natsEqual(item.shape[pad:], init.typ.shape) {
		return init, false
	}
	if pad == 0 {
		return init, true
	}
	head := instantiation("replicate", []string{init.typ.atom()}, natsString(item.shape[:pad]), init.typ.cix(init.typ.shape))
	return typedArray("("+head+" "+init.term+")", init.typ.with(item.shape), nil), true
}

// assocPrim reports whether op is a primitive (or a frame of them, the
// function arrays of the fold family) associative on items of kind k.
func assocPrim(op *aval, k remora.Kind) bool {
	if _, ok := consts(op.fshape); !ok || op.percell {
		return false
	}
	for _, f := range op.funs {
		if f.prim == nil || !slices.Contains(associativeOn[f.prim.Name], k) {
			return false
		}
	}
	return true
}

// treeReduce is the library's reduce: the base where there are no items
// (replicated to the items' shape), else the tree over the items.
func (el *elaborator) treeReduce(pos semantics.Pos, s *binders, op, base, arr *aval) *aval {
	t := arr.typ
	d, item := t.shape[0], t.item()
	if d.IsConst() && d.Const == 0 {
		b, _ := padded(base, item)
		return el.evaluated(arr, b)
	}
	assoc := assocPrim(op, t.elem)
	if len(op.funs) > 1 && !assoc {
		el.fail(pos, "reduce with an array of operators that are not all associative primitives")
	}
	if d.IsConst() {
		// The base is computed (it may go wrong) but not used.
		if assoc {
			ot, ret := el.opTerm(pos, op, item, item)
			if !ret.typ.equal(item) {
				el.fail(pos, "reduce's operator gives %s for items of type %s", ret.typ, item)
			}
			head := instantiation("reduce", []string{item.atom()}, itoa64(d.Const-1), "[]", item.cix(item.shape))
			return el.evaluated(base, typedArray("("+head+" "+ot+" "+arr.term+")", item, nil))
		}
		return el.evaluated(base, el.treeStatic(pos, s, op, arr))
	}
	// A number of items known only at run time: the items, or the base
	// alone where there are none, which the tree leaves as it is.
	b, ok := padded(base, item)
	if !ok || !b.typ.sameAtoms(item) {
		el.fail(pos, "reduce over a number of items known only at run time, with a base of type %s for items of type %s: the result's type would depend on whether there are items", base.typ, item)
	}
	e := s.lift(intScalarAval("(max 0 (-! "+natTerm(d)+" 1))"), "reduce's number of items")
	e1 := e.Plus(remora.NatConst(1))
	at := []string{item.atom()}
	z := "(" + instantiation("append", at, d.String(), "1", item.cix(item.shape)) + " " + arr.term + " (" + instantiation("replicate", at, "[1]", item.cix(item.shape)) + " " + b.term + "))"
	y := typedArray("("+instantiation("subvector", at, d.Plus(remora.NatConst(1)).String(), e1.String(), item.cix(item.shape))+" "+z+" 0)", item.with(append([]remora.Nat{e1}, item.shape...)), nil)
	if assoc {
		ot, ret := el.opTerm(pos, op, item, item)
		if !ret.typ.equal(item) {
			el.fail(pos, "reduce's operator gives %s for items of type %s", ret.typ, item)
		}
		head := instantiation("reduce", at, e.String(), "[]", item.cix(item.shape))
		return typedArray("("+head+" "+ot+" "+y.term+")", item, nil)
	}
	return el.treeLoop(pos, op, y)
}

// pairs is one level of the tree over the m items of y (a name), m ≥ 2:
// the applications of op to items 2i and 2i+1, for i below q, as one
// array, op applied to each pair (whatever its cell ranks).
func (el *elaborator) pairs(pos semantics.Pos, op *aval, y *aval, q remora.Nat) *aval {
	i := el.fresh("i")
	a := itemAt(y, "(* 2 "+i+")")
	b := itemAt(y, "(+ (* 2 "+i+") 1)")
	body := el.apply(pos, op, []*aval{a, b})
	if body.funs != nil {
		el.fail(pos, "reduce's operator returns a function")
	}
	if len(body.hide) > 0 {
		el.fail(pos, "reduce's operator gives arrays whose shapes are known only at run time, over the pairs of a level: the dialect collapses them only if they agree")
	}
	el.mustBeDefinite(pos, body)
	return typedArray("((fn (["+i+" int]) "+body.term+") iota{ | ["+q.String()+"]})", body.typ.with(append([]remora.Nat{q}, body.typ.shape...)), nil)
}

// treeStatic is the tree over a number of items known here, level by
// level: a level whose operator keeps the items' type is one array of
// the pairs' results (and the odd item out appended); one that changes
// it is a list of items elaborated one by one.
func (el *elaborator) treeStatic(pos semantics.Pos, s *binders, op, arr *aval) *aval {
	y := s.let(arr)
	m := y.typ.shape[0].Const
	item := y.typ.item()
	_, ret := el.opTerm(pos, op, item, item)
	if !ret.typ.equal(item) || len(ret.hide) > 0 {
		return el.treeList(pos, op, y, m)
	}
	for m > 1 {
		q, r := m/2, m%2
		next := el.pairs(pos, op, y, remora.NatConst(q))
		if r == 1 {
			at := []string{item.atom()}
			last := "(" + instantiation("subvector", at, itoa64(m), "1", item.cix(item.shape)) + " " + y.term + " " + itoa64(m-1) + ")"
			next = typedArray("("+instantiation("append", at, itoa64(q), "1", item.cix(item.shape))+" "+next.term+" "+last+")", item.with(append([]remora.Nat{remora.NatConst(q + 1)}, item.shape...)), nil)
		}
		y = s.let(next)
		m = q + r
	}
	return itemAt(y, "0")
}

// treeList is the tree over m items whose operator changes their type
// (append's, say): each application elaborated at its own types.
func (el *elaborator) treeList(pos semantics.Pos, op, y *aval, m int64) *aval {
	if m > knownLimit {
		el.fail(pos, "reduce of %d items with an operator that changes their type (elaborated one application at a time up to %d items)", m, knownLimit)
	}
	items := make([]*aval, m)
	for k := range items {
		items[k] = itemAt(y, itoa64(int64(k)))
	}
	for len(items) > 1 {
		var next []*aval
		for k := 0; k+1 < len(items); k += 2 {
			v := el.apply(pos, op, []*aval{items[k], items[k+1]})
			if v.funs != nil {
				el.fail(pos, "reduce's operator returns a function")
			}
			el.mustBeDefinite(pos, v)
			next = append(next, v)
		}
		if len(items)%2 == 1 {
			next = append(next, items[len(items)-1])
		}
		items = next
	}
	return items[0]
}

// treeLoop is the tree over the items of y, of a number k ≥ 1 known only
// at run time: a fold of 64 steps (enough for any int64 count) whose
// accumulator is a box of the current level, each step one level (a
// level of one item is left as it is).
func (el *elaborator) treeLoop(pos semantics.Pos, op, y *aval) *aval {
	item := y.typ.item()
	k := el.fresh("k")
	sig := "(Sigma (" + k + ") " + item.with(append([]remora.Nat{remora.NatVar(k)}, item.shape...)).String() + ")"
	acc, w, it := el.fresh("acc"), el.fresh("w"), el.fresh("it")
	kv := remora.NatVar(k)
	level := el.scope(pos)
	wv := typedArray(w, item.with(append([]remora.Nat{kv}, item.shape...)), nil)
	q := level.lift(intScalarAval("(/ (reify-dimension "+k+") 2)"), "the tree's level")
	r := level.lift(intScalarAval("(% (reify-dimension "+k+") 2)"), "the tree's level")
	c := el.pairs(pos, op, wv, q)
	if !c.typ.item().equal(item) {
		el.fail(pos, "reduce over a number of items known only at run time, with an operator that changes their type")
	}
	at := []string{item.atom()}
	last := "(" + instantiation("subvector", at, k, r.String(), item.cix(item.shape)) + " " + w + " (-! (reify-dimension " + k + ") " + natTerm(r) + "))"
	qr := q.Plus(r)
	next := "(" + instantiation("append", at, q.String(), r.String(), item.cix(item.shape)) + " " + c.term + " " + last + ")"
	boxed := level.close(typedArray("(box ("+qr.String()+") "+sig+" "+next+")", ity{elem: remora.KInt}, nil))
	step := "(fn ([" + acc + " " + sig + "] [" + it + " int]) (unbox " + acc + " (" + w + " " + k + ") " + boxed.term + "))"
	z, k2 := el.fresh("z"), el.fresh("k")
	start := "(box (" + y.typ.shape[0].String() + ") " + sig + " " + y.term + ")"
	loop := "(fold{int " + sig + " | 64 [] []} " + step + " " + start + " iota{ | [64]})"
	zt := typedArray(z, item.with(append([]remora.Nat{remora.NatVar(k2)}, item.shape...)), nil)
	return typedArray("(unbox "+loop+" ("+z+" "+k2+") "+itemAt(zt, "0").term+")", item, nil)
}

// scan elaborates scan, iscan and iscan-init: the typed scans, with one
// type for the accumulator and the items. An exact integer initial value
// with float items is computed with the first item on its own (where
// the dialect's exact zero may show) and converted as the dialect's
// collapse converts it.
func (el *elaborator) scan(pos semantics.Pos, s *binders, p *PrimDef, op, init, arr *aval) *aval {
	t := arr.typ
	d, item := t.shape[0], t.item()
	name := p.Typed
	if init != nil {
		b, ok := padded(init, item)
		if !ok {
			el.fail(pos, "%s's initial value has shape %s, the items %s", p.Name, natsString(init.typ.shape), natsString(item.shape))
		}
		init = b
		switch {
		case init.typ.sameAtoms(item):
		case init.typ.elem == remora.KInt && item.elem == remora.KFloat:
			return el.scanPeeled(pos, s, name, op, init, arr)
		case init.typ.elem == remora.KFloat && item.elem == remora.KInt:
			arr = typedArray(convertTo(arr, remora.KFloat), t.with(t.shape), nil)
			arr.typ.elem = remora.KFloat
			t, item = arr.typ, arr.typ.item()
		default:
			el.fail(pos, "%s's initial value holds %s atoms, the items %s", p.Name, init.typ.atom(), item.atom())
		}
	}
	ot, ret := el.opTerm(pos, op, item, item)
	if !ret.typ.equal(item) {
		el.fail(pos, "%s's operator gives %s for items of type %s: the dialect's scan collapses accumulators of different shapes only if they agree", p.Name, ret.typ, item)
	}
	at := []string{item.atom()}
	if init == nil {
		x, e := el.atLeastOne(pos, s, p.Name, arr)
		head := instantiation(name, at, e.String(), "[]", item.cix(item.shape))
		return typedArray("("+head+" "+ot+" "+x.term+")", x.typ, nil)
	}
	head := instantiation(name, at, d.String(), "[]", item.cix(item.shape))
	rt := t
	if name == "scan-init" {
		rt = t.with(append([]remora.Nat{d.Plus(remora.NatConst(1))}, item.shape...))
	}
	return typedArray("("+head+" "+ot+" "+init.term+" "+arr.term+")", rt, nil)
}

// scanPeeled is a scan from an exact integer over floats: the first
// accumulator op(init, item 0) elaborated at those types, the rest an
// inclusive scan from it; scan-init puts the initial value first, as a
// float (the dialect's collapse of an exact integer with floats).
func (el *elaborator) scanPeeled(pos semantics.Pos, s *binders, name string, op, init, arr *aval) *aval {
	t := arr.typ
	d, item := t.shape[0], t.item()
	at := []string{item.atom()}
	i0 := typedArray("("+instantiation("replicate", at, "[1]", item.cix(item.shape))+" "+convertTo(init, remora.KFloat)+")", item.with(append([]remora.Nat{remora.NatConst(1)}, item.shape...)), nil)
	if d.IsConst() && d.Const == 0 {
		if name == "scan-init" {
			return el.evaluated(arr, i0)
		}
		return el.evaluated(init, arr)
	}
	if !d.IsConst() {
		el.fail(pos, "%s of floats from an exact integer over a number of items known only at run time: the first step is the dialect's exact arithmetic, which needs an item", name)
	}
	arr = s.let(arr)
	acc1 := el.apply(pos, op, []*aval{init, itemAt(arr, "0")})
	if acc1.funs != nil || !acc1.typ.equal(item) || len(acc1.hide) > 0 {
		el.fail(pos, "%s's operator gives %s for an initial value of type %s and items of type %s", name, acc1.typ, init.typ, item)
	}
	el.mustBeDefinite(pos, acc1)
	acc1 = s.let(acc1)
	rest := typedArray("("+instantiation("subvector", at, d.String(), itoa64(d.Const-1), item.cix(item.shape))+" "+arr.term+" 1)", item.with(append([]remora.Nat{remora.NatConst(d.Const - 1)}, item.shape...)), nil)
	ot, ret := el.opTerm(pos, op, item, item)
	if !ret.typ.equal(item) {
		el.fail(pos, "%s's operator gives %s for items of type %s", name, ret.typ, item)
	}
	tail := "(" + instantiation("iscan-init", at, itoa64(d.Const-1), "[]", item.cix(item.shape)) + " " + ot + " " + acc1.term + " " + rest.term + ")"
	one := "(" + instantiation("replicate", at, "[1]", item.cix(item.shape)) + " " + acc1.term + ")"
	all := "(" + instantiation("append", at, "1", itoa64(d.Const-1), item.cix(item.shape)) + " " + one + " " + tail + ")"
	out := typedArray(all, t, nil)
	if name == "scan-init" {
		out = typedArray("("+instantiation("append", at, "1", d.String(), item.cix(item.shape))+" "+i0.term+" "+all+")", item.with(append([]remora.Nat{d.Plus(remora.NatConst(1))}, item.shape...)), nil)
	}
	return out
}

// foldAcc elaborates fold, fold-right, trace and trace-right: an
// accumulator of its own type. One that changes type is computed for the
// first item on its own (fold-right: the last), after which it keeps its
// type, or else carried in a box (fold and fold-right only: trace's
// accumulators must collapse into one array).
func (el *elaborator) foldAcc(pos semantics.Pos, s *binders, name string, op, init, arr *aval) *aval {
	t := arr.typ
	d, item := t.shape[0], t.item()
	acc := init.typ
	right := name == "fold-right" || name == "trace-right"
	trace := name == "trace" || name == "trace-right"
	opAt := func(a ity) (string, *aval) {
		if right {
			return el.opTerm(pos, op, item, a)
		}
		return el.opTerm(pos, op, a, item)
	}
	ot, ret := opAt(acc)
	if ret.typ.equal(acc) && len(ret.hide) == 0 {
		return el.typedFold(name, item, acc, d, ot, init, arr)
	}
	if d.IsConst() && d.Const == 0 {
		if trace {
			return typedArray("("+instantiation("replicate", []string{acc.atom()}, "[1]", acc.cix(acc.shape))+" "+init.term+")", acc.with(append([]remora.Nat{remora.NatConst(1)}, acc.shape...)), nil)
		}
		return el.evaluated(arr, init)
	}
	if d.IsConst() && (ret.typ.rank() == acc.rank() && len(ret.hide) == 0 || trace) {
		// The first step on its own.
		arr = s.let(arr)
		first, restOff := "0", "1"
		if right {
			first, restOff = itoa64(d.Const-1), "0"
		}
		x := itemAt(arr, first)
		var acc1 *aval
		if right {
			acc1 = el.apply(pos, op, []*aval{x, init})
		} else {
			acc1 = el.apply(pos, op, []*aval{init, x})
		}
		if acc1.funs != nil {
			el.fail(pos, "%s's operator returns a function", name)
		}
		el.mustBeDefinite(pos, acc1)
		acc1 = s.open(acc1)
		acc1 = s.let(acc1)
		n := d.Const - 1
		rest := typedArray("("+instantiation("subvector", []string{item.atom()}, d.String(), itoa64(n), item.cix(item.shape))+" "+arr.term+" "+restOff+")", item.with(append([]remora.Nat{remora.NatConst(n)}, item.shape...)), nil)
		ot1, ret1 := opAt(acc1.typ)
		if ret1.typ.equal(acc1.typ) && len(ret1.hide) == 0 {
			r := el.typedFold(name, item, acc1.typ, remora.NatConst(n), ot1, acc1, rest)
			if !trace {
				return r
			}
			// The accumulators collapse: the first, of the initial
			// value's type, joins the rest as a float.
			if !natsEqual(acc.shape, acc1.typ.shape) || !(acc.sameAtoms(acc1.typ) || acc.elem == remora.KInt && acc1.typ.elem == remora.KFloat) {
				el.fail(pos, "%s's accumulators have types %s and %s: it would stop in collapse", name, acc, acc1.typ)
			}
			at := []string{acc1.typ.atom()}
			i0 := "(" + instantiation("replicate", at, "[1]", acc1.typ.cix(acc.shape)) + " " + convertTo(init, acc1.typ.elem) + ")"
			if right {
				return typedArray("("+instantiation("append", at, itoa64(n+1), "1", acc1.typ.cix(acc.shape))+" "+r.term+" "+i0+")", r.typ.with(append([]remora.Nat{remora.NatConst(n + 2)}, acc.shape...)), nil)
			}
			return typedArray("("+instantiation("append", at, "1", itoa64(n+1), acc1.typ.cix(acc.shape))+" "+i0+" "+r.term+")", r.typ.with(append([]remora.Nat{remora.NatConst(n + 2)}, acc.shape...)), nil)
		}
		if trace {
			el.fail(pos, "%s's accumulators change type (%s, then %s): it would stop in collapse", name, acc, acc1.typ)
		}
		return el.boxFold(pos, name, op, acc1, rest)
	}
	if trace {
		el.fail(pos, "%s's accumulators change type (%s, then %s): it would stop in collapse", name, acc, ret.typ)
	}
	return el.boxFold(pos, name, op, init, arr)
}

// typedFold is the typed fold family at these types.
func (el *elaborator) typedFold(name string, item, acc ity, d remora.Nat, ot string, init, arr *aval) *aval {
	head := instantiation(name, []string{item.atom(), acc.atom()}, d.String(), item.cix(item.shape), acc.cix(acc.shape))
	rt := acc
	if name == "trace" || name == "trace-right" {
		rt = acc.with(append([]remora.Nat{d.Plus(remora.NatConst(1))}, acc.shape...))
	}
	return typedArray("("+head+" "+ot+" "+init.term+" "+arr.term+")", rt, nil)
}

// boxFold is fold or fold-right whose accumulator changes shape: the
// accumulator is a box hiding its dimensions, opened and boxed again by
// each step (Lower's loops carry one box); the result stands for the
// box's contents.
func (el *elaborator) boxFold(pos semantics.Pos, name string, op, init, arr *aval) *aval {
	acc := init.typ
	t := arr.typ
	item := t.item()
	bt := ity{elem: remora.KBox, box: &acc}
	ks := make([]string, acc.rank())
	shape := make([]remora.Nat, acc.rank())
	for i := range ks {
		ks[i] = el.fresh("d")
		shape[i] = remora.NatVar(ks[i])
	}
	b, x, a := el.fresh("acc"), el.fresh("x"), el.fresh("a")
	av := typedArray(a, acc.with(shape), nil)
	xv := typedArray(x, item, nil)
	var body *aval
	if name == "fold-right" {
		body = el.apply(pos, op, []*aval{xv, av})
	} else {
		body = el.apply(pos, op, []*aval{av, xv})
	}
	if body.funs != nil {
		el.fail(pos, "%s's operator returns a function", name)
	}
	el.mustBeDefinite(pos, body)
	if body.typ.rank() != acc.rank() || !body.typ.sameAtoms(acc) {
		el.fail(pos, "%s's accumulator changes from %s to %s: the typed core carries one of one rank and atom type (in a box)", name, acc, body.typ)
	}
	boxed := el.boxOf(pos, body)
	params := "[" + b + " " + bt.atom() + "] [" + x + " " + item.String() + "]"
	if name == "fold-right" {
		params = "[" + x + " " + item.String() + "] [" + b + " " + bt.atom() + "]"
	}
	step := "(fn (" + params + ") (unbox " + b + " (" + a + " " + strings.Join(ks, " ") + ") " + boxed.term + "))"
	head := instantiation(name, []string{item.atom(), bt.atom()}, t.shape[0].String(), item.cix(item.shape), "[]")
	hide := make([]string, acc.rank())
	hshape := make([]remora.Nat, acc.rank())
	for i := range hide {
		hide[i] = el.fresh("d")
		hshape[i] = remora.NatVar(hide[i])
	}
	start := el.boxOf(pos, init)
	term := "(" + head + " " + step + " " + start.term + " " + arr.term + ")"
	if len(hide) == 0 {
		z := el.fresh("z")
		return typedArray("(unbox "+term+" ("+z+") "+z+")", acc, nil)
	}
	return &aval{term: term, typ: acc.with(hshape), hide: hide}
}
