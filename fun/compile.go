package fun

import (
	"sync"
	"sync/atomic"

	"github.com/arraysem/arraysem/semantics"
)

// The big-step semantics of Fig 4, compiled. Walking the tree with an
// environment of names (as the small-step does) costs a list search per
// variable read and a boxed array per scalar; here each program is
// compiled once per run, each body when it first runs (lazyBody):
//
//   - every binding occurrence of a variable (an input, a pattern's
//     variable, a kernel's or loop's index, an operator's parameter) gets
//     a slot of one flat frame, and every use is resolved, by the scoping
//     of Fig 4 (E, x ↦ v shadows), to the slot of the binding it sees;
//   - each rule becomes a Go closure over those slots, named by the rule
//     (eScalar, eIndex, eIf, eKernel, … and, for bodies, E-LET and E-IN in
//     bodyCode.run): running the closures is running the rules;
//   - scalars stay unboxed in their slots (val), and a kernel writes its
//     items into one flat buffer (stacker), so an iteration of a kernel
//     whose body computes scalars allocates nothing.
//
// The rules' starts and checks that run once per kernel, loop or fold
// (kernelStart, loopStart, foldStart, …), the atomic rules that copy
// arrays (E-SLICE, E-TRANSPOSE, E-IOTA, E-COPY: evalAtomic) and every
// error message are the small-step's own (eval.go, eval_ext.go), read
// through slotVars; the rules on the hot path (E-INDEX, E-IF, E-IN,
// E-LET, the iterations) read slots directly and, when a value is not
// what the rule needs, box it and call the same check, so both semantics
// are stuck in the same rule with the same message. E-SCALAR's and
// E-ASSERT's expressions are compiled by compile_scalar.go, reading the
// slots (scopeVars); where that code finds no value, EvalNum evaluates the
// expression again by name (evalSExp), as the small-step does.
//
// Derivations and rule counts are built as the rules apply when asked
// for (machine.plain is false then); a plain run builds neither. A
// kernel's iterations may run on several goroutines (parallel.go).

// val is a value in a slot: a scalar unboxed (its element type and bits;
// shape and data nil) or an array (rank ≥ 1: its element type, shape and
// flat elements, as semantics.Array holds them).
type val struct {
	elem  semantics.Elem
	bits  int64
	shape []int64
	data  []int64
}

// intVal is the int scalar k.
func intVal(k int64) val { return val{bits: k} }

// numVal is the scalar n.
func numVal(n semantics.Num) val { return val{elem: n.Elem, bits: n.Bits} }

// valOf unboxes a value.
func valOf(a semantics.Array) val {
	if a.IsScalar() {
		return val{elem: a.Elem, bits: a.Data[0]}
	}
	return val{elem: a.Elem, shape: a.Shape, data: a.Data}
}

// isScalar reports whether v has rank 0.
func (v *val) isScalar() bool { return len(v.shape) == 0 }

// isInt reports whether v is an int scalar.
func (v *val) isInt() bool { return len(v.shape) == 0 && v.elem == semantics.IntElem }

// array boxes v (allocating a one-element buffer for a scalar).
func (v *val) array() semantics.Array {
	if v.isScalar() {
		return semantics.Array{Elem: v.elem, Data: []int64{v.bits}}
	}
	return semantics.Array{Elem: v.elem, Shape: v.shape, Data: v.data}
}

// scope is the compile-time environment: each name in scope and its
// slot, innermost first, as Env holds names and values.
type scope struct {
	name string
	slot int
	next *scope
}

// bind is the scope sc, x ↦ slot.
func (sc *scope) bind(x string, slot int) *scope { return &scope{name: x, slot: slot, next: sc} }

// lookup is the slot of x's innermost binding, or -1 when x is unbound.
func (sc *scope) lookup(x string) int {
	for ; sc != nil; sc = sc.next {
		if sc.name == x {
			return sc.slot
		}
	}
	return -1
}

