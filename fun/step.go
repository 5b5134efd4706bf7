package fun

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/arraysem/arraysem/semantics"
)

// The small-step semantics is an environment machine faithful to Fig 4. A
// configuration is a stack of frames, one per body being evaluated: the
// program's body, the branch an if chose, the iteration of a kernel. Each
// frame holds its environment, the statements still to run, and what its
// results are for (its continuation). The steps are:
//
//	E-SCALAR, E-INDEX, E-SLICE, E-TRANSPOSE, E-IOTA, E-COPY
//	    the first statement has no body: evaluate it as the big-step rule
//	    does and bind its pattern (E-LET), in one step;
//	E-IF-TRUE, E-IF-FALSE
//	    push a frame for the chosen branch;
//	E-KERNEL
//	    push a frame for iteration 1 (or bind [] at once when m = 0);
//	E-LOOP, E-REDUCE, E-SCAN, E-FILTER, E-REDOMAP, E-SCANOMAP
//	    (extensions, step_ext.go, step_redomap.go) as E-KERNEL: push a
//	    frame for the first iteration (a redomap's element takes two, its
//	    map body then its operator body), or bind the value at once when
//	    there is none; E-ASSERT is atomic;
//	E-IN
//	    the frame's body is at in (x, …): pop it and hand its values to the
//	    continuation, which binds an if's pattern, or records a kernel
//	    iteration's value and pushes the next iteration (iterations run in
//	    order 1..m), or, after the last, binds the kernel's array (and so
//	    for the iterations of the extension forms).
//
// Because the atomic rules are the big-step ones, the two semantics get
// stuck in the same rule with the same message.
type Config struct {
	top     *frame
	results []semantics.Array // set in the final configuration
	note    func() string     // what the last step bound, rendered on demand
}

// Bound describes what the last step bound ("x = 4"), or "".
func (c Config) Bound() string {
	if c.note == nil {
		return ""
	}
	return c.note()
}

type frame struct {
	env  *Env
	stms []*Stm // remaining statements; never mutated, only re-sliced
	body *Body
	k    kont
	next *frame
	base int64 // the live words when it was pushed (cost counters, step_stats.go)
}

// kont is what a frame's results are for.
type kont interface{ isKont() }

type kTop struct{}

// kIf: the parent frame's first statement is the if; bind its pattern.
type kIf struct{}

// kKernel: the parent frame's first statement is the kernel; this frame is
// iteration i of m, and done holds the values of the iterations before it.
type kKernel struct {
	i, m int64
	cell []int64
	done *valueList
}

// valueList is a persistent list of iteration values, newest first.
type valueList struct {
	v    semantics.Array
	n    int64
	next *valueList
}

func (kTop) isKont()    {}
func (kIf) isKont()     {}
func (kKernel) isKont() {}

// Initial is the configuration that starts running p's body in env.
func Initial(p *Program, env *Env) Config {
	return Config{top: &frame{env: env, stms: p.Body.Stms, body: p.Body, k: kTop{}}}
}

// Results are the program's values in a final configuration.
func (c Config) Results() []semantics.Array { return c.results }

// Env is the environment of the innermost frame.
func (c Config) Env() *Env {
	if c.top == nil {
		return nil
	}
	return c.top.env
}

// Machine is FUN's small-step semantics as a semantics.Machine.
type Machine struct {
	// Stats, when not nil, receives the cost counters (step_stats.go).
	Stats *semantics.Stats
}

// Final reports whether the program's body has returned.
func (Machine) Final(c Config) bool { return c.top == nil }

// Step makes one transition (and counts its costs, when asked).
func (m Machine) Step(c Config) (Config, string, error) {
	next, rule, err := step(c)
	if m.Stats != nil && err == nil {
		countStep(m.Stats, c, next)
	}
	return next, rule, err
}

// step makes one transition.
func step(c Config) (Config, string, error) {
	f := c.top
	if len(f.stms) == 0 {
		return ret(f)
	}
	s := f.stms[0]
	switch e := s.Exp.(type) {
	case *IfExp:
		rule, branch, err := chooseBranch(f.env, e)
		if err != nil {
			return c, "", err
		}
		return Config{top: &frame{env: f.env, stms: branch.Stms, body: branch, k: kIf{}, next: f}}, rule, nil
	case *KernelExp:
		m, cell, err := kernelStart(f.env, s, e)
		if err != nil {
			return c, "", err
		}
		if m == 0 {
			vs, err := kernelFinish(s, cell, nil)
			if err != nil {
				return c, "", err
			}
			return advance(f, s, vs, EKernel.Name)
		}
		return Config{top: iteration(f, e, kKernel{i: 1, m: m, cell: cell})}, EKernel.Name, nil
	}
	if next, rule, ok, err := stepExt(f, s); ok {
		return next, rule, err
	}
	vs, rule, err := evalAtomic(f.env, s)
	if err != nil {
		return c, "", err
	}
	return advance(f, s, vs, rule)
}

