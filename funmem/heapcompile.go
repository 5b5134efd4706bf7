package funmem

import (
	"errors"
	"slices"
	"sync"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// The heap-based big-step semantics of Fig 10, compiled. Walking the tree
// with a linked environment (as the small-step does, and heapEval in
// heap.go) costs a list search per variable read, an environment cell per
// binding and a slice of values per statement; here the program is
// compiled once per run, as FUN's big-step is (fun/compile.go):
//
//   - every binding occurrence of a variable (an input, a pattern's
//     variable, a kernel's index) gets a slot of one flat frame of Values,
//     and every use is resolved, by the scoping of Fig 10 (E, x ↦ v
//     shadows), to the slot of the binding it sees;
//   - each statement becomes a Go closure over those slots, named by its
//     rule (hScalar is E-MEM-SCALAR, hIndex E-MEM-INDEX, hKernel
//     E-MEM-KERNEL, …; E-STMS is hbody.run), which leaves its values in
//     the slots of its pattern.
//
// The heap, its reads and writes through LMADs, and the race trackers are
// the same as the tree walker's: the closures call Heap.Read, Heap.Write,
// Heap.Memcpy, Push and Pop in the same order. Two things differ in how,
// not in what: a kernel that has ended gives its tracker back and the
// next kernel resets it (Tracker.Reset) rather than allocating one; and,
// when nothing is traced, a kernel that cannot race runs without a
// tracker of its own (heaprace.go).
//
// The rules' starts and checks (kernelStart, destination, evalAtomic, …)
// and every error message are the tree walker's own, read through
// slotVars; the rules on the hot path read slots directly and, when a
// value is not what the rule needs, call the same helper on the slots by
// name, so both are stuck in the same rule with the same message. The
// extension forms (loop, reduce, scan, filter; redomap and scanomap) run
// their own steps (heap_ext.go, heap_redomap.go) with their bodies
// compiled (hExt, hRedomap).
//
// A nested body (an if's branch, the body of a kernel, a loop or a fold)
// is compiled when it first runs (lazyBody): in a property campaign,
// where every variant of every program runs once on small inputs, two
// statements in five are in bodies that never run (the branch not taken,
// the rest of a program stuck early), and compiling costs more than
// running.

// hscope is the compile-time environment: each name in scope and its
// slot, innermost first, as Env holds names and values.
//
// Each entry keeps its name's key (nameKey), which lookup compares
// before the name: a chain of a few dozen names, most of one or two
// lengths, was compared string by string.
type hscope struct {
	name string
	key  uint64
	slot int
	next *hscope
}

// entry is the scope sc, x ↦ slot, as a value (for lists of entries).
func (sc *hscope) entry(x string, slot int) hscope {
	return hscope{name: x, key: nameKey(x), slot: slot, next: sc}
}

// bind is the scope sc, x ↦ slot.
func (sc *hscope) bind(x string, slot int) *hscope {
	e := sc.entry(x, slot)
	return &e
}

// nameKey is x's length (255 for any longer) in the top byte and its
// first seven bytes below: two names of at most seven bytes have the
// same key only when they are the same.
func nameKey(x string) uint64 {
	k := uint64(min(len(x), 255)) << 56
	for i := 0; i < len(x) && i < 7; i++ {
		k |= uint64(x[i]) << (8 * i)
	}
	return k
}

// bindAll binds names, in order, to fresh slots: the scope sc, x1 ↦
// slot1, …, xn ↦ slotn (its entries made in one list) and the slots.
func (c *hcompiler) bindAll(sc *hscope, names []string) (*hscope, []int) {
	slots := make([]int, len(names))
	binds := make([]hscope, len(names))
	for i, x := range names {
		slots[i] = c.newSlot()
		binds[i] = sc.entry(x, slots[i])
		sc = &binds[i]
	}
	return sc, slots
}

// lookup is the slot of x's innermost binding, or -1 when x is unbound.
func (sc *hscope) lookup(x string) int {
	k := nameKey(x)
	for ; sc != nil; sc = sc.next {
		if sc.key == k && (len(x) < 8 || sc.name == x) {
			return sc.slot
		}
	}
	return -1
}

// slotVars reads, by name, the variables in scope at one point of the
// program: the vars of the shared rule helpers.
type slotVars struct {
	fr []Value
	sc *hscope
}

// Lookup is E(x) at that point.
func (v slotVars) Lookup(x string) (Value, bool) {
	i := v.sc.lookup(x)
	if i < 0 {
		return Value{}, false
	}
	return v.fr[i], true
}

// num is x read as a scalar by name (fun.EvalNum's lookup): what
// numLookup gives, without boxing the frame into a vars.
func (v slotVars) num(x *fun.Ident, rule string) (semantics.Num, error) {
	i := v.sc.lookup(x.Name)
	if i < 0 {
		return semantics.Num{}, semantics.Stuckf(x.NamePos, rule, "variable %s is unbound", x.Name)
	}
	a := &v.fr[i]
	if a.Kind != IntVal {
		return semantics.Num{}, semantics.Stuckf(x.NamePos, rule, "%s is %v, not an int or a float", x.Name, *a)
	}
	return a.Num(), nil
}

// env is the environment of the variables in scope (for the tree walker),
// bound outermost first so that shadowing is kept.
func (v slotVars) env() *Env {
	// The chain Bind would make from the outermost binding on, innermost
	// first, in one allocation: a fold makes it at every run.
	n := 0
	for sc := v.sc; sc != nil; sc = sc.next {
		n++
	}
	if n == 0 {
		return nil
	}
	envs := make([]Env, n)
	i := 0
	for sc := v.sc; sc != nil; sc = sc.next {
		envs[i] = Env{name: sc.name, val: v.fr[sc.slot]}
		if i > 0 {
			envs[i-1].next = &envs[i]
		}
		i++
	}
	return &envs[0]
}

// heapMachine is what a run of compiled code needs besides the frame.
type heapMachine struct {
	opts   *HeapOptions
	h      *semantics.Heap
	trace  bool
	pool   trackerPool
	walk   *heapEval // the tree walker, for the extension forms: walker
	walker heapEval
	// stats are the cost counters (nil: none; heap_stats.go), depth the
	// parallel forms whose bodies are running (a launch is at 0).
	stats *semantics.Stats
	depth int
	// sv holds the variables a rule's shared helper reads while it runs
	// (set and put back around the call): a pointer to it is a vars
	// without the allocation a slotVars made into one costs.
	sv slotVars
}

// trackerPool keeps the trackers of kernels that have ended, for reuse: a
// kernel that starts resets one (Tracker.Reset keeps the memory of its
// tables) rather than allocating a new one. A nil pool makes fresh ones.
type trackerPool struct{ free []*semantics.Tracker }

// get is a fresh tracker.
func (p *trackerPool) get(trace bool) *semantics.Tracker {
	if p == nil || len(p.free) == 0 {
		return semantics.NewTracker(trace)
	}
	n := len(p.free)
	t := p.free[n-1]
	p.free = p.free[:n-1]
	t.Reset(trace)
	return t
}

// put gives back the tracker of a kernel that has ended (its trace, if
// any, has been handed on: Reset makes a new one).
func (p *trackerPool) put(t *semantics.Tracker) {
	if p != nil {
		p.free = append(p.free, t)
	}
}

// recycle hands the pool's trackers on to the runs that start later
// (semantics.RecycleTrackers), once the run has ended without an error:
// no kernel, fold or error holds one then. A tracker given back twice is
// handed on once, so that no two runs ever share one.
func (p *trackerPool) recycle() {
	free := p.free[:0]
	for i, t := range p.free {
		if !slices.Contains(p.free[:i], t) {
			free = append(free, t)
		}
	}
	semantics.RecycleTrackers(free)
	clear(p.free)
	p.free = p.free[:0]
}

// frames holds the frames of runs that have ended without an error, for
// newFrame: a property campaign makes thousands of small runs, and their
// frames were a few percent of the bytes it allocated.
var frames sync.Pool

// newFrame is a frame of n slots, all zero (no variable bound), in a
// box to give back (recycleFrame): one a run that has ended gave back,
// cleared, when it is large enough.
func newFrame(n int) *[]Value {
	p, ok := frames.Get().(*[]Value)
	if !ok {
		p = new([]Value)
	}
	if cap(*p) < n {
		*p = make([]Value, n)
		return p
	}
	*p = (*p)[:n]
	clear(*p)
	return p
}

// recycleFrame gives back the frame of a run that has ended without an
// error: nothing reads it after (its results are copied out, and no
// kernel, fold or error keeps it).
func recycleFrame(p *[]Value) {
	if cap(*p) <= 1<<12 { // a run at scale keeps its large frame to itself
		frames.Put(p)
	}
}

// hcode is a compiled statement: it evaluates the statement's expression
// and leaves its values in the slots of the pattern (E-STMS' binding).
type hcode func(m *heapMachine, fr []Value) error

// hbody is a compiled body: its statements and the slots of its results
// (-1 for a variable that is not in scope).
type hbody struct {
	b       *fun.Body
	stms    []hcode
	results []int
}

// hcompiler allocates slots. With eager, nested bodies are compiled with
// the statement around them, not when they first run; stms, when set,
// counts the statements compiled (for the tests).
//
// looped says that the code being compiled may run more than once in the
// run (it is in a body that iterates, or in a form that may start again).
// Code that runs at most once leaves its scalar expressions to fun.EvalNum,
// as FUN's engine does (fun/compile.go): compiling them costs more than
// evaluating them once. With allLooped every scalar expression is
// compiled (for the tests); sexps, when set, counts those compiled.
type hcompiler struct {
	slots     int
	eager     bool
	stms      *int
	looped    bool
	allLooped bool
	sexps     *int
}

func (c *hcompiler) newSlot() int { c.slots++; return c.slots - 1 }

// A lazyBody is a nested body compiled when it first runs. Its slots,
// at most slotBound(b), are reserved when the statement around it is
// compiled, so the frame, made before the run, holds them: the body and
// those nested in it are compiled within them, whenever that is.
//
// get is called on the goroutine that runs the statement, before any
// iteration starts (a kernel whose iterations run in parallel has a body
// of scalar statements only: scalarBody), so no two compile one body.
type lazyBody struct {
	sc        *hscope
	b         *fun.Body
	base, end int // its slots: base, …, end-1
	eager     bool
	stms      *int
	looped    bool // the form around it may start more than once
	allLooped bool
	sexps     *int
	hb        *hbody
}

// lazy reserves the slots of b, in scope sc, to be compiled by get.
func (c *hcompiler) lazy(sc *hscope, b *fun.Body) *lazyBody {
	l := &lazyBody{}
	c.initLazy(l, sc, b)
	return l
}

// initLazy makes l the lazy body of b in scope sc (lazy, in a lazyBody
// allocated with what else its statement keeps).
func (c *hcompiler) initLazy(l *lazyBody, sc *hscope, b *fun.Body) {
	*l = lazyBody{sc: sc, b: b, base: c.slots, eager: c.eager, stms: c.stms, looped: c.looped, allLooped: c.allLooped, sexps: c.sexps}
	c.slots += slotBound(b)
	l.end = c.slots
	if c.eager {
		l.get(2) // the number of runs is not known: as if it iterates
	}
}

// get is the compiled body, compiled at the first call, for a start of
// the form around it that runs it runs times (1 for an if's branch): it
// runs more than once if that start does, or if the form may start again.
func (l *lazyBody) get(runs int64) *hbody {
	if l.hb == nil {
		c := hcompiler{slots: l.base, eager: l.eager, stms: l.stms, looped: l.looped || runs > 1, allLooped: l.allLooped, sexps: l.sexps}
		l.hb = c.body(l.sc, l.b)
		if c.slots > l.end {
			panic("funmem: the heap compiler used more slots than slotBound reserved")
		}
	}
	return l.hb
}

// slotBound is at least the number of slots compiling b takes: its
// patterns' variables, the slot of an atomic statement whose pattern does
// not bind one variable, and those of the bodies nested in it with their
// indices and parameters.
func slotBound(b *fun.Body) int {
	n := 0
	for _, s := range b.Stms {
		n += len(s.Pat)
		switch e := s.Exp.(type) {
		case *fun.IfExp:
			n += max(slotBound(e.Then), slotBound(e.Else)) // one runs (hIf)
		case *fun.KernelExp:
			n += 1 + slotBound(e.Body)
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			n += len(fun.ExpParams(e)) + 1 + slotBound(fun.ExpBody(e))
		case *fun.RedomapExp:
			n += 1 + len(e.Params) + slotBound(e.Map) + slotBound(e.Op)
		default:
			if len(s.Pat) != 1 {
				n++
			}
		}
	}
	return n
}

// evalHeapCompiled is EvalHeap: E-MEM-PROG over the compiled body.
func evalHeapCompiled(p *fun.Program, env *Env, h *semantics.Heap, opts *HeapOptions) ([]Value, error) {
	return evalCompiled(&hcompiler{}, p, env, h, opts)
}

// evalCompiled is evalHeapCompiled with the compiler c.
func evalCompiled(c *hcompiler, p *fun.Program, env *Env, h *semantics.Heap, opts *HeapOptions) ([]Value, error) {
	// The inputs' scope, in one list: the outermost binding takes the
	// first slot and the innermost is found first, as binding them from
	// the outermost on would make it (shadowing kept).
	n := 0
	for e := env; e != nil; e = e.next {
		n++
	}
	var sc *hscope
	var inputs []hscope
	if n > 0 {
		inputs = make([]hscope, n)
		sc = &inputs[0]
	}
	base := c.slots
	c.slots += n
	i := 0
	for e := env; e != nil; e, i = e.next, i+1 {
		inputs[i] = (*hscope)(nil).entry(e.name, base+n-1-i)
		if i+1 < n {
			inputs[i].next = &inputs[i+1]
		}
	}
	body := c.body(sc, p.Body)
	box := newFrame(c.slots)
	fr := *box
	i = 0
	for e := env; e != nil; e, i = e.next, i+1 {
		fr[base+n-1-i] = e.val
	}
	m := &heapMachine{opts: opts, h: h, trace: opts.Trace != nil, stats: opts.Stats}
	m.walker = heapEval{opts: opts, h: h, depth: &m.depth}
	m.walk = &m.walker
	if err := body.run(m, fr); err != nil {
		return nil, err
	}
	// Every kernel and fold of a run that ended without an error has
	// given its tracker back to the pool: the next run's take them
	// (semantics.RecycleTrackers), as IMP's runs do.
	m.pool.recycle()
	vs := make([]Value, len(body.results))
	for i, r := range body.results {
		vs[i] = fr[r]
	}
	recycleFrame(box) // the values are copied out; no statement holds the frame
	opts.Counter.Hit(EMemProg.Name)
	return vs, nil
}

// body compiles b in scope sc: each statement's pattern binds fresh
// slots, in scope for the statements after it and the results.
func (c *hcompiler) body(sc *hscope, b *fun.Body) *hbody {
	// The patterns' slots and scope entries are allocated together, one
	// list for the body (every variant of a property campaign is
	// compiled).
	npat := 0
	for _, s := range b.Stms {
		npat += len(s.Pat)
	}
	ints := make([]int, npat+len(b.Result)) // the slots, then the results'
	slots, results := ints[:npat:npat], ints[npat:]
	binds := make([]hscope, npat)
	hb := &hbody{b: b, stms: make([]hcode, 0, len(b.Stms))}
	if c.stms != nil {
		*c.stms += len(b.Stms)
	}
	for _, s := range b.Stms {
		n := len(s.Pat)
		out := slots[:n:n]
		slots = slots[n:]
		for i := range out {
			out[i] = c.newSlot()
		}
		hb.stms = append(hb.stms, c.stm(sc, s, out))
		for i, p := range s.Pat {
			binds[i] = sc.entry(p.Name.Name, out[i])
			sc = &binds[i]
		}
		binds = binds[n:]
	}
	if len(b.Result) > 0 {
		hb.results = results
		for i, x := range b.Result {
			hb.results[i] = sc.lookup(x.Name)
		}
	}
	return hb
}

// run is E-STMS: each statement in turn, then the results, which are
// left in their slots.
//
// With cost counters, the blocks its statements allocated die when it
// ends.
func (b *hbody) run(m *heapMachine, fr []Value) error {
	live := int64(-1)
	if m.stats != nil {
		live = m.stats.Live()
	}
	for _, s := range b.stms {
		if err := s(m, fr); err != nil {
			return err
		}
	}
	if live >= 0 {
		m.stats.SetLive(live)
	}
	m.opts.Counter.Hit(EStms.Name)
	for i, r := range b.results {
		if r < 0 {
			x := b.b.Result[i]
			return semantics.Stuckf(x.NamePos, EStms.Name, "variable %s is unbound", x.Name)
		}
	}
	return nil
}

// stm compiles statement s, whose pattern binds the slots out, in scope
// sc.
func (c *hcompiler) stm(sc *hscope, s *fun.Stm, out []int) hcode {
	switch e := s.Exp.(type) {
	case *fun.IfExp:
		return c.hIf(sc, s, e, out)
	case *fun.KernelExp:
		return c.hKernel(sc, s, e, out)
	case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
		return c.hExt(sc, s, out)
	case *fun.RedomapExp:
		return c.hRedomap(sc, s, e, out)
	}
	// The atomic rules give one value: into a slot of its own when the
	// pattern binds another number, E-STMS stuck after the rule ran.
	one := out
	if len(out) != 1 {
		one = []int{c.newSlot()}
	}
	var code hcode
	switch e := s.Exp.(type) {
	case *fun.ScalarExp:
		code = c.hScalar(sc, e, one[0])
	case *fun.IndexExp:
		code = c.hIndex(sc, e, one[0])
	default:
		code = c.hAtomic(sc, s, one[0])
	}
	if len(out) == 1 {
		return code
	}
	return func(m *heapMachine, fr []Value) error {
		if err := code(m, fr); err != nil {
			return err
		}
		return patternArity(s, 1)
	}
}

// hAtomic is E-MEM-ALLOC, E-MEM-SLICE, E-MEM-TRANSPOSE, E-MEM-ASSERT and
// the fresh arrays of iota and copy (and the stuck state of a form no
// rule evaluates): the tree walker's evalAtomic, reading the slots by
// name.
func (c *hcompiler) hAtomic(sc *hscope, s *fun.Stm, o int) hcode {
	return func(m *heapMachine, fr []Value) error {
		old := m.sv
		m.sv = slotVars{fr, sc}
		vs, rule, err := evalAtomicPool(&m.sv, m.h, s, m.opts, &m.pool)
		m.sv = old
		if err != nil {
			return err
		}
		if m.stats != nil {
			atomicCosts(m.stats, m.depth, m.h, s, vs)
		}
		m.opts.Counter.Hit(rule)
		fr[o] = vs[0]
		return nil
	}
}

// hExt is E-MEM-LOOP, E-MEM-REDUCE, E-MEM-SCAN and E-MEM-FILTER: the
// extension forms' own steps (startExt, enter, leave, finish: heap_ext.go,
// shared with the small-step), with the body compiled. enter binds the
// iteration's parameters on an environment made from the slots in scope;
// their values are copied into the body's slots. A form whose parameters
// enter might not all bind (a fold whose support groups are not two, which
// the checker refuses) runs by the tree walker instead.
func (c *hcompiler) hExt(sc *hscope, s *fun.Stm, out []int) hcode {
	names, ok := extBound(s.Exp)
	if !ok {
		return func(m *heapMachine, fr []Value) error {
			vs, _, err := m.walk.stm(slotVars{fr, sc}.env(), s)
			if err != nil {
				return err
			}
			return bindOut(s, vs, fr, out)
		}
	}
	inner, slots := c.bindAll(sc, names)
	lb := c.lazy(inner, fun.ExpBody(s.Exp))
	// A fold that writes nothing but its own rows runs as a plain loop
	// when it may (heapcompile_redomap.go). Both are known once the body
	// is compiled.
	var body *hbody
	var loop func(m *heapMachine, fr []Value) (ran bool, err error)
	compile := func() {
		body = lb.get(2) // compiled before the form starts: as if it iterates
		switch {
		case scalarReduce(s.Exp, body):
			loop = func(m *heapMachine, fr []Value) (bool, error) {
				return m.scalarReduce(sc, s, fr, out, names, slots, body)
			}
		case scalarScan(s.Exp, body):
			loop = func(m *heapMachine, fr []Value) (bool, error) {
				return m.scalarScan(sc, s, fr, out, names, slots, body)
			}
		case scalarFilter(s.Exp, body):
			loop = func(m *heapMachine, fr []Value) (bool, error) {
				return m.scalarFilter(sc, s, fr, out, names, slots, body)
			}
		}
	}
	return func(m *heapMachine, fr []Value) error {
		if body == nil {
			compile()
		}
		if loop != nil && m.plainScalarFolds() {
			if ran, err := loop(m, fr); ran {
				return err
			}
		}
		x, err := startExtPool(slotVars{fr, sc}, m.h, s, m.trace, &m.pool)
		if err != nil {
			return err
		}
		form := m.stats != nil && parallel(s.Exp)
		if form {
			launch(m.stats, m.depth)
			m.depth++
		}
		// enter binds each parameter into its slots (a name bound twice:
		// the last binding, as Lookup finds it).
		bind := binder(fr, names, slots)
		// leave keeps the values of an iteration (a loop's, a fold's
		// accumulator) until the next one's: two buffers, in turn.
		var bufs [2][]Value
		for !x.done() {
			err := x.spend(m.opts.Budget)
			if err == nil {
				_, err = x.enterWith(m.h, bind)
			}
			if err := runStep(m, x, body, fr, turnBuf(&bufs, x.i, len(body.results)), err); err != nil {
				return err
			}
		}
		vs, err := x.finish(m.h, m.opts)
		if err != nil {
			return err
		}
		if form {
			m.depth--
		}
		return bindOut(s, vs, fr, out)
	}
}

// bindOut is E-STMS' binding of a form's values vs to its pattern's
// slots.
func bindOut(s *fun.Stm, vs []Value, fr []Value, out []int) error {
	if err := patternArity(s, len(vs)); err != nil {
		return err
	}
	for i, v := range vs {
		fr[out[i]] = v
	}
	return nil
}

// extBound are the names an extension form's enter binds for every
// iteration, outermost first: a loop's parameters and index; a fold's or
// filter's parameters, when its support groups (two for a fold, one for a
// filter) bind every one of them. ok is false when that is not known.
func extBound(e fun.Exp) (names []string, ok bool) {
	ps := fun.ExpParams(e)
	for _, p := range ps {
		names = append(names, p.Name.Name)
	}
	switch e := e.(type) {
	case *fun.LoopExp:
		return append(names, e.Var.Name), true
	case *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
		want := 2
		if _, filter := e.(*fun.FilterExp); filter {
			want = 1
		}
		gs := Groups(ps)
		if len(gs) != want {
			return nil, false
		}
		bound := map[string]bool{}
		for _, g := range gs {
			bound[ps[g.Operand].Name.Name] = true
			if g.IsArray() {
				bound[g.Block], bound[g.Off] = true, true
				for _, st := range g.Strides {
					bound[st] = true
				}
			}
		}
		for _, x := range names {
			if !bound[x] {
				return nil, false
			}
		}
		return names, true
	}
	return nil, false
}

// hIf is E-MEM-IF-T and E-MEM-IF-F: the branch the condition chooses, its
// results bound by the pattern.
//
// The branches share their slots, as one of them runs at a time and
// its results are copied out before the statement ends (a smaller frame
// for every run).
func (c *hcompiler) hIf(sc *hscope, s *fun.Stm, e *fun.IfExp, out []int) hcode {
	base := c.slots
	then := c.lazy(sc, e.Then)
	end := c.slots
	c.slots = base // the other branch takes the same slots again
	els := c.lazy(sc, e.Else)
	c.slots = max(c.slots, end)
	cond := sc.lookup(e.Cond.Name)
	return func(m *heapMachine, fr []Value) error {
		var l *lazyBody
		if cond >= 0 && fr[cond].Kind == IntVal && fr[cond].Elem == semantics.IntElem {
			v := &fr[cond]
			// chooseBranch's choice, read off the slot.
			rule := EMemIfF.Name
			l = els
			if v.K != 0 {
				rule, l = EMemIfT.Name, then
			}
			m.opts.Counter.Hit(rule)
		} else {
			old := m.sv
			m.sv = slotVars{fr, sc}
			rule, branch, err := chooseBranch(&m.sv, e)
			m.sv = old
			if err != nil {
				return err
			}
			m.opts.Counter.Hit(rule)
			l = then
			if branch != e.Then {
				l = els
			}
		}
		b := l.get(1)
		if err := b.run(m, fr); err != nil {
			return err
		}
		if err := patternArity(s, len(b.results)); err != nil {
			return err
		}
		// The results may be the slots of the pattern's own names in an
		// outer scope: read them all before writing any.
		switch len(b.results) {
		case 1:
			fr[out[0]] = fr[b.results[0]]
		default:
			vs := make([]Value, len(b.results))
			for i, r := range b.results {
				vs[i] = fr[r]
			}
			for i, v := range vs {
				fr[out[i]] = v
			}
		}
		return nil
	}
}

// hkernel is what a compiled kernel keeps besides its statement: its
// body, compiled at its first start with iterations, in the scope of its
// index (one allocation for both); and what its first start finds of the
// body, whether it writes only its own blocks (heaprace.go) and whether
// its iterations may run in parallel (heap_parallel.go), which walk the
// body: a kernel compiled with the body around it may never start (a
// statement before it stuck; about one in eleven of the passes-valid
// campaign's compiled kernels).
type hkernel struct {
	body              lazyBody
	index             hscope
	started, own, par bool
}

// hKernel is E-MEM-KERNEL: the body for i = 1, …, E(y), each iteration's
// value stored at index_f(L_z, i), the accesses tracked per iteration
// (racefree, eq 4).
func (c *hcompiler) hKernel(sc *hscope, s *fun.Stm, e *fun.KernelExp, out []int) hcode {
	k := &hkernel{index: sc.entry(e.Var.Name, c.newSlot())}
	iv := k.index.slot
	c.initLazy(&k.body, &k.index, e.Body)
	lb := &k.body
	return func(m *heapMachine, fr []Value) error {
		old := m.sv
		m.sv = slotVars{fr, sc}
		n, dest, err := kernelStart(&m.sv, s, e)
		m.sv = old
		if err == nil {
			err = m.opts.Budget.Spend(n, e.Pos(), EMemKernel.Name)
		}
		if err != nil {
			return err
		}
		var body *hbody // compiled before the iterations, which may run in parallel
		if n > 0 {
			body = lb.get(n)
		}
		// A kernel that cannot race runs without a tracker of its own
		// when nothing is traced, and keeps only the trace when traced
		// (heaprace.go).
		if !k.started {
			k.started = true
			k.own = writesOnlyOwnBlocks(s, e) // condition 1 of heaprace.go
			k.par = scalarBody(e)             // heap_parallel.go
		}
		own, par := k.own, k.par
		var t *semantics.Tracker
		safe := own && disjointRows(dest.L) && noArrayIn(fr, sc, dest.Block)
		if m.trace || !safe {
			t = m.pool.get(m.trace)
			t.TraceOnly = safe // traced, it cannot race: the trace only
			t.Expect(n)        // a trace of n iterations, allocated once
			m.h.Push(t)
		}
		k := kernel{s: s, dest: dest, m: n, t: t}
		if t == nil && par && body != nil {
			if w := m.parallelWorkers(n, len(body.stms)); w > 1 {
				if err := m.parallelKernel(&k, body, fr, iv, n, w); err != nil {
					return err
				}
				m.opts.Counter.Hit(EMemKernel.Name)
				fr[out[0]] = dest
				return nil
			}
		}
		if m.stats != nil {
			launch(m.stats, m.depth)
			m.depth++
		}
		for i := int64(1); i <= n; i++ {
			if t != nil {
				t.Start(i)
			}
			fr[iv] = Value{Kind: IntVal, K: i}
			var err error
			if i&semantics.PollMask == 0 { // Ctrl-C is noticed within a long kernel too
				err = m.opts.Budget.Spend(0, e.Pos(), EMemKernel.Name)
			}
			if err == nil {
				err = body.run(m, fr)
			}
			if err == nil {
				if len(body.results) != 1 {
					err = semantics.Stuckf(s.Pat[0].Lparen, EMemKernel.Name, "a kernel body returns one value, not %d", len(body.results))
				} else {
					err = k.storeValue(m.h, i, &fr[body.results[0]])
				}
			}
			if err != nil {
				if t != nil {
					m.h.Pop()
				}
				return k.race(err)
			}
		}
		if t != nil {
			m.h.Pop()
			if m.opts.Trace != nil {
				m.opts.Trace(s, t.Trace)
			}
			m.pool.put(t)
		}
		if m.stats != nil {
			m.depth--
		}
		m.opts.Counter.Hit(EMemKernel.Name)
		fr[out[0]] = dest
		return nil
	}
}

// runStep runs body for the step of the extension form x that has been
// entered (unless entering went wrong: err), gives x the body's results
// in vs, and aborts x on an error.
func runStep(m *heapMachine, x *ext, body *hbody, fr []Value, vs []Value, err error) error {
	if err == nil {
		err = body.run(m, fr)
	}
	if err == nil {
		for i, r := range body.results {
			vs[i] = fr[r]
		}
		err = x.leave(m.h, vs)
	}
	if err != nil {
		x.abort(m.h)
		return x.raceOf(err)
	}
	return nil
}

// turnBuf is the buffer of step i's n results, made when first needed:
// two in turn, as a step's values (a loop's, a fold's accumulator) are
// read by the step after it.
func turnBuf(bufs *[2][]Value, i int64, n int) []Value {
	if bufs[i&1] == nil {
		bufs[i&1] = make([]Value, n)
	}
	return bufs[i&1]
}

// hIndex is E-MEM-INDEX: the word at L(y1, …, yn) in x's block, read
// through the heap (so tracked).
func (c *hcompiler) hIndex(sc *hscope, e *fun.IndexExp, o int) hcode {
	rule := EMemIndex.Name
	arr := sc.lookup(e.Arr.Name)
	idx := make([]int, len(e.Idx))
	for i, y := range e.Idx {
		idx[i] = sc.lookup(y.Name)
	}
	return func(m *heapMachine, fr []Value) error {
		if arr < 0 || fr[arr].Kind != ArrayVal {
			_, err := lookupArray(slotVars{fr, sc}, e.Arr, rule)
			return err
		}
		a := &fr[arr]
		var buf [4]int64
		ks := buf[:0]
		for i, slot := range idx {
			if slot < 0 || fr[slot].Kind != IntVal || fr[slot].Elem != semantics.IntElem {
				_, err := lookupInt(slotVars{fr, sc}, e.Idx[i], rule)
				return err
			}
			ks = append(ks, fr[slot].K)
		}
		off, err := a.L.Apply(ks)
		if err != nil {
			return semantics.Stuckf(e.Pos(), rule, "%v of %s", err, e.Arr.Name)
		}
		k, err := m.h.Read(semantics.Loc{Block: a.Block, Offset: off})
		if err != nil {
			var race semantics.ErrRace
			if errors.As(err, &race) {
				return err
			}
			return semantics.Stuckf(e.Pos(), rule, "%s%v: %v", e.Arr.Name, append([]int64(nil), ks...), err)
		}
		fr[o] = Value{Kind: IntVal, K: k, Elem: a.Elem} // the word, read as x's elements are
		m.opts.Counter.Hit(rule)
		return nil
	}
}

// hScalar is E-MEM-SCALAR: the conventional evaluation of se, compiled;
// where the compiled code finds no value (a variable that is not a
// scalar, a division by zero), fun.EvalNum evaluates se again on the
// slots by name, which gives the tree walker's value or error.
func (c *hcompiler) hScalar(sc *hscope, e *fun.ScalarExp, o int) hcode {
	rule := EMemScalar.Name
	se := c.sexp(sc, e.X)
	ops := fun.SExpOps(e.X)
	return func(m *heapMachine, fr []Value) error {
		var n semantics.Num
		ok := false
		if se != nil {
			n, ok = se(fr)
		}
		if !ok {
			var err error
			if n, err = fun.EvalNum(e.X, slotVars{fr, sc}.num, rule); err != nil {
				return err
			}
		}
		if ops != 0 && m.stats != nil {
			m.stats.Ops += ops
		}
		fr[o] = NumValue(n)
		m.opts.Counter.Hit(rule)
		return nil
	}
}

// engineMutant is the engine's mutation point in the int fast paths of
// compiled scalar expressions (fun/compile_scalar.go; mutants.go).
const engineMutant = "funmem-engine-sub-flipped"

// sexp compiles a scalar expression in scope sc (fun/compile_scalar.go),
// or gives nil (fun.EvalNum's) for code that runs at most once.
func (c *hcompiler) sexp(sc *hscope, e fun.SExp) fun.SExpCode[[]Value] {
	if !c.looped && !c.allLooped {
		return nil
	}
	if c.sexps != nil {
		*c.sexps++
	}
	sx := fun.SExpCompiler[[]Value]{Vars: scopeVars{sc}, Mutant: engineMutant}
	return sx.Compile(e)
}

// scopeVars reads the variables of compiled scalar expressions from the
// slots of the frame, as scope sc resolves them.
type scopeVars struct{ sc *hscope }

// Num reads x as a scalar.
func (v scopeVars) Num(x *fun.Ident) func([]Value) (semantics.Num, bool) {
	slot := v.sc.lookup(x.Name)
	if slot < 0 {
		return func([]Value) (semantics.Num, bool) { return semantics.Num{}, false }
	}
	return func(fr []Value) (semantics.Num, bool) {
		a := &fr[slot]
		return semantics.Num{Elem: a.Elem, Bits: a.K}, a.Kind == IntVal
	}
}

// Ints is the code of the int form f.
func (v scopeVars) Ints(f *fun.IntForm, g fun.SExpCode[[]Value]) fun.SExpCode[[]Value] {
	x, y, z := v.sc.lookup(f.Var(0).Name), v.sc.lookup(f.Var(1).Name), v.sc.lookup(f.Var(2).Name)
	if x < 0 || y < 0 || z < 0 {
		return g // the general code gives up, and fun.EvalNum says why
	}
	if f.Vars() == 2 {
		return func(fr []Value) (semantics.Num, bool) {
			a, b := &fr[x], &fr[y]
			if isIntValue(a) && isIntValue(b) {
				if k, ok := f.Eval(a.K, b.K, b.K); ok {
					return semantics.IntNum(k), true
				}
			}
			return g(fr)
		}
	}
	return func(fr []Value) (semantics.Num, bool) {
		a, b, c := &fr[x], &fr[y], &fr[z]
		if isIntValue(a) && isIntValue(b) && isIntValue(c) {
			if k, ok := f.Eval(a.K, b.K, c.K); ok {
				return semantics.IntNum(k), true
			}
		}
		return g(fr)
	}
}

// isIntValue says whether v is an int scalar.
func isIntValue(v *Value) bool { return v.Kind == IntVal && v.Elem == semantics.IntElem }

// Int reads x as an int.
func (v scopeVars) Int(x *fun.Ident) func([]Value) (int64, bool) {
	slot := v.sc.lookup(x.Name)
	if slot < 0 {
		return func([]Value) (int64, bool) { return 0, false }
	}
	return func(fr []Value) (int64, bool) {
		a := &fr[slot]
		return a.K, isIntValue(a)
	}
}
