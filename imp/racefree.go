package imp

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// Kernels whose iterations cannot race, decided when the kernel starts.
//
// A race tracker records every access of every iteration so that eq (4)
// is decided exactly however the offsets are computed. Most kernels a
// compiler emits touch, in iteration i, only the offsets c·i + r of the
// blocks they write, with r in a range narrower than c: writing ys[i-1],
// reading xs[i-1], or a row b[i·n + j - n - 1] for j = 1 … n. For such a
// kernel the tracker can never report a race, and the big-step, when it is
// not tracing (a trace needs the sets), runs the kernel without one: the
// same accesses, results, errors and rule counts, without the tracker's
// record per access (about half of a kernel's time).
//
// The plan (made once per run, per kernel, when it first starts: planOf)
// lists the body's accesses: the block variable and the offset
// expression, and the loops around the access inside the body, whose
// indices the offset may use. When the
// kernel starts (its bound n known), every variable the body never assigns
// has the value it will have in every iteration, so each offset is an
// affine function c·i + Σ cₖ·jₖ + d of the kernel's index i and the inner
// loops' indices jₖ, whose ranges [1, mₖ] are known too when the bounds
// mention only such variables. The kernel is race free when, for every
// block some access may write, all the accesses to it have the same c ≠ 0
// and the spread of the rest, Σ cₖ·jₖ + d over the ranges, is less than
// |c|: then iteration i touches only offsets in c·i + [lo, hi], and those
// sets are disjoint for different i. Accesses through a block variable
// the body declares (var m : mem, first thing it does with m) and assigns
// only by alloc are to blocks allocated by the same iteration, which no
// other iteration can name (labels live only in variables, and an
// iteration's variables end with it): they cannot race and are left out.
// An offset may also go through an int variable the body declares and
// then sets once, by an assignment of such an affine expression (jl <- j
// - 1; a[s * jl + o]), as FunMemToImp emits a stencil's neighbours: after
// that assignment, in the statements that follow it in its body and in
// theirs, the variable holds the expression's value (the one declaration
// and the one assignment of its name in the kernel's body, in that order,
// so nothing else sets it), and the plan reads the access through it as
// the expression (planScope.once, scopeFrame.defs).
// Anything else — an offset that is not affine in such variables, a block
// variable the body assigns otherwise, a bound that varies, a possible
// overflow of the offset's arithmetic — makes the plan give up, and the
// kernel is tracked as before.
//
// Accesses that fail (out of bounds, through a variable that is no block)
// are never recorded by a tracker either, so leaving them out is exact; the
// plan treats every access of the body as if it ran (a superset: branches
// of ifs, loops whose bound is not reached).

// racePlan is a kernel's plan: nil when the body has an access that it
// cannot bound.
type racePlan struct {
	loops []planLoop // the body's loops that bind indices
	acc   []planAccess
	// raceFree's: the loops' ranges and the accesses' affines at a start
	ranges [][2]int64
	uses   []planUse
}

// planUse is an access's affine when a kernel starts, and its block.
type planUse struct {
	block   semantics.Label
	a       affine
	written bool
}

// planLoop is a loop of the body: its index ranges over [lo, bound(E) - 1 + lo].
type planLoop struct {
	bound cexp
	lo    int64 // 1, or 0 for a for under the mutant imp-for-off-by-one
}

// planAccess is one access of the body.
type planAccess struct {
	block int32 // the block variable's slot (invariant in the body)
	write bool
	off   *linExp
}

// linExp is an offset expression over the kernel's index (loop -1), the
// inner loops' indices and invariant variables.
type linExp struct {
	op   semantics.Op // Add, Sub, Mul, Neg; or -1 for a leaf
	l, r *linExp
	k    int64 // a constant leaf
	slot int32 // an invariant variable's slot, or -1
	loop int   // an index leaf: -1 the kernel's, else the plan's loop
	leaf byte  // 'k' constant, 'v' invariant variable, 'i' index
}

// planScope is what the names of a part of the body mean while the plan is
// made: by slot (every name the body mentions has one), flags of
//
//   - assigned: assigned or bound anywhere in the kernel's body;
//   - badBlock: assigned in the body otherwise than by var and alloc;
//   - once: an int variable the body declares once and assigns once, and
//     binds no other way.
type planScope struct {
	m       *machine
	flags   []uint8
	kernelX string // the kernel's index ("" when the body assigns it)
}

