package gpusim

import (
	"github.com/arraysem/arraysem/cuda"
)

// What the emitter's parallel reduce and scan need (cuda/fold.go): the
// blocks' __shared__ arrays, __device__ functions (the folds' element and
// combine parts), and the prelude's tree arithmetic.

// sharedKey is one block's instance of a __shared__ declaration.
type sharedKey struct {
	s     *cuda.Shared
	block int
}

// shared binds a __shared__ array: one region a block, created when its
// first thread reaches the declaration, uninitialised (so a read before
// any write is caught), and ended with the block (endBlock: the next
// block's instance may be the same region, uninitialised again). Its accesses are
// checked for races as global memory's are: the threads of a block are
// ordered only by barriers.
func (t *thread) shared(s *cuda.Shared) {
	l := t.m.launch
	if t.gtid < 0 || l == nil {
		t.fail(s.Pos, "unsupported", "unsupported construct: __shared__ outside a kernel")
	}
	r := l.sharedRegion(s, t.block, func(what string) *region { return t.alloc(s.Pos, s.Size, false, what) })
	t.vars[s.Name] = &value{k: kPtr, p: ptr{r: r}}
}

// callDevice calls a __device__ function of the file: its parameters
// bound to the arguments' values in a scope of its own, its return's
// value the call's.
func (t *thread) callDevice(c *cuda.Call, fn *cuda.Func) (v value) {
	if len(c.Args) != len(fn.Params) {
		t.fail(c.Pos, "unsupported", "unsupported construct: %s takes %d arguments, the call gives %d", fn.Name, len(fn.Params), len(c.Args))
	}
	vars := make(map[string]*value, len(fn.Params))
	for i, p := range fn.Params {
		a := t.convert(cuda.ExprPos(c.Args[i]), p.Type, t.eval(c.Args[i]))
		vars[p.Name] = &a
	}
	saved := t.vars
	t.vars = vars
	defer func() {
		t.vars = saved
		if r := recover(); r != nil {
			ret, ok := r.(retSignal)
			if !ok {
				panic(r)
			}
			v = t.convert(c.Pos, fn.Result, ret.v)
		}
	}()
	for _, s := range fn.Body {
		// The return that ends the body needs no unwinding (a panic is
		// slow, and the parts run once per element).
		if r, ok := s.(*cuda.Return); ok && r.Value != nil {
			t.tick(r.Pos)
			return t.convert(r.Pos, fn.Result, t.eval(r.Value))
		}
		t.stmt(s)
	}
	t.fail(c.Pos, "unsupported", "unsupported construct: %s ends without return", fn.Name)
	return value{}
}

// common runs the prelude's functions that host and threads share.
func (t *thread) common(f string, n func(int) int64, want func(int)) (value, bool) {
	switch f {
	case "arraysem_tree_levels":
		want(1)
		l := int64(0)
		for w := int64(1); w < n(0); w *= 2 {
			l++
		}
		return value{k: kInt, i: l}, true
	case "arraysem_ceil_div":
		want(2)
		if n(1) <= 0 || n(0) < 0 {
			t.fail(cuda.Pos{}, "cuda", "arraysem_ceil_div(%d, %d): want a >= 0, b > 0", n(0), n(1))
		}
		return value{k: kInt, i: ceilDiv(n(0), n(1))}, true
	}
	return value{}, false
}

// ceilDiv is a / b rounded up, for a >= 0 and b > 0.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}
