package imp

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/arraysem/arraysem/semantics"
)

// The small-step semantics runs statements one at a time on a stack of
// frames: a sequence (the program, an if's branch, sharing its
// environment, as E-IMP-IF does), a kernel iteration (with its own copy
// of the environment, E, x ↦ i, as E-IMP-KERNEL has), a for iteration (a
// copy too, whose values go back to E at its end, I-FOR), or a fold's
// element or combine part (copies, I-REDUCE and I-SCAN). A statement
// without a body steps by its rule; if, kernel, for, reduce and scan push
// a frame; the end of a branch is an E-IMP-SEQ step, the end of an
// iteration or part a step of its statement's rule that starts the next
// one (or, for a fold's element, its combine). The heap is updated in
// place.
type Config struct {
	top  *frame
	h    *semantics.Heap
	done bool
	note stepNote // what the last step bound or wrote (Bound), rendered on demand
	// free is the run's: the trackers of its kernels and folds that have
	// ended, for the next to reuse (Tracker.Reset, as the engine's and
	// the rules' do), shared by all its configurations.
	free *trackerPool
}

// trackerPool holds race trackers that no kernel or fold uses any more,
// and the memory of ended kernels' envSnapshots (iteration).
type trackerPool struct {
	ts     []*semantics.Tracker
	snaps  []envSnapshot
	writes writesCache // the run's loops'
}

// writesOf is what an iteration of the loop s may change (writesCache).
func (p *trackerPool) writesOf(s Stmt) []string {
	if p == nil {
		var none writesCache
		return none.of(s)
	}
	return p.writes.of(s)
}

// snap is an ended kernel's snapshot memory, or nil.
func (p *trackerPool) snap() envSnapshot {
	if p == nil || len(p.snaps) == 0 {
		return nil
	}
	s := p.snaps[len(p.snaps)-1]
	p.snaps = p.snaps[:len(p.snaps)-1]
	return s
}

// get is a fresh tracker: one that has ended, reset, or a new one.
func (p *trackerPool) get(trace bool) *semantics.Tracker {
	if p == nil || len(p.ts) == 0 {
		return semantics.NewTracker(trace)
	}
	t := p.ts[len(p.ts)-1]
	p.ts = p.ts[:len(p.ts)-1]
	t.Reset(trace)
	return t
}

// put gives back the tracker of a kernel or fold that has ended (whose
// frames are gone: no configuration after reaches it).
func (p *trackerPool) put(t *semantics.Tracker) {
	if p != nil {
		p.ts = append(p.ts, t)
	}
}

type frame struct {
	stms []Stmt
	env  Env
	k    *kernel  // for a kernel iteration
	loop *forRun  // for a for iteration
	fold *foldRun // for a fold's element or combine part
	comb bool     // a fold's combine part (else its element part)
	i    int64
	pos  int64 // i's position in the kernel's schedule
	next *frame
	prog *Program // the program, in the outermost frame (for the final results)
	// sc is an if branch's or for iteration's scope, for the cost
	// counters (nil when they are not counted).
	sc *blockScope
}

// Machine is IMP's small-step semantics.
type Machine struct{ Opts *Options }

// Initial is the configuration that starts p.
func Initial(p *Program, env Env, h *semantics.Heap) *Config {
	return &Config{top: &frame{stms: p.Body, env: env, prog: p}, h: h, free: &trackerPool{}}
}

// Final reports whether the program has run to its return.
func (Machine) Final(c *Config) bool { return c.done }

