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
	// ents are the bindings, and slots the hash table that finds a
	// name's: a slot holds an entry's position plus one, 0 when free
	// (open addressing, linear probing, at most half full). Γ is made
	// once per check, and a few dozen names come and go in it: a Go map
	// of names to types cost more to make and to grow than the whole
	// table does, which is one int32 a name.
	ents  []scoped
	slots []int32
}

type scoped struct {
	name string
	typ  Type
	at   *Ident // where name was bound, for the no-shadowing error
}

// NewScope returns an empty Γ of the language lang ("FUN", "FUNMEM"),
// which Bind's errors name.
func NewScope(lang string) *Scope { return &Scope{lang: lang} }

// NewScopeSized is NewScope with room for about n names (a hint: Γ
// grows past it as it must), so that a checker that knows how many
// names a program binds does not grow Γ name by name.
func NewScopeSized(lang string, n int) *Scope {
	return &Scope{lang: lang, ents: make([]scoped, 0, n), slots: make([]int32, tableSize(n))}
}

// tableSize is the size of a table for n names: a power of two, at
// least twice n.
func tableSize(n int) int {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return size
}

// hashName is FNV-1a: names are short, and a table of a few dozen
// slots needs no more.
func hashName(x string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(x); i++ {
		h ^= uint32(x[i])
		h *= 16777619
	}
	return h
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

// slot is the slot of x's entry, or the free slot where x would go
// (s.slots[slot] == 0).
func (s *Scope) slot(x string) int {
	mask := len(s.slots) - 1
	j := int(hashName(x)) & mask
	for {
		v := s.slots[j]
		if v == 0 || s.ents[v-1].name == x {
			return j
		}
		j = (j + 1) & mask
	}
}

// find is the position of x's entry in ents, or -1.
func (s *Scope) find(x string) int {
	if len(s.ents) == 0 {
		return -1
	}
	return int(s.slots[s.slot(x)]) - 1
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
	if 2*(len(s.ents)+1) > len(s.slots) {
		s.grow()
	}
	j := s.slot(x.Name)
	if v := s.slots[j]; v != 0 {
		return semantics.Errorf(x.NamePos, semantics.TypeError, rule,
			"%s is already bound at %s (%s binds each name once in a scope)", x.Name, s.ents[v-1].at.NamePos, s.lang)
	}
	s.ents = append(s.ents, scoped{name: x.Name, typ: t, at: x})
	s.slots[j] = int32(len(s.ents))
	return nil
}

// grow doubles the table (or makes the first) and puts the entries
// back in.
func (s *Scope) grow() {
	s.slots = make([]int32, tableSize(len(s.slots)))
	for i, e := range s.ents {
		s.slots[s.slot(e.name)] = int32(i + 1)
	}
}

// Remove takes the name x out of Γ (what Bind's undo does).
func (s *Scope) Remove(x string) {
	if len(s.ents) == 0 {
		return
	}
	j := s.slot(x)
	v := s.slots[j]
	if v == 0 {
		return
	}
	s.free(j)
	// The last entry fills the gap in ents (bindings are mostly taken
	// out last first, and then there is none).
	i, last := int(v-1), len(s.ents)-1
	if i != last {
		s.ents[i] = s.ents[last]
		s.slots[s.slot(s.ents[i].name)] = int32(i + 1)
	}
	s.ents[last] = scoped{}
	s.ents = s.ents[:last]
}

// free empties slot j, moving back the entries after it that probing
// would no longer find past the gap (deletion in linear probing).
func (s *Scope) free(j int) {
	mask := len(s.slots) - 1
	for k := (j + 1) & mask; s.slots[k] != 0; k = (k + 1) & mask {
		home := int(hashName(s.ents[s.slots[k]-1].name)) & mask
		// The entry at k stays unless its home is cyclically after the
		// gap j and up to k.
		if (k-home)&mask >= (k-j)&mask {
			s.slots[j] = s.slots[k]
			j = k
		}
	}
	s.slots[j] = 0
}

// TypeOf returns the type of x in Γ.
func (s *Scope) TypeOf(x *Ident) (Type, bool) {
	i := s.find(x.Name)
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