const (
	planAssigned = 1 << iota
	planBadBlock
	planOnce
)

// has is whether x has the flag f.
func (sc *planScope) has(x *fun.Ident, f uint8) bool {
	s, ok := sc.m.slots[x.Name]
	return ok && int(s) < len(sc.flags) && sc.flags[s]&f != 0
}

func (sc *planScope) assigned(x *fun.Ident) bool { return sc.has(x, planAssigned) }
func (sc *planScope) once(x *fun.Ident) bool     { return sc.has(x, planOnce) }

// scopeFrame is a loop or a body around an access.
type scopeFrame struct {
	index    string             // a loop's index name ("" for a body frame)
	reliable bool               // the loop's body never assigns its index: it is the loop's count
	loop     int                // the loop's number in the plan (-1 for a body frame)
	fresh    names              // the blocks of the body's own (freshIn)
	declared map[string]bool    // the once variables this body has declared so far (a body frame)
	defs     map[string]*linExp // the once variables this body has set so far, to their expressions
}

// planOf is kernel c's plan (s its statement), made at its first start:
// a kernel that never starts, or runs with NoRaceFreePlans, never needs
// one. It is made with no loop around (m.inner nil), so its loops'
// bounds keep nothing between starts.
func (m *machine) planOf(c *cstmt, s *Kernel) *racePlan {
	if !c.planned {
		c.planned = true
		outer := m.inner
		m.inner = nil
		c.plan = m.racePlanOf(s)
		m.inner = outer
		// Compiling the body gave every name the plan reads a slot; were
		// one made now, it would be undeclared (as any name without one).
		m.grow()
	}
	return c.plan
}

// racePlanOf makes the plan of kernel s, or nil.
func (m *machine) racePlanOf(s *Kernel) *racePlan {
	// The flags, from the body's bindings counted by slot: int
	// declarations, assignments and the others (declarations of blocks,
	// allocations, reads, indices, folds' names). Both are the machine's,
	// made again for each plan.
	by, flags := m.planCounts[:0], m.planFlags[:0]
	fit := func() {
		by = append(by, make([]planCounts, len(m.names)-len(by))...)
		flags = append(flags, make([]uint8, len(m.names)-len(flags))...)
	}
	fit()
	clear(by)
	clear(flags)
	sc := &planScope{m: m, flags: flags}
	eachBinding(s.Body, func(x *fun.Ident, k bindKind) {
		i := m.slot(x)
		if int(i) >= len(by) {
			fit()
			sc.flags = flags
		}
		sc.flags[i] |= planAssigned
		switch k {
		case bindIntDecl:
			by[i].decls++
		case bindAssign:
			by[i].assigns++
		default:
			by[i].others++
		}
		if k != bindIntDecl && k != bindDecl && k != bindAlloc {
			sc.flags[i] |= planBadBlock
		}
	})
	if !sc.assigned(s.X) {
		sc.kernelX = s.X.Name
	}
	x, xok := m.slots[s.X.Name]
	for i, c := range by {
		if c.decls == 1 && c.assigns == 1 && c.others == 0 && (!xok || int32(i) != x) {
			sc.flags[i] |= planOnce
		}
	}
	m.planCounts, m.planFlags = by, sc.flags
	p := &racePlan{}
	if !m.planStmts(p, sc, s.Body, nil) {
		return nil
	}
	return p
}

// planCounts are a name's bindings in a kernel's body (racePlanOf).
type planCounts struct{ decls, assigns, others int32 }

// bindKind is how a statement binds a name (eachBinding).
type bindKind uint8

const (
	bindIntDecl bindKind = iota // var x : int
	bindDecl                    // var x : mem, var x : float
	bindAlloc                   // x <- alloc se
	bindAssign                  // x <- se
	bindRead                    // x <- y[se]
	bindIndex                   // a kernel's or for's index
	bindFold                    // a reduce's target, a fold's x, a and b
)

