package slice

import (
	"fmt"
	"github.com/arraysem/arraysem/fun"
	"strings"
)

// Part 1 of size slicing: the existential sizes of ifs.
//
// FUN's if binds the sizes of the arrays its branches return in its
// pattern, as Fig 15's rule makes every size of an if's result
// existential:
//
//	let (k : int) (zs : [k]) = if c then … in (r1, a1) else … in (r2, a2)
//
// Fig 22 → Fig 23 (§4): when both branches return the same size r bound
// before the if, k is r: the pattern drops k and says r.
//
// Otherwise, each branch's shape slice of k is the statements its r_i
// depends on. When neither has a recurrence (the cost model of §1), the
// if splits as Fig 9 splits f into f_shape and f_value:
//
//	let (k : int) = if c then SLICE1 in (r1) else SLICE2 in (r2)
//	let (zs : [k]) = if c then … in (a1) else … in (a2)
//
// The slices' statements move into the first if (nothing is computed
// twice: a scalar of a slice that a branch needs besides its size is
// returned by the first if too, and only views, which cost nothing, are
// repeated). In each branch, r_i bound by the slice becomes k; an array
// the branch returns whose size is another name (an array bound outside
// the if, or one of size r_i bound outside) is cast to [k] by a full
// slice y[one : k], a view (no copy). Otherwise k stays existential: §1's
// fallback.

// ifs slices the existential sizes of every if of p, inner ifs first.
func (s *slicer) ifs(p *fun.Program) {
	ts := slTypes{}
	for _, in := range p.Inputs {
		ts[in.Name.Name] = in.Type
	}
	s.ifBody(p.Body, ts)
}

// ifBody slices the ifs of b and of the bodies in it; ts has the types
// of the names in scope.
func (s *slicer) ifBody(b *fun.Body, ts slTypes) {
	for i := 0; i < len(b.Stms); i++ {
		st := b.Stms[i]
		for bi, nb := range fun.ExpBodies(st.Exp) {
			ts.bindFor(st.Exp, bi)
			s.ifBody(nb, ts)
		}
		if e, ok := st.Exp.(*fun.IfExp); ok {
			if pre := s.sliceIf(b, i, e, ts); pre != nil {
				b.Stms = append(b.Stms[:i], append([]*fun.Stm{pre}, b.Stms[i:]...)...)
				ts.bindStm(pre)
				i++
			}
		}
		ts.bindStm(b.Stms[i])
	}
}

// slSizeVars are the int names of a pattern that size its arrays, in the
// pattern's order.
func slSizeVars(pat []*fun.Param) []int {
	dims := map[string]bool{}
	for _, p := range pat {
		for _, d := range p.Type.Dims {
			dims[d.Name] = true
		}
	}
	var out []int
	for i, p := range pat {
		if p.Type.IsInt() && dims[p.Name.Name] {
			out = append(out, i)
		}
	}
	return out
}

// slTopIndex maps each name bound by a statement of b's own list to the
// statement's index.
func slTopIndex(b *fun.Body) map[string]int {
	out := map[string]int{}
	for i, s := range b.Stms {
		for _, p := range s.Pat {
			out[p.Name.Name] = i
		}
	}
	return out
}

// slShapeSlice is the shape slice of name r in body b: the indices of the
// statements of b that r depends on, transitively (none when r is bound
// outside b), and the first recurrence among them, if any.
func slShapeSlice(b *fun.Body, r string) (map[int]bool, *fun.Stm) {
	top := slTopIndex(b)
	slice := map[int]bool{}
	var visit func(name string)
	visit = func(name string) {
		j, ok := top[name]
		if !ok || slice[j] {
			return
		}
		slice[j] = true
		for x := range slFreeVars(b.Stms[j]) {
			visit(x)
		}
	}
	visit(r)
	for j := range b.Stms {
		if slice[j] {
			if rec := slRecurrence(b.Stms[j]); rec != nil {
				return slice, rec
			}
		}
	}
	return slice, nil
}

// slBranchPlan is how one branch of a sliced if splits.
type slBranchPlan struct {
	body   *fun.Body
	slice  map[int]bool // the statements of the shape slices
	keep   map[int]bool // the statements that stay in the branch (slice views included)
	carry  []string     // the slice's scalars the branch still needs
	rename map[string]string
}

