package slice

import (
	"fmt"
	"github.com/arraysem/arraysem/fun"
	"maps"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// Part 3 of size slicing: shape slices and assertions hoisted out of
// kernels (Fig 9, Fig 10 A–D).
//
// In FUN a kernel's body cannot return arrays of different sizes (T-KERNEL
// asks the element type to mention only variables bound outside), so Fig
// 8's per-iteration regularity check has nothing to check. What is left of
// Figs 8–10 is the kernel body's own arrays: a body that computes a size
// from variables bound outside the kernel (matmul.fun's h1 = (p + 1) / 2)
// allocates, in FUNMEM, a block whose size is known only inside the
// kernel, which MemoryExpand cannot hoist. Its shape slice is hoisted out
// instead: computed once, before the kernel, as Fig 9 computes S before
// the mapT; and an assertion in the body whose slice is such is checked
// once before the kernel (Fig 10 A–D: the predicate slice distributed
// out, simplified to one check).
//
// The roots are the sizes of the allocating statements (kernel, iota,
// copy, scan, scanomap, filter) at the top of kernel bodies, in a nest of
// kernels (the allocations MemoryExpand can hoist), and the assertions in
// kernel bodies. A root's slice is hoisted when every statement of it is
// cheap (the cost model), uses no index or parameter of the nest, and —
// when it can fail — runs only where the nest's bounds (and the ifs around
// it) are known before the nest: the hoisted statement then runs only when
// they say the original would have run (Fig 10 D's if N == 0 …):
//
//	let (guard : int) = n > 0
//	let (h : int) = if guard then let (h_1 : int) = p / q in (h_1) else let (zero : int) = 0 in (zero)
//
// A slice is hoisted all the way out of the nest of kernels, loops and
// folds, to a body that runs at most once (the program's, or a branch of
// an if in it), so that it costs its operations once: a constant
// overhead, as the paper's cost model asks. A slice that depends on an
// index or parameter of the nest stays, and so does the allocation it
// sizes (slice_kept.go lists it).

// slCond is one condition under which a body of the nest runs: the bound of
// a kernel, loop, fold or redomap is above 0, or an if's condition is not
// 0 (then) or is 0 (else).
type slCond struct {
	kind int // slPos, slThen, slElse
	name string
}

const (
	slPos = iota
	slThen
	slElse
)

// sexp is the condition as a scalar expression: n > 0, c != 0 or c == 0.
func (c slCond) sexp() fun.SExp {
	x := fun.Named(c.name)
	switch c.kind {
	case slThen:
		return fun.Binary(semantics.Ne, x, fun.Int(0))
	case slElse:
		return fun.Binary(semantics.Eq, x, fun.Int(0))
	}
	return fun.Binary(semantics.Gt, x, fun.Int(0))
}

// String is the condition as FUN writes it.
func (c slCond) String() string { return fun.PrintSExp(c.sexp()) }

// slNode is a statement of the nest.
type slNode struct {
	stm    *fun.Stm
	body   *fun.Body // the body it is in
	path   []slCond  // when that body runs
	parent *slNode   // the statement whose body it is in (nil: the nest's own statement)
	deps   []*slNode
	bad    string // why it cannot move, found when it was met (it uses an index, …)
	memo   int    // hoistable: 0 unknown, 1 yes, 2 no
	why    string // why not, once known
}

// slBind is a binding made in the nest: a statement's, or an index or
// parameter's (iter says which).
type slBind struct {
	node *slNode
	iter string
}

// slRoot is a size of an allocation at the top of a kernel body, or an
// assertion in a kernel body.
type slRoot struct {
	alloc *fun.Stm // the allocation (nil for an assertion)
	size  string   // the size's name
	bind  *slBind  // its binding in the nest
	node  *slNode  // the assertion's node
}

// slNest is a nest of iterated forms, its outermost statement top in a
// body that runs at most once: its statements, and the roots to hoist.
type slNest struct {
	s     *slicer
	top   *fun.Stm
	scope []*fun.Stm // the statements from top on: the scope of what moves before it
	ts    slTypes
	nodes []*slNode
	roots []slRoot
}

// hoist hoists out of every nest of p that starts in a body that runs at
// most once.
func (s *slicer) hoist(p *fun.Program) {
	ts := slTypes{}
	for _, in := range p.Inputs {
		ts[in.Name.Name] = in.Type
	}
	s.onceBody(p.Body, ts)
}

// slIterated reports whether an expression runs a body many times.
func slIterated(e fun.Exp) bool {
	switch e.(type) {
	case *fun.KernelExp, *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp, *fun.RedomapExp:
		return true
	}
	return false
}

// onceBody hoists out of the nests that start in b, a body that runs at
// most once, and in the branches of its ifs.
func (s *slicer) onceBody(b *fun.Body, ts slTypes) {
	for i := 0; i < len(b.Stms); i++ {
		st := b.Stms[i]
		switch e := st.Exp.(type) {
		case *fun.IfExp:
			s.onceBody(e.Then, ts)
			s.onceBody(e.Else, ts)
		default:
			if slIterated(e) {
				n := &slNest{s: s, top: st, scope: b.Stms[i:], ts: ts}
				if pre := n.hoist(); len(pre) > 0 {
					b.Stms = append(b.Stms[:i], append(pre, b.Stms[i:]...)...)
					for _, t := range pre {
						ts.bindStm(t)
					}
					i += len(pre)
				}
			}
		}
		ts.bindStm(b.Stms[i])
	}
}

// slAllocDims are the sizes of the block FUN → FUNMEM allocates for a
// statement (nil for one that allocates none): the array's, or for a
// filter the array it filters (an upper bound of what it keeps).
func slAllocDims(s *fun.Stm, ts slTypes) []*fun.Ident {
	switch e := s.Exp.(type) {
	case *fun.KernelExp, *fun.IotaExp, *fun.CopyExp, *fun.ScanExp:
		return s.Pat[0].Type.Dims
	case *fun.RedomapExp:
		if e.Scan {
			return s.Pat[0].Type.Dims
		}
	case *fun.FilterExp:
		return ts[e.Arr.Name].Dims
	}
	return nil
}

// hoist collects the nest, decides what moves, and returns the
// statements to put before it.
func (n *slNest) hoist() []*fun.Stm {
	local := map[string]*slBind{}
	n.walkBodies(n.top, nil, nil, local, false, false)
	// Decide: a root moves with its slice when all of it can.
	moved := map[*slNode]bool{}
	var mark func(h *slNode)
	mark = func(h *slNode) {
		if moved[h] {
			return
		}
		moved[h] = true
		for _, d := range h.deps {
			mark(d)
		}
	}
	noted := map[*slNode]bool{}
	for _, r := range n.roots {
		switch {
		case r.alloc != nil && r.bind.iter != "":
			n.s.unhoisted[r.alloc] = fmt.Sprintf("its size %s is %s", r.size, r.bind.iter)
		case r.alloc != nil && !n.hoistable(r.bind.node):
			n.s.unhoisted[r.alloc] = fmt.Sprintf("its size %s %s", r.size, r.bind.node.why)
		case r.alloc != nil:
			if h := r.bind.node; !noted[h] {
				noted[h] = true
				mark(h)
				n.sizeNote(r.size, h)
			}
		case n.hoistable(r.node):
			mark(r.node)
			n.assertNote(r.node, "")
		default:
			n.assertNote(r.node, r.node.why)
		}
	}
	if len(moved) == 0 {
		return nil
	}
	// A statement inside a moving if moves with it.
	var list []*slNode
	for _, h := range n.nodes {
		inside := false
		for p := h.parent; p != nil; p = p.parent {
			inside = inside || moved[p]
		}
		if moved[h] && !inside {
			list = append(list, h)
		}
	}
	// Rename what would clash once in the outer scope (a name bound
	// elsewhere too), in the rest of its body: its scope.
	for _, h := range list {
		for _, p := range h.stm.Pat {
			if x := p.Name.Name; slBindCount(n.scope, x) > 1 {
				y := n.s.fresh(x)
				idx := slIndexOf(h.body, h.stm)
				slRenameFrom(h.body, idx+1, x, y)
				p.Name.Name = y
			}
		}
	}
	gone := map[*fun.Stm]bool{}
	for _, h := range list {
		gone[h.stm] = true
	}
	for _, h := range list {
		h.body.Stms = slWithout(h.body.Stms, gone)
	}
	// Emit, in the order of the program, each behind its guard when it
	// can fail.
	var out []*fun.Stm
	guards := map[string]string{}
	var guardOf func(path []slCond) string
	guardOf = func(path []slCond) string {
		key := fmt.Sprint(path)
		if g, ok := guards[key]; ok {
			return g
		}
		e := path[len(path)-1].sexp()
		if len(path) > 1 {
			e = fun.Binary(semantics.And, fun.Named(guardOf(path[:len(path)-1])), e)
		}
		g := n.s.fresh("guard")
		out = append(out, slScalarStm(g, fun.Type{}, e))
		n.s.rep.Overhead += slSexpOps(e)
		guards[key] = g
		return g
	}
	for _, h := range list {
		n.s.rep.Overhead += slStmOps(h.stm)
		if !slCanFail(h.stm) || len(h.path) == 0 {
			out = append(out, h.stm)
			continue
		}
		out = append(out, n.s.guarded(h.stm, guardOf(h.path)))
	}
	return out
}

// slIndexOf is the index of a statement in a body, or -1.
func slIndexOf(b *fun.Body, s *fun.Stm) int {
	for i, t := range b.Stms {
		if t == s {
			return i
		}
	}
	return -1
}

// slWithout is ss less the statements in gone.
func slWithout(ss []*fun.Stm, gone map[*fun.Stm]bool) []*fun.Stm {
	var out []*fun.Stm
	for _, s := range ss {
		if !gone[s] {
			out = append(out, s)
		}
	}
	return out
}

// guarded is statement t run only when g is not 0:
//
//	let (x : τ) = if g then let (x_1 : τ) = e in (x_1) else let (zero : τ) = 0 in (zero)
//
// (an assertion's else gives 1, the value of an assertion that holds:
// Fig 10 D's assert(True)).
func (s *slicer) guarded(t *fun.Stm, g string) *fun.Stm {
	then := &fun.Body{}
	inner := &fun.Stm{Let: t.Let, Exp: t.Exp}
	els := &fun.Body{}
	for _, p := range t.Pat {
		x := s.fresh(p.Name.Name)
		inner.Pat = append(inner.Pat, &fun.Param{Lparen: p.Lparen, Name: slNamed(p.Name, x), Type: p.Type, Rparen: p.Rparen})
		then.Result = append(then.Result, slIdent(x))
		var v fun.SExp = slZero(p.Type)
		base := "zero"
		if _, ok := t.Exp.(*fun.AssertExp); ok {
			v, base = fun.Int(1), "holds"
		}
		z := s.fresh(base)
		els.Stms = append(els.Stms, slScalarStm(z, p.Type, v))
		els.Result = append(els.Result, slIdent(z))
	}
	then.Stms = []*fun.Stm{inner}
	return &fun.Stm{Let: t.Let, Pat: t.Pat, Exp: &fun.IfExp{If: t.Let, Cond: slIdent(g), Then: then, Else: els}}
}

// walkBodies collects the statements of the bodies of st (a statement of
// the nest, or the nest's own statement when parent is nil), with the
// conditions under which they run. inKernel says the bodies are in a
// kernel's body, pure that they are at the top of a nest of kernel bodies
// (where MemoryExpand hoists from).
func (n *slNest) walkBodies(st *fun.Stm, parent *slNode, path []slCond, local map[string]*slBind, inKernel, pure bool) {
	iter := func(what string, x *fun.Ident) { local[x.Name] = &slBind{iter: what + " " + x.Name} }
	params := func(what string, ps []*fun.Param) {
		for _, p := range ps {
			iter(what, p.Name)
		}
	}
	with := func(c slCond) []slCond { return append(append([]slCond(nil), path...), c) }
	switch e := st.Exp.(type) {
	case *fun.KernelExp:
		iter("the kernel index", e.Var)
		n.ts[e.Var.Name] = fun.Type{}
		n.walk(e.Body, parent, with(slCond{slPos, e.Bound.Name}), local, true, pure || !inKernel)
	case *fun.IotaExp, *fun.CopyExp:
	case *fun.LoopExp:
		iter("the loop index", e.Var)
		params("the loop parameter", e.Params)
		n.ts.bindInner(e)
		n.walk(e.Body, parent, with(slCond{slPos, e.Bound.Name}), local, inKernel, false)
	case *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
		params("the parameter", fun.ExpParams(e))
		n.ts.bindInner(e)
		var arr *fun.Ident
		switch e := e.(type) {
		case *fun.ReduceExp:
			arr = e.Arr
		case *fun.ScanExp:
			arr = e.Arr
		case *fun.FilterExp:
			arr = e.Arr
		}
		var c []slCond
		if t := n.ts[arr.Name]; t.Rank() > 0 {
			c = with(slCond{slPos, t.Dims[0].Name})
		} else {
			c = with(slCond{slPos, arr.Name}) // not reached on a well-typed program
		}
		n.walk(fun.ExpBody(e), parent, c, local, inKernel, false)
	case *fun.RedomapExp:
		// The map body (with the index) and the operator body (with the
		// parameters) are sibling scopes: each may bind a name the other
		// binds too, so each is walked in its own copy of the bindings.
		c := with(slCond{slPos, e.Bound.Name})
		inMap, inOp := maps.Clone(local), maps.Clone(local)
		inMap[e.Var.Name] = &slBind{iter: "the index " + e.Var.Name}
		for _, p := range e.Params {
			inOp[p.Name.Name] = &slBind{iter: "the parameter " + p.Name.Name}
		}
		n.ts.bindFor(e, 0)
		n.walk(e.Map, parent, c, inMap, inKernel, false)
		n.ts.bindFor(e, 1)
		n.walk(e.Op, parent, c, inOp, inKernel, false)
	case *fun.IfExp:
		n.walk(e.Then, parent, with(slCond{slThen, e.Cond.Name}), local, inKernel, false)
		n.walk(e.Else, parent, with(slCond{slElse, e.Cond.Name}), local, inKernel, false)
	}
}

// walk collects the statements of body b of the nest.
func (n *slNest) walk(b *fun.Body, parent *slNode, path []slCond, local map[string]*slBind, inKernel, pure bool) {
	for _, t := range b.Stms {
		h := &slNode{stm: t, body: b, path: path, parent: parent}
		n.nodes = append(n.nodes, h)
		for x := range slFreeVars(t) {
			hb := local[x]
			switch {
			case hb == nil: // bound before the nest
			case hb.iter != "":
				if h.bad == "" {
					h.bad = "depends on " + hb.iter
				}
			default:
				h.deps = append(h.deps, hb.node)
			}
		}
		if inKernel && pure {
			for _, d := range slAllocDims(t, n.ts) {
				if hb := local[d.Name]; hb != nil {
					n.roots = append(n.roots, slRoot{alloc: t, size: d.Name, bind: hb})
				}
			}
		}
		if _, ok := t.Exp.(*fun.AssertExp); ok && inKernel {
			n.roots = append(n.roots, slRoot{node: h})
		}
		n.walkBodies(t, h, path, local, inKernel, pure)
		for _, p := range t.Pat {
			local[p.Name.Name] = &slBind{node: h}
		}
		n.ts.bindStm(t)
	}
}

// hoistable decides whether a statement of the nest can move out of it
// (with the statements it depends on), and if not, why.
func (n *slNest) hoistable(h *slNode) bool {
	if h.memo != 0 {
		return h.memo == 1
	}
	h.memo = 2
	t := h.stm
	switch r := slRecurrence(t); {
	case r != nil:
		h.why = fmt.Sprintf("is made by a recurrence (%s at %s)", fun.FormName(r.Exp), slAt(r.Pos()))
		return false
	case h.bad != "":
		h.why = h.bad
		return false
	}
	switch t.Exp.(type) {
	case *fun.ScalarExp, *fun.IndexExp, *fun.AssertExp:
	case *fun.IfExp:
		for _, p := range t.Pat {
			if !p.Type.IsScalar() {
				h.why = "is bound by an if that makes arrays"
				return false
			}
		}
	default:
		h.why = "depends on a view made in the kernel"
		return false
	}
	for _, d := range h.deps {
		if !n.hoistable(d) {
			h.why = d.why
			return false
		}
	}
	if slCanFail(t) {
		for _, c := range h.path {
			if _, inner := n.bound()[c.name]; inner {
				h.why = fmt.Sprintf("can fail, and runs only when %s, which is not known before the %s", c, fun.FormName(n.top.Exp))
				return false
			}
		}
	}
	h.memo = 1
	return true
}

// bound is the set of names bound in the nest.
func (n *slNest) bound() map[string]bool {
	out := map[string]bool{}
	for x := range slBinders(n.top) {
		out[x] = true
	}
	return out
}

// sizeNote and assertNote describe a decision.
func (n *slNest) sizeNote(size string, h *slNode) {
	pos := h.stm.Pos()
	for _, p := range h.stm.Pat {
		if p.Name.Name == size {
			pos = p.Name.NamePos
		}
	}
	guard, fig := n.guardText(h), "Fig 9"
	if guard != "" {
		fig = "Fig 9, guarded as in Fig 10 D"
	}
	n.s.note(pos, "sliced %s: its shape slice (%s) is hoisted out of the %s at %s and computed once before it%s (%s)",
		size, slCount(n.sliceSize(h), "statement"), fun.FormName(n.top.Exp), slAt(n.top.Pos()), guard, fig)
}

// assertNote notes an assertion hoisted, or kept (why says why).
func (n *slNest) assertNote(h *slNode, why string) {
	a := h.stm.Exp.(*fun.AssertExp)
	if why != "" {
		n.s.note(h.stm.Pos(), "kept the assertion %s in the %s at %s: it %s", fun.PrintSExp(a.Cond), fun.FormName(n.top.Exp), slAt(n.top.Pos()), why)
		return
	}
	n.s.note(h.stm.Pos(), "hoisted the assertion %s out of the %s at %s: it is checked once before it%s (Fig 10 A–D)",
		fun.PrintSExp(a.Cond), fun.FormName(n.top.Exp), slAt(n.top.Pos()), n.guardText(h))
}

// guardText says under which conditions a hoisted slice runs, when some
// statement of it can fail.
func (n *slNest) guardText(h *slNode) string {
	var conds []string
	seen := map[*slNode]bool{}
	var visit func(h *slNode)
	visit = func(h *slNode) {
		if seen[h] {
			return
		}
		seen[h] = true
		if slCanFail(h.stm) && len(h.path) > len(conds) {
			conds = conds[:0]
			for _, c := range h.path {
				conds = append(conds, c.String())
			}
		}
		for _, d := range h.deps {
			visit(d)
		}
	}
	visit(h)
	if len(conds) == 0 {
		return ""
	}
	return ", only when " + strings.Join(conds, " && ")
}

// sliceSize counts the statements of a slice.
func (n *slNest) sliceSize(h *slNode) int {
	seen := map[*slNode]bool{}
	var visit func(h *slNode)
	visit = func(h *slNode) {
		if !seen[h] {
			seen[h] = true
			for _, d := range h.deps {
				visit(d)
			}
		}
	}
	visit(h)
	return len(seen)
}
