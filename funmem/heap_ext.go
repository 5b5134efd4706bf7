package funmem

import (
	"errors"
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// The heap semantics of the extension forms: E-MEM-LOOP, E-MEM-REDUCE,
// E-MEM-SCAN, E-MEM-FILTER (here), E-MEM-REDOMAP and E-MEM-SCANOMAP
// (heap_redomap.go) and E-MEM-ASSERT (evalAssert). A form
// with a body runs as an ext: start, then for each iteration enter (the
// environment and body of the iteration) and leave (its results), then
// finish. The big-step runs the iterations' bodies by recursion, the
// small-step pushes a frame for each; both share these steps, so they
// agree, stuck states and races included.
//
// Accesses: a loop's iterations are sequential, so nothing is tracked
// between them (each kernel inside tracks its own). A fold (reduce,
// scan) has a tracker whose iteration i is element i: reading row i of
// xs (an int row; an array row is bound by reference) and, for a scan,
// writing row i of the result; so no element may write what another
// reads. The combine steps (the body) run outside that tracker, in order:
// combine i+1 reads what combine i made, which is the fold's data flow,
// not a race. For a reduction tree to be race free as well, a combine
// step may write only blocks it allocated itself (checked: a write to an
// older block is a race of the fold). A filter's body runs as a kernel's
// iterations do, in the fold's tracker, and the kept rows' copies count
// as their elements'.

// ext is an extension form in progress.
type ext struct {
	s    *fun.Stm
	rule string
	// vars are the variables in scope where the form starts, which its
	// start and end read; env is the same as an environment, which the
	// tree walker's enter binds on (nil when the compiled big-step,
	// which binds its parameters into slots, starts the form).
	vars vars
	env  *Env
	i, n int64 // the iteration now (from 1) and their number

	vals []Value // a loop's values; a fold's accumulator (vals[0])

	xs    Value              // a fold's or filter's array
	t     *semantics.Tracker // a fold's or filter's tracker (pushed while on)
	on    bool               // whether t is on the heap's tracker stack
	comb  *semantics.Tracker // the combine step's tracker, while one runs
	older semantics.Label    // the last block allocated before the combine
	dest  Value              // a scan's destination
	kept  []int64            // a filter's kept rows
	trace bool
	gs    []Group      // the support groups of the parameters (made once)
	pool  *trackerPool // where the trackers come from (nil: fresh ones)

	// A redomap's element i takes two steps, its map body (mapping) then
	// its combine; elem is the map body's value between them.
	mapping bool
	elem    Value

	spent bool // whether a fold's iterations are charged to the fuel
}

// spend charges the form's iterations to the run's fuel b before a step
// (semantics.Budget): a loop's one by one, a fold's or filter's all at
// its first step, as FUN's big-step does.
func (x *ext) spend(b *semantics.Budget) error {
	if _, loop := x.s.Exp.(*fun.LoopExp); loop {
		return b.Spend(1, x.s.Exp.Pos(), x.rule)
	}
	if x.spent {
		return nil
	}
	x.spent = true
	return b.Spend(x.n, x.s.Exp.Pos(), x.rule)
}

// startExt begins an extension form with a body, or returns nil when s
// is none.
func startExt(env *Env, h *semantics.Heap, s *fun.Stm, trace bool) (*ext, error) {
	return startExtPool(env, h, s, trace, nil)
}

// startExtPool is startExt taking the form's trackers from pool (the
// compiled big-step's; nil: fresh ones), reading the variables through
// env: an *Env, or the compiled big-step's slots (which the form's body
// does not write: its own variables have slots of their own), so that no
// environment is made of them at every start.
func startExtPool(env vars, h *semantics.Heap, s *fun.Stm, trace bool, pool *trackerPool) (*ext, error) {
	x := &ext{s: s, vars: env, i: 1, trace: trace, pool: pool}
	if e, ok := env.(*Env); ok {
		x.env = e
	}
	switch e := s.Exp.(type) {
	case *fun.LoopExp:
		x.rule = EMemLoop.Name
		m, err := lookupInt(env, e.Bound, x.rule)
		if err != nil {
			return nil, err
		}
		if m < 0 {
			return nil, semantics.Stuckf(e.Bound.NamePos, x.rule, "loop bound %s = %d is negative", e.Bound.Name, m)
		}
		if len(e.Init) != len(e.Params) {
			return nil, semantics.Stuckf(e.Lparen, x.rule, "the loop has %d parameters, but %d initial values", len(e.Params), len(e.Init))
		}
		for _, y := range e.Init {
			v, ok := env.Lookup(y.Name)
			if !ok {
				return nil, semantics.Stuckf(y.NamePos, x.rule, "variable %s is unbound", y.Name)
			}
			x.vals = append(x.vals, v)
		}
		x.n = m
		return x, nil
	case *fun.ReduceExp:
		return x, x.startFold(env, h, EMemReduce.Name, e.Ne, e.Arr)
	case *fun.ScanExp:
		if err := x.startFold(env, h, EMemScan.Name, e.Ne, e.Arr); err != nil {
			return nil, err
		}
		dest, err := destination(env, s, x.rule)
		if err == nil && (dest.L.Rank() == 0 || dest.L.Dims[0].Elems != x.n) {
			err = semantics.Stuckf(s.Pat[0].Lparen, x.rule, "the destination %v does not have %d rows", dest.L, x.n)
		}
		if err != nil {
			x.abort(h)
			return nil, err
		}
		x.dest = dest
		return x, nil
	case *fun.FilterExp:
		return x, x.startFold(env, h, EMemFilter.Name, nil, e.Arr)
	case *fun.RedomapExp:
		return x, x.startRedomap(env, h, e)
	}
	return nil, nil
}

// startFold is the start of a reduce, scan or filter: xs, its number of
// rows, the accumulator z (none for a filter), and the tracker.
func (x *ext) startFold(env vars, h *semantics.Heap, rule string, ne, arr *fun.Ident) error {
	if err := x.foldOperands(env, rule, ne, arr); err != nil {
		return err
	}
	x.t = x.pool.get(x.trace)
	h.Push(x.t)
	x.on = true
	return nil
}

// foldOperands is what a fold's start looks up: xs, its number of rows,
// and the accumulator z (none for a filter).
func (x *ext) foldOperands(env vars, rule string, ne, arr *fun.Ident) error {
	x.rule = rule
	xs, err := lookupArray(env, arr, rule)
	if err != nil {
		return err
	}
	if xs.L.Rank() == 0 {
		return semantics.Stuckf(arr.NamePos, rule, "%s has rank 0", arr.Name)
	}
	x.xs, x.n = xs, xs.L.Dims[0].Elems
	if ne != nil {
		z, ok := env.Lookup(ne.Name)
		if !ok {
			return semantics.Stuckf(ne.NamePos, rule, "variable %s is unbound", ne.Name)
		}
		x.vals = []Value{z}
	}
	return nil
}

// params are the form's parameters.
func (x *ext) params() []*fun.Param { return fun.ExpParams(x.s.Exp) }

// groups are the support groups of the parameters.
func (x *ext) groups() []Group {
	if x.gs == nil {
		x.gs = Groups(x.params())
	}
	return x.gs
}

// row is row i of xs: an int read from the heap (traced as element i's),
// or an array by reference.
func (x *ext) row(h *semantics.Heap, i int64) (Value, error) {
	l, err := x.xs.L.Index(i)
	if err != nil {
		return Value{}, semantics.Stuckf(x.s.Exp.Pos(), x.rule, "row %d: %v", i, err)
	}
	if l.Rank() > 0 {
		return Value{Kind: ArrayVal, Block: x.xs.Block, L: l, Elem: x.xs.Elem}, nil
	}
	k, err := h.Read(semantics.Loc{Block: x.xs.Block, Offset: l.Offset})
	if err != nil {
		return Value{}, x.fail(err, fmt.Sprintf("reading row %d", i))
	}
	return Value{Kind: IntVal, K: k, Elem: x.xs.Elem}, nil
}

// fail turns a heap error into the form's: a race seen by its tracker is
// a race of the form; other races pass through; the rest is stuck.
func (x *ext) fail(err error, what string) error {
	var race semantics.ErrRace
	if errors.As(err, &race) {
		if race.Tracker == x.t {
			return semantics.Errorf(x.s.Exp.Pos(), semantics.RaceError, x.rule, "%v", race)
		}
		return err
	}
	var se *semantics.Error
	if errors.As(err, &se) {
		return err
	}
	return semantics.Stuckf(x.s.Exp.Pos(), x.rule, "%s: %v", what, err)
}

// bindVars are the variables outer, name ↦ val: Env.Bind on any vars.
type bindVars struct {
	outer vars
	name  string
	val   Value
}

// Lookup is E(x), name ↦ val shadowing outer's.
func (b *bindVars) Lookup(x string) (Value, bool) {
	if x == b.name {
		return b.val, true
	}
	return b.outer.Lookup(x)
}

// done reports whether every iteration has run.
func (x *ext) done() bool { return x.i > x.n }

// enter begins iteration x.i: the environment and body it runs.
func (x *ext) enter(h *semantics.Heap) (*Env, *fun.Body, error) {
	env := x.env
	b, err := x.enterWith(h, func(name string, v Value) { env = env.Bind(name, v) })
	if err != nil {
		return nil, nil, err
	}
	return env, b, nil
}

// startCombine binds a fold's operands, the accumulator and elem, to the
// parameters ps in their groups gs, and starts the combine step: outside
// the fold's tracker, in one of its own.
func (x *ext) startCombine(h *semantics.Heap, bind func(name string, v Value), ps []*fun.Param, gs []Group, elem Value) error {
	err := bindGroup(bind, ps, gs[0], x.vals[0], x.rule)
	if err == nil {
		err = bindGroup(bind, ps, gs[1], elem, x.rule)
	}
	if err != nil {
		return err
	}
	h.Pop()
	x.on = false
	x.older = semantics.Label(h.Blocks())
	x.comb = x.pool.get(true)
	h.Push(x.comb)
	x.comb.Start(1)
	return nil
}

// finishCombine ends combine step i: a step of a reduction tree may write
// only blocks it allocated (a race, at pos, else); its tracker may then
// serve again.
func (x *ext) finishCombine(h *semantics.Heap, pos semantics.Pos, i int64) error {
	x.endCombine(h)
	for _, w := range x.comb.Trace.At(1).Writes {
		if w.Block <= x.older {
			return semantics.Errorf(pos, semantics.RaceError, x.rule,
				"race: combine step %d writes %v, in a block it did not allocate (a reduction tree's steps may write only their own blocks)", i, w)
		}
	}
	x.pool.put(x.comb) // its writes are read: the tracker may serve again
	return nil
}

// enterWith begins iteration x.i: it binds the iteration's parameters, in
// order, through bind (on x.env), and returns the body to run.
func (x *ext) enterWith(h *semantics.Heap, bind func(name string, v Value)) (*fun.Body, error) {
	i := x.i
	switch e := x.s.Exp.(type) {
	case *fun.LoopExp:
		for j, y := range e.Params {
			bind(y.Name.Name, x.vals[j])
		}
		bind(e.Var.Name, Value{Kind: IntVal, K: i})
		return e.Body, nil
	case *fun.ReduceExp, *fun.ScanExp:
		x.t.Start(i)
		b, err := x.row(h, i)
		if err != nil {
			return nil, err
		}
		if err := x.startCombine(h, bind, x.params(), x.groups(), b); err != nil {
			return nil, err
		}
		return fun.ExpBody(e), nil
	case *fun.FilterExp:
		x.t.Start(i)
		v, err := x.row(h, i)
		if err != nil {
			return nil, err
		}
		if err := bindGroup(bind, x.params(), x.groups()[0], v, x.rule); err != nil {
			return nil, err
		}
		return e.Body, nil
	case *fun.RedomapExp:
		return x.enterRedomap(h, e, bind)
	}
	return nil, nil
}

// leave ends iteration x.i with the body's results vs.
func (x *ext) leave(h *semantics.Heap, vs []Value) error {
	if e, ok := x.s.Exp.(*fun.RedomapExp); ok {
		return x.leaveRedomap(h, e, vs)
	}
	i := x.i
	x.i++
	switch e := x.s.Exp.(type) {
	case *fun.LoopExp:
		if len(vs) != len(e.Params) {
			return semantics.Stuckf(e.Body.In, x.rule, "a loop body returns %d values for %d parameters", len(vs), len(e.Params))
		}
		x.vals = vs
	case *fun.ReduceExp, *fun.ScanExp:
		if err := x.finishCombine(h, x.s.Exp.Pos(), i); err != nil {
			return err
		}
		if len(vs) != 1 {
			return semantics.Stuckf(fun.ExpBody(e).In, x.rule, "an operator body returns one value, not %d", len(vs))
		}
		before := x.vals[0]
		x.vals = vs
		if _, ok := e.(*fun.ScanExp); ok {
			item := vs[0]
			if mutant.On("funmem-scan-exclusive") { // mutant: row i is z ⊕ x1 ⊕ … ⊕ x(i-1)
				item = before
			}
			row := i
			if mutant.On("funmem-scan-row") && i > 1 { // mutant: row i is written at row i-1
				row = i - 1
			}
			x.t.Start(i)
			if err := x.store(h, row, item); err != nil {
				return err
			}
		}
	case *fun.FilterExp:
		if len(vs) != 1 || vs[0].Kind != IntVal || vs[0].Elem != semantics.IntElem {
			return semantics.Stuckf(e.Body.In, x.rule, "a filter body returns one int, not %s", ValuesString(vs))
		}
		if vs[0].K != 0 {
			x.kept = append(x.kept, i)
		}
	}
	return nil
}

// endCombine takes the combine step's tracker off and puts the fold's
// back.
func (x *ext) endCombine(h *semantics.Heap) {
	if x.comb != nil && !x.on {
		h.Pop()
		h.Push(x.t)
		x.on = true
	}
}

// store writes v as row i of the destination (memcpy, eq 5, for an
// array), traced as element i's.
func (x *ext) store(h *semantics.Heap, i int64, v Value) error {
	pos := x.s.Pat[len(x.s.Pat)-1].Lparen
	dst, err := x.dest.L.Index(i)
	if err != nil {
		return semantics.Stuckf(pos, x.rule, "%v", err)
	}
	switch {
	case v.Kind == IntVal && dst.Rank() == 0:
		err = h.Write(semantics.Loc{Block: x.dest.Block, Offset: dst.Offset}, v.K)
	case v.Kind == ArrayVal:
		err = h.Memcpy(v.Block, v.L, x.dest.Block, dst)
	default:
		return semantics.Stuckf(pos, x.rule, "row %d is %v, which does not fit a row of shape %s", i, v, semantics.ShapeString(dst.Shape()))
	}
	if err != nil {
		return x.fail(err, fmt.Sprintf("storing row %d", i))
	}
	return nil
}

// finish ends the form: its values, in the pattern's order.
func (x *ext) finish(h *semantics.Heap, opts *HeapOptions) ([]Value, error) {
	var out []Value
	var err error
	switch e := x.s.Exp.(type) {
	case *fun.LoopExp:
		out = x.vals
	case *fun.ReduceExp:
		out, err = patternValues(x.s.Pat, x.vals, x.rule)
	case *fun.ScanExp:
		out = []Value{x.dest}
	case *fun.FilterExp:
		out, err = x.filterFinish(h, e)
	case *fun.RedomapExp:
		if e.Scan {
			out = []Value{x.dest}
		} else {
			out, err = patternValues(x.s.Pat, x.vals, x.rule)
		}
	}
	if x.on {
		h.Pop()
		x.on = false
		if opts.Trace != nil {
			opts.Trace(x.s, x.t.Trace)
		}
		x.pool.put(x.t)
	}
	if err != nil {
		return nil, err
	}
	opts.Counter.Hit(x.rule)
	return out, nil
}

// filterFinish binds k, the number of rows kept, evaluates the pattern's
// LMAD with it, and copies kept row j, row i of xs, to row j (each copy
// traced as element i's).
func (x *ext) filterFinish(h *semantics.Heap, e *fun.FilterExp) ([]Value, error) {
	kv, err := x.filterDest(e)
	if err != nil {
		return nil, err
	}
	if err := x.filterCopy(h, e); err != nil {
		return nil, err
	}
	return []Value{kv, x.dest}, nil
}

// filterDest binds k, the number of rows kept, and evaluates the
// pattern's LMAD with it: the destination, x.dest.
func (x *ext) filterDest(e *fun.FilterExp) (Value, error) {
	k := int64(len(x.kept))
	if mutant.On("funmem-filter-past-count") && k < x.n { // mutant: the pattern's size counts one row more than is kept
		k++
	}
	if len(x.s.Pat) != 2 {
		return Value{}, semantics.Stuckf(x.s.Let, x.rule, "a filter is bound to (k : int) (ys : …)")
	}
	kv := Value{Kind: IntVal, K: k}
	env := &bindVars{outer: x.vars, name: x.s.Pat[0].Name.Name, val: kv}
	dest, err := destination(env, &fun.Stm{Let: x.s.Let, Pat: x.s.Pat[1:], Exp: e}, x.rule)
	if err != nil {
		return Value{}, err
	}
	if dest.L.Rank() == 0 || dest.L.Dims[0].Elems != k {
		return Value{}, semantics.Stuckf(x.s.Pat[1].Lparen, x.rule, "the destination %v does not have %d rows", dest.L, k)
	}
	x.dest = dest
	return kv, nil
}

// filterCopy copies kept row j, row i of xs, to row j of the destination,
// each copy traced as element i's (when there is a tracker).
func (x *ext) filterCopy(h *semantics.Heap, e *fun.FilterExp) error {
	for j, i := range x.kept {
		if x.t != nil {
			x.t.Start(i)
		}
		src, err := x.xs.L.Index(i)
		if err != nil {
			return semantics.Stuckf(e.Keyword, x.rule, "row %d: %v", i, err)
		}
		row := Value{Kind: ArrayVal, Block: x.xs.Block, L: src, Elem: x.xs.Elem}
		if src.Rank() == 0 {
			v, err := h.Read(semantics.Loc{Block: x.xs.Block, Offset: src.Offset})
			if err != nil {
				return x.fail(err, fmt.Sprintf("reading row %d", i))
			}
			row = Value{Kind: IntVal, K: v, Elem: x.xs.Elem}
		}
		if err := x.store(h, int64(j+1), row); err != nil {
			return err
		}
	}
	return nil
}

// abort takes the form's trackers off the heap after an error.
func (x *ext) abort(h *semantics.Heap) {
	if x.comb != nil && !x.on {
		h.Pop() // the combine's
		x.comb = nil
		return
	}
	if x.on {
		h.Pop()
		x.on = false
	}
}

// raceOf turns a race seen by the form's tracker into its error.
func (x *ext) raceOf(err error) error {
	var race semantics.ErrRace
	if x.t != nil && errors.As(err, &race) && race.Tracker == x.t {
		return semantics.Errorf(x.s.Exp.Pos(), semantics.RaceError, x.rule, "%v", race)
	}
	return err
}

// evalAssert is E-MEM-ASSERT: 1 when se is not 0, else stuck with the
// message (as FUN's E-ASSERT).
func evalAssert(env vars, e *fun.AssertExp) ([]Value, string, error) {
	rule := EMemAssert.Name
	n, err := fun.EvalNum(e.Cond, numLookup(env), rule)
	if err != nil {
		return nil, "", err
	}
	if n.Elem != semantics.IntElem {
		return nil, "", semantics.Stuckf(e.Keyword, rule, "the condition %s is the float %s, not an int", fun.PrintSExp(e.Cond), n)
	}
	if n.Int() == 0 {
		if e.HasMsg {
			return nil, "", semantics.Stuckf(e.Keyword, rule, "assertion %s failed: %s", fun.PrintSExp(e.Cond), e.Msg)
		}
		return nil, "", semantics.Stuckf(e.Keyword, rule, "assertion %s failed", fun.PrintSExp(e.Cond))
	}
	return []Value{{Kind: IntVal, K: 1}}, rule, nil
}
