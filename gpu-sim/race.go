package gpusim

import (
	"fmt"
	"slices"

	"github.com/arraysem/arraysem/cuda"
)

// launchState is a launch in progress: its shape, the accesses of its
// threads (for races), and the warps' access instructions and the
// sectors they touch (for stats).
type launchState struct {
	kernel      string
	grid, block int
	shadow      map[uint64]*cell
	reqs        map[reqKey]*request      // a warp's execution of an access → the words its lanes touch
	shared      map[sharedKey]*region    // the blocks' __shared__ arrays
	pool        map[*cuda.Shared]*region // a finished block's, for the next
	moved       map[*region]*movedBits   // the sectors of each region the launch loads and stores
	worked      []uint64                 // the threads (by global index) that accessed global memory
	allocs      int64                    // the blocks the threads allocated (arraysem_device_alloc…)
	// The requests of reqs counted so far (flush): loads, their sectors,
	// the fewest sectors their words could take; stores, theirs.
	ldReqs, ldSects, ldIdeal, stReqs, stSects, stIdeal int64
}

// request is the word addresses the lanes of one request touch (a lane
// at most once: at most a warp's 32).
type request struct{ addrs []uint64 }

// movedBits are a region's sectors that a launch loaded and stored, a bit
// each (a region is 256-byte aligned, so sector s holds words 4s … 4s+3).
type movedBits struct{ ld, st []uint64 }

// sectorsOf is the number of 32-byte sectors n int64 words take, aligned.
func sectorsOf(n int64) int64 { return (n + 3) / 4 }

// count adds an access of global memory to the statistics: the request
// of its warp (the lanes of warp running access e for the k-th time),
// the sector it moves, and the thread, which did some work.
func (l *launchState) count(gtid int, warp int, e cuda.Expr, k int, r *region, off int64, write bool) {
	key := reqKey{warp: warp, e: e, k: k, store: write}
	q := l.reqs[key]
	if q == nil {
		q = &request{}
		l.reqs[key] = q
	}
	q.addrs = append(q.addrs, r.base+uint64(off*8))
	mb := l.moved[r]
	if mb == nil {
		n := (sectorsOf(int64(len(r.data))) + 63) / 64
		mb = &movedBits{ld: make([]uint64, n), st: make([]uint64, n)}
		l.moved[r] = mb
	}
	bits := mb.ld
	if write {
		bits = mb.st
	}
	s := off / 4
	bits[s/64] |= 1 << (s % 64)
	if w := gtid / 64; w < len(l.worked) {
		l.worked[w] |= 1 << (gtid % 64)
	}
}

// flush counts the requests of reqs and empties it (the compiled engine
// flushes after each block, so that reqs holds one block's): each
// request's sectors, and the fewest its distinct words could take.
func (l *launchState) flush() {
	for key, q := range l.reqs {
		slices.Sort(q.addrs)
		words, sectors := int64(0), int64(0)
		for i, a := range q.addrs {
			if i == 0 || a != q.addrs[i-1] {
				words++
			}
			if i == 0 || a/32 != q.addrs[i-1]/32 {
				sectors++
			}
		}
		if key.store {
			l.stReqs++
			l.stSects += sectors
			l.stIdeal += sectorsOf(words)
		} else {
			l.ldReqs++
			l.ldSects += sectors
			l.ldIdeal += sectorsOf(words)
		}
	}
	clear(l.reqs)
}

// newLaunchState is a launch's state, before its threads run; stats
// makes the bitmap of the threads that work.
func newLaunchState(kernel string, grid, block int, stats bool) *launchState {
	l := &launchState{kernel: kernel, grid: grid, block: block, shadow: map[uint64]*cell{}, reqs: map[reqKey]*request{}, shared: map[sharedKey]*region{}, moved: map[*region]*movedBits{}}
	if stats {
		l.worked = make([]uint64, (grid*block+63)/64)
	}
	return l
}

// access is one thread's access to an address, with the barrier epoch it
// happened in.
type access struct {
	t     *thread
	epoch int
	write bool
}

// cell is the shadow of one address: its last write and the reads since.
type cell struct {
	w     *access
	reads []access
}

// reqKey is one execution of an access instruction by a warp: the lanes
// of warp w running expression e for the k-th time issue one request.
type reqKey struct {
	warp  int
	e     cuda.Expr
	k     int
	store bool
}

