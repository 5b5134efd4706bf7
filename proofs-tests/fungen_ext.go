package proofstests

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// The generator's extension forms (docs/fun.md, "Extension forms"): loop,
// reduce, scan, filter and assert, made only when GenConfig.Extensions is
// set, type-directed and interval-tracked like the paper's forms.
//
//   - loop carries an int, an array of a fixed type, and/or a size k with
//     an array of type [k]… (an existential size: each iteration picks the
//     next k in 0..MaxExtent, often (k + c) % (MaxExtent+1), and makes an
//     array of that size). A carried int or array's elements change from
//     one iteration to the next in ways the generator does not follow, so
//     their intervals are ivTop (any int64), which is sound; a size stays
//     in 0..MaxExtent by construction. Bounds are 0..loopMaxBound (a
//     risky choice: perhaps negative, stuck in E-LOOP).
//   - reduce and scan fold the rows of an array in scope with +, *, max or
//     min (through an if) on ints, or with the same operator element-wise
//     over rows that are arrays (a kernel over the row: vector addition),
//     or with a random operator body. The start z is any value of the row
//     type, seldom neutral, so a fold that skips or repeats it shows. The
//     result's interval is the join of the accumulator's after 0 … n
//     steps, each step the operator's interval (ivTop for a random body).
//   - filter keeps the rows of an array in scope by a comparison of the
//     row (or of one of its elements) or by any int the body computes; the
//     pattern binds the size k (in 0..n) and the array [k]….
//   - assert: in a safe choice, a scalar expression that cannot be 0 (a
//     comparison of a variable with its interval's bound, or an expression
//     whose interval excludes 0); a risky choice may fail (E-ASSERT),
//     a division by zero inside it included.

// loopMaxBound is the largest bound of a random loop.
const loopMaxBound = 4

// trustedIv is the magnitude below which an interval is taken at its
// word for an assertion: ivBinary's truncated division of ivTop by a
// constant gives a finite interval that does not hold for values beyond
// ivBig, so wide intervals are not relied on.
const trustedIv = int64(1) << 20

func trusted(iv ivl) bool { return iv.within(-trustedIv, trustedIv) }

func vr(name string) fun.SExp { return fun.Var{Ident: id(name)} }

func bin(op semantics.Op, l, r fun.SExp) fun.SExp { return &fun.BinOp{Op: op, L: l, R: r} }

func konst(k int64) fun.SExp { return &fun.Const{Value: k} }

func prefixOf(dims []string) string {
	if len(dims) == 0 {
		return "x"
	}
	return "a"
}

// extensionKinds are the extension forms' entries of randomStm's table.
func (g *generator) extensionKinds() []stmKind {
	if !g.cfg.Extensions {
		return nil
	}
	return append([]stmKind{
		{2, (*block).genLoop},
		{2, func(b *block) bool { return b.genFold(false) }},
		{2, func(b *block) bool { return b.genFold(true) }},
		{2, (*block).genFilter},
		{1, (*block).genAssert},
		{2, (*block).genFloat},
	}, redomapKinds()...)
}

// ---------------------------------------------------------------------------
// loop

// loopParam is a loop-carried parameter being planned: an int, a size, or
// an array whose outer size is the size parameter sizeOf (or -1: every
// size is from outside the loop).
type loopParam struct {
	kind   int // loopInt, loopSize or loopArray
	init   *gvar
	sizeOf int
	elem   []string // the array's sizes from outside (all of them when sizeOf < 0)
}

const (
	loopInt = iota
	loopSize
	loopArray
)

func (p loopParam) dims(names []string) []string {
	if p.kind != loopArray {
		return nil
	}
	if p.sizeOf < 0 {
		return p.elem
	}
	return append([]string{names[p.sizeOf]}, p.elem...)
}

func (p loopParam) prefix() string {
	if p.kind == loopArray {
		return "a"
	}
	return "x"
}

