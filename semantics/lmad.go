package semantics

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/internal/mutant"
)

// LMAD is an LMAD value (§3.1): an offset and, per dimension, the number
// of elements and the stride, all constants. Applied to an index it gives a
// flat offset in a memory block.
//
// FUN's arrays are 1-indexed but a block's offsets start at 0, so we apply
// an LMAD to the 1-based index minus one (ERRATA.md): eq (1) reads
// L(y1, …, yq) = o + Σ (y_i − 1)·s_i, and eqs (2) and (3) shift likewise.
// R(n1, …, nq) is then the row-major LMAD whose image is 0 … n1·…·nq − 1.
type LMAD struct {
	Offset int64
	Dims   []LDim
}

// LDim is one dimension of an LMAD: (elements : stride).
type LDim struct{ Elems, Stride int64 }

// RowMajor is R(n1, …, nq): offset 0, strides the products of the sizes
// to the right.
func RowMajor(shape []int64) LMAD {
	l := LMAD{Dims: make([]LDim, len(shape))}
	acc := int64(1)
	for i := len(shape) - 1; i >= 0; i-- {
		l.Dims[i] = LDim{Elems: shape[i], Stride: acc}
		acc *= shape[i]
	}
	return l
}

// Rank is the number of dimensions.
func (l LMAD) Rank() int { return len(l.Dims) }

// Shape is the number of elements per dimension.
func (l LMAD) Shape() []int64 {
	s := make([]int64, len(l.Dims))
	for i, d := range l.Dims {
		s[i] = d.Elems
	}
	return s
}

// Apply is eq (1) on a 1-based index of every dimension; it fails when the
// index is outside the domain.
func (l LMAD) Apply(idx []int64) (int64, error) {
	if len(idx) != len(l.Dims) {
		return 0, fmt.Errorf("%d indices for an LMAD of rank %d", len(idx), len(l.Dims))
	}
	off := l.Offset
	for i, k := range idx {
		d := l.Dims[i]
		if k < 1 || k > d.Elems {
			return 0, ErrBounds{Dim: i + 1, Index: k, Extent: d.Elems}
		}
		off += (k - 1) * d.Stride
	}
	return off, nil
}

// Slice is slice_f of eq (2): each dimension keeps its stride, takes the
// slice's size, and the offset moves to the slice's first element.
func (l LMAD) Slice(pairs [][2]int64) (LMAD, error) {
	if len(pairs) != len(l.Dims) {
		return LMAD{}, fmt.Errorf("%d slice pairs for an LMAD of rank %d", len(pairs), len(l.Dims))
	}
	out := LMAD{Offset: l.Offset, Dims: make([]LDim, len(l.Dims))}
	for i, p := range pairs {
		o, s, d := p[0], p[1], l.Dims[i]
		if s < 0 || o < 1 || o > d.Elems+1 || s > d.Elems+1-o {
			return LMAD{}, ErrBounds{Dim: i + 1, Index: o, Slice: true, Size: s, Extent: d.Elems}
		}
		out.Offset += (o - 1) * d.Stride
		out.Dims[i] = LDim{Elems: s, Stride: d.Stride}
	}
	return out, nil
}

// Index is index_f of eq (3): it fixes the outermost dimension at k.
func (l LMAD) Index(k int64) (LMAD, error) {
	if len(l.Dims) == 0 {
		return LMAD{}, fmt.Errorf("cannot index an LMAD of rank 0")
	}
	d := l.Dims[0]
	if k < 1 || k > d.Elems {
		return LMAD{}, ErrBounds{Dim: 1, Index: k, Extent: d.Elems}
	}
	return LMAD{Offset: l.Offset + (k-1)*d.Stride, Dims: l.Dims[1:]}, nil
}

// Transpose swaps the two dimensions of a rank-2 LMAD (E-MEM-TRANSPOSE).
func (l LMAD) Transpose() (LMAD, error) {
	if len(l.Dims) != 2 {
		return LMAD{}, fmt.Errorf("transpose needs an LMAD of rank 2, not %d", len(l.Dims))
	}
	if mutant.On("transpose-swap") { // mutant: swaps the sizes but keeps the strides in place
		return LMAD{Offset: l.Offset, Dims: []LDim{{Elems: l.Dims[1].Elems, Stride: l.Dims[0].Stride}, {Elems: l.Dims[0].Elems, Stride: l.Dims[1].Stride}}}, nil
	}
	return LMAD{Offset: l.Offset, Dims: []LDim{l.Dims[1], l.Dims[0]}}, nil
}

// Image calls f with L(y) for every y of dom(L), in row-major order of
// the domain, stopping at the first error f returns.
func (l LMAD) Image(f func(off int64) error) error {
	for _, d := range l.Dims {
		if d.Elems <= 0 {
			return nil
		}
	}
	var walk func(dim int, off int64) error
	walk = func(dim int, off int64) error {
		if dim == len(l.Dims) {
			return f(off)
		}
		d := l.Dims[dim]
		for k := int64(0); k < d.Elems; k++ {
			if err := walk(dim+1, off+k*d.Stride); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(0, l.Offset)
}

// Dense reports whether L's image, in Image's order, is the n offsets
// Offset, Offset+1, …, Offset+n−1 (strides row-major over the shape), and
// n. An array so laid out is read by one copy.
func (l LMAD) Dense() (n int64, ok bool) {
	for _, d := range l.Dims {
		if d.Elems <= 0 {
			return 0, true // no offsets at all
		}
	}
	n = 1
	for i := len(l.Dims) - 1; i >= 0; i-- {
		d := l.Dims[i]
		if d.Stride != n && d.Elems > 1 {
			return 0, false
		}
		n *= d.Elems
	}
	return n, true
}

// String renders an LMAD as FUNMEM writes it: 3 + {(2 : 4) (4 : 1)}.
func (l LMAD) String() string {
	parts := make([]string, len(l.Dims))
	for i, d := range l.Dims {
		parts[i] = fmt.Sprintf("(%d : %d)", d.Elems, d.Stride)
	}
	return fmt.Sprintf("%d + {%s}", l.Offset, strings.Join(parts, " "))
}