// eachBinding calls f on every name body assigns or binds, at any depth,
// with how.
func eachBinding(body []Stmt, f func(*fun.Ident, bindKind)) {
	for _, s := range body {
		switch s := s.(type) {
		case *Decl:
			if s.Type == Int {
				f(s.X, bindIntDecl)
			} else {
				f(s.X, bindDecl)
			}
		case *Alloc:
			f(s.X, bindAlloc)
		case *Assign:
			f(s.X, bindAssign)
		case *Read:
			f(s.X, bindRead)
		case *If:
			eachBinding(s.Then, f)
			eachBinding(s.Else, f)
		case *Kernel:
			f(s.X, bindIndex)
			eachBinding(s.Body, f)
		case *For:
			f(s.X, bindIndex)
			eachBinding(s.Body, f)
		case *Reduce, *Scan:
			fl, _ := folds(s)
			if r, ok := s.(*Reduce); ok {
				f(r.Target, bindFold)
			}
			f(fl.X, bindFold)
			f(fl.A, bindFold)
			f(fl.B, bindFold)
			eachBinding(fl.Body, f)
			eachBinding(fl.Combine, f)
		}
	}
}

// binds is whether body assigns or binds x, at any depth.
func binds(body []Stmt, x string) bool {
	found := false
	eachBinding(body, func(y *fun.Ident, _ bindKind) { found = found || y.Name == x })
	return found
}

// freshIn is the block variables body declares before anything else of
// it mentions them (and the kernel's body never assigns otherwise): in an
// execution of body they hold ⊥ or blocks it allocated.
func freshIn(body []Stmt, sc *planScope) names {
	fresh := declaredFirst(body)
	out := fresh[:0]
	for _, x := range fresh {
		if s, ok := sc.m.slots[x]; !ok || int(s) >= len(sc.flags) || sc.flags[s]&planBadBlock == 0 {
			out = append(out, x)
		}
	}
	return out
}

// names is a set of names, few (a body's declarations): a list.
type names []string

// has is whether x is one of ns.
func (ns names) has(x string) bool {
	for _, y := range ns {
		if y == x {
			return true
		}
	}
	return false
}

// declaredFirst is the names body declares (var x) before anything else
// of it mentions them, in the order of their declarations.
func declaredFirst(body []Stmt) names {
	// Only the mentions of the names body declares matter: those of the
	// others are not recorded (most of what a body mentions); and only
	// those before its last declaration.
	n, last := 0, -1
	for i, s := range body {
		if _, ok := s.(*Decl); ok {
			n, last = n+1, i
		}
	}
	if n == 0 {
		return nil
	}
	w := &mentioner{only: make(names, 0, n)}
	for _, s := range body[:last+1] {
		if d, ok := s.(*Decl); ok && !w.only.has(d.X.Name) {
			w.only = append(w.only, d.X.Name)
		}
	}
	w.seen = make([]bool, len(w.only))
	if len(w.only) > 16 { // many: by a map
		w.index = make(map[string]int, len(w.only))
		for i, x := range w.only {
			w.index[x] = i
		}
	}
	w.ident = func(x *fun.Ident) { w.name(x.Name) }
	var first names
	for _, s := range body[:last+1] {
		if d, ok := s.(*Decl); ok && !w.seen[w.find(d.X.Name)] {
			first = append(first, d.X.Name)
		}
		w.stmt(s)
	}
	return first
}

// mentioner records in seen the names of only that statements mention.
type mentioner struct {
	only  names
	seen  []bool           // by only's index
	index map[string]int   // only's indices, where they are many (nil: search only)
	ident func(*fun.Ident) // name's, for fun.EachVar (made once)
}

// find is x's index in only, or -1.
func (w *mentioner) find(x string) int {
	if w.index != nil {
		if i, ok := w.index[x]; ok {
			return i
		}
		return -1
	}
	for i, y := range w.only {
		if y == x {
			return i
		}
	}
	return -1
}

// name records x if it is one of only.
func (w *mentioner) name(x string) {
	if i := w.find(x); i >= 0 {
		w.seen[i] = true
	}
}

func (w *mentioner) exp(e fun.SExp) { fun.EachVar(e, w.ident) }

func (w *mentioner) all(ss []Stmt) {
	for _, s := range ss {
		w.stmt(s)
	}
}

