package funmem

import (
	"slices"
	"sync"

	"github.com/arraysem/arraysem/fun"
)

// Simplify is the simplifier §3.5 defers to: "removal of redundant return
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
// and then statements binding ints or blocks nobody uses are dropped, the
// copy TransformProgram makes of a result that already has a block of its
// own goes (ownResults), a kernel's rows that an inner kernel makes are
// made in the kernel's own block (inPlace), and LMADs equal to the
// row-major one of their array are written R(…). Each rewrite keeps the
// program well typed and valid (Def 3.1); a property test checks it.
func Simplify(p *fun.Program) *fun.Program { return simplify(p, true) }

// simplify is Simplify; without signatures, deadCode walks every nested
// body (TestDeadCodeSignatures compares the two).
func simplify(p *fun.Program, signatures bool) *fun.Program {
	// One simplifier for every round, and for the next call: its set,
	// maps and lists are used again.
	s := simplifiers.Get().(*simplifier)
	out := s.simplify(p, signatures)
	s.release()
	return out
}

// newSimplifier is a simplifier with nothing in scope.
func newSimplifier() *simplifier {
	return &simplifier{scope: fun.NewNameSet(64), clean: map[*fun.Body]bool{}, sigs: nameSigs{}, consts: map[string]int64{}}
}

// simplify is Simplify with s, which it leaves as it found it but for
// its maps of bodies (release empties them).
func (s *simplifier) simplify(p *fun.Program, signatures bool) *fun.Program {
	scope := s.scope
	for _, in := range p.Inputs {
		scope.Add(in.Name.Name)
	}
	s.names = nil
	if signatures {
		s.names = s.sigs
	}
	body := p.Body
	for {
		s.changed = false
		body = s.body(body, scope)
		body = s.propagate(body, s.consts)
		if !s.changed {
			break
		}
	}
	for _, in := range p.Inputs {
		scope.Remove(in.Name.Name)
	}
	body = rowMajorBody(inPlace(ownResults(body)))
	return &fun.Program{File: p.File, Inputs: p.Inputs, Body: body, Format: p.Format}
}

// simplifiers holds the simplifiers of the calls done, their scope,
// maps and stack empty again, for the next call: Simplify runs on every
// pass's output in the campaigns, and making and growing them anew was
// about a tenth of its allocation. A simplifier is only scratch space:
// what one call leaves in it (nothing, once release has looked)
// changes nothing.
var simplifiers = sync.Pool{New: func() any { return newSimplifier() }}

// maxPooled is the most bodies a simplifier's maps may have held to be
// used again: clearing a map costs its size, which one large program
// should not leave every later call to pay.
const maxPooled = 4096

// release empties s's maps (they must not keep the trees of this call
// alive) and puts s back in simplifiers if the call left its scope,
// constants and stack empty, as it should always have.
func (s *simplifier) release() {
	if s.reset() {
		simplifiers.Put(s)
	}
}

// reset empties s's maps and lists, and reports whether s can be used
// again: the call left its scope, constants and stack empty and its
// maps were not too large.
func (s *simplifier) reset() bool {
	if s.scope.Len() != 0 || len(s.consts) != 0 || len(s.saved) != 0 ||
		len(s.clean) > maxPooled || len(s.sigs) > maxPooled {
		return false
	}
	clear(s.clean)
	clear(s.sigs)
	s.names = nil
	// Nor the names the lists held keep their program's text alive.
	for _, l := range s.strs {
		clear(l[:cap(l)])
	}
	clear(s.counts[:cap(s.counts)])
	clear(s.saved[:cap(s.saved)])
	return true
}

type simplifier struct {
	changed bool
	// scope, consts and sigs are the call's set of names in scope,
	// propagate's map of constants (empty again after each walk), and
	// the signatures names is when signatures are used.
	scope  scopeSet
	consts map[string]int64
	sigs   nameSigs
	// clean holds the bodies deadCode returned: it would drop nothing
	// more from them (a body is never changed once built), so neither
	// propagate, which asks again of every body, nor the next round need
	// ask again of a body they leave as it is.
	clean map[*fun.Body]bool
	// names holds the names the bodies deadCode counts in use, as
	// signatures, so that it walks a nested body only when one of the
	// names it counts may be used there.
	names nameSigs
	// bufs and strs are lists body builds in and uses again; bools
	// and counts, lists deadCode does.
	bufs   stmBufs
	strs   strBufs
	bools  [][]bool
	counts []nameCount
	// saved is propagate's stack of what its map of constants held
	// before a body bound a name.
	saved []savedConst
}

