package funmem

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// The small-step heap semantics is FUN's machine of frames (fun/step.go)
// over a heap: a statement without a body steps by its Fig 10 rule; if and
// kernel push a frame; E-STMS pops one and hands its values on. A kernel
// iteration's end stores its value (memcpy) in the same step. The heap is
// shared and updated in place, so configurations are not kept for stepping
// back: a history is rebuilt by running again.
type Config struct {
	top     *frame
	results []Value
	h       *semantics.Heap
	note    string
}

type frame struct {
	env  *Env
	stms []*fun.Stm
	body *fun.Body
	k    *kernel // non-nil for a kernel iteration
	x    *ext    // non-nil for an iteration of a loop, reduce, scan or filter
	i    int64   // the iteration
	pos  int64   // its position in the kernel's schedule
	next *frame
	base int64 // the live words when it was pushed (cost counters, heap_stats.go)
}

// InitialHeap is the configuration that starts p's body.
func InitialHeap(p *fun.Program, env *Env, h *semantics.Heap) *Config {
	return &Config{top: &frame{env: env, stms: p.Body.Stms, body: p.Body}, h: h}
}

// Results are the values of a final configuration.
func (c *Config) Results() []Value { return c.results }

// Heap is the configuration's heap.
func (c *Config) Heap() *semantics.Heap { return c.h }

// HeapMachine is the small-step heap semantics.
type HeapMachine struct{ Opts *HeapOptions }

// Final reports whether the program's body has returned.
func (HeapMachine) Final(c *Config) bool { return c.top == nil }

// Step makes one transition.
func (m HeapMachine) Step(c *Config) (*Config, string, error) {
	opts := m.Opts
	if opts == nil {
		opts = &HeapOptions{}
	}
	st := opts.Stats
	if st != nil { // the heap counts the words read and written
		c.h.Count(st)
	}
	f := c.top
	if len(f.stms) == 0 {
		return m.ret(c, f, opts)
	}
	s := f.stms[0]
	switch e := s.Exp.(type) {
	case *fun.IfExp:
		rule, branch, err := chooseBranch(f.env, e)
		if err != nil {
			return c, "", err
		}
		return &Config{top: &frame{env: f.env, stms: branch.Stms, body: branch, next: f, base: live(st)}, h: c.h}, rule, nil
	case *fun.KernelExp:
		k, err := startKernel(f.env, c.h, s, e, opts.Trace != nil)
		if err != nil {
			return c, "", err
		}
		k.t.ReportOnly = opts.Races != nil
		if st != nil {
			launch(st, formDepth(f))
		}
		if k.m == 0 {
			vs, _ := k.finish(c.h, opts)
			return advance(c, f, s, vs, EMemKernel.Name)
		}
		if opts.Schedule != nil {
			k.order = opts.Schedule(k.m)
		}
		return &Config{top: iteration(f, k, 1, st), h: c.h}, EMemKernel.Name, nil
	}
	x, err := startExt(f.env, c.h, s, opts.Trace != nil)
	if err != nil {
		return c, "", m.unwind(c, err)
	}
	if x != nil {
		if st != nil && parallel(s.Exp) {
			launch(st, formDepth(f))
		}
		return m.nextExt(c, f, x, opts)
	}
	vs, rule, err := evalAtomic(f.env, c.h, s, opts)
	if err != nil {
		return c, "", m.unwind(c, err)
	}
	if st != nil {
		atomicCosts(st, formDepth(f), c.h, s, vs)
	}
	return advance(c, f, s, vs, rule)
}

// live is st's live words (0 when nothing counts): a frame's base.
func live(st *semantics.Stats) int64 {
	if st == nil {
		return 0
	}
	return st.Live()
}

// formDepth is the number of parallel forms whose bodies frame f runs in.
func formDepth(f *frame) int {
	d := 0
	for ; f != nil; f = f.next {
		if f.k != nil || (f.x != nil && parallel(f.x.s.Exp)) {
			d++
		}
	}
	return d
}

// unwind turns a race seen inside kernel frames into the error of the
// kernel whose tracker saw it, popping the trackers of the frames left.
func (HeapMachine) unwind(c *Config, err error) error {
	for f := c.top; f != nil; f = f.next {
		if f.k != nil {
			c.h.Pop()
			err = f.k.race(err)
		}
		if f.x != nil {
			f.x.abort(c.h)
			err = f.x.raceOf(err)
		}
	}
	return err
}

// iteration pushes the iteration at position pos of k's schedule (st:
// the cost counters, or nil).
func iteration(parent *frame, k *kernel, pos int64, st *semantics.Stats) *frame {
	e := k.s.Exp.(*fun.KernelExp)
	i := semantics.Order(k.order, pos)
	k.t.Start(i)
	return &frame{env: parent.env.Bind(e.Var.Name, Value{Kind: IntVal, K: i}), stms: e.Body.Stms, body: e.Body, k: k, i: i, pos: pos, next: parent, base: live(st)}
}

func advance(c *Config, f *frame, s *fun.Stm, vs []Value, rule string) (*Config, string, error) {
	env, err := bindPattern(f.env, s, vs)
	if err != nil {
		return c, "", err
	}
	parts := make([]string, len(s.Pat))
	for i, p := range s.Pat {
		parts[i] = p.Name.Name + " = " + vs[i].String()
	}
	nf := *f
	nf.env, nf.stms = env, f.stms[1:]
	return &Config{top: &nf, h: c.h, note: strings.Join(parts, ", ")}, rule, nil
}

