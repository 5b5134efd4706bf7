package fun

import "github.com/arraysem/arraysem/semantics"

// Scope is Γ, the typing environment of FUN's checker (Fig 3) and of
// FUNMEM's (Fig 8), which share it. Both languages bind each name at most
// once along any path of scopes: the rules assume it silently, and with
// shadowing a type [n] could come to refer to a different n than the one
// its array was built with (ERRATA.md). So Bind refuses a name already in
// scope, and a body undoes its bindings on exit rather than copying Γ.
type Scope struct {
	lang string // the language, for the no-shadowing error
	// names are the names bound, and ents their bindings, at the same
	// positions. Γ is made once per check, and a few dozen names come
	// and go in it: a Go map of names to types cost more to make and to
	// grow than the whole NameSet does.
	names NameSet
	ents  []scoped
}

type scoped struct {
	typ Type
	at  *Ident // where the name was bound, for the no-shadowing error
}

// NewScope returns an empty Γ of the language lang ("FUN", "FUNMEM"),
// which Bind's errors name.
func NewScope(lang string) *Scope { return &Scope{lang: lang} }

// NewScopeSized is NewScope with room for about n names (a hint: Γ
// grows past it as it must), so that a checker that knows how many
// names a program binds does not grow Γ name by name.
func NewScopeSized(lang string, n int) *Scope {
	return &Scope{lang: lang, names: *NewNameSet(n), ents: make([]scoped, 0, n)}
}

// ScopeNeed is the most names a checker's Γ holds at once on p: its
// inputs and the names along one path of scopes (the bodies' come and
// go). A Γ made that large (NewScopeSized) never grows.
func ScopeNeed(p *Program) int {
	n := len(p.Inputs)
	if p.Body != nil {
		n += bodyScopeNeed(p.Body)
	}
	return n
}

// bodyScopeNeed is the most names b's statements and the bodies in them
// bind at once: b's patterns, and those of the body nested in it that
// binds most with its index and parameters.
func bodyScopeNeed(b *Body) int {
	n, inner := 0, 0
	for _, s := range b.Stms {
		n += len(s.Pat)
		bs := ExpBodies(s.Exp)
		if len(bs) == 0 {
			continue
		}
		k := len(ExpParams(s.Exp))
		if ExpIndex(s.Exp) != nil {
			k++
		}
		for _, nb := range bs {
			inner = max(inner, k+bodyScopeNeed(nb))
		}
	}
	return n + inner
}

// Bind adds x : t to Γ, refusing to shadow, and returns the function that
// removes it again. Its error is a TypeError of rule.
func (s *Scope) Bind(rule string, x *Ident, t Type) (undo func(), err error) {
	if err := s.Add(rule, x, t); err != nil {
		return nil, err
	}
	name := x.Name
	return func() { s.Remove(name) }, nil
}

// Add is Bind without the function that undoes it, for a checker that
// keeps a stack of its bindings: Remove takes x out again.
func (s *Scope) Add(rule string, x *Ident, t Type) error {
	i, added := s.names.Add(x.Name)
	if !added {
		return semantics.Errorf(x.NamePos, semantics.TypeError, rule,
			"%s is already bound at %s (%s binds each name once in a scope)", x.Name, s.ents[i].at.NamePos, s.lang)
	}
	s.ents = append(s.ents, scoped{typ: t, at: x})
	return nil
}

// Len is the number of names in Γ.
func (s *Scope) Len() int { return s.names.Len() }

// Remove takes the name x out of Γ (what Bind's undo does).
func (s *Scope) Remove(x string) {
	i, last := s.names.Remove(x)
	if i < 0 {
		return
	}
	s.ents[i] = s.ents[last]
	s.ents[last] = scoped{}
	s.ents = s.ents[:last]
}

// TypeOf returns the type of x in Γ.
func (s *Scope) TypeOf(x *Ident) (Type, bool) {
	i := s.names.Index(x.Name)
	if i < 0 {
		return Type{}, false
	}
	return s.ents[i].typ, true
}

// Lookup returns the type of x, which must be in Γ; what names x in the
// error ("variable", "array", "result"), a TypeError of rule.
func (s *Scope) Lookup(rule string, x *Ident, what string) (Type, error) {
	t, ok := s.TypeOf(x)
	if !ok {
		return Type{}, semantics.Errorf(x.NamePos, semantics.TypeError, rule, "%s %s is not in scope", what, x.Name)
	}
	return t, nil
}

// LookupInt checks (x : int) ∈ Γ.
func (s *Scope) LookupInt(rule string, x *Ident, what string) error {
	t, err := s.Lookup(rule, x, what)
	if err != nil {
		return err
	}
	if !t.IsInt() {
		return semantics.Errorf(x.NamePos, semantics.TypeError, rule, "%s %s has type %s, not int", what, x.Name, t)
	}
	return nil
}