// sliceIf slices the existential sizes of the if at b.Stms[i]. It returns
// the statement computing the sliced sizes ahead, to go before the if, or
// nil.
func (s *slicer) sliceIf(b *fun.Body, i int, e *fun.IfExp, ts slTypes) *fun.Stm {
	st := b.Stms[i]
	branches := []*fun.Body{e.Then, e.Else}
	sizes := slSizeVars(st.Pat)
	if len(sizes) == 0 {
		return nil
	}
	same := map[int]string{} // pattern index → the outer size both branches return
	var sliced []int
	slices := []map[int]bool{{}, {}}
	for _, ik := range sizes {
		k := st.Pat[ik].Name
		r := []string{e.Then.Result[ik].Name, e.Else.Result[ik].Name}
		_, in1 := slTopIndex(e.Then)[r[0]]
		_, in2 := slTopIndex(e.Else)[r[1]]
		if r[0] == r[1] && !in1 && !in2 {
			same[ik] = r[0]
			s.note(k.NamePos, "sliced %s: both branches return %s, bound before the if; the pattern's %s is %s (Fig 22 → Fig 23)", k.Name, r[0], k.Name, r[0])
			continue
		}
		var sl [2]map[int]bool
		why := ""
		for bi, br := range branches {
			var rec *fun.Stm
			sl[bi], rec = slShapeSlice(br, r[bi])
			if rec != nil && why == "" {
				why = "its shape slice in the " + []string{"then", "else"}[bi] + " branch has a recurrence (" + fun.FormName(rec.Exp) + " at " + slAt(rec.Pos()) + ")"
			}
		}
		if why != "" {
			s.note(k.NamePos, "kept %s existential: %s: computing it ahead would not cost O(1) (§1's fallback)", k.Name, why)
			continue
		}
		sliced = append(sliced, ik)
		for bi := range branches {
			for j := range sl[bi] {
				slices[bi][j] = true
			}
		}
	}
	if len(sliced) == 0 && len(same) == 0 {
		return nil
	}
	// The names the sliced sizes get before the if: their own, unless
	// bound elsewhere in the program too.
	newName := map[string]string{}
	for _, ik := range sliced {
		k := st.Pat[ik].Name.Name
		if slBindCount(b.Stms[i:], k) > 1 {
			newName[k] = s.fresh(k)
		} else {
			newName[k] = k
		}
	}
	var plans [2]*slBranchPlan
	if len(sliced) > 0 {
		for bi, br := range branches {
			pl, why := s.planBranch(br, slices[bi], sliced, st, bi, newName)
			if why != "" {
				for _, ik := range sliced {
					k := st.Pat[ik].Name
					s.note(k.NamePos, "kept %s existential: %s", k.Name, why)
				}
				sliced, plans = nil, [2]*slBranchPlan{}
				break
			}
			plans[bi] = pl
		}
	}
	if len(sliced) == 0 && len(same) == 0 {
		return nil
	}
	var pre *fun.Stm
	if len(sliced) > 0 {
		pre = s.aheadIf(st, e, sliced, plans, newName, ts)
	}
	s.rewriteIf(b, i, e, same, sliced, plans, newName, ts)
	return pre
}

// slBindCount is the number of bindings of a name in statements ss (at
// any depth): where a binding moves to just before ss[0], its scope is
// ss (and what follows them), so it keeps its name only when it is the
// one binding of the name there.
func slBindCount(ss []*fun.Stm, name string) int {
	n := 0
	for _, s := range ss {
		if slBinders(s)[name] {
			n += slBindsIn(s, name)
		}
	}
	return n
}

// slBindsIn counts the bindings of a name in a statement.
func slBindsIn(s *fun.Stm, name string) int {
	n := 0
	fun.Inspect(s, func(x fun.Node) bool {
		switch x := x.(type) {
		case *fun.Param:
			if x.Name.Name == name {
				n++
			}
		case fun.Exp:
			if v := fun.ExpIndex(x); v != nil && v.Name == name {
				n++
			}
		}
		return true
	})
	return n
}

