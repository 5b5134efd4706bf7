package tofun

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// The basis primitives (remora/basis.go), one() entry per name: each gets
// its argument cells (exactly its parameters' cell types; the lifting
// over frames is done around it) and returns its result cell. Add a
// primitive by adding its entry.

// call is one() application of a primitive to its cells.
type call struct {
	l    *lowerer
	b    *block
	en   *env
	pos  semantics.Pos
	p    *remora.PrimDef
	is   []remora.Index // the instantiation's indices, in the Pi's order
	ts   []remora.Type  // and types, in the Forall's
	args []*val         // the value arguments' cells (nil for an operator)
	ops  []remora.Expr  // the operator arguments (nil for a value)
	ret  *remora.Arr    // the result cell's type
	kind remora.Kind
	sig  *remora.Sigma
}

var prims = map[string]func(c *call) *val{}

// nat and shape are the instantiation's i-th index as FUN int variables.
func (c *call) nat(i int) string {
	if c.is[i].IsShape {
		refuse(c.pos, "the primitive "+c.p.Name, "index %d should be a Nat", i+1)
	}
	return c.l.nat(c.b, c.en, c.is[i].N, c.pos)
}

func (c *call) shape(i int) []string {
	if !c.is[i].IsShape {
		refuse(c.pos, "the primitive "+c.p.Name, "index %d should be a Shape", i+1)
	}
	return c.l.shape(c.b, c.en, c.is[i].S, c.pos)
}

// retDims are the sizes of the result cell.
func (c *call) retDims() []string { return c.l.shape(c.b, c.en, c.ret.Shape, c.pos) }

// scalar is argument i's atom, a FUN scalar variable.
func (c *call) scalar(i int) string { return c.l.get(c.b, c.args[i], nil).name }

// out binds the scalar expression se as the result.
func (c *call) out(se fun.SExp) *val {
	return scalar(c.kind, c.l.scalarLet(c.b, "v", elemOf(c.kind), se))
}

func (c *call) int(se fun.SExp) string { return c.l.intLet(c.b, "t", se) }

func (c *call) refuse(format string, args ...any) {
	refuse(c.pos, "the primitive "+c.p.Name, format, args...)
}

// binary and unary define scalar primitives by the FUN scalar expression
// of their atoms.
func binary(name string, f func(a, b fun.SExp) fun.SExp) {
	prims[name] = func(c *call) *val { return c.out(f(sv(c.scalar(0)), sv(c.scalar(1)))) }
}

func unary(name string, f func(a fun.SExp) fun.SExp) {
	prims[name] = func(c *call) *val { return c.out(f(sv(c.scalar(0)))) }
}

func op(o semantics.Op) func(a, b fun.SExp) fun.SExp {
	return func(a, b fun.SExp) fun.SExp { return bin(o, a, b) }
}

// unsupported refuses a primitive FUN cannot compute exactly.
func unsupported(name, why string) {
	prims[name] = func(c *call) *val { c.refuse("%s", why); return nil }
}