// iteration pushes the frame of kernel iteration k.i above f.
func iteration(f *frame, e *KernelExp, k kKernel) *frame {
	return &frame{env: f.env.Bind(e.Var.Name, semantics.Scalar(k.i)), stms: e.Body.Stms, body: e.Body, k: k, next: f}
}

// advance binds s's pattern to vs in f and moves f past s.
func advance(f *frame, s *Stm, vs []semantics.Array, rule string) (Config, string, error) {
	env, err := bindPattern(f.env, s, vs)
	if err != nil {
		return Config{top: f}, "", err
	}
	note := func() string {
		parts := make([]string, len(s.Pat))
		for i, p := range s.Pat {
			parts[i] = p.Name.Name + " = " + vs[i].Abbrev(8)
		}
		return strings.Join(parts, ", ")
	}
	nf := *f
	nf.env, nf.stms = env, f.stms[1:]
	return Config{top: &nf, note: note}, rule, nil
}

// ret is E-IN: the frame f returns its values to its continuation.
func ret(f *frame) (Config, string, error) {
	rule := EIn.Name
	vs, err := evalIn(f.env, f.body)
	if err != nil {
		return Config{top: f}, "", err
	}
	switch k := f.k.(type) {
	case kTop:
		return Config{results: vs}, rule, nil
	case kIf:
		return advance(f.next, f.next.stms[0], vs, rule)
	case kKernel:
		if len(vs) != 1 {
			return Config{top: f}, "", semantics.Stuckf(f.body.In, EKernel.Name, "a kernel body returns one value, not %d", len(vs))
		}
		done := &valueList{v: vs[0], n: k.i, next: k.done}
		parent := f.next
		s := parent.stms[0]
		e := s.Exp.(*KernelExp)
		if k.i < k.m {
			note := func() string { return fmt.Sprintf("iteration %d of %d gave %s", k.i, k.m, vs[0].Abbrev(8)) }
			return Config{top: iteration(parent, e, kKernel{i: k.i + 1, m: k.m, cell: k.cell, done: done}), note: note}, rule, nil
		}
		items := make([]semantics.Array, k.m)
		for l := done; l != nil; l = l.next {
			items[l.n-1] = l.v
		}
		out, err := kernelFinish(s, k.cell, items)
		if err != nil {
			return Config{top: f}, "", err
		}
		return advance(parent, s, out, rule)
	}
	if c, r, ok, err := retExt(f, vs); ok {
		return c, r, err
	}
	return Config{top: f}, "", fmt.Errorf("unknown continuation %T", f.k)
}

// String renders a configuration on one line: the context of enclosing
// frames (outermost first), then the rest of the innermost body.
func (c Config) String() string {
	s, _ := c.layout()
	return s
}

// layout is String, and where the rest of the innermost body starts in
// it, in runes (-1 in a final configuration).
func (c Config) layout() (string, int) {
	if c.top == nil {
		return "⟨done⟩ " + valuesString(c.results), -1
	}
	var frames []*frame
	for f := c.top; f != nil; f = f.next {
		frames = append(frames, f)
	}
	var b strings.Builder
	for i := len(frames) - 1; i > 0; i-- {
		f := frames[i]
		s := f.stms[0]
		switch k := frames[i-1].k.(type) {
		case kIf:
			fmt.Fprintf(&b, "[let %s = if …] ", PrintPattern(s.Pat))
		case kKernel:
			e := s.Exp.(*KernelExp)
			fmt.Fprintf(&b, "[kernel %s = %d of %d] ", e.Var.Name, k.i, k.m)
		default:
			b.WriteString(contextExt(s, k))
		}
	}
	at := utf8.RuneCountInString(b.String())
	rest := &Body{Stms: c.top.stms, In: c.top.body.In, Result: c.top.body.Result}
	b.WriteString(PrintBody(rest, true))
	return b.String(), at
}

// RunSmall runs p by the small-step semantics (o's fuel, counter and step
// hook; nil o for the defaults) and returns its results and the number of
// steps.
func RunSmall(p *Program, inputs *Env, o *semantics.RunOptions) ([]semantics.Array, int, error) {
	if o == nil {
		o = &semantics.RunOptions{}
	}
	d := &semantics.Driver[Config]{Machine: Machine{Stats: o.Stats}, Fuel: o.Fuel, Counter: o.Counter, OnStep: semantics.Hook[Config](o),
		Pos: semantics.Pos{File: p.File, Line: 1, Col: 1}}
	c, n, err := d.Run(Initial(p, inputs))
	if err != nil {
		return nil, n, err
	}
	return c.Results(), n, nil
}

// Bindings lists the innermost frame's environment, innermost first.
func (c Config) Bindings() []semantics.Binding {
	var out []semantics.Binding
	for _, b := range c.Env().Bindings() {
		out = append(out, semantics.Binding{Name: b.Name, Value: b.Value.String()})
	}
	return out
}
