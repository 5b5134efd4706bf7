package proofstests

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// The campaigns' speed-ups replaced some tree walks and passes by ones that
// allocate less. Each test here runs the code as it was before (copied
// below) and as it is now on generated programs, FUN and FUNMEM (every
// variant), and wants the same answers.

// equivPrograms are n generated FUN programs and their FUNMEM variants.
func equivPrograms(t *testing.T, n int) []*fun.Program {
	t.Helper()
	if testing.Short() {
		n /= 10
	}
	var out []*fun.Program
	for k := 0; k < n; k++ {
		c := Generate(rand.New(rand.NewSource(int64(k)+1)), k%(MaxGenSize+1), MemGenConfig())
		p, err := c.Parsed()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
		vs, _ := Variants(p)
		for _, v := range vs {
			out = append(out, v.Prog)
		}
	}
	return out
}

// oldInspect is fun.Inspect as it was: each node's children collected in
// a slice, then inspected.
func oldInspect(n fun.Node, f func(fun.Node) bool) {
	if n == nil || !f(n) {
		return
	}
	for _, c := range oldChildren(n) {
		oldInspect(c, f)
	}
}

func oldChildren(n fun.Node) []fun.Node {
	var out []fun.Node
	idents := func(xs []*fun.Ident) {
		for _, x := range xs {
			out = append(out, x)
		}
	}
	params := func(ps []*fun.Param) {
		for _, p := range ps {
			out = append(out, p)
		}
	}
	switch n := n.(type) {
	case *fun.Program:
		params(n.Inputs)
		out = append(out, n.Body)
	case *fun.Body:
		for _, s := range n.Stms {
			out = append(out, s)
		}
		idents(n.Result)
	case *fun.Stm:
		params(n.Pat)
		out = append(out, n.Exp)
	case *fun.Param:
		out = append(out, n.Name)
		idents(n.Type.Dims)
		if n.Type.Ext != nil {
			out = append(out, n.Type.Ext)
		}
	case *fun.ScalarExp:
		out = append(out, n.X)
	case *fun.IndexExp:
		out = append(out, n.Arr)
		idents(n.Idx)
	case *fun.SliceExp:
		out = append(out, n.Arr)
		for _, s := range n.Slices {
			out = append(out, s.Off, s.Size)
		}
	case *fun.TransposeExp:
		out = append(out, n.Arr)
	case *fun.IotaExp:
		out = append(out, n.N)
	case *fun.CopyExp:
		out = append(out, n.Arr)
	case *fun.IfExp:
		out = append(out, n.Cond, n.Then, n.Else)
	case *fun.KernelExp:
		out = append(out, n.Var, n.Bound, n.Body)
	case *fun.LoopExp:
		params(n.Params)
		idents(n.Init)
		out = append(out, n.Var, n.Bound, n.Body)
	case *fun.ReduceExp:
		params(n.Params)
		out = append(out, n.Ne, n.Arr, n.Body)
	case *fun.ScanExp:
		params(n.Params)
		out = append(out, n.Ne, n.Arr, n.Body)
	case *fun.FilterExp:
		params(n.Params)
		out = append(out, n.Arr, n.Body)
	case *fun.RedomapExp:
		params(n.Params)
		out = append(out, n.Ne, n.Var, n.Bound, n.Map, n.Op)
	case *fun.AssertExp:
		out = append(out, n.Cond)
	case fun.Var:
		out = append(out, n.Ident)
	case *fun.BinOp:
		out = append(out, n.L, n.R)
	case *fun.UnOp:
		out = append(out, n.X)
	case *fun.Call:
		out = append(out, n.Arg)
	case fun.Extension:
		out = n.Children()
	}
	return out
}

// TestInspectAsBefore: fun.Inspect visits the same nodes in the same
// order as before, also when f prunes some subtrees.
func TestInspectAsBefore(t *testing.T) {
	for i, p := range equivPrograms(t, 300) {
		for _, prune := range []int{0, 2, 3, 7} {
			walk := func(inspect func(fun.Node, func(fun.Node) bool)) []string {
				var seen []string
				k := 0
				inspect(p, func(n fun.Node) bool {
					k++
					seen = append(seen, fmt.Sprintf("%T %p", n, n))
					if x, ok := n.(fun.Var); ok {
						seen = append(seen, x.Name)
					}
					return prune == 0 || k%prune != 0
				})
				return seen
			}
			old, now := walk(oldInspect), walk(fun.Inspect)
			if fmt.Sprint(old) != fmt.Sprint(now) {
				t.Fatalf("program %d, prune %d: Inspect visits\n%v\nbefore\n%v\n%s", i, prune, now, old, funmem.Print(p))
			}
		}
	}
}

// oldUnmem is funmem.Unmem as it was: every statement and parameter
// allocated on its own.
func oldUnmem(p *fun.Program) *fun.Program {
	out := &fun.Program{File: p.File, Body: oldUnmemBody(p.Body)}
	for _, in := range p.Inputs {
		out.Inputs = append(out.Inputs, oldUnmemParam(in))
	}
	return out
}

func oldUnmemParam(p *fun.Param) *fun.Param {
	return &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: fun.Type{Dims: p.Type.Dims, Elem: p.Type.Elem}}
}

