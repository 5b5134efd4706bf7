package gpusim

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/semantics"
	"github.com/arraysem/arraysem/semantics/datafile"
)

// Options configure a run.
type Options struct {
	Block    int      // threads per block (0: 256, the emitted default)
	Schedule Schedule // the order a launch's threads run in
	Stats    bool     // collect Stats
	// Fuel bounds the statements a run executes, over all threads (0: no
	// bound); MaxElems bounds one allocation (0: 2^28 int64s, the
	// interpreter's heap limit).
	Fuel     int64
	MaxElems int64
	// Engine runs the kernels: "" compiles each kernel once to the
	// register machine of compile.go and vm.go, leaving to the tree
	// walker a kernel it cannot compile; "reference" runs every kernel in
	// the tree walker (machine.go), the engine the compiled one is
	// checked against; "compiled" refuses a kernel it cannot compile (a
	// test's check that the emitted kernels are all compiled).
	Engine string
}

// Schedule is the order in which a launch's blocks, and a block's threads,
// run: "in-order", "reverse", or "random" with a seed.
type Schedule struct {
	Kind string
	Seed int64
}

// ParseSchedule reads in-order, reverse, random or random:SEED.
func ParseSchedule(s string) (Schedule, error) {
	switch {
	case s == "" || s == "in-order":
		return Schedule{Kind: "in-order"}, nil
	case s == "reverse":
		return Schedule{Kind: "reverse"}, nil
	case s == "random":
		return Schedule{Kind: "random", Seed: 1}, nil
	case strings.HasPrefix(s, "random:"):
		n, err := strconv.ParseInt(s[len("random:"):], 10, 64)
		if err != nil {
			return Schedule{}, fmt.Errorf("schedule %q: the seed is not an integer", s)
		}
		return Schedule{Kind: "random", Seed: n}, nil
	}
	return Schedule{}, fmt.Errorf("schedule %q: want in-order, reverse or random[:SEED]", s)
}

func (s Schedule) order(n int, r *rand.Rand) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
		if s.Kind == "reverse" {
			out[i] = n - 1 - i
		}
	}
	if s.Kind == "random" {
		r.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out
}

// region is an allocation: device memory (cudaMalloc, or a thread's
// arraysem_device_alloc) or host memory (inputs, result buffers).
type region struct {
	id     int
	host   bool
	base   uint64 // its address, 256-byte aligned, for sectors and messages
	data   []int64
	init   []bool
	shadow []shadowWord // the compiled engine's race state, made at the first access of a kernel
	freed  bool
	shared bool     // a block's __shared__ array (no global requests)
	what   string   // how it was allocated, for messages
	at     cuda.Pos // where in the file, for messages (Program.describe); none for inputs, results, __shared__
	device bool     // a device allocation the cost counters count (cudaMalloc, a thread's)
}

// ptr is a pointer: into a region, to a host variable (&x), or null.
type ptr struct {
	r   *region
	off int64 // in elements
	v   *value
}

type kind int

const (
	kInt kind = iota
	kPtr
	kBlock
	kStr
	kFloat
)

// value is a value of the subset: an int, a pointer, a block {p, n}, a
// string or a double.
type value struct {
	k kind
	i int64
	p ptr
	s string
	f float64
}

// thread is where code runs: the host (tid < 0) or a thread of a launch.
type thread struct {
	m       *machine
	fn      *cuda.Func
	vars    map[string]*value
	block   int
	tid     int // thread index in the block
	gtid    int // global thread index in the launch, -1 on the host
	epoch   int // barriers passed
	counts  map[cuda.Expr]int
	barrier chan<- barrierMsg // non-nil when the kernel has barriers
	resume  <-chan bool
}

type barrierMsg struct {
	t    *thread
	at   *cuda.Call // nil when the thread finished
	err  error
	done bool
}

// stop unwinds a thread's interpretation with an error.
type stop struct{ err error }

// retSignal unwinds a function on return.
type retSignal struct{ v value }

type machine struct {
	prog    *Program
	opts    Options
	out     strings.Builder
	regions []*region
	next    uint64
	inputs  map[string]semantics.Array
	heap    int64
	rnd     *rand.Rand
	launch  *launchState
	stats   *Stats
	steps   int64
	chain   map[*region]ptr   // a block a thread allocated in a loop → the one before it in its chain
	costs   semantics.Stats   // the cost counters (stats.go)
	kept    []semantics.Array // the results arraysem_keep_ kept, for arraysem_print_source
	// The compiled engine: its kernels, and the last phase (shadow.go).
	compiler *compiler
	phase    uint32
	// The compiled engine's spill table and its free indices, kept from
	// launch to launch (shadow.go).
	spill     []readSummary
	spillFree []uint32
}

// Run runs a parsed program with NAME=VALUE arguments and returns what it
// printed; the error is an *Error (a stuck state of the program, or what
// the simulator caught).
func Run(prog *Program, args []string, opts Options) (string, *Stats, error) {
	return newMachine(prog, opts).run(args)
}

// newMachine is a machine ready to run prog.
func newMachine(prog *Program, opts Options) *machine {
	if opts.Block <= 0 {
		opts.Block = 256
	}
	if opts.Schedule.Kind == "" {
		opts.Schedule.Kind = "in-order"
	}
	return &machine{prog: prog, opts: opts, next: 1 << 20, rnd: rand.New(rand.NewSource(opts.Schedule.Seed)), stats: newStats(), chain: map[*region]ptr{}}
}

