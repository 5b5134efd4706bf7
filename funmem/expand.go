package funmem

import (
	"fmt"
	"maps"
	"slices"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/mutant"
)

// Layout is where MemoryExpand puts each thread's part of an expanded
// block.
type Layout int

const (
	// GPU interleaves the threads' arrays: element j of thread x lives at
	// (x − 1) + y·L(j), so consecutive threads touch consecutive words
	// (coalesced access).
	GPU Layout = iota
	// CPU gives thread x the row (x − 1)·se … x·se − 1 of the block, so
	// one thread's accesses stay together.
	CPU
)

// String is the layout's name, as ParseLayout reads it.
func (l Layout) String() string {
	if l == CPU {
		return "cpu"
	}
	return "gpu"
}

// ParseLayout reads "gpu" or "cpu".
func ParseLayout(s string) (Layout, error) {
	switch s {
	case "gpu", "":
		return GPU, nil
	case "cpu":
		return CPU, nil
	}
	return GPU, fmt.Errorf("unknown layout %q (gpu or cpu)", s)
}

// MemoryExpand hoists allocations out of kernels (§5). It first moves each
// kernel-invariant allocation to the top of its kernel's body (the
// procedure assumes this was done), then, while some kernel
//
//	let p̄ = kernel x <= y do let (z : mem) = alloc se  b
//
// (z among the allocations at the top of the body) has x ∉ FV(se) and z
// used only in types in b, allocates one block z' of
// se·y before the kernel and rewrites every type [x1]…[xn] @ z -> L in b to
// live in z' at thread x's part (see Layout). Kernel indices run from 1, so
// thread x's part starts at (x − 1)·se, not the paper's x·se, which would
// reach past the block (ERRATA.md). Nested kernels expand from the inside
// out: an inner expansion's allocation becomes the outer kernel's.
//
// Beyond §5, which treats only allocations of one size in every thread at
// the top of a kernel's body (docs/funmem.md, "MemoryExpand"):
//
//   - a size that varies with the thread, affinely in x once the body's
//     scalar lets are substituted, is bounded by its largest value over
//     x = 1 … y, which every thread's part then has (expand_size.go);
//   - z may also be named as the block of a support group, in a loop's
//     initial values or a loop body's or an if branch's results: the
//     group's offset and strides are moved into z' as its type's are;
//   - inside a kernel, a loop body's allocations leave the loop
//     (expand_loop.go), one block reused by every iteration, or two used
//     in turn when each iteration's array is carried to the next, and an
//     array-valued or allocating fold becomes the loop it is in a thread
//     (expand_fold.go), so that they reach the top of the kernel's body.
//
// What still allocates in a kernel after it has a size known only inside
// (read from an array, or carried by a loop), a block an if returns
// without support, or sits in a scan's, a filter's or an if's body; the
// CUDA backend reports such kernels (compile --stats).
func MemoryExpand(p *fun.Program, layout Layout) *fun.Program {
	return memoryExpand(p, layout, false)
}

// memoryExpand is MemoryExpand; plain renames every expanded kernel's
// body, whether or not it still names an allocation's block, and runs
// every round to its end (TestMemoryExpandRenamesOnlyWhatIsLeft compares
// the two).
func memoryExpand(p *fun.Program, layout Layout, plain bool) *fun.Program {
	x := &expander{names: lazyNames(p), layout: layout, inputs: p.Inputs, plain: plain}
	body := p.Body
	for round := 0; ; round++ {
		x.changed = false
		h := x.hoistAllocs(body)
		if h == body && round > 0 && !plain {
			// Nothing hoisted, and every body as it was (hoistIn gives a
			// body back itself only when it has no closing parenthesis'
			// position, which x.body would drop): each kernel is what the
			// last round's x.body left it, which expanded it until none
			// of its allocations was expandable, so x.body would give
			// body itself, changing nothing.
			break
		}
		body = x.body(h)
		if !x.changed {
			break
		}
	}
	return &fun.Program{File: p.File, Inputs: p.Inputs, Body: body, Format: p.Format}
}

type expander struct {
	inputs  []*fun.Param
	names   *names
	layout  Layout
	changed bool
	plain   bool // memoryExpand's
	bufs    stmBufs
	// sets, defs and scopes are hoistIn's name sets, definitions and
	// type scopes, used again once the body they were made for is done
	// (none outlives its hoistIn): every round walks the whole program.
	sets   []map[string]bool
	defs   []map[string]fun.SExp
	scopes []*typeScope
}

// set is an empty set of names (a kernel's or a fold's bound), with
// room for about hint of them when it is new, given back by putSet.
func (x *expander) set(hint int) map[string]bool {
	if n := len(x.sets); n > 0 {
		m := x.sets[n-1]
		x.sets = x.sets[:n-1]
		return m
	}
	return make(map[string]bool, hint)
}

