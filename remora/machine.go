package remora

import (
	"strings"
	"unicode/utf8"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// The small-step semantics as a machine with an explicit evaluation
// context (a focus and a stack of frames, CEK-style, as FUN's small-step).
// Finding the redex by descending the evaluation contexts E of Fig 5 from
// the root on every step costs, on a term of n nodes, a walk to the redex
// and a copy of every node on the way (a frame's n elements, a fold
// chain's n levels), so a run of n steps was quadratic. The machine keeps
// the path instead: a State is the redex and the context
// around it, and after a rule fires, settle looks for the next redex from
// the contractum, going up only as far as the first frame with a child
// still to reduce. Each node is entered once and rebuilt once, when its
// last evaluated child becomes a value, so a step costs O(1) amortised
// beside what its rule does. The redexes, rules, contracta and stuck
// states are those of the descent (Machine.Step is this machine on a
// term loaded and rebuilt), and the whole term is rebuilt only when it is
// shown (Term: `arraysem step`, the REPL, an OnStep hook).

// State is a configuration of the context machine: the redex, or the
// value when the run is over, and its evaluation context. States are
// persistent: a step makes a new one and shares the context with the
// old, so a stepper can keep them all to step back.
type State struct {
	focus Expr
	ctx   *hole
	final bool // focus is a value and ctx is empty
	// note is what the step that made the state instantiated (Tβ, Iβ:
	// "t := int"), rendered on demand; nil for the other rules.
	note func() string
}

// A hole is one frame of an evaluation context, innermost first: node
// with its i-th evaluated child (focus.go's numbering) replaced by what is
// inside. The children before i are values: node's own, or, for those a
// step changed, the values they became, kept along prev: the hole of
// node's previous child that was not a value, whose child became val.
// The children after i are node's.
type hole struct {
	node Expr
	i    int
	val  Expr  // what child prev.i became, when prev is not nil
	prev *hole // the hole of the previous child that was reduced
	up   *hole
}

// Contexts is the small-step semantics as a semantics.Machine on States.
type Contexts struct{}

// Final reports whether the run in s is over.
func (Contexts) Final(s *State) bool { return s.final }

// Step applies the rule at the redex and finds the next one.
func (Contexts) Step(s *State) (*State, string, error) {
	e, r, err := contract(s.focus)
	if err != nil {
		return nil, "", err
	}
	next := settle(e, s.ctx)
	if r == RuleTBeta.Name || r == RuleIBeta.Name {
		// The instantiated term prints as the application did (f{int | }
		// both), so the step says what it bound.
		redex := s.focus
		next.note = func() string { return instantiation(redex) }
	}
	return next, r, nil
}

// Instantiated is what the step that made s instantiated ("t := int",
// "d := 3, @s := [2]"), or "" when it was not Tβ or Iβ.
func (s *State) Instantiated() string {
	if s.note == nil {
		return ""
	}
	return s.note()
}

// instantiation describes what the Tβ or Iβ redex e binds: each variable
// of the abstraction (or of the primitive's type) and its argument.
func instantiation(e Expr) string {
	var vars, args []string
	switch e := e.(type) {
	case *TApp:
		f := toValue(e.Fn).A[0].(*Func)
		if f.Prim != nil {
			vars = binderVars(f.Prim.Type, false)
		} else if l, ok := f.Term.(*TLam); ok {
			vars = l.Vars
		}
		for _, a := range e.Args {
			args = append(args, TypeString(a))
		}
	case *IApp:
		f := toValue(e.Fn).A[0].(*Func)
		if f.Prim != nil {
			vars = binderVars(f.Prim.Type, true)
		} else if l, ok := f.Term.(*ILam); ok {
			vars = l.Vars
		}
		for _, a := range e.Args {
			args = append(args, a.String())
		}
	}
	parts := make([]string, len(args))
	for i, a := range args {
		if i < len(vars) {
			parts[i] = vars[i] + " := " + a
		} else {
			parts[i] = a
		}
	}
	return strings.Join(parts, ", ")
}

// binderVars are the variables of a primitive type's outermost Pi
// (index) or Forall (type) binder, looking through the other kind and
// the scalar array types that hold them.
func binderVars(t Type, index bool) []string {
	for {
		switch b := t.(type) {
		case *Pi:
			if index {
				return b.Vars
			}
			t = b.Body
		case *Forall:
			if !index {
				return b.Vars
			}
			t = b.Body
		case *Arr: // an abstraction is the atom of a scalar array type
			t = b.Elem
		default:
			return nil
		}
	}
}

// Load is the machine's state for the closed term e: e's redex in its
// context.
func Load(e Expr) *State { return settle(e, nil) }

// Value is the value a final state holds, as a flat Value.
func (s *State) Value() *Value { return toValue(s.focus) }

// Term is the configuration s stands for: its context with the focus
// plugged in, rebuilt as Step (the descent) would have rebuilt it.
func (s *State) Term() Expr {
	e := s.focus
	for h := s.ctx; h != nil; h = h.up {
		e = h.plug(e)
	}
	return e
}

// plug is h.node with e in the hole and the other children as they are
// now, made as rebuild makes it (an application of up to three arguments
// in one allocation with its list: a fold's chain rebuilds one per step).
func (h *hole) plug(e Expr) Expr {
	if a, ok := h.node.(*App); ok && len(a.Args) < len(appBlock{}.ch) {
		b := &appBlock{app: *a}
		ch := b.ch[: 1+len(a.Args) : 1+len(a.Args)]
		ch[0] = a.Fn
		copy(ch[1:], a.Args)
		h.fill(ch, e)
		b.app.Fn, b.app.Args = ch[0], ch[1:]
		return &b.app
	}
	ch := evaluated(h.node)
	h.fill(ch, e)
	return rebuild(h.node, ch)
}

// fill sets, in ch (h.node's evaluated children), the i-th to e (what is
// in the hole) and those a step changed before it to what they became.
func (h *hole) fill(ch []Expr, e Expr) {
	ch[h.i] = e
	for k := h; k.prev != nil; k = k.prev {
		ch[k.prev.i] = k.val
	}
}

// settle finds the next redex from term e in context ctx: down into e's
// first child that is not a value (the order of Fig 5's E: function, then
// arguments left to right; frame elements left to right; the one
// evaluated child of the other forms), or, when e is a value, up into the
// enclosing frame's next child that is not one. A node all of whose
// evaluated children are values is rebuilt with them and is the redex,
// unless it is a value itself (a frame of atoms, a box of a value).
func settle(e Expr, ctx *hole) *State {
	for {
		if !IsValue(e) {
			i := nextChild(e)
			if i < 0 {
				return &State{focus: e, ctx: ctx}
			}
			ctx = &hole{node: e, i: i, up: ctx}
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
			if c, _ = child(h.node, j); !IsValue(c) {
				break
			}
		}
		if j < n {
			ctx = &hole{node: h.node, i: j, val: e, prev: h, up: h.up}
			e = c
			continue
		}
		ctx = h.up
		e = h.plug(e)
	}
}

// childCount is the number of e's evaluated children, as nextChild and
// child number them.
func childCount(e Expr) int {
	switch e := e.(type) {
	case *App:
		return 1 + len(e.Args)
	case *Frame:
		return len(e.Elems)
	case *Map:
		return len(e.Args)
	case *TApp, *IApp, *Pack, *Unpack, *LiftDim, *Reshape, *Rep, *Case:
		return 1
	}
	return 0
}

// evaluated is a fresh slice of e's evaluated children, numbered as
// child numbers them.
func evaluated(e Expr) []Expr {
	switch e := e.(type) {
	case *App:
		ch := make([]Expr, 1+len(e.Args))
		ch[0] = e.Fn
		copy(ch[1:], e.Args)
		return ch
	case *Frame:
		return append([]Expr(nil), e.Elems...)
	case *Map:
		return append([]Expr(nil), e.Args...)
	}
	c, _ := child(e, 0)
	return []Expr{c}
}

// rebuild is node with its evaluated children replaced by ch, made as
// the descent makes it (a T-APP, I-APP or box it rebuilds loses its end
// position, as it always has).
func rebuild(node Expr, ch []Expr) Expr {
	switch e := node.(type) {
	case *App:
		n := *e
		n.Fn, n.Args = ch[0], ch[1:]
		return &n
	case *Frame:
		n := *e
		n.Elems = ch
		return &n
	case *Map:
		n := *e
		n.Args = ch
		return &n
	case *TApp:
		return &TApp{Pos: e.Pos, Fn: ch[0], Args: e.Args}
	case *IApp:
		return &IApp{Pos: e.Pos, Fn: ch[0], Args: e.Args}
	case *Pack:
		return &Pack{Pos: e.Pos, Indices: e.Indices, Body: ch[0], Type: e.Type}
	case *Unpack:
		n := *e
		n.Box = ch[0]
		return &n
	case *LiftDim:
		n := *e
		n.N = ch[0]
		return &n
	case *Reshape:
		n := *e
		n.E = ch[0]
		return &n
	case *Rep:
		n := *e
		n.E = ch[0]
		return &n
	case *Case:
		n := *e
		n.Tag = ch[0]
		return &n
	}
	return node
}

// appBlock is an application and its function and arguments (up to
// three) in one allocation (plug).
type appBlock struct {
	ch  [4]Expr
	app App
}

// runOptions is o with its OnStep given the configuration as a term, as
// the hook's callers expect, rather than the machine's State.
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
// done marks an expression's value, the end of its run, as the stepper
// prints it.
const done = "⟨done⟩ "

func newStepper(exprs []Expr, o *semantics.RunOptions, pos semantics.Pos, lines func([]*Value) []string) *lang.Stepper {
	inits := make([]*State, len(exprs))
	for i, e := range exprs {
		inits[i] = Load(e)
	}
	s := lang.NewStepper[*State](Contexts{}, inits, runOptions(o), pos,
		func(s *State) string {
			// An expression's value is marked as its end, as FUN's
			// final configuration is: in a file of several, the next
			// line is the next expression's first step.
			if (Contexts{}).Final(s) {
				return done + ExprString(s.Term())
			}
			if n := s.Instantiated(); n != "" {
				return "{" + n + "} " + ExprString(s.Term())
			}
			return ExprString(s.Term())
		},
		func(fs []*State) (*lang.Result, error) {
			vs := make([]*Value, len(fs))
			for i, f := range fs {
				vs[i] = f.Value()
			}
			return &lang.Result{Lines: lines(vs)}, nil
		})
	return lang.WithFocus(s, func(prev, next *State) lang.Focus {
		f := Focus(prev.Term(), next.Term())
		// As the stepper prints it: the value marked as the end, or what
		// an instantiation bound.
		prefix := ""
		if (Contexts{}).Final(next) {
			prefix = done
		} else if n := next.Instantiated(); n != "" {
			prefix = "{" + n + "} "
		}
		f.Text = prefix + f.Text
		if f.Lo >= 0 {
			f.Lo, f.Hi = f.Lo+utf8.RuneCountInString(prefix), f.Hi+utf8.RuneCountInString(prefix)
		}
		return f
	})
}
