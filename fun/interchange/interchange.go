package interchange

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
)

// Interchange returns a copy of p in which every redomap over arrays that
// the package's condition admits is a kernel of scalar redomaps, and a
// note per interchange. A program that does not type check is returned
// unchanged.
func Interchange(p *fun.Program) (*fun.Program, []string) {
	if _, err := fun.Check(p, nil); err != nil {
		return p, nil
	}
	x := &interchanger{used: map[string]bool{}, types: map[string]fun.Type{}, bounds: map[string]string{}, sizes: map[string]bool{}}
	for _, in := range p.Inputs {
		x.used[in.Name.Name] = true
		x.types[in.Name.Name] = in.Type
		for _, d := range in.Type.Dims {
			x.sizes[d.Name] = true
		}
	}
	for name := range fun.Binders(p.Body) {
		x.used[name] = true
	}
	q := fun.MapProgram(p, fun.All(func(id *fun.Ident) *fun.Ident { return id })) // a copy to rewrite
	q.Body = x.body(q.Body)
	if len(x.notes) == 0 {
		return p, nil
	}
	return q, x.notes
}

type interchanger struct {
	used   map[string]bool     // every name of the program, and the fresh ones
	types  map[string]fun.Type // the types of the names in scope
	bounds map[string]string   // a kernel's or redomap's index → its bound
	sizes  map[string]bool     // sizes no run makes negative
	notes  []string
	n      int
}

// fresh is a new name like base.
func (x *interchanger) fresh(base string) *fun.Ident {
	for {
		x.n++
		name := fmt.Sprintf("%s_%d", base, x.n)
		if !x.used[name] {
			x.used[name] = true
			return &fun.Ident{Name: name}
		}
	}
}

// body rewrites the statements of b, and of the bodies in them.
func (x *interchanger) body(b *fun.Body) *fun.Body {
	for i, s := range b.Stms {
		for _, inner := range fun.ExpBodies(s.Exp) {
			x.enter(s.Exp, func() { x.body(inner) })
		}
		if r, ok := s.Exp.(*fun.RedomapExp); ok {
			if ns := x.redomap(s, r); ns != nil {
				b.Stms[i] = ns
			}
		}
		for _, p := range s.Pat {
			x.types[p.Name.Name] = p.Type
			if e, ok := s.Exp.(*fun.ScalarExp); ok && p.Type.IsInt() {
				if c, ok := e.X.(*fun.Const); ok && c.Value >= 0 {
					x.sizes[p.Name.Name] = true
				}
			}
		}
	}
	return b
}

// enter runs f with the index and parameters e binds in scope.
func (x *interchanger) enter(e fun.Exp, f func()) {
	switch e := e.(type) {
	case *fun.KernelExp:
		x.bounds[e.Var.Name] = e.Bound.Name
	case *fun.RedomapExp:
		x.bounds[e.Var.Name] = e.Bound.Name
	}
	for _, p := range fun.ExpParams(e) {
		x.types[p.Name.Name] = p.Type
	}
	f()
}