func oldUnmemBody(b *fun.Body) *fun.Body {
	out := &fun.Body{In: b.In, Result: b.Result, Rparen: b.Rparen}
	for _, s := range b.Stms {
		ns := &fun.Stm{Let: s.Let, Exp: s.Exp}
		for _, p := range s.Pat {
			ns.Pat = append(ns.Pat, oldUnmemParam(p))
		}
		var after []*fun.Stm
		switch e := s.Exp.(type) {
		case *funmem.AllocExp:
			ns.Exp = &fun.ScalarExp{X: &fun.Const{ValuePos: e.Alloc, Value: 0}}
		case *fun.IfExp:
			ns.Exp = &fun.IfExp{If: e.If, Cond: e.Cond, Then: oldUnmemBody(e.Then), Else: oldUnmemBody(e.Else)}
		case *fun.KernelExp:
			ns.Exp = &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: oldUnmemBody(e.Body)}
		case *fun.LoopExp:
			ps := make([]*fun.Param, len(e.Params))
			for i, p := range e.Params {
				ps[i] = oldUnmemParam(p)
			}
			ns.Exp = fun.WithParts(e, ps, oldUnmemBody(e.Body))
		case *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			ps, b := oldUnmemOperands(fun.ExpParams(e), fun.ExpBody(e))
			ns.Exp = fun.WithParts(e, ps, b)
			if _, ok := e.(*fun.ReduceExp); ok {
				ns.Pat, after = oldUnmemGroups(s.Pat)
			}
		case *fun.RedomapExp:
			ps, op := oldUnmemOperands(e.Params, e.Op)
			ns.Exp = fun.WithBodies(e, ps, []*fun.Body{oldUnmemBody(e.Map), op})
			if !e.Scan {
				ns.Pat, after = oldUnmemGroups(s.Pat)
			}
		}
		out.Stms = append(append(out.Stms, ns), after...)
	}
	return out
}

func oldUnmemGroups(ps []*fun.Param) ([]*fun.Param, []*fun.Stm) {
	supp := map[string]bool{}
	for _, g := range funmem.Groups(ps) {
		if g.IsArray() {
			supp[g.Block], supp[g.Off] = true, true
			for _, s := range g.Strides {
				supp[s] = true
			}
		}
	}
	var keep []*fun.Param
	var zeros []*fun.Stm
	for _, p := range ps {
		if supp[p.Name.Name] {
			zeros = append(zeros, &fun.Stm{Let: p.Lparen, Pat: []*fun.Param{{Lparen: p.Lparen, Name: p.Name, Type: fun.Type{}, Rparen: p.Rparen}},
				Exp: &fun.ScalarExp{X: &fun.Const{ValuePos: p.Lparen, Value: 0}}})
			continue
		}
		keep = append(keep, oldUnmemParam(p))
	}
	return keep, zeros
}

func oldUnmemOperands(ps []*fun.Param, b *fun.Body) ([]*fun.Param, *fun.Body) {
	keep, zeros := oldUnmemGroups(ps)
	nb := oldUnmemBody(b)
	nb.Stms = append(zeros, nb.Stms...)
	return keep, nb
}

// TestUnmemAsBefore: funmem.Unmem gives the tree it gave before (nil
// and empty lists alike), and a fresh one: no statement or parameter
// shared with the FUNMEM program.
func TestUnmemAsBefore(t *testing.T) {
	for i, p := range equivPrograms(t, 300) {
		old, now := oldUnmem(p), funmem.Unmem(p)
		if !reflect.DeepEqual(old, now) {
			t.Fatalf("program %d: Unmem gives\n%s\nbefore\n%s", i, fun.Print(now), fun.Print(old))
		}
		mine := map[any]bool{}
		fun.Inspect(p, func(n fun.Node) bool {
			switch n.(type) {
			case *fun.Stm, *fun.Param, *fun.Body:
				mine[n] = true
			}
			return true
		})
		fun.Inspect(now, func(n fun.Node) bool {
			if mine[n] {
				t.Fatalf("program %d: Unmem's output shares %T %v with its input", i, n, n)
			}
			return true
		})
	}
}

// TestStmsBodiesAsBefore: fun.Stms and fun.Bodies, which skip the
// subtrees that hold no statements, see the statements and bodies the
// full walk saw, in its order.
func TestStmsBodiesAsBefore(t *testing.T) {
	for i, p := range equivPrograms(t, 300) {
		var old, now []any
		oldInspect(p.Body, func(n fun.Node) bool {
			switch n.(type) {
			case *fun.Stm, *fun.Body:
				old = append(old, n)
			}
			return true
		})
		fun.Bodies(p.Body, func(b *fun.Body) { now = append(now, b) })
		var stms []any
		fun.Stms(p.Body, func(s *fun.Stm) { stms = append(stms, s) })
		var wantStms, wantBodies []any
		for _, n := range old {
			if _, ok := n.(*fun.Stm); ok {
				wantStms = append(wantStms, n)
			} else {
				wantBodies = append(wantBodies, n)
			}
		}
		if !slices.Equal(stms, wantStms) || !slices.Equal(now, wantBodies) {
			t.Fatalf("program %d: Stms or Bodies differ from the full walk's", i)
		}
	}
}

// The old MemoryExpand (before hoisting shared one set of names among an
// if's branches, and retypeBody allocated a body's statements together):
// expand.go as it was, for TestMemoryExpandAsBefore.

type oldNames struct{ used map[string]bool }

func oldNewNames(p *fun.Program) *oldNames {
	n := &oldNames{used: map[string]bool{}}
	for _, in := range p.Inputs {
		n.used[in.Name.Name] = true
	}
	fun.Stms(p.Body, func(s *fun.Stm) {
		for _, q := range s.Pat {
			n.used[q.Name.Name] = true
		}
		if x := fun.ExpIndex(s.Exp); x != nil {
			n.used[x.Name] = true
		}
		for _, q := range fun.ExpParams(s.Exp) {
			n.used[q.Name.Name] = true
		}
	})
	return n
}

var oldKeywords = map[string]bool{"mem": true, "alloc": true, "let": true, "in": true, "if": true, "then": true, "else": true,
	"kernel": true, "do": true, "transpose": true, "iota": true, "copy": true, "int": true, "input": true}