func (b *block) genLoop() bool {
	g := b.g
	if b.depth >= g.cfg.MaxDepth {
		return false
	}
	maxK := g.cfg.MaxExtent
	var t *gvar
	if g.risk() {
		t = b.sizeVar(-2, loopMaxBound)
	} else {
		t = b.sizeVar(0, loopMaxBound)
	}
	if b.mult*max(1, t.iv.hi) > g.cfg.MaxIter {
		return false
	}
	var ps []loopParam
	if g.chance(0.5) { // an existential size with its array
		var cands []*gvar
		for _, a := range b.arrays() {
			if b.extent(a.dims[0]).within(0, maxK) {
				cands = append(cands, a)
			}
		}
		var k, xs *gvar
		if len(cands) > 0 && g.chance(0.6) {
			xs = pick(g, cands)
			k = b.lookup(xs.dims[0])
		} else {
			k = b.sizeVar(0, maxK)
			elem := b.elemDims(min(1, g.cfg.MaxRank-1))
			xs = b.produce(append([]string{k.name}, elem...))
		}
		ps = append(ps, loopParam{kind: loopSize, init: k, sizeOf: -1},
			loopParam{kind: loopArray, init: xs, sizeOf: len(ps), elem: xs.dims[1:]})
	}
	if len(ps) == 0 || g.chance(0.5) {
		x := b.produce(nil)
		if g.chance(0.5) {
			ps = append([]loopParam{{kind: loopInt, init: x, sizeOf: -1}}, shiftSizes(ps, 1)...)
		} else {
			ps = append(ps, loopParam{kind: loopInt, init: x, sizeOf: -1})
		}
	}
	if arrs := b.arrays(); len(arrs) > 0 && g.chance(0.3) {
		a := pick(g, arrs)
		ps = append(ps, loopParam{kind: loopArray, init: a, sizeOf: -1, elem: a.dims})
	}

	var patNames []string
	namePat := func() {
		patNames = nil
		for _, p := range ps {
			patNames = append(patNames, g.fresh(p.prefix()))
		}
	}
	first := g.chance(0.5)
	if first {
		namePat()
	}
	paramNames := make([]string, len(ps))
	for j, p := range ps {
		paramNames[j] = g.fresh(p.prefix())
	}
	i := &gvar{name: g.fresh("i"), iv: ivl{1, max(1, t.iv.hi)}, idxOf: t.name}
	mark := g.next
	nb := b.nested(t.iv.hi)
	params := make([]*fun.Param, len(ps))
	for j, p := range ps {
		v := &gvar{name: paramNames[j], dims: p.dims(paramNames), iv: ivTop}
		if p.kind == loopSize {
			v.iv = ivl{0, maxK}
		}
		nb.vars = append(nb.vars, v)
		params[j] = param(v.name, v.dims)
	}
	nb.vars = append(nb.vars, i)
	nb.randomStms(g.intn(g.cfg.MaxInnerStms + 1))
	res := make([]*gvar, len(ps))
	for j, p := range ps {
		switch p.kind {
		case loopInt:
			res[j] = nb.produce(nil)
		case loopSize:
			if g.chance(0.5) {
				// (k + c) % (maxK+1): the size changes every iteration.
				c := g.between(1, 2)
				e := bin(semantics.Mod, bin(semantics.Add, vr(paramNames[j]), konst(c)), konst(maxK+1))
				res[j] = nb.letInt(e, ivBinary(semantics.Mod, ivBinary(semantics.Add, ivl{0, maxK}, ivExact(c)), ivExact(maxK+1)))
			} else {
				res[j] = nb.sizeVar(0, maxK)
			}
		case loopArray:
			var resNames []string
			for _, r := range res {
				if r == nil {
					resNames = append(resNames, "")
				} else {
					resNames = append(resNames, r.name)
				}
			}
			res[j] = nb.produce(p.dims(resNames))
		}
	}
	g.next = mark
	if !first {
		namePat()
	}
	body := &fun.Body{Stms: nb.stms}
	var init []*fun.Ident
	for j, p := range ps {
		body.Result = append(body.Result, id(res[j].name))
		init = append(init, id(p.init.name))
	}
	var pat []*fun.Param
	var vs []*gvar
	for j, p := range ps {
		v := &gvar{name: patNames[j], dims: p.dims(patNames), iv: ivTop}
		if p.kind == loopSize {
			v.iv = ivl{0, maxK}
		}
		pat = append(pat, param(v.name, v.dims))
		vs = append(vs, v)
	}
	b.bind(&fun.Stm{Pat: pat, Exp: &fun.LoopExp{Params: params, Init: init, Var: id(i.name), Bound: id(t.name), Body: body}}, vs...)
	return true
}