func init() {
	// Ints: FUN's operators are semantics.Binary, as Remora's are (wrapping;
	// / and % truncate and are stuck on 0 in both).
	for name, o := range map[string]semantics.Op{
		"+": semantics.Add, "-": semantics.Sub, "*": semantics.Mul, "/": semantics.Div, "%": semantics.Mod,
		// The checked twins: FUN's checked operators, stuck on overflow.
		"+!": semantics.AddChecked, "-!": semantics.SubChecked, "*!": semantics.MulChecked, "/!": semantics.DivChecked,
		"=": semantics.Eq, "!=": semantics.Ne, "<": semantics.Lt, "<=": semantics.Le, ">": semantics.Gt, ">=": semantics.Ge,
		// Floats: IEEE in both.
		"+.": semantics.Add, "-.": semantics.Sub, "*.": semantics.Mul, "/.": semantics.Div,
		"<.": semantics.Lt, "<=.": semantics.Le, ">.": semantics.Gt, ">=.": semantics.Ge,
		// Booleans are 0 and 1, so && and || give Remora's and and or.
		"and": semantics.And, "or": semantics.Or,
	} {
		binary(name, op(o))
	}
	// max and min of ints as a*[a>=b] + b*[a<b]: one() of the products is
	// 0, so the sum is exact even where a product would overflow.
	binary("max", func(a, b fun.SExp) fun.SExp {
		return bin(semantics.Add, bin(semantics.Mul, a, bin(semantics.Ge, a, b)), bin(semantics.Mul, b, bin(semantics.Lt, a, b)))
	})
	binary("min", func(a, b fun.SExp) fun.SExp {
		return bin(semantics.Add, bin(semantics.Mul, a, bin(semantics.Le, a, b)), bin(semantics.Mul, b, bin(semantics.Gt, a, b)))
	})
	// abs of an int: x·(1 - 2·[x<0]) wraps at the least int as Go's -x does.
	unary("abs", func(a fun.SExp) fun.SExp {
		return bin(semantics.Mul, a, bin(semantics.Sub, ic(1), bin(semantics.Mul, ic(2), bin(semantics.Lt, a, ic(0)))))
	})
	// abs! is x *! (1 - 2·[x<0]): stuck at the least int, where abs wraps.
	unary("abs!", func(a fun.SExp) fun.SExp {
		return bin(semantics.MulChecked, a, bin(semantics.Sub, ic(1), bin(semantics.Mul, ic(2), bin(semantics.Lt, a, ic(0)))))
	})
	unary("not", func(a fun.SExp) fun.SExp { return bin(semantics.Eq, a, ic(0)) })
	unary("int->bool", func(a fun.SExp) fun.SExp { return bin(semantics.Ne, a, ic(0)) })
	unary("bool->int", func(a fun.SExp) fun.SExp { return a })
	unary("char->int", func(a fun.SExp) fun.SExp { return a })
	unary("int->float", func(a fun.SExp) fun.SExp { return fun.Apply(semantics.ToFloat, a) })
	// float->int truncates and is stuck on NaN and out of range in both.
	unary("float->int", func(a fun.SExp) fun.SExp { return fun.Apply(semantics.ToInt, a) })
	for name, f := range map[string]semantics.Func{"sqrt": semantics.Sqrt, "exp": semantics.Exp, "log": semantics.Log, "sin": semantics.Sin, "cos": semantics.Cos} {
		unary(name, func(a fun.SExp) fun.SExp { return fun.Apply(f, a) })
	}
	// sqrt! and log! are stuck outside their real domain (NaN passes, as
	// the dialect's do): an assertion, then the function.
	for name, f := range map[string]semantics.Func{"sqrt!": semantics.Sqrt, "log!": semantics.Log} {
		prims[name] = func(c *call) *val {
			x := sv(c.scalar(0))
			ok := bin(semantics.Or, bin(semantics.Ge, x, fun.Float(0)), bin(semantics.Ne, x, x))
			c.l.assert(c.b, ok, name+": a negative number has no real result (complex numbers are not supported)")
			return c.out(fun.Apply(f, x))
		}
	}
	for _, name := range []string{"tan", "arcsin", "arccos", "arctan", "arcsin!", "arccos!"} {
		unsupported(name, fmt.Sprintf("FUN's float functions are sqrt, exp, log, sin and cos; %s built from them would not give Go's math value exactly", name))
	}
	unsupported("expt", "FUN has no power function, and exp(y*log(x)) is not math.Pow's value")
	prims["abs."] = absFloat
	prims["max."] = func(c *call) *val { return minMaxFloat(c, true) }
	prims["min."] = func(c *call) *val { return minMaxFloat(c, false) }
	prims["if"] = ifPrim

	prims["iota"] = iota
	prims["length"] = func(c *call) *val { return scalar(remora.KInt, c.nat(0)) }
	prims["replicate"] = func(c *call) *val { return c.l.rep(c.shape(0), c.args[0]) }
	prims["index"] = index
	prims["head"] = func(c *call) *val { return c.l.cell(c.args[0], []string{c.l.constSize(c.b, 1)}) }
	prims["tail"] = func(c *call) *val {
		return c.l.shifted(c.args[0], c.retDims(), func(b *block, i string) string {
			return c.l.intLet(b, "j", bin(semantics.Add, sv(i), ic(1)))
		})
	}
	prims["subvector"] = subvector
	prims["append"] = func(c *call) *val { return c.l.concat(c.args[0], c.args[1], c.retDims()) }
	prims["reverse"] = func(c *call) *val {
		n := c.args[0].dims[0]
		return c.l.shifted(c.args[0], c.args[0].dims, func(b *block, i string) string {
			return c.l.intLet(b, "j", bin(semantics.Sub, bin(semantics.Add, sv(n), ic(1)), sv(i)))
		})
	}
	prims["rotate"] = rotate
	prims["scatter"] = scatter
	prims["filter"] = filter

	for name := range foldSpecs {
		prims[name] = fold
	}
}

