package gpusim

import (
	"fmt"
	"math"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/semantics"
)

// The register machine that runs compiled kernels (compile.go): a
// launch's blocks and threads in the schedule's order, as the tree
// walker runs them (launchKernel, runBlock), each thread an instruction
// loop over its own registers.

// vthread is a thread of a launch in the compiled engine.
type vthread struct {
	gtid, block, tid int
	me               uint32 // gtid + 1, its name in the shadow memory
	x                []int64
	rg               []*region // a pointer register's region (x holds its offset)
	pc               int32
	at               *cuda.Call // the barrier it waits at
	counts           []int32    // per access site, the times it ran (statistics)
}

// vm is a launch in progress.
type vm struct {
	m                              *machine
	l                              *launchState
	launch                         *cuda.Launch
	sync                           bool
	blockDim                       int
	fuel                           int64
	limit                          int64 // the steps at which the run looks up again: its fuel, or an interruption (Ctrl-C)
	launchStart, blockStart, phase uint32
	spill                          []readSummary // the summaries of the words read by more than one thread (shadow.go)
	spillFree                      []uint32      // the indices in spill no word holds
	stats                          bool
	tref                           thread // the tree walker's view of the running thread, for its code
}

// ref is the tree walker's thread for th: its code reports th's failures
// and runs the prelude functions the machine does not.
func (v *vm) ref(th *vthread) *thread {
	t := &v.tref
	t.m, t.gtid, t.block, t.tid = v.m, th.gtid, th.block, th.tid
	return t
}

// compiled is fn compiled for this run, or nil when the tree walker must
// run it.
func (m *machine) compiled(fn *cuda.Func) *fcode {
	if m.opts.Engine == "reference" {
		return nil
	}
	if m.compiler == nil {
		m.compiler = newCompiler(m)
	}
	fc, err := m.compiler.kernel(fn)
	if err != nil && m.opts.Engine == "compiled" {
		panic(stop{&Error{File: m.prog.Name, Pos: fn.Pos, Kind: "unsupported", Msg: fmt.Sprintf("the compiled engine cannot run %s: %v", fn.Name, err)}})
	}
	return fc
}

// runCompiled runs a launch in the compiled engine: t is the host, args
// the kernel's arguments (converted), l the launch's state.
func (t *thread) runCompiled(s *cuda.Launch, fc *fcode, l *launchState, args []value, sync bool) {
	m := t.m
	v := &vm{m: m, l: l, launch: s, sync: sync, blockDim: l.block, fuel: m.opts.Fuel, stats: m.opts.Stats}
	// The spill table of the launch before, emptied: a launch's words
	// start empty (startPhases), so none names a summary of it.
	v.spill, v.spillFree = m.spill[:0], m.spillFree[:0]
	defer func() { m.spill, m.spillFree = v.spill[:0], v.spillFree[:0] }()
	if v.fuel <= 0 {
		v.fuel = math.MaxInt64
	}
	v.limit = min(v.fuel, m.steps+interruptEvery)
	v.startPhases()
	// The kernel's frame with its parameters bound, copied into each
	// thread's registers.
	px := make([]int64, fc.nregs)
	prg := make([]*region, fc.nregs)
	for i, a := range args {
		p := fc.params[i]
		switch a.k {
		case kInt:
			px[p.reg] = a.i
		case kFloat:
			px[p.reg] = int64(math.Float64bits(a.f))
		case kPtr:
			px[p.reg], prg[p.reg] = a.p.off, a.p.r
		case kBlock:
			px[p.reg], prg[p.reg], px[p.reg+1] = a.p.off, a.p.r, a.i
		}
	}
	newThread := func() *vthread {
		th := &vthread{x: make([]int64, fc.nregs), rg: make([]*region, fc.nregs)}
		if v.stats {
			th.counts = make([]int32, len(m.compiler.sites))
		}
		return th
	}
	start := func(th *vthread, b, i int) {
		t.tick(s.Pos)
		th.gtid, th.block, th.tid = b*l.block+i, b, i
		th.me = uint32(th.gtid + 1)
		th.pc, th.at = 0, nil
		copy(th.x, px)
		copy(th.rg, prg)
		clear(th.counts)
	}
	var one *vthread
	var block []*vthread
	for _, b := range m.opts.Schedule.order(l.grid, m.rnd) {
		order := m.opts.Schedule.order(l.block, m.rnd)
		v.nextPhase()
		v.blockStart = v.phase
		if !sync {
			if one == nil {
				one = newThread()
			}
			for _, i := range order {
				start(one, b, i)
				v.exec(fc, one)
			}
		} else {
			if block == nil {
				for range order {
					block = append(block, newThread())
				}
			}
			for k, i := range order {
				start(block[k], b, i)
			}
			v.runBlock(fc, b, block)
			v.l.endBlock(b)
		}
		v.flushRequests()
	}
}

