package remora

import "github.com/arraysem/arraysem/semantics"

// A trace's chain (unfoldChain, step.go; the plan both dialects share is
// foldchain.go's), made a link at a time. Link j
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
// chain's term, as if it had been made at once. So a run holds the links
// still to come as a count, not as n terms: a scan of 10^6 items would
// otherwise hold about 4 KB of terms per item from its first step.

// chain is one chain: its plan (foldchain.go, shared with the dialect)
// over typed terms.
type chain struct {
	plan *Chain[Expr]
	pos  semantics.Pos
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

// link is link j, its body the chainLink j+1 (the whole trace for the
// last).
func (c *chain) link(j int) Expr {
	var body Expr = &chainLink{c, j + 1}
	if j == c.plan.Len() {
		body = c.plan.Last()
	}
	return c.plan.Link(j, body)
}

// chainTerms writes a chain's terms as typed Remora: every term
// annotated with its type, the trace of k accumulators [E k @acc].
type chainTerms struct {
	pos       semantics.Pos
	accType   *Arr
	total     *Arr // the whole trace's type
	op        Expr
	appendDef *PrimDef // the chain's own append (machine_trace.go)
	acc, accs *Var
}

func (t *chainTerms) traceType(k int) *Arr {
	return &Arr{Elem: t.accType.Elem, Shape: Dims(int64(k)).Append(t.accType.Shape)}
}

func (t *chainTerms) Var(name string) Expr {
	if name == ChainAccs {
		return t.accs
	}
	return t.acc
}

func (t *chainTerms) Apply(a, b Expr) Expr {
	return &App{Pos: t.pos, Fn: t.op, Args: []Expr{a, b}, Type: t.accType}
}

func (t *chainTerms) One(x Expr) Expr {
	return &Frame{Pos: t.pos, Dims: []int64{1}, Elems: []Expr{x}, Cell: t.accType, Type: t.traceType(1)}
}

func (t *chainTerms) Append(a, b Expr, ka, kb int) Expr {
	g := &Func{Prim: t.appendDef, Types: []Type{t.accType.Elem},
		Indices: []Index{NatIndex(NatConst(int64(ka))), NatIndex(NatConst(int64(kb))), ShapeIndex(t.accType.Shape)}}
	return &App{Pos: t.pos, Fn: lit(t.pos, AtomScalar(KFunc, g)), Args: []Expr{a, b}, Type: t.traceType(ka + kb)}
}

func (t *chainTerms) Link(body, accArg Expr, accs *Expr, k int) Expr {
	lam := &Lam{Pos: t.pos, Params: []Param{{Name: ChainAcc, Type: t.accType}}, Body: body, Ret: t.total}
	link := &App{Pos: t.pos, Fn: lam, Args: []Expr{accArg}, Type: t.total}
	if accs != nil {
		lam.Params = append(lam.Params, Param{Name: ChainAccs, Type: t.traceType(k)})
		link.Args = append(link.Args, *accs)
	}
	return link
}

func (t *chainTerms) Result(trace Expr, n int) Expr { return trace }