// putSet gives m back, emptied.
func (x *expander) putSet(m map[string]bool) {
	clear(m)
	x.sets = append(x.sets, m)
}

// defMap is an empty map of definitions (a kernel's defs), given back
// by putDefs.
func (x *expander) defMap() map[string]fun.SExp {
	if n := len(x.defs); n > 0 {
		m := x.defs[n-1]
		x.defs = x.defs[:n-1]
		return m
	}
	return map[string]fun.SExp{}
}

// putDefs gives m back, emptied.
func (x *expander) putDefs(m map[string]fun.SExp) {
	clear(m)
	x.defs = append(x.defs, m)
}

// scope is s.child(n), in a scope given back before (putScope).
func (x *expander) scope(s *typeScope, n int) *typeScope {
	k := len(x.scopes)
	if k == 0 {
		return s.child(n)
	}
	c := x.scopes[k-1]
	x.scopes = x.scopes[:k-1]
	c.parent = s
	if cap(c.binds) < n {
		c.binds = make([][]*fun.Param, 0, n)
	}
	return c
}

// putScope gives c back, emptied.
func (x *expander) putScope(c *typeScope) {
	clear(c.binds)
	c.binds, c.parent, c.index = c.binds[:0], nil, ""
	x.scopes = append(x.scopes, c)
}

// hoistAllocs moves, in every kernel body, the allocations whose sizes
// use only variables bound outside that body (or are bounded by such an
// expression: expand_size.go) to its top, and, inside kernels, the
// allocations of loop bodies out of their loops.
func (x *expander) hoistAllocs(b *fun.Body) *fun.Body {
	sc := &typeScope{}
	sc.bind(x.inputs)
	bound := x.set(len(b.Stms))
	defer x.putSet(bound)
	return x.hoistIn(b, hoistCtx{bound: bound, owned: true, types: sc})
}

// hoistCtx is where hoistIn works: bound, the names bound inside the
// innermost enclosing kernel body so far (all names bound so far outside
// kernels); inKernel, whether there is such a body; owned, whether the
// set is the body's own (an if's branches share their caller's set,
// taking back the names they add when done, rather than each being given
// a copy); kernel, the kernel whose body this is (nil for any other
// body), with defs, the scalar lets of that body so far that cannot be
// stuck; thread, whether the body runs inside a kernel, at any depth;
// types, the types of the names in scope around the body.
type hoistCtx struct {
	types                   *typeScope
	bound                   map[string]bool
	inKernel, owned, thread bool
	kernel                  *fun.KernelExp
	defs                    map[string]fun.SExp
}