// flags is a list of n falses, from s.bools when one is long enough.
func (s *simplifier) flags(n int) []bool {
	if k := len(s.bools); k > 0 && cap(s.bools[k-1]) >= n {
		l := s.bools[k-1][:n]
		s.bools = s.bools[:k-1]
		clear(l)
		return l
	}
	return make([]bool, n)
}

// putFlags gives lists back to flags.
func (s *simplifier) putFlags(ls ...[]bool) { s.bools = append(s.bools, ls...) }

// strBufs are lists of names to use again, as stmBufs are.
type strBufs [][]string

// get is an empty list.
func (f *strBufs) get() []string {
	if n := len(*f); n > 0 {
		l := (*f)[n-1]
		*f = (*f)[:n-1]
		return l
	}
	return make([]string, 0, 16)
}

// put gives l back.
func (f *strBufs) put(l []string) { *f = append(*f, l[:0]) }

// A scopeSet is the set of names in scope. One set serves a whole walk:
// a body adds the names it binds and takes them out again when it is done
// (addName, removeNames), rather than each body copying its enclosing scope.
type scopeSet = *fun.NameSet

// addName puts x in the set, and appends it to added if it was not in
// it before (removeNames takes those out again).
func addName(sc scopeSet, added []string, x string) []string {
	if _, ok := sc.Add(x); ok {
		added = append(added, x)
	}
	return added
}

// addNames is addName of x to an empty list of s's.
func (s *simplifier) addNames(sc scopeSet, x string) []string {
	return addName(sc, s.strs.get(), x)
}

// removeNames takes the names added out of the set, and gives the list
// back.
func (s *simplifier) removeNames(sc scopeSet, added []string) {
	for _, x := range added {
		sc.Remove(x)
	}
	s.strs.put(added)
}

// body simplifies a body whose enclosing scope is scope; scope is as it
// was when body returns.
func (s *simplifier) body(b *fun.Body, scope scopeSet) *fun.Body {
	inner := scope
	var bound []string // the names this body adds to the scope
	bind := func(x string) {
		if _, ok := inner.Add(x); ok {
			bound = append(bound, x)
		}
	}
	var out []*fun.Stm // in a list of s.bufs, copied if b changes
	if len(b.Stms) > 0 {
		out = s.bufs.get()
		bound = s.strs.get()
	}
	defer func() {
		for _, x := range bound {
			inner.Remove(x)
		}
		if out != nil {
			s.bufs.put(out)
			s.strs.put(bound)
		}
	}()
	// A statement in which nothing changes is kept as it is, and so is b
	// when none of its statements changes (same).
	same := true
	stms := b.Stms
	result := b.Result
	for i := 0; i < len(stms); i++ {
		st := stms[i]
		orig := st
		switch e := st.Exp.(type) {
		case *fun.IfExp:
			then, els := s.body(e.Then, inner), s.body(e.Else, inner)
			cand := st
			if then != e.Then || els != e.Else {
				cand = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond, Then: then, Else: els}}
			}
			before, nst, ren := s.ifResults(cand, inner)
			same = same && len(before) == 0
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
				same = false
			}
		case *fun.KernelExp:
			added := s.addNames(inner, e.Var.Name)
			if body := s.body(e.Body, inner); body != e.Body {
				st = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: body}}
			}
			s.removeNames(inner, added)
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			// The body is simplified in the scope of the parameters; the
			// form's own results (a loop's supporting ones) stay.
			added := s.strs.get()
			for _, q := range fun.ExpParams(e) {
				added = addName(inner, added, q.Name.Name)
			}
			if l, ok := e.(*fun.LoopExp); ok {
				added = addName(inner, added, l.Var.Name)
			}
			if body := s.body(fun.ExpBody(e), inner); body != fun.ExpBody(e) {
				st = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithParts(e, nil, body)}
			}
			s.removeNames(inner, added)
		case *fun.RedomapExp:
			// The map body in the scope of the index, the operator body in
			// that of the parameters.
			added := s.addNames(inner, e.Var.Name)
			m := s.body(e.Map, inner)
			s.removeNames(inner, added)
			added = s.strs.get()
			for _, q := range e.Params {
				added = addName(inner, added, q.Name.Name)
			}
			op := s.body(e.Op, inner)
			s.removeNames(inner, added)
			if m != e.Map || op != e.Op {
				st = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithBodies(e, nil, []*fun.Body{m, op})}
			}
		}
		same = same && st == orig
		out = append(out, st)
		for _, q := range st.Pat {
			bind(q.Name.Name)
		}
	}
	if same {
		return s.deadCode(b)
	}
	return s.deadCode(&fun.Body{Stms: slices.Clone(out), In: b.In, Result: result})
}