// run runs the program's main with NAME=VALUE arguments.
func (m *machine) run(args []string) (string, *Stats, error) {
	prog, opts := m.prog, m.opts
	main := prog.funcs["main"]
	h := &thread{m: m, fn: main, vars: map[string]*value{}, gtid: -1}
	if len(main.Params) == 2 {
		h.vars[main.Params[0].Name] = &value{k: kInt, i: int64(len(args) + 1)}
		h.vars[main.Params[1].Name] = &value{k: kStr, s: strings.Join(append([]string{prog.Name}, args...), "\x00")}
	}
	err := h.run(main.Body)
	var e *Error
	if errors.As(err, &e) {
		prog.place(e)
	}
	if opts.Stats {
		m.stats.Costs = m.costs
		return m.out.String(), m.stats, err
	}
	return m.out.String(), nil, err
}

func (t *thread) fail(pos cuda.Pos, kind, format string, args ...any) {
	panic(stop{&Error{File: t.m.prog.Name, Pos: pos, Kind: kind, Msg: fmt.Sprintf(format, args...)}})
}

func (t *thread) who() string {
	if t.gtid < 0 {
		return "the host"
	}
	return fmt.Sprintf("thread %d (block %d, thread %d)", t.gtid, t.block, t.tid)
}

// run interprets a function body, turning the unwinding of a stop into
// an error.
func (t *thread) run(body []cuda.Stmt) (err error) {
	defer func() {
		if r := recover(); r != nil {
			switch r := r.(type) {
			case stop:
				err = r.err
			case retSignal:
			default:
				panic(r)
			}
		}
	}()
	t.stmts(body)
	return nil
}

func (t *thread) stmts(ss []cuda.Stmt) {
	for _, s := range ss {
		t.stmt(s)
	}
}

// tick spends one unit of fuel: a statement, a loop iteration, a thread.
func (t *thread) tick(pos cuda.Pos) { t.spend(pos, 1) }

// spend spends k units of fuel (an allocation or a copy spends one per
// element).
func (t *thread) spend(pos cuda.Pos, k int64) {
	if t.m.steps += k; t.m.opts.Fuel > 0 && t.m.steps > t.m.opts.Fuel {
		t.fail(pos, "fuel", "the run exceeds its fuel of %d steps", t.m.opts.Fuel)
	}
	if semantics.Interrupted() {
		t.fail(pos, "interrupted", "after %d steps", t.m.steps)
	}
}

func (t *thread) stmt(s cuda.Stmt) {
	t.tick(cuda.StmtPos(s))
	switch s := s.(type) {
	case *cuda.Comment:
	case *cuda.Decl:
		v := &value{k: kInt}
		switch s.Type {
		case "int64_t *", "arraysem_error *":
			v.k = kPtr
		case "arraysem_block":
			v.k = kBlock
		case "double":
			v.k = kFloat
		}
		if l, ok := s.Init.(*cuda.InitList); ok {
			if s.Type != "arraysem_block" || len(l.Elems) != 2 {
				t.fail(s.Pos, "unsupported", "unsupported construct: initialiser list of %s", s.Type)
			}
			p, n := t.eval(l.Elems[0]), t.eval(l.Elems[1])
			*v = value{k: kBlock, p: t.asPtr(l.Elems[0], p), i: t.asInt(l.Elems[1], n)}
		} else if s.Init != nil {
			*v = t.convert(s.Pos, s.Type, t.eval(s.Init))
		}
		t.vars[s.Name] = v
	case *cuda.Assign:
		t.assign(s)
	case *cuda.ExprStmt:
		t.eval(s.X)
	case *cuda.If:
		if t.truth(s.Cond) {
			t.stmts(s.Then)
		} else {
			t.stmts(s.Else)
		}
	case *cuda.For:
		from := t.asInt(s.From, t.eval(s.From))
		v := &value{k: kInt, i: from}
		t.vars[s.Var] = v
		for v.i <= t.asInt(s.Bound, t.eval(s.Bound)) {
			t.tick(s.Pos)
			t.stmts(s.Body)
			v.i++
		}
	case *cuda.Shared:
		t.shared(s)
	case *cuda.Return:
		var v value
		if s.Value != nil {
			v = t.eval(s.Value)
		}
		panic(retSignal{v})
	case *cuda.Launch:
		if t.gtid >= 0 {
			t.fail(s.Pos, "unsupported", "unsupported construct: a launch inside a kernel")
		}
		t.launchKernel(s)
	default:
		t.fail(cuda.StmtPos(s), "unsupported", "unsupported construct: statement %T", s)
	}
}

func (t *thread) convert(pos cuda.Pos, typ string, v value) value {
	switch typ {
	case "int64_t", "int":
		if v.k != kInt {
			t.fail(pos, "unsupported", "unsupported construct: a non-integer value for %s", typ)
		}
	case "double":
		// C++ would convert an int to a double silently; the emitter
		// never relies on it (float(se) is a cast), so gpu-sim refuses.
		if v.k != kFloat {
			t.fail(pos, "unsupported", "unsupported construct: a non-double value for double")
		}
	case "arraysem_block":
		if v.k != kBlock {
			t.fail(pos, "unsupported", "unsupported construct: a non-block value for a block")
		}
	default:
		if v.k != kPtr {
			t.fail(pos, "unsupported", "unsupported construct: a non-pointer value for %s", typ)
		}
	}
	return v
}