// conflict: two accesses to one address race when they come from
// different threads, one writes, and no barrier orders them (threads of
// different blocks are never ordered; a block's are, across epochs).
func conflict(a access, t *thread, write bool) bool {
	if a.t == t || !(a.write || write) {
		return false
	}
	return a.t.block != t.block || a.epoch == t.epoch
}

func (l *launchState) record(t *thread, e cuda.Expr, r *region, off int64, write bool) {
	addr := r.base + uint64(off*8)
	c := l.shadow[addr]
	if c == nil {
		c = &cell{}
		l.shadow[addr] = c
	}
	if c.w != nil && conflict(*c.w, t, write) {
		t.raced(e, l.kernel, write, addr, c.w.t.who(), "wrote")
	}
	if write {
		for _, r := range c.reads {
			if conflict(r, t, true) {
				t.raced(e, l.kernel, true, addr, r.t.who(), "read")
			}
		}
		c.w, c.reads = &access{t: t, epoch: t.epoch, write: true}, nil
	} else if n := len(c.reads); n == 0 || c.reads[n-1].t != t || c.reads[n-1].epoch != t.epoch {
		c.reads = append(c.reads, access{t: t, epoch: t.epoch})
	}
	// Stats: the warp's k-th execution of this access of global memory.
	if r.shared || !t.m.opts.Stats {
		return
	}
	t.counts[e]++
	l.count(t.gtid, t.block*((l.block+31)/32)+t.tid/32, e, t.counts[e], r, off, write)
}

// raced stops the run on a race: t's access (e, a write or a read) of
// addr and the other thread's earlier one (it wrote, or read).
func (t *thread) raced(e cuda.Expr, kernel string, write bool, addr uint64, other, did string) {
	verb := map[bool]string{true: "writes", false: "reads"}
	t.fail(cuda.ExprPos(e), "race", "data race in %s: %s %s address 0x%x, which %s %s", kernel, t.who(), verb[write], addr, other, did)
}

// hasBarrier tells whether a kernel waits at __syncthreads.
func hasBarrier(ss []cuda.Stmt) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *cuda.ExprStmt:
			if c, ok := s.X.(*cuda.Call); ok && c.Fun == "__syncthreads" {
				return true
			}
		case *cuda.If:
			if hasBarrier(s.Then) || hasBarrier(s.Else) {
				return true
			}
		case *cuda.For:
			if hasBarrier(s.Body) {
				return true
			}
		}
	}
	return false
}

// launchKernel runs ARRAYSEM_LAUNCH(k, grid, block, args…).
func (t *thread) launchKernel(s *cuda.Launch) {
	fn := t.m.prog.funcs[s.Kernel]
	if fn == nil || !fn.Global {
		t.fail(s.Pos, "unsupported", "unsupported construct: %s is not a __global__ function of the file", s.Kernel)
	}
	grid := t.asInt(s.Grid, t.eval(s.Grid))
	block := t.asInt(s.Block, t.eval(s.Block))
	if grid < 1 || grid > 1<<31-1 || block < 1 || block > 1024 {
		t.fail(s.Pos, "cuda", "launch of %s with grid %d and block %d: invalid configuration", s.Kernel, grid, block)
	}
	if len(s.Args) != len(fn.Params) {
		t.fail(s.Pos, "unsupported", "unsupported construct: %s takes %d arguments, the launch gives %d", s.Kernel, len(fn.Params), len(s.Args))
	}
	args := make([]value, len(s.Args))
	for i, a := range s.Args {
		args[i] = t.convert(cuda.ExprPos(a), fn.Params[i].Type, t.eval(a))
		if args[i].k == kPtr && args[i].p.v != nil {
			t.fail(cuda.ExprPos(a), "cuda", "a kernel argument points to a host variable")
		}
	}
	l := newLaunchState(s.Kernel, int(grid), int(block), t.m.opts.Stats)
	t.m.launch = l
	defer func() {
		for _, r := range l.shared {
			r.freed, r.shadow = true, nil
		}
		for _, r := range l.pool {
			r.freed, r.shadow = true, nil
		}
		t.m.launch = nil
	}()
	t.m.costs.Kernels++
	sync := hasBarrier(fn.Body)
	if s.Sync != sync && sync {
		t.fail(s.Pos, "unsupported", "unsupported construct: %s waits at __syncthreads, so its launch must be ARRAYSEM_LAUNCH_SYNC", s.Kernel)
	}
	// The compiled engine names a thread in 31 bits.
	if grid*block < spilled {
		if fc := t.m.compiled(fn); fc != nil {
			t.runCompiled(s, fc, l, args, sync)
			t.m.stats.add(l)
			return
		}
	}
	mk := func(b, i int) *thread {
		t.tick(s.Pos)
		th := &thread{m: t.m, fn: fn, vars: map[string]*value{}, block: b, tid: i, gtid: b*int(block) + i, counts: map[cuda.Expr]int{}}
		for k, p := range fn.Params {
			v := args[k]
			th.vars[p.Name] = &v
		}
		return th
	}
	for _, b := range t.m.opts.Schedule.order(int(grid), t.m.rnd) {
		order := t.m.opts.Schedule.order(int(block), t.m.rnd)
		if !sync {
			for _, i := range order {
				if err := mk(b, i).run(fn.Body); err != nil {
					panic(stop{err})
				}
			}
			continue
		}
		if err := t.runBlock(s, b, order, mk); err != nil {
			panic(stop{err})
		}
		l.endBlock(b)
	}
	t.m.stats.add(l)
}