// runBlock runs a block whose threads meet at barriers, as the tree
// walker's runBlock does: each thread in the schedule's order until it
// returns or waits at a barrier; when all wait at the same one they pass
// it together, into the next phase.
func (v *vm) runBlock(fc *fcode, b int, threads []*vthread) {
	running := append(make([]*vthread, 0, len(threads)), threads...)
	parked := make([]*vthread, 0, len(threads))
	for len(running) > 0 {
		parked = parked[:0]
		var at *cuda.Call
		var finished *vthread
		for _, th := range running {
			if !v.exec(fc, th) {
				if finished == nil {
					finished = th
				}
				continue
			}
			if at != nil && th.at != at {
				panic(stop{v.m.divergent(v.launch.Kernel, b, th.at, v.who(th), v.who(parked[0]), at)})
			}
			at = th.at
			parked = append(parked, th)
		}
		if at != nil && finished != nil {
			panic(stop{v.m.unreached(v.launch.Kernel, b, at, v.who(parked[0]), v.who(finished))})
		}
		if len(parked) > 0 {
			v.nextPhase()
		}
		running, parked = parked, running[:0]
	}
}

// who names th as the tree walker does.
func (v *vm) who(th *vthread) string {
	return (&thread{gtid: th.gtid, block: th.block, tid: th.tid}).who()
}

// flushRequests adds a block's requests to the launch's counts (a warp
// is in one block, so its requests are complete).
func (v *vm) flushRequests() {
	if !v.stats {
		return
	}
	v.l.flush()
}