// stmt records the names s mentions, in its bodies too.
func (w *mentioner) stmt(s Stmt) {
	switch s := s.(type) {
	case *Decl:
		w.name(s.X.Name)
	case *Assign:
		w.name(s.X.Name)
		w.exp(s.SE)
	case *Alloc:
		w.name(s.X.Name)
		w.exp(s.Size)
	case *Read:
		w.name(s.X.Name)
		w.name(s.Y.Name)
		w.exp(s.Index)
	case *Write:
		w.name(s.X.Name)
		w.exp(s.Index)
		w.exp(s.Value)
	case *Assert:
		w.exp(s.Cond)
	case *If:
		w.name(s.Cond.Name)
		w.all(s.Then)
		w.all(s.Else)
	case *Kernel:
		w.name(s.X.Name)
		w.exp(s.Bound)
		w.all(s.Body)
	case *For:
		w.name(s.X.Name)
		w.exp(s.Bound)
		w.all(s.Body)
	case *Reduce, *Scan:
		f, _ := folds(s)
		switch s := s.(type) {
		case *Reduce:
			w.name(s.Target.Name)
		case *Scan:
			w.name(s.Block.Name)
			w.exp(s.Addr)
		}
		for _, x := range []*fun.Ident{f.X, f.A, f.B, f.Yield, f.Result} {
			w.name(x.Name)
		}
		w.exp(f.Neutral)
		w.exp(f.Bound)
		w.all(f.Body)
		w.all(f.Combine)
	}
}

// planStmts adds the accesses of body, inside the frames outer, to p;
// false when one cannot be bounded.
func (m *machine) planStmts(p *racePlan, sc *planScope, body []Stmt, outer []scopeFrame) bool {
	frames := append(outer[:len(outer):len(outer)], scopeFrame{loop: -1, fresh: freshIn(body, sc)})
	here := &frames[len(frames)-1]
	for _, s := range body {
		ok := true
		switch s := s.(type) {
		case *Decl:
			if sc.once(s.X) {
				if here.declared == nil {
					here.declared = map[string]bool{}
				}
				here.declared[s.X.Name] = true
			}
		case *Assign:
			// The once variable's one assignment, after its declaration:
			// from here on it holds the expression's value.
			if !sc.once(s.X) || !declaredIn(frames, s.X.Name) {
				break
			}
			if e := m.linOf(sc, frames, s.SE); e != nil {
				if here.defs == nil {
					here.defs = map[string]*linExp{}
				}
				here.defs[s.X.Name] = e
			}
		case *Read:
			ok = m.planAccess(p, sc, frames, s.Y, s.Index, false)
		case *Write:
			ok = m.planAccess(p, sc, frames, s.X, s.Index, true)
		case *If:
			ok = m.planStmts(p, sc, s.Then, frames) && m.planStmts(p, sc, s.Else, frames)
		case *Kernel:
			ok = m.planLoop(p, sc, frames, s.X, s.Bound, s.Body, 1, func(inner []scopeFrame) bool { return m.planStmts(p, sc, s.Body, inner) })
		case *For:
			lo := int64(1)
			if mutant.On("imp-for-off-by-one") { // the index runs 0 … n-1 (loop)
				lo = 0
			}
			ok = m.planLoop(p, sc, frames, s.X, s.Bound, s.Body, lo, func(inner []scopeFrame) bool { return m.planStmts(p, sc, s.Body, inner) })
		case *Reduce, *Scan:
			f, _ := folds(s)
			ok = m.planLoop(p, sc, frames, f.X, f.Bound, f.Body, 1, func(inner []scopeFrame) bool {
				// A scan's write is element i's, at Addr in E, x ↦ i.
				if scan, isScan := s.(*Scan); isScan && !m.planAccess(p, sc, inner, scan.Block, scan.Addr, true) {
					return false
				}
				return m.planStmts(p, sc, f.Body, inner)
			}) && m.planStmts(p, sc, f.Combine, frames)
		}
		if !ok {
			return false
		}
	}
	return true
}

// declaredIn is whether once variable x was declared in frames, before
// the statement the walk is at.
func declaredIn(frames []scopeFrame, x string) bool {
	for _, f := range frames {
		if f.declared[x] {
			return true
		}
	}
	return false
}

// planLoop adds a loop binding x over [lo, bound - 1 + lo], whose body
// (or parts) each adds.
func (m *machine) planLoop(p *racePlan, sc *planScope, frames []scopeFrame, x *fun.Ident, bound fun.SExp, body []Stmt, lo int64, each func([]scopeFrame) bool) bool {
	for _, v := range fun.FreeVars(bound, nil) {
		if sc.assigned(v) || v.Name == sc.kernelX {
			return false // the bound may vary between iterations
		}
	}
	f := scopeFrame{index: x.Name, reliable: !binds(body, x.Name), loop: len(p.loops)}
	p.loops = append(p.loops, planLoop{bound: m.loopExp(bound), lo: lo}) // at each start of the kernel
	return each(append(frames[:len(frames):len(frames)], f))
}