// ret: the frame f is at its in (…).
func (m HeapMachine) ret(c *Config, f *frame, opts *HeapOptions) (*Config, string, error) {
	rule := EStms.Name
	vs, err := results(f.env, f.body)
	if err != nil {
		return c, "", err
	}
	if st := opts.Stats; st != nil && f.next != nil { // its blocks die
		st.SetLive(f.base)
	}
	switch {
	case f.next == nil:
		opts.Counter.Hit(EMemProg.Name)
		c.h.Count(nil) // the results are read off the heap uncounted
		return &Config{results: vs, h: c.h}, EMemProg.Name, nil
	case f.x != nil: // an iteration of a loop, reduce, scan or filter
		if err := f.x.leave(c.h, vs); err != nil {
			return c, "", m.unwind(c, err)
		}
		return m.nextExt(c, f.next, f.x, opts)
	case f.k == nil: // an if's branch
		return advance(c, f.next, f.next.stms[0], vs, rule)
	}
	k := f.k
	if err := k.store(c.h, f.i, vs); err != nil {
		return c, "", m.unwind(c, err)
	}
	if f.pos < k.m {
		return &Config{top: iteration(f.next, k, f.pos+1, opts.Stats), h: c.h, note: fmt.Sprintf("iteration %d of %d stored", f.i, k.m)}, EMemKernel.Name, nil
	}
	out, _ := k.finish(c.h, opts)
	return advance(c, f.next, f.next.stms[0], out, EMemKernel.Name)
}

// nextExt pushes the next iteration of x, whose statement is the first
// of f, or, after the last, binds its values in f.
func (m HeapMachine) nextExt(c *Config, f *frame, x *ext, opts *HeapOptions) (*Config, string, error) {
	if x.done() {
		vs, err := x.finish(c.h, opts)
		if err != nil {
			return c, "", m.unwind(&Config{top: f, h: c.h}, err)
		}
		return advance(c, f, f.stms[0], vs, x.rule)
	}
	env, b, err := x.enter(c.h)
	if err != nil {
		x.abort(c.h)
		return c, "", m.unwind(&Config{top: f, h: c.h}, x.raceOf(err))
	}
	return &Config{top: &frame{env: env, stms: b.Stms, body: b, x: x, i: x.i, next: f, base: live(opts.Stats)}, h: c.h}, x.rule, nil
}

// String renders the configuration on one line.
func (c *Config) String() string {
	s, _ := c.layout()
	return s
}

// layout is String, and where the rest of the innermost body starts in
// it, in runes (-1 in a final configuration).
func (c *Config) layout() (string, int) {
	if c.top == nil {
		return "⟨done⟩ " + ValuesString(c.results), -1
	}
	var frames []*frame
	for f := c.top; f != nil; f = f.next {
		frames = append(frames, f)
	}
	var b strings.Builder
	if c.note != "" {
		b.WriteString("{" + c.note + "} ")
	}
	for i := len(frames) - 1; i > 0; i-- {
		s := frames[i].stms[0]
		if k := frames[i-1].k; k != nil {
			e := s.Exp.(*fun.KernelExp)
			fmt.Fprintf(&b, "[kernel %s = %d of %d] ", e.Var.Name, frames[i-1].i, k.m)
		} else if x := frames[i-1].x; x != nil {
			fmt.Fprintf(&b, "[%s %d of %d] ", extWord(s.Exp, x), frames[i-1].i, x.n)
		} else {
			fmt.Fprintf(&b, "[let %s = if …] ", fun.PrintPattern(s.Pat))
		}
	}
	at := utf8.RuneCountInString(b.String())
	rest := &fun.Body{Stms: c.top.stms, In: c.top.body.In, Result: c.top.body.Result}
	b.WriteString(fun.PrintBody(rest, true))
	return b.String(), at
}

// extWord names an extension form in configurations: loop i = …, or
// the form's word (a redomap's element's map body, redomap i = …, or its
// combine, redomap step).
func extWord(e fun.Exp, x *ext) string {
	switch e := e.(type) {
	case *fun.LoopExp:
		return "loop " + e.Var.Name + " ="
	case *fun.ReduceExp:
		return "reduce step"
	case *fun.ScanExp:
		return "scan step"
	case *fun.RedomapExp:
		if x.mapping {
			return fun.RedomapWord(e) + " " + e.Var.Name + " ="
		}
		return fun.RedomapWord(e) + " step"
	}
	return "filter row"
}

// RunHeapSmall runs p by the small-step heap semantics (nil o for the
// defaults).
func RunHeapSmall(p *fun.Program, env *Env, h *semantics.Heap, o *semantics.RunOptions) ([]Value, int, error) {
	if o == nil {
		o = &semantics.RunOptions{}
	}
	return runHeapSmall(p, env, h, o, HeapOptionsOf(o))
}

// runHeapSmall is RunHeapSmall with the heap semantics' own options (a
// trace that is given the kernel's statement).
func runHeapSmall(p *fun.Program, env *Env, h *semantics.Heap, o *semantics.RunOptions, opts *HeapOptions) ([]Value, int, error) {
	h.Record(o.RecordHeap)
	d := &semantics.Driver[*Config]{Machine: HeapMachine{Opts: opts}, Fuel: o.Fuel, Counter: opts.Counter, OnStep: semantics.Hook[*Config](o),
		Pos: semantics.Pos{File: p.File, Line: 1, Col: 1}}
	c, n, err := d.Run(InitialHeap(p, env, h))
	if err != nil {
		return nil, n, err
	}
	return c.Results(), n, nil
}

// Bindings lists the innermost frame's environment, innermost first.
func (c *Config) Bindings() []semantics.Binding {
	if c.top == nil {
		return nil
	}
	var out []semantics.Binding
	seen := map[string]bool{}
	for e := c.top.env; e != nil; e = e.next {
		if !seen[e.name] {
			seen[e.name] = true
			out = append(out, semantics.Binding{Name: e.name, Value: e.val.String()})
		}
	}
	return out
}