// slotVars reads, by name, the variables in scope at one point of the
// program: the vars the shared rule helpers read.
type slotVars struct {
	fr []val
	sc *scope
}

// Lookup is E(x) at that point.
func (v slotVars) Lookup(x string) (semantics.Array, bool) {
	i := v.sc.lookup(x)
	if i < 0 {
		return semantics.Array{}, false
	}
	return v.fr[i].array(), true
}

// The reads of a slot by the hot-path rules: the value when it is what
// the rule needs, else the error lookupInt or lookupArray gives (slot
// -1: the variable is unbound). Scalar expressions read theirs by
// scopeVars, and give up to EvalNum (evalSExp).

func intAt(fr []val, slot int, x *Ident, rule string) (int64, error) {
	if slot >= 0 && fr[slot].isInt() {
		return fr[slot].bits, nil
	}
	if slot < 0 {
		return 0, unbound(x, rule)
	}
	return intOf(x, fr[slot].array(), rule)
}

func arrayAt(fr []val, slot int, x *Ident, rule string) (*val, error) {
	if slot >= 0 && !fr[slot].isScalar() {
		return &fr[slot], nil
	}
	if slot < 0 {
		return nil, unbound(x, rule)
	}
	_, err := arrayOf(x, fr[slot].array(), rule)
	return nil, err
}

// machine is what a run of compiled code needs besides the frame: what
// to record, and how many goroutines a kernel may use.
type machine struct {
	derive  bool
	counter semantics.Counter
	plain   bool  // neither derivations nor counts: no rule is recorded
	jobs    int   // goroutines a kernel may run its iterations on (1: sequential)
	minWork int64 // the work under which a kernel stays sequential (EvalOptions.MinParallelWork)
	// stats are the cost counters (nil: none; eval_stats.go), depth the
	// parallel forms whose bodies are running (a launch is at 0).
	stats *semantics.Stats
	depth int
	// budget is the run's fuel, shared with its workers.
	budget *semantics.Budget
}

func newMachine(o *EvalOptions) *machine {
	minWork := o.MinParallelWork
	if minWork <= 0 {
		minWork = DefaultMinParallelWork
	}
	return &machine{derive: o.Derive, counter: o.Counter, plain: !o.Derive && o.Counter == nil, jobs: semantics.Jobs(o.Jobs), stats: o.Stats, minWork: minWork,
		budget: semantics.NewBudget(o.Fuel)}
}

// spend spends n iterations of the form e (rule) from the run's fuel.
func (m *machine) spend(n int64, e Exp, rule string) error { return m.budget.Spend(n, e.Pos(), rule) }

// worker is the machine of a goroutine of a parallel kernel or map
// started by m: plain and sequential, inside the form, counting into a
// fork of m's counters (nil when m counts none), which join collects.
func (m *machine) worker() *machine {
	w := &machine{plain: true, jobs: 1, depth: m.depth, budget: m.budget}
	if m.stats != nil {
		w.stats = m.stats.Fork()
	}
	return w
}

// join adds the counts of the workers' machines to m's.
func (m *machine) join(ws []*machine) {
	if m.stats == nil {
		return
	}
	for _, w := range ws {
		m.stats.Join(w.stats)
	}
}

// node counts a rule and, when a derivation is asked for, builds its node;
// the conclusion is rendered only then (it costs more than the rule).
func (m *machine) node(rule string, concl func() string, premises ...*semantics.Derivation) *semantics.Derivation {
	return semantics.Deriver{Derive: m.derive, Counter: m.counter}.Node(rule, concl, premises...)
}

// code is a compiled statement: it runs E ⊢ e ⇓ (v1, …, vn) for the
// statement's expression, leaves v1, …, vn in the slots of its pattern
// (E-LET's binding), and returns the expression's derivation (nil unless
// asked for).
type code func(m *machine, fr []val) (*semantics.Derivation, error)