func (n *oldNames) fresh(base string) *fun.Ident {
	name := base
	for i := 2; n.used[name] || oldKeywords[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	n.used[name] = true
	return &fun.Ident{Name: name}
}

// reach past the block (ERRATA.md). Nested kernels expand from the inside
// out: an inner expansion's allocation becomes the outer kernel's.
func oldMemoryExpand(p *fun.Program, layout funmem.Layout) *fun.Program {
	x := &oldExpander{names: oldNewNames(p), layout: layout}
	body := p.Body
	for {
		x.changed = false
		body = x.body(oldHoistAllocs(body, nil))
		if !x.changed {
			break
		}
	}
	return &fun.Program{File: p.File, Inputs: p.Inputs, Body: body}
}

type oldExpander struct {
	names   *oldNames
	layout  funmem.Layout
	changed bool
}

// hoistAllocs moves, in every kernel body, the allocations whose sizes
// use only variables bound outside that body to its top. local is the set
// of names bound inside the innermost enclosing kernel body (nil outside).
func oldHoistAllocs(b *fun.Body, local map[string]bool) *fun.Body {
	var allocs, rest []*fun.Stm
	bound := semantics.CloneMap(local)
	for _, st := range b.Stms {
		ns := st
		switch e := st.Exp.(type) {
		case *fun.KernelExp:
			inner := oldHoistAllocs(e.Body, map[string]bool{e.Var.Name: true})
			ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: inner}}
		case *fun.IfExp:
			ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond,
				Then: oldHoistAllocs(e.Then, semantics.CloneMap(bound)), Else: oldHoistAllocs(e.Else, semantics.CloneMap(bound))}}
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			// Their bodies run once per iteration, in order: allocations
			// stay there (each iteration's arrays live in blocks of their
			// own), but the kernels inside expand as any.
			ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithParts(e, nil, oldHoistAllocs(fun.ExpBody(e), nil))}
		case *fun.RedomapExp:
			// So do a redomap's: its elements are folded in order, each
			// map body's arrays in blocks of its own, as a reduce's rows.
			ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithBodies(e, nil, []*fun.Body{oldHoistAllocs(e.Map, nil), oldHoistAllocs(e.Op, nil)})}
		case *funmem.AllocExp:
			invariant := local != nil
			for _, v := range fun.FreeVars(e.Size, nil) {
				if bound[v.Name] {
					invariant = false
				}
			}
			if invariant {
				allocs = append(allocs, st)
				continue
			}
		}
		rest = append(rest, ns)
		for _, q := range st.Pat {
			bound[q.Name.Name] = true
		}
	}
	return &fun.Body{Stms: append(allocs, rest...), In: b.In, Result: b.Result}
}

func (x *oldExpander) body(b *fun.Body) *fun.Body {
	out := &fun.Body{In: b.In, Result: b.Result}
	for _, st := range b.Stms {
		switch e := st.Exp.(type) {
		case *fun.IfExp:
			out.Stms = append(out.Stms, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond, Then: x.body(e.Then), Else: x.body(e.Else)}})
		case *fun.KernelExp:
			inner := x.body(e.Body)
			k := &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: inner}
			for i := x.expandable(k); i >= 0; i = x.expandable(k) {
				var alloc *fun.Stm
				alloc, k = x.expand(k, i)
				out.Stms = append(out.Stms, alloc)
				x.changed = true
			}
			out.Stms = append(out.Stms, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: k})
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			out.Stms = append(out.Stms, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithParts(e, nil, x.body(fun.ExpBody(e)))})
		case *fun.RedomapExp:
			out.Stms = append(out.Stms, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithBodies(e, nil, []*fun.Body{x.body(e.Map), x.body(e.Op)})})
		default:
			out.Stms = append(out.Stms, st)
		}
	}
	return out
}

// expandable finds, among the allocations at the top of the kernel's body
// (hoistAllocs puts the invariant ones there), one that MemoryExpand's
// condition holds for: let z = alloc se with x ∉ FV(se), z only used in
// patterns (no body returns it). It returns its index, or -1.
func (x *oldExpander) expandable(k *fun.KernelExp) int {
	for i, st := range k.Body.Stms {
		a, ok := st.Exp.(*funmem.AllocExp)
		if !ok {
			return -1
		}
		if x.canExpand(k, i, a) {
			return i
		}
	}
	return -1
}

func (x *oldExpander) canExpand(k *fun.KernelExp, i int, a *funmem.AllocExp) bool {
	for _, v := range fun.FreeVars(a.Size, nil) {
		if v.Name == k.Var.Name {
			return false
		}
	}
	z := k.Body.Stms[i].Pat[0].Name.Name
	returned := false
	fun.Bodies(k.Body, func(b *fun.Body) {
		for _, r := range b.Result {
			returned = returned || r.Name == z
		}
	})
	// A loop's initial values name blocks too (an array's support).
	fun.Stms(k.Body, func(s *fun.Stm) {
		if l, ok := s.Exp.(*fun.LoopExp); ok {
			for _, y := range l.Init {
				returned = returned || y.Name == z
			}
		}
	})
	return !returned
}