// redomap is the interchanged statement for s, or nil when the condition
// does not hold.
func (x *interchanger) redomap(s *fun.Stm, r *fun.RedomapExp) *fun.Stm {
	if r.Scan || len(r.Params) != 2 || len(s.Pat) != 1 {
		return nil
	}
	ta := r.Params[0].Type
	if ta.Rank() != 1 || ta.Ext != nil || !x.sizes[r.Bound.Name] {
		return nil
	}
	m := ta.Dims[0].Name
	elem := fun.Type{Elem: ta.Elem}
	// The map: safe scalar statements, then a kernel over m making the
	// element.
	n := len(r.Map.Stms)
	if n == 0 || len(r.Map.Result) != 1 {
		return nil
	}
	mk, ok := r.Map.Stms[n-1].Exp.(*fun.KernelExp)
	last := r.Map.Stms[n-1]
	if !ok || len(last.Pat) != 1 || last.Pat[0].Name.Name != r.Map.Result[0].Name || mk.Bound.Name != m || len(mk.Body.Result) != 1 {
		return nil
	}
	// B1 and B2 run inside the scalar redomap, in a kernel: an array they
	// made would be an allocation inside a fold inside a kernel, which
	// MemoryExpand hoists only by writing the fold as a loop of the
	// thread, and the kernel then loses the block-wide fold the CUDA
	// backend gives a kernel of scalar folds (cuda/coop.go).
	if makesArrays(mk.Body) {
		return nil
	}
	scope := map[string]string{r.Var.Name: r.Bound.Name}
	for _, st := range r.Map.Stms[:n-1] {
		if len(st.Pat) != 1 || !st.Pat[0].Type.IsScalar() || !x.safe(st.Exp, scope) {
			return nil
		}
	}
	// The operator: a kernel over m reading a and b at its index only.
	if len(r.Op.Stms) != 1 || len(r.Op.Result) != 1 {
		return nil
	}
	ok2, ok3 := r.Op.Stms[0].Exp.(*fun.KernelExp)
	if !ok3 || len(r.Op.Stms[0].Pat) != 1 || r.Op.Stms[0].Pat[0].Name.Name != r.Op.Result[0].Name || ok2.Bound.Name != m || len(ok2.Body.Result) != 1 || makesArrays(ok2.Body) {
		return nil
	}
	a, b, j2 := r.Params[0].Name.Name, r.Params[1].Name.Name, ok2.Var.Name
	u, v := x.fresh(a), x.fresh(b)
	var comb []*fun.Stm
	for _, st := range ok2.Body.Stms {
		if ix, ok := st.Exp.(*fun.IndexExp); ok && (ix.Arr.Name == a || ix.Arr.Name == b) {
			if len(ix.Idx) != 1 || ix.Idx[0].Name != j2 || len(st.Pat) != 1 {
				return nil
			}
			w := u
			if ix.Arr.Name == b {
				w = v
			}
			comb = append(comb, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.ScalarExp{X: fun.Var{Ident: &fun.Ident{Name: w.Name}}}})
			continue
		}
		if mentions(st, a, b, j2) {
			return nil
		}
		comb = append(comb, st)
	}
	if res := ok2.Body.Result[0].Name; res == a || res == b || res == j2 {
		return nil
	}
	// The new kernel over the columns.
	j := x.fresh(j2)
	rename := fun.Uses(fun.Renaming(map[string]string{mk.Var.Name: j.Name}))
	var mapStms []*fun.Stm
	mapStms = append(mapStms, r.Map.Stms[:n-1]...)
	for _, st := range mk.Body.Stms {
		mapStms = append(mapStms, fun.MapStm(st, rename))
	}
	zj, w := x.fresh(r.Ne.Name), x.fresh(s.Pat[0].Name.Name)
	inner := &fun.RedomapExp{Keyword: r.Keyword, Params: []*fun.Param{{Name: u, Type: elem}, {Name: v, Type: elem}},
		Ne: zj, Var: r.Var, Bound: r.Bound, Combine: r.Combine,
		Map: &fun.Body{Stms: mapStms, Result: fun.MapIdentList(mk.Body.Result, rename)},
		Op:  &fun.Body{Stms: comb, Result: ok2.Body.Result}}
	kernel := &fun.KernelExp{Kernel: r.Keyword, Var: j, Bound: &fun.Ident{Name: m}, Body: &fun.Body{
		Stms: []*fun.Stm{
			{Let: s.Let, Pat: []*fun.Param{{Name: zj, Type: elem}}, Exp: &fun.IndexExp{Arr: &fun.Ident{Name: r.Ne.Name}, Idx: []*fun.Ident{{Name: j.Name}}}},
			{Let: s.Let, Pat: []*fun.Param{{Name: w, Type: elem}}, Exp: inner},
		},
		Result: []*fun.Ident{{Name: w.Name}},
	}}
	x.notes = append(x.notes, fmt.Sprintf("%s: redomap over arrays of %s elements interchanged: a kernel over them of scalar redomaps", r.Keyword, m))
	return &fun.Stm{Let: s.Let, Pat: s.Pat, Exp: kernel}
}

// safe reports whether a statement of the map may run once per column:
// a scalar expression that cannot get stuck, or a read whose indices are
// indices of kernels (or the redomap, in scope) whose bounds are the
// array's sizes, so in bounds.
func (x *interchanger) safe(e fun.Exp, scope map[string]string) bool {
	switch e := e.(type) {
	case *fun.ScalarExp:
		return !fun.CanFail(e.X)
	case *fun.IndexExp:
		t, ok := x.types[e.Arr.Name]
		if !ok || len(e.Idx) != t.Rank() {
			return false
		}
		for i, y := range e.Idx {
			bound, ok := scope[y.Name]
			if !ok {
				bound, ok = x.bounds[y.Name]
			}
			if !ok || bound != t.Dims[i].Name {
				return false
			}
		}
		return true
	}
	return false
}

// mentions reports whether a statement uses any of the names.
func mentions(st *fun.Stm, names ...string) bool {
	found := false
	fun.MapStm(st, func(id *fun.Ident, binder bool) *fun.Ident {
		for _, n := range names {
			if id.Name == n {
				found = true
			}
		}
		return id
	})
	return found
}

// makesArrays reports whether a body binds an array anywhere (at any
// depth): it would allocate.
func makesArrays(b *fun.Body) bool {
	for _, st := range b.Stms {
		for _, p := range st.Pat {
			if !p.Type.IsScalar() {
				return true
			}
		}
		for _, inner := range fun.ExpBodies(st.Exp) {
			if makesArrays(inner) {
				return true
			}
		}
	}
	return false
}