// bodyCode is a compiled body: its statements, and the slots of its
// results (-1 for a variable that is not in scope).
type bodyCode struct {
	b       *Body
	stms    []code
	results []int
	// weight is the number of statements the body runs, each nested body
	// counted once: a kernel's work per iteration, which decides whether
	// its iterations are worth spreading over goroutines.
	weight int
}

// compiler allocates slots, and compiles the int fast paths unless told
// not to (EvalOptions.NoIntFastPaths).
type compiler struct {
	slots int
	// looped: the code being compiled may run more than once in the run
	// (it is in a body that iterates, or whose form may start again).
	// Code that runs at most once leaves its scalar expressions to
	// EvalNum: compiling them costs more than evaluating them once.
	looped bool
	// next is the index in shapes of the next body a form of the body
	// being compiled has.
	next int
	*compilation
}

// compilation is what every body of a program is compiled with.
type compilation struct {
	noFastOp bool
	stats    bool // the run counts costs: the statements' counts are computed
	// shapes are the program's bodies' (shapes).
	shapes []bodyShape
	// compiled, when not nil, is told each body compiled (tests).
	compiled func(*Body)
}

// Compiled when first run. The body of a kernel, loop, fold, filter or
// redomap is compiled when the form first needs it (at a start with
// iterations, or for a fold whose operator's int step gives up), an
// if's branch when it is first taken (lazyBody.get): a body that never
// runs costs nothing, and on the campaigns' small programs compiling
// costs more than running. Each lazy body has its slots reserved when
// the statement around it is compiled (shapes counts them, once for the
// program), so the frame is made once, at its full size, and a slot's
// number does not depend on when its body was compiled. Compiling never
// fails (an unbound variable is found as the code runs), so compiling
// later changes no outcome.

// newSlot is a fresh slot.
func (c *compiler) newSlot() int { c.slots++; return c.slots - 1 }

// bodyShape is what compiling a body takes: its slots, its weight, and
// the number of bodies it is made of (itself and those nested in it).
//
// The slots are a stack. A body's patterns take a slot each, in order,
// live until the body ends; a statement's form takes the slots above its
// pattern's (the values of a pattern of another arity, the form's
// variables, its bodies' slots), which are dead once the statement has
// run (its values are in its pattern's slots by then), so the next
// statement's pattern and form take them again; so do an if's two
// branches, of which one runs. A body takes the most slots any of its
// statements has live at once.
type bodyShape struct{ slots, weight, bodies int }

// shapes are the shapes of b and of every body nested in it, in the order
// the compiler meets them (a body, then the bodies of its statements'
// forms in order, each with those nested in it).
func shapes(b *Body) []bodyShape {
	t := make([]bodyShape, 0, 8)
	shapeInto(&t, b)
	return t
}

// shapeInto appends b's shape and its nested bodies' to t, and returns
// b's.
func shapeInto(t *[]bodyShape, b *Body) bodyShape {
	k := len(*t)
	*t = append(*t, bodyShape{})
	sh := bodyShape{weight: 1, bodies: 1}
	pats := 0 // the slots of the patterns so far
	for _, s := range b.Stms {
		pats += len(s.Pat)
		// The slots its form takes: the values of a pattern of another
		// arity, the variables it binds, its bodies' slots; and its
		// weight (compiler.exp's).
		var vars int
		if n, known := arity(s); known && n != len(s.Pat) {
			vars = n
		}
		var b1, b2 bodyShape
		switch e := s.Exp.(type) {
		case *IfExp:
			b1, b2 = shapeInto(t, e.Then), shapeInto(t, e.Else)
			b1.weight, b2.weight = max(b1.weight, b2.weight), 0
			b1.slots, b2.slots = max(b1.slots, b2.slots), 0
		case *KernelExp:
			vars, b1 = vars+1, shapeInto(t, e.Body)
		case *LoopExp:
			vars, b1 = vars+len(e.Params)+1, shapeInto(t, e.Body)
		case *ReduceExp:
			vars, b1 = vars+2, shapeInto(t, e.Body)
		case *ScanExp:
			vars, b1 = vars+2, shapeInto(t, e.Body)
		case *FilterExp:
			vars, b1 = vars+1, shapeInto(t, e.Body)
		case *RedomapExp:
			vars, b1, b2 = vars+3, shapeInto(t, e.Map), shapeInto(t, e.Op)
		default:
			b1.weight = 1
		}
		sh.slots = max(sh.slots, pats+vars+b1.slots+b2.slots)
		sh.bodies += b1.bodies + b2.bodies
		sh.weight += b1.weight + b2.weight
	}
	(*t)[k] = sh
	return sh
}