// expand is one step of MemoryExpand on the allocation at index i of the
// kernel's body: the allocation before the kernel, and the kernel with its
// types moved into the expanded block.
func (x *oldExpander) expand(k *fun.KernelExp, i int) (*fun.Stm, *fun.KernelExp) {
	first := k.Body.Stms[i]
	z := first.Pat[0]
	se := first.Exp.(*funmem.AllocExp).Size
	y := fun.Var{Ident: k.Bound}
	thread := funmem.Sub(fun.Var{Ident: k.Var}, fun.Int(1)) // x − 1
	zx := x.names.fresh(z.Name.Name + "_exp")
	alloc := &fun.Stm{Let: first.Let, Pat: []*fun.Param{{Lparen: z.Lparen, Name: zx, Type: funmem.Mem()}},
		Exp: &funmem.AllocExp{Alloc: first.Exp.Pos(), Size: funmem.Mul(se, y)}}
	retype := func(t fun.Type) fun.Type {
		a := funmem.ArrayOf(t)
		if a == nil || a.Block.Name != z.Name.Name {
			return t
		}
		off, dims := a.Index.LMAD()
		l := &funmem.IndexFn{Pos: a.Index.Pos}
		switch x.layout {
		case funmem.CPU: // (x − 1)·se + se' + {(x_i : s_i)}
			l.Offset = funmem.Add(funmem.Mul(thread, se), off)
			l.Dims = dims
		default: // (x − 1) + se'·y + {(x_i : s_i·y)}
			l.Offset = funmem.Add(thread, funmem.Mul(off, y))
			for _, d := range dims {
				l.Dims = append(l.Dims, funmem.LDim{Elems: d.Elems, Stride: funmem.Mul(d.Stride, y)})
			}
			if mutant.On("expand-stride") { // mutant: the strides are not scaled by y (threads' arrays overlap)
				l.Dims = dims
			}
		}
		return fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &funmem.ArrayMem{Block: &fun.Ident{NamePos: a.Block.NamePos, Name: zx.Name}, Index: l}}
	}
	rest := append(append([]*fun.Stm(nil), k.Body.Stms[:i]...), k.Body.Stms[i+1:]...)
	body := oldRetypeBody(&fun.Body{Stms: rest, In: k.Body.In, Result: k.Body.Result}, retype)
	return alloc, &fun.KernelExp{Kernel: k.Kernel, Var: k.Var, Bound: k.Bound, Body: body}
}

// retypeBody rewrites the types of every binding in b.
func oldRetypeBody(b *fun.Body, f func(fun.Type) fun.Type) *fun.Body {
	out := &fun.Body{In: b.In, Result: b.Result}
	for _, st := range b.Stms {
		ns := &fun.Stm{Let: st.Let, Exp: st.Exp}
		for _, p := range st.Pat {
			ns.Pat = append(ns.Pat, &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: f(p.Type)})
		}
		switch e := st.Exp.(type) {
		case *fun.IfExp:
			ns.Exp = &fun.IfExp{If: e.If, Cond: e.Cond, Then: oldRetypeBody(e.Then, f), Else: oldRetypeBody(e.Else, f)}
		case *fun.KernelExp:
			ns.Exp = &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: oldRetypeBody(e.Body, f)}
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			ns.Exp = fun.WithParts(e, oldRetypeParams(fun.ExpParams(e), f), oldRetypeBody(fun.ExpBody(e), f))
		case *fun.RedomapExp:
			ns.Exp = fun.WithBodies(e, oldRetypeParams(e.Params, f), []*fun.Body{oldRetypeBody(e.Map, f), oldRetypeBody(e.Op, f)})
		}
		out.Stms = append(out.Stms, ns)
	}
	return out
}

func oldRetypeParams(ps []*fun.Param, f func(fun.Type) fun.Type) []*fun.Param {
	out := make([]*fun.Param, len(ps))
	for i, p := range ps {
		out[i] = &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: f(p.Type), Rparen: p.Rparen}
	}
	return out
}

// TestMemoryExpandAsBefore: MemoryExpand gives, in both layouts, the
// trees it gave before, on generated programs' FUNMEM variants.
func TestMemoryExpandAsBefore(t *testing.T) {
	for i, p := range equivPrograms(t, 300) {
		if !isFunmem(p) {
			continue
		}
		for _, l := range []funmem.Layout{funmem.GPU, funmem.CPU} {
			old, now := oldMemoryExpand(p, l), funmem.MemoryExpand(p, l)
			if !reflect.DeepEqual(old, now) {
				t.Fatalf("program %d, %v: MemoryExpand gives\n%s\nbefore\n%s", i, l, funmem.Print(now), funmem.Print(old))
			}
		}
	}
}

// isFunmem reports whether p has memory annotations (is a variant, not
// the FUN program).
func isFunmem(p *fun.Program) bool {
	found := false
	fun.Inspect(p, func(n fun.Node) bool {
		if _, ok := n.(*funmem.AllocExp); ok {
			found = true
		}
		return !found
	})
	return found
}

// The old Simplify (before propagate copied only what it changes and
// deadCode was skipped where it had nothing to drop): simplify.go as it
// was, for TestSimplifyAsBefore.

func oldRowMajorIn(t fun.Type, m *fun.Ident) fun.Type {
	sizes := make([]fun.SExp, len(t.Dims))
	for i, d := range t.Dims {
		sizes[i] = fun.Var{Ident: d}
	}
	return fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &funmem.ArrayMem{Block: m, Index: &funmem.IndexFn{RowMajor: sizes}}}
}

// oldSimplify is the oldSimplifier §3.5 defers to: "removal of redundant return
// values". Transform returns all the supporting information of an if's
// arrays; much of it is the same in both branches. Repeatedly, for every
// if:
//
//   - a value both branches return as the same variable from outside the
//     if is that variable: the pattern's name for it is renamed to it;
//   - an int both branches define by the same expression over variables
//     from outside the if is bound by a let before the if instead;
//   - two results that are pairwise the same variables (an int or a block)
//     are one: the second is renamed to the first;
//
// and then statements binding ints or blocks nobody uses are dropped, and
// LMADs equal to the row-major one of their array are written R(…). Each
// rewrite keeps the program well typed and valid (Def 3.1); a property
// test checks it.
func oldSimplify(p *fun.Program) *fun.Program {
	scope := oldScopeSet{}
	for _, in := range p.Inputs {
		scope[in.Name.Name] = true
	}
	body := p.Body
	for {
		s := &oldSimplifier{}
		body = s.body(body, scope)
		body = s.propagate(body, map[string]int64{})
		if !s.changed {
			break
		}
	}
	body = oldRowMajorBody(body)
	return &fun.Program{File: p.File, Inputs: p.Inputs, Body: body}
}

type oldSimplifier struct{ changed bool }

// A oldScopeSet is the set of names in scope. One set serves a whole walk:
// a body adds the names it binds and takes them out again when it is done
// (add's undo), rather than each body copying its enclosing scope.
type oldScopeSet map[string]bool

