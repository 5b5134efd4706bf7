package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Kernels whose iterations cannot race, for the compiled big-step.
//
// A kernel's tracker records every access of every iteration, so that
// racefree (eq 4) is decided exactly whatever the LMADs are. But most
// kernels a compiler emits are race free by construction: iteration i
// writes only row i of its destination (index_f(L_z, i)) and blocks it
// allocates itself, and reads arrays that live elsewhere. For such a
// kernel the tracker can never report a race, and the compiled big-step,
// when it is not tracing (a trace needs the sets), runs the kernel without
// a tracker of its own: the same accesses (each still recorded by the
// trackers of the enclosing kernels, if any), results, errors and rule
// counts, without a record per access of its own. When tracing, its
// tracker keeps the trace only (Tracker.TraceOnly): the sets are the
// same, and the records for eq 4 that could never fail are not made.
//
// A kernel runs untracked when all of these hold:
//
//  1. (static, compiled once) every statement of its body that writes the
//     heap — a nested kernel, iota, copy, scan, scanomap or filter, at
//     any depth (branches of ifs, bodies of loops and folds, a redomap's
//     map and operator bodies) — writes through a block variable whose
//     binding, as the body's scoping resolves it, is an alloc inside the
//     body. Such a block is allocated anew by each iteration, and its
//     label never leaves the iteration: a label lives only in variables
//     (a store writes ints), and the iteration's value is copied into
//     the destination, not bound. So no other iteration
//     can touch it. At the top of the body a statement may also write
//     the kernel's own item, an array that is row i of the destination
//     (itemPattern: what inPlace makes of a nested kernel's row), which
//     condition 2 keeps from the other iterations' rows. Every other
//     form (scalar, index, slice, transpose, alloc, assert, if, loop,
//     reduce, redomap) writes nothing itself; a reduce's or redomap's
//     steps write only through the statements of its bodies. A form not
//     in this list gives up.
//  2. (when the kernel starts) the rows of the destination are disjoint:
//     row i of L_z lies in offset + (i-1)·s₁ + [lo, hi], where hi - lo is
//     the spread Σ (dₖ - 1)·|sₖ| of the other dimensions, so the rows are
//     disjoint when |s₁| exceeds the spread (or there is at most one row,
//     or the rows are empty).
//  3. (when the kernel starts) no array in scope lives in the
//     destination's block. Every array the body can read is one in scope
//     at the start, a slice, transpose or row of one (same block), or one
//     in a block the iteration allocated (1): so the body never reads the
//     destination, and the only locations written by more than one
//     iteration's code — none — are covered.
//
// Under 1–3 the locations an iteration writes outside its own blocks are
// its row of the destination, which no other iteration reads or writes:
// racefree holds for every run, so the tracker would never fail. Accesses
// that fail (out of bounds) are errors before any tracker sees them, in
// either case. iota and copy, the kernels a derived form stands for, are
// the same with an empty body: iota writes its rows only; copy reads the
// source's rows too, so its source must not live in the destination's
// block.

// freshScope is the static scope of a kernel's body: each name bound
// inside it, innermost first, and whether that binding is an alloc.
type freshScope struct {
	name  string
	fresh bool
	next  *freshScope
}

func (sc *freshScope) bind(x string, fresh bool) *freshScope {
	return &freshScope{name: x, fresh: fresh, next: sc}
}

// boundSince reports whether x is bound in sc above root (inside the
// body, the index's binding at root aside).
func (sc *freshScope) boundSince(x string, root *freshScope) bool {
	for ; sc != nil && sc != root; sc = sc.next {
		if sc.name == x {
			return true
		}
	}
	return false
}

// fresh reports whether x's innermost binding in the body is an alloc
// (false for a name bound outside the body).
func (sc *freshScope) isFresh(x string) bool {
	for ; sc != nil; sc = sc.next {
		if sc.name == x {
			return sc.fresh
		}
	}
	return false
}

// writesOnlyOwnBlocks is condition 1 for a kernel's body, whose index var
// is bound. s is the kernel's statement: a statement at the top of the
// body may also write the kernel's own item, its row of the destination
// (itemPattern).
func writesOnlyOwnBlocks(s *fun.Stm, e *fun.KernelExp) bool {
	root := (*freshScope)(nil).bind(e.Var.Name, false)
	var item func(*freshScope, *fun.Param) bool
	if len(s.Pat) == 1 {
		if z := ArrayOf(s.Pat[0].Type); z != nil {
			item = itemPattern(z, e.Var, root)
		}
	}
	return onlyFreshWrites(root, e.Body, item)
}