// shiftSizes moves the sizeOf references of ps by k places (parameters
// were inserted before them).
func shiftSizes(ps []loopParam, k int) []loopParam {
	out := append([]loopParam(nil), ps...)
	for j := range out {
		if out[j].sizeOf >= 0 {
			out[j].sizeOf += k
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// reduce and scan

// The operators of a fold.
const (
	foldAdd = iota
	foldMul
	foldMax
	foldMin
	foldRandom
)

// foldStep is the interval of acc ⊕ x for the operator.
func foldStep(op int, acc, x ivl) ivl {
	switch op {
	case foldAdd:
		return ivBinary(semantics.Add, acc, x)
	case foldMul:
		return ivBinary(semantics.Mul, acc, x)
	case foldMax, foldMin:
		return acc.join(x)
	}
	return ivTop
}

// foldIv is the interval of every accumulator of a fold over at most n
// rows of elements x from z: z, z ⊕ x, (z ⊕ x) ⊕ x, ….
func foldIv(op int, z, x ivl, n int64) ivl {
	if n > 40 {
		return ivTop
	}
	acc, all := z, z
	for range n {
		acc = foldStep(op, acc, x)
		all = all.join(acc)
	}
	return all
}

// combine adds to b the statements of u ⊕ v on ints and returns the
// variable of the result.
func (b *block) combine(op int, u, v string) *gvar {
	g := b.g
	switch op {
	case foldAdd:
		return b.letInt(bin(semantics.Add, vr(u), vr(v)), ivTop)
	case foldMul:
		return b.letInt(bin(semantics.Mul, vr(u), vr(v)), ivTop)
	}
	cmp := semantics.Gt
	if op == foldMin {
		cmp = semantics.Lt
	}
	c := b.letInt(bin(cmp, vr(u), vr(v)), ivl{0, 1})
	w := &gvar{name: g.fresh("x"), iv: ivTop}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(w.name, nil)}, Exp: &fun.IfExp{Cond: id(c.name),
		Then: &fun.Body{Result: []*fun.Ident{id(u)}}, Else: &fun.Body{Result: []*fun.Ident{id(v)}}}}, w)
	return w
}

// genFold makes a reduce (scan false) or a scan over an array in scope.
func (b *block) genFold(scan bool) bool {
	g := b.g
	if b.depth >= g.cfg.MaxDepth {
		return false
	}
	arrs := b.arrays()
	if len(arrs) == 0 {
		return false
	}
	xs := pick(g, arrs)
	n := b.extent(xs.dims[0])
	row := xs.dims[1:]
	iters := b.mult * max(1, n.hi)
	if iters > g.cfg.MaxIter {
		return false
	}
	op, ok := b.foldOp(row, iters, false)
	if !ok {
		return false
	}
	z, first, name, prefix := b.foldStart(row, scan)
	av := &gvar{name: g.fresh(prefixOf(row)), dims: row, iv: ivTop}
	bv := &gvar{name: g.fresh(prefixOf(row)), dims: row, iv: xs.iv}
	mark := g.next
	nb := b.nested(n.hi)
	nb.vars = append(nb.vars, av, bv)
	res := nb.operator(op, av, bv, row)
	g.next = mark
	if !first {
		name = g.fresh(prefix)
	}
	body := &fun.Body{Stms: nb.stms, Result: []*fun.Ident{id(res.name)}}
	ps := []*fun.Param{param(av.name, row), param(bv.name, row)}
	v := &gvar{name: name, dims: row, iv: foldIv(op, z.iv, xs.iv, n.hi)}
	var e fun.Exp = &fun.ReduceExp{Params: ps, Ne: id(z.name), Arr: id(xs.name), Body: body}
	if scan {
		v.dims = append([]string{xs.dims[0]}, row...)
		e = &fun.ScanExp{Params: ps, Ne: id(z.name), Arr: id(xs.name), Body: body}
	}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(v.name, v.dims)}, Exp: e}, v)
	return true
}