// add puts the names in the set, and returns what takes out those that
// were not in it before.
func (sc oldScopeSet) add(names ...string) (undo func()) {
	var added []string
	for _, x := range names {
		if !sc[x] {
			sc[x] = true
			added = append(added, x)
		}
	}
	return func() {
		for _, x := range added {
			delete(sc, x)
		}
	}
}

// body simplifies a body whose enclosing scope is scope; scope is as it
// was when body returns.
func (s *oldSimplifier) body(b *fun.Body, scope oldScopeSet) *fun.Body {
	inner := scope
	var bound []string // the names this body adds to the scope
	bind := func(x string) {
		if !inner[x] {
			inner[x] = true
			bound = append(bound, x)
		}
	}
	defer func() {
		for _, x := range bound {
			delete(inner, x)
		}
	}()
	var out []*fun.Stm
	stms := b.Stms
	result := b.Result
	for i := 0; i < len(stms); i++ {
		st := stms[i]
		switch e := st.Exp.(type) {
		case *fun.IfExp:
			e = &fun.IfExp{If: e.If, Cond: e.Cond, Then: s.body(e.Then, inner), Else: s.body(e.Else, inner)}
			before, nst, ren := s.ifResults(&fun.Stm{Let: st.Let, Pat: st.Pat, Exp: e}, inner)
			out = append(out, before...)
			for _, x := range before {
				bind(x.Pat[0].Name.Name)
			}
			st = nst
			if len(ren) > 0 {
				f := fun.Uses(fun.Renaming(ren))
				rest := stms[i+1:]
				stms = slices.Clone(stms[:i+1])
				for _, r := range rest {
					stms = append(stms, fun.MapStm(r, f))
				}
				result = fun.MapIdentList(result, f)
			}
		case *fun.KernelExp:
			undo := inner.add(e.Var.Name)
			st = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: s.body(e.Body, inner)}}
			undo()
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			// The body is simplified in the scope of the parameters; the
			// form's own results (a loop's supporting ones) stay.
			var names []string
			for _, q := range fun.ExpParams(e) {
				names = append(names, q.Name.Name)
			}
			if l, ok := e.(*fun.LoopExp); ok {
				names = append(names, l.Var.Name)
			}
			undo := inner.add(names...)
			st = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithParts(e, nil, s.body(fun.ExpBody(e), inner))}
			undo()
		case *fun.RedomapExp:
			// The map body in the scope of the index, the operator body in
			// that of the parameters.
			undo := inner.add(e.Var.Name)
			m := s.body(e.Map, inner)
			undo()
			var names []string
			for _, q := range e.Params {
				names = append(names, q.Name.Name)
			}
			undo = inner.add(names...)
			op := s.body(e.Op, inner)
			undo()
			st = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithBodies(e, nil, []*fun.Body{m, op})}
		}
		out = append(out, st)
		for _, q := range st.Pat {
			bind(q.Name.Name)
		}
	}
	return s.deadCode(&fun.Body{Stms: out, In: b.In, Result: result})
}

// ifResults removes the redundant results of an if statement. It returns
// the lets to put before it, the new statement, and the renaming to apply
// after it.
func (s *oldSimplifier) ifResults(st *fun.Stm, scope oldScopeSet) ([]*fun.Stm, *fun.Stm, map[string]string) {
	e := st.Exp.(*fun.IfExp)
	tdefs, edefs := oldDefsOf(e.Then, scope), oldDefsOf(e.Else, scope)
	ren := map[string]string{}
	keep := make([]bool, len(st.Pat))
	// A size of the pattern's arrays must stay a pattern variable to be
	// hoisted: T-MEM-RESULT compares sizes by name. And a name a branch
	// binds cannot be bound before the if.
	sizes := map[string]bool{}
	for _, p := range st.Pat {
		for _, d := range p.Type.Dims {
			sizes[d.Name] = true
		}
	}
	// The names the branches bind, collected when first asked for: most
	// ifs hoist nothing.
	var inner map[string]bool
	bindsInside := func(x string) bool {
		if inner == nil {
			inner = oldBinders(e.Then)
			for name := range oldBinders(e.Else) {
				inner[name] = true
			}
		}
		return inner[x]
	}
	hoisted := make([]*fun.Stm, len(st.Pat))
	for j, p := range st.Pat {
		keep[j] = true
		tj, ej := e.Then.Result[j], e.Else.Result[j]
		scalarOrMem := p.Type.IsScalar() || funmem.IsMem(p.Type)
		switch {
		case tj.Name == ej.Name && scope[tj.Name] && scalarOrMem:
			ren[p.Name.Name] = tj.Name
			keep[j] = false
		case p.Type.IsInt() && !sizes[p.Name.Name] && !bindsInside(p.Name.Name) &&
			tdefs.get(tj.Name) != nil && edefs.get(ej.Name) != nil && funmem.SameValue(tdefs.get(tj.Name), edefs.get(ej.Name)):
			hoisted[j] = &fun.Stm{Let: st.Let, Pat: []*fun.Param{p}, Exp: &fun.ScalarExp{X: funmem.Canon(tdefs.get(tj.Name))}}
			keep[j] = false
		default:
			for k := 0; k < j; k++ {
				q := st.Pat[k]
				if keep[k] && scalarOrMem && q.Type.IsScalar() == p.Type.IsScalar() && q.Type.Elem == p.Type.Elem &&
					e.Then.Result[k].Name == tj.Name && e.Else.Result[k].Name == ej.Name {
					ren[p.Name.Name] = q.Name.Name
					keep[j] = false
					break
				}
			}
		}
	}
	kept := false
	for _, k := range keep {
		kept = kept || k
	}
	if !kept {
		// Keep the first result: a pattern may not be empty. (The whole if
		// cannot go: its branches may get stuck.)
		delete(ren, st.Pat[0].Name.Name)
		hoisted[0] = nil
		keep[0] = true
	}
	var before []*fun.Stm
	for _, h := range hoisted {
		if h != nil {
			before = append(before, h)
		}
	}
	var pat []*fun.Param
	var tres, eres []*fun.Ident
	f := fun.Uses(fun.Renaming(ren))
	for j, p := range st.Pat {
		if keep[j] {
			pat = append(pat, &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: fun.MapType(p.Type, f)})
			tres = append(tres, e.Then.Result[j])
			eres = append(eres, e.Else.Result[j])
		}
	}
	if len(pat) == len(st.Pat) {
		return nil, st, nil
	}
	s.changed = true
	return before, &fun.Stm{Let: st.Let, Pat: pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond,
		Then: &fun.Body{Stms: e.Then.Stms, In: e.Then.In, Result: tres},
		Else: &fun.Body{Stms: e.Else.Stms, In: e.Else.In, Result: eres}}}, ren
}