// planAccess adds an access through block variable y at offset off.
func (m *machine) planAccess(p *racePlan, sc *planScope, frames []scopeFrame, y *fun.Ident, off fun.SExp, write bool) bool {
	for _, f := range frames {
		if f.fresh.has(y.Name) {
			return true // a block of this iteration's own
		}
	}
	if sc.assigned(y) {
		return false
	}
	e := m.linOf(sc, frames, off)
	if e == nil {
		return false
	}
	p.acc = append(p.acc, planAccess{block: m.slot(y), write: write, off: e})
	return true
}

// linOf compiles an offset, or nil when it is not affine in indices and
// invariant variables.
func (m *machine) linOf(sc *planScope, frames []scopeFrame, e fun.SExp) *linExp {
	switch e := e.(type) {
	case *fun.Const:
		return m.lin(linExp{op: -1, leaf: 'k', k: e.Value, slot: -1})
	case fun.Var:
		for i := len(frames) - 1; i >= 0; i-- {
			if f := frames[i]; f.loop >= 0 && f.index == e.Name {
				if !f.reliable {
					return nil
				}
				return m.lin(linExp{op: -1, leaf: 'i', loop: f.loop, slot: -1})
			}
			if d := frames[i].defs[e.Name]; d != nil {
				return d
			}
		}
		switch {
		case e.Name == sc.kernelX:
			return m.lin(linExp{op: -1, leaf: 'i', loop: -1, slot: -1})
		case sc.assigned(e.Ident):
			return nil
		}
		return m.lin(linExp{op: -1, leaf: 'v', slot: m.slot(e.Ident)})
	case *fun.UnOp:
		if e.Op != semantics.Neg {
			return nil
		}
		if x := m.linOf(sc, frames, e.X); x != nil {
			return m.lin(linExp{op: semantics.Neg, l: x})
		}
	case *fun.BinOp:
		if e.Op != semantics.Add && e.Op != semantics.Sub && e.Op != semantics.Mul {
			return nil
		}
		l, r := m.linOf(sc, frames, e.L), m.linOf(sc, frames, e.R)
		if l != nil && r != nil {
			return m.lin(linExp{op: e.Op, l: l, r: r})
		}
	}
	return nil
}

// lin is a new node e, from a chunk of them (a plan makes many, each
// small).
func (m *machine) lin(e linExp) *linExp {
	if len(m.lins) == cap(m.lins) {
		m.lins = make([]linExp, 0, min(max(2*cap(m.lins), 8), 64))
	}
	m.lins = append(m.lins, e)
	return &m.lins[len(m.lins)-1]
}

// limit bounds every value the plan computes, so that no sum or product
// of two of them overflows, and an offset whose every subexpression stays
// within it is computed by the machine's int64 arithmetic exactly.
const limit = 1 << 61

func inLimit(a int64) bool { return a >= -limit && a <= limit }

// affine is an offset's value c·i + r in iteration i, r in [lo, hi].
type affine struct{ c, lo, hi int64 }

// planEval computes the plan's affines when a kernel starts.
type planEval struct {
	env   []slot
	n     int64      // the kernel's bound
	loops [][2]int64 // the inner loops' index ranges
}

// eval is e's affine, false when it cannot be bounded.
func (pe *planEval) eval(e *linExp) (affine, bool) {
	var a affine
	switch e.leaf {
	case 'k':
		a = affine{lo: e.k, hi: e.k}
	case 'v':
		x := &pe.env[e.slot]
		if !x.ok || x.v.Mem || x.v.Elem != semantics.IntElem {
			return a, false
		}
		a = affine{lo: x.v.K, hi: x.v.K}
	case 'i':
		if e.loop < 0 {
			a = affine{c: 1}
		} else {
			r := pe.loops[e.loop]
			a = affine{lo: r[0], hi: r[1]}
		}
	default:
		l, ok := pe.eval(e.l)
		if !ok {
			return a, false
		}
		switch e.op {
		case semantics.Neg:
			a = affine{c: -l.c, lo: -l.hi, hi: -l.lo}
		case semantics.Add, semantics.Sub:
			r, ok := pe.eval(e.r)
			if !ok {
				return a, false
			}
			if e.op == semantics.Add {
				a = affine{c: l.c + r.c, lo: l.lo + r.lo, hi: l.hi + r.hi}
			} else {
				a = affine{c: l.c - r.c, lo: l.lo - r.hi, hi: l.hi - r.lo}
			}
		case semantics.Mul:
			r, ok := pe.eval(e.r)
			if !ok {
				return a, false
			}
			if r.c != 0 || r.lo != r.hi { // one side must be a constant
				l, r = r, l
			}
			if r.c != 0 || r.lo != r.hi {
				return a, false
			}
			k := r.lo
			if !mulOK(l.c, k) || !mulOK(l.lo, k) || !mulOK(l.hi, k) {
				return a, false
			}
			a = affine{c: l.c * k, lo: l.lo * k, hi: l.hi * k}
			if k < 0 {
				a.lo, a.hi = a.hi, a.lo
			}
		}
	}
	// The value's range over i in [1, n], within the limit.
	if !inLimit(a.c) || !inLimit(a.lo) || !inLimit(a.hi) || !mulOK(a.c, pe.n) ||
		!inLimit(a.c+a.lo) || !inLimit(a.c+a.hi) || !inLimit(a.c*pe.n+a.lo) || !inLimit(a.c*pe.n+a.hi) {
		return a, false
	}
	return a, true
}