// hoistIn is hoistAllocs of b, where c says.
func (x *expander) hoistIn(b *fun.Body, c hoistCtx) *fun.Body {
	bound := c.bound
	sc := x.scope(c.types, len(b.Stms))
	defer x.putScope(sc)
	var addedBuf [8]string
	added := addedBuf[:0] // the names this body adds to a set it does not own
	var allocs []*fun.Stm
	rest := x.bufs.get()
	bind := func(st *fun.Stm) {
		sc.bind(st.Pat)
		for _, q := range st.Pat {
			if !c.owned && !bound[q.Name.Name] {
				added = append(added, q.Name.Name)
			}
			bound[q.Name.Name] = true
		}
	}
	// place puts an allocation at the top of the body when its size uses
	// no name bound in the kernel's body, or is bounded by an expression
	// that uses none (the kernel's own body: the largest of its threads'
	// sizes), and in order otherwise.
	place := func(st *fun.Stm) {
		e := st.Exp.(*AllocExp)
		if c.inKernel {
			if !usesAny(e.Size, bound) {
				allocs = append(allocs, st)
				return
			}
			if k := c.kernel; k != nil {
				if se, ok := boundOver(e.Size, bound, c.defs, k.Var, fun.Var{Ident: k.Bound}); ok {
					allocs = append(allocs, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &AllocExp{Alloc: e.Alloc, Size: se, Rparen: e.Rparen}})
					return
				}
			}
		}
		rest = append(rest, st)
		bind(st)
	}
	for _, st := range b.Stms {
		if c.thread {
			if pre, l, ok := x.foldAsLoop(st, sc); ok {
				for _, s := range pre {
					rest = append(rest, s)
					bind(s)
				}
				st = l
			}
		}
		ns := st
		// inner is the scope of a body of st, which binds ps (and i).
		inner := func(i *fun.Ident, ps ...*fun.Param) *typeScope {
			in := x.scope(sc, 2)
			in.bind(ps)
			if i != nil {
				in.index = i.Name // an int
			}
			return in
		}
		switch e := st.Exp.(type) {
		case *fun.KernelExp:
			kb, defs, in := x.set(len(e.Body.Stms)+1), x.defMap(), inner(e.Var)
			kb[e.Var.Name] = true
			inner := x.hoistIn(e.Body, hoistCtx{bound: kb, inKernel: true, owned: true, thread: true, kernel: e, defs: defs, types: in})
			x.putSet(kb)
			x.putDefs(defs)
			x.putScope(in)
			if inner != e.Body {
				ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: inner}}
			}
		case *fun.IfExp:
			in := hoistCtx{bound: bound, inKernel: true, thread: c.thread, types: sc}
			if then, els := x.hoistIn(e.Then, in), x.hoistIn(e.Else, in); then != e.Then || els != e.Else {
				ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond, Then: then, Else: els}}
			}
			if c.thread {
				var pre []*fun.Stm
				pre, ns = x.outOfIf(ns, sc)
				for _, a := range pre {
					place(a)
				}
			}
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			// Their bodies run once per iteration, in order: allocations
			// stay there (each iteration's arrays live in blocks of their
			// own), but the kernels inside expand as any, and inside a
			// kernel a loop's allocations leave it (expand_loop.go).
			in := hoistCtx{bound: x.set(len(fun.ExpBody(e).Stms)), owned: true, thread: c.thread, types: inner(fun.ExpIndex(e), fun.ExpParams(e)...)}
			body := x.hoistIn(fun.ExpBody(e), in)
			x.putSet(in.bound)
			x.putScope(in.types)
			if body != fun.ExpBody(e) {
				ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithParts(e, nil, body)}
			}
			if _, loop := e.(*fun.LoopExp); loop && c.thread {
				var pre []*fun.Stm
				pre, ns = x.outOfLoop(ns)
				for _, a := range pre {
					place(a)
				}
			}
		case *fun.RedomapExp:
			// So do a redomap's: its elements are folded in order, each
			// map body's arrays in blocks of its own, as a reduce's rows.
			m := hoistCtx{bound: x.set(len(e.Map.Stms)), owned: true, thread: c.thread, types: inner(e.Var)}
			op := hoistCtx{bound: x.set(len(e.Op.Stms)), owned: true, thread: c.thread, types: inner(nil, e.Params...)}
			mb, ob := x.hoistIn(e.Map, m), x.hoistIn(e.Op, op)
			for _, h := range []hoistCtx{m, op} {
				x.putSet(h.bound)
				x.putScope(h.types)
			}
			if mb != e.Map || ob != e.Op {
				ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithBodies(e, nil, []*fun.Body{mb, ob})}
			}
		case *AllocExp:
			place(st)
			continue
		case *fun.ScalarExp:
			if c.kernel != nil {
				noteDef(c.defs, st, e)
			}
		}
		rest = append(rest, ns)
		bind(st)
	}
	for _, x := range added {
		delete(bound, x)
	}
	if len(allocs) > 0 {
		stms := append(allocs, rest...)
		x.bufs.put(rest)
		return sameBody(b, stms)
	}
	return x.bufs.body(b, rest)
}

// stmBufs are lists to build a body's statements in, used again once
// the body is made: most bodies MemoryExpand rebuilds are the ones it
// had (sameBody), and need no list of their own.
type stmBufs [][]*fun.Stm

// get is an empty list.
func (f *stmBufs) get() []*fun.Stm {
	if n := len(*f); n > 0 {
		l := (*f)[n-1]
		*f = (*f)[:n-1]
		return l
	}
	return make([]*fun.Stm, 0, 16)
}

// put gives l back.
func (f *stmBufs) put(l []*fun.Stm) {
	clear(l)
	*f = append(*f, l[:0])
}

// body is sameBody(b, stms) for stms a list of f's (nil when empty, as
// appending nothing to nothing gives), which it gives back.
func (f *stmBufs) body(b *fun.Body, stms []*fun.Stm) *fun.Body {
	var out *fun.Body
	switch {
	case len(stms) == 0:
		out = sameBody(b, nil)
	case b.Rparen == (fun.Pos{}) && slices.Equal(stms, b.Stms):
		out = b
	default:
		out = &fun.Body{Stms: slices.Clone(stms), In: b.In, Result: b.Result}
	}
	f.put(stms)
	return out
}

// sameBody is the body of b's In and Result with statements stms, as the
// passes here build it (no closing parenthesis' position): b itself when
// that is what b is, so that a pass shares what it leaves as it is (most
// of a program in MemoryExpand's last round, which changes nothing).
func sameBody(b *fun.Body, stms []*fun.Stm) *fun.Body {
	if b.Rparen == (fun.Pos{}) && (stms == nil) == (b.Stms == nil) && slices.Equal(stms, b.Stms) {
		return b
	}
	return &fun.Body{Stms: stms, In: b.In, Result: b.Result}
}