// planBranch decides how branch bi splits: which statements of its slice
// move out, which stay (views a statement that stays needs: they cost
// nothing to repeat), and which scalars of the slice the branch still
// needs (the first if returns them). It fails (giving why) when the branch
// needs an array the slice makes that is no view.
func (s *slicer) planBranch(br *fun.Body, slice map[int]bool, sliced []int, st *fun.Stm, bi int, newName map[string]string) (*slBranchPlan, string) {
	pl := &slBranchPlan{body: br, slice: slice, keep: map[int]bool{}, rename: map[string]string{}}
	for j := range br.Stms {
		if !slice[j] {
			pl.keep[j] = true
		}
	}
	isSized := map[int]bool{}
	for _, ik := range sliced {
		isSized[ik] = true
	}
	// Uses by what stays: the kept statements after the binding (a
	// statement before it may bind the name in a scope of its own) and the
	// results that stay.
	top := slTopIndex(br)
	usedByKeep := func(name string) bool {
		for j := top[name] + 1; j < len(br.Stms); j++ {
			if pl.keep[j] {
				used := false
				fun.Idents(br.Stms[j], func(x *fun.Ident) { used = used || x.Name == name })
				if used {
					return true
				}
			}
		}
		for ir, r := range br.Result {
			if !isSized[ir] && r.Name == name {
				return true
			}
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for j := range br.Stms {
			if !slice[j] || pl.keep[j] {
				continue
			}
			switch br.Stms[j].Exp.(type) {
			case *fun.SliceExp, *fun.TransposeExp:
				for _, p := range br.Stms[j].Pat {
					if usedByKeep(p.Name.Name) {
						pl.keep[j] = true
						changed = true
					}
				}
			}
		}
	}
	// r_i bound by the slice becomes k (the first sliced size it gives).
	for _, ik := range sliced {
		r := br.Result[ik].Name
		if _, ok := slTopIndex(br)[r]; ok {
			if _, done := pl.rename[r]; !done {
				pl.rename[r] = newName[st.Pat[ik].Name.Name]
			}
		}
	}
	for j := range br.Stms {
		if !slice[j] || pl.keep[j] {
			continue
		}
		for _, p := range br.Stms[j].Pat {
			x := p.Name.Name
			if _, ok := pl.rename[x]; ok || !usedByKeep(x) {
				continue
			}
			if !p.Type.IsScalar() {
				return nil, "its shape slice in the " + []string{"then", "else"}[bi] + " branch makes the array " + x + ", which the branch needs too"
			}
			pl.carry = append(pl.carry, x)
			pl.rename[x] = s.fresh(x)
		}
	}
	return pl, ""
}

// aheadIf builds the if that computes the sliced sizes ahead: each branch
// runs its slice and returns the sizes, then the scalars of the slices the
// branches still need (zeros for the other branch's).
func (s *slicer) aheadIf(st *fun.Stm, e *fun.IfExp, sliced []int, plans [2]*slBranchPlan, newName map[string]string, ts slTypes) *fun.Stm {
	var pat []*fun.Param
	for _, ik := range sliced {
		k := st.Pat[ik]
		pat = append(pat, &fun.Param{Lparen: k.Lparen, Name: slNamed(k.Name, newName[k.Name.Name]), Type: fun.Type{}, Rparen: k.Rparen})
	}
	typeIn := func(br *fun.Body, x string) fun.Type {
		if j, ok := slTopIndex(br)[x]; ok {
			for _, p := range br.Stms[j].Pat {
				if p.Name.Name == x {
					return p.Type
				}
			}
		}
		return ts[x]
	}
	for _, pl := range plans {
		for _, x := range pl.carry {
			pat = append(pat, &fun.Param{Name: slIdent(pl.rename[x]), Type: typeIn(pl.body, x)})
		}
	}
	var bodies [2]*fun.Body
	for bi, pl := range plans {
		nb := &fun.Body{In: pl.body.In}
		for j, t := range pl.body.Stms {
			switch {
			case !pl.slice[j]:
			case pl.keep[j]:
				nb.Stms = append(nb.Stms, fun.CloneStm(t)) // a view both need
			default:
				nb.Stms = append(nb.Stms, t)
			}
		}
		for _, ik := range sliced {
			nb.Result = append(nb.Result, slNamed(pl.body.Result[ik], pl.body.Result[ik].Name))
		}
		for oi, other := range plans {
			for _, x := range other.carry {
				if oi == bi {
					nb.Result = append(nb.Result, slIdent(x))
					continue
				}
				z := s.fresh("zero")
				nb.Stms = append(nb.Stms, slScalarStm(z, fun.Type{Elem: typeIn(other.body, x).Elem}, slZero(typeIn(other.body, x))))
				nb.Result = append(nb.Result, slIdent(z))
			}
		}
		bodies[bi] = nb
	}
	ahead := &fun.Stm{Let: st.Let, Pat: pat, Exp: &fun.IfExp{If: e.If, Cond: slNamed(e.Cond, e.Cond.Name), Then: bodies[0], Else: bodies[1]}}
	// The statements move (the branches lose them), so the if adds no
	// operation: nothing counts towards the overhead.
	var names []string
	for _, ik := range sliced {
		names = append(names, st.Pat[ik].Name.Name)
	}
	for _, ik := range sliced {
		k := st.Pat[ik].Name
		s.note(k.NamePos, "sliced %s: the shape slices of %s (%s in the then branch, %s in the else branch) have no recurrence, so %s computed ahead of the if at %s, which returns arrays of %s (Fig 15 → Fig 23)",
			k.Name, strings.Join(names, ", "), slCount(len(plans[0].slice), "statement"), slCount(len(plans[1].slice), "statement"),
			slPlural(len(names), "it is", "they are"), slAt(st.Pos()), slPlural(len(names), "that size", "those sizes"))
	}
	return ahead
}

// slCount is "no statements", "1 statement", "2 statements".
func slCount(n int, what string) string {
	switch n {
	case 0:
		return "no " + what + "s"
	case 1:
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// slPlural is one when n is 1, else many.
func slPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// rewriteIf rewrites the if once its sliced sizes are computed before it:
// the pattern drops them (and the sizes both branches return), each branch
// loses its slice and its results for them, and returns arrays of the
// pattern's sizes; the rest of the body says the sizes' new names.
func (s *slicer) rewriteIf(b *fun.Body, i int, e *fun.IfExp, same map[int]string, sliced []int, plans [2]*slBranchPlan, newName map[string]string, ts slTypes) {
	st := b.Stms[i]
	drop := map[int]bool{}
	for ik := range same {
		drop[ik] = true
	}
	for _, ik := range sliced {
		drop[ik] = true
	}
	// The names the pattern's sizes have in the pattern's types and the
	// rest of the body.
	outer := map[string]string{}
	for ik, r := range same {
		outer[st.Pat[ik].Name.Name] = r
	}
	for _, ik := range sliced {
		k := st.Pat[ik].Name.Name
		outer[k] = newName[k]
	}
	// Each branch: its statements (less the slice), renamed, its results
	// (less the dropped), cast to the pattern's sizes where they differ.
	for bi, br := range []*fun.Body{e.Then, e.Else} {
		if pl := plans[bi]; pl != nil {
			var stms []*fun.Stm
			for j, t := range br.Stms {
				if pl.keep[j] {
					stms = append(stms, t)
				}
			}
			// Each renamed name, in its scope: the statements that stay
			// after its binding, and the results.
			top := slTopIndex(br)
			for from, to := range pl.rename {
				for j := top[from] + 1; j < len(br.Stms); j++ {
					if pl.keep[j] {
						slRenameIdents(br.Stms[j], from, to)
					}
				}
				for _, r := range br.Result {
					if r.Name == from {
						r.Name = to
					}
				}
			}
			br.Stms = stms
		}
		// What each of the pattern's sizes is in this branch.
		inBranch := map[string]string{}
		for ik, p := range st.Pat {
			if drop[ik] {
				inBranch[p.Name.Name] = outer[p.Name.Name]
			} else if p.Type.IsInt() {
				inBranch[p.Name.Name] = br.Result[ik].Name
			}
		}
		var res []*fun.Ident
		one := ""
		for ir, r := range br.Result {
			if drop[ir] {
				continue
			}
			p := st.Pat[ir]
			if p.Type.Rank() > 0 {
				have := slBranchType(br, r.Name, ts)
				want := fun.Type{Elem: p.Type.Elem}
				for _, d := range p.Type.Dims {
					name := d.Name
					if v, ok := inBranch[name]; ok {
						name = v
					}
					want.Dims = append(want.Dims, slIdent(name))
				}
				if !have.SameDims(want) {
					if one == "" {
						one = s.fresh("one")
						br.Stms = append(br.Stms, slScalarStm(one, fun.Type{}, fun.Int(1)))
					}
					y := s.fresh(r.Name)
					var sl []fun.Slice
					for _, d := range want.Dims {
						sl = append(sl, fun.Slice{Off: slIdent(one), Size: slIdent(d.Name)})
					}
					br.Stms = append(br.Stms, &fun.Stm{Pat: []*fun.Param{{Name: slIdent(y), Type: want}}, Exp: &fun.SliceExp{Arr: slNamed(r, r.Name), Slices: sl}})
					r = slIdent(y)
				}
			}
			res = append(res, r)
		}
		br.Result = res
	}
	var pat []*fun.Param
	for ik, p := range st.Pat {
		if !drop[ik] {
			pat = append(pat, p)
		}
	}
	st.Pat = pat
	for _, p := range pat {
		for _, d := range p.Type.Dims {
			if v, ok := outer[d.Name]; ok {
				d.Name = v
			}
		}
	}
	for from, to := range outer {
		if from != to {
			slRenameFrom(b, i+1, from, to)
		}
	}
}

// slBranchType is the type of a name a branch returns: its binding in the
// branch, or outside.
func slBranchType(br *fun.Body, x string, ts slTypes) fun.Type {
	if j, ok := slTopIndex(br)[x]; ok {
		for _, p := range br.Stms[j].Pat {
			if p.Name.Name == x {
				return p.Type
			}
		}
	}
	return ts[x]
}