// lazyBody is a body compiled when first run, in the scope of the
// statement around it, into the slots base, base+1, … reserved for it.
type lazyBody struct {
	b      *Body
	sc     *scope
	base   int
	index  int  // in the program's shapes
	slots  int  // the number reserved for it
	weight int  // the compiled body's weight
	looped bool // the form around it may start more than once
	prog   *compilation
	mu     sync.Mutex // the iterations of a parallel kernel may first run a nested body at once
	code   atomic.Pointer[bodyCode]
}

// lazy is body b, in scope sc, the next body of the body being compiled,
// to be compiled when first run; its slots are reserved now.
func (c *compiler) lazy(sc *scope, b *Body) *lazyBody {
	k := c.next
	sh := c.shapes[k]
	c.next += sh.bodies
	l := &lazyBody{b: b, sc: sc, base: c.slots, index: k, slots: sh.slots, weight: sh.weight, looped: c.looped, prog: c.compilation}
	c.slots += sh.slots
	return l
}

// get is the compiled body, compiled now if it was not, for a start of
// the form around it that runs it runs times (1 for an if's branch): it
// runs more than once if that start does, or if the form may start again.
func (l *lazyBody) get(runs int64) *bodyCode {
	if bc := l.code.Load(); bc != nil {
		return bc
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if bc := l.code.Load(); bc != nil {
		return bc
	}
	c := &compiler{slots: l.base, looped: l.looped || runs > 1, next: l.index + 1, compilation: l.prog}
	bc := c.body(l.sc, l.b)
	if sh := l.prog.shapes[l.index]; c.slots != l.base+sh.slots || bc.weight != sh.weight || c.next != l.index+sh.bodies {
		panic("fun: compiling a body took other slots than its shape reserved") // a bug in shapeInto
	}
	if l.prog.compiled != nil {
		l.prog.compiled(l.b)
	}
	l.code.Store(bc)
	return bc
}

// compiled is a compiled program, with the values of its inputs.
type compiled struct {
	body   *bodyCode
	slots  int
	inputs []val // the frame's first slots
}

// compileProgram compiles p's body in the scope of the input environment.
func compileProgram(p *Program, inputs *Env, o *EvalOptions) *compiled {
	c := &compiler{next: 1, compilation: &compilation{noFastOp: o.NoIntFastPaths, stats: o.Stats != nil, shapes: shapes(p.Body), compiled: o.compiled}}
	var sc *scope
	var vals []val
	bs := inputs.Bindings()
	for i := len(bs) - 1; i >= 0; i-- { // outermost first: each name once
		sc = sc.bind(bs[i].Name, c.newSlot())
		vals = append(vals, valOf(bs[i].Value))
	}
	body := c.body(sc, p.Body)
	return &compiled{body: body, slots: c.slots, inputs: vals}
}

// run is E ⊢ b ⇓ (v, …, v) for the program's body.
func (p *compiled) run(m *machine) ([]semantics.Array, *semantics.Derivation, error) {
	fr := make([]val, p.slots)
	copy(fr, p.inputs)
	d, err := p.body.run(m, fr)
	if err != nil {
		return nil, nil, err
	}
	return p.body.values(fr), d, nil
}

// body compiles b in scope sc: each statement's pattern binds fresh slots,
// in scope for the statements after it and the results.
func (c *compiler) body(sc *scope, b *Body) *bodyCode {
	bc := &bodyCode{b: b, weight: 1, stms: make([]code, len(b.Stms)), results: make([]int, len(b.Result))}
	// The body's slots and scope entries, each in one allocation.
	binds := 0
	for _, s := range b.Stms {
		binds += len(s.Pat)
	}
	slots, scopes := make([]int, binds), make([]scope, binds)
	peak := c.slots
	for j, s := range b.Stms {
		out := slots[:len(s.Pat):len(s.Pat)]
		slots = slots[len(s.Pat):]
		for i := range out {
			out[i] = c.newSlot()
		}
		// The statement's form takes the slots above its pattern's,
		// which the next statement takes again (bodyShape).
		mark := c.slots
		st, w := c.stm(sc, s, out)
		peak = max(peak, c.slots)
		c.slots = mark
		bc.stms[j] = st
		bc.weight += w
		for i, p := range s.Pat {
			scopes[0] = scope{name: p.Name.Name, slot: out[i], next: sc}
			sc, scopes = &scopes[0], scopes[1:]
		}
	}
	for i, x := range b.Result {
		bc.results[i] = sc.lookup(x.Name)
	}
	c.slots = max(peak, c.slots)
	return bc
}

// run is E ⊢ b ⇓ (v, …, v): E-LET for each statement, then E-IN. The
// values are left in the result slots (values reads them).
//
// With cost counters, the arrays its statements made die when it ends.
func (b *bodyCode) run(m *machine, fr []val) (*semantics.Derivation, error) {
	live := int64(-1)
	if m.stats != nil {
		live = m.stats.Live()
	}
	var stmDerivs []*semantics.Derivation
	for i, s := range b.stms {
		d, err := s(m, fr)
		if err != nil {
			return nil, err
		}
		if m.stats != nil && m.stats.Runs != nil {
			m.stats.Runs[b.b.Stms[i].Let]++
		}
		if m.derive {
			stmDerivs = append(stmDerivs, d)
		}
	}
	// E-IN: E(x_i) = v_i.
	for i, r := range b.results {
		if r < 0 {
			return nil, unbound(b.b.Result[i], EIn.Name)
		}
	}
	if live >= 0 {
		m.stats.SetLive(live)
	}
	if m.plain {
		return nil, nil
	}
	vs := b.values(fr)
	d := m.node(EIn.Name, func() string { return "E ⊢ " + bodyHead(b.b, len(b.b.Stms)) + " ⇓ " + valuesString(vs) })
	for i := len(b.stms) - 1; i >= 0; i-- {
		var prem *semantics.Derivation
		if stmDerivs != nil {
			prem = stmDerivs[i]
		}
		d = m.node(ELet.Name, func() string { return "E ⊢ " + bodyHead(b.b, i) + " ⇓ " + valuesString(vs) }, prem, d)
	}
	return d, nil
}

// values are the body's results, boxed (after run).
func (b *bodyCode) values(fr []val) []semantics.Array {
	return slotValues(fr, b.results)
}

// slotValues boxes the values in the given slots.
func slotValues(fr []val, slots []int) []semantics.Array {
	vs := make([]semantics.Array, len(slots))
	for i, s := range slots {
		vs[i] = fr[s].array()
	}
	return vs
}

// conclusion renders E ⊢ e ⇓ (v, …) for statement s, its values in the
// slots out.
func conclusion(s *Stm, fr []val, out []int) func() string {
	return func() string { return "E ⊢ " + expHead(s.Exp) + " ⇓ " + valuesString(slotValues(fr, out)) }
}

// stm compiles statement s, whose pattern binds the slots out, in scope
// sc, and returns its weight (statements run, bodies counted once). Every
// form gives a number of values known from its syntax except if (whose
// branches may differ): when that number is not the pattern's, the values
// go to slots of their own and E-LET is stuck after the expression ran.
func (c *compiler) stm(sc *scope, s *Stm, out []int) (code, int) {
	n, known := arity(s)
	if !known || n == len(out) {
		return c.exp(sc, s, out)
	}
	tmp := make([]int, n)
	for i := range tmp {
		tmp[i] = c.newSlot()
	}
	exp, w := c.exp(sc, s, tmp)
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		if _, err := exp(m, fr); err != nil {
			return nil, err
		}
		return nil, patternArity(s, n)
	}, w
}