// absFloat is math.Abs: -x below 0, else x + 0.0, which turns -0.0 into
// 0.0 and keeps NaN and the infinities.
func absFloat(c *call) *val {
	x := c.scalar(0)
	neg := c.int(bin(semantics.Lt, sv(x), fun.Float(0)))
	f := func(se fun.SExp) func(*block) atom {
		return func(bb *block) atom { return atom{name: c.l.scalarLet(bb, "v", semantics.FloatElem, se)} }
	}
	a := c.l.ifAtom(c.b, neg, remora.KFloat, nil, f(&fun.UnOp{Op: semantics.Neg, X: sv(x)}), f(bin(semantics.Add, sv(x), fun.Float(0))))
	return scalar(remora.KFloat, a.name)
}

// minMaxFloat is math.Max (max) or math.Min: NaN if either is, then by
// comparison, and of two equal zeros +0.0 for max (a + b) and -0.0 for
// min (-(-a + -b)) unless both are the other zero.
func minMaxFloat(c *call, isMax bool) *val {
	a, b := c.scalar(0), c.scalar(1)
	l := c.l
	ret := func(x string) func(*block) atom { return func(*block) atom { return atom{name: x} } }
	expr := func(se fun.SExp) func(*block) atom {
		return func(bb *block) atom { return atom{name: l.scalarLet(bb, "v", semantics.FloatElem, se)} }
	}
	test := func(bb *block, se fun.SExp) string { return l.intLet(bb, "t", se) }
	ifF := func(bb *block, cond string, t, e func(*block) atom) atom {
		return l.ifAtom(bb, cond, remora.KFloat, nil, t, e)
	}
	// a is the answer when it is the larger (max) or the smaller (min).
	wins, loses := semantics.Gt, semantics.Lt
	if !isMax {
		wins, loses = loses, wins
	}
	zeros := bin(semantics.Add, sv(a), sv(b))
	if !isMax {
		zeros = &fun.UnOp{Op: semantics.Neg, X: bin(semantics.Add, &fun.UnOp{Op: semantics.Neg, X: sv(a)}, &fun.UnOp{Op: semantics.Neg, X: sv(b)})}
	}
	r := ifF(c.b, test(c.b, bin(semantics.Ne, sv(a), sv(a))), ret(a), func(b1 *block) atom {
		return ifF(b1, test(b1, bin(semantics.Ne, sv(b), sv(b))), ret(b), func(b2 *block) atom {
			return ifF(b2, test(b2, bin(wins, sv(a), sv(b))), ret(a), func(b3 *block) atom {
				return ifF(b3, test(b3, bin(loses, sv(a), sv(b))), ret(b), func(b4 *block) atom {
					return ifF(b4, test(b4, bin(semantics.Eq, sv(a), fun.Float(0))), expr(zeros), ret(a))
				})
			})
		})
	})
	return scalar(remora.KFloat, r.name)
}