// usesAny reports whether se uses a name of the set.
func usesAny(se fun.SExp, set map[string]bool) bool {
	var buf [8]*fun.Ident
	for _, v := range fun.FreeVars(se, buf[:0]) {
		if set[v.Name] {
			return true
		}
	}
	return false
}

// body expands the kernels of b, inner ones first. It shares the
// statements and bodies in which nothing changes (sameBody).
func (x *expander) body(b *fun.Body) *fun.Body {
	stms := x.bufs.get()
	for _, st := range b.Stms {
		ns := st
		switch e := st.Exp.(type) {
		case *fun.IfExp:
			if then, els := x.body(e.Then), x.body(e.Else); then != e.Then || els != e.Else {
				ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond, Then: then, Else: els}}
			}
		case *fun.KernelExp:
			inner := x.body(e.Body)
			k := e
			if inner != e.Body {
				k = &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: inner}
			}
			for j := x.expandable(k); j != nil; j = x.expandable(k) {
				var allocs []*fun.Stm
				allocs, k = x.expand(k, j)
				stms = append(stms, allocs...)
				x.changed = true
			}
			if k != e {
				ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: k}
			}
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			if body := x.body(fun.ExpBody(e)); body != fun.ExpBody(e) {
				ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithParts(e, nil, body)}
			}
		case *fun.RedomapExp:
			if mb, ob := x.body(e.Map), x.body(e.Op); mb != e.Map || ob != e.Op {
				ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithBodies(e, nil, []*fun.Body{mb, ob})}
			}
		}
		stms = append(stms, ns)
	}
	return x.bufs.body(b, stms)
}

// joint is what one step of MemoryExpand expands: allocations at the top
// of a kernel's body (their indices), and the blocks of if patterns that
// hold them (aliases). §5 expands one allocation at a time; when an if
// returns its block as the block of its pattern's arrays, whose LMADs
// the pattern fixes (the simplifier drops their support when both
// branches agree), every branch's block must move at once, and the
// pattern's arrays with them, as the map lmadMap moves all of them alike:
// in the GPU layout it depends only on the thread and the kernel's bound;
// in the CPU layout on the allocation's size too, which must then be the
// same in every branch.
type joint struct {
	allocs  []int
	members map[string]bool // the allocations' blocks
	aliases map[string]bool
}

// expandable finds, among the allocations at the top of the kernel's body
// (hoistAllocs puts the invariant ones there), one that MemoryExpand's
// condition holds for: let z = alloc se with x ∉ FV(se), z only used in
// types or as the block of support groups (groupsOnly), with the
// allocations and if patterns that go with it (joint). It returns nil
// when there is none.
func (x *expander) expandable(k *fun.KernelExp) *joint {
	tops := map[string]int{}
	for i, st := range k.Body.Stms {
		if _, ok := st.Exp.(*AllocExp); !ok {
			break
		}
		tops[st.Pat[0].Name.Name] = i
	}
	if len(tops) == 0 {
		return nil // (most kernels, once expanded: no need to find their ifs)
	}
	var ifs []*fun.Stm
	eachBody(k.Body, func(b *fun.Body) {
		for _, s := range b.Stms {
			if _, ok := s.Exp.(*fun.IfExp); ok {
				ifs = append(ifs, s)
			}
		}
	})
	for i := range len(tops) {
		if j := x.jointFrom(k, i, tops, ifs); j != nil {
			return j
		}
	}
	return nil
}