// arity is the number of values s's expression gives, when its syntax
// says (not for if, nor for a kernel, whose start checks its pattern,
// nor for a form no rule evaluates).
func arity(s *Stm) (int, bool) {
	switch e := s.Exp.(type) {
	case *ScalarExp, *IndexExp, *SliceExp, *TransposeExp, *IotaExp, *CopyExp, *AssertExp, *ReduceExp, *ScanExp, *RedomapExp:
		return 1, true
	case *LoopExp:
		return len(e.Params), true
	case *FilterExp:
		return 2, true
	}
	return 0, false
}

// exp compiles s's expression, its values going to the slots out.
func (c *compiler) exp(sc *scope, s *Stm, out []int) (code, int) {
	switch e := s.Exp.(type) {
	case *ScalarExp:
		return c.eScalar(sc, s, e, out), 1
	case *IndexExp:
		return c.eIndex(sc, s, e, out), 1
	case *IfExp:
		return c.eIf(sc, s, e, out)
	case *KernelExp:
		return c.eKernel(sc, s, e, out)
	case *AssertExp:
		return c.eAssert(sc, s, e, out), 1
	case *LoopExp:
		return c.eLoop(sc, s, e, out)
	case *ReduceExp:
		return c.eReduce(sc, s, e, out)
	case *ScanExp:
		return c.eScan(sc, s, e, out)
	case *FilterExp:
		return c.eFilter(sc, s, e, out)
	case *RedomapExp:
		return c.eRedomap(sc, s, e, out)
	}
	return c.atomic(sc, s, out), 1
}

