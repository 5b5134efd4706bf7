package proofstests

import (
	"math"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Floats in the generator (GenConfig.Extensions; docs/fun.md, "Floats"):
// genFloat binds a float scalar made of float(x) for an int x in scope,
// float constants, + - * /, and sqrt exp log sin cos, and then an int
// from it: a comparison (1 or 0, whatever the float, NaN and infinities
// included) or int(f), which truncates and is stuck on NaN or a value
// outside int64. A float's interval (fiv) is tracked as ints' are, and
// int(f) is made only when it is known to be finite and well inside
// int64 (a risky choice may take any float). Floats stay out of the
// block's variables: ints and floats are kept apart, every other form
// sees ints and arrays of ints only, and a float never is a result.

// fiv is the interval of a float: [lo, hi] when known (no NaN), else
// unknown (ok false: NaN, an infinity or a value beyond what is tracked).
type fiv struct {
	lo, hi float64
	ok     bool
}

// floatLimit bounds the floats whose intervals are tracked: far inside
// int64 (2^62) and exactly representable bounds' neighbourhood.
const floatLimit = float64(1 << 50)

func fivMake(lo, hi float64) fiv {
	if math.IsNaN(lo) || math.IsNaN(hi) || lo < -floatLimit || hi > floatLimit {
		return fiv{}
	}
	// Pad for rounding: the bounds are computed in float64 as the values are.
	pad := func(x float64) float64 { return math.Abs(x)*1e-9 + 1e-9 }
	return fiv{lo - pad(lo), hi + pad(hi), true}
}

func fivExact(f float64) fiv { return fivMake(f, f) }

// fivBinary is the interval of f1 ⊕ f2 (+ - * /).
func fivBinary(op semantics.Op, a, b fiv) fiv {
	if !a.ok || !b.ok {
		return fiv{}
	}
	corners := func(f func(x, y float64) float64) fiv {
		c := []float64{f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)}
		lo, hi := c[0], c[0]
		for _, x := range c[1:] {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		return fivMake(lo, hi)
	}
	switch op {
	case semantics.Add:
		return fivMake(a.lo+b.lo, a.hi+b.hi)
	case semantics.Sub:
		return fivMake(a.lo-b.hi, a.hi-b.lo)
	case semantics.Mul:
		return corners(func(x, y float64) float64 { return x * y })
	case semantics.Div:
		if b.lo > 0.5 || b.hi < -0.5 { // the divisor keeps away from 0
			return corners(func(x, y float64) float64 { return x / y })
		}
	}
	return fiv{}
}

// fivCall is the interval of f(x) for a float function f.
func fivCall(f semantics.Func, a fiv) fiv {
	if !a.ok {
		return fiv{}
	}
	switch f {
	case semantics.Sqrt:
		if a.lo >= 0 {
			return fivMake(math.Sqrt(a.lo), math.Sqrt(a.hi))
		}
	case semantics.Exp:
		if a.hi <= 30 {
			return fivMake(0, math.Exp(a.hi))
		}
	case semantics.Log:
		if a.lo > 0 {
			return fivMake(math.Log(a.lo), math.Log(a.hi))
		}
	case semantics.Sin, semantics.Cos:
		return fivMake(-1, 1)
	}
	return fiv{}
}

// floatConsts are the float constants the generator writes.
var floatConsts = []float64{0.5, 1.5, -2.25, 3.0, 0.0, 1e3, 2.5e-3, -0.75}

// floatExp is a random float expression of the given depth over the ints
// in scope (through float(x)) and the float variable prev, if any, of
// interval piv.
func (b *block) floatExp(depth int, prev string, piv fiv) (fun.SExp, fiv) {
	g := b.g
	if depth <= 0 || g.chance(0.3) {
		switch ints := b.ints(); {
		case prev != "" && g.chance(0.5):
			return vr(prev), piv
		case len(ints) > 0 && g.chance(0.7):
			x := pick(g, ints)
			iv := fiv{}
			if x.iv != ivTop {
				iv = fivMake(float64(x.iv.lo), float64(x.iv.hi))
			}
			return fun.Apply(semantics.ToFloat, vr(x.name)), iv
		}
		c := pick(g, floatConsts)
		return fun.Float(c), fivExact(c)
	}
	if g.chance(0.35) {
		f := pick(g, []semantics.Func{semantics.Sqrt, semantics.Exp, semantics.Log, semantics.Sin, semantics.Cos})
		x, iv := b.floatExp(depth-1, prev, piv)
		return fun.Apply(f, x), fivCall(f, iv)
	}
	op := pick(g, []semantics.Op{semantics.Add, semantics.Sub, semantics.Mul, semantics.Div})
	l, liv := b.floatExp(depth-1, prev, piv)
	r, riv := b.floatExp(depth-1, prev, piv)
	return bin(op, l, r), fivBinary(op, liv, riv)
}

// genFloat binds one or two floats and an int made from the last.
func (b *block) genFloat() bool {
	g := b.g
	var prev string
	var piv fiv
	for range 1 + g.intn(2) {
		e, iv := b.floatExp(1+g.intn(3), prev, piv)
		f := g.fresh("f")
		b.bind(&fun.Stm{Pat: []*fun.Param{{Name: id(f), Type: fun.Type{Elem: semantics.FloatElem}}}, Exp: &fun.ScalarExp{X: e}})
		prev, piv = f, iv
	}
	// int(f) when f is surely finite and in range, or as a risky choice.
	if (piv.ok && g.chance(0.5)) || g.risk() {
		iv := ivTop
		if piv.ok {
			iv = ivMake(math.Trunc(piv.lo)-1, math.Trunc(piv.hi)+1)
		}
		b.letInt(fun.Apply(semantics.ToInt, vr(prev)), iv)
		return true
	}
	op := pick(g, []semantics.Op{semantics.Lt, semantics.Le, semantics.Gt, semantics.Ge, semantics.Eq, semantics.Ne})
	var r fun.SExp = fun.Float(pick(g, floatConsts))
	if ints := b.ints(); len(ints) > 0 && g.chance(0.5) {
		r = fun.Apply(semantics.ToFloat, vr(pick(g, ints).name))
	}
	b.letInt(bin(op, vr(prev), r), ivl{0, 1})
	return true
}