// mulOK is whether a·b stays within the limit.
func mulOK(a, b int64) bool {
	if a == 0 || b == 0 {
		return true
	}
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	return a <= limit && b <= limit/a
}

// raceFree is whether the kernel of the plan, starting with bound n in
// env, has iterations that touch disjoint sets of the locations any of
// them writes: eq (4) holds whatever the iterations compute.
func (p *racePlan) raceFree(env []slot, n int64) bool {
	if n <= 1 {
		return true // one iteration races with none
	}
	if n > limit {
		return false
	}
	// The plan's buffers, made at its first start: a kernel nested in a
	// loop starts many times.
	if p.ranges == nil {
		p.ranges, p.uses = make([][2]int64, len(p.loops)), make([]planUse, 0, len(p.acc))
	}
	pe := planEval{env: env, n: n, loops: p.ranges}
	for k, l := range p.loops {
		v, ok := l.bound(env)
		if !ok || v.Elem != semantics.IntElem || !inLimit(v.Bits) {
			return false
		}
		// A loop that does not run contributes a phantom index (its
		// accesses never happen: any range is a superset).
		pe.loops[k] = [2]int64{l.lo, max(v.Bits-1, 0) + l.lo}
	}
	uses := p.uses[:0]
	for _, acc := range p.acc {
		b := &env[acc.block]
		if !b.ok || !b.v.Mem || !b.v.Defined {
			continue // the access is stuck: no tracker records it
		}
		a, ok := pe.eval(acc.off)
		if !ok {
			return false
		}
		uses = append(uses, planUse{b.v.L, a, acc.write})
	}
	for _, u := range uses {
		if !u.written {
			continue
		}
		// Every access to a written block: the same c ≠ 0, and the
		// offsets of one iteration within less than |c|.
		c, lo, hi := u.a.c, u.a.lo, u.a.hi
		for _, v := range uses {
			if v.block != u.block {
				continue
			}
			if v.a.c != c {
				return false
			}
			lo, hi = min(lo, v.a.lo), max(hi, v.a.hi)
		}
		if c == 0 || hi-lo >= max(c, -c) {
			return false
		}
	}
	return true
}

// logRead and logWrite add an access to the logs of the untracked kernels
// running (it belongs to the iteration each is in).
func (m *machine) logRead(loc semantics.Loc) {
	for _, l := range m.logs {
		l.Read(loc)
	}
}

func (m *machine) logWrite(loc semantics.Loc) {
	for _, l := range m.logs {
		l.Write(loc)
	}
}

// Folds that write nothing.
//
// A reduce's tracker treats its element parts and combine parts as the
// iterations of one kernel (I-REDUCE: racefree, eq 4, over the 2n
// parts). A race needs a write, so a reduce whose parts write nothing to
// the heap, at any depth, can never have one: its tracker would only
// record reads, one record per location read (tens of bytes each: a
// reduce over a 10^7-element input would keep hundreds of MB of them).
// The big-step, when it is not tracing, runs such a reduce without a
// tracker of its own: the same reads (each still recorded by the trackers
// of the enclosing kernels and folds, if any), results, errors and rule
// counts. A scan writes its result at every element, so it keeps its
// tracker.

