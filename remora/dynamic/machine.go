package dynamic

import (
	"cmp"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// The small-step semantics as a machine with an explicit evaluation
// context, as the typed core's (remora/machine.go): a State is the redex
// and the context around it, and after a rule fires settle looks for the
// next redex from the contractum, going up only as far as the first frame
// with a child still to reduce, so a step no longer descends from the
// root and copies every frame on the way. The redexes, rules, contracta
// and stuck states are those of the descent (Machine.Step is this machine
// on a term loaded and rebuilt); the whole term is rebuilt only when it
// is shown (Term).

// State is a configuration of the context machine: the redex, or the
// value when the run is over, and its evaluation context. States are
// persistent.
type State struct {
	focus Expr
	ctx   *hole
	final bool // focus is a value and ctx is empty
}

// A hole is one frame of an evaluation context, innermost first: node
// with its i-th child (focus.go's numbering) replaced by what is inside.
// The children before i are values (or absent: an App's shape): node's
// own, or, for those a step changed, the values they became, kept along
// prev: the hole of node's previous child that was reduced, whose child
// became val. The children after i are node's.
type hole struct {
	node  Expr
	i     int
	val   Expr
	prev  *hole
	up    *hole
	depth int // the holes from this one up, itself included
}

// height is the number of holes of the context ctx.
func (ctx *hole) height() int {
	if ctx == nil {
		return 0
	}
	return ctx.depth
}

// Contexts is the small-step semantics as a semantics.Machine on States.
// MaxDepth bounds the holes of a configuration's evaluation context (0 for
// DefaultMaxDepth): a recursion that never ends but nests, (+ 1 (f n)),
// would otherwise fill memory before the fuel ran out.
type Contexts struct{ MaxDepth int }

// Final reports whether the run in s is over.
func (Contexts) Final(s *State) bool { return s.final }

// Step applies the rule at the redex and finds the next one.
func (c Contexts) Step(s *State) (*State, string, error) {
	e, r, err := contract(s.focus)
	if err != nil {
		return nil, "", err
	}
	next := settle(e, s.ctx)
	if max := cmp.Or(c.MaxDepth, DefaultMaxDepth); next.ctx.height() > max {
		return nil, "", tooDeep(next.focus.At(), max)
	}
	return next, r, nil
}

// Load is the machine's state for the closed term e.
func Load(e Expr) *State { return settle(e, nil) }

// Value is the value a final state holds, as a flat array.
func (s *State) Value() *remora.Value { return toValue(s.focus) }

// Term is the configuration s stands for: its context with the focus
// plugged in, rebuilt as the descent would have rebuilt it.
func (s *State) Term() Expr {
	e := s.focus
	for h := s.ctx; h != nil; h = h.up {
		e = rebuild(h.node, h.children(e))
	}
	return e
}

// children is h.node's children as they are now, with e as the i-th.
func (h *hole) children(e Expr) []Expr {
	ch := evaluated(h.node)
	ch[h.i] = e
	for k := h; k.prev != nil; k = k.prev {
		ch[k.prev.i] = k.val
	}
	return ch
}

// settle finds the next redex from term e in context ctx (the order of
// the evaluation contexts: an application's shape, function, then
// arguments left to right; frame elements left to right; a let's value;
// an unbox's box). A node all of whose children are values is rebuilt
// with them and is the redex, unless it is a value itself.
func settle(e Expr, ctx *hole) *State {
	for {
		if !isValue(e) {
			i := nextChild(e)
			if i < 0 {
				return &State{focus: e, ctx: ctx}
			}
			ctx = &hole{node: e, i: i, up: ctx, depth: ctx.height() + 1}
			e, _ = child(e, i)
			continue
		}
		if ctx == nil {
			return &State{focus: e, final: true}
		}
		h := ctx
		n := childCount(h.node)
		j := h.i + 1
		var c Expr
		for ; j < n; j++ {
			if c, _ = child(h.node, j); c != nil && !isValue(c) {
				break
			}
		}
		if j < n {
			ctx = &hole{node: h.node, i: j, val: e, prev: h, up: h.up, depth: h.depth}
			e = c
			continue
		}
		ctx = h.up
		e = rebuild(h.node, h.children(e))
	}
}

// childCount is the number of e's children as child numbers them.
func childCount(e Expr) int {
	switch e := e.(type) {
	case *App:
		return 2 + len(e.Args)
	case *Frame:
		return len(e.Elems)
	case *Let, *Unbox:
		return 1
	}
	return 0
}

// evaluated is a fresh slice of e's children, numbered as child numbers
// them (an App's absent shape is nil).
func evaluated(e Expr) []Expr {
	switch e := e.(type) {
	case *App:
		ch := make([]Expr, 2+len(e.Args))
		ch[0], ch[1] = e.Shape, e.Fn
		copy(ch[2:], e.Args)
		return ch
	case *Frame:
		return append([]Expr(nil), e.Elems...)
	}
	c, _ := child(e, 0)
	return []Expr{c}
}

// rebuild is node with its children replaced by ch, as the descent makes
// it.
func rebuild(node Expr, ch []Expr) Expr {
	switch e := node.(type) {
	case *App:
		n := *e
		n.Shape, n.Fn, n.Args = ch[0], ch[1], ch[2:]
		return &n
	case *Frame:
		n := *e
		n.Elems = ch
		return &n
	case *Let:
		n := *e
		n.Val = ch[0]
		return &n
	case *Unbox:
		n := *e
		n.Box = ch[0]
		return &n
	}
	return node
}

// runOptions is o with its OnStep given the configuration as a term.
func runOptions(o *semantics.RunOptions) *semantics.RunOptions {
	if o == nil {
		return &semantics.RunOptions{}
	}
	if o.OnStep == nil {
		return o
	}
	c := *o
	c.OnStep = func(rule string, s any) { o.OnStep(rule, s.(*State).Term()) }
	return &c
}

// newStepper is the lang.Stepper of the runs of exprs on the context
// machine: configurations print as terms, and the focus of a step is
// Focus on the terms before and after it.
func newStepper(exprs []Expr, o *semantics.RunOptions, pos semantics.Pos) *lang.Stepper {
	inits := make([]*State, len(exprs))
	for i, e := range exprs {
		inits[i] = Load(e)
	}
	s := lang.NewStepper[*State](Contexts{}, inits, runOptions(o), pos,
		func(s *State) string { return ExprString(s.Term()) },
		func(fs []*State) (*lang.Result, error) {
			vs := make([]*remora.Value, len(fs))
			for i, f := range fs {
				vs[i] = f.Value()
			}
			return &lang.Result{Lines: remora.ValueLines(vs)}, nil
		})
	return lang.WithFocus(s, func(prev, next *State) lang.Focus { return Focus(prev.Term(), next.Term()) })
}

// traceAppend is append for one chain's trace: a copy of the primitive
// whose δ grows the trace the chain made last in place rather than
// copying it (remora.TraceAppender; the typed core's chain does the
// same), with the primitive's own δ, checks and messages otherwise.
func traceAppend() *PrimDef {
	def := *Basis["append"]
	general := def.Cells
	t := &remora.TraceAppender{}
	def.Cells = func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if v := t.Append(a[0], a[1]); v != nil {
			return v, nil
		}
		v, err := general(c, a)
		if err == nil {
			t.Made(v)
		}
		return v, err
	}
	return &def
}
