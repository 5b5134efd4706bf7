package imp

import (
	"errors"
	"maps"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Value is an IMP value: an integer or (an extension) a float, or a
// block's label (⊥ before a block is assigned to a mem variable).
type Value struct {
	Mem     bool
	Defined bool // for mem: not ⊥
	// Elem is a scalar's type; K is the int, or the float's bits
	// (semantics.FloatBits), the word a heap stores either way.
	Elem semantics.Elem
	K    int64
	L    semantics.Label
}

// NumValue is the scalar value n.
func NumValue(n semantics.Num) Value { return Value{Elem: n.Elem, K: n.Bits} }

// Num is a scalar value as a typed scalar.
func (v Value) Num() semantics.Num { return semantics.Num{Elem: v.Elem, Bits: v.K} }

func (v Value) String() string {
	switch {
	case !v.Mem:
		return v.Num().String()
	case !v.Defined:
		return "⊥"
	}
	return v.L.String()
}

// Env is IMP's mutable environment E.
type Env map[string]Value

// clone is a copy of E, for a kernel's or a fold's iteration (maps.Clone
// copies the table whole, about twice as fast as inserting its entries).
func (e Env) clone() Env { return maps.Clone(e) }

// undo makes e, a copy of E in which only the variables w may have been
// bound or set since, a copy of E again: the environment of a loop's
// next iteration, made in the last one's map at the cost of what that
// iteration could change (rebinds), not of E.
func (e Env) undo(E Env, w []string) {
	for _, x := range w {
		if v, ok := E[x]; ok {
			e[x] = v
		} else {
			delete(e, x)
		}
	}
}

// rebinds appends to w the variables the statements ss may bind or set
// in the environment they run in: the targets of var, <-, alloc and
// reads, and of reduce, in ss and in the bodies nested in them. (Those
// of a nested kernel's body or a fold's parts, which run in copies, are
// listed too: undoing a variable nothing changed changes nothing.) A
// statement changes no other variable of its environment (fig12.go's
// exec, forBack and foldRun.finish are all that write one).
func rebinds(ss []Stmt, w []string) []string {
	for _, s := range ss {
		switch s := s.(type) {
		case *Decl:
			w = append(w, s.X.Name)
		case *Assign:
			w = append(w, s.X.Name)
		case *Alloc:
			w = append(w, s.X.Name)
		case *Read:
			w = append(w, s.X.Name)
		case *If:
			w = rebinds(s.Else, rebinds(s.Then, w))
		case *Kernel:
			w = rebinds(s.Body, append(w, s.X.Name))
		case *For:
			w = rebinds(s.Body, append(w, s.X.Name))
		case *Reduce:
			w = rebinds(s.Combine, rebinds(s.Body, append(w, s.Target.Name, s.X.Name, s.A.Name, s.B.Name)))
		case *Scan:
			w = rebinds(s.Combine, rebinds(s.Body, append(w, s.X.Name, s.A.Name, s.B.Name)))
		}
	}
	return w
}

// Options configure a run.
type Options struct {
	Counter semantics.Counter
	// Trace receives each kernel's per-iteration read and write sets, and
	// each reduce's and scan's: s is the *Kernel, *Reduce or *Scan. A fold
	// over n elements has 2n iterations: element i is iteration i (a scan's
	// write after it included), the combine after element i is n + i.
	Trace func(s Stmt, tr *semantics.KernelTrace)
	// Schedule orders the small-step's kernel iterations (nil: in order).
	Schedule semantics.Schedule
	// Races, when not nil, lets a small-step kernel that races run on,
	// and is given its first race when it ends (semantics.RunOptions).
	Races func(race error)
	// Stats, when not nil, receives the cost counters (stats.go).
	Stats *semantics.Stats
	// Jobs bounds the goroutines the big-step runs a large kernel's
	// iterations on (parallel.go): 0 for the default (semantics.Jobs),
	// 1 for in order. Results and errors do not depend on it.
	Jobs int
	// Budget is the run's fuel, the iterations of its kernels, fors and
	// folds (semantics.Budget); nil for semantics.DefaultBigFuel.
	// OptionsOf makes one of the run's --fuel.
	Budget *semantics.Budget
	// MinParallelWork is the work (iterations × statements of the body)
	// from which a kernel goes on goroutines: 0 for
	// DefaultMinParallelWork, 1 for every kernel of two iterations or
	// more that may (as the tests do, to check the parallel engine on
	// small programs).
	MinParallelWork int64
	// ParallelWindow is the iterations a goroutine runs before the
	// goroutines meet (semantics.ParallelIterations; 0 for the default).
	ParallelWindow int64
	// NoRaceFreePlans and NoCopyKernels switch fast paths of the engine
	// off (and NoIntFolds, below): kernels that racefree.go proves race free when they start
	// run untracked (and so may go parallel), and copy kernels as one
	// loop over the words (copykernel.go). The property engine ≡ rules
	// runs the engine with each and without.
	NoRaceFreePlans, NoCopyKernels bool
	// NoIntFolds switches off the fold loop's int step: a combine part
	// that is one int operation on its parameters applied directly
	// (intfold.go).
	NoIntFolds bool
	// Derive builds the derivation of the rules as written (EvalRules);
	// the engine and the small-step build none.
	Derive bool
}

// OptionsOf are IMP's options taken from a run's: the counter, the
// schedule, and the trace, whose kernels are named by position and bound.
func OptionsOf(o *semantics.RunOptions) *Options {
	opts := &Options{Counter: o.Counter, Schedule: o.Schedule, Stats: o.Stats, Jobs: o.Jobs, Budget: semantics.NewBudget(o.Fuel), Races: o.Races, Derive: o.Derive}
	if o.Trace != nil {
		opts.Trace = func(s Stmt, tr *semantics.KernelTrace) { o.Trace(TraceName(s), tr) }
	}
	return opts
}

// TraceName names a traced statement: a kernel as KernelName does, a
// reduce or a scan by its position, target and bound.
func TraceName(s Stmt) string {
	switch s := s.(type) {
	case *Kernel:
		return KernelName(s)
	case *Reduce:
		return s.At.String() + ": reduce " + s.Target.Name + " for " + s.X.Name + " <= " + fun.PrintSExp(s.Bound)
	case *Scan:
		return s.At.String() + ": scan " + s.Block.Name + "[" + fun.PrintSExp(s.Addr) + "] for " + s.X.Name + " <= " + fun.PrintSExp(s.Bound)
	}
	return s.Pos().String() + ": " + PrintStmt(s)
}

// KernelName names a kernel in traces: its position and its bound.
func KernelName(k *Kernel) string {
	return k.At.String() + ": kernel " + k.X.Name + " <= " + fun.PrintSExp(k.Bound)
}

// BindInputs builds the environment and heap of the inputs: ints as given,
// each array row-major in a fresh block of its own. Sizes that are input
// variables may be read off the arrays, as in FUN.
func BindInputs(p *Program, args map[string]string) (Env, *semantics.Heap, error) {
	fp := &fun.Program{File: p.File}
	for _, in := range p.Inputs {
		t := fun.Type{Elem: in.Elem}
		for _, d := range in.Dims {
			v, ok := d.(fun.Var)
			if !ok {
				return nil, nil, semantics.Errorf(in.Pos, semantics.InputError, "", "input %s: sizes of inputs are variables", in.Name.Name)
			}
			t.Dims = append(t.Dims, v.Ident)
		}
		fp.Inputs = append(fp.Inputs, &fun.Param{Lparen: in.Pos, Name: in.Name, Type: t})
	}
	fenv, err := fun.BindInputs(fp, args)
	if err != nil {
		return nil, nil, err
	}
	env, h := Env{}, &semantics.Heap{}
	for _, b := range fenv.Bindings() {
		if b.Value.IsScalar() {
			env[b.Name] = NumValue(b.Value.Num())
		}
	}
	for _, in := range p.Inputs {
		if in.Dims == nil {
			continue
		}
		// The array's buffer becomes the block: fun.BindInputs made it
		// for this binding alone, so no copy is needed.
		v, _ := fenv.Lookup(in.Name.Name)
		l, err := h.Adopt(v.Data)
		if err != nil {
			return nil, nil, semantics.Errorf(in.Pos, semantics.InputError, "", "%v", err)
		}
		env[in.Block.Name] = Value{Mem: true, Defined: true, L: l}
	}
	return env, h, nil
}

// Eval runs a program by the big-step semantics of Fig 12 and returns the
// values of its results. The program is compiled for the run first
// (compiled.go); env is left as the program leaves its variables, also
// when it gets stuck.
func Eval(p *Program, env Env, h *semantics.Heap, opts *Options) ([]semantics.Array, error) {
	if opts == nil {
		opts = &Options{}
	}
	if opts.Budget == nil { // every run is bounded
		o := *opts
		o.Budget = semantics.NewBudget(0)
		opts = &o
	}
	m, body := compile(p, env, h, opts)
	err := m.run(body)
	m.writeBack(env)
	if err != nil {
		return nil, err
	}
	vs, err := results(p, env, h, opts.Jobs)
	if err == nil {
		semantics.RecycleTrackers(m.free)
	}
	return vs, err
}

// heapErr passes races on (the kernel reports them) and makes other heap
// errors stuck states.
func heapErr(err error, at fun.Pos, rule, name string) error {
	var race semantics.ErrRace
	if errors.As(err, &race) {
		return err
	}
	return semantics.Stuckf(at, rule, "%s: %v", name, err)
}

// kernel is a kernel in progress (E-IMP-KERNEL), with its race tracker.
type kernel struct {
	s     *Kernel
	m     int64
	t     *semantics.Tracker
	order []int64 // the small-step's schedule of the iterations (nil: in order)
	base  int64   // the live words at its start (cost counters: each iteration's blocks die with it)
	w     []string
	saved envSnapshot // the small-step's: E's values of w (iteration)
}

// writes are the variables an iteration may change (rebinds), x's
// included.
func (k *kernel) writes() []string {
	if k.w == nil {
		k.w = rebinds(k.s.Body, []string{k.s.X.Name})
	}
	return k.w
}

// envSnapshot is what E holds for some variables (save): a value, or
// nothing.
type envSnapshot []snapshotEntry

type snapshotEntry struct {
	v  Value
	ok bool
}

// save is E's entries for the variables w, in buf's memory.
func (e Env) save(w []string, buf envSnapshot) envSnapshot {
	out := buf[:0]
	for _, x := range w {
		v, ok := e[x]
		out = append(out, snapshotEntry{v, ok})
	}
	return out
}

// restore sets the variables w of e back to what save kept of them
// (s): e is E again, if only w have been bound or set since.
func (e Env) restore(w []string, s envSnapshot) {
	for i, x := range w {
		if s[i].ok {
			e[x] = s[i].v
		} else {
			delete(e, x)
		}
	}
}

// t is the kernel's tracker, fresh (NewTracker, or Reset).
func startKernel(env Env, h *semantics.Heap, s *Kernel, t *semantics.Tracker) (*kernel, error) {
	rule := EImpKernel.Name
	m, err := fun.EvalSExp(s.Bound, lookup(env), rule)
	if err != nil {
		return nil, err
	}
	if m < 0 {
		return nil, semantics.Stuckf(s.At, rule, "kernel bound %s = %d is negative", fun.PrintSExp(s.Bound), m)
	}
	h.Push(t)
	return &kernel{s: s, m: m, t: t}, nil
}

func (k *kernel) race(err error) error {
	var race semantics.ErrRace
	if errors.As(err, &race) && race.Tracker == k.t {
		return semantics.Errorf(k.s.At, semantics.RaceError, EImpKernel.Name, "%v", race)
	}
	return err
}

func (k *kernel) finish(h *semantics.Heap, opts *Options) {
	h.Pop()
	opts.Counter.Hit(EImpKernel.Name)
	if k.t.Found != nil && opts.Races != nil {
		opts.Races(semantics.Errorf(k.s.At, semantics.RaceError, EImpKernel.Name, "%v", *k.t.Found))
	}
	if opts.Trace != nil {
		opts.Trace(k.s, k.t.Trace)
	}
}

func lookup(env Env) func(*fun.Ident, string) (int64, error) {
	return func(x *fun.Ident, rule string) (int64, error) {
		v, ok := env[x.Name]
		return intOf(x, v, ok, rule)
	}
}

// intOf is the int x names, whose value is v (ok: x is declared).
func intOf(x *fun.Ident, v Value, ok bool, rule string) (int64, error) {
	switch {
	case !ok:
		return 0, semantics.Stuckf(x.NamePos, rule, "variable %s is not declared", x.Name)
	case v.Mem:
		return 0, semantics.Stuckf(x.NamePos, rule, "%s is a memory block, not an integer", x.Name)
	case v.Elem != semantics.IntElem:
		return 0, semantics.Stuckf(x.NamePos, rule, "%s is the float %s, not an integer", x.Name, v)
	}
	return v.K, nil
}

// numLookup reads a scalar variable, int or float, for fun.EvalNum.
func numLookup(env Env) func(*fun.Ident, string) (semantics.Num, error) {
	return func(x *fun.Ident, rule string) (semantics.Num, error) {
		v, ok := env[x.Name]
		return numOf(x, v, ok, rule)
	}
}

// numOf is the scalar x names, whose value is v (ok: x is declared).
func numOf(x *fun.Ident, v Value, ok bool, rule string) (semantics.Num, error) {
	switch {
	case !ok:
		return semantics.Num{}, semantics.Stuckf(x.NamePos, rule, "variable %s is not declared", x.Name)
	case v.Mem:
		return semantics.Num{}, semantics.Stuckf(x.NamePos, rule, "%s is a memory block, not an integer or a float", x.Name)
	}
	return v.Num(), nil
}

// intValue evaluates a condition: a scalar expression, which may compare
// floats, whose value is an int.
func intValue(e fun.SExp, env Env, rule string) (int64, error) {
	v, err := fun.EvalNum(e, numLookup(env), rule)
	if err != nil {
		return 0, err
	}
	return condInt(e, v, rule)
}

// condInt is the int a condition e evaluated to, v.
func condInt(e fun.SExp, v semantics.Num, rule string) (int64, error) {
	if v.Elem != semantics.IntElem {
		return 0, semantics.Stuckf(e.Pos(), rule, "%s is the float %s, not an int", fun.PrintSExp(e), v)
	}
	return v.Int(), nil
}

func block(env Env, x *fun.Ident, rule string) (semantics.Label, error) {
	v, ok := env[x.Name]
	return blockOf(x, v, ok, rule)
}

// blockOf is the block x names, whose value is v (ok: x is declared).
func blockOf(x *fun.Ident, v Value, ok bool, rule string) (semantics.Label, error) {
	switch {
	case !ok:
		return 0, semantics.Stuckf(x.NamePos, rule, "variable %s is not declared", x.Name)
	case !v.Mem:
		return 0, semantics.Stuckf(x.NamePos, rule, "%s is an integer, not a memory block", x.Name)
	case !v.Defined:
		return 0, semantics.Stuckf(x.NamePos, rule, "memory block %s is ⊥ (declared, never allocated or assigned)", x.Name)
	}
	return v.L, nil
}

// Results reads the values return names: integers, and blocks read as
// row-major arrays of their shapes.
func Results(p *Program, env Env, h *semantics.Heap) ([]semantics.Array, error) {
	return results(p, env, h, 1)
}

// results is Results, copying a large array out of its block on up to
// jobs goroutines (semantics.CloneJobs): the engine's run does so with
// the run's jobs.
func results(p *Program, env Env, h *semantics.Heap, jobs int) ([]semantics.Array, error) {
	const rule = "return"
	var out []semantics.Array
	for _, r := range p.Return {
		if r.Dims == nil {
			v, err := numLookup(env)(r.Name, rule)
			if err != nil {
				return nil, err
			}
			out = append(out, v.Array())
			continue
		}
		b, err := block(env, r.Name, rule)
		if err != nil {
			return nil, err
		}
		shape := make([]int64, len(r.Dims))
		for i, d := range r.Dims {
			if shape[i], err = fun.EvalSExp(d, lookup(env), rule); err != nil {
				return nil, err
			}
		}
		n, err := semantics.Count(shape)
		if err != nil {
			return nil, semantics.Stuckf(r.Name.NamePos, rule, "%v", err)
		}
		data := h.Block(b)
		if int64(len(data)) < n {
			return nil, semantics.Stuckf(r.Name.NamePos, rule, "block %s holds %d integers, fewer than the %d of %s", r.Name.Name, len(data), n, semantics.ShapeString(shape))
		}
		a, _ := semantics.NestOf(r.Elem, semantics.CloneJobs(data[:n], jobs), shape)
		out = append(out, a)
	}
	return out, nil
}
