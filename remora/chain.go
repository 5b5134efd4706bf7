package remora

import "github.com/arraysem/arraysem/semantics"

// A trace's chain (unfoldChain, step.go), made a link at a time. Link j
// (1-based) of a chain over n items is the β-redex
//
//	((fn ([acc A] [accs [E k @acc]]) LINK-j+1-or-RESULT) (op acc x_j) (append accs [acc]))
//
// Every link rebinds acc and accs, so β substitutes into the next link's
// arguments only, never into the links after it: the body of link j's λ
// can stay a chainLink, a count, until β substitutes into it (substExpr
// makes link j+1 then, with a chainLink j+2 for its own body). Whatever
// else looks into a λ's body (printing, the checker, the passes' tree
// walks) sees the link made (force), so every configuration is the whole
// chain's term, as if it had been made at once.

// chain is what every link of one chain is made from.
type chain struct {
	pos       semantics.Pos
	right     bool // trace-right: (op x acc), and the trace prepends
	inTrace   bool // a0 is the trace's first (trace-right: last) accumulator
	accType   *Arr
	total     *Arr // the whole trace's type
	op, a0    Expr
	items     []Expr // in the order the links take them
	appendDef *PrimDef
	acc, accs *Var
}

// chainLink is link j of a chain, not made yet: the body of link j-1's λ.
type chainLink struct {
	c *chain
	j int
}

func (l *chainLink) At() semantics.Pos  { return l.c.pos }
func (l *chainLink) End() semantics.Pos { return semantics.Pos{} }
func (*chainLink) exprNode()            {}

// force is the link l stands for.
func (l *chainLink) force() Expr { return l.c.link(l.j) }

// forced is e, or the link it stands for when it is a chainLink.
func forced(e Expr) Expr {
	if l, ok := e.(*chainLink); ok {
		return l.force()
	}
	return e
}

func (c *chain) traceType(k int) *Arr {
	return &Arr{Elem: c.accType.Elem, Shape: Dims(int64(k)).Append(c.accType.Shape)}
}

// before is the number of accumulators in the trace before the one bound
// by link j: a0 when it is in the trace, and the j-1 the links before it
// made.
func (c *chain) before(j int) int {
	if c.inTrace {
		return j
	}
	return j - 1
}

// one is the frame [x].
func (c *chain) one(x Expr) Expr {
	return &Frame{Pos: c.pos, Dims: []int64{1}, Elems: []Expr{x}, Cell: c.accType, Type: c.traceType(1)}
}

// grow is the trace accs (k accumulators) with acc joined on, by the
// chain's own append (machine_trace.go).
func (c *chain) grow(accs, acc Expr, k int) Expr {
	if k == 0 {
		return c.one(acc)
	}
	a, b, da, db := accs, c.one(acc), k, 1
	if c.right {
		a, b, da, db = b, a, db, da
	}
	g := &Func{Prim: c.appendDef, Types: []Type{c.accType.Elem},
		Indices: []Index{NatIndex(NatConst(int64(da))), NatIndex(NatConst(int64(db))), ShapeIndex(c.accType.Shape)}}
	return &App{Pos: c.pos, Fn: lit(c.pos, AtomScalar(KFunc, g)), Args: []Expr{a, b}, Type: c.traceType(k + 1)}
}

// apply is the operator applied to the accumulator and an item.
func (c *chain) apply(acc, x Expr) Expr {
	if c.right {
		acc, x = x, acc
	}
	return &App{Pos: c.pos, Fn: c.op, Args: []Expr{acc, x}, Type: c.accType}
}

// link is link j. Its arguments are in link j-1's scope; link 1's in the
// top's, where the accumulator is a0 (bound by an outer link when it is a
// term still to reduce, replicate's) and no trace is bound. The last
// link's body is the whole trace, (append accs [acc]).
func (c *chain) link(j int) Expr {
	n := len(c.items)
	var body Expr = &chainLink{c, j + 1}
	if j == n {
		body = c.grow(c.accs, c.acc, c.before(n))
	}
	accE := Expr(c.acc)
	if j == 1 && IsValue(c.a0) {
		accE = c.a0
	}
	lam := &Lam{Pos: c.pos, Params: []Param{{Name: chainAcc, Type: c.accType}}, Body: body, Ret: c.total}
	link := &App{Pos: c.pos, Fn: lam, Args: []Expr{c.apply(accE, c.items[j-1])}, Type: c.total}
	if k := c.before(j); k > 0 {
		lam.Params = append(lam.Params, Param{Name: chainAccs, Type: c.traceType(k)})
		link.Args = append(link.Args, c.grow(c.accs, accE, k-1))
	}
	return link
}
