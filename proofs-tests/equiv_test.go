package proofstests

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
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
