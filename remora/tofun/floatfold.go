package tofun

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Float reductions and scans in parallel, guarded.
//
// +. and *. are associative only up to rounding: FUN's reduce and scan,
// which the CUDA level runs as parallel trees, round differently from
// Remora's left fold. The reduce and scan family of floats folds as the
// int one does, in parallel from the neutral element (monoidFold), and,
// alongside, by the same parallel folds, the quantities that bound how
// far any bracketing of the items can be from any other (Higham,
// "Accuracy and Stability of Numerical Algorithms", §4.2 and §3.1):
//
//   - a sum of n terms, added in any order, is within γ(n-1)·Σ|x| of the
//     exact sum (γ(k) = k·u/(1-k·u), u = 2^-53), so two orders are within
//     2γ(n-1)·Σ|x| of each other; the guard folds Σ|x| too;
//   - a product of n factors, in any order, is within γ(n-1) of the exact
//     product, relatively, when nothing overflows or underflows: every
//     partial product lies between the product of the factors below 1
//     in magnitude and that of those above, which the guard folds.
//
// Where every position of the result is provably within
// semantics.FloatReassociationBound of the left fold's (the sum's or
// product's bound, computed with a margin, is below the bound times the
// parallel result, and nothing is infinite, NaN, near overflow or
// subnormal), the parallel result stands; where one is not (cancellation,
// overflow, underflow, a NaN), the program folds in order, as Remora
// does, and gives its value exactly. So a compiled level never prints a
// float fold's result farther from the interpreter's than the bound, and
// the comparisons of the levels accept the difference within it
// (semantics.FloatReassociationBound). The FUN interpreters fold in order
// anyway: only the CUDA level's trees round differently. fold,
// fold-right, trace and trace-right promise their order: they fold floats
// in order (fold).

// floatGuard is how a float monoid's parallel fold is guarded.
type floatGuard struct {
	// items are the guarding folds' items, made from an item's atom x in
	// the block b (each folded with the same operator).
	items []func(l *lowerer, b *block, x string) string
	// ok is the int expression: the parallel result t is within the
	// bound, given the guards' results g and k, the bound's factor for
	// the number of terms (reassocFactor).
	ok func(t string, g []string, k string) fun.SExp
}

// floatGuards are the float monoids and their guards.
var floatGuards = map[string]floatGuard{
	"+.": {
		items: []func(l *lowerer, b *block, x string) string{absAtom},
		ok: func(t string, g []string, k string) fun.SExp {
			a := g[0]
			return all(finite(t), finite(a), bin(semantics.Lt, sv(a), fun.Float(1e300)),
				// k·Σ|x| ≤ bound·|t|
				bin(semantics.Or,
					bin(semantics.Le, bin(semantics.Mul, sv(k), sv(a)), bin(semantics.Mul, fun.Float(semantics.FloatReassociationBound), sv(t))),
					bin(semantics.Le, bin(semantics.Mul, sv(k), sv(a)), bin(semantics.Mul, fun.Float(-semantics.FloatReassociationBound), sv(t)))))
		},
	},
	"*.": {
		items: []func(l *lowerer, b *block, x string) string{
			func(l *lowerer, b *block, x string) string { return clampAtom(l, b, x, true) },
			func(l *lowerer, b *block, x string) string { return clampAtom(l, b, x, false) },
		},
		ok: func(t string, g []string, k string) fun.SExp {
			hi, lo := g[0], g[1]
			return all(finite(t), finite(hi), bin(semantics.Lt, sv(hi), fun.Float(1e300)), bin(semantics.Gt, sv(lo), fun.Float(1e-300)),
				// k/2 is the relative bound of one order: k ≤ bound
				bin(semantics.Le, sv(k), fun.Float(semantics.FloatReassociationBound)))
		},
	},
}