// Step makes one transition.
func (m Machine) Step(c *Config) (*Config, string, error) {
	opts := m.Opts
	if opts == nil {
		opts = &Options{}
	}
	f := c.top
	if len(f.stms) == 0 {
		switch {
		case f.next == nil:
			return &Config{h: c.h, done: true, top: f, free: c.free}, EImpSeq.Name, nil
		case f.loop != nil:
			forBack(f.next.env, f.env, f.loop.s, f.loop.w)
			f.sc.end(opts.Stats)
			if f.i < f.loop.n {
				return c.pushed(f.loop.iteration(f.next, f.i+1, f.env, opts.Stats)), IFor.Name, nil
			}
			opts.Counter.Hit(IFor.Name)
			return c.advanced(f.next, stepNote{}), IFor.Name, nil
		case f.fold != nil && !f.comb:
			if opts.Stats != nil {
				opts.Stats.SetLive(f.fold.base)
			}
			comb, err := f.fold.combine(f.fold.combEnv, f.next.env, f.env, f.i)
			if err != nil {
				return c, "", unwind(c, err)
			}
			f.fold.combEnv = comb
			return c.pushed(frame{stms: f.fold.f.Combine, env: comb, fold: f.fold, comb: true, i: f.i, next: f.next}), f.fold.rule, nil
		case f.fold != nil:
			r := f.fold
			if err := r.combined(f.next.env, f.env, c.h, f.i); err != nil {
				return c, "", unwind(c, err)
			}
			if st := opts.Stats; st != nil {
				st.SetLive(r.base)
				if _, ok := r.s.(*Scan); ok {
					st.Ops++ // the scan's write
				}
			}
			if f.i < r.n {
				return c.pushed(elementFrame(f.next, r, f.i+1)), r.rule, nil
			}
			r.finish(f.next.env, c.h, opts)
			c.free.put(r.t)
			return c.advanced(f.next, foldNote(f.next.env, r)), r.rule, nil
		case f.k == nil:
			f.sc.end(opts.Stats)
			return &Config{top: f.next, h: c.h, free: c.free}, EImpSeq.Name, nil
		}
		k := f.k
		if opts.Stats != nil {
			opts.Stats.SetLive(k.base)
		}
		if f.pos < k.m {
			return c.pushed(iteration(f.next, k, f.pos+1, nil)), EImpKernel.Name, nil
		}
		f.next.env.restore(k.w, k.saved) // E again
		k.finish(c.h, opts)
		c.free.put(k.t)
		if c.free != nil {
			c.free.snaps = append(c.free.snaps, k.saved[:0])
		}
		return c.advanced(f.next, stepNote{}), EImpKernel.Name, nil
	}
	s := f.stms[0]
	switch s := s.(type) {
	case *If:
		rule, branch, err := choose(f.env, s)
		if err != nil {
			return c, "", unwind(c, err)
		}
		return c.pushed(frame{stms: branch, env: f.env, next: advance(f), sc: newScope(opts.Stats, branch)}), rule, nil
	case *Kernel:
		k, err := startKernel(f.env, c.h, s, c.free.get(opts.Trace != nil))
		if err != nil {
			return c, "", unwind(c, err)
		}
		k.t.ReportOnly = opts.Races != nil
		if st := opts.Stats; st != nil {
			countKernel(st, c.depth())
			k.base = st.Live()
		}
		if k.m == 0 {
			k.finish(c.h, opts)
			c.free.put(k.t)
			return c.advanced(f, stepNote{}), EImpKernel.Name, nil
		}
		if opts.Schedule != nil {
			k.order = opts.Schedule(k.m)
		}
		k.w = c.free.writesOf(s)
		return c.pushed(iteration(f, k, 1, c.free.snap())), EImpKernel.Name, nil
	case *For:
		n, err := forBound(f.env, s)
		if err != nil {
			return c, "", unwind(c, err)
		}
		if n == 0 {
			opts.Counter.Hit(IFor.Name)
			return c.advanced(f, stepNote{}), IFor.Name, nil
		}
		return c.pushed((&forRun{s: s, n: n, w: c.free.writesOf(s)}).iteration(f, 1, nil, opts.Stats)), IFor.Name, nil
	case *Reduce, *Scan:
		r, err := startFold(f.env, c.h, s, c.free.get(opts.Trace != nil))
		if err != nil {
			return c, "", unwind(c, err)
		}
		if st := opts.Stats; st != nil {
			countKernel(st, c.depth())
			st.Ops += sexpOps(r.f.Neutral)
			r.base = st.Live()
		}
		if r.n == 0 {
			r.finish(f.env, c.h, opts)
			c.free.put(r.t)
			return c.advanced(f, foldNote(f.env, r)), r.rule, nil
		}
		return c.pushed(elementFrame(f, r, 1)), r.rule, nil
	}
	rule, t, err := exec(f.env, c.h, s)
	if err != nil {
		return c, "", unwind(c, err)
	}
	if opts.Stats != nil {
		c.count(opts.Stats, s)
	}
	return c.advanced(f, noteOf(f.env, c.h, s, t)), rule, nil
}