// foldOp picks a fold's operator over items of type row, folded iters
// times in all: a known one (sum, product, max, min) where the items are
// scalars or rows whose element-wise fold stays within the budget (and,
// with nonNegRow, whose rows cannot be of a negative length), else a
// random body; false where the configuration wants associative folds and
// only a random body would do (one is seldom associative).
func (b *block) foldOp(row []string, iters int64, nonNegRow bool) (int, bool) {
	g := b.g
	op := foldRandom
	if len(row) <= 1 && (g.cfg.AssociativeFolds || g.chance(0.8)) {
		op = pick(g, []int{foldAdd, foldAdd, foldMul, foldMax, foldMin})
	}
	if len(row) == 1 && op != foldRandom && (iters*max(1, b.extent(row[0]).hi) > g.cfg.MaxIter || nonNegRow && b.extent(row[0]).lo < 0) {
		op = foldRandom
	}
	return op, op != foldRandom || !g.cfg.AssociativeFolds
}

// foldStart makes a fold's start value of type row, and decides whether
// its result's name is drawn before its bodies' names (first; then name
// is it) or after (with prefix).
func (b *block) foldStart(row []string, scan bool) (z *gvar, first bool, name, prefix string) {
	g := b.g
	z = b.produce(row)
	first = g.chance(0.5)
	prefix = "x"
	if scan || len(row) > 0 {
		prefix = "a"
	}
	if first {
		name = g.fresh(prefix)
	}
	return z, first, name, prefix
}

// operator adds to nb, the body of a fold's operator whose operands av
// and bv have type row, the statements of av ⊕ bv for op (a random body
// for foldRandom; element-wise over a row of ints) and returns its result.
func (nb *block) operator(op int, av, bv *gvar, row []string) *gvar {
	g := nb.g
	switch {
	case op == foldRandom:
		nb.randomStms(g.intn(g.cfg.MaxInnerStms + 1))
		return nb.produce(row)
	case len(row) == 0:
		return nb.combine(op, av.name, bv.name)
	}
	// Element-wise over the row: kernel j <= m do u = a[j]; v = b[j]; u ⊕ v.
	m := nb.lookup(row[0])
	j := &gvar{name: g.fresh("i"), iv: ivl{1, max(1, m.iv.hi)}, idxOf: m.name}
	kb := nb.nested(m.iv.hi)
	kb.vars = append(kb.vars, j)
	u := &gvar{name: g.fresh("x"), iv: ivTop}
	kb.bind(&fun.Stm{Pat: []*fun.Param{param(u.name, nil)}, Exp: &fun.IndexExp{Arr: id(av.name), Idx: []*fun.Ident{id(j.name)}}}, u)
	v := &gvar{name: g.fresh("x"), iv: bv.iv}
	kb.bind(&fun.Stm{Pat: []*fun.Param{param(v.name, nil)}, Exp: &fun.IndexExp{Arr: id(bv.name), Idx: []*fun.Ident{id(j.name)}}}, v)
	w := kb.combine(op, u.name, v.name)
	res := &gvar{name: g.fresh("a"), dims: row, iv: ivTop}
	nb.bind(&fun.Stm{Pat: []*fun.Param{param(res.name, row)}, Exp: &fun.KernelExp{Var: id(j.name), Bound: id(m.name),
		Body: &fun.Body{Stms: kb.stms, Result: []*fun.Ident{id(w.name)}}}}, res)
	return res
}

// ---------------------------------------------------------------------------
// redomap and scanomap

// GenRedomaps lets the generator make redomap and scanomap when
// GenConfig.Extensions is set. It is off until the reference evaluator
// (refeval_props.go) and the properties' rule lists know the forms; off,
// the generator draws the programs it drew before they existed.
var GenRedomaps = true

