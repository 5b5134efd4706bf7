package fuse

import (
	"github.com/arraysem/arraysem/fun"
	"maps"
)

// Copy propagation after fusion. Fusing a producer into a consumer turns
// the consumer's reads of the producer's array into copies of the
// element (let (u : int) = w), and an iota's elements into copies of the
// index (let (x : int) = i). The paper cleans these up by copy
// propagation ("the copy statements have been eliminated by copy
// propagation", §3.1, Fig 8): each use of u becomes a use of w, and the
// copy goes. A copy costs no operation (semantics.Stats), but it is a
// statement the interpreters run once per element.
//
// Only the copies fusion made are propagated, those at a position where
// the original program had no copy: a copy the programmer wrote stays.

// propagateCopies removes from q (the fused program) the copies that the
// original p did not have, renaming their uses.
func propagateCopies(p, q *fun.Program) {
	written := map[fun.Pos]bool{} // positions of the copies p has
	fun.Stms(p.Body, func(s *fun.Stm) {
		if _, ok := copyOf(s); ok {
			written[s.Let] = true
		}
	})
	made := func(s *fun.Stm) bool { return s.Let.IsValid() && !written[s.Let] }
	propagate(q.Body, map[string]string{}, made)
}

// copyOf is the variable a statement let (x : τ) = y copies, when it is
// one (a scalar).
func copyOf(s *fun.Stm) (*fun.Ident, bool) {
	e, ok := s.Exp.(*fun.ScalarExp)
	if !ok || len(s.Pat) != 1 || !s.Pat[0].Type.IsScalar() {
		return nil, false
	}
	v, ok := e.X.(fun.Var)
	if !ok {
		return nil, false
	}
	return v.Ident, true
}

// propagate renames, in b, each use of a name m maps, and removes the
// copies made (made) in b and in the bodies nested in it, renaming their
// uses in the rest of their scope. FUN binds a name once along any path of
// scopes, but sibling scopes (the branches of an if, a redomap's map and
// operator) may bind the same name: each nested body gets its own copy of
// the map. A statement is copied (and its bodies changed in the copy)
// only when something in it may change: a name to rename, or a copy made
// inside it; the others stay as they are.
func propagate(b *fun.Body, m map[string]string, made func(*fun.Stm) bool) {
	rename := func(x *fun.Ident) *fun.Ident {
		if y, ok := m[x.Name]; ok {
			return &fun.Ident{NamePos: x.NamePos, Name: y}
		}
		return x
	}
	var out []*fun.Stm
	same := true // out would be b.Stms
	for i, s := range b.Stms {
		if y, ok := copyOf(s); ok && made(s) {
			if same {
				out, same = append(out, b.Stms[:i]...), false
			}
			m = maps.Clone(m)
			m[s.Pat[0].Name.Name] = rename(y).Name
			continue
		}
		if len(m) > 0 || madeIn(s.Exp, made) {
			s = fun.MapStm(s, fun.Uses(rename))
			for _, nb := range fun.ExpBodies(s.Exp) {
				propagate(nb, maps.Clone(m), made)
			}
			if same {
				out, same = append(out, b.Stms[:i]...), false
			}
		}
		if !same {
			out = append(out, s)
		}
	}
	if same && len(b.Stms) > 0 {
		out = b.Stms
	}
	b.Stms = out
	b.Result = fun.MapIdentList(b.Result, fun.Uses(rename))
}

// madeIn reports whether a body of e holds a copy made, at any depth.
func madeIn(e fun.Exp, made func(*fun.Stm) bool) bool {
	for _, nb := range fun.ExpBodies(e) {
		for _, s := range nb.Stms {
			if _, ok := copyOf(s); ok && made(s) || madeIn(s.Exp, made) {
				return true
			}
		}
	}
	return false
}
