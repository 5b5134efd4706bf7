package fuse

import (
	"fmt"
	"github.com/arraysem/arraysem/fun"
	"slices"
	"strings"
)

// Producers whose elements cost nothing to recompute fuse into every use,
// however nested (in loops and other SOACs' bodies too: no work is
// duplicated), before the analysis proper:
//
//	replicate   kernel i <= n do in (a), a bound outside: x[j, k…] reads
//	            a[k…] (or is the copy let (t : τ) = a), Fig 14 top left
//	iota        iota n, or kernel i <= n do in (i): x[j] is j
//	copy        copy y: x[j…] reads y[j…], and a fold or filter over x,
//	            or a copy of x, is one over (of) y
//	transpose   transpose y (a view): x[i, j] reads y[j, i]
//
// A read of a replicate or an iota must be at an index j known to lie in
// 1 … n (the index of a kernel, loop or redomap over n around it): the
// read was checked against x's size, and a read of a, or j itself, is not.
// A fold over a replicate or an iota becomes a redomap (scanomap) whose
// map returns the element. Any other use (the array returned, sliced,
// passed to a loop…) keeps the producer, and the analysis decides about it
// as about any kernel. So does a replicate or iota whose size n is not
// witnessed non-negative before it (see wset): without it, nothing would
// check n, on some paths, where the producer got stuck.
//
// Slices are views too, but are not fused: a read of y[o : s] at i would
// read y at o + i - 1, an addition more than the view's read costs, and
// the slice's bounds check would be lost.

// cheap is the kind of cheap producer s is ("" if none) and, for a
// replicate, its element.
func cheap(s *fun.Stm) (kind string, elem *fun.Ident) {
	if len(s.Pat) != 1 {
		return "", nil
	}
	switch e := s.Exp.(type) {
	case *fun.IotaExp:
		return "iota", nil
	case *fun.CopyExp:
		return "copy", nil
	case *fun.TransposeExp:
		return "transpose", nil
	case *fun.KernelExp:
		switch {
		case isIotaKernel(e):
			return "iota", nil
		case isReplicate(e):
			return "replicate", e.Body.Result[0]
		}
	}
	return "", nil
}

// prepass fuses the cheap producers of b and of the bodies nested in it
// (those first, so that a transpose of a copy in a kernel's body is gone
// before the copy is considered); where says whose body b is, ctx are the
// indices bound around it and wit the sizes witnessed before it.
func (f *fuser) prepass(b *fun.Body, where string, ctx indexCtx, wit wset) {
	wits := prefixWitness(b, wit)
	for k, s := range b.Stms {
		w := wits[k]
		place := "the " + formName(s.Exp) + " at " + at(s.Exp.Pos())
		switch e := s.Exp.(type) {
		case *fun.IfExp:
			f.prepass(e.Then, "a branch of "+place, ctx, w)
			f.prepass(e.Else, "a branch of "+place, ctx, w)
		case *fun.KernelExp:
			f.prepass(e.Body, "the body of "+place, ctx.with(e.Var, e.Bound), w)
		case *fun.LoopExp:
			f.prepass(e.Body, "the body of "+place, ctx.with(e.Var, e.Bound), witness(w, e.Params))
		case *fun.RedomapExp:
			f.prepass(e.Map, "the map of "+place, ctx.with(e.Var, e.Bound), w)
			f.prepass(e.Op, "the operator of "+place, ctx, witness(w, e.Params))
		case *fun.ReduceExp, *fun.ScanExp:
			f.prepass(fun.ExpBody(e), "the operator of "+place, ctx, witness(w, fun.ExpParams(e)))
		case *fun.FilterExp:
			f.prepass(e.Body, "the body of "+place, ctx, witness(w, e.Params))
		}
	}
	for k := len(b.Stms) - 1; k >= 0; k-- {
		f.fuseCheap(b, k, where, ctx, wits[k])
	}
	b.Stms = slices.DeleteFunc(b.Stms, func(s *fun.Stm) bool { return f.gone[s] })
}

// fuseCheap fuses statement k of b into all its uses if it is a cheap
// producer all of whose uses allow it.
func (f *fuser) fuseCheap(b *fun.Body, k int, where string, ctx indexCtx, wit wset) {
	s := b.Stms[k]
	kind, elem := cheap(s)
	if kind == "" {
		return
	}
	x := s.Pat[0]
	n := x.Type.Dims[0].Name
	if (kind == "iota" || kind == "replicate") && !wit[n] {
		return
	}
	var uses []useSite
	walkUses(b.Stms[k+1:], b.Result, where, ctx, func(u useSite) {
		if u.name == x.Name.Name {
			uses = append(uses, u)
		}
	})
	if len(uses) == 0 {
		return // dead: the pass removes only what it fuses
	}
	for _, u := range uses {
		if why := cheapRefuses(kind, n, u); why != "" {
			if kind == "transpose" {
				f.note(s, false, 0, "kept %s (transpose): %s, so the view stays", x.Name.Name, why)
			}
			return
		}
	}
	reads, folds, copies := 0, 0, 0
	for _, u := range uses {
		switch u.kind {
		case useRead:
			reads++
			u.stm.Exp = cheapRead(s, kind, elem, u.read)
		case useOver, useFilter, useCopy:
			if u.kind == useCopy {
				copies++
			} else {
				folds++
			}
			f.cheapFold(s, kind, elem, u.stm)
		}
	}
	f.gone[s] = true
	f.changed = true
	var parts []string
	if reads > 0 {
		parts = append(parts, plural(reads, "read"))
	}
	if folds > 0 {
		parts = append(parts, plural(folds, "fold"))
	}
	if copies > 0 {
		parts = append(parts, plural(copies, "copy"))
	}
	how := map[string]string{
		"replicate": "each element is " + nameOf(elem) + " (Fig 14, replicate)",
		"iota":      "each element is its index",
		"copy":      "they read " + nameOf(copyArr(s)) + " itself",
		"transpose": "they read " + nameOf(copyArr(s)) + " with the indices swapped",
	}[kind]
	f.note(s, true, 0, "fused %s (%s) into its %s: %s", x.Name.Name, kind, strings.Join(parts, " and "), how)
}