func (t *thread) lookup(x *cuda.Ident) *value {
	v, ok := t.vars[x.Name]
	if !ok {
		t.fail(x.Pos, "unsupported", "unsupported construct: %s is not declared", x.Name)
	}
	return v
}

func (t *thread) assign(s *cuda.Assign) {
	r := t.eval(s.RHS)
	switch l := s.LHS.(type) {
	case *cuda.Ident:
		v := t.lookup(l)
		nv := r
		if v.k == kInt {
			nv = value{k: kInt, i: t.asInt(s.RHS, r)}
		} else if v.k == kFloat {
			nv = value{k: kFloat, f: t.asFloat(s.RHS, r)}
		} else if v.k != r.k {
			t.fail(s.Pos, "unsupported", "unsupported construct: assignment of another kind of value to %s", l.Name)
		}
		*v = nv
	case *cuda.Field:
		x, ok := l.X.(*cuda.Ident)
		if !ok {
			t.fail(s.Pos, "unsupported", "unsupported construct: assignment to %s", cuda.ExprString(l))
		}
		v := t.lookup(x)
		if v.k != kBlock {
			t.fail(s.Pos, "unsupported", "unsupported construct: %s is not a block", x.Name)
		}
		switch l.Name {
		case "p":
			v.p = t.asPtr(s.RHS, r)
		case "n":
			v.i = t.asInt(s.RHS, r)
		default:
			t.fail(s.Pos, "unsupported", "unsupported construct: field %s", l.Name)
		}
	case *cuda.Index:
		p := t.asPtr(l.X, t.eval(l.X))
		i := t.asInt(l.I, t.eval(l.I))
		t.store(l, p, i, t.asInt(s.RHS, r))
	}
}

func (t *thread) asInt(e cuda.Expr, v value) int64 {
	if v.k != kInt {
		t.fail(cuda.ExprPos(e), "unsupported", "unsupported construct: %s is not an integer", cuda.ExprString(e))
	}
	return v.i
}

func (t *thread) asFloat(e cuda.Expr, v value) float64 {
	if v.k != kFloat {
		t.fail(cuda.ExprPos(e), "unsupported", "unsupported construct: %s is not a double", cuda.ExprString(e))
	}
	return v.f
}

func (t *thread) asPtr(e cuda.Expr, v value) ptr {
	if v.k != kPtr {
		t.fail(cuda.ExprPos(e), "unsupported", "unsupported construct: %s is not a pointer", cuda.ExprString(e))
	}
	return v.p
}

func (t *thread) truth(e cuda.Expr) bool { return t.asInt(e, t.eval(e)) != 0 }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (t *thread) eval(e cuda.Expr) value {
	switch e := e.(type) {
	case *cuda.Int:
		return value{k: kInt, i: e.V}
	case *cuda.Float:
		return value{k: kFloat, f: e.V}
	case *cuda.Str:
		return value{k: kStr, s: e.S}
	case *cuda.Ident:
		switch e.Name {
		case "nullptr":
			return value{k: kPtr}
		case "INT64_MIN":
			return value{k: kInt, i: -1 << 63}
		case "cudaSuccess":
			return value{k: kInt}
		case "cudaMemcpyHostToDevice":
			return value{k: kInt, i: 1}
		case "cudaMemcpyDeviceToHost":
			return value{k: kInt, i: 2}
		case "arraysem_max_block":
			return value{k: kInt, i: 1 << 28}
		case "arraysem_heap_default":
			return value{k: kInt, i: 1 << 31}
		case "arraysem_threads_per_block":
			return value{k: kInt, i: int64(t.m.opts.Block)}
		case "arraysem_inputs", "arraysem_defaults", "arraysem_sites", "arraysem_format", "arraysem_graphic":
			return value{k: kStr, s: e.Name}
		}
		return *t.lookup(e)
	case *cuda.Field:
		if x, ok := e.X.(*cuda.Ident); ok && e.Name == "x" {
			if k, ok := t.builtinVar(x.Name); ok {
				return value{k: kInt, i: k}
			}
		}
		v := t.eval(e.X)
		if v.k != kBlock {
			t.fail(e.Pos, "unsupported", "unsupported construct: field %s of a non-block", e.Name)
		}
		switch e.Name {
		case "p":
			return value{k: kPtr, p: v.p}
		case "n":
			return value{k: kInt, i: v.i}
		}
		t.fail(e.Pos, "unsupported", "unsupported construct: field %s", e.Name)
	case *cuda.Index:
		p := t.asPtr(e.X, t.eval(e.X))
		i := t.asInt(e.I, t.eval(e.I))
		return value{k: kInt, i: t.load(e, p, i)}
	case *cuda.Call:
		return t.call(e)
	case *cuda.Binary:
		l := t.eval(e.L)
		if e.Op == "+" {
			p := t.asPtr(e.L, l)
			p.off += t.asInt(e.R, t.eval(e.R))
			return value{k: kPtr, p: p}
		}
		r := t.eval(e.R)
		if l.k == kPtr && r.k == kPtr && (e.Op == "==" || e.Op == "!=") {
			eq := l.p == r.p
			return value{k: kInt, i: b2i(eq == (e.Op == "=="))}
		}
		if l.k == kFloat || r.k == kFloat {
			return value{k: kInt, i: t.compareFloats(e, t.asFloat(e.L, l), t.asFloat(e.R, r))}
		}
		a, b := t.asInt(e.L, l), t.asInt(e.R, r)
		var k bool
		switch e.Op {
		case "==":
			k = a == b
		case "!=":
			k = a != b
		case "<":
			k = a < b
		case "<=":
			k = a <= b
		case ">":
			k = a > b
		case ">=":
			k = a >= b
		case "&&":
			k = a != 0 && b != 0
		case "||":
			k = a != 0 || b != 0
		}
		return value{k: kInt, i: b2i(k)}
	case *cuda.Unary:
		switch e.Op {
		case "&":
			return t.addr(e)
		case "-":
			if x := t.eval(e.X); x.k == kFloat {
				return value{k: kFloat, f: -x.f}
			} else {
				return value{k: kInt, i: -t.asInt(e.X, x)}
			}
		case "!":
			return value{k: kInt, i: b2i(t.asInt(e.X, t.eval(e.X)) == 0)}
		}
	case *cuda.Cast:
		v := t.eval(e.X)
		switch e.Type {
		case "int64_t":
			if v.k == kFloat {
				return value{k: kInt, i: t.truncate(e, v.f)}
			}
			return value{k: kInt, i: t.asInt(e.X, v)}
		case "double":
			return value{k: kFloat, f: float64(t.asInt(e.X, v))}
		}
		return v
	case *cuda.Sizeof:
		if e.Type == "arraysem_error" {
			return value{k: kInt, i: 24}
		}
		return value{k: kInt, i: 8}
	}
	t.fail(cuda.ExprPos(e), "unsupported", "unsupported construct: %s", cuda.ExprString(e))
	return value{}
}

