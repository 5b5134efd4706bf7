package imp

import (
	"math/bits"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Simplify is IMP's simplifier, run after FunMemToImp (unless --raw): it
// removes what the translation leaves behind that does nothing. A slice
// or a transpose is a change of LMAD, which IMP folds into the indices,
// so FunMemToImp translates it to skip, and the scalars only it read
// (the offsets and sizes FUN's slice names, as variables) are then
// assigned and never read. Simplify removes
//
//   - every skip, but the one a block would otherwise be left without
//     (if c then skip else … fi);
//   - every dead store to a scalar (int or float) variable: an assignment
//     x <- se after which no run reads x before x is assigned or declared
//     again (liveness, on IMP's one environment: a variable a branch
//     declares stays in it after the if), when se cannot go wrong: it has
//     no /, %, checked operator or function (which can be stuck);
//   - the declaration var x : τ of a scalar not read after it, when no
//     statement after it in its block that stays mentions x (the dead
//     stores to x go with it).
//
// A read into a variable (x <- y[se], which can be out of bounds), a
// reduction into it and an allocation are kept, so the program goes
// wrong, or not, as before, and gives the same results. p is not
// changed; the result shares the statements it keeps but the compound
// ones.
func Simplify(p *Program) *Program {
	a := &deadness{dead: map[Stmt]bool{}, ids: map[string]int{}}
	// The program's names, numbered: the liveness sets are bit sets of
	// them.
	name := func(x string) {
		if _, ok := a.ids[x]; !ok {
			a.ids[x] = len(a.ids)
		}
	}
	var mems []string // the block variables
	for _, in := range p.Inputs {
		name(in.Name.Name)
		if in.Block != nil {
			name(in.Block.Name)
			mems = append(mems, in.Block.Name)
		}
	}
	WalkStmts(p.Body, func(s Stmt) {
		eachRead(s, name)
		for _, x := range stmtWrites(s) {
			name(x)
		}
		switch s := s.(type) {
		case *Decl:
			name(s.X.Name)
			if s.Type == Mem {
				mems = append(mems, s.X.Name)
			}
		case *Assign:
			name(s.X.Name)
		}
	})
	for _, r := range p.Return {
		name(r.Name.Name)
		for _, d := range r.Dims {
			fun.EachVar(d, func(x *fun.Ident) { name(x.Name) })
		}
	}
	a.words = (len(a.ids) + 63) / 64
	a.mem = a.set()
	for _, x := range mems {
		a.mem.add(a.ids[x])
	}
	live := a.set()
	for _, r := range p.Return {
		live.add(a.ids[r.Name.Name])
		for _, d := range r.Dims {
			a.readsOf(d, live)
		}
	}
	a.block(p.Body, live)
	a.decls(p.Body)
	q := *p
	q.Body = dropStmts(p.Body, func(s Stmt) bool {
		_, skip := s.(*Skip)
		return skip || a.dead[s]
	})
	return &q
}

// deadness is Simplify's analysis: the dead stores and declarations it
// finds.
type deadness struct {
	dead  map[Stmt]bool
	ids   map[string]int // the program's names, numbered
	words int            // the words of a set of them
	mem   varSet         // the block variables, which are never removed
}

// varSet is a set of a program's names, by number (deadness.ids).
type varSet []uint64

func (a *deadness) set() varSet { return make(varSet, a.words) }

func (v varSet) has(i int) bool { return v[i/64]&(1<<(i%64)) != 0 }
func (v varSet) add(i int)      { v[i/64] |= 1 << (i % 64) }
func (v varSet) del(i int)      { v[i/64] &^= 1 << (i % 64) }

// union adds w to v.
func (v varSet) union(w varSet) {
	for i := range v {
		v[i] |= w[i]
	}
}

// size is how many names v holds.
func (v varSet) size() int {
	n := 0
	for _, w := range v {
		n += bits.OnesCount64(w)
	}
	return n
}

// clone is a copy of v.
func (a *deadness) clone(v varSet) varSet { return append(a.set()[:0], v...) }

// readsOf adds the variables of e to live.
func (a *deadness) readsOf(e fun.SExp, live varSet) {
	fun.EachVar(e, func(x *fun.Ident) { live.add(a.ids[x.Name]) })
}

// reads adds the variables s itself reads (stmtReads) to live.
func (a *deadness) reads(s Stmt, live varSet) {
	eachRead(s, func(x string) { live.add(a.ids[x]) })
}

// block computes, backwards, the variables live before ss from those
// live after it (live, updated in place), marking the dead stores and
// noting for each declaration whether its variable is live after it
// (dead[decl] is then false). A statement in a loop is visited until the
// loop's liveness is stable; the last visit, with the most live, decides.
func (a *deadness) block(ss []Stmt, live varSet) {
	for i := len(ss) - 1; i >= 0; i-- {
		switch s := ss[i].(type) {
		case *Assign:
			x := a.ids[s.X.Name]
			a.dead[s] = !live.has(x) && cannotFail(s.SE) && !a.mem.has(x)
			if !a.dead[s] {
				live.del(x)
				a.readsOf(s.SE, live)
			}
		case *Decl:
			x := a.ids[s.X.Name]
			a.dead[s] = !live.has(x) && s.Type != Mem
			live.del(x)
		case *Alloc, *Read:
			for _, x := range stmtWrites(s) {
				live.del(a.ids[x])
			}
			a.reads(s, live)
		case *If:
			t, e := a.clone(live), a.clone(live)
			a.block(s.Then, t)
			a.block(s.Else, e)
			copy(live, t)
			live.union(e)
			a.reads(s, live)
		case *Kernel:
			a.loop(live, part{body: s.Body})
			a.reads(s, live)
		case *For:
			a.loop(live, part{body: s.Body})
			a.reads(s, live)
		case *Reduce, *Scan:
			f, _ := folds(s)
			a.loop(live, part{f.Body, f.Yield}, part{f.Combine, f.Result})
			a.reads(s, live)
		default:
			a.reads(s, live)
		}
	}
}

// part is a body of a loop and the variable it yields (nil for none).
type part struct {
	body   []Stmt
	yields *fun.Ident
}

// loop is the liveness of bodies that run any number of times, none
// included, each after any other: live (after the loop) grows by what
// is live before each part until nothing changes.
func (a *deadness) loop(live varSet, parts ...part) {
	l := a.set()
	for {
		n := live.size()
		for _, p := range parts {
			copy(l, live)
			if p.yields != nil {
				l.add(a.ids[p.yields.Name])
			}
			a.block(p.body, l)
			live.union(l)
		}
		if live.size() == n {
			return
		}
	}
}

// decls keeps the declarations block left dead only where no statement
// after them in their block that stays mentions their variable (a dead
// store to it, or one that reads it, goes). The block's statements are
// walked backwards once, gathering what those after each mention; a
// declaration after a dead one counts as it stands when this block is
// looked at (a nested block's are looked at after it).
func (a *deadness) decls(ss []Stmt) {
	after := a.set()
	var keep []*Decl
	for i := len(ss) - 1; i >= 0; i-- {
		if d, ok := ss[i].(*Decl); ok && a.dead[d] && after.has(a.ids[d.X.Name]) {
			keep = append(keep, d)
		}
		WalkStmts(ss[i:i+1], func(t Stmt) {
			if !a.dead[t] { // a dead statement goes with its mentions
				a.mentions(t, after)
			}
		})
	}
	for _, d := range keep {
		a.dead[d] = false
	}
	for _, s := range ss {
		for _, b := range nested(s) {
			a.decls(b)
		}
	}
}

// mentions adds the variables s itself mentions to set: those it reads,
// sets (stmtWrites), declares or assigns.
func (a *deadness) mentions(s Stmt, set varSet) {
	a.reads(s, set)
	for _, x := range stmtWrites(s) {
		set.add(a.ids[x])
	}
	switch s := s.(type) {
	case *Decl:
		set.add(a.ids[s.X.Name])
	case *Assign:
		set.add(a.ids[s.X.Name])
	}
}

// nested are the blocks of statements s holds.
func nested(s Stmt) [][]Stmt {
	switch s := s.(type) {
	case *If:
		return [][]Stmt{s.Then, s.Else}
	case *Kernel:
		return [][]Stmt{s.Body}
	case *For:
		return [][]Stmt{s.Body}
	case *Reduce:
		return [][]Stmt{s.Body, s.Combine}
	case *Scan:
		return [][]Stmt{s.Body, s.Combine}
	}
	return nil
}

// eachRead calls f on each variable s itself reads (not those of the
// statements nested in it).
func eachRead(s Stmt, f func(string)) {
	exp := func(e fun.SExp) { fun.EachVar(e, func(x *fun.Ident) { f(x.Name) }) }
	switch s := s.(type) {
	case *Assign:
		exp(s.SE)
	case *Alloc:
		exp(s.Size)
	case *Read:
		f(s.Y.Name)
		exp(s.Index)
	case *Write:
		f(s.X.Name)
		exp(s.Index)
		exp(s.Value)
	case *Assert:
		exp(s.Cond)
	case *If:
		f(s.Cond.Name)
	case *Kernel:
		exp(s.Bound)
	case *For:
		exp(s.Bound)
	case *Reduce, *Scan:
		fl, _ := folds(s)
		if sc, ok := s.(*Scan); ok {
			f(sc.Block.Name)
			exp(sc.Addr)
		}
		exp(fl.Neutral)
		exp(fl.Bound)
		f(fl.Yield.Name)
		f(fl.Result.Name)
	}
}

// stmtWrites are the variables s binds or sets other than by a
// declaration or an assignment.
func stmtWrites(s Stmt) []string {
	switch s := s.(type) {
	case *Alloc:
		return []string{s.X.Name}
	case *Read:
		return []string{s.X.Name}
	case *Kernel:
		return []string{s.X.Name}
	case *For:
		return []string{s.X.Name}
	case *Reduce:
		return []string{s.Target.Name, s.X.Name, s.A.Name, s.B.Name}
	case *Scan:
		return []string{s.X.Name, s.A.Name, s.B.Name}
	}
	return nil
}

// cannotFail reports whether e cannot be stuck: it is made of
// constants, variables (an int or a float is 0 from its declaration on,
// so reading one cannot be stuck) and the operators that are total (the
// wrapping +, -, *, the comparisons, && and ||, negation); not of /, %,
// a checked operator or a function.
func cannotFail(e fun.SExp) bool {
	switch e := e.(type) {
	case *fun.Const, *fun.FloatConst, fun.Var:
		return true
	case *fun.UnOp:
		return e.Op == semantics.Neg && cannotFail(e.X)
	case *fun.BinOp:
		switch e.Op {
		case semantics.Add, semantics.Sub, semantics.Mul, semantics.Eq, semantics.Ne,
			semantics.Lt, semantics.Le, semantics.Gt, semantics.Ge, semantics.And, semantics.Or:
			return cannotFail(e.L) && cannotFail(e.R)
		}
	}
	return false
}

// dropStmts is ss without the statements drop selects, at every depth;
// a block they would leave empty keeps a skip (its position the first
// dropped statement's). The compound statements are copies; the others
// are shared.
func dropStmts(ss []Stmt, drop func(Stmt) bool) []Stmt {
	block := func(ss []Stmt) []Stmt {
		out := dropStmts(ss, drop)
		if len(out) == 0 && len(ss) > 0 {
			return []Stmt{&Skip{At: ss[0].Pos()}}
		}
		return out
	}
	var out []Stmt
	for _, s := range ss {
		if drop(s) {
			continue
		}
		switch s := s.(type) {
		case *If:
			c := *s
			c.Then, c.Else = block(s.Then), block(s.Else)
			out = append(out, &c)
		case *Kernel:
			c := *s
			c.Body = block(s.Body)
			out = append(out, &c)
		case *For:
			c := *s
			c.Body = block(s.Body)
			out = append(out, &c)
		case *Reduce:
			c := *s
			c.Body, c.Combine = block(s.Body), block(s.Combine)
			out = append(out, &c)
		case *Scan:
			c := *s
			c.Body, c.Combine = block(s.Body), block(s.Combine)
			out = append(out, &c)
		default:
			out = append(out, s)
		}
	}
	return out
}