// ifResults removes the redundant results of an if statement. It returns
// the lets to put before it, the new statement, and the renaming to apply
// after it.
func (s *simplifier) ifResults(st *fun.Stm, scope scopeSet) ([]*fun.Stm, *fun.Stm, map[string]string) {
	e := st.Exp.(*fun.IfExp)
	// The branches' definitions, made when first asked for: most ifs
	// return no int both branches define.
	var tdefs, edefs *branchDefs
	defs := func() (*branchDefs, *branchDefs) {
		if tdefs == nil {
			tdefs, edefs = defsOf(e.Then, scope), defsOf(e.Else, scope)
		}
		return tdefs, edefs
	}
	var ren map[string]string // made at the first renaming: most ifs have none
	rename := func(from, to string) {
		if ren == nil {
			ren = map[string]string{}
		}
		ren[from] = to
	}
	keep := make([]bool, len(st.Pat))
	// A size of the pattern's arrays must stay a pattern variable to be
	// hoisted: T-MEM-RESULT compares sizes by name. And a name a branch
	// binds cannot be bound before the if.
	size := func(x string) bool { // asked of the ints that may be hoisted only
		for _, p := range st.Pat {
			for _, d := range p.Type.Dims {
				if d.Name == x {
					return true
				}
			}
		}
		return false
	}
	// Whether a branch binds x is asked of the ints that may be hoisted
	// only: most ifs hoist none.
	bindsInside := func(x string) bool { return binds(e.Then, x) || binds(e.Else, x) }
	hoisted := make([]*fun.Stm, len(st.Pat))
	for j, p := range st.Pat {
		keep[j] = true
		tj, ej := e.Then.Result[j], e.Else.Result[j]
		scalarOrMem := p.Type.IsScalar() || IsMem(p.Type)
		switch {
		case tj.Name == ej.Name && scope.Has(tj.Name) && scalarOrMem:
			rename(p.Name.Name, tj.Name)
			keep[j] = false
		case p.Type.IsInt() && !size(p.Name.Name) && sameDef(defs, tj.Name, ej.Name) && !bindsInside(p.Name.Name):
			hoisted[j] = &fun.Stm{Let: st.Let, Pat: []*fun.Param{p}, Exp: &fun.ScalarExp{X: Canon(tdefs.get(tj.Name))}}
			keep[j] = false
		default:
			for k := 0; k < j; k++ {
				q := st.Pat[k]
				if keep[k] && scalarOrMem && q.Type.IsScalar() == p.Type.IsScalar() && q.Type.Elem == p.Type.Elem &&
					e.Then.Result[k].Name == tj.Name && e.Else.Result[k].Name == ej.Name {
					rename(p.Name.Name, q.Name.Name)
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
	if !slices.Contains(keep, false) {
		return nil, st, nil // nothing to remove (most ifs)
	}
	var before []*fun.Stm
	for _, h := range hoisted {
		if h != nil {
			before = append(before, h)
		}
	}
	pat := make([]*fun.Param, 0, len(st.Pat))
	tres := make([]*fun.Ident, 0, len(st.Pat))
	eres := make([]*fun.Ident, 0, len(st.Pat))
	f := fun.Uses(fun.Renaming(ren))
	for j, p := range st.Pat {
		if keep[j] {
			pat = append(pat, &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: fun.MapType(p.Type, f)})
			tres = append(tres, e.Then.Result[j])
			eres = append(eres, e.Else.Result[j])
		}
	}
	s.changed = true
	return before, &fun.Stm{Let: st.Let, Pat: pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond,
		Then: &fun.Body{Stms: e.Then.Stms, In: e.Then.In, Result: tres},
		Else: &fun.Body{Stms: e.Else.Stms, In: e.Else.In, Result: eres}}}, ren
}

// sameDef reports whether the branches define x and y (defs gives their
// definitions) as the same value over variables from outside the if.
func sameDef(defs func() (*branchDefs, *branchDefs), x, y string) bool {
	tdefs, edefs := defs()
	tx, ey := tdefs.get(x), edefs.get(y)
	return tx != nil && ey != nil && SameValue(tx, ey)
}

// defsOf maps the int variables a branch can name in its results to
// expressions over variables of scope only (constants, outer variables,
// and lets of those), or nil when they depend on the branch.
func defsOf(b *fun.Body, scope scopeSet) *branchDefs {
	defs := &branchDefs{scope: scope}
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
			if defs.lets == nil {
				defs.lets = map[string]fun.SExp{}
			}
			defs.lets[st.Pat[0].Name.Name] = d
		}
	}
	return defs
}

// branchDefs are defsOf's definitions: the branch's lets, and the names of
// the scope, each standing for itself (made when first asked for, not one
// for every name in scope at every if). Its maps are made when first
// written.
type branchDefs struct {
	lets, outer map[string]fun.SExp
	scope       scopeSet
}