func (t *thread) builtinVar(name string) (int64, bool) {
	l := t.m.launch
	if t.gtid < 0 || l == nil {
		return 0, false
	}
	switch name {
	case "threadIdx":
		return int64(t.tid), true
	case "blockIdx":
		return int64(t.block), true
	case "blockDim":
		return int64(l.block), true
	case "gridDim":
		return int64(l.grid), true
	}
	return 0, false
}

// addr is &x (a host variable, a ptr to it) or &x.p (a reference to the
// block's pointer, for cudaMalloc), both for the host's calls only.
func (t *thread) addr(e *cuda.Unary) value {
	switch x := e.X.(type) {
	case *cuda.Ident:
		v := t.lookup(x)
		return value{k: kPtr, p: ptr{v: v}}
	case *cuda.Field:
		if id, ok := x.X.(*cuda.Ident); ok && x.Name == "p" {
			v := t.lookup(id)
			return value{k: kPtr, p: ptr{v: v, off: -1}} // off -1: the p field of a block
		}
	}
	t.fail(e.Pos, "unsupported", "unsupported construct: &%s", cuda.ExprString(e.X))
	return value{}
}

func (t *thread) alloc(pos cuda.Pos, n int64, host bool, what string) *region {
	m := t.m
	// No file makes the simulator allocate without bound.
	max := m.opts.MaxElems
	if max <= 0 {
		max = 1 << 28
	}
	if n < 0 || n > max {
		t.fail(pos, "cuda", "%s: an allocation of %d int64s (the simulator allows 0 to %d)", what, n, max)
	}
	t.spend(pos, n)
	r := &region{id: len(m.regions) + 1, host: host, base: m.next, data: make([]int64, n), init: make([]bool, n), what: what}
	m.next += uint64(n*8+255) &^ 255
	if n == 0 {
		m.next += 256
	}
	m.regions = append(m.regions, r)
	return r
}

// describe names an allocation for messages: how and where it was made
// (the source program's statement when the sites give it, source.go).
func (p *Program) describe(r *region) string {
	what := r.what
	if r.at.Line != 0 {
		what += " at " + p.placeOf(r.at)
	}
	return fmt.Sprintf("allocation #%d (%s, %d bytes at 0x%x)", r.id, what, len(r.data)*8, r.base)
}

// access checks one element access of a thread or the host.
func (t *thread) access(e cuda.Expr, p ptr, i int64, write bool) *region {
	verb := "reads"
	if write {
		verb = "writes"
	}
	pos := cuda.ExprPos(e)
	if p.v != nil {
		t.fail(pos, "unsupported", "unsupported construct: indexing a pointer to a variable")
	}
	if p.r == nil {
		t.fail(pos, "out-of-bounds", "%s %s through a null pointer", t.who(), verb)
	}
	off := p.off + i
	addr := p.r.base + uint64(off*8)
	if p.r.freed {
		t.fail(pos, "out-of-bounds", "%s %s address 0x%x of %s, which was freed", t.who(), verb, addr, t.m.prog.describe(p.r))
	}
	if off < 0 || off >= int64(len(p.r.data)) {
		t.fail(pos, "out-of-bounds", "out-of-bounds access: %s %s address 0x%x, element %d of %s, which has %d elements", t.who(), verb, addr, off, t.m.prog.describe(p.r), len(p.r.data))
	}
	if p.r.host != (t.gtid < 0) {
		t.fail(pos, "out-of-bounds", "%s %s %s memory at 0x%x", t.who(), verb, map[bool]string{true: "host", false: "device"}[p.r.host], addr)
	}
	if !write && !p.r.init[off] {
		t.fail(pos, "uninitialised", "%s reads address 0x%x (element %d of %s), which nothing has written", t.who(), addr, off, t.m.prog.describe(p.r))
	}
	if t.gtid >= 0 {
		t.m.launch.record(t, e, p.r, off, write)
		t.m.costs.Ops++ // a thread's element read or write
	}
	return p.r
}