// endBlock ends block b's __shared__ arrays: its threads have all
// returned, and no other block sees them. Blocks run one after another
// here, so the next block's instance of the same declaration can be the
// same region, its contents uninitialised again and its accesses
// forgotten (the tree walker's shadow cells too): a launch of many blocks
// holds one block's shared memory at a time.
func (l *launchState) endBlock(b int) {
	for k, r := range l.shared {
		if k.block != b {
			continue
		}
		delete(l.shared, k)
		clear(r.init)
		clear(r.shadow)
		for i := range r.data {
			delete(l.shadow, r.base+uint64(i*8))
		}
		if l.pool == nil {
			l.pool = map[*cuda.Shared]*region{}
		}
		l.pool[k.s] = r
	}
}

// sharedRegion is block's instance of the declaration s: a region of the
// pool endBlock fills, or a new one (alloc makes it).
func (l *launchState) sharedRegion(s *cuda.Shared, block int, alloc func(what string) *region) *region {
	key := sharedKey{s, block}
	if r := l.shared[key]; r != nil {
		return r
	}
	what := fmt.Sprintf("__shared__ %s of block %d", s.Name, block)
	r := l.pool[s]
	if r != nil {
		delete(l.pool, s)
		r.what = what
	} else {
		r = alloc(what)
		r.shared = true
	}
	l.shared[key] = r
	return r
}

// runBlock runs a block whose threads meet at barriers: each thread is a
// goroutine, resumed one at a time in the schedule's order until it
// finishes or waits at a barrier; when all wait at the same barrier they
// pass it together; anything else is barrier divergence.
func (t *thread) runBlock(s *cuda.Launch, b int, order []int, mk func(b, i int) *thread) error {
	msgs := make(chan barrierMsg)
	type live struct {
		th     *thread
		resume chan bool
	}
	var threads []live
	for _, i := range order {
		r := make(chan bool)
		th := mk(b, i)
		th.barrier, th.resume = msgs, r
		threads = append(threads, live{th, r})
		go func() {
			if !<-r {
				return
			}
			err := th.run(th.fn.Body)
			if _, aborted := err.(abortErr); aborted {
				return
			}
			msgs <- barrierMsg{t: th, err: err, done: true}
		}()
	}
	abort := func(from int, parked []live) {
		for _, l := range parked {
			l.resume <- false
		}
		for _, l := range threads[from:] {
			l.resume <- false
		}
	}
	running := threads
	for len(running) > 0 {
		var parked []live
		var at *cuda.Call
		var finished *thread
		for k, l := range running {
			l.resume <- true
			m := <-msgs
			if m.err != nil {
				abort(len(threads), append(parked, running[k+1:]...))
				return m.err
			}
			if m.done {
				if finished == nil {
					finished = m.t
				}
				continue
			}
			if at != nil && m.at != at {
				abort(len(threads), append(append(parked, l), running[k+1:]...))
				return t.m.divergent(s.Kernel, b, m.at, m.t.who(), parked[0].th.who(), at)
			}
			at = m.at
			parked = append(parked, l)
		}
		if at != nil && finished != nil {
			abort(len(threads), parked)
			return t.m.unreached(s.Kernel, b, at, parked[0].th.who(), finished.who())
		}
		for _, l := range parked {
			l.th.epoch++
		}
		running = parked
	}
	return nil
}