// jointFrom is the joint expansion of the allocation at index i of the
// kernel's top (tops: the top's allocations by block; ifs: the if
// statements of the body, at any depth), or nil.
func (x *expander) jointFrom(k *fun.KernelExp, i int, tops map[string]int, ifs []*fun.Stm) *joint {
	size := func(t int) fun.SExp { return k.Body.Stms[t].Exp.(*AllocExp).Size }
	if mentions(size(i), k.Var.Name) {
		return nil
	}
	j := &joint{allocs: []int{i}, members: map[string]bool{k.Body.Stms[i].Pat[0].Name.Name: true}, aliases: map[string]bool{}}
	held := func(r string) bool { return j.members[r] || j.aliases[r] }
	for changed := true; changed; {
		changed = false
		for _, st := range ifs {
			e := st.Exp.(*fun.IfExp)
			blocks := groupBlocks(st.Pat)
			for p, q := range st.Pat {
				if !IsMem(q.Type) || blocks[p] != nil || len(e.Then.Result) != len(st.Pat) || len(e.Else.Result) != len(st.Pat) {
					continue
				}
				rs := []string{e.Then.Result[p].Name, e.Else.Result[p].Name}
				if !held(rs[0]) && !held(rs[1]) {
					continue
				}
				for _, r := range rs {
					if held(r) {
						continue
					}
					t, ok := tops[r]
					if !ok || mentions(size(t), k.Var.Name) || x.layout == CPU && !Normalize(size(t)).Equal(Normalize(size(i))) {
						return nil
					}
					j.allocs = append(j.allocs, t)
					j.members[r] = true
					changed = true
				}
				if !j.aliases[q.Name.Name] {
					j.aliases[q.Name.Name] = true
					changed = true
				}
			}
		}
	}
	// An alias is renamed nowhere: its name must bind once in the body.
	binds := map[string]int{}
	eachBody(k.Body, func(b *fun.Body) {
		for _, s := range b.Stms {
			for _, ps := range [2][]*fun.Param{s.Pat, fun.ExpParams(s.Exp)} {
				for _, p := range ps {
					if j.aliases[p.Name.Name] {
						binds[p.Name.Name]++
					}
				}
			}
		}
	})
	for a := range j.aliases {
		if binds[a] != 1 {
			return nil
		}
	}
	for z := range j.members {
		if !groupsOnly(k.Body, z, nil, j.aliases) {
			return nil
		}
	}
	for a := range j.aliases {
		if !groupsOnly(k.Body, a, nil, j.aliases) {
			return nil
		}
	}
	return j
}

// groupsOnly reports whether block z is named in b (the body of a form
// whose parameters or pattern ps group its results; nil for none) only
// in types and as the block of support groups: in a loop's initial
// values, a loop body's results, an if branch's results, each group in
// support form (Groups), so that regroup can move its offset and strides
// with the block; or as an if branch's result bound to one of the
// aliases. The paper's condition, "z is only used in patterns", is the
// case with no group (a kernel's body returns no block).
func groupsOnly(b *fun.Body, z string, ps []*fun.Param, aliases map[string]bool) bool {
	if !inGroupBlocks(b.Result, z, ps, aliases) {
		return false
	}
	for _, s := range b.Stms {
		switch e := s.Exp.(type) {
		case *fun.IfExp:
			if !groupsOnly(e.Then, z, s.Pat, aliases) || !groupsOnly(e.Else, z, s.Pat, aliases) {
				return false
			}
		case *fun.LoopExp:
			if !inGroupBlocks(e.Init, z, e.Params, nil) || !groupsOnly(e.Body, z, e.Params, nil) {
				return false
			}
		case *fun.RedomapExp:
			if !groupsOnly(e.Map, z, nil, aliases) || !groupsOnly(e.Op, z, nil, aliases) {
				return false
			}
		default:
			if c := fun.ExpBody(e); c != nil && !groupsOnly(c, z, nil, aliases) {
				return false
			}
		}
	}
	return true
}

// inGroupBlocks reports whether every z among xs, the values of the
// parameters ps, is the block of a group of ps in support form, or the
// value of one of the aliases.
func inGroupBlocks(xs []*fun.Ident, z string, ps []*fun.Param, aliases map[string]bool) bool {
	at := -1
	for j, y := range xs {
		if y.Name == z {
			at = j
			break
		}
	}
	if at < 0 {
		return true
	}
	if len(xs) != len(ps) {
		return false
	}
	blocks := groupBlocks(ps)
	for j, y := range xs {
		if y.Name == z && blocks[j] == nil && !aliases[ps[j].Name.Name] {
			return false
		}
	}
	return true
}

// groupSupport is where a support group's parameters are among its
// form's: its offset's index and its strides'.
type groupSupport struct {
	off     int
	strides []int
}

// groupBlocks maps the index of each block among ps to where the rest of
// the support of the groups in it is (nil at the other indices: a
// pattern may put two arrays in one block, each with its support).
func groupBlocks(ps []*fun.Param) [][]groupSupport {
	out := make([][]groupSupport, len(ps))
	index := map[string]int{}
	for j, p := range ps {
		index[p.Name.Name] = j
	}
	for _, g := range Groups(ps) {
		if !g.IsArray() {
			continue
		}
		gs := groupSupport{off: index[g.Off]}
		for _, s := range g.Strides {
			gs.strides = append(gs.strides, index[s])
		}
		out[index[g.Block]] = append(out[index[g.Block]], gs)
	}
	return out
}

// eachBody calls f on b and on every body nested in it, depth first, in
// source order, as fun.Bodies does, but going from statement to statement
// rather than through every node: FUNMEM's one expression of its own,
// alloc, holds no body.
func eachBody(b *fun.Body, f func(*fun.Body)) {
	f(b)
	for _, s := range b.Stms {
		switch e := s.Exp.(type) {
		case *fun.IfExp:
			eachBody(e.Then, f)
			eachBody(e.Else, f)
		case *fun.RedomapExp:
			eachBody(e.Map, f)
			eachBody(e.Op, f)
		default:
			if c := fun.ExpBody(e); c != nil {
				eachBody(c, f)
			}
		}
	}
}