// oldDefsOf maps the int variables a branch can name in its results to
// expressions over variables of scope only (constants, outer variables,
// and lets of those), or nil when they depend on the branch.
func oldDefsOf(b *fun.Body, scope oldScopeSet) oldBranchDefs {
	defs := oldBranchDefs{lets: map[string]fun.SExp{}, outer: map[string]fun.SExp{}, scope: scope}
	for _, st := range b.Stms {
		e, ok := st.Exp.(*fun.ScalarExp)
		if !ok || len(st.Pat) != 1 || !st.Pat[0].Type.IsInt() { // float arithmetic is not a ring
			continue
		}
		closed := true
		d := fun.Substitute(e.X, func(x *fun.Ident) fun.SExp {
			if d := defs.get(x.Name); d != nil {
				return d
			}
			closed = false
			return nil
		})
		if closed {
			defs.lets[st.Pat[0].Name.Name] = d
		}
	}
	return defs
}

// oldBranchDefs are oldDefsOf's definitions: the branch's lets, and the names of
// the scope, each standing for itself (made when first asked for, not one
// for every name in scope at every if).
type oldBranchDefs struct {
	lets, outer map[string]fun.SExp
	scope       oldScopeSet
}

// get is the definition of name, or nil.
func (d oldBranchDefs) get(name string) fun.SExp {
	if e, ok := d.lets[name]; ok {
		return e
	}
	if !d.scope[name] {
		return nil
	}
	e, ok := d.outer[name]
	if !ok {
		e = fun.Named(name) // outer names stand for themselves
		d.outer[name] = e
	}
	return e
}

// deadCode drops the lets of ints whose names are used nowhere after them
// and whose expressions cannot get stuck (no division by a variable), so
// that a program stuck before stays stuck. Allocations stay: one of a
// negative size is stuck.
func (s *oldSimplifier) deadCode(b *fun.Body) *fun.Body {
	// Only the uses of the names such lets bind are counted: there is
	// nothing to count when there are none. The uses are counted once;
	// a dropped let's own uses are taken off the counts, so that a let
	// only it used goes next. (Dropping lets only lowers counts, so the
	// lets dropped are those the rounds of "drop every unused one, count
	// again" would drop.)
	used := oldUseCounter{n: map[string]int{}, step: 1}
	can := make([]bool, len(b.Stms))
	for i, st := range b.Stms {
		if can[i] = oldDroppable(st); can[i] {
			used.n[st.Pat[0].Name.Name] = 0
		}
	}
	if len(used.n) == 0 {
		return b
	}
	for _, st := range b.Stms {
		used.stm(st)
	}
	used.idents(b.Result)
	gone := make([]bool, len(b.Stms))
	dropped := false
	for again := true; again; {
		again = false
		for i, st := range b.Stms {
			if can[i] && !gone[i] && used.n[st.Pat[0].Name.Name] == 0 {
				gone[i], dropped, again = true, true, true
				used.step = -1
				used.stm(st)
			}
		}
	}
	if !dropped {
		return b
	}
	s.changed = true
	var out []*fun.Stm
	for i, st := range b.Stms {
		if !gone[i] {
			out = append(out, st)
		}
	}
	return &fun.Body{Stms: out, In: b.In, Result: b.Result}
}

// oldDroppable reports whether st is a let of a scalar that cannot get
// stuck, which deadCode drops when its name is not used.
func oldDroppable(st *fun.Stm) bool {
	e, scalar := st.Exp.(*fun.ScalarExp)
	return scalar && len(st.Pat) == 1 && oldCannotFail(e.X)
}