// foldItems is the prelude's arraysem_fold_items: the elements a thread
// of a parallel fold folds from a tile.
func (t *thread) foldItems(c *cuda.Call) int64 {
	b := int64(t.m.opts.Block)
	if b > 1024 {
		t.fail(c.Pos, "cuda", "a reduce or scan runs blocks of at most 1024 threads, not %d", b)
	}
	return min(1024/b, 8)
}

// deviceAlloc counts a device allocation (cudaMalloc, a thread's) in the
// cost counters.
func (m *machine) deviceAlloc(r *region) {
	r.device = true
	m.costs.Alloc(int64(len(r.data)))
}

// free frees a region; a device allocation's words are no longer live.
func (m *machine) free(r *region) {
	if r.device && !r.freed {
		m.costs.Release(int64(len(r.data)))
	}
	r.freed, r.shadow = true, nil
}

func (t *thread) load(e cuda.Expr, p ptr, i int64) int64 {
	r := t.access(e, p, i, false)
	return r.data[p.off+i]
}

func (t *thread) store(e cuda.Expr, p ptr, i int64, k int64) {
	r := t.access(e, p, i, true)
	r.data[p.off+i] = k
	r.init[p.off+i] = true
}

// bytes checks a byte count is whole int64s.
func (t *thread) elems(e cuda.Expr, n int64) int64 {
	if n < 0 || n%8 != 0 {
		t.fail(cuda.ExprPos(e), "cuda", "a size of %d bytes is not a whole number of int64s", n)
	}
	return n / 8
}

// span checks that n elements from p are inside a live allocation of the
// wanted side (host or device), or a host variable (one element).
func (t *thread) span(e cuda.Expr, p ptr, n int64, host bool) {
	pos := cuda.ExprPos(e)
	if p.v != nil {
		if !host || n > 1 {
			t.fail(pos, "out-of-bounds", "cudaMemcpy: %d elements to or from a host variable of one", n)
		}
		return
	}
	if p.r == nil {
		if n == 0 {
			return
		}
		t.fail(pos, "out-of-bounds", "cudaMemcpy: null pointer")
	}
	if p.r.freed {
		t.fail(pos, "out-of-bounds", "cudaMemcpy: %s was freed", t.m.prog.describe(p.r))
	}
	if p.r.host != host {
		t.fail(pos, "cuda", "cudaMemcpy: the pointer is %s memory, the copy's kind says otherwise", map[bool]string{true: "host", false: "device"}[p.r.host])
	}
	if p.off < 0 || p.off+n > int64(len(p.r.data)) {
		t.fail(pos, "out-of-bounds", "out-of-bounds access: cudaMemcpy of %d elements at element %d of %s, which has %d elements", n, p.off, t.m.prog.describe(p.r), len(p.r.data))
	}
}

func (p ptr) get(i int64) (int64, bool) {
	if p.v != nil {
		return p.v.i, true
	}
	return p.r.data[p.off+i], p.r.init[p.off+i]
}

func (p ptr) set(i, k int64) {
	if p.v != nil {
		*p.v = value{k: kInt, i: k}
		return
	}
	p.r.data[p.off+i] = k
	p.r.init[p.off+i] = true
}