// stepNote is what a step bound or wrote, its values taken when it ran
// (the environment and the heap change in place), rendered on demand
// (String): held in the configuration itself rather than in a closure,
// which cost the small-step machine an allocation a step.
type stepNote struct {
	s   Stmt          // the statement that ran (nil: nothing to note); a *Reduce that ended
	v   Value         // what a var, <-, alloc or reduce bound; the word a read or write touched
	loc semantics.Loc // and its location; an alloc's words in Offset (a configuration and its frame fit 192 bytes)
}

// noteOf is what the statement s, just run in env, bound or wrote.
func noteOf(env Env, h *semantics.Heap, s Stmt, t touched) stepNote {
	switch s := s.(type) {
	case *Decl:
		return stepNote{s: s, v: env[s.X.Name]}
	case *Assign:
		return stepNote{s: s, v: env[s.X.Name]}
	case *Alloc:
		v := env[s.X.Name]
		return stepNote{s: s, v: v, loc: semantics.Loc{Offset: int64(len(h.Block(v.L)))}}
	case *Read, *Write:
		return stepNote{s: s, v: t.word, loc: t.loc}
	}
	return stepNote{}
}

// foldNote is what a finished reduce bound (its target's value); a scan
// has written its elements as it went.
func foldNote(env Env, r *foldRun) stepNote {
	red, ok := r.s.(*Reduce)
	if !ok {
		return stepNote{}
	}
	return stepNote{s: red, v: env[red.Target.Name]}
}

// String renders the note, "" for none.
func (n *stepNote) String() string {
	switch s := n.s.(type) {
	case *Decl:
		return s.X.Name + " = " + n.v.String()
	case *Assign:
		return s.X.Name + " = " + n.v.String()
	case *Alloc:
		return fmt.Sprintf("%s = %s (%s)", s.X.Name, n.v, semantics.Plural(int(n.loc.Offset), "word"))
	case *Read:
		return fmt.Sprintf("%s = %s (read from %s)", s.X.Name, n.v, n.loc)
	case *Write:
		return fmt.Sprintf("%s ← %s", n.loc, n.v)
	case *Reduce:
		return s.Target.Name + " = " + n.v.String()
	}
	return ""
}

// Bound describes what the last step bound or wrote ("x = 4", "ℓ1[0] ←
// 1"), or "".
func (c *Config) Bound() string { return c.note.String() }

// Shown renders a configuration as `arraysem step` shows it: what the
// last step bound or wrote, in braces, then the configuration.
func (c *Config) Shown() string {
	if b := c.Bound(); b != "" {
		return "{" + b + "} " + c.String()
	}
	return c.String()
}

// count adds the costs of s, a statement without a body that has just
// run in c's innermost frame (stats.go).
func (c *Config) count(st *semantics.Stats, s Stmt) {
	st.Ops += stmtOps(s)
	a, ok := s.(*Alloc)
	if !ok {
		return
	}
	n := int64(len(c.h.Block(c.top.env[a.X.Name].L)))
	st.Alloc(n)
	// The block dies with the innermost branch or for iteration that
	// declares its variable, unless a kernel's or fold's iteration (which
	// drops all its blocks) comes first.
	for f := c.top; f != nil; f = f.next {
		if f.k != nil || f.fold != nil {
			return
		}
		if f.sc != nil && f.sc.decls[a.X.Name] {
			f.sc.died += n
			return
		}
	}
}

// depth is the number of kernels and folds whose bodies c runs in.
func (c *Config) depth() int {
	d := 0
	for f := c.top; f != nil; f = f.next {
		if f.k != nil || f.fold != nil {
			d++
		}
	}
	return d
}

// unwind leaves the kernels of c on an error, as the big-step semantics
// does: it pops their race trackers, and a race one of them saw becomes
// that kernel's error.
//
// The kernels' iterations ran in their parents' environments (iteration):
// those are made E again, as the copies of the rules would have left
// them, and the innermost frame, the configuration that went wrong, keeps
// a copy of what its environment held then (Bindings shows it).
func unwind(c *Config, err error) error {
	for g := c.top; g != nil; g = g.next {
		if g.k != nil {
			c.top.env = c.top.env.clone()
			break
		}
	}
	for g := c.top; g != nil; g = g.next {
		if g.k != nil {
			g.next.env.restore(g.k.w, g.k.saved)
			c.h.Pop()
			err = g.k.race(err)
		}
		if g.fold != nil {
			c.h.Pop()
			err = g.fold.race(err)
		}
	}
	return err
}

