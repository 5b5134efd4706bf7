package imp

import (
	"math"
	"slices"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// The big-step semantics runs a program compiled once per run: IMP's
// scopes are static, so every variable the program names gets a slot of
// one flat environment, and each statement becomes a node holding its
// slots and its scalar expressions compiled to closures over slots.
//
// Compiled when first run. A kernel's, for's or fold's body is compiled
// when it first runs an iteration, an if's branch when it is first taken
// (parts, forBody, branch), with what was around the statement (the loop
// whose hoisted sums it takes part in, the scopes of the cost counters):
// a body that never runs costs nothing. Code that runs at most once
// (outside every loop) keeps its expressions for the reference evaluator
// (exp). The slots made then take the values of the environment the run
// started from (grow): no statement that has run mentions their names.
//
// Scopes without copies. E-IMP-KERNEL runs each iteration in a copy of E,
// I-FOR each iteration in a copy whose values go back to E, and a fold's
// element and combine parts in copies. Here every iteration runs in the
// one environment: it saves the slots its body may assign (the save set,
// found from the syntax: targets of var, <-, alloc, reads and reduce, in
// the body and its ifs and fors, not in nested kernels and folds, which
// restore their own) with the index, and puts them back after, which is
// the copy's effect. A for keeps the body's values of the variables
// declared before the iteration and drops those it declared. On an error
// the saved slots go back too, so the environment the caller sees is the
// one the map-based small-step leaves (the tests compare them).
//
// Scalar expressions, compiled by FUN's compiler (fun/compile_scalar.go)
// over the environment's slots (envVars). A compiled expression computes
// the value on the common path (declared variables of the right type, no
// division by zero) without allocating; on anything else it gives up, and
// fun.EvalNum or fun.EvalSExp evaluates the expression again over the
// slots, which gives the value or the error the rules give (expressions
// have no effects).
//
// Race tracking is the heap's: a kernel's and a fold's trackers are pushed
// for their iterations only, and a kernel or fold reuses the table of one
// that has ended (semantics.Tracker.Reset).

// slot is a variable's entry: its value, and whether it is declared. An
// undeclared slot holds the zero Value (a read into an undeclared x reads
// the word as an int, as the map-based semantics does).
type slot struct {
	v  Value
	ok bool
}

// setNum declares the slot with the scalar n. It writes the fields one by
// one: the composite literal slot{v: NumValue(n), ok: true} is built in
// temporaries on the stack with narrow stores and copied out with wide
// loads, which the processor cannot forward (a store-forwarding stall on
// every assignment, about half of a kernel of int statements' time).
func (s *slot) setNum(n semantics.Num) {
	s.v.Mem, s.v.Defined, s.v.Elem, s.v.K, s.v.L = false, false, n.Elem, n.Bits, 0
	s.ok = true
}

// cexp is a compiled scalar expression over the environment: its value,
// or false where the reference evaluator must decide (an error, or a type
// the compiled code does not take).
type cexp = fun.SExpCode[[]slot]

// cstmt is a compiled statement.
type cstmt struct {
	s        Stmt
	exec     func(*machine, *cstmt) error // runs it by its rule (execOf)
	x, y     int32                        // slots: the target (the index of a loop), a block
	a, b     cexp                         // compiled expressions (see compile)
	next     *cstmt                       // a declaration's: the read or assignment of its variable run with it (declThen)
	then     *cstmt                       // and the write after a read (execDeclReadWrite)
	declV    Value                        // a declaration's initial value
	rule     string                       // and its rule
	offX     int32                        // a read's or write's offset when it is the variable offX + offK (-1: no)
	valX     int32                        // a write's value when it is a variable (-1: no)
	offK     int64
	isVarMem bool // an Assign whose right side is a variable (maybe a block)
	selfRef  bool // a read's or assignment's: the right side mentions the target
	sameOff  bool // a copy's write (then): its offset is the read's expression, which does not mention the read's target
	allocIn  bool // a kernel's or fold's: its body allocates (the live words go back after each iteration)
	// What only an if, a kernel, a for or a fold compiles (nil for the
	// other statements, most of a program's: a statement's node was
	// more than half again the size with them).
	*cext

	// Cost counters (stats.go), set when the run counts them.
	ops   int64  // the Ops the statement (with next and then) counts when it has run
	owner *cstmt // an alloc's: the if or for whose branch or iteration its block dies with (nil: the program, or a kernel's or fold's iteration)
}

// cext is the part of an if's, a kernel's, a for's or a fold's cstmt that
// other statements do not have. A parallel kernel's workers have a copy
// of their kernel's (parallel.go).
type cext struct {
	body   []*cstmt
	body2  []*cstmt // an if's else, a fold's combine part
	save   []int32  // the slots a kernel's, for's or fold element's iteration saves
	buf    []slot
	epoch  uint64  // a kernel's or for's: its starts so far (hoisted sums)
	died   int64   // an if's or for's: the words allocated to its branch's or iteration's own declarations, which die with it (stats.go)
	save2  []int32 // a fold combine's save set
	buf2   []slot
	fold   *Fold
	xa, xb int32 // a fold's a and b
	// A fold's combine part as one int operation (intfold.go), or nil,
	// and the operations its statements count (stats.go).
	intStep    func(acc, y int64) (int64, bool)
	combineOps int64
	yield      int32
	result     int32
	addr       cexp      // a scan's offset
	plan       *racePlan // a kernel's race-freedom plan (racefree.go), nil for none
	planned    bool      // a kernel's: plan is made (at its first start: planOf)
	compiled   bool      // its body (an if's then), or a fold's parts, are compiled (when first run: parts, branch, forBody)
	compiled2  bool      // an if's else is compiled
	// An if's or for's: the innermost loop and the scopes around it (the
	// scopes when the run counts costs only), to compile its bodies in;
	// and an if's, kernel's, for's or fold's: whether it may run more
	// than once.
	inner     *loopCtx
	scopes    []scopeCtx
	looped    bool
	keep      []int   // a kernel's: the indices in save of the slots each iteration puts back (restoreKeep)
	reads     int     // a kernel's: the reads of its body's top level (semantics.NewKernelTrace)
	writes    int     // and its writes
	copy      *cstmt  // a kernel's whose body is one affine copy (copyOf): that body
	par       bool    // a kernel's whose body may run on goroutines (parallelizable)
	untracked bool    // a reduce's whose parts write nothing (writeFree), or a scan's that cannot race if its reads' blocks are not its own (untrackedScan), in a run without a trace
	scanReads []int32 // such a scan's: the block variables its parts read
}

// loopCtx is the innermost kernel or for whose body is being compiled:
// its starts (epoch) and the slots an iteration of it may assign (its
// save set). The other slots keep their values while it runs: nested
// kernels and folds put back what they assign, and nothing else writes
// the environment. A sum of products compiled in its body computes the
// terms over those slots once per start (exp; fun.SExpCompiler's
// Invariant and Epoch).
type loopCtx struct {
	epoch *uint64
	// assigned holds, by slot, those an iteration may assign (the slots
	// made after the loop's save set are past its end: not assigned).
	assigned []bool
}

// isAssigned is whether an iteration of l may assign the slot s.
func (l *loopCtx) isAssigned(s int32) bool { return int(s) < len(l.assigned) && l.assigned[s] }

// machine is a compiled program running.
type machine struct {
	opts    *Options
	counter semantics.Counter
	h       *semantics.Heap
	env     []slot
	from    Env // the environment the run started from
	names   []string
	slots   map[string]int32
	trace   bool
	free    []*semantics.Tracker // trackers of kernels and folds that have ended, for reuse

	inner       *loopCtx                 // while compiling: the innermost kernel or for (nil: none, or a fold's parts)
	looped      bool                     // while compiling: the code may run more than once (in a kernel's, for's or fold's body or parts)
	onUntracked func()                   // called when a kernel starts untracked (tests)
	onCopy      func()                   // called when a copy kernel runs as copyWords (tests)
	onParallel  func()                   // called when a kernel runs on goroutines (tests)
	onCompile   func()                   // called when a scalar expression is compiled (tests)
	undo        *semantics.WriteLog      // a parallel kernel's worker: the words it wrote (parallel.go)
	iter        int64                    // and the iteration it runs
	logs        []*semantics.KernelTrace // the traces of the untracked kernels running, innermost last

	intLookup func(*fun.Ident, string) (int64, error)
	numLookup func(*fun.Ident, string) (semantics.Num, error)
	// The compiled reads of the slots' variables (envVars), by slot.
	intReads []func([]slot) (int64, bool)
	numReads []func([]slot) (semantics.Num, bool)
	lins     []linExp // the race plans' nodes (lin)
	// racePlanOf's counts and flags by slot, made again for each plan.
	planCounts []planCounts
	planFlags  []uint8

	stats  *semantics.Stats // the cost counters (nil: none)
	depth  int              // while running: the kernels and folds whose bodies run (counted launches are at 0)
	scopes []scopeCtx       // while compiling: the kernels, fors and folds around, innermost last
}

// scopeCtx is a kernel, for or fold around the statement being compiled:
// where an alloc's block dies (stats.go). decls is a for's or an if
// branch's declarations (nil for a kernel or fold, whose iterations drop
// every block).
type scopeCtx struct {
	c     *cstmt
	decls map[string]bool
}

// ownerOf is the if or for whose branch or iteration a block allocated
// to x now dies with, or nil (the program's end, or a kernel's or fold's iteration,
// which puts back the live words itself).
func (m *machine) ownerOf(x string) *cstmt {
	for i := len(m.scopes) - 1; i >= 0; i-- {
		sc := m.scopes[i]
		if sc.decls == nil {
			return nil
		}
		if sc.decls[x] {
			return sc.c
		}
	}
	return nil
}

// declares is declares(body) for a scope's decls (ownerOf) when the run
// counts costs; else nil, which no alloc asks about (an alloc's owner is
// found for the cost counters only).
func (m *machine) declares(body []Stmt) map[string]bool {
	if m.stats == nil {
		return nil
	}
	return declares(body)
}

// inScope compiles with c (a kernel, for or fold) as the innermost scope.
func (m *machine) inScope(c *cstmt, decls map[string]bool, f func()) {
	m.scopes = append(m.scopes, scopeCtx{c: c, decls: decls})
	f()
	m.scopes = m.scopes[:len(m.scopes)-1]
}

// compile makes the machine that runs p's body from env.
func compile(p *Program, env Env, h *semantics.Heap, opts *Options) (*machine, []*cstmt) {
	m := &machine{opts: opts, counter: opts.Counter, h: h, slots: make(map[string]int32, len(env)+declCount(p.Body)), trace: opts.Trace != nil, stats: opts.Stats}
	body := m.stmts(p.Body)
	m.from, m.env = env, make([]slot, 0, len(m.names))
	m.grow()
	m.lookups()
	return m, body
}

// lookups makes m's intLookup and numLookup, which read m's environment
// by name (the reference evaluators' view of it).
func (m *machine) lookups() {
	m.intLookup = func(x *fun.Ident, rule string) (int64, error) {
		s := m.lookup(x)
		return intOf(x, s.v, s.ok, rule)
	}
	m.numLookup = func(x *fun.Ident, rule string) (semantics.Num, error) {
		s := m.lookup(x)
		return numOf(x, s.v, s.ok, rule)
	}
}

// lookup is x's entry (undeclared for a name with no slot).
func (m *machine) lookup(x *fun.Ident) slot {
	if s, ok := m.slots[x.Name]; ok {
		return m.env[s]
	}
	return slot{}
}

// slotOf makes x's slot.
func (m *machine) slotOf(x *fun.Ident) { m.slot(x) }

// slot is x's slot.
func (m *machine) slot(x *fun.Ident) int32 {
	s, ok := m.slots[x.Name]
	if !ok {
		s = int32(len(m.names))
		m.slots[x.Name] = s
		m.names = append(m.names, x.Name)
	}
	return s
}

func (m *machine) stmts(ss []Stmt) []*cstmt {
	out := make([]*cstmt, 0, len(ss))
	// The nodes of the statements, one for each (ss[i]'s is node[i],
	// whether it heads out or is run by the one before it), made in one
	// allocation, as they all live as long as the body.
	node := make([]cstmt, len(ss))
	for i := 0; i < len(ss); i++ {
		c := m.compile(&node[i], ss[i])
		if d, ok := ss[i].(*Decl); ok && i+1 < len(ss) {
			// var x : τ; x <- … (FunMemToImp's every let) run as one
			// node: the two rules and E-IMP-SEQ between them, in order.
			switch s := ss[i+1].(type) {
			case *Assign:
				if s.X.Name == d.X.Name {
					c.next, c.exec = m.compile(&node[i+1], s), execDeclAssign
					i++
				}
			case *Read:
				if s.X.Name == d.X.Name {
					c.next, c.exec = m.compile(&node[i+1], s), execDeclRead
					i++
					// A copy's var t; t <- y[…]; x[…] <- t: the write
					// too, after E-IMP-SEQ.
					if w, ok := next(ss, i).(*Write); ok {
						c.then, c.exec = m.compile(&node[i+1], w), execDeclReadWrite
						i++
						// The same offset expression, over the same
						// variables (only t changed): the same offset.
						c.then.sameOff = sameSExp(w.Index, s.Index) && !mentionsName(w.Index, d.X.Name)
					}
				}
			}
		}
		out = append(out, c)
	}
	if m.stats != nil {
		for _, c := range out {
			m.counting(c)
		}
	}
	return out
}

// counting makes c count its Ops when it has run (a run with cost
// counters only: the others run the statements as compiled).
func (m *machine) counting(c *cstmt) {
	c.ops = stmtOps(c.s)
	if c.next != nil {
		c.ops += stmtOps(c.next.s)
	}
	if c.then != nil {
		c.ops += stmtOps(c.then.s)
	}
	if c.ops == 0 {
		return
	}
	exec := c.exec
	c.exec = func(m *machine, c *cstmt) error {
		if err := exec(m, c); err != nil {
			return err
		}
		m.stats.Ops += c.ops
		return nil
	}
}

// next is ss[i+1], or nil.
func next(ss []Stmt, i int) Stmt {
	if i+1 < len(ss) {
		return ss[i+1]
	}
	return nil
}

// compile compiles s into the node c (zero before).
func (m *machine) compile(c *cstmt, s Stmt) *cstmt {
	*c = cstmt{s: s, exec: execOf(s), offX: -1, valX: -1}
	switch s := s.(type) {
	case *Decl:
		c.x = m.slot(s.X)
		c.declV, c.rule = declOf(s)
	case *Assign:
		c.x = m.slot(s.X)
		if y, ok := s.SE.(fun.Var); ok {
			c.isVarMem, c.y = true, m.slot(y.Ident)
		}
		c.a = m.exp(s.SE, false)
		c.selfRef = mentionsName(s.SE, s.X.Name)
	case *Alloc:
		c.x = m.slot(s.X)
		c.a = m.exp(s.Size, true)
		if m.stats != nil { // the owner is the cost counters' only
			c.owner = m.ownerOf(s.X.Name)
		}
	case *Read:
		c.x, c.y = m.slot(s.X), m.slot(s.Y)
		c.a = m.exp(s.Index, true)
		c.offX, c.offK = m.simpleOffset(s.Index)
		c.selfRef = s.Y.Name == s.X.Name || mentionsName(s.Index, s.X.Name)
	case *Write:
		c.x = m.slot(s.X)
		c.a, c.b = m.exp(s.Index, true), m.exp(s.Value, false)
		c.offX, c.offK = m.simpleOffset(s.Index)
		if v, ok := s.Value.(fun.Var); ok {
			c.valX = m.slot(v.Ident)
		}
	case *Assert:
		c.a = m.exp(s.Cond, false)
	case *If:
		c.cext = &cext{}
		c.x = m.slot(s.Cond)
		m.around(c) // each branch is compiled when first taken (branch)
	case *Kernel:
		c.cext = &cext{}
		c.x = m.slot(s.X)
		c.a = m.exp(s.Bound, true)
		c.save = m.saveSet(s.Body, c.x)
		c.keep = m.keepSet(s.Body, c.save, c.x)
		c.allocIn = allocates(s.Body)
		for _, b := range s.Body {
			switch b.(type) {
			case *Read:
				c.reads++
			case *Write:
				c.writes++
			}
		}
		c.par = parallelizable(s.Body)
		c.looped = m.looped
		// The body (and copy) are compiled when the kernel first starts
		// (parts).
	case *For:
		c.cext = &cext{}
		c.x = m.slot(s.X)
		c.a = m.exp(s.Bound, true)
		c.save = m.saveSet(s.Body, c.x)
		m.around(c) // the body is compiled when the for first starts (forBody)
	case *Reduce, *Scan:
		f, _ := folds(s)
		c.cext = &cext{fold: f}
		c.a, c.b = m.exp(f.Neutral, false), m.exp(f.Bound, true)
		// A fold's parts and its scan's offset run with its own
		// variables set (x, a, b): nothing in them is hoisted.
		outer := m.inner
		m.inner = nil
		defer func() { m.inner = outer }()
		c.looped = m.looped
		c.x = m.slot(f.X)
		c.yield = m.slot(f.Yield)
		c.xa, c.xb = m.slot(f.A), m.slot(f.B)
		// The parts are compiled when the fold first starts (parts).
		c.allocIn = allocates(f.Body) || allocates(f.Combine)
		c.result = m.slot(f.Result)
		c.save = m.saveSet(f.Body, c.x)
		c.save2 = m.saveSet(f.Combine, c.xa, c.xb)
		if !m.opts.NoIntFolds && m.counter == nil && !m.trace {
			c.intStep = intCombine(f)
			for _, s := range f.Combine {
				c.combineOps += stmtOps(s)
			}
		}
		switch s := s.(type) {
		case *Reduce:
			c.y = m.slot(s.Target)
			c.untracked = !m.trace && writeFree(f.Body) && writeFree(f.Combine)
		case *Scan:
			c.y = m.slot(s.Block)
			c.addr = m.loopExp(s.Addr) // once per element
			if !m.trace {
				c.scanReads, c.untracked = m.untrackedScan(s)
			}
		}
	}
	if c.cext != nil {
		c.buf = make([]slot, len(c.save))
		c.buf2 = make([]slot, len(c.save2))
	}
	return c
}

// parts compiles the body of kernel c, or the parts of fold c, when it
// first starts an iteration: a kernel or fold that never does (in a
// branch not taken, after a failure, of no iteration) is never compiled. A kernel's or fold's body runs in a scope of its own (inScope
// with no declarations: nothing in it dies with a scope around it) and
// with no loop around but its own (a kernel's hoisted sums are its
// starts'; a fold's parts hoist nothing), so compiling it then compiles
// what compiling it with the statements around would.
//
// A kernel or fold that runs at most once (outside every loop) and
// starts with n = 1 iteration runs its body (each part) once in the
// run: it is code that runs at most once, whose expressions go to the
// reference evaluator (exp), as the statements around it do.
func (m *machine) parts(c *cstmt, n int64) {
	if c.compiled {
		return
	}
	c.compiled = true
	inner, scopes, looped := m.inner, m.scopes, m.looped
	m.inner, m.scopes, m.looped = nil, nil, c.looped || n > 1
	switch s := c.s.(type) {
	case *Kernel:
		m.inScope(c, nil, func() { c.body = m.inLoop(c, s.Body, m.looped) })
		c.copy = copyOf(s, c.body)
	case *Reduce, *Scan:
		f := c.fold
		m.inScope(c, nil, func() { c.body = m.stmts(f.Body) })
		m.inScope(c, nil, func() { c.body2 = m.stmts(f.Combine) })
	}
	m.inner, m.scopes, m.looped = inner, scopes, looped
	m.grow()
}

// around keeps, for if or for c, the loop and scopes that its bodies are
// compiled in, when they first run.
func (m *machine) around(c *cstmt) {
	c.inner, c.looped = m.inner, m.looped
	if m.stats != nil {
		c.scopes = append([]scopeCtx(nil), m.scopes...)
	}
}

// later compiles, when it first runs, a body of if or for c with the loop
// and scopes around c (around): as compiling it with c would. The slots
// that saveSet has made for the loops around c hold every name an
// iteration of theirs may assign (c's bodies are theirs), so a slot made
// now is one that no loop around assigns, as the loop's assigned set
// (made before) says.
func (m *machine) later(c *cstmt, f func()) {
	inner, scopes, looped := m.inner, m.scopes, m.looped
	m.inner, m.scopes, m.looped = c.inner, c.scopes, c.looped
	f()
	m.inner, m.scopes, m.looped = inner, scopes, looped
	m.grow()
}

// branch is if c's then (then) or else branch, compiled when first taken.
func (m *machine) branch(c *cstmt, then bool) []*cstmt {
	if then {
		if !c.compiled {
			c.compiled = true
			s := c.s.(*If)
			m.later(c, func() { m.inScope(c, m.declares(s.Then), func() { c.body = m.stmts(s.Then) }) })
		}
		return c.body
	}
	if !c.compiled2 {
		c.compiled2 = true
		s := c.s.(*If)
		m.later(c, func() { m.inScope(c, m.declares(s.Else), func() { c.body2 = m.stmts(s.Else) }) })
	}
	return c.body2
}

// forBody compiles the body of for c when it first starts, with n
// iterations (a for that runs at most once and starts with one runs its
// body once: parts).
func (m *machine) forBody(c *cstmt, s *For, n int64) {
	if !c.compiled {
		c.compiled = true
		m.later(c, func() { m.inScope(c, m.declares(s.Body), func() { c.body = m.inLoop(c, s.Body, c.looped || n > 1) }) })
	}
}

// grow gives the slots made since the environment was (by compiling a
// body when it first starts) their places in it, with their values in the
// environment the run started from: no statement that has run mentions
// them (it would have made their slots), so none has changed them.
func (m *machine) grow() {
	m.env = slices.Grow(m.env, len(m.names)-len(m.env))
	for i := len(m.env); i < len(m.names); i++ {
		v, ok := m.from[m.names[i]]
		m.env = append(m.env, slot{v: v, ok: ok})
	}
}

// inLoop compiles the body of c, a kernel or for whose save set is
// c.save, with c as the innermost loop; looped: the body may run more
// than once in the run.
func (m *machine) inLoop(c *cstmt, body []Stmt, looped bool) []*cstmt {
	outer := m.inner
	l := &loopCtx{epoch: &c.epoch, assigned: make([]bool, len(m.names))}
	for _, s := range c.save {
		l.assigned[s] = true
	}
	was := m.looped
	m.inner, m.looped = l, looped
	out := m.stmts(body)
	m.inner, m.looped = outer, was
	return out
}

// saveSet is the slots an iteration of body saves: those it may assign in
// its environment, and the variables it binds (extra).
func (m *machine) saveSet(body []Stmt, extra ...int32) []int32 {
	var seen []bool // by slot (walking makes slots: it grows)
	var out []int32
	add := func(s int32) {
		if int(s) >= len(seen) {
			seen = append(seen, make([]bool, len(m.names)-len(seen))...)
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, s := range extra {
		add(s)
	}
	var walk func([]Stmt)
	walk = func(ss []Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *Decl:
				add(m.slot(s.X))
			case *Assign:
				add(m.slot(s.X))
			case *Alloc:
				add(m.slot(s.X))
			case *Read:
				add(m.slot(s.X))
			case *If:
				walk(s.Then)
				walk(s.Else)
			case *For:
				// A for puts its own index back, and gives the body's
				// values of E's variables to E.
				walk(s.Body)
			case *Reduce:
				add(m.slot(s.Target))
			}
			// Kernels' and folds' iterations restore what they assign.
		}
	}
	walk(body)
	return out
}

// keepSet is the indices in save (a kernel's save set, index x) of the
// slots that an iteration must find as they were before the kernel: all
// but the index, which each iteration sets, and the variables the body
// declares before anything else of it mentions them, which each iteration
// sets before it reads them. The others are put back after every
// iteration, and all of save when the kernel ends or fails.
func (m *machine) keepSet(body []Stmt, save []int32, x int32) []int {
	first := declaredFirst(body)
	var keep []int
	for j, s := range save {
		if s != x && !first.has(m.names[s]) {
			keep = append(keep, j)
		}
	}
	return keep
}

// engineMutant is the engine's mutation point in the int fast paths of
// compiled scalar expressions (fun/compile_scalar.go; mutants.go).
const engineMutant = "imp-engine-sub-flipped"

// exp compiles a scalar expression (fun/compile_scalar.go); ints: as
// fun.EvalSExp reads it, every variable an int. In the body of a kernel
// or for (m.inner), the terms of a sum of products over the slots its
// iterations never assign are computed once per start of it.
//
// Code that runs at most once in a run (m.looped false: a statement
// outside every kernel, for and fold, or a loop's bound) is not compiled:
// its expressions are left to the reference evaluator (uncompiled), which
// gives what compiled code gives, or, where that gives up, the rules'
// value or error — evaluating an expression once that way costs less
// than compiling it.
func (m *machine) exp(e fun.SExp, ints bool) cexp {
	if !m.looped {
		// Its variables get their slots, as compiling would make them:
		// the reference evaluator reads them there (lookup).
		fun.EachVar(e, m.slotOf)
		return uncompiled
	}
	if m.onCompile != nil {
		m.onCompile()
	}
	sx := fun.SExpCompiler[[]slot]{Vars: envVars{m}, Ints: ints, Mutant: engineMutant}
	if l := m.inner; l != nil {
		sx.Invariant = func(x *fun.Ident) bool { return !l.isAssigned(m.slot(x)) }
		sx.Epoch = l.epoch
	}
	return sx.Compile(e)
}

// loopExp is exp of code that may run more than once.
func (m *machine) loopExp(e fun.SExp) cexp {
	looped := m.looped
	m.looped = true
	defer func() { m.looped = looped }()
	return m.exp(e, true)
}

// uncompiled is the code of an expression left to the reference
// evaluator: it gives up, always (fun.SExpCode).
func uncompiled([]slot) (semantics.Num, bool) { return semantics.Num{}, false }

// envVars reads the variables of compiled scalar expressions from their
// slots of m's environment: declared, and not a block.
type envVars struct{ m *machine }

// Num reads x as a scalar. The reads are made once per slot (numReads):
// every mention of x reads it with the same code.
func (v envVars) Num(x *fun.Ident) func([]slot) (semantics.Num, bool) {
	return readOnce(&v.m.numReads, v.m.slot(x), func(a *slot) (semantics.Num, bool) {
		return semantics.Num{Elem: a.v.Elem, Bits: a.v.K}, a.ok && !a.v.Mem
	})
}

// Int reads x as an int (made once per slot, as Num).
func (v envVars) Int(x *fun.Ident) func([]slot) (int64, bool) {
	return readOnce(&v.m.intReads, v.m.slot(x), func(a *slot) (int64, bool) { return a.v.K, a.isInt() })
}

// readOnce is the read of slot s by get, made at the first call for s
// and kept in reads for the next.
func readOnce[T any](reads *[]func([]slot) (T, bool), s int32, get func(*slot) (T, bool)) func([]slot) (T, bool) {
	for int(s) >= len(*reads) {
		*reads = append(*reads, nil)
	}
	if f := (*reads)[s]; f != nil {
		return f
	}
	f := func(env []slot) (T, bool) { return get(&env[s]) }
	(*reads)[s] = f
	return f
}

// Ints is the code of the int form f.
func (v envVars) Ints(f *fun.IntForm, g cexp) cexp {
	x, y, z := v.m.slot(f.Var(0)), v.m.slot(f.Var(1)), v.m.slot(f.Var(2))
	if f.Vars() == 2 {
		return func(env []slot) (semantics.Num, bool) {
			a, b := &env[x], &env[y]
			if a.isInt() && b.isInt() {
				if k, ok := f.Eval(a.v.K, b.v.K, b.v.K); ok {
					return semantics.IntNum(k), true
				}
			}
			return g(env)
		}
	}
	return func(env []slot) (semantics.Num, bool) {
		a, b, c := &env[x], &env[y], &env[z]
		if a.isInt() && b.isInt() && c.isInt() {
			if k, ok := f.Eval(a.v.K, b.v.K, c.v.K); ok {
				return semantics.IntNum(k), true
			}
		}
		return g(env)
	}
}

// isInt says whether s holds a declared int.
func (s *slot) isInt() bool { return s.ok && !s.v.Mem && s.v.Elem == semantics.IntElem }

// sameSExp is whether a and b are the same expression: the same tree of
// operators over the same constants and variables (what prints the
// same, or less: floats by their bits).
func sameSExp(a, b fun.SExp) bool {
	switch a := a.(type) {
	case *fun.Const:
		b, ok := b.(*fun.Const)
		return ok && a.Value == b.Value
	case *fun.FloatConst:
		b, ok := b.(*fun.FloatConst)
		return ok && math.Float64bits(a.Value) == math.Float64bits(b.Value)
	case fun.Var:
		b, ok := b.(fun.Var)
		return ok && a.Name == b.Name
	case *fun.BinOp:
		b, ok := b.(*fun.BinOp)
		return ok && a.Op == b.Op && sameSExp(a.L, b.L) && sameSExp(a.R, b.R)
	case *fun.UnOp:
		b, ok := b.(*fun.UnOp)
		return ok && a.Op == b.Op && sameSExp(a.X, b.X)
	case *fun.Call:
		b, ok := b.(*fun.Call)
		return ok && a.Func == b.Func && sameSExp(a.Arg, b.Arg)
	}
	return false
}

// mentionsName is whether e mentions x (as fun.EachVar walks it).
func mentionsName(e fun.SExp, x string) bool {
	switch e := e.(type) {
	case fun.Var:
		return e.Name == x
	case *fun.BinOp:
		return mentionsName(e.L, x) || mentionsName(e.R, x)
	case *fun.UnOp:
		return mentionsName(e.X, x)
	case *fun.Call:
		return mentionsName(e.Arg, x)
	}
	return false
}

// simpleOffset is an offset x + k or x - k or x as its variable's slot
// and k (-1 for other offsets).
func (m *machine) simpleOffset(e fun.SExp) (int32, int64) {
	switch e := e.(type) {
	case fun.Var:
		return m.slot(e.Ident), 0
	case *fun.BinOp:
		x, ok1 := e.L.(fun.Var)
		k, ok2 := e.R.(*fun.Const)
		if ok1 && ok2 {
			switch e.Op {
			case semantics.Add:
				return m.slot(x.Ident), k.Value
			case semantics.Sub:
				return m.slot(x.Ident), -k.Value
			}
		}
	}
	return -1, 0
}

// offset is a read's or write's offset, as fun.EvalSExp gives it.
func (m *machine) offset(c *cstmt, e fun.SExp, rule string) (int64, error) {
	if c.offX >= 0 {
		if x := &m.env[c.offX]; x.ok && !x.v.Mem && x.v.Elem == semantics.IntElem {
			return x.v.K + c.offK, nil
		}
	} else if v, ok := c.a(m.env); ok && v.Elem == semantics.IntElem {
		return v.Bits, nil
	}
	return fun.EvalSExp(e, m.intLookup, rule)
}

// int is an int expression's value, as fun.EvalSExp gives it.
func (m *machine) int(c cexp, e fun.SExp, rule string) (int64, error) {
	if v, ok := c(m.env); ok && v.Elem == semantics.IntElem {
		return v.Bits, nil
	}
	return fun.EvalSExp(e, m.intLookup, rule)
}

// num is a scalar expression's value, as fun.EvalNum gives it.
func (m *machine) num(c cexp, e fun.SExp, rule string) (semantics.Num, error) {
	if v, ok := c(m.env); ok {
		return v, nil
	}
	return fun.EvalNum(e, m.numLookup, rule)
}

// save copies the slots of set to buf; restore puts them back.
func (m *machine) save(set []int32, buf []slot) {
	for i, s := range set {
		buf[i] = m.env[s]
	}
}

func (m *machine) restore(set []int32, buf []slot) {
	for i, s := range set {
		m.env[s] = buf[i]
	}
}

// restoreKeep puts back the slots of c's keep set (keepSet) after an
// iteration.
func (m *machine) restoreKeep(c *cstmt) {
	for _, j := range c.keep {
		m.env[c.save[j]] = c.buf[j]
	}
}

// tracker is a fresh race tracker, made from one whose kernel or fold has
// ended where there is one (its table's memory is reused).
func (m *machine) tracker() *semantics.Tracker {
	n := len(m.free)
	if n == 0 {
		return semantics.NewTracker(m.trace)
	}
	t := m.free[n-1]
	m.free = m.free[:n-1]
	t.Reset(m.trace)
	return t
}

// run is E-IMP-SEQ over a sequence.
func (m *machine) run(ss []*cstmt) error {
	for i, c := range ss {
		if i > 0 {
			m.counter.Hit(EImpSeq.Name)
		}
		if err := c.exec(m, c); err != nil {
			return err
		}
	}
	return nil
}

// execOf is the function that runs a statement by its rule.
func execOf(s Stmt) func(*machine, *cstmt) error {
	switch s.(type) {
	case *Skip:
		return func(m *machine, _ *cstmt) error {
			m.counter.Hit(EImpSkip.Name)
			return nil
		}
	case *Decl:
		return execDecl
	case *Assign:
		return execAssign
	case *Alloc:
		return execAlloc
	case *Read:
		return execRead
	case *Write:
		return execWrite
	case *Assert:
		return execAssert
	case *If:
		return execIf
	case *Kernel:
		return execKernel
	case *For:
		return execFor
	case *Reduce, *Scan:
		return (*machine).fold
	}
	return func(_ *machine, c *cstmt) error {
		return semantics.Stuckf(c.s.Pos(), EImpSeq.Name, "no rule runs %s", PrintStmt(c.s))
	}
}

// declOf is a declaration's initial value and rule.
func declOf(s *Decl) (Value, string) {
	switch s.Type {
	case Mem:
		return Value{Mem: true}, EImpDecMem.Name
	case Float:
		return NumValue(semantics.FloatNum(0)), EImpDecFloat.Name
	}
	return Value{}, EImpDecInt.Name
}

func execDecl(m *machine, c *cstmt) error {
	m.env[c.x] = slot{v: c.declV, ok: true}
	m.counter.Hit(c.rule)
	return nil
}

// execDeclAssign and execDeclRead run var x : τ, then (E-IMP-SEQ) the
// assignment or read of x that follows it.
// When the right side does not mention x, the declaration's value is
// never seen but on an error, and x is written once.
func execDeclAssign(m *machine, c *cstmt) error {
	n := c.next
	if n.selfRef {
		execDecl(m, c)
		m.counter.Hit(EImpSeq.Name)
		return execAssign(m, n)
	}
	m.counter.Hit(c.rule)
	m.counter.Hit(EImpSeq.Name)
	if n.isVarMem {
		if y := m.env[n.y]; y.ok && y.v.Mem {
			m.env[n.x] = y
			m.counter.Hit(EImpAssignMem.Name)
			return nil
		}
	}
	v, ok := n.a(m.env)
	if !ok {
		var err error
		if v, err = fun.EvalNum(n.s.(*Assign).SE, m.numLookup, EImpAssignInt.Name); err != nil {
			m.env[c.x] = slot{v: c.declV, ok: true}
			return err
		}
	}
	m.env[n.x].setNum(v)
	m.counter.Hit(EImpAssignInt.Name)
	return nil
}

// execDeclReadWrite runs var t; t <- y[…], then (E-IMP-SEQ) the write after
// them.
// When the write's offset is the read's expression (sameOff), the
// offset the read computed is the write's: evaluating it again over the
// same values gives it again.
func execDeclReadWrite(m *machine, c *cstmt) error {
	off, offOK, err := declRead(m, c)
	if err != nil {
		return err
	}
	m.counter.Hit(EImpSeq.Name)
	if w := c.then; w.sameOff && offOK {
		x := &m.env[w.x]
		if !x.ok || !x.v.Mem || !x.v.Defined {
			_, err := blockOf(w.s.(*Write).X, x.v, x.ok, EImpWrite.Name)
			return err
		}
		return m.writeAt(w, x.v.L, off)
	}
	return execWrite(m, c.then)
}

func execDeclRead(m *machine, c *cstmt) error {
	_, _, err := declRead(m, c)
	return err
}

// declRead is execDeclRead, giving the offset read where it ran the
// read itself (offOK).
func declRead(m *machine, c *cstmt) (off int64, offOK bool, err error) {
	n := c.next
	if n.selfRef {
		execDecl(m, c)
		m.counter.Hit(EImpSeq.Name)
		return 0, false, execRead(m, n)
	}
	m.counter.Hit(c.rule)
	m.counter.Hit(EImpSeq.Name)
	k, off, err := m.readWordAt(n)
	if err != nil {
		m.env[c.x] = slot{v: c.declV, ok: true}
		return 0, false, err
	}
	m.env[n.x] = slot{v: Value{Elem: c.declV.Elem, K: k}, ok: true}
	m.counter.Hit(EImpRead.Name)
	return off, true, nil
}

func execAssign(m *machine, c *cstmt) error {
	if c.isVarMem {
		if y := m.env[c.y]; y.ok && y.v.Mem {
			m.env[c.x] = y
			m.counter.Hit(EImpAssignMem.Name)
			return nil
		}
	}
	v, ok := c.a(m.env)
	if !ok {
		var err error
		if v, err = fun.EvalNum(c.s.(*Assign).SE, m.numLookup, EImpAssignInt.Name); err != nil {
			return err
		}
	}
	m.env[c.x].setNum(v)
	m.counter.Hit(EImpAssignInt.Name)
	return nil
}

func execAlloc(m *machine, c *cstmt) error {
	s := c.s.(*Alloc)
	rule := EImpAlloc.Name
	n, err := m.int(c.a, s.Size, rule)
	if err != nil {
		return err
	}
	l, err := m.h.Alloc(n)
	if err != nil {
		return semantics.Stuckf(s.At, rule, "%v", err)
	}
	m.env[c.x] = slot{v: Value{Mem: true, Defined: true, L: l}, ok: true}
	m.counter.Hit(rule)
	if m.stats != nil {
		m.stats.Alloc(n)
		if c.owner != nil {
			c.owner.died += n
		}
	}
	return nil
}

func execRead(m *machine, c *cstmt) error {
	k, err := m.readWord(c)
	if err != nil {
		return err
	}
	// The word is read as x is declared: a heap word is a word.
	x := &m.env[c.x]
	*x = slot{v: Value{Elem: x.v.Elem, K: k}, ok: true}
	m.counter.Hit(EImpRead.Name)
	return nil
}

// readWord is the word a read reads (x not yet assigned).
func (m *machine) readWord(c *cstmt) (int64, error) {
	k, _, err := m.readWordAt(c)
	return k, err
}

// readWordAt is readWord, and the offset read.
func (m *machine) readWordAt(c *cstmt) (int64, int64, error) {
	y := &m.env[c.y]
	if !y.ok || !y.v.Mem || !y.v.Defined {
		_, err := blockOf(c.s.(*Read).Y, y.v, y.ok, EImpRead.Name)
		return 0, 0, err
	}
	off, err := m.offset(c, c.s.(*Read).Index, EImpRead.Name)
	if err != nil {
		return 0, 0, err
	}
	if len(m.logs) == 0 && m.h.Plain() {
		// Nothing tracks or records the access: the word itself.
		if b := m.h.Block(y.v.L); uint64(off) < uint64(len(b)) {
			return b[off], off, nil
		}
	}
	loc := semantics.Loc{Block: y.v.L, Offset: off}
	k, err := m.h.Read(loc)
	if err != nil {
		s := c.s.(*Read)
		return 0, 0, heapErr(err, s.At, EImpRead.Name, s.Y.Name)
	}
	if len(m.logs) > 0 {
		m.logRead(loc)
	}
	return k, off, nil
}

func execWrite(m *machine, c *cstmt) error {
	x := &m.env[c.x]
	if !x.ok || !x.v.Mem || !x.v.Defined {
		_, err := blockOf(c.s.(*Write).X, x.v, x.ok, EImpWrite.Name)
		return err
	}
	b := x.v.L
	off, err := m.offset(c, c.s.(*Write).Index, EImpWrite.Name)
	if err != nil {
		return err
	}
	return m.writeAt(c, b, off)
}

// writeAt is the rest of a write to block b at offset off: its value,
// then the word.
func (m *machine) writeAt(c *cstmt, b semantics.Label, off int64) error {
	var v semantics.Num
	var err error
	ok := false
	if c.valX >= 0 {
		if y := &m.env[c.valX]; y.ok && !y.v.Mem {
			v, ok = semantics.Num{Elem: y.v.Elem, Bits: y.v.K}, true
		}
	} else {
		v, ok = c.b(m.env)
	}
	if !ok {
		if v, err = fun.EvalNum(c.s.(*Write).Value, m.numLookup, EImpWrite.Name); err != nil {
			return err
		}
	}
	if len(m.logs) == 0 && m.h.Plain() {
		// Nothing tracks or records the access: the word itself.
		if w := m.h.Block(b); uint64(off) < uint64(len(w)) {
			if m.undo != nil { // a parallel kernel's worker (parallel.go)
				m.undo.Note(semantics.Loc{Block: b, Offset: off}, w[off], m.iter)
			}
			w[off] = v.Bits
			m.counter.Hit(EImpWrite.Name)
			return nil
		}
	}
	loc := semantics.Loc{Block: b, Offset: off}
	if err := m.h.Write(loc, v.Bits); err != nil {
		s := c.s.(*Write)
		return heapErr(err, s.At, EImpWrite.Name, s.X.Name)
	}
	if len(m.logs) > 0 {
		m.logWrite(loc)
	}
	m.counter.Hit(EImpWrite.Name)
	return nil
}

func execAssert(m *machine, c *cstmt) error {
	s := c.s.(*Assert)
	rule := IAssert.Name
	v, err := m.num(c.a, s.Cond, rule)
	if err != nil {
		return err
	}
	k, err := condInt(s.Cond, v, rule)
	if err != nil {
		return err
	}
	if k == 0 {
		if s.Msg != "" {
			return semantics.Stuckf(s.At, rule, "%s (assertion %s is 0)", s.Msg, fun.PrintSExp(s.Cond))
		}
		return semantics.Stuckf(s.At, rule, "assertion %s is 0", fun.PrintSExp(s.Cond))
	}
	m.counter.Hit(rule)
	return nil
}

func execIf(m *machine, c *cstmt) error {
	x := &m.env[c.x]
	k, err := intOf(c.s.(*If).Cond, x.v, x.ok, EImpIfTrue.Name)
	if err != nil {
		return err
	}
	b := c.body2
	if k != 0 {
		m.counter.Hit(EImpIfTrue.Name)
		b = c.body
		if !c.compiled {
			b = m.branch(c, true)
		}
	} else {
		m.counter.Hit(EImpIfFalse.Name)
		if !c.compiled2 {
			b = m.branch(c, false)
		}
	}
	if err := m.run(b); err != nil {
		return err
	}
	if c.died != 0 { // the blocks of the branch's declarations (stats.go)
		m.stats.Release(c.died)
		c.died = 0
	}
	return nil
}

func execKernel(m *machine, c *cstmt) error { return m.kernel(c, c.s.(*Kernel)) }

func execFor(m *machine, c *cstmt) error { return m.loop(c, c.s.(*For)) }

// poll looks at Ctrl-C at iteration i of kernel s, every
// semantics.PollMask+1 iterations: a kernel's fuel is spent as it starts.
func (m *machine) poll(i int64, s *Kernel) error {
	if i&semantics.PollMask != 0 {
		return nil
	}
	return m.opts.Budget.Spend(0, s.At, EImpKernel.Name)
}

// kernel is E-IMP-KERNEL.
func (m *machine) kernel(c *cstmt, s *Kernel) error {
	rule := EImpKernel.Name
	n, err := m.int(c.a, s.Bound, rule)
	if err != nil {
		return err
	}
	if n < 0 {
		return semantics.Stuckf(s.At, rule, "kernel bound %s = %d is negative", fun.PrintSExp(s.Bound), n)
	}
	if err := m.opts.Budget.Spend(n, s.At, rule); err != nil {
		return err
	}
	if n > 0 { // a kernel of no iteration runs no body (nor copy)
		m.parts(c, n)
	}
	c.epoch++ // a new start: hoisted sums recompute their invariant part
	// Cost counters: a launch at the top; each iteration's blocks die
	// with it (reset, to the live words at the start).
	var reset bool
	var base int64
	if st := m.stats; st != nil {
		countKernel(st, m.depth)
		m.depth++
		defer func() { m.depth-- }()
		reset, base = c.allocIn, st.Live()
	}
	if !m.opts.NoRaceFreePlans && m.planOf(c, s) != nil && c.plan.raceFree(m.env, n) {
		// No iteration can touch a location another writes: no tracker
		// (racefree.go); a trace is logged, flat (semantics.KernelTrace).
		if m.onUntracked != nil {
			m.onUntracked()
		}
		var log *semantics.KernelTrace
		if m.trace {
			log = semantics.NewKernelTrace(n, c.reads, c.writes)
			m.logs = append(m.logs, log)
		}
		if log == nil && m.copyWords(c, n) {
			m.counter.Hit(rule)
			return nil
		}
		if w := m.parallelWorkers(c, n); w > 1 {
			return m.parallelKernel(c, s, n, w) // parallel.go
		}
		m.save(c.save, c.buf)
		for i := int64(1); i <= n; i++ {
			if log != nil {
				log.Next()
			}
			m.env[c.x].setNum(semantics.IntNum(i))
			err := m.poll(i, s)
			if err == nil {
				err = m.run(c.body)
			}
			if err != nil {
				m.restore(c.save, c.buf)
				if log != nil {
					m.logs = m.logs[:len(m.logs)-1]
				}
				return err
			}
			m.restoreKeep(c)
			if reset {
				m.stats.SetLive(base)
			}
		}
		m.restore(c.save, c.buf)
		m.counter.Hit(rule)
		if log != nil {
			m.logs = m.logs[:len(m.logs)-1]
			m.opts.Trace(s, log)
		}
		return nil
	}
	k := &kernel{s: s, m: n, t: m.tracker()}
	k.t.Expect(n)
	m.h.Push(k.t)
	m.save(c.save, c.buf)
	for i := int64(1); i <= n; i++ {
		k.t.Start(i)
		m.env[c.x].setNum(semantics.IntNum(i))
		err := m.poll(i, s)
		if err == nil {
			err = m.run(c.body)
		}
		if err != nil {
			m.restore(c.save, c.buf)
			m.h.Pop()
			return k.race(err)
		}
		m.restoreKeep(c)
		if reset {
			m.stats.SetLive(base)
		}
	}
	m.restore(c.save, c.buf)
	k.finish(m.h, m.opts)
	m.free = append(m.free, k.t)
	return nil
}

// loop is I-FOR.
func (m *machine) loop(c *cstmt, s *For) error {
	rule := IFor.Name
	n, err := m.int(c.a, s.Bound, rule)
	if err != nil {
		return err
	}
	if n < 0 {
		return semantics.Stuckf(s.At, rule, "for bound %s = %d is negative", fun.PrintSExp(s.Bound), n)
	}
	if n > 0 {
		m.forBody(c, s, n)
	}
	c.epoch++ // a new start: hoisted sums recompute their invariant part
	for i := int64(1); i <= n; i++ {
		if err := m.opts.Budget.Spend(1, s.At, rule); err != nil {
			return err
		}
		m.save(c.save, c.buf)
		k := i
		if mutant.On("imp-for-off-by-one") { // mutant: the index runs 0 … n-1 (as forIteration)
			k--
		}
		m.env[c.x].setNum(semantics.IntNum(k))
		if err := m.run(c.body); err != nil {
			m.restore(c.save, c.buf)
			return err
		}
		// forBack: E's variables keep the body's values, but the index;
		// the body's declarations end with it.
		for j, x := range c.save {
			if x == c.x || !c.buf[j].ok {
				m.env[x] = c.buf[j]
			}
		}
		if c.died != 0 { // and the blocks allocated to them (stats.go)
			m.stats.Release(c.died)
			c.died = 0
		}
	}
	m.counter.Hit(rule)
	return nil
}

// fold is I-REDUCE and I-SCAN, as startFold, foldRun.combine and
// foldRun.combined run them for the small-step.
func (m *machine) fold(c *cstmt) error {
	s, f := c.s, c.fold
	r := &foldRun{s: s, f: f, rule: IReduce.Name}
	sc, isScan := s.(*Scan)
	if isScan {
		r.rule = IScan.Name
	}
	ne, err := m.num(c.a, f.Neutral, r.rule)
	if err != nil {
		return err
	}
	n, err := m.int(c.b, f.Bound, r.rule)
	if err != nil {
		return err
	}
	if n < 0 {
		return semantics.Stuckf(s.Pos(), r.rule, "%s bound %s = %d is negative", keywordOf(s), fun.PrintSExp(f.Bound), n)
	}
	if err := m.opts.Budget.Spend(n, s.Pos(), r.rule); err != nil {
		return err
	}
	r.n, r.acc = n, ne
	if n > 0 {
		m.parts(c, n)
	}
	// Cost counters: a launch at the top, the start's operators; each
	// part's blocks die with it.
	var reset bool
	var base int64
	if st := m.stats; st != nil {
		countKernel(st, m.depth)
		st.Ops += sexpOps(f.Neutral)
		m.depth++
		defer func() { m.depth-- }()
		reset, base = c.allocIn, st.Live()
	}
	// A reduce that writes nothing, or a scan that writes only its own
	// locations, cannot race: no tracker (racefree.go).
	tracked := !c.untracked || m.opts.NoRaceFreePlans || isScan && !m.distinctBlocks(c.y, c.scanReads)
	if tracked {
		r.t = m.tracker()
		r.t.Expect(2 * n)
		m.h.Push(r.t)
	} else if m.onUntracked != nil {
		m.onUntracked()
	}
	fail := func(err error) error {
		if tracked {
			m.h.Pop()
		}
		return r.race(err)
	}
	for i := int64(1); i <= n; i++ {
		// The element part, in E, x ↦ i.
		if tracked {
			r.t.Start(i)
		}
		m.save(c.save, c.buf)
		m.env[c.x].setNum(semantics.IntNum(i))
		err := m.run(c.body)
		var y semantics.Num
		if err == nil {
			yv := &m.env[c.yield]
			y, err = numOf(f.Yield, yv.v, yv.ok, r.rule)
		}
		m.restore(c.save, c.buf)
		if err != nil {
			return fail(err)
		}
		if reset {
			m.stats.SetLive(base)
		}
		r.y = y
		// The combine part, in E, a ↦ acc, b ↦ y: one int operation
		// (intfold.go), or its statements.
		var cv semantics.Num
		stepped := false
		if c.intStep != nil && r.acc.Elem == semantics.IntElem && y.Elem == semantics.IntElem {
			var k int64
			if k, stepped = c.intStep(r.acc.Bits, y.Bits); stepped {
				cv = semantics.IntNum(k)
				if m.stats != nil {
					m.stats.Ops += c.combineOps
				}
			}
		}
		if !stepped {
			if tracked {
				r.t.Start(n + i)
			}
			m.save(c.save2, c.buf2)
			m.env[c.xa].setNum(r.acc)
			m.env[c.xb].setNum(y)
			err = m.run(c.body2)
			if err == nil {
				rv := &m.env[c.result]
				cv, err = numOf(f.Result, rv.v, rv.ok, r.rule)
			}
			m.restore(c.save2, c.buf2)
			if err != nil {
				return fail(err)
			}
			if reset {
				m.stats.SetLive(base)
			}
		}
		prev := r.acc
		if !isScan && i == 1 && mutant.On("imp-reduce-skips-neutral") { // mutant: as foldRun.combined
			cv = r.y
		}
		r.acc = cv
		if !isScan {
			continue
		}
		if mutant.On("imp-scan-exclusive") { // mutant: as foldRun.combined
			cv = prev
		}
		if tracked {
			r.t.Start(i)
		}
		bv := &m.env[c.y]
		b, err := blockOf(sc.Block, bv.v, bv.ok, r.rule)
		if err != nil {
			return fail(err)
		}
		old := m.env[c.x]
		m.env[c.x].setNum(semantics.IntNum(i))
		off, err := m.int(c.addr, sc.Addr, r.rule)
		m.env[c.x] = old
		if err != nil {
			return fail(err)
		}
		loc := semantics.Loc{Block: b, Offset: off}
		if err := m.h.Write(loc, cv.Bits); err != nil {
			return fail(heapErr(err, sc.At, r.rule, sc.Block.Name))
		}
		if len(m.logs) > 0 {
			m.logWrite(loc)
		}
		if m.stats != nil {
			m.stats.Ops++ // the scan's write
		}
	}
	if _, ok := s.(*Reduce); ok {
		m.env[c.y].setNum(r.acc)
	}
	m.counter.Hit(r.rule)
	if !tracked {
		return nil
	}
	m.h.Pop()
	if m.opts.Trace != nil {
		m.opts.Trace(s, r.t.Trace)
	}
	m.free = append(m.free, r.t)
	return nil
}

// writeBack gives the environment the program left to env, the caller's.
func (m *machine) writeBack(env Env) {
	for i, x := range m.names {
		if s := m.env[i]; s.ok {
			env[x] = s.v
		} else {
			delete(env, x)
		}
	}
}