// atomic is E-SLICE, E-TRANSPOSE, E-IOTA and E-COPY (and the stuck state
// of a form no rule evaluates): the small-step's evalAtomic, reading the
// slots by name.
func (c *compiler) atomic(sc *scope, s *Stm, out []int) code {
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		vs, rule, err := evalAtomic(slotVars{fr, sc}, s)
		if err != nil {
			return nil, err
		}
		if m.stats != nil {
			atomicCosts(m.stats, m.depth, s, vs)
		}
		fr[out[0]] = valOf(vs[0]) // every atomic rule gives one value
		if m.plain {
			return nil, nil
		}
		return m.node(rule, conclusion(s, fr, out)), nil
	}
}

// eScalar is E-SCALAR: the conventional evaluation of se (EvalNum),
// compiled.
func (c *compiler) eScalar(sc *scope, s *Stm, e *ScalarExp, out []int) code {
	se := c.sexp(sc, e.X)
	o := out[0]
	var ops int64
	if c.stats {
		ops = SExpOps(e.X)
	}
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		k, err := evalSExp(se, e.X, fr, sc, EScalar.Name)
		if err != nil {
			return nil, err
		}
		if ops != 0 && m.stats != nil {
			m.stats.Ops += ops
		}
		fr[o] = numVal(k)
		if m.plain {
			return nil, nil
		}
		return m.node(EScalar.Name, conclusion(s, fr, out)), nil
	}
}

// engineMutant is the engine's mutation point in the int fast paths
// (compile_scalar.go; mutants.go).
const engineMutant = "fun-engine-sub-flipped"

// sexp compiles a scalar expression in scope sc (compile_scalar.go), or
// gives nil (EvalNum's) for code that runs at most once.
func (c *compiler) sexp(sc *scope, e SExp) SExpCode[[]val] {
	if !c.looped {
		return nil
	}
	sx := SExpCompiler[[]val]{Vars: scopeVars{sc}, NoIntFastPaths: c.noFastOp, Mutant: engineMutant}
	return sx.Compile(e)
}

