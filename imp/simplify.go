package imp

import (
	"maps"

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
	a := &deadness{dead: map[Stmt]bool{}, mem: map[string]bool{}}
	for _, in := range p.Inputs {
		if in.Block != nil {
			a.mem[in.Block.Name] = true
		}
	}
	WalkStmts(p.Body, func(s Stmt) {
		if d, ok := s.(*Decl); ok && d.Type == Mem {
			a.mem[d.X.Name] = true
		}
	})
	live := map[string]bool{}
	for _, r := range p.Return {
		live[r.Name.Name] = true
		for _, d := range r.Dims {
			readsOf(d, live)
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
	dead map[Stmt]bool
	mem  map[string]bool // the block variables, which are never removed
}

// block computes, backwards, the variables live before ss from those
// live after it (live, updated in place), marking the dead stores and
// noting for each declaration whether its variable is live after it
// (dead[decl] is then false). A statement in a loop is visited until the
// loop's liveness is stable; the last visit, with the most live, decides.
func (a *deadness) block(ss []Stmt, live map[string]bool) {
	for i := len(ss) - 1; i >= 0; i-- {
		switch s := ss[i].(type) {
		case *Assign:
			a.dead[s] = !live[s.X.Name] && cannotFail(s.SE) && !a.mem[s.X.Name]
			if !a.dead[s] {
				delete(live, s.X.Name)
				readsOf(s.SE, live)
			}
		case *Decl:
			a.dead[s] = !live[s.X.Name] && s.Type != Mem
			delete(live, s.X.Name)
		case *Alloc, *Read:
			for _, x := range stmtWrites(s) {
				delete(live, x)
			}
			stmtReads(s, live)
		case *If:
			t, e := clone(live), clone(live)
			a.block(s.Then, t)
			a.block(s.Else, e)
			clear(live)
			for _, b := range []map[string]bool{t, e} {
				for x := range b {
					live[x] = true
				}
			}
			stmtReads(s, live)
		case *Kernel:
			a.loop(live, part{body: s.Body})
			stmtReads(s, live)
		case *For:
			a.loop(live, part{body: s.Body})
			stmtReads(s, live)
		case *Reduce, *Scan:
			f, _ := folds(s)
			a.loop(live, part{f.Body, f.Yield}, part{f.Combine, f.Result})
			stmtReads(s, live)
		default:
			stmtReads(s, live)
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
func (a *deadness) loop(live map[string]bool, parts ...part) {
	for {
		n := len(live)
		for _, p := range parts {
			l := clone(live)
			if p.yields != nil {
				l[p.yields.Name] = true
			}
			a.block(p.body, l)
			for x := range l {
				live[x] = true
			}
		}
		if len(live) == n {
			return
		}
	}
}

// decls keeps the declarations block left dead only where no statement
// after them in their block that stays mentions their variable (a dead
// store to it, or one that reads it, goes).
func (a *deadness) decls(ss []Stmt) {
	for i, s := range ss {
		if d, ok := s.(*Decl); ok && a.dead[d] {
			x := d.X.Name
			WalkStmts(ss[i+1:], func(t Stmt) {
				if a.dead[t] {
					return // removed with its mentions
				}
				m := map[string]bool{}
				stmtReads(t, m)
				for _, y := range stmtWrites(t) {
					m[y] = true
				}
				switch t := t.(type) {
				case *Decl:
					m[t.X.Name] = true
				case *Assign:
					m[t.X.Name] = true
				}
				if m[x] {
					a.dead[d] = false
				}
			})
		}
		for _, b := range nested(s) {
			a.decls(b)
		}
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

// readsOf adds the variables of e to read.
func readsOf(e fun.SExp, read map[string]bool) {
	fun.EachVar(e, func(x *fun.Ident) { read[x.Name] = true })
}

// stmtReads adds the variables s itself reads (not those of the
// statements nested in it) to read.
func stmtReads(s Stmt, read map[string]bool) {
	switch s := s.(type) {
	case *Assign:
		readsOf(s.SE, read)
	case *Alloc:
		readsOf(s.Size, read)
	case *Read:
		read[s.Y.Name] = true
		readsOf(s.Index, read)
	case *Write:
		read[s.X.Name] = true
		readsOf(s.Index, read)
		readsOf(s.Value, read)
	case *Assert:
		readsOf(s.Cond, read)
	case *If:
		read[s.Cond.Name] = true
	case *Kernel:
		readsOf(s.Bound, read)
	case *For:
		readsOf(s.Bound, read)
	case *Reduce, *Scan:
		f, _ := folds(s)
		if sc, ok := s.(*Scan); ok {
			read[sc.Block.Name] = true
			readsOf(sc.Addr, read)
		}
		readsOf(f.Neutral, read)
		readsOf(f.Bound, read)
		read[f.Yield.Name], read[f.Result.Name] = true, true
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

// clone is a copy of m, never nil (maps.Clone copies the table whole,
// faster than inserting its entries).
func clone(m map[string]bool) map[string]bool {
	if m == nil {
		return map[string]bool{}
	}
	return maps.Clone(m)
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