// get is the definition of name, or nil.
func (d *branchDefs) get(name string) fun.SExp {
	if e, ok := d.lets[name]; ok {
		return e
	}
	if !d.scope.Has(name) {
		return nil
	}
	e, ok := d.outer[name]
	if !ok {
		e = fun.Named(name) // outer names stand for themselves
		if d.outer == nil {
			d.outer = map[string]fun.SExp{}
		}
		d.outer[name] = e
	}
	return e
}

// deadCode drops the lets of ints whose names are used nowhere after them
// and whose expressions cannot get stuck (no division by a variable), so
// that a program stuck before stays stuck. Allocations stay: one of a
// negative size is stuck.
func (s *simplifier) deadCode(b *fun.Body) *fun.Body {
	if s.clean[b] {
		return b
	}
	// Only the uses of the names such lets bind are counted: there is
	// nothing to count when there are none. The uses are counted once;
	// a dropped let's own uses are taken off the counts, so that a let
	// only it used goes next. (Dropping lets only lowers counts, so the
	// lets dropped are those the rounds of "drop every unused one, count
	// again" would drop.)
	if !slices.ContainsFunc(b.Stms, droppable) {
		return s.isClean(b)
	}
	// can, gone and the counts are in lists of s's, used again by the
	// next body (deadCode counts within one body at a time).
	can := s.flags(len(b.Stms))
	n := 0
	for i, st := range b.Stms {
		if can[i] = droppable(st); can[i] {
			n++
		}
	}
	used := useCounter{step: 1, sigs: s.names, masked: true}
	if n <= smallUses {
		used.small = s.counts[:0]
	} else {
		used.n = make(map[string]int, n)
	}
	for i, st := range b.Stms {
		if can[i] {
			used.count0(st.Pat[0].Name.Name)
			used.mask = used.mask.with(st.Pat[0].Name.Name)
		}
	}
	gone := s.flags(len(b.Stms))
	defer func() {
		if used.small != nil {
			s.counts = used.small[:0]
		}
		s.putFlags(can, gone)
	}()
	// The uses by what stays (the result and the statements that cannot
	// be dropped) are counted first: they are never taken off, so once
	// every name has one, nothing can be dropped and the rest of the body
	// need not be walked (unused counts the names without one yet).
	// The statements' own parts (their types and operands) are counted
	// before their nested bodies: most lets are used there, and then
	// no nested body is walked, nor its signature made.
	used.unused = used.names()
	used.idents(b.Result)
	used.shallow = true
	for i := 0; i < len(b.Stms) && used.unused > 0; i++ {
		if !can[i] {
			used.stm(b.Stms[i])
		}
	}
	used.shallow = false
	for i := 0; i < len(b.Stms) && used.unused > 0; i++ {
		if !can[i] {
			used.nested(b.Stms[i].Exp)
		}
	}
	if used.unused == 0 {
		return s.isClean(b)
	}
	for i, st := range b.Stms {
		if can[i] {
			used.stm(st)
		}
	}
	dropped := false
	for again := true; again; {
		again = false
		for i, st := range b.Stms {
			if can[i] && !gone[i] && used.get(st.Pat[0].Name.Name) == 0 {
				gone[i], dropped, again = true, true, true
				used.step = -1
				used.stm(st)
			}
		}
	}
	if !dropped {
		return s.isClean(b)
	}
	s.changed = true
	k := 0
	for _, g := range gone {
		if !g {
			k++
		}
	}
	var out []*fun.Stm
	if k > 0 {
		out = make([]*fun.Stm, 0, k)
	}
	for i, st := range b.Stms {
		if !gone[i] {
			out = append(out, st)
		}
	}
	return s.isClean(&fun.Body{Stms: out, In: b.In, Result: b.Result})
}

// isClean records that deadCode has nothing more to drop from b, and
// returns b.
func (s *simplifier) isClean(b *fun.Body) *fun.Body {
	if s.clean == nil {
		s.clean = map[*fun.Body]bool{}
	}
	s.clean[b] = true
	return b
}

// droppable reports whether st is a let of a scalar that cannot get
// stuck, which deadCode drops when its name is not used.
func droppable(st *fun.Stm) bool {
	e, scalar := st.Exp.(*fun.ScalarExp)
	return scalar && len(st.Pat) == 1 && !fun.CanFail(e.X)
}

