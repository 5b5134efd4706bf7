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
	env  map[string]scoped
}

type scoped struct {
	typ Type
	pos Pos
}

// NewScope returns an empty Γ of the language lang ("FUN", "FUNMEM"),
// which Bind's errors name.
func NewScope(lang string) *Scope { return &Scope{lang: lang, env: map[string]scoped{}} }

// NewScopeSized is NewScope with room for about n names (a hint: Γ
// grows past it as it must), so that a checker that knows how many
// names a program binds does not grow Γ name by name.
func NewScopeSized(lang string, n int) *Scope {
	return &Scope{lang: lang, env: make(map[string]scoped, n)}
}

// Bind adds x : t to Γ, refusing to shadow, and returns the function that
// removes it again. Its error is a TypeError of rule.
func (s *Scope) Bind(rule string, x *Ident, t Type) (undo func(), err error) {
	if err := s.Add(rule, x, t); err != nil {
		return nil, err
	}
	return func() { delete(s.env, x.Name) }, nil
}

// Add is Bind without the function that undoes it, for a checker that
// keeps a stack of its bindings: Remove takes x out again.
func (s *Scope) Add(rule string, x *Ident, t Type) error {
	if old, ok := s.env[x.Name]; ok {
		return semantics.Errorf(x.NamePos, semantics.TypeError, rule,
			"%s is already bound at %s (%s binds each name once in a scope)", x.Name, old.pos, s.lang)
	}
	s.env[x.Name] = scoped{typ: t, pos: x.NamePos}
	return nil
}

// Remove takes the name x out of Γ (what Bind's undo does).
func (s *Scope) Remove(x string) { delete(s.env, x) }

// TypeOf returns the type of x in Γ.
func (s *Scope) TypeOf(x *Ident) (Type, bool) {
	b, ok := s.env[x.Name]
	return b.typ, ok
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
