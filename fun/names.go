package fun

// A NameSet is a set of names kept in the order they were added, found
// by a hash table: the environments of checkers and passes, made once a
// run and holding a few dozen names that come and go, for which a Go map
// (its buckets made and grown, each name hashed by the runtime) cost more
// than the work they served. The table is one int32 a slot (open
// addressing, linear probing, at most half full), so a set of any size
// finds a name in constant time. Its zero value is an empty set.
type NameSet struct {
	names []string
	slots []int32 // a name's position plus one; 0 a free slot
}

// NewNameSet returns an empty set with room for about n names (it grows
// past them as it must).
func NewNameSet(n int) *NameSet {
	return &NameSet{names: make([]string, 0, n), slots: make([]int32, tableSize(n))}
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

// Len is the number of names in the set.
func (s *NameSet) Len() int { return len(s.names) }

// Name is the name at position i (0 ≤ i < Len).
func (s *NameSet) Name(i int) string { return s.names[i] }

// Has reports whether x is in the set.
func (s *NameSet) Has(x string) bool { return s.Index(x) >= 0 }

// Index is x's position in the set, or -1 when x is not in it.
func (s *NameSet) Index(x string) int {
	if len(s.names) == 0 {
		return -1
	}
	return int(s.slots[s.slot(x)]) - 1
}

// slot is the slot of x, or the free slot where x would go
// (s.slots[slot] == 0).
func (s *NameSet) slot(x string) int {
	mask := len(s.slots) - 1
	j := int(hashName(x)) & mask
	for {
		v := s.slots[j]
		if v == 0 || s.names[v-1] == x {
			return j
		}
		j = (j + 1) & mask
	}
}

// Add puts x in the set, at the end, and returns its position; added is
// false, and the position the one x had, when x was in the set already.
func (s *NameSet) Add(x string) (i int, added bool) {
	if 2*(len(s.names)+1) > len(s.slots) {
		s.grow()
	}
	j := s.slot(x)
	if v := s.slots[j]; v != 0 {
		return int(v - 1), false
	}
	s.names = append(s.names, x)
	s.slots[j] = int32(len(s.names))
	return len(s.names) - 1, true
}

// grow doubles the table (or makes the first) and puts the names back.
func (s *NameSet) grow() {
	s.slots = make([]int32, tableSize(len(s.slots)))
	for i, x := range s.names {
		s.slots[s.slot(x)] = int32(i + 1)
	}
}

// Remove takes x out of the set. The last name fills the gap it leaves:
// Remove returns the position x had, i, and the one the name now at i
// came from, last (i itself when x was the last, as when names are taken
// out last first); i is -1 when x was not in the set.
func (s *NameSet) Remove(x string) (i, last int) {
	if len(s.names) == 0 {
		return -1, -1
	}
	j := s.slot(x)
	v := s.slots[j]
	if v == 0 {
		return -1, -1
	}
	s.free(j)
	i, last = int(v-1), len(s.names)-1
	if i != last {
		s.names[i] = s.names[last]
		s.slots[s.slot(s.names[i])] = int32(i + 1)
	}
	s.names[last] = ""
	s.names = s.names[:last]
	return i, last
}

// free empties slot j, moving back the names after it that probing
// would no longer find past the gap (deletion in linear probing).
func (s *NameSet) free(j int) {
	mask := len(s.slots) - 1
	for k := (j + 1) & mask; s.slots[k] != 0; k = (k + 1) & mask {
		home := int(hashName(s.names[s.slots[k]-1])) & mask
		// The name at k stays unless its home is cyclically after the
		// gap j and up to k.
		if (k-home)&mask >= (k-j)&mask {
			s.slots[j] = s.slots[k]
			j = k
		}
	}
	s.slots[j] = 0
}