// exec runs a thread until it returns (false) or waits at a barrier
// (true). A failure stops the run (a stop panic, as in the tree walker).
func (v *vm) exec(fc *fcode, th *vthread) bool {
	code := fc.code
	pc := th.pc
	x := th.x
	rg := th.rg
	steps := v.m.steps
	defer func() { v.m.steps = steps }()
	for {
		in := &code[pc]
		pc++
		if steps += int64(in.tick); steps > v.limit {
			v.m.steps = steps
			v.lookUp(th, fc, in)
		}
		switch in.op {
		case opNop:
		case opConst:
			x[in.a] = in.k
		case opNull:
			x[in.a], rg[in.a] = 0, nil
		case opMov:
			x[in.a] = x[in.b]
		case opMovP:
			x[in.a], rg[in.a] = x[in.b], rg[in.b]
		case opAdd:
			x[in.a] = x[in.b] + x[in.c]
		case opSub:
			x[in.a] = x[in.b] - x[in.c]
		case opMul:
			x[in.a] = x[in.b] * x[in.c]
		case opDiv:
			x[in.a] = arith("i64_div", x[in.b], x[in.c])
		case opMod:
			x[in.a] = arith("i64_mod", x[in.b], x[in.c])
		case opAddK:
			x[in.a] = x[in.b] + in.k
		case opSubK:
			x[in.a] = x[in.b] - in.k
		case opMulK:
			x[in.a] = x[in.b] * in.k
		case opNeg:
			x[in.a] = -x[in.b]
		case opEq:
			x[in.a] = b2i(x[in.b] == x[in.c])
		case opNe:
			x[in.a] = b2i(x[in.b] != x[in.c])
		case opLt:
			x[in.a] = b2i(x[in.b] < x[in.c])
		case opLe:
			x[in.a] = b2i(x[in.b] <= x[in.c])
		case opGt:
			x[in.a] = b2i(x[in.b] > x[in.c])
		case opGe:
			x[in.a] = b2i(x[in.b] >= x[in.c])
		case opEqK:
			x[in.a] = b2i(x[in.b] == in.k)
		case opNeK:
			x[in.a] = b2i(x[in.b] != in.k)
		case opLtK:
			x[in.a] = b2i(x[in.b] < in.k)
		case opLeK:
			x[in.a] = b2i(x[in.b] <= in.k)
		case opGtK:
			x[in.a] = b2i(x[in.b] > in.k)
		case opGeK:
			x[in.a] = b2i(x[in.b] >= in.k)
		case opAnd:
			x[in.a] = b2i(x[in.b] != 0 && x[in.c] != 0)
		case opOr:
			x[in.a] = b2i(x[in.b] != 0 || x[in.c] != 0)
		case opNot:
			x[in.a] = b2i(x[in.b] == 0)
		case opPEq:
			x[in.a] = b2i(x[in.b] == x[in.c] && rg[in.b] == rg[in.c])
		case opPNe:
			x[in.a] = b2i(x[in.b] != x[in.c] || rg[in.b] != rg[in.c])
		case opFAdd:
			x[in.a] = fbits(fval(x[in.b]) + fval(x[in.c]))
		case opFSub:
			x[in.a] = fbits(fval(x[in.b]) - fval(x[in.c]))
		case opFMul:
			x[in.a] = fbits(fval(x[in.b]) * fval(x[in.c]))
		case opFDiv:
			x[in.a] = fbits(fval(x[in.b]) / fval(x[in.c]))
		case opFNeg:
			x[in.a] = fbits(-fval(x[in.b]))
		case opFEq:
			x[in.a] = b2i(fval(x[in.b]) == fval(x[in.c]))
		case opFNe:
			x[in.a] = b2i(fval(x[in.b]) != fval(x[in.c]))
		case opFLt:
			x[in.a] = b2i(fval(x[in.b]) < fval(x[in.c]))
		case opFLe:
			x[in.a] = b2i(fval(x[in.b]) <= fval(x[in.c]))
		case opFGt:
			x[in.a] = b2i(fval(x[in.b]) > fval(x[in.c]))
		case opFGe:
			x[in.a] = b2i(fval(x[in.b]) >= fval(x[in.c]))
		case opI2F:
			x[in.a] = fbits(float64(x[in.b]))
		case opF2I:
			f := fval(x[in.b])
			if !(f >= -(1<<63) && f < 1<<63) {
				v.ref(th).truncate(fc.aux[in.aux].e.(*cuda.Cast), f)
			}
			x[in.a] = int64(f)
		case opF64Bits:
			x[in.a] = semantics.FloatBits(fval(x[in.b]))
		case opIntOk:
			f := fval(x[in.b])
			x[in.a] = b2i(f >= -(1<<63) && f < 1<<63)
		case opIsNaN:
			x[in.a] = b2i(math.IsNaN(fval(x[in.b])))
		case opPtrAdd:
			x[in.a], rg[in.a] = x[in.b]+x[in.c], rg[in.b]
		case opJmp:
			pc = in.a
		case opJz:
			if x[in.b] == 0 {
				pc = in.a
			}
		case opJeq:
			if x[in.b] == x[in.c] {
				pc = in.a
			}
		case opJne:
			if x[in.b] != x[in.c] {
				pc = in.a
			}
		case opJlt:
			if x[in.b] < x[in.c] {
				pc = in.a
			}
		case opJle:
			if x[in.b] <= x[in.c] {
				pc = in.a
			}
		case opJgt:
			if x[in.b] > x[in.c] {
				pc = in.a
			}
		case opJge:
			if x[in.b] >= x[in.c] {
				pc = in.a
			}
		case opJNull:
			if rg[in.b] == nil && x[in.b] == 0 {
				pc = in.a
			}
		case opJNotNull:
			if rg[in.b] != nil || x[in.b] != 0 {
				pc = in.a
			}
		case opJeqK:
			if x[in.b] == in.k {
				pc = in.a
			}
		case opJneK:
			if x[in.b] != in.k {
				pc = in.a
			}
		case opJltK:
			if x[in.b] < in.k {
				pc = in.a
			}
		case opJleK:
			if x[in.b] <= in.k {
				pc = in.a
			}
		case opJgtK:
			if x[in.b] > in.k {
				pc = in.a
			}
		case opJgeK:
			if x[in.b] >= in.k {
				pc = in.a
			}
		case opLoad:
			// The tree walker's checks, in its order (its own code
			// reports a failure), then the race check and the counters.
			r, off := rg[in.b], x[in.b]+x[in.c]
			if r == nil || r.freed || uint64(off) >= uint64(len(r.data)) || r.host || !r.init[off] {
				v.badAccess(th, &fc.aux[in.aux], r, x[in.b], x[in.c], false)
			}
			v.record(th, &fc.aux[in.aux], r, off, false)
			x[in.a] = r.data[off]
		case opStore:
			r, off := rg[in.b], x[in.b]+x[in.c]
			if r == nil || r.freed || uint64(off) >= uint64(len(r.data)) || r.host {
				v.badAccess(th, &fc.aux[in.aux], r, x[in.b], x[in.c], true)
			}
			v.record(th, &fc.aux[in.aux], r, off, true)
			r.data[off] = x[in.a]
			r.init[off] = true
		case opTid:
			x[in.a] = int64(th.tid)
		case opBid:
			x[in.a] = int64(th.block)
		case opBdim:
			x[in.a] = int64(v.l.block)
		case opGdim:
			x[in.a] = int64(v.l.grid)
		case opShared:
			v.m.steps = steps
			x[in.a], rg[in.a] = 0, v.shared(th, fc.aux[in.aux].shared)
			steps = v.m.steps
		case opRet:
			return false
		case opEnd:
			au := &fc.aux[in.aux]
			v.ref(th).fail(au.call.Pos, "unsupported", "unsupported construct: %s ends without return", au.fn.Name)
		case opSync:
			call := fc.aux[in.aux].call
			if !v.sync {
				v.ref(th).fail(call.Pos, "unsupported", "unsupported construct: __syncthreads in a kernel launched without ARRAYSEM_LAUNCH_SYNC")
			}
			th.pc, th.at = pc, call
			return true
		case opNative:
			v.m.steps = steps
			v.native(th, &fc.aux[in.aux], x[in.a:], rg[in.a:], x, rg)
			steps = v.m.steps
		case opTreeLevels:
			l := int64(0)
			for w := int64(1); w < x[in.b]; w *= 2 {
				l++
			}
			x[in.a] = l
		case opCeilDiv:
			a, b := x[in.b], x[in.c]
			if b <= 0 || a < 0 {
				v.ref(th).deviceBuiltin(fc.aux[in.aux].call, []value{{k: kInt, i: a}, {k: kInt, i: b}})
			}
			x[in.a] = ceilDiv(a, b)
		default:
			panic(fmt.Sprintf("gpu-sim: the compiled engine has no instruction %d", in.op))
		}
	}
}

