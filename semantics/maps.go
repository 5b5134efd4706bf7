package semantics

import "maps"

// CloneMap copies an environment (a scope, a set of constants): a new map
// with m's entries, empty but not nil when m is nil, so that the copy can
// be written to whatever the original was (maps.Clone keeps nil).
func CloneMap[M ~map[K]V, K comparable, V any](m M) M {
	if m == nil {
		return M{}
	}
	return maps.Clone(m)
}
