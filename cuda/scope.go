package cuda

import (
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/semantics"
)

// IMP's scopes in C++. IMP's checker (imp/check.go) gives a name its type
// per scope: an if's branches, a kernel's or a for's body and a fold's
// two parts are scopes of their own, and a declaration may give a name
// another type there or later in the same scope (FUN→IMP does this for
// every pair of folds whose operators' parameters share their names, as
// two reduces' `combine a, b` do, one of ints and one of floats). The
// emitter follows the checker: a frame tracks the scope at the statement
// it emits (frame.ty, updated by each declaration), and a C++ variable
// stands for a slot, a name with one type. A frame's variables are its
// slots, so a name used with two types in one frame is two C++ variables
// (the second renamed, as cname renames), and the parameters a kernel or
// a fold's function takes are slots too.
//
// IMP's checker refuses what C++ could not follow: a type that IMP's
// flat environment carries out of a scope (a var in an if's branch or a
// for's body that retypes an outer variable, which survives the body by
// E-IMP-IF and I-FOR); kernels' bodies and fold parts start from a copy
// of the environment and carry nothing out.

// scope is the type of every name in scope at a point of a body.
type scope map[string]imp.Type

// slot is an IMP variable as C++ stores it: a name with one of its types.
type slot struct {
	name string
	t    imp.Type
}

// with is a copy of ty with the names binds gives their types.
func (ty scope) with(binds ...slot) scope {
	out := semantics.CloneMap(ty)
	for _, b := range binds {
		out[b.name] = b.t
	}
	return out
}

// enter is the scope a body ss starts in: ty with binds. It is ty
// itself where binds change nothing in it and ss declares nothing at its
// own level, else a copy: only a declaration changes a scope in place,
// and the bodies nested in ss enter scopes of their own, so a body that
// declares nothing leaves its scope as it found it (most bodies: copying
// the scope for each was a good part of what the emitter allocated).
func (ty scope) enter(ss []imp.Stmt, binds ...slot) scope {
	for _, b := range binds {
		if t, ok := ty[b.name]; !ok || t != b.t {
			return ty.with(binds...)
		}
	}
	for _, s := range ss {
		if _, ok := s.(*imp.Decl); ok {
			return ty.with(binds...)
		}
	}
	return ty
}

// undo is what the walks that enter bodies in place (checkScopes,
// written, referenced) put back as each body ends: the type each name
// had (or that it had none) before the body's bindings and its
// declarations at its own level, the only changes the body makes to its
// scope (the bodies nested in it put back theirs). It is enter without
// the copies: a walk visits every body of the program, most of which
// declare, and copying the scope for each was a tenth of what Emit
// allocated.
type undo []saved

// undoRoom is the room a walk's undo starts with, for the bindings and
// declarations of the bodies open at once: 4 saves most walks growing it
// from nothing (16 cost more bytes than it saved).
const undoRoom = 4

// saved is a name's type before a body (had: whether it had one).
type saved struct {
	name string
	t    imp.Type
	had  bool
}

// in enters the body ss in ty itself: ty gets binds, and u records what
// the body may change, for out (with the mark returned) to put back.
func (u *undo) in(ty scope, ss []imp.Stmt, binds ...slot) int {
	mark := len(*u)
	for _, b := range binds {
		u.save(ty, b.name)
	}
	for _, s := range ss {
		if d, ok := s.(*imp.Decl); ok {
			u.save(ty, d.X.Name)
		}
	}
	for _, b := range binds {
		ty[b.name] = b.t
	}
	return mark
}

func (u *undo) save(ty scope, x string) {
	t, ok := ty[x]
	*u = append(*u, saved{x, t, ok})
}

// out leaves the body entered at mark: ty is again the scope it was in,
// the last change put back first.
func (u *undo) out(ty scope, mark int) {
	for i := len(*u) - 1; i >= mark; i-- {
		if v := (*u)[i]; v.had {
			ty[v.name] = v.t
		} else {
			delete(ty, v.name)
		}
	}
	*u = (*u)[:mark]
}

// slot is the variable x names at the frame's current statement.
func (fr *frame) slot(x string) slot { return slot{x, fr.ty[x]} }

// lookup is the C++ variable of what x names at the frame's current
// statement (must's panic when there is none).
func (fr *frame) lookup(x string) string { return fr.must(fr.slot(x)) }

// unbound is the panic of must: an IMP variable the emitter has given no
// C++ variable. It is a bug of the emitter (a name left out of a kernel's
// or a fold function's parameters, a frame that does not declare what its
// body writes), which Emit reports as an error: printed, the missing name
// would be an empty expression (`int64_t neutral = ;`), a file that no
// compiler accepts.
type unbound struct{ s slot }

// must is the C++ variable of a slot, which the frames must have.
func (fr *frame) must(s slot) string {
	c, ok := fr.find(s)
	if !ok {
		panic(unbound{s})
	}
	return c
}

