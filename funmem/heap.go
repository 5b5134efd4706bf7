package funmem

import (
	"errors"
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// HeapOptions configure the heap-based semantics.
type HeapOptions struct {
	Counter semantics.Counter
	// Trace, when set, receives each kernel's per-iteration read and
	// write sets (the boxed parts of Fig 10) when the kernel ends.
	Trace func(kernel *fun.Stm, tr *semantics.KernelTrace)
	// Schedule orders the small-step's kernel iterations (nil: in order).
	Schedule semantics.Schedule
	// Stats, when not nil, receives the cost counters (heap_stats.go).
	Stats *semantics.Stats
	// Jobs bounds the goroutines the compiled semantics runs a large
	// kernel's iterations on (heap_parallel.go): 0 for the default
	// (semantics.Jobs), 1 for in order. Results and errors do not depend
	// on it.
	Jobs int
	// MinParallelWork is the work (iterations × statements of the body)
	// from which a kernel is spread over goroutines: 0 for 8192.
	MinParallelWork int64
	// OnParallel, when not nil, is called when a kernel runs on
	// goroutines.
	OnParallel func()
	// ParallelWindow is the iterations a goroutine runs before the
	// goroutines meet (semantics.ParallelIterations; 0 for the default).
	ParallelWindow int64
	// NoScalarFolds switches off the plain loop of a redomap whose bodies
	// compute scalars only (heapcompile_redomap.go).
	NoScalarFolds bool
	// Budget is the run's fuel, the iterations of its kernels, loops and
	// folds (semantics.Budget); nil for semantics.DefaultBigFuel.
	// HeapOptionsOf makes one of the run's --fuel.
	Budget *semantics.Budget
	// Derive makes the rules (EvalRules) build the run's derivation.
	Derive bool
	// Races, when not nil, lets a kernel of the small-step that races
	// (eq 4) run on as hardware would, and is given its first race when
	// it ends (semantics.RunOptions.Races); nil stops the run at the race.
	Races func(race error)
}

// HeapOptionsOf are the heap semantics' options taken from a run's: the
// counter, the schedule, and the trace, whose kernels are named by their
// position and their statement up to "do".
func HeapOptionsOf(o *semantics.RunOptions) *HeapOptions {
	opts := &HeapOptions{Counter: o.Counter, Schedule: o.Schedule, Stats: o.Stats, Jobs: o.Jobs, Budget: semantics.NewBudget(o.Fuel), Races: o.Races, Derive: o.Derive}
	if o.Trace != nil {
		opts.Trace = func(s *fun.Stm, tr *semantics.KernelTrace) { o.Trace(KernelName(s), tr) }
	}
	return opts
}

// KernelName names a kernel statement in traces: its position and the
// statement up to "do".
func KernelName(s *fun.Stm) string {
	return s.Exp.Pos().String() + ": " + strings.SplitN(fun.PrintStm(s, true), " do ", 2)[0]
}

// BindInputs builds the environment and heap of a program's inputs: ints
// and floats as given (fun.BindInputs reads --arg, refusing an int for a
// float and the other way round); each mem input a fresh block just large enough for the array
// inputs that live in it, which are written there through their LMADs.
// Array sizes may be read off the arrays, as in FUN.
func BindInputs(p *fun.Program, args map[string]string) (*Env, *semantics.Heap, error) {
	fenv, err := valueArgs(p, args)
	if err != nil {
		return nil, nil, err
	}
	return bindInputsFrom(p, fenv, true)
}

// valueArgs binds the inputs of the un-memmed program but its blocks (so
// that a --data file's values go to the others, in order), as FUN does:
// it reads nothing but their declarations, so the body is left as it is
// (un-memming it too was a tenth of a property campaign's allocations).
// A --arg for a block is refused.
func valueArgs(p *fun.Program, args map[string]string) (*fun.Env, error) {
	if err := noBlockArgs(p, args); err != nil {
		return nil, err
	}
	return fun.BindInputs(&fun.Program{File: p.File, Inputs: valueInputs(p)}, args)
}

// bindInputsFrom is BindInputs of the values fenv binds (valueArgs). With
// adopt, a block that holds one array, dense from offset 0, is that
// array's buffer itself; without, every block is one of the heap's own,
// so that fenv's arrays stay as they are whatever the program writes
// (validity binds them for both semantics).
func bindInputsFrom(p *fun.Program, fenv *fun.Env, adopt bool) (*Env, *semantics.Heap, error) {
	vals := map[string]semantics.Array{}
	for _, b := range fenv.Bindings() {
		vals[b.Name] = b.Value
	}
	var env *Env
	for _, in := range p.Inputs {
		if in.Type.IsScalar() && !IsMem(in.Type) {
			v := vals[in.Name.Name]
			env = env.Bind(in.Name.Name, NumValue(semantics.Num{Elem: v.Elem, Bits: v.Int()}))
		}
	}
	// Each array's LMAD, evaluated over the int inputs; the blocks' sizes.
	lmads := map[string]semantics.LMAD{}
	size := map[string]int64{}
	for _, in := range p.Inputs {
		a := ArrayOf(in.Type)
		if a == nil {
			continue
		}
		l, err := evalIndexFn(env, a.Index, EMemProg.Name)
		if err != nil {
			return nil, nil, err
		}
		lmads[in.Name.Name] = l
		if n, ok := denseInput(l, vals[in.Name.Name]); ok {
			// Offsets Offset … Offset+n-1, none negative: no walk.
			if n > 0 {
				size[a.Block.Name] = max(size[a.Block.Name], l.Offset+n)
			}
			continue
		}
		if err := l.Image(func(off int64) error {
			if off < 0 {
				return fmt.Errorf("input %s's LMAD %v reaches offset %d", in.Name.Name, l, off)
			}
			size[a.Block.Name] = max(size[a.Block.Name], off+1)
			return nil
		}); err != nil {
			return nil, nil, semantics.Errorf(in.Lparen, semantics.InputError, "", "%v", err)
		}
	}
	// A block that holds one array, dense from offset 0, is that array's
	// buffer itself: fun.BindInputs made it for this binding alone.
	sole := map[string]string{} // block → its one array ("" for several)
	for _, in := range p.Inputs {
		if a := ArrayOf(in.Type); a != nil {
			if _, seen := sole[a.Block.Name]; seen {
				sole[a.Block.Name] = ""
			} else {
				sole[a.Block.Name] = in.Name.Name
			}
		}
	}
	adopted := map[string]bool{}
	h := &semantics.Heap{}
	for _, in := range p.Inputs {
		if IsMem(in.Type) {
			if x := sole[in.Name.Name]; x != "" && adopt {
				if n, ok := denseInput(lmads[x], vals[x]); ok && lmads[x].Offset == 0 && n == size[in.Name.Name] {
					l, err := h.Adopt(vals[x].Data)
					if err != nil {
						return nil, nil, semantics.Errorf(in.Lparen, semantics.InputError, "", "%v", err)
					}
					adopted[x] = true
					env = env.Bind(in.Name.Name, Value{Kind: BlockVal, Block: l})
					continue
				}
			}
			l, err := h.Alloc(size[in.Name.Name])
			if err != nil {
				return nil, nil, semantics.Errorf(in.Lparen, semantics.InputError, "", "%v", err)
			}
			env = env.Bind(in.Name.Name, Value{Kind: BlockVal, Block: l})
		}
	}
	for _, in := range p.Inputs {
		a := ArrayOf(in.Type)
		if a == nil {
			continue
		}
		bv, _ := env.Lookup(a.Block.Name)
		l, data, i := lmads[in.Name.Name], vals[in.Name.Name].Data, 0
		if adopted[in.Name.Name] {
			// Its block is its data.
		} else if n, ok := denseInput(l, vals[in.Name.Name]); ok && h.Plain() {
			// The writes in Image's order, as one copy (the block holds
			// Offset+n words: its size was taken from them).
			if n > 0 {
				copy(h.Block(bv.Block)[l.Offset:], data)
			}
		} else if err := l.Image(func(off int64) error {
			err := h.Write(semantics.Loc{Block: bv.Block, Offset: off}, data[i])
			i++
			return err
		}); err != nil {
			return nil, nil, semantics.Errorf(in.Lparen, semantics.InputError, "", "%v", err)
		}
		env = env.Bind(in.Name.Name, Value{Kind: ArrayVal, Block: bv.Block, L: l, Elem: in.Type.Elem})
	}
	return env, h, nil
}

// denseInput reports whether input array v's LMAD l is dense (its offsets,
// in Image's order, are Offset, Offset+1, …), from a nonnegative offset,
// with one offset per element of v: then its block's size and its writes
// need no walk over the offsets. n is the number of elements.
func denseInput(l semantics.LMAD, v semantics.Array) (n int64, ok bool) {
	n, ok = l.Dense()
	return n, ok && l.Offset >= 0 && n == int64(len(v.Data))
}

// noBlockArgs refuses --arg values for memory blocks.
func noBlockArgs(p *fun.Program, args map[string]string) error {
	for _, m := range MemInputs(p) {
		if _, ok := args[m]; ok {
			return semantics.Errorf(p.Inputs[0].Lparen, semantics.InputError, "", "--arg %s: memory blocks are not given but made to hold the arrays in them", m)
		}
	}
	return nil
}

// bindUnmemInputs binds the inputs of Unmem(p), for the value-based
// semantics: those that are given values as given (a --data file's
// values go to them, in order), the memory blocks 0.
func bindUnmemInputs(p *fun.Program, args map[string]string) (*fun.Env, error) {
	env, err := valueArgs(p, args)
	if err != nil {
		return nil, err
	}
	return unmemEnv(p, env), nil
}

// unmemEnv is env, the values of p's inputs but its blocks (valueArgs),
// with the blocks bound to 0.
func unmemEnv(p *fun.Program, env *fun.Env) *fun.Env {
	for _, m := range MemInputs(p) {
		env = env.Bind(m, semantics.Scalar(0))
	}
	return env
}

// EvalHeap runs a program by the heap-based big-step semantics of Fig 10
// (E-MEM-PROG) and returns its result values and the final heap. The
// program is compiled to closures over slots first (heapcompile.go).
func EvalHeap(p *fun.Program, env *Env, h *semantics.Heap, opts *HeapOptions) ([]Value, error) {
	opts = withBudget(opts)
	if opts.Stats != nil { // the heap counts the words read and written
		h.Count(opts.Stats)
		defer h.Count(nil)
	}
	return evalHeapCompiled(p, env, h, opts)
}

// withBudget is opts, or no options, with a budget of the default fuel
// when it has none: every run is bounded.
func withBudget(opts *HeapOptions) *HeapOptions {
	if opts == nil {
		opts = &HeapOptions{}
	}
	if opts.Budget == nil {
		o := *opts
		o.Budget = semantics.NewBudget(0)
		opts = &o
	}
	return opts
}

// kernel is a kernel in progress: its destination (ℓ, L_z), its number of
// iterations and its tracker of accesses.
type kernel struct {
	s     *fun.Stm
	dest  Value
	m     int64
	t     *semantics.Tracker
	order []int64 // the small-step's schedule of the iterations (nil: in order)
}

// startKernel begins E-MEM-KERNEL: E(y) = m, the destination is the
// pattern's block and LMAD, and a tracker starts recording.
func startKernel(env vars, h *semantics.Heap, s *fun.Stm, e *fun.KernelExp, trace bool) (*kernel, error) {
	m, dest, err := kernelStart(env, s, e)
	if err != nil {
		return nil, err
	}
	t := semantics.NewTracker(trace)
	h.Push(t)
	return &kernel{s: s, dest: dest, m: m, t: t}, nil
}

// kernelStart is E-MEM-KERNEL's premises before the iterations: the
// number of iterations m = E(y) and the destination, which has m items.
func kernelStart(env vars, s *fun.Stm, e *fun.KernelExp) (int64, Value, error) {
	rule := EMemKernel.Name
	m, err := lookupInt(env, e.Bound, rule)
	if err != nil {
		return 0, Value{}, err
	}
	if m < 0 {
		return 0, Value{}, semantics.Stuckf(e.Bound.NamePos, rule, "kernel bound %s = %d is negative", e.Bound.Name, m)
	}
	dest, err := destination(env, s, rule)
	if err != nil {
		return 0, Value{}, err
	}
	if dest.L.Rank() == 0 || dest.L.Dims[0].Elems != m {
		return 0, Value{}, semantics.Stuckf(s.Pat[0].Lparen, rule, "the destination %v does not have %d items", dest.L, m)
	}
	return m, dest, nil
}

// store copies iteration i's result to its place, index_f(L_z, i) (memcpy,
// eq 5); the copy's accesses count for iteration i.
func (k *kernel) store(h *semantics.Heap, i int64, vs []Value) error {
	rule := EMemKernel.Name
	pos := k.s.Pat[0].Lparen
	if len(vs) != 1 {
		return semantics.Stuckf(pos, rule, "a kernel body returns one value, not %d", len(vs))
	}
	return k.storeValue(h, i, &vs[0])
}

// storeValue is store of the body's one value v.
func (k *kernel) storeValue(h *semantics.Heap, i int64, v *Value) error {
	rule := EMemKernel.Name
	pos := k.s.Pat[0].Lparen
	dst, err := k.dest.L.Index(i)
	if err != nil {
		return semantics.Stuckf(pos, rule, "%v", err)
	}
	switch v.Kind {
	case IntVal:
		if dst.Rank() != 0 {
			return semantics.Stuckf(pos, rule, "iteration %d gives an integer, but the items have shape %s", i, semantics.ShapeString(dst.Shape()))
		}
		err = h.Write(semantics.Loc{Block: k.dest.Block, Offset: dst.Offset}, v.K)
	case ArrayVal:
		err = h.Memcpy(v.Block, v.L, k.dest.Block, dst)
	default:
		return semantics.Stuckf(pos, rule, "iteration %d gives the memory block %v, not an item", i, v.Block)
	}
	if err != nil {
		var race semantics.ErrRace
		if errors.As(err, &race) {
			return err
		}
		return semantics.Stuckf(pos, rule, "storing iteration %d: %v", i, err)
	}
	return nil
}

// race turns a race seen by this kernel's tracker into its error; other
// errors pass through.
func (k *kernel) race(err error) error { return k.raceAs(err, EMemKernel.Name) }

// raceAs is race, reporting the race as one of rule.
func (k *kernel) raceAs(err error, rule string) error {
	var race semantics.ErrRace
	if errors.As(err, &race) && race.Tracker == k.t {
		return semantics.Errorf(k.s.Exp.Pos(), semantics.RaceError, rule, "%v", race)
	}
	return err
}

// finish ends the kernel: z ↦ (ℓ, L_z).
func (k *kernel) finish(h *semantics.Heap, opts *HeapOptions) ([]Value, error) {
	h.Pop()
	if k.t.Found != nil && opts.Races != nil {
		opts.Races(semantics.Errorf(k.s.Exp.Pos(), semantics.RaceError, EMemKernel.Name, "%v", *k.t.Found))
	}
	if opts.Trace != nil {
		opts.Trace(k.s, k.t.Trace)
	}
	opts.Counter.Hit(EMemKernel.Name)
	return []Value{k.dest}, nil
}

// destination evaluates the pattern (z : τ @ m -> L) of a statement that
// makes a fresh array, of the pattern's element type.
func destination(env vars, s *fun.Stm, rule string) (Value, error) {
	if len(s.Pat) != 1 || ArrayOf(s.Pat[0].Type) == nil {
		return Value{}, semantics.Stuckf(s.Let, rule, "a fresh array is bound to one array pattern")
	}
	a := ArrayOf(s.Pat[0].Type)
	b, ok := env.Lookup(a.Block.Name)
	if !ok || b.Kind != BlockVal {
		return Value{}, semantics.Stuckf(a.Block.NamePos, rule, "%s is not a memory block", a.Block.Name)
	}
	l, err := evalIndexFn(env, a.Index, rule)
	if err != nil {
		return Value{}, err
	}
	return Value{Kind: ArrayVal, Block: b.Block, L: l, Elem: s.Pat[0].Type.Elem}, nil
}

// evalAtomic evaluates statements without bodies: E-MEM-SCALAR (elided in
// Fig 10 as conventional), E-MEM-ALLOC, E-MEM-INDEX, E-MEM-SLICE,
// E-MEM-TRANSPOSE, and the fresh arrays of iota and copy, which are kernels
// (§2) and so are traced and checked for races like one.
func evalAtomic(env vars, h *semantics.Heap, s *fun.Stm, opts *HeapOptions) ([]Value, string, error) {
	return evalAtomicPool(env, h, s, opts, nil)
}

// evalAtomicPool is evalAtomic taking the trackers of iota and copy from
// pool (nil: fresh ones).
func evalAtomicPool(env vars, h *semantics.Heap, s *fun.Stm, opts *HeapOptions, pool *trackerPool) ([]Value, string, error) {
	one := func(v Value, rule string) ([]Value, string, error) { return []Value{v}, rule, nil }
	switch e := s.Exp.(type) {
	case *fun.AssertExp:
		return evalAssert(env, e)
	case *fun.ScalarExp:
		n, err := fun.EvalNum(e.X, numLookup(env), EMemScalar.Name)
		if err != nil {
			return nil, "", err
		}
		return one(NumValue(n), EMemScalar.Name)
	case *AllocExp:
		rule := EMemAlloc.Name
		n, err := fun.EvalSExp(e.Size, envLookup(env), rule)
		if err != nil {
			return nil, "", err
		}
		l, err := h.Alloc(n)
		if err != nil {
			return nil, "", semantics.Stuckf(e.Alloc, rule, "%v", err)
		}
		return one(Value{Kind: BlockVal, Block: l}, rule)
	case *fun.IndexExp:
		rule := EMemIndex.Name
		a, err := lookupArray(env, e.Arr, rule)
		if err != nil {
			return nil, "", err
		}
		idx, err := fun.EvalIndices(e.Idx, envLookup(env), rule)
		if err != nil {
			return nil, "", err
		}
		off, err := a.L.Apply(idx)
		if err != nil {
			return nil, "", semantics.Stuckf(e.Pos(), rule, "%v of %s", err, e.Arr.Name)
		}
		k, err := h.Read(semantics.Loc{Block: a.Block, Offset: off})
		if err != nil {
			var race semantics.ErrRace
			if errors.As(err, &race) {
				return nil, "", err
			}
			return nil, "", semantics.Stuckf(e.Pos(), rule, "%s%v: %v", e.Arr.Name, idx, err)
		}
		return one(Value{Kind: IntVal, K: k, Elem: a.Elem}, rule) // the word, read as x's elements are
	case *fun.SliceExp:
		rule := EMemSlice.Name
		a, err := lookupArray(env, e.Arr, rule)
		if err != nil {
			return nil, "", err
		}
		pairs, err := fun.EvalSlices(e.Slices, envLookup(env), rule)
		if err != nil {
			return nil, "", err
		}
		l, err := a.L.Slice(pairs)
		if err != nil {
			return nil, "", semantics.Stuckf(e.Pos(), rule, "%v of %s", err, e.Arr.Name)
		}
		return one(Value{Kind: ArrayVal, Block: a.Block, L: l, Elem: a.Elem}, rule)
	case *fun.TransposeExp:
		rule := EMemTranspose.Name
		a, err := lookupArray(env, e.Arr, rule)
		if err != nil {
			return nil, "", err
		}
		l, err := a.L.Transpose()
		if err != nil {
			return nil, "", semantics.Stuckf(e.Pos(), rule, "%v", err)
		}
		return one(Value{Kind: ArrayVal, Block: a.Block, L: l, Elem: a.Elem}, rule)
	case *fun.IotaExp:
		// iota n ≡ kernel i <= n do in (i): iteration i writes i at L_z(i).
		rule := EMemIota.Name
		n, err := lookupInt(env, e.N, rule)
		if err != nil {
			return nil, "", err
		}
		return freshArray(env, h, s, rule, n, opts, pool, 0, func(i int64, dst semantics.LMAD, k *kernel) error {
			return h.Write(semantics.Loc{Block: k.dest.Block, Offset: dst.Offset}, i)
		})
	case *fun.CopyExp:
		// copy x ≡ kernels over x's dimensions: iteration i copies item i.
		rule := EMemCopy.Name
		a, err := lookupArray(env, e.Arr, rule)
		if err != nil {
			return nil, "", err
		}
		if a.L.Rank() == 0 {
			return nil, "", semantics.Stuckf(e.Pos(), rule, "copy of a rank-0 array")
		}
		return freshArray(env, h, s, rule, a.L.Dims[0].Elems, opts, pool, a.Block, func(i int64, dst semantics.LMAD, k *kernel) error {
			src, err := a.L.Index(i)
			if err != nil {
				return err
			}
			if dst.Rank() == 0 {
				v, err := h.Read(semantics.Loc{Block: a.Block, Offset: src.Offset})
				if err != nil {
					return err
				}
				return h.Write(semantics.Loc{Block: k.dest.Block, Offset: dst.Offset}, v)
			}
			return h.Memcpy(a.Block, src, k.dest.Block, dst)
		})
	}
	return nil, "", semantics.Stuckf(s.Let, EStms.Name, "no rule evaluates %s", fun.PrintExp(s.Exp))
}

// freshArray runs the kernel a derived form stands for: m iterations, each
// writing its item through write, traced and checked for races.
//
// With a pool (the compiled big-step) and no trace, a kernel that cannot
// race runs without a tracker (heaprace.go): its rows are disjoint and
// the block it reads, src (0 for none), is not its destination's.
func freshArray(env vars, h *semantics.Heap, s *fun.Stm, rule string, m int64, opts *HeapOptions, pool *trackerPool, src semantics.Label,
	write func(i int64, dst semantics.LMAD, k *kernel) error) ([]Value, string, error) {
	if m < 0 {
		return nil, "", semantics.Stuckf(s.Exp.Pos(), rule, "a kernel bound of %d is negative", m)
	}
	dest, err := destination(env, s, rule)
	if err != nil {
		return nil, "", err
	}
	if dest.L.Rank() == 0 || dest.L.Dims[0].Elems != m {
		return nil, "", semantics.Stuckf(s.Pat[0].Lparen, rule, "the destination %v does not have %d items", dest.L, m)
	}
	var t *semantics.Tracker
	safe := pool != nil && disjointRows(dest.L) && (src == 0 || src != dest.Block)
	if opts.Trace != nil || !safe {
		t = pool.get(opts.Trace != nil)
		t.TraceOnly = safe // traced, it cannot race: the trace only
		t.Expect(m)        // a trace of m iterations, allocated once
		h.Push(t)
	}
	k := &kernel{s: s, dest: dest, m: m, t: t}
	for i := int64(1); i <= m; i++ {
		if t != nil {
			t.Start(i)
		}
		dst, err := dest.L.Index(i)
		if err == nil {
			err = write(i, dst, k)
		}
		if err != nil {
			if t != nil {
				h.Pop()
			}
			if r := k.raceAs(err, rule); r != err {
				return nil, "", r
			}
			var race semantics.ErrRace
			if errors.As(err, &race) {
				return nil, "", err
			}
			return nil, "", semantics.Stuckf(s.Exp.Pos(), rule, "%v", err)
		}
	}
	if t != nil {
		h.Pop()
		if opts.Trace != nil {
			opts.Trace(s, t.Trace)
		}
		pool.put(t)
	}
	return []Value{dest}, rule, nil
}

func evalIndexFn(env vars, l *IndexFn, rule string) (semantics.LMAD, error) {
	off, dims := l.LMAD()
	var out semantics.LMAD
	var err error
	look := envLookup(env)
	if out.Offset, err = fun.EvalSExp(off, look, rule); err != nil {
		return out, err
	}
	if len(dims) > 0 {
		out.Dims = make([]semantics.LDim, 0, len(dims))
	}
	for _, d := range dims {
		var ld semantics.LDim
		if ld.Elems, err = fun.EvalSExp(d.Elems, look, rule); err != nil {
			return out, err
		}
		if ld.Stride, err = fun.EvalSExp(d.Stride, look, rule); err != nil {
			return out, err
		}
		if ld.Elems < 0 {
			return out, semantics.Stuckf(l.Pos, rule, "the LMAD %s has a negative size %d", l, ld.Elems)
		}
		out.Dims = append(out.Dims, ld)
	}
	return out, nil
}

func chooseBranch(env vars, e *fun.IfExp) (string, *fun.Body, error) {
	c, err := lookupInt(env, e.Cond, EMemIfT.Name)
	if err != nil {
		return "", nil, err
	}
	if c != 0 {
		return EMemIfT.Name, e.Then, nil
	}
	return EMemIfF.Name, e.Else, nil
}

func bindPattern(env *Env, s *fun.Stm, vs []Value) (*Env, error) {
	if err := patternArity(s, len(vs)); err != nil {
		return nil, err
	}
	for i, p := range s.Pat {
		env = env.Bind(p.Name.Name, vs[i])
	}
	return env, nil
}

// patternArity is E-STMS stuck when an expression gives n values to a
// pattern that binds another number.
func patternArity(s *fun.Stm, n int) error {
	if n != len(s.Pat) {
		return semantics.Stuckf(s.Let, EStms.Name, "the expression gives %d values, but the pattern binds %d", n, len(s.Pat))
	}
	return nil
}

func results(env *Env, b *fun.Body) ([]Value, error) {
	vs := make([]Value, len(b.Result))
	for i, x := range b.Result {
		v, ok := env.Lookup(x.Name)
		if !ok {
			return nil, semantics.Stuckf(x.NamePos, EStms.Name, "variable %s is unbound", x.Name)
		}
		vs[i] = v
	}
	return vs, nil
}

func envLookup(env vars) func(*fun.Ident, string) (int64, error) {
	return func(x *fun.Ident, rule string) (int64, error) { return lookupInt(env, x, rule) }
}

func lookupInt(env vars, x *fun.Ident, rule string) (int64, error) {
	v, ok := env.Lookup(x.Name)
	if !ok {
		return 0, semantics.Stuckf(x.NamePos, rule, "variable %s is unbound", x.Name)
	}
	if v.Kind != IntVal || v.Elem != semantics.IntElem {
		return 0, semantics.Stuckf(x.NamePos, rule, "%s is %v, not an integer", x.Name, v)
	}
	return v.K, nil
}

// numLookup reads the scalar variables of a scalar expression, ints and
// floats, for fun.EvalNum.
func numLookup(env vars) func(*fun.Ident, string) (semantics.Num, error) {
	return func(x *fun.Ident, rule string) (semantics.Num, error) {
		v, ok := env.Lookup(x.Name)
		if !ok {
			return semantics.Num{}, semantics.Stuckf(x.NamePos, rule, "variable %s is unbound", x.Name)
		}
		if v.Kind != IntVal {
			return semantics.Num{}, semantics.Stuckf(x.NamePos, rule, "%s is %v, not an int or a float", x.Name, v)
		}
		return v.Num(), nil
	}
}

func lookupArray(env vars, x *fun.Ident, rule string) (Value, error) {
	v, ok := env.Lookup(x.Name)
	if !ok {
		return Value{}, semantics.Stuckf(x.NamePos, rule, "variable %s is unbound", x.Name)
	}
	if v.Kind != ArrayVal {
		return Value{}, semantics.Stuckf(x.NamePos, rule, "%s is %v, not an array", x.Name, v)
	}
	return v, nil
}