// evalSExp is E ⊢ se ⇓ v by the compiled code se of e, or, where it gives
// up or there is none, by EvalNum on the slots by name, which gives the
// rules' value or their stuck state in rule.
func evalSExp(se SExpCode[[]val], e SExp, fr []val, sc *scope, rule string) (semantics.Num, error) {
	if se != nil {
		if v, ok := se(fr); ok {
			return v, nil
		}
	}
	return EvalNum(e, slotVars{fr, sc}.num, rule)
}

// num is x read as a scalar by name (EvalNum's lookup), without boxing
// it: what numLookup gives.
func (v slotVars) num(x *Ident, rule string) (semantics.Num, error) {
	i := v.sc.lookup(x.Name)
	if i < 0 {
		return semantics.Num{}, unbound(x, rule)
	}
	if a := &v.fr[i]; a.isScalar() {
		return semantics.Num{Elem: a.elem, Bits: a.bits}, nil
	}
	return numOf(x, v.fr[i].array(), rule)
}

// scopeVars reads the variables of compiled scalar expressions from the
// slots of the frame, as scope sc resolves them.
type scopeVars struct{ sc *scope }

// Num reads x as a scalar.
func (v scopeVars) Num(x *Ident) func([]val) (semantics.Num, bool) {
	slot := v.sc.lookup(x.Name)
	if slot < 0 {
		return func([]val) (semantics.Num, bool) { return semantics.Num{}, false }
	}
	return func(fr []val) (semantics.Num, bool) {
		a := &fr[slot]
		return semantics.Num{Elem: a.elem, Bits: a.bits}, len(a.shape) == 0
	}
}

// Ints is the code of the int form f.
func (v scopeVars) Ints(f *IntForm, g SExpCode[[]val]) SExpCode[[]val] {
	x, y, z := v.sc.lookup(f.Var(0).Name), v.sc.lookup(f.Var(1).Name), v.sc.lookup(f.Var(2).Name)
	if x < 0 || y < 0 || z < 0 {
		return g // the general code gives up, and EvalNum says why
	}
	if f.Vars() == 2 {
		return func(fr []val) (semantics.Num, bool) {
			a, b := &fr[x], &fr[y]
			if a.isInt() && b.isInt() {
				if k, ok := f.Eval(a.bits, b.bits, b.bits); ok {
					return semantics.IntNum(k), true
				}
			}
			return g(fr)
		}
	}
	return func(fr []val) (semantics.Num, bool) {
		a, b, c := &fr[x], &fr[y], &fr[z]
		if a.isInt() && b.isInt() && c.isInt() {
			if k, ok := f.Eval(a.bits, b.bits, c.bits); ok {
				return semantics.IntNum(k), true
			}
		}
		return g(fr)
	}
}

// Int reads x as an int.
func (v scopeVars) Int(x *Ident) func([]val) (int64, bool) {
	slot := v.sc.lookup(x.Name)
	if slot < 0 {
		return func([]val) (int64, bool) { return 0, false }
	}
	return func(fr []val) (int64, bool) {
		a := &fr[slot]
		return a.bits, a.isInt()
	}
}

// eIndex is E-INDEX: x[y1, …, yn] with one in-bounds index per dimension
// is the element there.
func (c *compiler) eIndex(sc *scope, s *Stm, e *IndexExp, out []int) code {
	rule := EIndex.Name
	arr := sc.lookup(e.Arr.Name)
	idx := make([]int, len(e.Idx))
	for i, y := range e.Idx {
		idx[i] = sc.lookup(y.Name)
	}
	o := out[0]
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		a, err := arrayAt(fr, arr, e.Arr, rule)
		if err != nil {
			return nil, err
		}
		var buf [4]int64
		ks := buf[:0]
		for i, slot := range idx {
			k, err := intAt(fr, slot, e.Idx[i], rule)
			if err != nil {
				return nil, err
			}
			ks = append(ks, k)
		}
		if len(ks) != len(a.shape) {
			return nil, semantics.Stuckf(e.Pos(), rule, "%s has rank %d but is indexed with %d indices", e.Arr.Name, len(a.shape), len(ks))
		}
		off := int64(0)
		for d, k := range ks {
			if k < 1 || k > a.shape[d] {
				return nil, semantics.Stuckf(e.Pos(), rule, "%v of %s", semantics.ErrBounds{Dim: d + 1, Index: k, Extent: a.shape[d]}, e.Arr.Name)
			}
			off = off*a.shape[d] + k - 1
		}
		fr[o] = val{elem: a.elem, bits: a.data[off]}
		if m.stats != nil {
			m.stats.Ops++ // the read
		}
		if m.plain {
			return nil, nil
		}
		return m.node(rule, conclusion(s, fr, out)), nil
	}
}

