package fun

import "github.com/arraysem/arraysem/semantics"

// Env is an environment E mapping variables to values. It is a persistent
// linked list, so extending it is cheap and the small-step semantics can
// keep old configurations for stepping back.
type Env struct {
	name string
	val  semantics.Array
	next *Env
}

// Bind returns E, x ↦ v.
func (e *Env) Bind(x string, v semantics.Array) *Env { return &Env{name: x, val: v, next: e} }

// Lookup finds the innermost binding of x.
func (e *Env) Lookup(x string) (semantics.Array, bool) {
	for ; e != nil; e = e.next {
		if e.name == x {
			return e.val, true
		}
	}
	return semantics.Array{}, false
}

// Bindings lists the bindings, innermost first, each name once.
func (e *Env) Bindings() []struct {
	Name  string
	Value semantics.Array
} {
	var out []struct {
		Name  string
		Value semantics.Array
	}
	seen := map[string]bool{}
	for ; e != nil; e = e.next {
		if !seen[e.name] {
			seen[e.name] = true
			out = append(out, struct {
				Name  string
				Value semantics.Array
			}{e.name, e.val})
		}
	}
	return out
}