// guardedFold is a float reduction or scan (of the reduce family) by
// FUN's reduce or scan from the neutral element, kept where its guard
// proves it within the bound, else the left fold of loopFold (z, items,
// count as fold made them). An initial value is folded as the first
// item, so that a FUN reduce or scan folded in order (as FUN's
// interpreters fold) is Remora's left fold exactly: only a parallel
// level's tree rounds differently.
func (c *call) guardedFold(sp foldSpec, g floatGuard, xs, z, items *val, count string) *val {
	l, b := c.l, c.b
	e := neutrals[c.opName()]
	ys := xs
	if sp.init {
		n1 := l.intLet(b, "n", bin(semantics.Add, sv(xs.dims[0]), ic(1)))
		ys = l.concat(l.rep([]string{l.constSize(b, 1)}, z), xs, cat([]string{n1}, xs.dims[1:]...))
	}
	// With no initial value, monoidFold folds ys alone: its reduce, or
	// its inclusive scan, whose first row is the first item (the initial
	// value for scan-init, which iscan-init leaves out).
	all := foldSpec{pad: true, trace: sp.trace, withStart: sp.trace}
	fold := func(v *val) *val {
		r := c.monoidFold(all, e, v, nil)
		if sp.init && sp.trace && !sp.withStart {
			r = l.shifted(r, cat([]string{xs.dims[0]}, r.dims[1:]...), func(b *block, i string) string {
				return l.intLet(b, "j", bin(semantics.Add, sv(i), ic(1)))
			})
		}
		return r
	}
	t := fold(ys)
	var guards []*val
	for _, item := range g.items {
		guards = append(guards, fold(floatView(l, ys, item)))
	}
	// k = 2.02·γ(n)/(1 - γ(n)), γ(n) = n·u/(1 - n·u), for n terms (the
	// items, and the initial value): an upper bound of 2γ(n-1)/(1-γ(n-1))
	// with a margin for its own rounding; infinite past n·u = 1/2.
	n := l.scalarLet(b, "n", semantics.FloatElem, fun.Apply(semantics.ToFloat, sv(ys.dims[0])))
	nu := l.scalarLet(b, "nu", semantics.FloatElem, bin(semantics.Mul, sv(n), fun.Float(0x1p-53)))
	small := l.intLet(b, "small", bin(semantics.Lt, sv(nu), fun.Float(0.5)))
	gam := l.scalarLet(b, "gamma", semantics.FloatElem, bin(semantics.Div, sv(nu), bin(semantics.Sub, fun.Float(1), sv(nu))))
	k := l.scalarLet(b, "k", semantics.FloatElem, bin(semantics.Div, bin(semantics.Mul, fun.Float(2.02), sv(gam)), bin(semantics.Sub, fun.Float(1), sv(gam))))
	// Every position of the result within the bound: ok over the
	// positions, flattened, folded with &&.
	total := l.productOf(b, t.dims)
	oks := l.kernels(b, semantics.IntElem, []string{total}, nil, func(ib *block, p []string) string {
		idx := l.unflatten(ib, p[0], t.dims)
		ta := l.get(ib, t, idx).name
		ga := make([]string, len(guards))
		for i, gv := range guards {
			ga[i] = l.get(ib, gv, idx).name
		}
		return l.intLet(ib, "ok", bin(semantics.And, sv(small), g.ok(ta, ga, k)))
	})
	one := l.intLet(b, "one", ic(1))
	flag := l.foldExp(b, false, semantics.IntElem, nil, one, oks, total, func(bb *block, a, x string) string {
		return l.intLet(bb, "ok", bin(semantics.And, sv(a), sv(x)))
	})
	dims := c.retDims()
	tb, eb := b.child(), b.child()
	then := l.materialise(tb, t, dims, c.pos)
	c.b = eb
	left := c.loopFold(sp, z, items, count)
	els := l.materialise(eb, left, dims, c.pos)
	c.b = b
	r := l.fresh("r")
	b.let(&fun.IfExp{Cond: ident(flag), Then: tb.body(then), Else: eb.body(els)}, param(r, funType(semantics.FloatElem, dims)))
	return &val{kind: remora.KFloat, dims: dims, name: r}
}

// opName is the name of the call's operator's monoid.
func (c *call) opName() string {
	name, _ := monoidName(c.ops[0])
	return name
}

// floatView is v's atoms through f, a view.
func floatView(l *lowerer, v *val, f func(l *lowerer, b *block, x string) string) *val {
	return view(remora.KFloat, nil, v.dims, func(b *block, idx []string) atom {
		return atom{name: f(l, b, l.get(b, v, idx).name)}
	})
}

// absAtom is |x| as x·(1 - 2·[x < 0]) (NaN stays NaN).
func absAtom(l *lowerer, b *block, x string) string {
	neg := fun.Apply(semantics.ToFloat, bin(semantics.Lt, sv(x), fun.Float(0)))
	return l.scalarLet(b, "abs", semantics.FloatElem, bin(semantics.Mul, sv(x), bin(semantics.Sub, fun.Float(1), bin(semantics.Mul, fun.Float(2), neg))))
}

// clampAtom is max(|x|, 1) (hi) or min(|x|, 1): the factor a product's
// partial products are bounded by; an infinity or NaN gives one that
// fails the guard.
func clampAtom(l *lowerer, b *block, x string, hi bool) string {
	m := absAtom(l, b, x)
	ge := fun.Apply(semantics.ToFloat, bin(semantics.Ge, sv(m), fun.Float(1)))
	lt := fun.Apply(semantics.ToFloat, bin(semantics.Lt, sv(m), fun.Float(1)))
	if hi {
		return l.scalarLet(b, "hi", semantics.FloatElem, bin(semantics.Add, bin(semantics.Mul, ge, sv(m)), lt))
	}
	return l.scalarLet(b, "lo", semantics.FloatElem, bin(semantics.Add, bin(semantics.Mul, lt, sv(m)), ge))
}

// finite is [x is neither infinite nor NaN]: x - x is 0 exactly then.
func finite(x string) fun.SExp {
	return bin(semantics.Eq, bin(semantics.Sub, sv(x), sv(x)), fun.Float(0))
}

// all is the && of int expressions.
func all(es ...fun.SExp) fun.SExp {
	out := es[0]
	for _, e := range es[1:] {
		out = bin(semantics.And, out, e)
	}
	return out
}
