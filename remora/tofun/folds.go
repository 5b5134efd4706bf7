package tofun

import (
	"math"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// The reduce, scan and fold family. Remora folds in index order, left to
// right (fold-right and trace-right from the right), and its operator need
// be neither associative nor commutative (ERRATA R8). FUN's reduce and
// scan are left folds too, but only their order is defined: FUN's
// contract (docs/fun.md) lets a parallel implementation re-associate, and
// combine its start value more than once, so the CUDA level may compute
// any bracketing. Lower therefore uses them only for operators it knows
// to be associative, started from their neutral element (a monoid), and
// folds every other operator with a sequential FUN loop. Float +. and *.
// count as associative: re-associated, they round differently, within
// the bound the comparisons document (semantics.FloatReassociation).

// foldSpec is how a primitive of the family folds.
type foldSpec struct {
	init      bool // takes an initial accumulator (argument 1)
	pad       bool // the reduce family: the initial value is replicated over @pad
	right     bool // from the last item: acc := op(item, acc)
	trace     bool // returns every accumulator
	withStart bool // the trace holds the starting accumulator (the first item, for iscan)
}

var foldSpecs = map[string]foldSpec{
	"reduce":      {pad: true},
	"reduce-init": {init: true, pad: true},
	"iscan":       {pad: true, trace: true, withStart: true},
	"scan-init":   {init: true, pad: true, trace: true, withStart: true},
	"iscan-init":  {init: true, pad: true, trace: true},
	"fold":        {init: true},
	"fold-right":  {init: true, right: true},
	"trace":       {init: true, trace: true, withStart: true},
	"trace-right": {init: true, right: true, trace: true, withStart: true},
}

// neutrals are the primitives that are associative (on ints as Go's
// wrapping arithmetic or as exact arithmetic that may stop, on floats max. and min. as math.Max and math.Min,
// NaN included) with their neutral elements; and +. and *., which are
// associative up to rounding: re-associating them is what every GPU
// compiler does with a reduction, and the comparisons of the levels
// accept the difference within a documented bound, saying so
// (semantics.FloatReassociation). -0.0 is +.'s neutral element (x + -0.0
// is x for every x, -0.0 included; 0.0 would turn -0.0 into 0.0), 1.0
// *.'s.
var neutrals = map[string]fun.SExp{
	"+": ic(0), "*": ic(1), "max": ic(math.MinInt64), "min": ic(math.MaxInt64),
	// The checked + and * re-associate too: a checked operation that does
	// not stop gives the exact value, so every order that does not stop
	// gives the exact sum or product (which order stops may differ).
	"+!": ic(0), "*!": ic(1),
	"and": ic(1), "or": ic(0),
	"max.": floatConst(math.Inf(-1)), "min.": floatConst(math.Inf(1)),
	"+.": floatConst(math.Copysign(0, -1)), "*.": floatConst(1),
}

// monoidName recognises an operator FUN may re-associate, and names its
// primitive: an associative primitive, or a λ (a b) that applies one to a
// and b, perhaps lifted over their cells (directly or by MAPs):
// associative pointwise. The primitive's neutral element is in neutrals.
func monoidName(op remora.Expr) (string, bool) {
	switch op := op.(type) {
	case *remora.Prim:
		_, ok := neutrals[op.Def.Name]
		return op.Def.Name, ok
	case *remora.Lam:
		if len(op.Params) == 2 && remora.Equal(op.Params[0].Type, op.Params[1].Type) {
			return pointwise(op.Body, op.Params[0].Name, op.Params[1].Name)
		}
	}
	return "", false
}

func pointwise(e remora.Expr, a, b string) (string, bool) {
	isVar := func(e remora.Expr, x string) bool {
		v, ok := e.(*remora.Var)
		return ok && v.Name == x
	}
	switch e := e.(type) {
	case *remora.App:
		if p, ok := e.Fn.(*remora.Prim); ok && len(e.Args) == 2 && isVar(e.Args[0], a) && isVar(e.Args[1], b) {
			return monoidName(p)
		}
	case *remora.Map:
		if len(e.Args) == 2 && isVar(e.Args[0], a) && isVar(e.Args[1], b) && e.Params[0].Name != b {
			return pointwise(e.Body, e.Params[0].Name, e.Params[1].Name)
		}
	}
	return "", false
}

// fold lowers a primitive of the family.
func fold(c *call) *val {
	l, b := c.l, c.b
	sp := foldSpecs[c.p.Name]
	xs := c.args[len(c.args)-1]
	n := xs.dims[0]
	one := func() string { return l.constSize(b, 1) } // bound where first needed
	// z is the starting accumulator, folded over count items.
	var z *val
	items, count := xs, n
	switch {
	case sp.init && sp.pad:
		z = l.rep(c.shape(1), c.args[1])
	case sp.init:
		z = c.args[1]
	default:
		l.assert(b, bin(semantics.Ge, sv(n), ic(1)), c.p.Name+": no items to reduce")
		z = l.cell(xs, []string{one()})
		count = l.intLet(b, "m", bin(semantics.Sub, sv(n), ic(1)))
		items = l.shifted(xs, cat([]string{count}, xs.dims[1:]...), func(b *block, i string) string {
			return l.intLet(b, "j", bin(semantics.Add, sv(i), ic(1)))
		})
	}
	// A monoid folds in parallel when accumulator and items are of one
	// type (always in the reduce family).
	same := sp.pad || (remora.Equal(c.ts[0], c.ts[1]) && c.is[1].S.Equal(c.is[2].S))
	if name, ok := monoidName(c.ops[0]); ok && same {
		if g, float := floatGuards[name]; float {
			if !sp.pad {
				// fold and trace promise their order: in order.
				return c.loopFold(sp, z, items, count)
			}
			return c.guardedFold(sp, g, xs, z, items, count) // floatfold.go
		}
		return c.monoidFold(sp, neutrals[name], xs, z)
	}
	return c.loopFold(sp, z, items, count)
}

// apply is the operator on two arguments, lifted over their frames.
func (c *call) apply(b *block, x, y *val) *val {
	return c.l.applyFn(b, c.en, c.ops[0], []*val{x, y}, c.pos)
}

// monoidFold folds with FUN's reduce and scan from the neutral element e
// over all of xs, then combines the result with the initial value by
// associativity: init ⊕ (x1 ⊕ … ⊕ xn) for a left fold, (x1 ⊕ … ⊕ xn) ⊕
// init for a right one; a trace combines each prefix (suffix) so.
func (c *call) monoidFold(sp foldSpec, e fun.SExp, xs, z *val) *val {
	l, b := c.l, c.b
	n, row := xs.dims[0], xs.dims[1:]
	elem := xs.elem()
	x := l.materialise(b, xs, xs.dims, c.pos)
	ne := l.materialise(b, l.rep(row, scalar(xs.kind, l.scalarLet(b, "e", elem, e))), row, c.pos)
	body := func(swap bool) func(bb *block, a, x string) string {
		return func(bb *block, a, x string) string {
			av, xv := &val{kind: xs.kind, dims: row, name: a}, &val{kind: xs.kind, dims: row, name: x}
			if swap {
				av, xv = xv, av
			}
			return l.materialise(bb, c.apply(bb, av, xv), row, c.pos)
		}
	}
	if !sp.trace {
		r := &val{kind: xs.kind, dims: row, name: l.foldExp(b, false, elem, row, ne, x, n, body(false))}
		switch {
		case !sp.init:
			return r
		case sp.right:
			return c.apply(b, r, z)
		}
		return c.apply(b, z, r)
	}
	one := func() string { return l.constSize(b, 1) }
	zs := func() *val { return l.rep([]string{n}, z) }
	if !sp.right {
		s := &val{kind: xs.kind, dims: xs.dims, name: l.foldExp(b, true, elem, row, ne, x, n, body(false))}
		if !sp.init {
			return s
		}
		t := c.apply(b, zs(), s)
		if !sp.withStart {
			return t
		}
		return l.concat(l.rep([]string{one()}, z), t, c.retDims())
	}
	// The suffixes x_i ⊕ … ⊕ x_n: a scan over the items reversed with the
	// operands swapped, read backwards.
	rev := func(v *val) *val {
		return l.shifted(v, v.dims, func(b *block, i string) string {
			return l.intLet(b, "j", bin(semantics.Sub, bin(semantics.Add, sv(n), ic(1)), sv(i)))
		})
	}
	xr := l.materialise(b, rev(&val{kind: xs.kind, dims: xs.dims, name: x}), xs.dims, c.pos)
	s := &val{kind: xs.kind, dims: xs.dims, name: l.foldExp(b, true, elem, row, ne, xr, n, body(true))}
	t := c.apply(b, rev(s), zs())
	return l.concat(t, l.rep([]string{one()}, z), c.retDims())
}

// foldExp emits FUN's reduce (scan false) or scan of xs (n rows of sizes
// row) from z, whose body is combine.
func (l *lowerer) foldExp(b *block, scan bool, elem semantics.Elem, row []string, z, xs, n string, combine func(bb *block, a, x string) string) string {
	a, x, bb := l.fresh("a"), l.fresh("b"), b.child()
	r := combine(bb, a, x)
	t := funType(elem, row)
	ps := []*fun.Param{param(a, t), param(x, t)}
	if scan {
		out := l.fresh("scan")
		b.let(&fun.ScanExp{Params: ps, Ne: ident(z), Arr: ident(xs), Body: bb.body(r)}, param(out, funType(elem, cat([]string{n}, row...))))
		return out
	}
	out := l.fresh("red")
	b.let(&fun.ReduceExp{Params: ps, Ne: ident(z), Arr: ident(xs), Body: bb.body(r)}, param(out, t))
	return out
}

// loopFold folds count items from z with a sequential FUN loop carrying
// the accumulator (and for a trace the accumulators so far: a
// loop-carried array of existential size that grows by one each
// iteration, so a trace of n items copies O(n²) atoms).
func (c *call) loopFold(sp foldSpec, z, items *val, count string) *val {
	l, b := c.l, c.b
	if z.kind == remora.KBox {
		if z.rank() != 0 || sp.trace {
			c.refuse("its accumulators would be an array of boxes, which FUN has not")
		}
		return c.loopFoldBox(sp, z, items, count)
	}
	acc := z.dims
	elem := z.elem()
	t := funType(elem, acc)
	zn := l.materialise(b, z, acc, c.pos)
	i, lb := l.fresh("i"), b.child()
	j := i
	if sp.right {
		j = l.intLet(lb, "j", bin(semantics.Sub, bin(semantics.Add, sv(count), ic(1)), sv(i)))
	}
	item := l.cell(items, []string{j})
	a := l.fresh("acc")
	av := &val{kind: z.kind, dims: acc, name: a}
	var r *val
	if sp.right {
		r = c.apply(lb, item, av)
	} else {
		r = c.apply(lb, av, item)
	}
	rn := l.materialise(lb, r, acc, c.pos)
	if !sp.trace {
		out := l.fresh("fold")
		b.let(&fun.LoopExp{Params: []*fun.Param{param(a, t)}, Init: idents([]string{zn}), Var: ident(i), Bound: ident(count), Body: lb.body(rn)}, param(out, t))
		return &val{kind: z.kind, dims: acc, name: out}
	}
	start := l.constSize(b, 0)
	if sp.withStart {
		start = l.constSize(b, 1)
	}
	zv := &val{kind: z.kind, dims: acc, name: zn}
	ys0 := l.materialise(b, l.rep([]string{start}, zv), cat([]string{start}, acc...), c.pos)
	k, ys := l.fresh("k"), l.fresh("ys")
	k1 := l.intLet(lb, "k", bin(semantics.Add, sv(k), ic(1)))
	ysv := &val{kind: z.kind, dims: cat([]string{k}, acc...), name: ys}
	rs := l.rep([]string{l.constSize(b, 1)}, &val{kind: z.kind, dims: acc, name: rn})
	grown := l.concat(ysv, rs, cat([]string{k1}, acc...))
	if sp.right {
		grown = l.concat(rs, ysv, cat([]string{k1}, acc...))
	}
	ys1 := l.materialise(lb, grown, cat([]string{k1}, acc...), c.pos)
	kk, yy, aa := l.fresh("k"), l.fresh("trace"), l.fresh("acc")
	b.let(&fun.LoopExp{
		Params: []*fun.Param{param(k, intType), param(ys, funType(elem, cat([]string{k}, acc...))), param(a, t)},
		Init:   idents([]string{start, ys0, zn}), Var: ident(i), Bound: ident(count), Body: lb.body(k1, ys1, rn),
	}, param(kk, intType), param(yy, funType(elem, cat([]string{kk}, acc...))), param(aa, t))
	return l.manifest(z.kind, yy, cat([]string{kk}, acc...), c.retDims())
}

// loopFoldBox is loopFold with one box for accumulator: the loop carries
// its witnesses, the sizes of its contents and its contents, as T-LOOP
// lets a loop carry existential sizes.
func (c *call) loopFoldBox(sp foldSpec, z, items *val, count string) *val {
	l, b := c.l, c.b
	za := l.get(b, z, nil).box
	if za.val.kind == remora.KBox {
		c.refuse("a box of boxes as an accumulator: FUN carries arrays of ints or floats")
	}
	carried := func(a *boxAtom, bb *block) []string {
		arr := l.materialise(bb, a.val, a.val.dims, c.pos)
		return cat(cat(a.wits, a.val.dims...), arr)
	}
	params := func() ([]*fun.Param, *boxAtom) { return l.boxPattern(za) }
	init := carried(za, b)
	i, lb := l.fresh("i"), b.child()
	j := i
	if sp.right {
		j = l.intLet(lb, "j", bin(semantics.Sub, bin(semantics.Add, sv(count), ic(1)), sv(i)))
	}
	item := l.cell(items, []string{j})
	ps, acc := params()
	av := boxVal(z.sig, acc)
	var r *val
	if sp.right {
		r = c.apply(lb, item, av)
	} else {
		r = c.apply(lb, av, item)
	}
	ra := l.get(lb, r, nil).box
	if ra.val.kind == remora.KBox {
		c.refuse("a box of boxes as an accumulator: FUN carries arrays of ints or floats")
	}
	pat, out := params()
	b.let(&fun.LoopExp{Params: ps, Init: idents(init), Var: ident(i), Bound: ident(count), Body: lb.body(carried(ra, lb)...)}, pat...)
	return boxVal(z.sig, out)
}