// advance is f past its first statement.
func advance(f *frame) *frame {
	nf := *f
	nf.stms = f.stms[1:]
	return &nf
}

// advanced is the configuration after c whose top frame is f past its
// first statement (advance), with the note n: the configuration and its
// frame in one allocation, as most steps make both.
func (c *Config) advanced(f *frame, n stepNote) *Config {
	cf := &struct {
		c Config
		f frame
	}{f: *f}
	cf.f.stms = f.stms[1:]
	cf.c = Config{top: &cf.f, h: c.h, note: n, free: c.free}
	return &cf.c
}

// pushed is the configuration after c whose top frame is f, pushed by
// the step: the configuration and its frame in one allocation, as
// advanced makes them.
func (c *Config) pushed(f frame) *Config {
	cf := &struct {
		c Config
		f frame
	}{f: f}
	cf.c = Config{top: &cf.f, h: c.h, free: c.free}
	return &cf.c
}

// iteration pushes the iteration at position pos of k's schedule over the
// frame parent, whose first statement is the kernel. Its environment,
// E, x ↦ i, is made in E's own map, the parent's: what an iteration can
// change (rebinds) is saved before the first, and set back when one has
// ended (and when the last has: Step), as the rules' eImpKernel does.
// The first saves in buf's memory (an ended kernel's). Nothing reads an
// ended iteration's variables, a configuration prints a kernel's frame
// without them, and only the innermost frame's environment is shown
// (Bindings), which holds what a copy would.
func iteration(parent *frame, k *kernel, pos int64, buf envSnapshot) frame {
	i := semantics.Order(k.order, pos)
	k.t.Start(i)
	env := parent.env
	if pos == 1 {
		k.saved = env.save(k.writes(), buf)
	} else {
		env.restore(k.w, k.saved)
	}
	env[k.s.X.Name] = Value{K: i}
	return frame{stms: k.s.Body, env: env, k: k, i: i, pos: pos, next: parent}
}

// forRun is a for in progress: its bound, read once, and what its
// iterations may change (forWrites).
type forRun struct {
	s *For
	n int64
	w []string
}

// iteration pushes iteration i of the for over the frame parent, whose
// first statement is the for (st: the cost counters, or nil); its
// environment is made in done, as a kernel iteration's.
func (l *forRun) iteration(parent *frame, i int64, done Env, st *semantics.Stats) frame {
	return frame{stms: l.s.Body, env: forIteration(done, parent.env, l.s, i, l.w), loop: l, i: i, next: parent, sc: newScope(st, l.s.Body)}
}

// newScope is the scope of a branch or iteration running body, when the
// cost counters st are kept (else nil).
func newScope(st *semantics.Stats, body []Stmt) *blockScope {
	if st == nil {
		return nil
	}
	return &blockScope{decls: declares(body)}
}

// end ends a branch's or iteration's scope: the blocks allocated to its
// declarations die.
func (sc *blockScope) end(st *semantics.Stats) {
	if sc != nil {
		st.Release(sc.died)
	}
}

// elementFrame pushes the element part of element i of the fold r over
// the frame parent, whose first statement is the fold.
func elementFrame(parent *frame, r *foldRun, i int64) frame {
	r.elemEnv = r.element(r.elemEnv, parent.env, i)
	return frame{stms: r.f.Body, env: r.elemEnv, fold: r, i: i, next: parent}
}

// String renders the configuration on one line: the enclosing kernels,
// then the statements left in the innermost frame.
func (c *Config) String() string {
	s, _ := c.layout()
	return s
}

