package semantics

import (
	"fmt"
	"math/rand"
)

// Schedule is the order in which the small-step semantics runs a kernel's
// iterations: a permutation of 1..m, or nil for 1, 2, …, m. The papers'
// kernels are parallel loops, so every order is a run the semantics
// allows; a race-free kernel (eq 4) gives the same result under each, and
// a racy one may not, which is what stepping under another schedule shows.
type Schedule func(m int64) []int64

// ParseSchedule reads in-order, reverse or random (random takes the seed).
func ParseSchedule(name string, seed int64) (Schedule, error) {
	switch name {
	case "in-order":
		return nil, nil
	case "reverse":
		return func(m int64) []int64 {
			out := make([]int64, m)
			for i := range out {
				out[i] = m - int64(i)
			}
			return out
		}, nil
	case "random":
		r := rand.New(rand.NewSource(seed))
		return func(m int64) []int64 {
			out := make([]int64, m)
			for i, p := range r.Perm(int(m)) {
				out[i] = int64(p) + 1
			}
			return out
		}, nil
	}
	return nil, fmt.Errorf("unknown schedule %q (in-order, reverse or random)", name)
}

// Order is the iteration at position pos (1-based) of an order made by a
// Schedule (nil: pos itself).
func Order(order []int64, pos int64) int64 {
	if order == nil {
		return pos
	}
	return order[pos-1]
}

// Binding is one variable of an environment as the REPL's :env shows it.
type Binding struct {
	Name, Value string
}