// redomapKinds are redomap's and scanomap's entries of randomStm's table.
func redomapKinds() []stmKind {
	if !GenRedomaps {
		return nil
	}
	return []stmKind{
		{2, func(b *block) bool { return b.genRedomap(false) }},
		{2, func(b *block) bool { return b.genRedomap(true) }},
	}
}

// genRedomap makes a redomap (scan false) or a scanomap: n elements, its
// bound often a dimension of an array in scope (which the map body may
// then index with i), or perhaps negative on a risky choice (stuck in
// E-REDOMAP); a map body of random statements giving a value of the
// accumulator's type τ (an int or a row of ints, seldom deeper); and an
// operator as genFold's, from a start z of type τ. The operator's body
// takes the names the map body took (the generator's names restart after
// a body), since the two bodies are scopes of their own.
func (b *block) genRedomap(scan bool) bool {
	g := b.g
	if b.depth >= g.cfg.MaxDepth {
		return false
	}
	var n *gvar
	if g.risk() {
		n = b.sizeVar(-2, g.cfg.MaxExtent)
	} else {
		n = b.kernelBound()
	}
	iters := b.mult * max(1, n.iv.hi)
	if iters > g.cfg.MaxIter {
		return false
	}
	row := b.elemDims(min(1, g.cfg.MaxRank-1))
	if scan && len(row) > 0 && !b.extent(row[0]).within(0, g.cfg.MaxExtent) {
		return false
	}
	op, ok := b.foldOp(row, iters, true)
	if !ok {
		return false
	}
	z, first, name, prefix := b.foldStart(row, scan)
	i := &gvar{name: g.fresh("i"), iv: ivl{1, max(1, n.iv.hi)}, idxOf: n.name}
	av := &gvar{name: g.fresh(prefixOf(row)), dims: row, iv: ivTop}
	mark := g.next
	mb := b.nested(n.iv.hi)
	mb.vars = append(mb.vars, i)
	mb.randomStms(g.intn(g.cfg.MaxInnerStms + 1))
	f := mb.produce(row)
	g.next = mark
	bv := &gvar{name: g.fresh(prefixOf(row)), dims: row, iv: f.iv}
	mark = g.next
	ob := b.nested(n.iv.hi)
	ob.vars = append(ob.vars, av, bv)
	res := ob.operator(op, av, bv, row)
	g.next = mark
	if !first {
		name = g.fresh(prefix)
	}
	v := &gvar{name: name, dims: row, iv: foldIv(op, z.iv, f.iv, n.iv.hi)}
	if scan {
		v.dims = append([]string{n.name}, row...)
	}
	e := &fun.RedomapExp{Scan: scan, Params: []*fun.Param{param(av.name, row), param(bv.name, row)}, Ne: id(z.name),
		Var: id(i.name), Bound: id(n.name),
		Map: &fun.Body{Stms: mb.stms, Result: []*fun.Ident{id(f.name)}},
		Op:  &fun.Body{Stms: ob.stms, Result: []*fun.Ident{id(res.name)}}}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(v.name, v.dims)}, Exp: e}, v)
	return true
}

// ---------------------------------------------------------------------------
// filter