// itemPattern admits, in condition 1, a write into the kernel's own item:
// a pattern whose array is item x of the destination z (IsItem: z's
// block, and as LMADs index_f(L_z, x)), which is what inPlace makes of a
// nested kernel's row. Iteration x then writes its row of the destination
// only, as condition 2 requires of its item, and reads it only through
// that array. The names the two index functions and the block mention
// must not be bound in the body before the pattern (root is the scope
// that binds the index only), so that they mean what they meant when the
// kernel started.
func itemPattern(z *ArrayMem, x *fun.Ident, root *freshScope) func(*freshScope, *fun.Param) bool {
	return func(sc *freshScope, p *fun.Param) bool {
		a := ArrayOf(p.Type)
		if a == nil || !IsItem(a, z, x) || sc.boundSince(a.Block.Name, root) {
			return false
		}
		ok := true
		for _, l := range []*IndexFn{a.Index, z.Index} {
			off, dims := l.LMAD()
			es := []fun.SExp{off}
			for _, d := range dims {
				es = append(es, d.Elems, d.Stride)
			}
			for _, e := range es {
				fun.EachVar(e, func(v *fun.Ident) { ok = ok && !sc.boundSince(v.Name, root) })
			}
		}
		return ok
	}
}

// onlyFreshWrites is condition 1 for body b in scope sc; item, when not
// nil, admits writes into the kernel's own item at b's top level
// (itemPattern), not in nested bodies.
func onlyFreshWrites(sc *freshScope, b *fun.Body, item func(*freshScope, *fun.Param) bool) bool {
	for _, s := range b.Stms {
		alloc := false
		switch e := s.Exp.(type) {
		case *AllocExp:
			alloc = len(s.Pat) == 1
		case *fun.ScalarExp, *fun.IndexExp, *fun.SliceExp, *fun.TransposeExp, *fun.AssertExp:
		case *fun.IfExp:
			if !onlyFreshWrites(sc, e.Then, nil) || !onlyFreshWrites(sc, e.Else, nil) {
				return false
			}
		case *fun.KernelExp:
			if !freshPattern(sc, s.Pat, item) || !onlyFreshWrites(sc.bind(e.Var.Name, false), e.Body, nil) {
				return false
			}
		case *fun.IotaExp, *fun.CopyExp:
			if !freshPattern(sc, s.Pat, item) {
				return false
			}
		case *fun.LoopExp:
			inner := sc
			for _, p := range e.Params {
				inner = inner.bind(p.Name.Name, false)
			}
			if !onlyFreshWrites(inner.bind(e.Var.Name, false), e.Body, nil) {
				return false
			}
		case *fun.RedomapExp:
			if e.Scan && !freshPattern(sc, s.Pat, nil) {
				return false
			}
			inner := sc
			for _, p := range e.Params {
				inner = inner.bind(p.Name.Name, false)
			}
			if !onlyFreshWrites(sc.bind(e.Var.Name, false), e.Map, nil) || !onlyFreshWrites(inner, e.Op, nil) {
				return false
			}
		case *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			if _, reduce := e.(*fun.ReduceExp); !reduce && !freshPattern(sc, s.Pat, nil) {
				return false
			}
			inner := sc
			for _, p := range fun.ExpParams(e) {
				inner = inner.bind(p.Name.Name, false)
			}
			if !onlyFreshWrites(inner, fun.ExpBody(e), nil) {
				return false
			}
		default:
			return false
		}
		for _, p := range s.Pat {
			sc = sc.bind(p.Name.Name, alloc)
		}
	}
	return true
}

// freshPattern reports whether every array of a pattern lives in a block
// the body allocated.
func freshPattern(sc *freshScope, pat []*fun.Param, item func(*freshScope, *fun.Param) bool) bool {
	for _, p := range pat {
		if a := ArrayOf(p.Type); a != nil && !sc.isFresh(a.Block.Name) && (item == nil || !item(sc, p)) {
			return false
		}
	}
	return true
}

// disjointRows is condition 2: the rows of l (its outermost dimension)
// touch disjoint offsets. It answers false where the arithmetic could
// overflow.
func disjointRows(l semantics.LMAD) bool {
	if l.Rank() == 0 {
		return false
	}
	if l.Dims[0].Elems <= 1 {
		return true
	}
	const limit = 1 << 31
	var spread int64
	for _, d := range l.Dims[1:] {
		if d.Elems <= 0 {
			return true // empty rows: nothing is written
		}
		if d.Elems > limit || d.Stride > limit || d.Stride < -limit {
			return false
		}
		spread += (d.Elems - 1) * abs64(d.Stride)
		if spread > 1<<60 {
			return false
		}
	}
	s := l.Dims[0].Stride
	if s > 1<<61 || s < -(1<<61) {
		return false
	}
	return abs64(s) > spread
}

func abs64(k int64) int64 {
	if k < 0 {
		return -k
	}
	return k
}

// noArrayIn is condition 3: no array in the slots of scope sc lives in
// block b.
func noArrayIn(fr []Value, sc *hscope, b semantics.Label) bool {
	for ; sc != nil; sc = sc.next {
		if v := &fr[sc.slot]; v.Kind == ArrayVal && v.Block == b {
			return false
		}
	}
	return true
}