// divergent is barrier divergence in a block: thread who waits at the
// barrier at, another (first) at the barrier other.
func (m *machine) divergent(kernel string, b int, at *cuda.Call, who, first string, other *cuda.Call) error {
	return &Error{File: m.prog.Name, Pos: at.Pos, Kind: "divergence",
		Msg: fmt.Sprintf("barrier divergence in %s, block %d: %s waits at this __syncthreads, %s at the one at %s", kernel, b, who, first, m.prog.placeOf(other.Pos))}
}

// unreached is barrier divergence in a block: thread who waits at the
// barrier at, which thread returned never reaches.
func (m *machine) unreached(kernel string, b int, at *cuda.Call, who, returned string) error {
	return &Error{File: m.prog.Name, Pos: at.Pos, Kind: "divergence",
		Msg: fmt.Sprintf("barrier divergence in %s, block %d: %s waits at this __syncthreads, which %s never reaches (it returned)", kernel, b, who, returned)}
}

type abortErr struct{}

func (abortErr) Error() string { return "aborted" }

// syncthreads parks a thread at a barrier until the block passes it.
func (t *thread) syncthreads(c *cuda.Call) {
	if t.barrier == nil {
		t.fail(c.Pos, "unsupported", "unsupported construct: __syncthreads in a kernel launched without ARRAYSEM_LAUNCH_SYNC")
	}
	t.barrier <- barrierMsg{t: t, at: c}
	if !<-t.resume {
		panic(stop{abortErr{}})
	}
}

// deviceCall runs the functions a thread may call.
func (t *thread) deviceCall(c *cuda.Call) value {
	if c.Fun == "__syncthreads" {
		t.syncthreads(c)
		return value{k: kInt}
	}
	if fn := t.m.prog.funcs[c.Fun]; fn != nil && fn.Device {
		return t.callDevice(c, fn)
	}
	return t.deviceBuiltin(c, t.evalArgs(c))
}

// deviceBuiltin runs a prelude function a thread calls, on its evaluated
// arguments; the compiled engine (compile.go) calls it too, so both
// engines share every native function but the hottest.
func (t *thread) deviceBuiltin(c *cuda.Call, args []value) value {
	n, want := t.argFuncs(c, args)
	if v, ok := i64(c.Fun, n, want); ok {
		return v
	}
	if v, ok := t.f64(c, args, want); ok {
		return v
	}
	if v, ok := t.common(c.Fun, n, want); ok {
		return v
	}
	switch c.Fun {
	case "arraysem_device_alloc_chain":
		want(2)
		prev := t.asPtr(c.Args[1], args[1])
		r := t.alloc(c.Pos, n(0), false, "arraysem_device_alloc_chain by "+t.who())
		r.at = c.Pos
		t.m.deviceAlloc(r)
		t.m.launch.allocs++
		for i := range r.init {
			r.init[i] = true
		}
		t.m.chain[r] = prev
		return value{k: kPtr, p: ptr{r: r}}
	case "arraysem_device_free_chain":
		want(1)
		for p := t.asPtr(c.Args[0], args[0]); p.r != nil; {
			if p.r.freed || p.off != 0 {
				t.fail(c.Pos, "cuda", "arraysem_device_free_chain: not a chain of arraysem_device_alloc_chain")
			}
			t.m.free(p.r)
			p = t.m.chain[p.r]
		}
		return value{k: kInt}
	case "arraysem_trap":
		// An atomic compare-and-swap on the record: never a race.
		want(4)
		p := t.asPtr(c.Args[0], args[0])
		if p.r == nil || p.r.host || p.off != 0 || len(p.r.data) < 3 {
			t.fail(c.Pos, "out-of-bounds", "arraysem_trap: not an error record")
		}
		if p.r.data[0] == 0 {
			p.r.data[0], p.r.data[1], p.r.data[2] = n(1)+1, n(2), n(3)
		}
		return value{k: kInt}
	case "arraysem_device_alloc":
		want(1)
		r := t.alloc(c.Pos, n(0), false, "arraysem_device_alloc by "+t.who())
		r.at = c.Pos
		t.m.deviceAlloc(r)
		t.m.launch.allocs++
		for i := range r.init {
			r.init[i] = true
		}
		return value{k: kPtr, p: ptr{r: r}}
	case "arraysem_device_free":
		want(1)
		if p := t.asPtr(c.Args[0], args[0]); p.r != nil {
			t.m.free(p.r)
		}
		return value{k: kInt}
	}
	t.fail(c.Pos, "unsupported", "unsupported construct: device call of %s", c.Fun)
	return value{}
}