func (b *block) genFilter() bool {
	g := b.g
	if b.depth >= g.cfg.MaxDepth {
		return false
	}
	arrs := b.arrays()
	if len(arrs) == 0 {
		return false
	}
	xs := pick(g, arrs)
	n := b.extent(xs.dims[0])
	if b.mult*max(1, n.hi) > g.cfg.MaxIter {
		return false
	}
	row := xs.dims[1:]
	first := g.chance(0.5)
	var k, ys string
	if first {
		k, ys = g.fresh("x"), g.fresh("a")
	}
	x := &gvar{name: g.fresh(prefixOf(row)), dims: row, iv: xs.iv}
	mark := g.next
	nb := b.nested(n.hi)
	nb.vars = append(nb.vars, x)
	nb.randomStms(g.intn(g.cfg.MaxInnerStms))
	var keep *gvar
	elem := x
	if len(row) > 0 && g.chance(0.6) {
		var idx []*fun.Ident
		for _, d := range row {
			v := nb.indexVar(d)
			if v == nil {
				idx = nil
				break
			}
			idx = append(idx, id(v.name))
		}
		if idx != nil {
			elem = &gvar{name: g.fresh("x"), iv: xs.iv}
			nb.bind(&fun.Stm{Pat: []*fun.Param{param(elem.name, nil)}, Exp: &fun.IndexExp{Arr: id(x.name), Idx: idx}}, elem)
		}
	}
	switch {
	case elem.isInt() && g.chance(0.25):
		keep = nb.letInt(bin(semantics.Eq, bin(semantics.Mod, vr(elem.name), konst(2)), konst(0)), ivl{0, 1})
	case elem.isInt() && g.chance(0.8):
		r, _ := nb.leaf()
		keep = nb.letInt(bin(pick(g, cmpOps), vr(elem.name), r), ivl{0, 1})
	default:
		keep = nb.produce(nil)
	}
	g.next = mark
	if !first {
		k, ys = g.fresh("x"), g.fresh("a")
	}
	kv := &gvar{name: k, iv: ivl{0, max(0, n.hi)}}
	yv := &gvar{name: ys, dims: append([]string{k}, row...), iv: xs.iv}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(kv.name, nil), param(yv.name, yv.dims)}, Exp: &fun.FilterExp{
		Params: []*fun.Param{param(x.name, row)}, Arr: id(xs.name),
		Body: &fun.Body{Stms: nb.stms, Result: []*fun.Ident{id(keep.name)}},
	}}, kv, yv)
	return true
}

// ---------------------------------------------------------------------------
// assert

// assertMessages are the messages asserts carry: the printer must quote
// and escape them, and the parser read them back.
var assertMessages = []string{"n is even", `a "quoted" word`, `back\slash`, "-- not a comment", "", "x ≤ y ✓"}

func (b *block) genAssert() bool {
	g := b.g
	var cond fun.SExp
	if g.risk() {
		if ints := b.ints(); len(ints) > 0 && g.chance(0.5) {
			v := pick(g, ints)
			cond = bin(semantics.Gt, vr(v.name), konst(v.iv.hi)) // false unless v's interval is not to be trusted
		} else {
			cond, _ = b.sexp(2) // perhaps 0, or a division by zero
		}
	} else {
		cond = b.trueSExp(2)
	}
	e := &fun.AssertExp{Cond: cond}
	if g.chance(0.6) {
		e.HasMsg, e.Msg = true, pick(g, assertMessages)
	}
	v := &gvar{name: g.fresh("x"), iv: ivExact(1)}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(v.name, nil)}, Exp: e}, v)
	return true
}

// trueSExp is a scalar expression that cannot be 0 (in a safe case).
func (b *block) trueSExp(depth int) fun.SExp {
	g := b.g
	var known []*gvar
	for _, v := range b.ints() {
		if trusted(v.iv) {
			known = append(known, v)
		}
	}
	switch x := g.intn(10); {
	case x < 5 && len(known) > 0:
		v := pick(g, known)
		switch g.intn(4) {
		case 0:
			return bin(semantics.Ge, vr(v.name), konst(v.iv.lo))
		case 1:
			return bin(semantics.Le, vr(v.name), konst(v.iv.hi))
		case 2:
			return bin(semantics.Ne, vr(v.name), konst(v.iv.hi+1))
		}
		return bin(semantics.Lt, vr(v.name), bin(semantics.Add, konst(v.iv.hi), konst(g.between(1, 3))))
	case x < 7 && depth > 0:
		return bin(pick(g, []semantics.Op{semantics.And, semantics.Or}), b.trueSExp(depth-1), b.trueSExp(depth-1))
	case x < 9:
		for range 3 {
			if e, iv := b.sexp(2); trusted(iv) && !iv.has(0) {
				return e
			}
		}
	}
	k := g.between(1, 6)
	if g.chance(0.3) {
		k = -k
	}
	return konst(k)
}