// propagate substitutes variables let-bound to constants into LMADs
// (types take expressions, so the let can then go).
func (s *simplifier) propagate(b *fun.Body, consts map[string]int64) *fun.Body {
	// One map of constants serves the whole walk: a body adds the ones
	// it binds and puts back what it found when it is done (from
	// s.saved, one stack for the walk), rather than copying its caller's.
	mark := len(s.saved)
	defer func() {
		for i := len(s.saved) - 1; i >= mark; i-- {
			if c := s.saved[i]; c.had {
				consts[c.name] = c.k
			} else {
				delete(consts, c.name)
			}
		}
		s.saved = s.saved[:mark]
	}()
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
	// A statement is copied only when something in it changes, and a
	// body only when one of its statements does: most rounds substitute
	// nothing. (Simplify's last pass, rowMajorBody, copies the whole
	// tree, so its result shares no statement with its input as before.)
	var stms []*fun.Stm // b's statements, once one has changed
	for i, st := range b.Stms {
		var pat []*fun.Param // st's pattern, once a type has changed
		for j, p := range st.Pat {
			t := p.Type
			if a := ArrayOf(t); a != nil && len(consts) > 0 && lmadMentions(a.Index, mentions) {
				// The annotation and its LMAD in one allocation, their
				// lists made their size.
				am := &struct {
					a ArrayMem
					l IndexFn
				}{}
				l := &am.l
				l.Pos = a.Index.Pos
				if a.Index.IsRowMajor() {
					l.RowMajor = make([]fun.SExp, len(a.Index.RowMajor)) // not empty: it mentions a constant
					for i, x := range a.Index.RowMajor {
						l.RowMajor[i] = sub(x)
					}
				} else {
					l.Offset = sub(a.Index.Offset)
					if len(a.Index.Dims) > 0 {
						l.Dims = make([]LDim, len(a.Index.Dims))
					}
					for i, d := range a.Index.Dims {
						l.Dims[i] = LDim{Elems: sub(d.Elems), Stride: sub(d.Stride)}
					}
				}
				am.a = ArrayMem{Block: a.Block, Index: l}
				t = fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &am.a}
				if pat == nil {
					pat = slices.Clone(st.Pat)
				}
				pat[j] = &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: t}
			}
		}
		exp := st.Exp
		switch e := st.Exp.(type) {
		case *fun.ScalarExp:
			if c, ok := e.X.(*fun.Const); ok {
				x := st.Pat[0].Name.Name
				k, had := consts[x]
				s.saved = append(s.saved, savedConst{x, k, had})
				consts[x] = c.Value
			}
		case *fun.IfExp:
			then, els := s.propagate(e.Then, consts), s.propagate(e.Else, consts)
			if then != e.Then || els != e.Else {
				exp = &fun.IfExp{If: e.If, Cond: e.Cond, Then: then, Else: els}
			}
		case *fun.KernelExp:
			if body := s.propagate(e.Body, consts); body != e.Body {
				exp = &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: body}
			}
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			if body := s.propagate(fun.ExpBody(e), consts); body != fun.ExpBody(e) {
				exp = fun.WithParts(e, nil, body)
			}
		case *fun.RedomapExp:
			m, op := s.propagate(e.Map, consts), s.propagate(e.Op, consts)
			if m != e.Map || op != e.Op {
				exp = fun.WithBodies(e, nil, []*fun.Body{m, op})
			}
		}
		if pat == nil && exp == st.Exp {
			if stms != nil {
				stms = append(stms, st)
			}
			continue
		}
		if pat == nil {
			pat = st.Pat
		}
		if stms == nil {
			stms = make([]*fun.Stm, i, len(b.Stms))
			copy(stms, b.Stms)
		}
		stms = append(stms, &fun.Stm{Let: st.Let, Pat: pat, Exp: exp})
	}
	if stms == nil && s.clean[b] {
		return b
	}
	out := b
	if stms != nil {
		out = &fun.Body{In: b.In, Result: b.Result, Stms: stms}
	}
	return s.deadCode(out)
}

// A savedConst is what propagate's map of constants held for a name
// before a body bound it: k, or nothing (had false).
type savedConst struct {
	name string
	k    int64
	had  bool
}

// lmadMentions reports whether one of l's expressions satisfies f.
func lmadMentions(l *IndexFn, f func(fun.SExp) bool) bool {
	if l.IsRowMajor() {
		return slices.ContainsFunc(l.RowMajor, f)
	}
	if f(l.Offset) {
		return true
	}
	return slices.ContainsFunc(l.Dims, func(d LDim) bool { return f(d.Elems) || f(d.Stride) })
}

