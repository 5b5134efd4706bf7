package fun

import (
	"fmt"

	"github.com/arraysem/arraysem/semantics"
)

// stacker builds E-KERNEL's [v1, …, vm], and a scan's rows, in one flat
// buffer, item i at [i·size, (i+1)·size): what semantics.StackOf builds
// from a slice of items, without the slice. Items that do not fit (another
// shape or element type) are not written; the caller keeps the first in a
// misfit and finish reports it as StackOf would, after every item ran.
type stacker struct {
	elem  semantics.Elem
	shape []int64 // [m, cell…]
	size  int64   // elements per item
	data  []int64
	err   error // StackOf's error on the shape itself (a size beyond --max-memory)
}

// newStacker is a stacker of m items of shape cell and element type e.
func newStacker(e semantics.Elem, m int64, cell []int64) *stacker {
	shape := append([]int64{m}, cell...)
	st := &stacker{elem: e, shape: shape, size: 1}
	n, err := semantics.Count(shape)
	if err != nil {
		st.err = err
		return st
	}
	for _, d := range cell {
		st.size *= d
	}
	st.data = make([]int64, n)
	return st
}

// fits reports whether v is an item of the stack's shape and type.
func (st *stacker) fits(v *val) bool {
	return v.elem == st.elem && semantics.SameShape(v.shape, st.shape[1:])
}

// put writes item i (from 0) and reports whether it fits.
func (st *stacker) put(i int64, v *val) bool {
	if st.err != nil || !st.fits(v) {
		return false
	}
	if v.isScalar() {
		st.data[i] = v.bits
	} else {
		copy(st.data[i*st.size:(i+1)*st.size], v.data)
	}
	return true
}

// finish is the stacked array, or StackOf's error for the first item that
// did not fit (mis).
func (st *stacker) finish(mis *misfit) (val, error) {
	if st.err != nil {
		return val{}, st.err
	}
	if mis.at >= 0 {
		return val{}, mis.error(st)
	}
	return val{elem: st.elem, shape: st.shape, data: st.data}, nil
}

// misfit is the first item that did not fit a stack: its index (from 0;
// -1 for none) and value.
type misfit struct {
	at int64
	v  val
}

// noMisfit is a misfit that has seen none.
func noMisfit() misfit { return misfit{at: -1} }

// note records item i, which did not fit, if it is the first.
func (mis *misfit) note(i int64, v *val) {
	if mis.at < 0 || i < mis.at {
		mis.at, mis.v = i, *v
	}
}

// error words the misfit as semantics.StackOf does.
func (mis *misfit) error(st *stacker) error {
	cell, v := st.shape[1:], mis.v
	if !semantics.SameShape(v.shape, cell) {
		return fmt.Errorf("item %d has shape %s, expected %s", mis.at+1, semantics.ShapeString(v.shape), semantics.ShapeString(cell))
	}
	return fmt.Errorf("item %d has %s elements, expected %s", mis.at+1, v.elem, st.elem)
}
