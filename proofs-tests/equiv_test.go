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
