package remora

// The fold-chain builder both dialects' small-steps share. A trace
// (iscan, iscan-init, scan-init, trace, trace-right) over n ≥ 1
// applications unfolds into a chain of n links, link j (1-based) the
// β-redex
//
//	((λ (acc [accs]) LINK-j+1-or-RESULT) (op acc x_j) (append accs [acc]))
//
// that binds the new accumulator and the trace so far. The arguments
// evaluate left to right in the enclosing link's scope, so the operator
// meets the previous accumulator (a value by then) and the trace grows by
// that accumulator; the innermost body is the whole trace, (append accs
// [acc]). trace-right runs from the last item, (op x acc), and prepends.
// Every link rebinds acc and accs, so β substitutes into the next link's
// arguments only: a scan takes a fixed number of steps per item, where a
// frame of nested applications (one per prefix) took n²/2. The operator
// is applied in the big-step's order (RunFold), so the values and the
// first stuck δ are the same.
//
// What the chain is made of (the plan: which accumulator starts it,
// which items the links take, whether the first accumulator is in the
// trace, the order of the operator's arguments, how many accumulators
// each link's trace holds) is this file's; how a link, a λ, an
// application or a trace is written as a term is each dialect's
// (ChainTerms): typed Remora annotates every term with its type and makes
// the links lazily (chain.go), the dialect joins boxes (its step.go).

// ChainTerms is how a dialect writes a chain's terms, of type E.
type ChainTerms[E any] interface {
	// Var is the variable acc or accs (ChainAcc, ChainAccs).
	Var(name string) E
	// Apply is the operator applied to a and b, in that order.
	Apply(a, b E) E
	// One is the trace [acc] of one accumulator.
	One(acc E) E
	// Append joins traces of ka and kb accumulators, in that order.
	Append(a, b E, ka, kb int) E
	// Link is the β-redex of a λ binding acc (and accs, a trace of k ≥ 1
	// accumulators, when accs is given) around body, applied to accArg
	// (and accs).
	Link(body, accArg E, accs *E, k int) E
	// Result is the innermost body, the whole trace (of n accumulators)
	// being trace.
	Result(trace E, n int) E
}

// The names a chain's links bind. They need not avoid the program's names:
// what the chain substitutes into (the operator, the items, the first
// accumulator) is closed.
const (
	ChainAcc  = "acc"
	ChainAccs = "accs"
)

// Chain is the plan of a trace's chain over terms of type E.
type Chain[E any] struct {
	A0      E   // the accumulator link 1 starts from
	Items   []E // in the order the links take them
	InTrace bool
	Right   bool
	Terms   ChainTerms[E]
}

// PlanChain plans the chain of a trace under plan, with initial
// accumulator init (when the plan takes one; rep replicates it over the
// items' frame, the reduce family's) and items. It reports false for the
// folds that are not traces and for a trace with no application, which
// the small-steps leave to RunFold.
func PlanChain[E any](plan *FoldPlan, init E, items []E, rep func(E) E, terms ChainTerms[E]) (*Chain[E], bool) {
	if !plan.Traces() {
		return nil, false
	}
	a0 := init
	switch {
	case plan.TakesInit() && plan.ReplicatesInit():
		a0 = rep(init)
	case !plan.TakesInit() && len(items) > 0:
		a0, items = items[0], items[1:]
	}
	if len(items) == 0 {
		return nil, false
	}
	c := &Chain[E]{A0: a0, InTrace: plan.TracesFirst(), Right: plan.Right(), Terms: terms, Items: items}
	if c.Right {
		c.Items = make([]E, len(items))
		for i, x := range items {
			c.Items[len(items)-1-i] = x
		}
	}
	return c, true
}

// Len is the number of links.
func (c *Chain[E]) Len() int { return len(c.Items) }

// Before is the number of accumulators in the trace before the one bound
// by link j: the first when it is in the trace, and the j-1 the links
// before j made.
func (c *Chain[E]) Before(j int) int {
	if c.InTrace {
		return j
	}
	return j - 1
}

// Total is the number of accumulators in the whole trace.
func (c *Chain[E]) Total() int { return c.Before(c.Len()) + 1 }

// grow is the trace accs (k accumulators) with acc joined on: after it,
// or before it for trace-right.
func (c *Chain[E]) grow(accs, acc E, k int) E {
	one := c.Terms.One(acc)
	if k == 0 {
		return one
	}
	if c.Right {
		return c.Terms.Append(one, accs, 1, k)
	}
	return c.Terms.Append(accs, one, k, 1)
}

// apply is the operator applied to the accumulator and an item: (op acc
// x), or (op x acc) for trace-right.
func (c *Chain[E]) apply(acc, x E) E {
	if c.Right {
		return c.Terms.Apply(x, acc)
	}
	return c.Terms.Apply(acc, x)
}

// Last is the body of the last link: the whole trace, the trace so far
// with the last accumulator joined on.
func (c *Chain[E]) Last() E {
	n := c.Len()
	return c.Terms.Result(c.grow(c.Terms.Var(ChainAccs), c.Terms.Var(ChainAcc), c.Before(n)), c.Total())
}

// Link is link j around body (link j+1, or Last for the last). Its
// arguments are in link j-1's scope; link 1's in the top's, where the
// accumulator is A0 and no trace is bound.
func (c *Chain[E]) Link(j int, body E) E {
	acc := c.Terms.Var(ChainAcc)
	if j == 1 {
		acc = c.A0
	}
	arg := c.apply(acc, c.Items[j-1])
	k := c.Before(j)
	if k == 0 {
		return c.Terms.Link(body, arg, nil, 0)
	}
	accs := c.grow(c.Terms.Var(ChainAccs), acc, k-1)
	return c.Terms.Link(body, arg, &accs, k)
}

// Build is the whole chain, every link made at once.
func (c *Chain[E]) Build() E {
	body := c.Last()
	for j := c.Len(); j >= 1; j-- {
		body = c.Link(j, body)
	}
	return body
}