// ifPrim chooses per cell; both branches were computed, as Remora's if
// evaluates both its arguments.
func ifPrim(c *call) *val {
	cond := c.scalar(0)
	pick := func(i int) func(bb *block) atom {
		return func(bb *block) atom { return c.l.get(bb, c.args[i], nil) }
	}
	if c.kind == remora.KBox {
		a := c.l.ifAtom(c.b, cond, c.kind, c.sig, pick(1), pick(2))
		return boxVal(c.sig, a.box)
	}
	x, y := c.scalar(1), c.scalar(2)
	a := c.l.ifAtom(c.b, cond, c.kind, nil, func(*block) atom { return atom{name: x} }, func(*block) atom { return atom{name: y} })
	return scalar(c.kind, a.name)
}

// iota{ | @s} is the view whose atom at a position is its row-major
// number from 0.
func iota(c *call) *val {
	dims := c.shape(0)
	l := c.l
	return view(remora.KInt, nil, dims, func(b *block, idx []string) atom {
		if len(idx) == 0 {
			return atom{name: l.constSize(b, 0)}
		}
		p := l.flatten(b, dims, idx)
		return atom{name: l.intLet(b, "v", bin(semantics.Sub, sv(p), ic(1)))}
	})
}

// shifted is the view of v with sizes dims whose item i is v's item
// src(i) (1-based).
func (l *lowerer) shifted(v *val, dims []string, src func(b *block, i string) string) *val {
	return view(v.kind, v.sig, dims, func(b *block, idx []string) atom {
		return l.get(b, v, cat([]string{src(b, idx[0])}, idx[1:]...))
	})
}

// concat is x's items followed by y's, of sizes dims: a view choosing by
// the position.
func (l *lowerer) concat(x, y *val, dims []string) *val {
	return view(x.kind, x.sig, dims, func(b *block, idx []string) atom {
		in := l.intLet(b, "t", bin(semantics.Le, sv(idx[0]), sv(x.dims[0])))
		return l.ifAtom(b, in, x.kind, x.sig,
			func(tb *block) atom { return l.get(tb, x, idx) },
			func(eb *block) atom {
				j := l.intLet(eb, "j", bin(semantics.Sub, sv(idx[0]), sv(x.dims[0])))
				return l.get(eb, y, cat([]string{j}, idx[1:]...))
			})
	})
}

// index{ | @s @c l} checks the position (l numbers, each in range, from 0)
// as Remora's δ does, then is the cell there: a view.
func index(c *call) *val {
	l := c.l
	s := c.shape(0)
	xs, pos := c.args[0], c.args[1]
	if ln := c.is[2].N; !ln.IsConst() || ln.Const != int64(len(s)) {
		n := c.nat(2)
		l.assert(c.b, bin(semantics.Eq, sv(n), ic(int64(len(s)))), fmt.Sprintf("index: a position into a frame of rank %d has another number of numbers", len(s)))
	}
	idx := make([]string, len(s))
	for k := range s {
		p := l.get(c.b, pos, []string{l.constSize(c.b, int64(k+1))}).name
		l.assert(c.b, bin(semantics.And, bin(semantics.Le, ic(0), sv(p)), bin(semantics.Lt, sv(p), sv(s[k]))), "index: position is outside the shape (positions count from 0)")
		idx[k] = l.intLet(c.b, "j", bin(semantics.Add, sv(p), ic(1)))
	}
	return l.cell(xs, idx)
}

// subvector{ | d-in d-out @c} checks the range, then is a view.
func subvector(c *call) *val {
	l := c.l
	xs := c.args[0]
	off := c.scalar(1)
	dout := c.nat(1)
	l.assert(c.b, bin(semantics.And, bin(semantics.Le, ic(0), sv(off)), bin(semantics.Le, bin(semantics.Add, sv(off), sv(dout)), sv(xs.dims[0]))), "subvector: the items are outside the vector")
	return l.shifted(xs, c.retDims(), func(b *block, i string) string {
		return l.intLet(b, "j", bin(semantics.Add, sv(i), sv(off)))
	})
}

// rotate{ | l @c} is the view whose item i is item (i + k) mod n, the
// remainder taken non-negative as Remora does.
func rotate(c *call) *val {
	l := c.l
	xs := c.args[0]
	k := c.scalar(1)
	n := xs.dims[0]
	return l.shifted(xs, xs.dims, func(b *block, i string) string {
		m := bin(semantics.Mod, bin(semantics.Add, bin(semantics.Sub, sv(i), ic(1)), sv(k)), sv(n))
		return l.intLet(b, "j", bin(semantics.Add, bin(semantics.Mod, bin(semantics.Add, m, sv(n)), sv(n)), ic(1)))
	})
}