// lmadMap is how a rewrite moves the arrays of a block into another: an
// LMAD off + {(n_i : s_i)} becomes offset(off) + {(n_i : stride(s_i))}.
type lmadMap struct {
	offset, stride func(fun.SExp) fun.SExp
}

// retype is t with its LMAD moved by m into block to, when t is an array
// of block z; any other type as it is.
func (m lmadMap) retype(t fun.Type, z string, to *fun.Ident) fun.Type {
	a := ArrayOf(t)
	if a == nil || a.Block.Name != z {
		return t
	}
	off, dims := a.Index.LMAD()
	l := &IndexFn{Pos: a.Index.Pos, Offset: m.offset(off)}
	if len(dims) > 0 {
		l.Dims = make([]LDim, len(dims))
	}
	for i, d := range dims {
		l.Dims[i] = LDim{Elems: d.Elems, Stride: m.stride(d.Stride)}
	}
	return fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &ArrayMem{Block: &fun.Ident{NamePos: a.Block.NamePos, Name: to.Name}, Index: l}}
}

// move is b with block z replaced by to, moved by m: the types of its
// arrays (retypeBody) and its support groups (regroup), whose block z
// must be named only as groupsOnly allows.
func (x *expander) move(b *fun.Body, z string, to *fun.Ident, m lmadMap, ps []*fun.Param) *fun.Body {
	b = retypeBody(b, func(t fun.Type) (fun.Type, bool) {
		if a := ArrayOf(t); a != nil && a.Block.Name == z {
			return m.retype(t, z, to), true
		}
		return t, false
	})
	r := &regroup{z: z, to: to, m: m, names: x.names}
	return r.body(b, ps)
}

// expand is one step of MemoryExpand on the allocations j holds: the
// allocations before the kernel, and the kernel with its types (and
// support groups) moved into the expanded blocks.
func (x *expander) expand(k *fun.KernelExp, j *joint) ([]*fun.Stm, *fun.KernelExp) {
	y := fun.Var{Ident: k.Bound}
	thread := Sub(fun.Var{Ident: k.Var}, fun.Int(1)) // x − 1
	se := k.Body.Stms[j.allocs[0]].Exp.(*AllocExp).Size
	var m lmadMap
	switch x.layout {
	case CPU: // (x − 1)·se + se' + {(x_i : s_i)}
		base := Mul(thread, se) // the same for every type moved
		m.offset = func(off fun.SExp) fun.SExp { return Add(base, off) }
		m.stride = func(s fun.SExp) fun.SExp { return s }
	default: // (x − 1) + se'·y + {(x_i : s_i·y)}
		// The offset 0 (R(…)'s, most types') moves to the same
		// expression whatever its position: made once.
		var zero fun.SExp
		m.offset = func(off fun.SExp) fun.SExp {
			if k, ok := off.(*fun.Const); ok && k.Value == 0 {
				if zero == nil {
					zero = Add(thread, Mul(off, y))
				}
				return zero
			}
			return Add(thread, Mul(off, y))
		}
		m.stride = func(s fun.SExp) fun.SExp {
			if mutant.On("expand-stride") { // mutant: the strides are not scaled by y (threads' arrays overlap)
				return s
			}
			return Mul(s, y)
		}
	}
	var allocs []*fun.Stm
	to := map[string]*fun.Ident{}
	renamed := map[string]string{}
	taken := map[int]bool{}
	for _, i := range j.allocs {
		first := k.Body.Stms[i]
		z := first.Pat[0]
		zx := x.names.fresh(z.Name.Name + "_exp")
		allocs = append(allocs, &fun.Stm{Let: first.Let, Pat: []*fun.Param{{Lparen: z.Lparen, Name: zx, Type: Mem()}},
			Exp: &AllocExp{Alloc: first.Exp.Pos(), Size: Mul(first.Exp.(*AllocExp).Size, y)}})
		to[z.Name.Name], renamed[z.Name.Name] = zx, zx.Name
		taken[i] = true
	}
	for a := range j.aliases {
		to[a] = &fun.Ident{Name: a}
	}
	var rest []*fun.Stm // nil when every statement is taken, as appending none makes it
	if n := len(k.Body.Stms) - len(taken); n > 0 {
		rest = make([]*fun.Stm, 0, n)
	}
	for i, st := range k.Body.Stms {
		if !taken[i] {
			rest = append(rest, st)
		}
	}
	body := &fun.Body{Stms: rest, In: k.Body.In, Result: k.Body.Result}
	body = retypeBody(body, func(t fun.Type) (fun.Type, bool) {
		if a := ArrayOf(t); a != nil && to[a.Block.Name] != nil {
			return m.retype(t, a.Block.Name, to[a.Block.Name]), true
		}
		return t, false
	})
	for _, z := range slices.Sorted(maps.Keys(to)) {
		r := &regroup{z: z, to: to[z], m: m, names: x.names}
		body = r.body(body, nil)
	}
	// What is left of the allocations' names are the if branches' results
	// bound to the aliases. Most bodies have none left, and renaming
	// would copy the whole body for nothing.
	if x.plain || namesAny(body, renamed) {
		body = fun.MapBody(body, fun.All(fun.Renaming(renamed)))
	}
	return allocs, &fun.KernelExp{Kernel: k.Kernel, Var: k.Var, Bound: k.Bound, Body: body}
}