// writeFree reports whether ss writes nothing to the heap at any depth:
// it declares, assigns, reads, branches, asserts, loops and reduces only.
func writeFree(ss []Stmt) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *Skip, *Decl, *Assign, *Read, *Assert:
		case *If:
			if !writeFree(s.Then) || !writeFree(s.Else) {
				return false
			}
		case *For:
			if !writeFree(s.Body) {
				return false
			}
		case *Reduce:
			if !writeFree(s.Body) || !writeFree(s.Combine) {
				return false
			}
		default: // write, alloc, kernel, scan
			return false
		}
	}
	return true
}

// A scan whose parts write nothing writes only its block, at Addr with
// its index x ↦ i; every other variable of Addr has, at that point, the
// value it had when the scan started (the parts' changes are undone
// before it). So when Addr is one-to-one in x (injective: x, or x plus or
// minus what does not mention x, or the negation of such), element i's
// write is to a location no other element writes. When, moreover, the
// block variables the parts read hold, when the scan starts, blocks other
// than the scan's (scanReads: variables no part sets, so that they hold
// them throughout), no element reads what another writes: the scan cannot
// race, and runs without a tracker.

// injective reports whether se, as a function of x with every other
// variable fixed, takes different values at different x (in two's
// complement arithmetic, which wraps: adding a constant and negating are
// one-to-one there too).
func injective(se fun.SExp, x string) bool {
	switch e := se.(type) {
	case fun.Var:
		return e.Name == x
	case *fun.UnOp:
		return e.Op == semantics.Neg && injective(e.X, x)
	case *fun.BinOp:
		if e.Op != semantics.Add && e.Op != semantics.Sub {
			return false
		}
		return injective(e.L, x) && !mentions(e.R, x) || !mentions(e.L, x) && injective(e.R, x)
	}
	return false
}

// mentions reports whether se uses variable x.
func mentions(se fun.SExp, x string) bool { return mentionsName(se, x) }

// scanReads lists the block variables the statements ss read (at any
// depth), or ok is false when one of them is set in parts (the scan's
// element and combine parts).
func scanReads(ss []Stmt, set map[string]bool, acc []*fun.Ident) (_ []*fun.Ident, ok bool) {
	for _, s := range ss {
		switch s := s.(type) {
		case *Read:
			if set[s.Y.Name] {
				return nil, false
			}
			acc = append(acc, s.Y)
		case *If:
			if acc, ok = scanReads(s.Then, set, acc); !ok {
				return nil, false
			}
			if acc, ok = scanReads(s.Else, set, acc); !ok {
				return nil, false
			}
		case *For:
			if acc, ok = scanReads(s.Body, set, acc); !ok {
				return nil, false
			}
		case *Reduce:
			if acc, ok = scanReads(s.Body, set, acc); !ok {
				return nil, false
			}
			if acc, ok = scanReads(s.Combine, set, acc); !ok {
				return nil, false
			}
		}
	}
	return acc, true
}

// untrackedScan is, for a scan whose parts write nothing, the slots of the
// block variables its parts read, and ok when Addr is injective in the
// index and no part sets the scan's block variable or one they read: the
// static half of the condition above, whose other half (the blocks
// differ) is checked when the scan starts (distinctBlocks).
func (m *machine) untrackedScan(s *Scan) (reads []int32, ok bool) {
	if !writeFree(s.Body) || !writeFree(s.Combine) || !injective(s.Addr, s.X.Name) {
		return nil, false
	}
	set := map[string]bool{}
	for _, x := range rebinds(s.Combine, rebinds(s.Body, nil)) {
		set[x] = true
	}
	if set[s.Block.Name] {
		return nil, false
	}
	var ys []*fun.Ident
	if ys, ok = scanReads(s.Body, set, nil); ok {
		ys, ok = scanReads(s.Combine, set, ys)
	}
	if !ok {
		return nil, false
	}
	for _, y := range ys {
		reads = append(reads, m.slot(y))
	}
	return reads, true
}

// distinctBlocks reports whether, now, slot b holds a block and each of
// the slots reads holds another one.
func (m *machine) distinctBlocks(b int32, reads []int32) bool {
	sb := m.env[b]
	if !sb.ok || !sb.v.Mem || !sb.v.Defined {
		return false
	}
	for _, r := range reads {
		if s := m.env[r]; !s.ok || !s.v.Mem || !s.v.Defined || s.v.L == sb.v.L {
			return false
		}
	}
	return true
}