// scatter{ | d-in d-out @c}: every position is checked first (Remora's δ
// is stuck on any out of range); item j of the result is the item of the
// last i whose position is j (Remora writes in order, so the last wins),
// found by a loop, or the zero of the atom type.
func scatter(c *call) *val {
	l := c.l
	xs, ps := c.args[0], c.args[1]
	if c.kind == remora.KBox {
		c.refuse("scattering boxes leaves holes with no value")
	}
	din, dout := xs.dims[0], c.nat(1)
	l.kernels(c.b, semantics.IntElem, []string{din}, nil, func(ib *block, idx []string) string {
		p := l.get(ib, ps, idx).name
		ok := l.fresh("ok")
		ib.let(&fun.AssertExp{Cond: bin(semantics.And, bin(semantics.Le, ic(0), sv(p)), bin(semantics.Lt, sv(p), sv(dout))), HasMsg: true, Msg: "scatter: an item goes to a position outside the result"}, param(ok, intType))
		return ok
	})
	dims := c.retDims()
	cell := dims[1:]
	name := l.kernels(c.b, elemOf(c.kind), dims[:1], cell, func(ib *block, idx []string) string {
		zero := l.constSize(ib, 0)
		w, i, lb := l.fresh("w"), l.fresh("i"), ib.child()
		p := l.get(lb, ps, []string{i}).name
		hit := l.intLet(lb, "hit", bin(semantics.Eq, sv(p), bin(semantics.Sub, sv(idx[0]), ic(1))))
		w2 := l.intLet(lb, "w", bin(semantics.Add, bin(semantics.Mul, sv(hit), sv(i)), bin(semantics.Mul, bin(semantics.Sub, ic(1), sv(hit)), sv(w))))
		last := l.fresh("last")
		ib.let(&fun.LoopExp{Params: []*fun.Param{param(w, intType)}, Init: idents([]string{zero}), Var: ident(i), Bound: ident(din), Body: lb.body(w2)}, param(last, intType))
		found := l.intLet(ib, "found", bin(semantics.Gt, sv(last), ic(0)))
		v := view(c.kind, nil, cell, func(bb *block, cidx []string) atom {
			return l.ifAtom(bb, found, c.kind, nil,
				func(tb *block) atom { return l.get(tb, xs, cat([]string{last}, cidx...)) },
				func(eb *block) atom { return l.zeroAtom(eb, c.en, c.kind, nil, c.pos) })
		})
		return l.materialise(ib, v, cell, c.pos)
	})
	return &val{kind: c.kind, dims: dims, name: name}
}

// filter{ | d @c} keeps the items whose flag is #t: FUN's filter sees
// only the rows it filters, so it filters the positions 1..d by their
// flags, and the box holds the view reading xs at the kept positions; its
// witness is the number kept, the size FUN's filter binds.
func filter(c *call) *val {
	l := c.l
	xs, flags := c.args[0], c.args[1]
	n := xs.dims[0]
	is := l.fresh("is")
	c.b.let(&fun.IotaExp{N: ident(n)}, param(is, funType(semantics.IntElem, []string{n})))
	x, fb := l.fresh("x"), c.b.child()
	keep := l.get(fb, flags, []string{x}).name
	k, ks := l.fresh("k"), l.fresh("ks")
	c.b.let(&fun.FilterExp{Params: []*fun.Param{param(x, intType)}, Arr: ident(is), Body: fb.body(keep)},
		param(k, intType), param(ks, funType(semantics.IntElem, []string{k})))
	kept := &val{kind: remora.KInt, dims: []string{k}, name: ks}
	contents := l.shifted(xs, cat([]string{k}, xs.dims[1:]...), func(b *block, i string) string {
		return l.get(b, kept, []string{i}).name
	})
	return boxVal(c.sig, &boxAtom{wits: []string{k}, val: contents})
}