// eIf is E-IF-TRUE and E-IF-FALSE: the branch the condition chooses, its
// results bound by the pattern.
func (c *compiler) eIf(sc *scope, s *Stm, e *IfExp, out []int) (code, int) {
	cond := sc.lookup(e.Cond.Name)
	base := c.slots
	then := c.lazy(sc, e.Then)
	c.slots = base // one branch runs: the other takes its slots again
	els := c.lazy(sc, e.Else)
	c.slots = max(c.slots, then.base+then.slots)
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		k, err := intAt(fr, cond, e.Cond, EIf.Name)
		if err != nil {
			return nil, err
		}
		rule, b := branch(e, k)
		l := then
		if b != e.Then {
			l = els
		}
		bc := l.get(1)
		d, err := bc.run(m, fr)
		if err != nil {
			return nil, err
		}
		if !m.plain {
			d = m.node(rule, conclusion(s, fr, bc.results), d)
		}
		if err := patternArity(s, len(bc.results)); err != nil {
			return nil, err
		}
		for i, r := range bc.results {
			fr[out[i]] = fr[r]
		}
		return d, nil
	}, max(then.weight, els.weight)
}

// eKernel is E-KERNEL: the body for x = 1, …, E(y), its values stacked
// into [v1, …, vm] of the item shape the pattern declares.
func (c *compiler) eKernel(sc *scope, s *Stm, e *KernelExp, out []int) (code, int) {
	iv := c.newSlot()
	lb := c.lazy(sc.bind(e.Var.Name, iv), e.Body)
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		n, cell, err := kernelStart(slotVars{fr, sc}, s, e)
		if err == nil {
			err = m.spend(n, e, EKernel.Name)
		}
		if err != nil {
			return nil, err
		}
		var body *bodyCode
		if n > 0 {
			body = lb.get(n)
		}
		st, mis := newStacker(s.Pat[0].Type.Elem, n, cell), noMisfit()
		words := n * elems(cell)
		if m.stats != nil { // a launch, making its array
			launch(m.stats, m.depth)
			m.stats.Alloc(words)
			m.depth++
		}
		var prem []*semantics.Derivation
		if w := m.workers(n, lb.weight); w > 1 {
			if err := parallelKernel(m, w, fr, iv, n, body, e, st, &mis); err != nil {
				return nil, err
			}
		} else {
			for i := int64(1); i <= n; i++ {
				fr[iv] = intVal(i)
				d, err := body.run(m, fr)
				if err != nil {
					return nil, err
				}
				if err := kernelArity(e, len(body.results)); err != nil {
					return nil, err
				}
				if v := &fr[body.results[0]]; !st.put(i-1, v) {
					mis.note(i-1, v)
				}
				if m.derive {
					prem = append(prem, d)
				}
			}
		}
		v, err := st.finish(&mis)
		if err != nil {
			return nil, kernelStuck(s, err)
		}
		if m.stats != nil { // its items' elements written
			m.stats.Ops += words
			m.depth--
		}
		fr[out[0]] = v
		if m.plain {
			return nil, nil
		}
		return m.node(EKernel.Name, conclusion(s, fr, out), prem...), nil
	}, lb.weight
}