// plural is "1 read", "2 reads".
func plural(k int, what string) string {
	if k == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", k, what)
}

func nameOf(x *fun.Ident) string {
	if x == nil {
		return "?"
	}
	return x.Name
}

// copyArr is the array a copy copies or a transpose views.
func copyArr(s *fun.Stm) *fun.Ident {
	switch e := s.Exp.(type) {
	case *fun.CopyExp:
		return e.Arr
	case *fun.TransposeExp:
		return e.Arr
	}
	return nil
}

// cheapRefuses says why the use u of a cheap producer of the given kind
// and size n cannot read its element instead ("" if it can).
func cheapRefuses(kind, n string, u useSite) string {
	switch u.kind {
	case useRead:
		if kind == "iota" || kind == "replicate" {
			j := u.read.Idx[0].Name
			if u.idx[j] != n {
				return fmt.Sprintf("read as %s at %s, at an index not known to lie in 1 … %s", fun.PrintExp(u.read), at(u.pos), n)
			}
		}
		return ""
	case useOver:
		if kind != "transpose" {
			return ""
		}
	case useFilter, useCopy:
		if kind == "copy" {
			return ""
		}
	}
	if u.what == "" {
		return "used as a whole at " + at(u.pos)
	}
	return u.what
}

// cheapRead is the read r of the cheap producer s, read from its element.
func cheapRead(s *fun.Stm, kind string, elem *fun.Ident, r *fun.IndexExp) fun.Exp {
	at := func(x *fun.Ident) *fun.Ident { return &fun.Ident{NamePos: r.Arr.NamePos, Name: x.Name} }
	switch kind {
	case "iota":
		return &fun.ScalarExp{X: fun.Var{Ident: fun.CloneIdent(r.Idx[0])}}
	case "replicate":
		if len(r.Idx) == 1 {
			return &fun.ScalarExp{X: fun.Var{Ident: at(elem)}}
		}
		return &fun.IndexExp{Arr: at(elem), Idx: r.Idx[1:], Rbrack: r.Rbrack}
	case "copy":
		return &fun.IndexExp{Arr: at(copyArr(s)), Idx: r.Idx, Rbrack: r.Rbrack}
	case "transpose":
		return &fun.IndexExp{Arr: at(copyArr(s)), Idx: []*fun.Ident{r.Idx[1], r.Idx[0]}, Rbrack: r.Rbrack}
	}
	return r
}

// cheapFold rewrites the fold (or filter) statement t over the cheap
// producer s: over a copy it folds the copied array; over a replicate or
// an iota it becomes a redomap (scanomap) whose map returns the element.
func (f *fuser) cheapFold(s *fun.Stm, kind string, elem *fun.Ident, t *fun.Stm) {
	if kind == "copy" {
		y := copyArr(s)
		switch e := t.Exp.(type) {
		case *fun.ReduceExp:
			e.Arr = &fun.Ident{NamePos: e.Arr.NamePos, Name: y.Name}
		case *fun.ScanExp:
			e.Arr = &fun.Ident{NamePos: e.Arr.NamePos, Name: y.Name}
		case *fun.FilterExp:
			e.Arr = &fun.Ident{NamePos: e.Arr.NamePos, Name: y.Name}
		case *fun.CopyExp:
			e.Arr = &fun.Ident{NamePos: e.Arr.NamePos, Name: y.Name}
		}
		return
	}
	var idx, bound *fun.Ident
	switch e := s.Exp.(type) {
	case *fun.IotaExp:
		idx, bound = &fun.Ident{NamePos: e.Keyword, Name: "i"}, e.N
	case *fun.KernelExp:
		idx, bound = e.Var, e.Bound
	}
	v := f.indexFor(idx, t)
	res := elem
	if kind == "iota" {
		res = v
	}
	m := &fun.Body{In: t.Exp.Pos(), Result: []*fun.Ident{{NamePos: res.NamePos, Name: res.Name}}}
	switch e := t.Exp.(type) {
	case *fun.ReduceExp:
		t.Exp = &fun.RedomapExp{Keyword: e.Keyword, Params: e.Params, Ne: e.Ne, Var: v, Bound: fun.CloneIdent(bound), Map: m, Combine: e.Body.Pos(), Op: e.Body}
	case *fun.ScanExp:
		t.Exp = &fun.RedomapExp{Keyword: e.Keyword, Scan: true, Params: e.Params, Ne: e.Ne, Var: v, Bound: fun.CloneIdent(bound), Map: m, Combine: e.Body.Pos(), Op: e.Body}
	}
}