// call runs the prelude's functions and the CUDA API natively.
func (t *thread) call(c *cuda.Call) value {
	if t.gtid >= 0 {
		return t.deviceCall(c)
	}
	args, n, want := t.callArgs(c)
	if v, ok := i64(c.Fun, n, want); ok {
		return v
	}
	if v, ok := t.f64(c, args, want); ok {
		return v
	}
	zero := value{k: kInt}
	switch c.Fun {
	case "arraysem_start":
		want(5)
		var argv *value
		if len(t.fn.Params) == 2 {
			argv = t.vars[t.fn.Params[1].Name]
		}
		if argv == nil || argv.k != kStr {
			t.fail(c.Pos, "unsupported", "unsupported construct: arraysem_start outside main(int argc, char **argv)")
		}
		t.m.start(t, c, strings.Split(argv.s, "\x00"))
		return zero
	case "arraysem_cuda":
		want(2)
		if n(0) != 0 {
			t.fail(c.Pos, "cuda", "%s: error %d", args[1].s, n(0))
		}
		return zero
	case "cudaMalloc":
		want(2)
		ref := t.asPtr(c.Args[0], args[0])
		if ref.v == nil {
			t.fail(c.Pos, "unsupported", "unsupported construct: cudaMalloc wants the address of a pointer")
		}
		size := n(1)
		if size < 0 || size%8 != 0 {
			t.fail(c.Pos, "cuda", "cudaMalloc of %d bytes: not a whole number of int64s", size)
		}
		r := t.alloc(c.Pos, size/8, false, "cudaMalloc")
		r.at = c.Pos
		t.m.deviceAlloc(r)
		p := ptr{r: r}
		if ref.off == -1 {
			ref.v.p = p
		} else {
			*ref.v = value{k: kPtr, p: p}
		}
		return zero
	case "cudaMemset":
		want(3)
		p := t.asPtr(c.Args[0], args[0])
		k := t.elems(c.Args[2], n(2))
		t.span(c.Args[0], p, k, false)
		t.spend(c.Pos, k)
		for i := int64(0); i < k; i++ {
			p.set(i, 0)
		}
		if n(1) != 0 {
			t.fail(c.Pos, "unsupported", "unsupported construct: cudaMemset to a value other than 0")
		}
		return zero
	case "cudaMemcpy":
		want(4)
		dst, src := t.asPtr(c.Args[0], args[0]), t.asPtr(c.Args[1], args[1])
		k := t.elems(c.Args[2], n(2))
		toDevice := n(3) == 1
		t.span(c.Args[0], dst, k, !toDevice)
		t.span(c.Args[1], src, k, toDevice)
		t.spend(c.Pos, k)
		for i := int64(0); i < k; i++ {
			v, ok := src.get(i)
			if !ok {
				t.fail(cuda.ExprPos(c.Args[1]), "uninitialised", "cudaMemcpy copies element %d of %s, which nothing has written", src.off+i, t.m.prog.describe(src.r))
			}
			dst.set(i, v)
		}
		return zero
	case "cudaFree":
		want(1)
		p := t.asPtr(c.Args[0], args[0])
		if p.r != nil {
			if p.r.freed || p.off != 0 || p.r.host {
				t.fail(c.Pos, "cuda", "cudaFree of a pointer cudaMalloc did not return, or twice")
			}
			t.m.free(p.r)
		}
		return zero
	case "arraysem_alloc_bytes":
		want(1)
		if n(0) > 0 {
			return value{k: kInt, i: n(0) * 8}
		}
		return value{k: kInt, i: 8}
	case "arraysem_copy_bytes":
		want(1)
		return value{k: kInt, i: n(0) * 8}
	case "arraysem_reserve":
		want(3)
		if n(0) < 0 {
			t.stuck(int(n(1)), n(0), 0)
		}
		if n(0) > 1<<28-t.m.heap {
			t.stuck(int(n(2)), n(0), 1<<28)
		}
		t.m.heap += n(0)
		return zero
	case "arraysem_fail":
		want(3)
		t.stuck(int(n(0)), n(1), n(2))
	case "arraysem_grid":
		want(1)
		b := int64(t.m.opts.Block)
		g := (n(0) + b - 1) / b
		if g > 1<<31-1 {
			t.fail(c.Pos, "cuda", "a kernel of %d iterations needs more than 2^31-1 blocks", n(0))
		}
		return value{k: kInt, i: g}
	case "arraysem_blocks":
		want(1)
		if n(0) > 1<<31-1 {
			t.fail(c.Pos, "cuda", "a kernel of %d iterations, a block each, needs more than 2^31-1 blocks", n(0))
		}
		return value{k: kInt, i: n(0)}
	case "arraysem_sync":
		want(2)
		p := t.asPtr(c.Args[0], args[0])
		t.span(c.Args[0], p, 3, false)
		if site, _ := p.get(0); site != 0 {
			a, _ := p.get(1)
			b, _ := p.get(2)
			t.stuck(int(site-1), a, b)
		}
		return zero
	case "arraysem_input_int", "arraysem_input_len", "arraysem_input_data":
		want(1)
		v, ok := t.m.inputs[args[0].s]
		if !ok {
			t.fail(c.Pos, "unsupported", "unsupported construct: no input %q", args[0].s)
		}
		switch c.Fun {
		case "arraysem_input_int":
			if v.Elem != semantics.IntElem {
				t.fail(c.Pos, "unsupported", "unsupported construct: arraysem_input_int of the float input %s", args[0].s)
			}
			return value{k: kInt, i: v.Int()}
		case "arraysem_input_len":
			return value{k: kInt, i: int64(len(v.Data))}
		}
		r := t.alloc(c.Pos, int64(len(v.Data)), true, "input "+args[0].s)
		t.m.stats.InputSectors += sectorsOf(int64(len(v.Data)))
		copy(r.data, v.Data)
		for i := range r.init {
			r.init[i] = true
		}
		return value{k: kPtr, p: ptr{r: r}}
	case "arraysem_count":
		if len(args) < 3 || int64(len(args)-3) != n(2) {
			t.fail(c.Pos, "unsupported", "unsupported construct: arraysem_count's rank and dimensions disagree")
		}
		k := int64(1)
		for i := 3; i < len(args); i++ {
			d := n(i)
			if d < 0 {
				t.stuck(int(n(0)), d, 0)
			}
			if d != 0 && k > (1<<28)/d {
				t.stuck(int(n(1)), 1<<28, 0)
			}
			k *= d
		}
		return value{k: kInt, i: k}
	case "arraysem_input_float":
		want(1)
		v, ok := t.m.inputs[args[0].s]
		if !ok || v.Elem != semantics.FloatElem || !v.IsScalar() {
			t.fail(c.Pos, "unsupported", "unsupported construct: no float input %q", args[0].s)
		}
		return value{k: kFloat, f: semantics.FloatFromBits(v.Data[0])}
	case "arraysem_print_float":
		want(1)
		t.m.stats.ResultSectors++
		fmt.Fprintln(&t.m.out, semantics.FormatFloat(t.asFloat(c.Args[0], args[0])))
		return zero
	case "arraysem_host_buffer":
		want(1)
		return value{k: kPtr, p: ptr{r: t.alloc(c.Pos, n(0), true, "result buffer")}}
	case "arraysem_print_int":
		want(1)
		t.m.stats.ResultSectors++
		fmt.Fprintln(&t.m.out, n(0))
		return zero
	case "arraysem_keep_int":
		want(1)
		t.m.stats.ResultSectors++
		t.m.kept = append(t.m.kept, semantics.Scalar(n(0)))
		return zero
	case "arraysem_keep_float":
		want(1)
		t.m.stats.ResultSectors++
		t.m.kept = append(t.m.kept, semantics.FloatScalar(t.asFloat(c.Args[0], args[0])))
		return zero
	case "arraysem_print_source":
		want(2)
		lines, err := t.m.prog.File.Format.Lines(t.m.kept)
		if err != nil {
			t.fail(c.Pos, "cuda", "arraysem: the results do not fit their format: %v", err)
		}
		for _, l := range lines {
			fmt.Fprintln(&t.m.out, l)
		}
		return zero
	case "arraysem_print_array", "arraysem_print_float_array", "arraysem_keep_array", "arraysem_keep_float_array":
		if len(args) < 2 || int64(len(args)-2) != n(1) {
			t.fail(c.Pos, "unsupported", "unsupported construct: arraysem_print_array's rank and dimensions disagree")
		}
		p := t.asPtr(c.Args[0], args[0])
		shape := make([]int64, 0, len(args)-2)
		for i := 2; i < len(args); i++ {
			shape = append(shape, n(i))
		}
		count, err := semantics.Count(shape)
		if err != nil {
			t.fail(c.Pos, "cuda", "%v", err)
		}
		t.span(c.Args[0], p, count, true)
		t.spend(c.Pos, count)
		t.m.stats.ResultSectors += sectorsOf(count)
		data := make([]int64, count)
		for i := range data {
			v, ok := p.get(int64(i))
			if !ok {
				t.fail(c.Pos, "uninitialised", "printing element %d of %s, which nothing has written", i, t.m.prog.describe(p.r))
			}
			data[i] = v
		}
		elem := semantics.IntElem
		if strings.HasSuffix(c.Fun, "float_array") {
			elem = semantics.FloatElem
		}
		a, _ := semantics.NestOf(elem, data, shape)
		if strings.HasPrefix(c.Fun, "arraysem_keep_") {
			t.m.kept = append(t.m.kept, a)
			return zero
		}
		fmt.Fprintln(&t.m.out, a.String())
		return zero
	case "arraysem_finish":
		return zero
	case "arraysem_heap_thread":
		want(2)
		size := min(max(n(1), 1), 1<<28)
		return value{k: kInt, i: satAdd(n(0), (size*8+15)/16*16)}
	case "arraysem_heap_kernel":
		want(3)
		all := int64(0)
		if threads, per := max(n(1), 0), n(2); per != 0 && threads > math.MaxInt64/per {
			all = math.MaxInt64
		} else {
			all = threads * per
		}
		return value{k: kInt, i: max(all, n(0))}
	case "arraysem_heap_limit":
		// The simulator's threads allocate without a heap limit; the
		// call's argument is only evaluated.
		want(1)
		return zero
	case "arraysem_fold_items":
		want(0)
		return value{k: kInt, i: t.foldItems(c)}
	case "arraysem_fold_block":
		want(1)
		need := (ceilDiv(n(0), t.foldItems(c)) + 31) / 32 * 32
		return value{k: kInt, i: min(need, int64(t.m.opts.Block))}
	case "arraysem_fold_tiles":
		want(2)
		tile := n(1) * t.foldItems(c)
		tiles := ceilDiv(n(0), tile)
		per := ceilDiv(tiles, tile)
		if per < 4 {
			per = min(tiles, 4)
		}
		return value{k: kInt, i: per}
	case "arraysem_keep":
		// Blocks the host allocates in a loop live to the end of the run.
		want(1)
		return zero
	}
	if v, ok := t.common(c.Fun, n, want); ok {
		return v
	}
	t.fail(c.Pos, "unsupported", "unsupported construct: host call of %s", c.Fun)
	return zero
}