// layout is String, and where the statements left in the innermost frame
// start in it, in runes (-1 in a final configuration).
func (c *Config) layout() (string, int) {
	if c.done {
		if p := c.top.prog; p != nil {
			if vs, err := Results(p, c.top.env, c.h); err == nil {
				parts := make([]string, len(vs))
				for i, v := range vs {
					parts[i] = v.Abbrev(8)
				}
				return "⟨done⟩ (" + strings.Join(parts, ", ") + ")", -1
			}
		}
		return "⟨done⟩", -1
	}
	var frames []*frame
	for f := c.top; f != nil; f = f.next {
		frames = append(frames, f)
	}
	var b strings.Builder
	for i := len(frames) - 1; i >= 0; i-- {
		switch f := frames[i]; {
		case f.k != nil:
			fmt.Fprintf(&b, "[kernel %s = %d of %d] ", f.k.s.X.Name, f.i, f.k.m)
		case f.loop != nil:
			fmt.Fprintf(&b, "[for %s = %d of %d] ", f.loop.s.X.Name, f.i, f.loop.n)
		case f.fold != nil && f.comb:
			fmt.Fprintf(&b, "[%s combine %d of %d: %s = %v, %s = %v] ", keywordOf(f.fold.s), f.i, f.fold.n,
				f.fold.f.A.Name, f.env[f.fold.f.A.Name], f.fold.f.B.Name, f.env[f.fold.f.B.Name])
		case f.fold != nil:
			fmt.Fprintf(&b, "[%s %s = %d of %d, acc = %s] ", keywordOf(f.fold.s), f.fold.f.X.Name, f.i, f.fold.n, f.fold.acc)
		}
	}
	at := utf8.RuneCountInString(b.String())
	if len(c.top.stms) == 0 {
		// No statement is left in the innermost frame: say what the
		// next step ends, rather than show nothing.
		b.WriteString(endOf(c.top))
		return b.String(), at
	}
	b.WriteString(stmtsString(c.top.stms))
	return b.String(), at
}

func stmtsString(stms []Stmt) string {
	parts := make([]string, len(stms))
	for i, s := range stms {
		parts[i] = PrintStmt(s)
	}
	return strings.Join(parts, "; ")
}

// endOf says what ends when a frame has run all its statements: an
// iteration, a fold's part, an if's branch (then the statements after
// the if), or the program (then its return).
func endOf(f *frame) string {
	switch {
	case f.k != nil, f.loop != nil:
		return fmt.Sprintf("⟨iteration %d done⟩", f.i)
	case f.fold != nil && f.comb:
		return fmt.Sprintf("⟨combine %d done: %s⟩", f.i, f.fold.f.Result.Name)
	case f.fold != nil:
		return fmt.Sprintf("⟨element %d done: %s⟩", f.i, f.fold.f.Yield.Name)
	case f.next != nil:
		if rest := stmtsString(f.next.stms); rest != "" {
			return "⟨branch done⟩ " + rest
		}
		return "⟨branch done⟩"
	case f.prog != nil:
		names := make([]string, len(f.prog.Return))
		for i, r := range f.prog.Return {
			names[i] = r.Name.Name
		}
		return "⟨end⟩ return " + strings.Join(names, ", ")
	}
	return "⟨end⟩"
}

// RunSmall runs p by the small-step semantics and returns its results and
// the number of steps.
// (nil o for the defaults).
func RunSmall(p *Program, env Env, h *semantics.Heap, o *semantics.RunOptions) ([]semantics.Array, int, error) {
	if o == nil {
		o = &semantics.RunOptions{}
	}
	return runSmall(p, env, h, o, OptionsOf(o))
}

// runSmall is RunSmall with IMP's own options (a trace that is given the
// kernel).
func runSmall(p *Program, env Env, h *semantics.Heap, o *semantics.RunOptions, opts *Options) ([]semantics.Array, int, error) {
	h.Record(o.RecordHeap)
	d := &semantics.Driver[*Config]{Machine: Machine{Opts: opts}, Fuel: o.Fuel, Counter: opts.Counter, OnStep: semantics.Hook[*Config](o),
		Pos: semantics.Pos{File: p.File, Line: 1, Col: 1}}
	c, n, err := d.Run(Initial(p, env, h))
	if err != nil {
		return nil, n, err
	}
	res, err := Results(p, c.top.env, h)
	if err == nil {
		c.recycle()
	}
	return res, n, err
}

// recycle gives the trackers of a run that has ended without an error
// back (semantics.RecycleTrackers).
func (c *Config) recycle() {
	if c.free != nil {
		semantics.RecycleTrackers(c.free.ts)
		c.free.ts = nil
	}
}

// Heap is the configuration's heap.
func (c *Config) Heap() *semantics.Heap { return c.h }

// Bindings lists the innermost frame's environment, by name.
func (c *Config) Bindings() []semantics.Binding {
	if c.top == nil {
		return nil
	}
	var out []semantics.Binding
	for x, v := range c.top.env {
		out = append(out, semantics.Binding{Name: x, Value: v.String()})
	}
	slices.SortFunc(out, func(a, b semantics.Binding) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Results are the program's values in a final configuration.
func (c *Config) Results(p *Program) ([]semantics.Array, error) { return Results(p, c.top.env, c.h) }