// propagate substitutes variables let-bound to constants into LMADs
// (types take expressions, so the let can then go).
func (s *oldSimplifier) propagate(b *fun.Body, consts map[string]int64) *fun.Body {
	// consts is the caller's until this body binds a constant: it is
	// copied then, not for every body.
	owned := false
	// mentions reports whether e names a constant: an LMAD without one
	// is kept as it is rather than copied.
	var mentions func(e fun.SExp) bool
	mentions = func(e fun.SExp) bool {
		switch e := e.(type) {
		case fun.Var:
			_, ok := consts[e.Name]
			return ok
		case *fun.BinOp:
			return mentions(e.L) || mentions(e.R)
		case *fun.UnOp:
			return mentions(e.X)
		case *fun.Call:
			return mentions(e.Arg)
		}
		return false
	}
	sub := func(e fun.SExp) fun.SExp {
		return fun.Substitute(e, func(x *fun.Ident) fun.SExp {
			if k, ok := consts[x.Name]; ok {
				s.changed = true
				return fun.Int(k)
			}
			return nil
		})
	}
	out := &fun.Body{In: b.In, Result: b.Result}
	for _, st := range b.Stms {
		ns := &fun.Stm{Let: st.Let, Exp: st.Exp}
		for _, p := range st.Pat {
			t := p.Type
			if a := funmem.ArrayOf(t); a != nil && len(consts) > 0 && oldLmadMentions(a.Index, mentions) {
				l := &funmem.IndexFn{Pos: a.Index.Pos}
				if a.Index.IsRowMajor() {
					for _, x := range a.Index.RowMajor {
						l.RowMajor = append(l.RowMajor, sub(x))
					}
				} else {
					l.Offset = sub(a.Index.Offset)
					for _, d := range a.Index.Dims {
						l.Dims = append(l.Dims, funmem.LDim{Elems: sub(d.Elems), Stride: sub(d.Stride)})
					}
				}
				t = fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &funmem.ArrayMem{Block: a.Block, Index: l}}
			}
			ns.Pat = append(ns.Pat, &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: t})
		}
		switch e := st.Exp.(type) {
		case *fun.ScalarExp:
			if c, ok := e.X.(*fun.Const); ok {
				if !owned {
					consts, owned = semantics.CloneMap(consts), true
				}
				consts[st.Pat[0].Name.Name] = c.Value
			}
		case *fun.IfExp:
			ns.Exp = &fun.IfExp{If: e.If, Cond: e.Cond, Then: s.propagate(e.Then, consts), Else: s.propagate(e.Else, consts)}
		case *fun.KernelExp:
			ns.Exp = &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: s.propagate(e.Body, consts)}
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			ns.Exp = fun.WithParts(e, nil, s.propagate(fun.ExpBody(e), consts))
		case *fun.RedomapExp:
			ns.Exp = fun.WithBodies(e, nil, []*fun.Body{s.propagate(e.Map, consts), s.propagate(e.Op, consts)})
		}
		out.Stms = append(out.Stms, ns)
	}
	return s.deadCode(out)
}

// oldLmadMentions reports whether one of l's expressions satisfies f.
func oldLmadMentions(l *funmem.IndexFn, f func(fun.SExp) bool) bool {
	if l.IsRowMajor() {
		return slices.ContainsFunc(l.RowMajor, f)
	}
	if f(l.Offset) {
		return true
	}
	return slices.ContainsFunc(l.Dims, func(d funmem.LDim) bool { return f(d.Elems) || f(d.Stride) })
}

// oldRowMajorBody writes every LMAD that is R of its array's sizes as R(…).
func oldRowMajorBody(b *fun.Body) *fun.Body { return oldRetypeBody(b, oldAsRowMajor) }

func oldAsRowMajor(t fun.Type) fun.Type {
	a := funmem.ArrayOf(t)
	if a == nil || a.Index.IsRowMajor() {
		return t
	}
	r := oldRowMajorIn(t, a.Block)
	ro, rd := funmem.ArrayOf(r).Index.LMAD()
	off, dims := a.Index.LMAD()
	if !funmem.SameValue(off, ro) {
		return t
	}
	for i := range dims {
		if !funmem.SameValue(dims[i].Stride, rd[i].Stride) || !funmem.SameValue(dims[i].Elems, rd[i].Elems) {
			return t
		}
	}
	return r
}

// oldCannotFail reports whether a scalar expression evaluates without getting
// stuck: its only partial operators divide by non-zero constants, and it
// converts no float to an int (int(se) is stuck on NaN and ±Inf).
func oldCannotFail(e fun.SExp) bool {
	switch e := e.(type) {
	case *fun.Call:
		return e.Func != semantics.ToInt && oldCannotFail(e.Arg)
	case *fun.UnOp:
		return oldCannotFail(e.X)
	case *fun.BinOp:
		if e.Op == semantics.Div || e.Op == semantics.Mod {
			if c, ok := e.R.(*fun.Const); !ok || c.Value == 0 {
				return false
			}
		}
		return oldCannotFail(e.L) && oldCannotFail(e.R)
	}
	return true
}

// oldBinders is the set of names a body binds, nested bodies included.
func oldBinders(b *fun.Body) map[string]bool {
	out := map[string]bool{}
	fun.Stms(b, func(s *fun.Stm) {
		for _, p := range s.Pat {
			out[p.Name.Name] = true
		}
		if x := fun.ExpIndex(s.Exp); x != nil {
			out[x.Name] = true
		}
		for _, q := range fun.ExpParams(s.Exp) {
			out[q.Name.Name] = true
		}
	})
	return out
}

// A oldUseCounter counts the occurrences of the names it holds as variables
// (not oldBinders) in statements and results, types included (sizes, blocks,
// the variables of LMADs): the identifiers fun.MapStm passes to fun.Uses.
// It walks the tree without copying it, since deadCode asks again after
// every drop; an extension's node other than FUNMEM's own is mapped (and
// the copy dropped).
type oldUseCounter struct {
	n    map[string]int // the names counted, and their counts
	step int            // what an occurrence adds: 1, or -1 to take a statement's uses off
}

// use counts an occurrence of x, if x is counted.
func (u oldUseCounter) use(x string) {
	if n, ok := u.n[x]; ok {
		u.n[x] = n + u.step
	}
}

func (u oldUseCounter) idents(xs []*fun.Ident) {
	for _, x := range xs {
		u.use(x.Name)
	}
}

func (u oldUseCounter) body(b *fun.Body) {
	if b == nil {
		return
	}
	u.idents(b.Result)
	for _, s := range b.Stms {
		u.stm(s)
	}
}

func (u oldUseCounter) stm(s *fun.Stm) {
	u.params(s.Pat)
	u.exp(s.Exp)
}

func (u oldUseCounter) params(ps []*fun.Param) {
	for _, p := range ps {
		u.typ(p.Type)
	}
}

func (u oldUseCounter) typ(t fun.Type) {
	u.idents(t.Dims)
	switch a := t.Ext.(type) {
	case nil:
	case *funmem.ArrayMem:
		u.use(a.Block.Name)
		if a.Index.IsRowMajor() {
			for _, x := range a.Index.RowMajor {
				u.sexp(x)
			}
		} else {
			u.sexp(a.Index.Offset)
			for _, d := range a.Index.Dims {
				u.sexp(d.Elems)
				u.sexp(d.Stride)
			}
		}
	case fun.TypeMapper:
		a.MapIdents(u.count)
	}
}