// satAdd is a + b for non-negative a and b, saturating as the prelude's
// arraysem_heap_thread does.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// callArgs evaluates a call's arguments; n is argument i as an integer,
// and want fails the run unless the call has k arguments.
func (t *thread) callArgs(c *cuda.Call) (args []value, n func(i int) int64, want func(k int)) {
	args = t.evalArgs(c)
	n, want = t.argFuncs(c, args)
	return args, n, want
}

// evalArgs evaluates a call's arguments, in order.
func (t *thread) evalArgs(c *cuda.Call) []value {
	args := make([]value, len(c.Args))
	for i, a := range c.Args {
		args[i] = t.eval(a)
	}
	return args
}

// argFuncs are callArgs' n and want for arguments already evaluated.
func (t *thread) argFuncs(c *cuda.Call, args []value) (n func(i int) int64, want func(k int)) {
	n = func(i int) int64 { return t.asInt(c.Args[i], args[i]) }
	want = func(k int) {
		if len(args) != k {
			t.fail(c.Pos, "unsupported", "unsupported construct: %s with %d arguments", c.Fun, len(args))
		}
	}
	return n, want
}

// i64 is the prelude's i64_ functions, for host and device calls alike:
// wrapping, truncating, total. ok is false when f is not one of them.
func i64(f string, n func(int) int64, want func(int)) (value, bool) {
	var r int64
	switch f {
	case "i64_neg":
		want(1)
		r = -n(0)
	case "i64_add", "i64_sub", "i64_mul", "i64_div", "i64_mod":
		want(2)
		r = arith(f, n(0), n(1))
	case "i64_add_overflows", "i64_sub_overflows", "i64_mul_overflows", "i64_div_overflows":
		want(2)
		if overflows(f, n(0), n(1)) {
			r = 1
		}
	default:
		return value{}, false
	}
	return value{k: kInt, i: r}, true
}