// rowMajorBody writes every LMAD that is R of its array's sizes as R(…).
// It gives the tree retypeBody(b, asRowMajor) gives (which drops the
// positions of patterns' and bodies' closing parentheses), but shares
// the statements and bodies in which nothing changes rather than copying
// all of them.
func rowMajorBody(b *fun.Body) *fun.Body {
	var stms []*fun.Stm // b's statements, once one has changed
	for i, st := range b.Stms {
		ns := rowMajorStm(st)
		if ns != st && stms == nil {
			stms = make([]*fun.Stm, i, len(b.Stms))
			copy(stms, b.Stms)
		}
		if stms != nil {
			stms = append(stms, ns)
		}
	}
	if stms == nil {
		if b.Rparen == (fun.Pos{}) && (b.Stms == nil || len(b.Stms) > 0) {
			return b
		}
		if len(b.Stms) > 0 {
			stms = slices.Clone(b.Stms)
		}
	}
	return &fun.Body{Stms: stms, In: b.In, Result: b.Result}
}

// rowMajorStm is rowMajorBody for a statement: st itself when nothing in
// it changes.
func rowMajorStm(st *fun.Stm) *fun.Stm {
	pat, patChanged := st.Pat, false
	if len(st.Pat) == 0 && st.Pat != nil {
		pat, patChanged = nil, true // as appending nothing gives
	}
	// A pattern of one parameter (most) is made with its statement, in
	// one allocation.
	var one *oneParamStm
	for i, p := range st.Pat {
		if t, changed := rowMajorType(p.Type); changed || p.Rparen != (fun.Pos{}) {
			// The types before p's are as they were (rowMajorType said
			// so); p's is t.
			var params []fun.Param
			if len(st.Pat) == 1 {
				one = new(oneParamStm)
				pat, params = one.pat[:], one.param[:]
			} else {
				pat = make([]*fun.Param, len(st.Pat))
				params = make([]fun.Param, len(st.Pat)) // allocated together
			}
			for j, q := range st.Pat {
				qt := q.Type
				switch {
				case j == i:
					qt = t
				case j > i:
					qt = asRowMajor(q.Type)
				}
				params[j] = fun.Param{Lparen: q.Lparen, Name: q.Name, Type: qt}
				pat[j] = &params[j]
			}
			patChanged = true
			break
		}
	}
	exp := st.Exp
	switch e := st.Exp.(type) {
	case *fun.IfExp:
		then, els := rowMajorBody(e.Then), rowMajorBody(e.Else)
		if then != e.Then || els != e.Else {
			exp = &fun.IfExp{If: e.If, Cond: e.Cond, Then: then, Else: els}
		}
	case *fun.KernelExp:
		if body := rowMajorBody(e.Body); body != e.Body {
			exp = &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: body}
		}
	case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
		ps, body := rowMajorParams(fun.ExpParams(e)), rowMajorBody(fun.ExpBody(e))
		if !slices.Equal(ps, fun.ExpParams(e)) || body != fun.ExpBody(e) {
			exp = fun.WithParts(e, ps, body)
		}
	case *fun.RedomapExp:
		ps, m, op := rowMajorParams(e.Params), rowMajorBody(e.Map), rowMajorBody(e.Op)
		if !slices.Equal(ps, e.Params) || m != e.Map || op != e.Op {
			exp = fun.WithBodies(e, ps, []*fun.Body{m, op})
		}
	}
	if !patChanged && exp == st.Exp {
		return st
	}
	if one != nil {
		one.stm = fun.Stm{Let: st.Let, Pat: pat, Exp: exp}
		return &one.stm
	}
	return &fun.Stm{Let: st.Let, Pat: pat, Exp: exp}
}

// A oneParamStm is a statement and its pattern of one parameter.
type oneParamStm struct {
	stm   fun.Stm
	pat   [1]*fun.Param
	param [1]fun.Param
}

// rowMajorParams is retypeParams(ps, asRowMajor), or ps itself when no
// type changes (retypeParams keeps the closing parentheses).
func rowMajorParams(ps []*fun.Param) []*fun.Param {
	for _, p := range ps {
		if _, changed := rowMajorType(p.Type); changed {
			return retypeParams(ps, rowMajorType)
		}
	}
	return ps
}

func asRowMajor(t fun.Type) fun.Type {
	r, _ := rowMajorType(t)
	return r
}

// rowMajorType is asRowMajor, and whether it changed t.
func rowMajorType(t fun.Type) (fun.Type, bool) {
	a := ArrayOf(t)
	if a == nil || a.Index.IsRowMajor() {
		return t, false
	}
	// R's offset is 0: a variable, or a constant other than 0, is not
	// (as polynomials), and most offsets that are not 0 are written so.
	switch off := a.Index.Offset.(type) {
	case fun.Var:
		return t, false
	case *fun.Const:
		if off.Value != 0 {
			return t, false
		}
	}
	// R's sizes (the array's, most often written as they are) and the
	// offset 0 are compared before R's strides are made.
	off, dims := a.Index.LMAD()
	for i := range dims {
		if !SameValue(dims[i].Elems, fun.Var{Ident: t.Dims[i]}) {
			return t, false
		}
	}
	if !Normalize(off).Equal(Poly{}) {
		return t, false
	}
	r := rowMajorIn(t, a.Block)
	_, rd := ArrayOf(r).Index.LMAD()
	for i := range dims {
		if !SameValue(dims[i].Stride, rd[i].Stride) {
			return t, false
		}
	}
	return r, true
}

