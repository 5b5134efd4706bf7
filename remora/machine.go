package remora

import (
	"strings"
	"unicode/utf8"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// The small-step semantics as a machine with an explicit evaluation
// context (semantics.ContextMachine, which the dynamic dialect runs too):
// this file gives it the evaluation order of Fig 5's contexts E
// (function, then arguments left to right; frame elements left to
// right; the one evaluated child of the other forms) and the rules
// (contract, step.go). The redexes, rules, contracta and stuck states are
// those of the descent (Machine.Step is this machine on a term loaded and
// rebuilt), and the whole term is rebuilt only when it is shown (Term:
// `arraysem step`, the REPL, an OnStep hook).

// State is a configuration of the context machine: the redex, or the
// value when the run is over, and its evaluation context.
type State = semantics.Context[Expr]

// Contexts is the small-step semantics as a semantics.Machine on States.
// A Tβ or Iβ step notes what it instantiated: the instantiated term prints
// as the application did (f{int | } both), so the step says what it bound.
var Contexts = semantics.ContextMachine[Expr]{Terms: terms{}, Note: func(redex Expr, rule string) func() string {
	if rule == RuleTBeta.Name || rule == RuleIBeta.Name {
		return func() string { return instantiation(redex) }
	}
	return nil
}}

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
func Load(e Expr) *State { return Contexts.Load(e) }

// valueOf is the value a final state holds, as a flat Value.
func valueOf(s *State) *Value { return toValue(s.Focus()) }

// Term is the configuration s stands for, rebuilt as Step (the descent)
// would have rebuilt it.
func Term(s *State) Expr { return Contexts.Term(s) }

// terms are the typed core's terms as the context machine sees them.
type terms struct{}

func (terms) IsValue(e Expr) bool   { return IsValue(e) }
func (terms) NextChild(e Expr) int  { return nextChild(e) }
func (terms) ChildCount(e Expr) int { return childCount(e) }
func (terms) Child(e Expr, i int) Expr {
	c, _ := child(e, i)
	return c
}
func (terms) Pending(e Expr, i int) (Expr, bool) {
	c, _ := child(e, i)
	return c, !IsValue(c)
}
func (terms) Contract(e Expr) (Expr, string, error) { return contract(e) }

// Pos is where e is in the source (semantics.Positioner), so that running
// out of fuel says where the run stopped.
func (terms) Pos(e Expr) semantics.Pos { return e.At() }

// Plug rebuilds node as rebuild makes it (an application of up to three
// arguments in one allocation with its list: a fold's chain rebuilds one
// per step).
func (terms) Plug(node Expr, fill func([]Expr)) Expr {
	if a, ok := node.(*App); ok && len(a.Args) < len(appBlock{}.ch) {
		b := &appBlock{app: *a}
		ch := b.ch[: 1+len(a.Args) : 1+len(a.Args)]
		ch[0] = a.Fn
		copy(ch[1:], a.Args)
		fill(ch)
		b.app.Fn, b.app.Args = ch[0], ch[1:]
		return &b.app
	}
	ch := evaluated(node)
	fill(ch)
	return rebuild(node, ch)
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
	ch := make([]Expr, childCount(e))
	for i := range ch {
		ch[i], _ = child(e, i)
	}
	return ch
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
	c.OnStep = func(rule string, s any) { o.OnStep(rule, Term(s.(*State))) }
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
	s := lang.NewStepper[*State](Contexts, inits, runOptions(o), pos,
		func(s *State) string {
			// An expression's value is marked as its end, as FUN's
			// final configuration is: in a file of several, the next
			// line is the next expression's first step.
			if Contexts.Final(s) {
				return done + ExprString(Term(s))
			}
			if n := s.Note(); n != "" {
				return "{" + n + "} " + ExprString(Term(s))
			}
			return ExprString(Term(s))
		},
		func(fs []*State) (*lang.Result, error) {
			vs := make([]*Value, len(fs))
			for i, f := range fs {
				vs[i] = valueOf(f)
			}
			return &lang.Result{Lines: lines(vs)}, nil
		})
	return lang.WithFocus(s, func(prev, next *State) lang.Focus {
		f := Focus(Term(prev), Term(next))
		// As the stepper prints it: the value marked as the end, or what
		// an instantiation bound.
		prefix := ""
		if Contexts.Final(next) {
			prefix = done
		} else if n := next.Note(); n != "" {
			prefix = "{" + n + "} "
		}
		f.Text = prefix + f.Text
		if f.Lo >= 0 {
			f.Lo, f.Hi = f.Lo+utf8.RuneCountInString(prefix), f.Hi+utf8.RuneCountInString(prefix)
		}
		return f
	})
}