// count is u as a fun.IdentFunc for the uses (oldBinders are not counted).
func (u oldUseCounter) count(x *fun.Ident, binder bool) *fun.Ident {
	if !binder {
		u.use(x.Name)
	}
	return x
}

func (u oldUseCounter) sexp(e fun.SExp) {
	switch e := e.(type) {
	case fun.Var:
		u.use(e.Name)
	case *fun.BinOp:
		u.sexp(e.L)
		u.sexp(e.R)
	case *fun.UnOp:
		u.sexp(e.X)
	case *fun.Call:
		u.sexp(e.Arg)
	case *fun.Const, *fun.FloatConst:
	default:
		fun.MapSExp(e, u.count) // panics as fun.MapStm would
	}
}

func (u oldUseCounter) exp(e fun.Exp) {
	switch e := e.(type) {
	case *fun.ScalarExp:
		u.sexp(e.X)
	case *fun.IndexExp:
		u.use(e.Arr.Name)
		u.idents(e.Idx)
	case *fun.SliceExp:
		u.use(e.Arr.Name)
		for _, s := range e.Slices {
			u.use(s.Off.Name)
			u.use(s.Size.Name)
		}
	case *fun.TransposeExp:
		u.use(e.Arr.Name)
	case *fun.IotaExp:
		u.use(e.N.Name)
	case *fun.CopyExp:
		u.use(e.Arr.Name)
	case *fun.IfExp:
		u.use(e.Cond.Name)
		u.body(e.Then)
		u.body(e.Else)
	case *fun.KernelExp:
		u.use(e.Bound.Name)
		u.body(e.Body)
	case *fun.LoopExp:
		u.params(e.Params)
		u.idents(e.Init)
		u.use(e.Bound.Name)
		u.body(e.Body)
	case *fun.ReduceExp:
		u.params(e.Params)
		u.use(e.Ne.Name)
		u.use(e.Arr.Name)
		u.body(e.Body)
	case *fun.ScanExp:
		u.params(e.Params)
		u.use(e.Ne.Name)
		u.use(e.Arr.Name)
		u.body(e.Body)
	case *fun.FilterExp:
		u.params(e.Params)
		u.use(e.Arr.Name)
		u.body(e.Body)
	case *fun.RedomapExp:
		u.params(e.Params)
		u.use(e.Ne.Name)
		u.use(e.Bound.Name)
		u.body(e.Map)
		u.body(e.Op)
	case *fun.AssertExp:
		u.sexp(e.Cond)
	case *funmem.AllocExp:
		u.sexp(e.Size)
	default:
		fun.MapExp(e, u.count)
	}
}

// TestSimplifyAsBefore: Simplify gives the trees it gave before on
// generated programs' FUNMEM variants.
func TestSimplifyAsBefore(t *testing.T) {
	for i, p := range equivPrograms(t, 300) {
		if !isFunmem(p) {
			continue
		}
		old, now := oldSimplify(p), funmem.Simplify(p)
		if !reflect.DeepEqual(old, now) {
			t.Fatalf("program %d: Simplify gives\n%s\nbefore\n%s", i, funmem.Print(now), funmem.Print(old))
		}
	}
}

// oldGroups is funmem.Groups as it was (three maps per call).
func oldGroups(ps []*fun.Param) []funmem.Group {
	index := map[string]int{}
	for i, p := range ps {
		index[p.Name.Name] = i
	}
	supp := map[string]bool{}
	groups := map[int]funmem.Group{}
	for i, p := range ps {
		g, ok := oldSupportForm(p, index)
		if !ok {
			continue
		}
		groups[i] = g
		supp[g.Block], supp[g.Off] = true, true
		for _, s := range g.Strides {
			supp[s] = true
		}
	}
	var out []funmem.Group
	for i, p := range ps {
		if supp[p.Name.Name] {
			continue
		}
		g, ok := groups[i]
		if !ok {
			g = funmem.Group{Operand: i}
		}
		out = append(out, g)
	}
	return out
}
func oldSupportForm(p *fun.Param, index map[string]int) (funmem.Group, bool) {
	a := funmem.ArrayOf(p.Type)
	if a == nil || a.Index.IsRowMajor() {
		return funmem.Group{}, false
	}
	name := func(e fun.SExp) (string, bool) {
		v, ok := e.(fun.Var)
		if !ok {
			return "", false
		}
		_, in := index[v.Name]
		return v.Name, in && v.Name != p.Name.Name
	}
	g := funmem.Group{Operand: index[p.Name.Name], Block: a.Block.Name}
	if _, ok := index[g.Block]; !ok {
		return funmem.Group{}, false
	}
	var ok bool
	if g.Off, ok = name(a.Index.Offset); !ok {
		return funmem.Group{}, false
	}
	for _, d := range a.Index.Dims {
		s, ok := name(d.Stride)
		if !ok {
			return funmem.Group{}, false
		}
		g.Strides = append(g.Strides, s)
	}
	return g, true
}

// TestGroupsAsBefore: Groups splits every pattern and every form's
// parameters of generated programs' variants as before.
func TestGroupsAsBefore(t *testing.T) {
	for i, p := range equivPrograms(t, 300) {
		fun.Stms(p.Body, func(s *fun.Stm) {
			for _, ps := range [][]*fun.Param{s.Pat, fun.ExpParams(s.Exp)} {
				if old, now := oldGroups(ps), funmem.Groups(ps); !reflect.DeepEqual(old, now) {
					t.Fatalf("program %d: Groups(%s) = %v, before %v", i, fun.PrintPattern(ps), now, old)
				}
			}
		})
	}
}