// binds reports whether b binds x, nested bodies included.
func binds(b *fun.Body, x string) bool {
	for _, s := range b.Stms {
		for _, p := range s.Pat {
			if p.Name.Name == x {
				return true
			}
		}
		if i := fun.ExpIndex(s.Exp); i != nil && i.Name == x {
			return true
		}
		for _, q := range fun.ExpParams(s.Exp) {
			if q.Name.Name == x {
				return true
			}
		}
		switch e := s.Exp.(type) {
		case *fun.IfExp:
			if binds(e.Then, x) || binds(e.Else, x) {
				return true
			}
		case *fun.RedomapExp:
			if binds(e.Map, x) || binds(e.Op, x) {
				return true
			}
		default:
			if c := fun.ExpBody(e); c != nil && binds(c, x) {
				return true
			}
		}
	}
	return false
}

// A useCounter counts the occurrences of the names it holds as variables
// (not binders) in statements and results, types included (sizes, blocks,
// the variables of LMADs): the identifiers fun.MapStm passes to fun.Uses.
// It walks the tree without copying it, since deadCode asks again after
// every drop; an extension's node other than FUNMEM's own is mapped (and
// the copy dropped).
//
// Its names are a map, or (deadCode's, when they are few) a list searched
// in order: a body has a few lets to drop, and comparing a few strings
// is cheaper than hashing every identifier of the tree.
//
// With sigs, a nested body is walked only when its signature meets mask,
// that of the names counted (sigs.of is made by a useCounter with sig,
// which gathers the signature of what it walks, nested bodies' from
// sigs).
type useCounter struct {
	n     map[string]int // the names counted, and their counts
	small []nameCount    // when n is nil: the names counted, and their counts
	step  int            // what an occurrence adds: 1, or -1 to take a statement's uses off
	sigs  nameSigs
	mask  nameSig
	sig   *nameSig
	// masked says that mask holds every name n counts.
	masked bool
	// unused is the number of names counted whose count went from 0 to
	// 1 no time yet (while step is 1).
	unused int
	// shallow says to count no nested body of FUN's forms (nested
	// counts those).
	shallow bool
}

// A nameSig is a set of names as a Bloom filter of one bit a name: a
// set without a name's bit does not hold it.
type nameSig [4]uint64

// with is the set with x.
func (g nameSig) with(x string) nameSig {
	h := uint32(2166136261) // FNV-1a
	for i := 0; i < len(x); i++ {
		h = (h ^ uint32(x[i])) * 16777619
	}
	g[h>>6&3] |= 1 << (h & 63)
	return g
}

// has reports whether the set may hold x.
func (g nameSig) has(x string) bool {
	h := uint32(2166136261) // as with
	for i := 0; i < len(x); i++ {
		h = (h ^ uint32(x[i])) * 16777619
	}
	return g[h>>6&3]&(1<<(h&63)) != 0
}

// meets reports whether the two sets may have a name in common.
func (g nameSig) meets(o nameSig) bool {
	return g[0]&o[0]|g[1]&o[1]|g[2]&o[2]|g[3]&o[3] != 0
}

// nameSigs are the signatures of the names bodies use (as useCounter
// counts them, nested bodies included), each made when first asked for:
// a body never changes once built.
type nameSigs map[*fun.Body]*nameSig

// of is b's signature.
func (s nameSigs) of(b *fun.Body) nameSig {
	if g, ok := s[b]; ok {
		return *g
	}
	g := new(nameSig)
	u := useCounter{sigs: s, sig: g}
	u.idents(b.Result)
	for _, st := range b.Stms {
		u.stm(st)
	}
	s[b] = g
	return *g
}

// A nameCount is a name a useCounter counts, and its count.
type nameCount struct {
	name string
	n    int
}

// smallUses is the most names deadCode counts in a list rather than a
// map.
const smallUses = 8

