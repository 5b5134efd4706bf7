package dynamic

import (
	"cmp"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// The small-step semantics as a machine with an explicit evaluation
// context, the typed core's (semantics.ContextMachine): this file gives
// it the dialect's evaluation order (an application's shape, function,
// then arguments left to right; frame elements left to right; a let's
// value; an unbox's box) and rules (contract, step.go). The redexes,
// rules, contracta and stuck states are those of the descent
// (Machine.Step is this machine on a term loaded and rebuilt); the whole
// term is rebuilt only when it is shown (Term).

// State is a configuration of the context machine: the redex, or the
// value when the run is over, and its evaluation context.
type State = semantics.Context[Expr]

// Contexts is the small-step semantics as a semantics.Machine on States.
// maxDepth bounds the holes of a configuration's evaluation context (0
// for DefaultMaxDepth): a recursion that never ends but nests, (+ 1 (f
// n)), would otherwise fill memory before the fuel ran out.
func Contexts(maxDepth int) semantics.ContextMachine[Expr] {
	return semantics.ContextMachine[Expr]{Terms: terms{}, MaxDepth: cmp.Or(maxDepth, DefaultMaxDepth),
		TooDeep: func(at Expr, max int) error { return tooDeep(at.At(), max) }}
}

// Load is the machine's state for the closed term e.
func Load(e Expr) *State { return Contexts(0).Load(e) }

// valueOf is the value a final state holds, as a flat array.
func valueOf(s *State) *remora.Value { return toValue(s.Focus()) }

// Term is the configuration s stands for, rebuilt as the descent would
// have rebuilt it.
func Term(s *State) Expr { return Contexts(0).Term(s) }

// terms are the dialect's terms as the context machine sees them.
type terms struct{}

func (terms) IsValue(e Expr) bool   { return isValue(e) }
func (terms) NextChild(e Expr) int  { return nextChild(e) }
func (terms) ChildCount(e Expr) int { return childCount(e) }
func (terms) Child(e Expr, i int) Expr {
	c, _ := child(e, i)
	return c
}

// Pending: an application's absent shape is no child to reduce.
func (terms) Pending(e Expr, i int) (Expr, bool) {
	c, _ := child(e, i)
	return c, c != nil && !isValue(c)
}
func (terms) Contract(e Expr) (Expr, string, error) { return contract(e) }

// Pos is where e is in the source (semantics.Positioner), so that running
// out of fuel says where the run stopped.
func (terms) Pos(e Expr) semantics.Pos { return e.At() }
func (terms) Plug(node Expr, fill func([]Expr)) Expr {
	ch := evaluated(node)
	fill(ch)
	return rebuild(node, ch)
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

// evaluated is a fresh slice of e's evaluated children, numbered as
// child numbers them.
func evaluated(e Expr) []Expr {
	ch := make([]Expr, childCount(e))
	for i := range ch {
		ch[i], _ = child(e, i)
	}
	return ch
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
	c.OnStep = func(rule string, s any) { o.OnStep(rule, Term(s.(*State))) }
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
	s := lang.NewStepper[*State](Contexts(0), inits, runOptions(o), pos,
		func(s *State) string { return ExprString(Term(s)) },
		func(fs []*State) (*lang.Result, error) {
			vs := make([]*remora.Value, len(fs))
			for i, f := range fs {
				vs[i] = valueOf(f)
			}
			return &lang.Result{Lines: remora.ValueLines(vs)}, nil
		})
	return lang.WithFocus(s, func(prev, next *State) lang.Focus { return Focus(Term(prev), Term(next)) })
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