// find is the C++ variable of a slot in the frame or the frames around it.
func (fr *frame) find(s slot) (string, bool) {
	for ; fr != nil; fr = fr.parent {
		if c, ok := fr.vars[s]; ok {
			return c, true
		}
	}
	return "", false
}

// child is a frame inside fr whose scope starts as fr's with binds, which
// it binds to the C++ names cs.
func (fr *frame) child(binds []slot, cs []string) *frame {
	c := &frame{parent: fr, vars: map[slot]string{}, ty: fr.ty.with(binds...)}
	for i, b := range binds {
		c.vars[b] = cs[i]
	}
	return c
}

// checkScopes walks the program with IMP's scopes: it reserves every IMP
// name and refuses a statement the emitter does not know.
func (e *emitter) checkScopes() error {
	ty := scope{}
	for _, in := range e.p.Inputs {
		if in.Dims == nil {
			e.reserve(in.Name.Name)
			ty[in.Name.Name] = imp.TypeOf(in.Elem)
		} else {
			e.reserve(in.Block.Name)
			ty[in.Block.Name] = imp.Mem
		}
	}
	u := make(undo, 0, undoRoom)
	return e.scopes(ty, e.p.Body, &u)
}

// scopes checks a body in scope ty, which its declarations update; the
// bodies in it enter ty in place (u).
func (e *emitter) scopes(ty scope, ss []imp.Stmt, u *undo) error {
	for _, s := range ss {
		var err error
		switch s := s.(type) {
		case *imp.Decl:
			e.reserve(s.X.Name)
			ty[s.X.Name] = s.Type
		case *imp.Kernel:
			e.reserve(s.X.Name)
			err = e.bodyScopes(ty, s.Body, u, slot{s.X.Name, imp.Int})
		case *imp.If:
			if err = e.bodyScopes(ty, s.Then, u); err == nil {
				err = e.bodyScopes(ty, s.Else, u)
			}
		case *imp.For:
			e.reserve(s.X.Name)
			err = e.bodyScopes(ty, s.Body, u, slot{s.X.Name, imp.Int})
		case *imp.Reduce:
			err = e.foldScopes(ty, &s.Fold, accType(ty, s), u)
		case *imp.Scan:
			err = e.foldScopes(ty, &s.Fold, accType(ty, s), u)
		case *imp.Skip, *imp.Assign, *imp.Alloc, *imp.Read, *imp.Write, *imp.Assert:
		default:
			// A statement IMP gains later: refused here, so that stmt
			// never meets one it cannot translate.
			err = semantics.Errorf(s.Pos(), semantics.InputError, "", "cuda: the CUDA emitter does not translate IMP's %s statement yet", strings.Fields(imp.PrintStmt(s))[0])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// bodyScopes checks a body nested in scope ty, with binds.
func (e *emitter) bodyScopes(ty scope, ss []imp.Stmt, u *undo, binds ...slot) error {
	mark := u.in(ty, ss, binds...)
	err := e.scopes(ty, ss, u)
	u.out(ty, mark)
	return err
}

// foldScopes checks a fold's parts: the element part in a scope with the
// index, the combine part in one with the accumulator and the element, of
// type t.
func (e *emitter) foldScopes(ty scope, f *imp.Fold, t imp.Type, u *undo) error {
	for _, x := range []*fun.Ident{f.X, f.A, f.B} {
		e.reserve(x.Name)
	}
	if err := e.bodyScopes(ty, f.Body, u, slot{f.X.Name, imp.Int}); err != nil {
		return err
	}
	return e.bodyScopes(ty, f.Combine, u, slot{f.A.Name, t}, slot{f.B.Name, t})
}

// accType is the type of a fold's accumulator in scope ty, Int or Float:
// a reduce's target's, a scan's neutral element's (IMP's checker).
func accType(ty scope, s imp.Stmt) imp.Type {
	switch s := s.(type) {
	case *imp.Reduce:
		if ty[s.Target.Name] == imp.Float {
			return imp.Float
		}
	case *imp.Scan:
		return stype(ty, s.Neutral)
	}
	return imp.Int
}

// written are the slots a body in scope ty binds at its own level (not
// inside nested kernels or folds' parts), but skip, in order of first
// appearance.
func written(ss []imp.Stmt, ty scope, skip ...slot) []slot {
	seen := map[slot]bool{}
	for _, s := range skip {
		seen[s] = true
	}
	var acc []slot
	u := make(undo, 0, undoRoom)
	var walk func(ss []imp.Stmt, binds ...slot)
	walk = func(ss []imp.Stmt, binds ...slot) {
		mark := u.in(ty, ss, binds...)
		defer u.out(ty, mark)
		add := func(x *fun.Ident) {
			s := slot{x.Name, ty[x.Name]}
			if !seen[s] {
				seen[s] = true
				acc = append(acc, s)
			}
		}
		for _, s := range ss {
			switch s := s.(type) {
			case *imp.Decl:
				ty[s.X.Name] = s.Type
				add(s.X)
			case *imp.Assign:
				add(s.X)
			case *imp.Alloc:
				add(s.X)
			case *imp.Read:
				add(s.X)
			case *imp.If:
				walk(s.Then)
				walk(s.Else)
			case *imp.For:
				// What the body binds persists after the loop (I-FOR);
				// its index is the C++ loop's.
				index := slot{s.X.Name, imp.Int}
				had := seen[index]
				seen[index] = true
				walk(s.Body, index)
				seen[index] = had
			case *imp.Reduce:
				add(s.Target)
			}
		}
	}
	walk(ss)
	return acc
}

// refs collects the slots bodies mention, in order of first mention.
type refs struct {
	acc  []slot
	seen map[slot]bool
	u    undo // the bodies entered, in place
}

func newRefs(skip ...slot) *refs {
	r := &refs{seen: map[slot]bool{}, u: make(undo, 0, undoRoom)}
	for _, s := range skip {
		r.seen[s] = true
	}
	return r
}

func (r *refs) add(ty scope, x *fun.Ident) {
	s := slot{x.Name, ty[x.Name]}
	if !r.seen[s] {
		r.seen[s] = true
		r.acc = append(r.acc, s)
	}
}

func (r *refs) addE(ty scope, se fun.SExp) {
	for _, x := range fun.FreeVars(se, nil) {
		r.add(ty, x)
	}
}

// stmts adds what a body mentions anywhere; ty is the scope at its start,
// which its declarations update.
func (r *refs) stmts(ty scope, ss []imp.Stmt) {
	for _, s := range ss {
		switch s := s.(type) {
		case *imp.Decl:
			ty[s.X.Name] = s.Type
			r.add(ty, s.X)
		case *imp.Assign:
			r.add(ty, s.X)
			r.addE(ty, s.SE)
		case *imp.Alloc:
			r.add(ty, s.X)
			r.addE(ty, s.Size)
		case *imp.Read:
			r.add(ty, s.X)
			r.add(ty, s.Y)
			r.addE(ty, s.Index)
		case *imp.Write:
			r.add(ty, s.X)
			r.addE(ty, s.Index)
			r.addE(ty, s.Value)
		case *imp.If:
			r.add(ty, s.Cond)
			r.body(ty, s.Then)
			r.body(ty, s.Else)
		case *imp.Kernel:
			r.addE(ty, s.Bound)
			r.body(ty, s.Body, slot{s.X.Name, imp.Int})
		case *imp.For:
			r.addE(ty, s.Bound)
			r.body(ty, s.Body, slot{s.X.Name, imp.Int})
		case *imp.Assert:
			r.addE(ty, s.Cond)
		case *imp.Reduce:
			r.add(ty, s.Target)
			r.addE(ty, s.Neutral)
			r.addE(ty, s.Bound)
			r.fold(ty, s, &s.Fold)
		case *imp.Scan:
			r.addE(ty, s.Neutral)
			r.addE(ty, s.Bound)
			r.fold(ty, s, &s.Fold)
		}
	}
}

// fold adds what a reduce's or a scan's parts mention (each in its own
// scope, with its yielded variable as the part ends), and a scan's block
// and address (with the index); not the neutral element and the bound,
// which the enclosing code evaluates.
func (r *refs) fold(ty scope, s imp.Stmt, f *imp.Fold) {
	t := accType(ty, s)
	mark := r.u.in(ty, f.Body, slot{f.X.Name, imp.Int})
	r.stmts(ty, f.Body)
	r.add(ty, f.Yield)
	r.u.out(ty, mark)
	mark = r.u.in(ty, f.Combine, slot{f.A.Name, t}, slot{f.B.Name, t})
	r.stmts(ty, f.Combine)
	r.add(ty, f.Result)
	r.u.out(ty, mark)
	if sc, ok := s.(*imp.Scan); ok {
		r.add(ty, sc.Block)
		mark = r.u.in(ty, nil, slot{f.X.Name, imp.Int})
		r.addE(ty, sc.Addr)
		r.u.out(ty, mark)
	}
}

// body adds what a body nested in scope ty mentions, with binds.
func (r *refs) body(ty scope, ss []imp.Stmt, binds ...slot) {
	mark := r.u.in(ty, ss, binds...)
	r.stmts(ty, ss)
	r.u.out(ty, mark)
}

// referenced are the slots a body in scope ty mentions anywhere, but
// skip, in order.
func referenced(ss []imp.Stmt, ty scope, skip ...slot) []slot {
	r := newRefs(skip...)
	r.body(ty, ss)
	return r.acc
}