func fval(k int64) float64  { return math.Float64frombits(uint64(k)) }
func fbits(f float64) int64 { return int64(math.Float64bits(f)) }

// interruptEvery is how many steps the compiled engine runs between two
// looks at whether the run was interrupted (semantics.Interrupt).
const interruptEvery = 1 << 16

// lookUp is the run at its limit: stopped where it is if interrupted, or
// past its fuel, else given its next limit.
func (v *vm) lookUp(th *vthread, fc *fcode, in *instr) {
	if semantics.Interrupted() {
		v.ref(th).fail(fc.aux[in.aux].ticks[0], "interrupted", "after %d steps", v.m.steps)
	}
	if v.m.steps > v.fuel {
		v.outOfFuel(th, fc, in)
	}
	v.limit = min(v.fuel, v.m.steps+interruptEvery)
}

// outOfFuel stops the run at the statement of in that spends past the
// fuel (its steps are counted).
func (v *vm) outOfFuel(th *vthread, fc *fcode, in *instr) {
	over := v.m.steps - v.fuel
	pos := fc.aux[in.aux].ticks[int64(in.tick)-over]
	v.ref(th).fail(pos, "fuel", "the run exceeds its fuel of %d steps", v.m.opts.Fuel)
}

// native runs a prelude function with the tree walker's code, its
// arguments and result moved between registers and values; dx and drg
// are the result's registers.
func (v *vm) native(th *vthread, au *auxInfo, dx []int64, drg []*region, x []int64, rg []*region) {
	args := make([]value, len(au.args))
	for i, a := range au.args {
		switch a.kind {
		case kInt:
			args[i] = value{k: kInt, i: x[a.reg]}
		case kFloat:
			args[i] = value{k: kFloat, f: fval(x[a.reg])}
		case kPtr:
			args[i] = value{k: kPtr, p: ptr{r: rg[a.reg], off: x[a.reg]}}
		case kBlock:
			args[i] = value{k: kBlock, p: ptr{r: rg[a.reg], off: x[a.reg]}, i: x[a.reg+1]}
		}
	}
	r := v.ref(th).deviceBuiltin(au.call, args)
	if r.k != au.kind {
		panic(fmt.Sprintf("gpu-sim: %s gave a value of kind %d, the compiled engine expects %d", au.call.Fun, r.k, au.kind))
	}
	switch r.k {
	case kFloat:
		dx[0] = fbits(r.f)
	case kPtr:
		dx[0], drg[0] = r.p.off, r.p.r
	default:
		dx[0] = r.i
	}
}

// shared is the block's instance of a __shared__ array, as the tree
// walker's shared makes it.
func (v *vm) shared(th *vthread, s *cuda.Shared) *region {
	return v.l.sharedRegion(s, th.block, func(what string) *region { return v.ref(th).alloc(s.Pos, s.Size, false, what) })
}

// badAccess is an access the checks refuse: the tree walker's access
// reports it.
func (v *vm) badAccess(th *vthread, au *auxInfo, r *region, base, i int64, write bool) {
	v.ref(th).access(au.e, ptr{r: r, off: base}, i, write)
	panic("gpu-sim: the compiled engine's checks disagree with the tree walker's")
}

// request counts an access of global memory in the statistics: its
// warp's request, and the sector it touches.
func (v *vm) request(th *vthread, au *auxInfo, r *region, off int64, write bool) {
	th.counts[au.site]++
	l := v.l
	l.count(th.gtid, th.block*((l.block+31)/32)+th.tid/32, au.e, int(th.counts[au.site]), r, off, write)
}