// namesAny reports whether an identifier of b has a name m maps: a
// binder (a pattern's, a form's parameter or index) or a use, which a
// useCounter of m's names counts (m holds a name or two: comparing
// strings costs less than walking every node through fun.Inspect).
func namesAny(b *fun.Body, m map[string]string) bool {
	found := false
	eachBody(b, func(b *fun.Body) {
		for _, s := range b.Stms {
			for _, p := range s.Pat {
				_, ok := m[p.Name.Name]
				found = found || ok
			}
			if x := fun.ExpIndex(s.Exp); x != nil {
				_, ok := m[x.Name]
				found = found || ok
			}
			for _, p := range fun.ExpParams(s.Exp) {
				_, ok := m[p.Name.Name]
				found = found || ok
			}
		}
	})
	if found {
		return true
	}
	u := useCounter{step: 1, small: make([]nameCount, 0, len(m))}
	for z := range m {
		u.count0(z)
	}
	u.body(b)
	for _, c := range u.small {
		if c.n > 0 {
			return true
		}
	}
	return false
}

// regroup rewrites the support groups whose block is z: the block becomes
// to, and the offset and strides, m's images of them, are bound by lets
// of their own (after the statements of the body whose results they are,
// before the loop whose initial values they are), so that each group
// describes its array as the array's moved type does.
type regroup struct {
	z     string
	to    *fun.Ident
	m     lmadMap
	names *names
}

// body is b, the body of a form whose parameters or pattern ps group its
// results (nil for none), regrouped.
func (r *regroup) body(b *fun.Body, ps []*fun.Param) *fun.Body {
	// b's statements are shared until one changes or a let comes before
	// one; b itself when nothing changes.
	var stms []*fun.Stm
	changed := false
	for i, s := range b.Stms {
		ns := s
		var pre []*fun.Stm
		switch e := s.Exp.(type) {
		case *fun.IfExp:
			if then, els := r.body(e.Then, s.Pat), r.body(e.Else, s.Pat); then != e.Then || els != e.Else {
				ns = &fun.Stm{Let: s.Let, Pat: s.Pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond, Then: then, Else: els}}
			}
		case *fun.LoopExp:
			var init []*fun.Ident
			pre, init = r.values(e.Init, e.Params)
			if body := r.body(e.Body, e.Params); len(pre) > 0 || !sameIdents(init, e.Init) || body != e.Body {
				l := *e
				l.Init, l.Body = init, body
				ns = &fun.Stm{Let: s.Let, Pat: s.Pat, Exp: &l}
			}
		default:
			if bs := fun.ExpBodies(e); bs != nil {
				nbs := make([]*fun.Body, len(bs))
				same := true
				for j, nb := range bs {
					nbs[j] = r.body(nb, nil)
					same = same && nbs[j] == nb
				}
				if !same {
					ns = &fun.Stm{Let: s.Let, Pat: s.Pat, Exp: fun.WithBodies(e, nil, nbs)}
				}
			}
		}
		if !changed && (ns != s || len(pre) > 0) {
			changed = true
			stms = append(stms, b.Stms[:i]...)
		}
		if changed {
			stms = append(stms, pre...)
			stms = append(stms, ns)
		}
	}
	post, res := r.values(b.Result, ps)
	if !changed && len(post) == 0 && sameIdents(res, b.Result) && (len(b.Stms) > 0 || b.Stms == nil) {
		return b
	}
	if !changed {
		stms = append(stms, b.Stms...)
	}
	stms = append(stms, post...)
	if len(stms) == 0 {
		stms = nil
	}
	return &fun.Body{Stms: stms, In: b.In, Result: res, Rparen: b.Rparen}
}

// sameIdents reports whether a and b are the same slice (values gives
// its argument back when it changes nothing).
func sameIdents(a, b []*fun.Ident) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) && (a == nil) == (b == nil)
}