// use counts an occurrence of x, if x is counted.
func (u *useCounter) use(x string) {
	if u.sig != nil {
		*u.sig = u.sig.with(x)
		return
	}
	if u.n != nil {
		// With masked, the names counted are in mask (deadCode's): most
		// names are not, and testing a bit costs less than looking in
		// the map.
		if u.masked && !u.mask.has(x) {
			return
		}
		if n, ok := u.n[x]; ok {
			if n == 0 && u.step > 0 {
				u.unused--
			}
			u.n[x] = n + u.step
		}
		return
	}
	for i := range u.small {
		if c := &u.small[i]; c.name == x {
			if c.n == 0 && u.step > 0 {
				u.unused--
			}
			c.n += u.step
			return
		}
	}
}

// names is the number of names u counts.
func (u *useCounter) names() int {
	if u.n != nil {
		return len(u.n)
	}
	return len(u.small)
}

// count0 counts x from 0 (a name counted already stays as it is).
func (u *useCounter) count0(x string) {
	if u.n != nil {
		if _, ok := u.n[x]; !ok {
			u.n[x] = 0
		}
		return
	}
	for _, c := range u.small {
		if c.name == x {
			return
		}
	}
	u.small = append(u.small, nameCount{name: x})
}

// get is x's count.
func (u *useCounter) get(x string) int {
	if u.n != nil {
		return u.n[x]
	}
	for _, c := range u.small {
		if c.name == x {
			return c.n
		}
	}
	return 0
}

func (u *useCounter) idents(xs []*fun.Ident) {
	for _, x := range xs {
		u.use(x.Name)
	}
}

func (u *useCounter) body(b *fun.Body) {
	if b == nil || u.shallow {
		return
	}
	switch {
	case u.sig != nil:
		g := u.sigs.of(b)
		for i := range g {
			u.sig[i] |= g[i]
		}
		return
	case u.sigs != nil && !u.sigs.of(b).meets(u.mask):
		return // it uses none of the names counted
	}
	u.idents(b.Result)
	for _, s := range b.Stms {
		u.stm(s)
	}
}

func (u *useCounter) stm(s *fun.Stm) {
	u.params(s.Pat)
	u.exp(s.Exp)
}

func (u *useCounter) params(ps []*fun.Param) {
	for _, p := range ps {
		u.typ(p.Type)
	}
}

func (u *useCounter) typ(t fun.Type) {
	u.idents(t.Dims)
	switch a := t.Ext.(type) {
	case nil:
	case *ArrayMem:
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
		a.MapIdents(u.counter())
	}
}

// counter is count on a copy of u, which shares its counts: only the
// nodes of other extensions than FUNMEM's are walked by a function, and
// u itself need not leave the stack for them.
func (u *useCounter) counter() fun.IdentFunc {
	c := *u
	return c.count
}

// count is u as a fun.IdentFunc for the uses (binders are not counted).
func (u *useCounter) count(x *fun.Ident, binder bool) *fun.Ident {
	if !binder {
		u.use(x.Name)
	}
	return x
}

func (u *useCounter) sexp(e fun.SExp) {
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
		fun.MapSExp(e, u.counter()) // panics as fun.MapStm would
	}
}

// nested counts the uses in the nested bodies of FUN's forms in e (the
// only place that lists them: exp counts through it, and deadCode
// calls it after counting every statement with shallow).
func (u *useCounter) nested(e fun.Exp) {
	switch e := e.(type) {
	case *fun.IfExp:
		u.body(e.Then)
		u.body(e.Else)
	case *fun.KernelExp:
		u.body(e.Body)
	case *fun.LoopExp:
		u.body(e.Body)
	case *fun.ReduceExp:
		u.body(e.Body)
	case *fun.ScanExp:
		u.body(e.Body)
	case *fun.FilterExp:
		u.body(e.Body)
	case *fun.RedomapExp:
		u.body(e.Map)
		u.body(e.Op)
	}
}

// exp counts the uses in e: its own parts, then its nested bodies
// (nested, unless shallow).
func (u *useCounter) exp(e fun.Exp) {
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
	case *fun.KernelExp:
		u.use(e.Bound.Name)
	case *fun.LoopExp:
		u.params(e.Params)
		u.idents(e.Init)
		u.use(e.Bound.Name)
	case *fun.ReduceExp:
		u.params(e.Params)
		u.use(e.Ne.Name)
		u.use(e.Arr.Name)
	case *fun.ScanExp:
		u.params(e.Params)
		u.use(e.Ne.Name)
		u.use(e.Arr.Name)
	case *fun.FilterExp:
		u.params(e.Params)
		u.use(e.Arr.Name)
	case *fun.RedomapExp:
		u.params(e.Params)
		u.use(e.Ne.Name)
		u.use(e.Bound.Name)
	case *fun.AssertExp:
		u.sexp(e.Cond)
	case *AllocExp:
		u.sexp(e.Size)
	default:
		fun.MapExp(e, u.counter())
	}
	u.nested(e)
}