// overflows is the prelude's tests of the checked operators, as
// semantics.Overflows decides them.
func overflows(f string, a, b int64) bool {
	op := map[string]semantics.Op{"i64_add_overflows": semantics.Add, "i64_sub_overflows": semantics.Sub,
		"i64_mul_overflows": semantics.Mul, "i64_div_overflows": semantics.Div}[f]
	return semantics.Overflows(op, a, b)
}

// arith is the binary i64_ functions: wrapping, truncating, total.
func arith(f string, a, b int64) int64 {
	switch f {
	case "i64_add":
		return a + b
	case "i64_sub":
		return a - b
	case "i64_mul":
		return a * b
	case "i64_div":
		if b == 0 {
			return 0
		}
		return a / b // Go wraps MinInt64 / -1 as the prelude does
	case "i64_mod":
		if b == 0 {
			return 0
		}
		return a % b
	}
	return 0
}

// stuck is arraysem_fail: the site's message, as the compiled program
// prints it.
func (t *thread) stuck(site int, a, b int64) {
	sites := t.m.prog.File.Sites
	if site < 0 || site >= len(sites) {
		t.fail(cuda.Pos{}, "stuck", "stuck at unknown site %d", site)
	}
	kind := "stuck"
	if semantics.IsOverflowMessage(formatSite(sites[site], a, b)) {
		kind = "overflow"
	}
	// The message the built program prints, the interpreter's: the
	// source program's position and rule, then what went wrong.
	s := parseSite(sites[site])
	e := &Error{File: t.m.prog.Name, Kind: kind, Msg: formatSite(s.format, a, b), Rule: s.rule, Source: s.pos}
	if e.Source.File == "" {
		e.Source.File = e.File
	}
	panic(stop{e})
}

// start is arraysem_start: the inputs bound as the interpreter binds
// them (imp.BindInputs), defaults first, the arguments overriding; the
// arguments are NAME=VALUE (or --arg NAME=VALUE), a VALUE of @FILE read
// from a data file, and --data FILE, a whole input set, with which the
// defaults are not used.
func (m *machine) start(t *thread, c *cuda.Call, argv []string) {
	args := map[string]string{}
	var list []string
	for i := 1; i < len(argv); i++ {
		switch {
		case argv[i] == "--arg" && i+1 < len(argv):
			continue
		case argv[i] == datafile.DataArg:
			if i+1 == len(argv) {
				t.fail(c.Pos, "input", "--data wants a FILE")
			}
			if _, twice := args[datafile.DataArg]; twice {
				t.fail(c.Pos, "input", "--data given twice")
			}
			args[datafile.DataArg] = argv[i+1]
			i++
		case argv[i] != "":
			list = append(list, argv[i])
		}
	}
	if _, data := args[datafile.DataArg]; !data {
		list = append(append([]string(nil), m.prog.File.Defaults...), list...)
	}
	for _, a := range list {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == datafile.DataArg {
			t.fail(c.Pos, "input", "input %q: want NAME=VALUE", a)
		}
		args[k] = v
	}
	p := &imp.Program{File: m.prog.Name}
	for _, d := range m.prog.File.Inputs {
		in := &imp.Input{}
		if strings.HasSuffix(d, ":float") {
			d, in.Elem = strings.TrimSuffix(d, ":float"), semantics.FloatElem
		}
		name, rest, _ := strings.Cut(d, "[")
		in.Name = &fun.Ident{Name: name}
		if rest != "" {
			in.Block = &fun.Ident{Name: name + "\x00block"}
			for _, dim := range strings.Split(strings.TrimSuffix(rest, "]"), "][") {
				in.Dims = append(in.Dims, fun.Var{Ident: &fun.Ident{Name: dim}})
			}
		}
		p.Inputs = append(p.Inputs, in)
	}
	env, heap, err := imp.BindInputs(p, args)
	if err != nil {
		// The message without its position: the inputs' declarations
		// are the source program's, which the file does not carry.
		var se *semantics.Error
		if errors.As(err, &se) {
			panic(stop{&Error{File: m.prog.Name, Pos: c.Pos, Kind: "input", Msg: se.Msg, Rule: se.Rule}})
		}
		t.fail(c.Pos, "input", "%v", err)
	}
	m.inputs = map[string]semantics.Array{}
	for _, in := range p.Inputs {
		if in.Dims == nil {
			m.inputs[in.Name.Name] = env[in.Name.Name].Num().Array()
			continue
		}
		m.inputs[in.Name.Name] = semantics.Array{Elem: in.Elem, Data: heap.Block(env[in.Block.Name].L)}
	}
}