// values regroups xs, the values of the parameters ps: the lets of the
// moved offsets and strides, and the values with them.
func (r *regroup) values(xs []*fun.Ident, ps []*fun.Param) ([]*fun.Stm, []*fun.Ident) {
	if !slices.ContainsFunc(xs, func(y *fun.Ident) bool { return y.Name == r.z }) {
		return nil, xs
	}
	out := slices.Clone(xs)
	var lets []*fun.Stm
	bind := func(j int, f func(fun.SExp) fun.SExp, role string) {
		y := r.names.fresh(r.to.Name + "_" + role)
		lets = append(lets, &fun.Stm{Pat: []*fun.Param{{Name: y, Type: fun.Type{}}}, Exp: &fun.ScalarExp{X: f(fun.Var{Ident: xs[j]})}})
		out[j] = y
	}
	for j, gs := range groupBlocks(ps) {
		if gs == nil || xs[j].Name != r.z {
			continue
		}
		out[j] = &fun.Ident{NamePos: xs[j].NamePos, Name: r.to.Name}
		for _, g := range gs {
			bind(g.off, r.m.offset, "off")
			for d, si := range g.strides {
				bind(si, r.m.stride, fmt.Sprintf("stride%d", d+1))
			}
		}
	}
	return lets, out
}

// retypeBody rewrites the types of every binding in b by f, which says
// whether it changed a type. The tree is the one a copy of every
// statement and body would be (positions of patterns' and bodies'
// closing parentheses dropped, as a body's statements are rebuilt), but
// what no type in changes is shared rather than copied: MemoryExpand
// moves one kernel's blocks at a time.
func retypeBody(b *fun.Body, f func(fun.Type) (fun.Type, bool)) *fun.Body {
	var stms []*fun.Stm // b's statements, once one has changed
	for i, st := range b.Stms {
		ns := retypeStm(st, f)
		if ns != st && stms == nil {
			stms = make([]*fun.Stm, i, len(b.Stms))
			copy(stms, b.Stms)
		}
		if stms != nil {
			stms = append(stms, ns)
		}
	}
	if stms == nil && len(b.Stms) > 0 {
		stms = b.Stms
	}
	return sameBody(b, stms)
}

// retypeStm is retypeBody for a statement: st itself when nothing in it
// changes.
func retypeStm(st *fun.Stm, f func(fun.Type) (fun.Type, bool)) *fun.Stm {
	pat, patChanged := st.Pat, false
	if len(st.Pat) == 0 && st.Pat != nil {
		pat, patChanged = nil, true // a rebuilt statement's empty pattern is nil
	}
	for i, p := range st.Pat {
		t, changed := f(p.Type)
		if !changed && p.Rparen == (fun.Pos{}) {
			continue
		}
		if !patChanged {
			pat, patChanged = slices.Clone(st.Pat), true
		}
		pat[i] = &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: t}
	}
	exp := st.Exp
	switch e := st.Exp.(type) {
	case *fun.IfExp:
		if then, els := retypeBody(e.Then, f), retypeBody(e.Else, f); then != e.Then || els != e.Else {
			exp = &fun.IfExp{If: e.If, Cond: e.Cond, Then: then, Else: els}
		}
	case *fun.KernelExp:
		if body := retypeBody(e.Body, f); body != e.Body {
			exp = &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: body}
		}
	case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
		ps, body := retypeParams(fun.ExpParams(e), f), retypeBody(fun.ExpBody(e), f)
		if !slices.Equal(ps, fun.ExpParams(e)) || body != fun.ExpBody(e) {
			exp = fun.WithParts(e, ps, body)
		}
	case *fun.RedomapExp:
		ps, m, op := retypeParams(e.Params, f), retypeBody(e.Map, f), retypeBody(e.Op, f)
		if !slices.Equal(ps, e.Params) || m != e.Map || op != e.Op {
			exp = fun.WithBodies(e, ps, []*fun.Body{m, op})
		}
	}
	if exp == st.Exp && !patChanged {
		return st
	}
	return &fun.Stm{Let: st.Let, Pat: pat, Exp: exp}
}

// retypeParams is ps with their types rewritten by f, or ps itself when
// f changes none.
func retypeParams(ps []*fun.Param, f func(fun.Type) (fun.Type, bool)) []*fun.Param {
	var out []*fun.Param
	for i, p := range ps {
		t, changed := f(p.Type)
		if !changed {
			if out != nil {
				out[i] = p
			}
			continue
		}
		if out == nil {
			out = slices.Clone(ps)
		}
		out[i] = &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: t, Rparen: p.Rparen}
	}
	if out == nil {
		return ps
	}
	return out
}
