package semantics

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Array is an integer array value: a shape and the elements in row-major
// order. A scalar is the array of rank 0 with one element. Values are not
// nested Go slices: indexing, slicing and transposition work on the flat
// buffer, so paper-sized examples run instantly and large kernels are cheap.
//
// Arrays are immutable once built: functions here never write to the Data
// of an argument, and may share it with their result.
type Array struct {
	Shape []int64
	Data  []int64
}

// Scalar is the rank-0 array holding k.
func Scalar(k int64) Array { return Array{Data: []int64{k}} }

// Rank is the number of dimensions (0 for a scalar).
func (a Array) Rank() int { return len(a.Shape) }

// IsScalar reports whether a has rank 0.
func (a Array) IsScalar() bool { return len(a.Shape) == 0 }

// Int is the element of a scalar.
func (a Array) Int() int64 { return a.Data[0] }

// Count is the number of elements a shape holds, or an error when a size is
// negative or the count exceeds MaxElems.
func Count(shape []int64) (int64, error) {
	n := int64(1)
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("size %d is negative", d)
		}
		if d != 0 && n > MaxElems/d {
			if n > (1<<62)/d {
				return 0, fmt.Errorf("an array of shape %s exceeds --max-memory %s (raise it with --max-memory)", ShapeString(shape), Bytes(maxMemory))
			}
			return 0, tooBig("an array of shape "+ShapeString(shape), n*d)
		}
		n *= d
	}
	if n > largest.elems.Load() { // rare: no closure on the common path
		noteAlloc(func() string { return "an array of shape " + ShapeString(shape) }, n)
	}
	return n, nil
}

// ShapeString formats a shape the way FUN writes array types: [2][3].
func ShapeString(shape []int64) string {
	if len(shape) == 0 {
		return "int"
	}
	var b strings.Builder
	for _, d := range shape {
		fmt.Fprintf(&b, "[%d]", d)
	}
	return b.String()
}

// ErrBounds is the error of an index or slice outside an array. Positions
// are 1-based, as FUN's arrays are.
type ErrBounds struct {
	Dim    int   // the dimension, from 1
	Index  int64 // the offending index, or the slice's offset
	Slice  bool  // a slice rather than an index
	Size   int64 // the slice's size
	Extent int64 // the dimension's length
}

// Error describes the offending index or slice and the bounds.
func (e ErrBounds) Error() string {
	if !e.Slice {
		return fmt.Sprintf("index %d out of bounds 1..%d in dimension %d", e.Index, e.Extent, e.Dim)
	}
	if e.Size < 0 {
		return fmt.Sprintf("slice size %d is negative in dimension %d", e.Size, e.Dim)
	}
	return fmt.Sprintf("slice %d:%d (elements %d..%d) out of bounds 1..%d in dimension %d",
		e.Index, e.Size, e.Index, e.Index+e.Size-1, e.Extent, e.Dim)
}

// strides gives the row-major stride of each dimension.
func strides(shape []int64) []int64 {
	s := make([]int64, len(shape))
	acc := int64(1)
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= shape[i]
	}
	return s
}

// Index is Fig 5's index(v, k1, …, kn): the sub-array at the 1-based
// position idx of the outermost len(idx) dimensions (a scalar when idx
// indexes every dimension).
func (a Array) Index(idx []int64) (Array, error) {
	if len(idx) > len(a.Shape) {
		return Array{}, fmt.Errorf("%d indices for an array of rank %d", len(idx), len(a.Shape))
	}
	st := strides(a.Shape)
	off := int64(0)
	for i, k := range idx {
		if k < 1 || k > a.Shape[i] {
			return Array{}, ErrBounds{Dim: i + 1, Index: k, Extent: a.Shape[i]}
		}
		off += (k - 1) * st[i]
	}
	rest := a.Shape[len(idx):]
	n, _ := Count(rest)
	return Array{Shape: rest, Data: a.Data[off : off+n]}, nil
}

// Slice is Fig 5's slice(v, k1, k2, …) with the off-by-one corrected (see
// ERRATA.md): in every dimension d the pair (o, s) selects the s elements at
// positions o, …, o+s-1, which must lie in 1..n_d. A slice of size 0 may
// start anywhere in 1..n_d+1.
func (a Array) Slice(pairs [][2]int64) (Array, error) {
	if len(pairs) != len(a.Shape) {
		return Array{}, fmt.Errorf("%d slice pairs for an array of rank %d", len(pairs), len(a.Shape))
	}
	shape := make([]int64, len(pairs))
	for i, p := range pairs {
		o, s, n := p[0], p[1], a.Shape[i]
		if s < 0 || o < 1 || o > n+1 || s > n+1-o { // overflow-free o+s-1 <= n
			return Array{}, ErrBounds{Dim: i + 1, Index: o, Slice: true, Size: s, Extent: n}
		}
		shape[i] = s
	}
	total, _ := Count(shape)
	out := Array{Shape: shape, Data: make([]int64, 0, total)}
	if total == 0 {
		return out, nil
	}
	st := strides(a.Shape)
	var walk func(d int, base int64)
	walk = func(d int, base int64) {
		o, s := pairs[d][0], pairs[d][1]
		if d == len(pairs)-1 {
			out.Data = append(out.Data, a.Data[base+(o-1)*st[d]:base+(o-1+s)*st[d]]...)
			return
		}
		for k := o; k < o+s; k++ {
			walk(d+1, base+(k-1)*st[d])
		}
	}
	walk(0, 0)
	return out, nil
}

// Transpose is Fig 5's tr: it swaps the two dimensions of a rank-2 array.
func (a Array) Transpose() (Array, error) {
	if len(a.Shape) != 2 {
		return Array{}, fmt.Errorf("transpose needs an array of rank 2, not %d", len(a.Shape))
	}
	m, n := a.Shape[0], a.Shape[1]
	out := Array{Shape: []int64{n, m}, Data: make([]int64, len(a.Data))}
	for i := int64(0); i < m; i++ {
		for j := int64(0); j < n; j++ {
			out.Data[j*m+i] = a.Data[i*n+j]
		}
	}
	return out, nil
}

// Nest is Fig 5's nest(v, [k1]…[kn]) with its off-by-one and dimension
// order corrected (see ERRATA.md): it reads a flat buffer as a row-major
// array of the given shape. The buffer must hold exactly that many elements.
func Nest(flat []int64, shape []int64) (Array, error) {
	n, err := Count(shape)
	if err != nil {
		return Array{}, err
	}
	if int64(len(flat)) != n {
		return Array{}, fmt.Errorf("cannot nest %d elements as %s (%d elements)", len(flat), ShapeString(shape), n)
	}
	return Array{Shape: append([]int64(nil), shape...), Data: flat}, nil
}

// Iota is [1 .. n], the value of FUN's derived form iota.
func Iota(n int64) (Array, error) {
	if _, err := Count([]int64{n}); err != nil {
		return Array{}, err
	}
	out := Array{Shape: []int64{n}, Data: make([]int64, n)}
	for i := range out.Data {
		out.Data[i] = int64(i) + 1
	}
	return out, nil
}

// Stack builds the array whose items are cells, each of shape cellShape
// (E-KERNEL's [v1, …, vm]). The cell shape is given so that an empty stack
// still has its full shape.
func Stack(cellShape []int64, cells []Array) (Array, error) {
	shape := append([]int64{int64(len(cells))}, cellShape...)
	n, err := Count(shape)
	if err != nil {
		return Array{}, err
	}
	out := Array{Shape: shape, Data: make([]int64, 0, n)}
	for i, c := range cells {
		if !SameShape(c.Shape, cellShape) {
			return Array{}, fmt.Errorf("item %d has shape %s, expected %s", i+1, ShapeString(c.Shape), ShapeString(cellShape))
		}
		out.Data = append(out.Data, c.Data...)
	}
	return out, nil
}

// SameShape reports whether two shapes are equal.
func SameShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Equal reports whether two arrays have the same shape and elements.
func Equal(a, b Array) bool {
	if !SameShape(a.Shape, b.Shape) || len(a.Data) != len(b.Data) {
		return false
	}
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			return false
		}
	}
	return true
}

// FirstDifference describes the first position at which a and b differ, or
// returns "" when they are equal. Positions are 1-based, as in FUN.
func FirstDifference(a, b Array) string {
	if !SameShape(a.Shape, b.Shape) {
		return fmt.Sprintf("shapes differ: %s and %s", ShapeString(a.Shape), ShapeString(b.Shape))
	}
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			return fmt.Sprintf("element %s differs: %d and %d", positionOf(a.Shape, int64(i)), a.Data[i], b.Data[i])
		}
	}
	return ""
}

// Compare is FirstDifference with the two sides named: "element [2]:
// value-based 3, heap-based 0".
func Compare(a, b Array, la, lb string) string {
	if !SameShape(a.Shape, b.Shape) {
		return fmt.Sprintf("shapes differ: %s %s, %s %s", la, ShapeString(a.Shape), lb, ShapeString(b.Shape))
	}
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			return fmt.Sprintf("element %s: %s %d, %s %d", positionOf(a.Shape, int64(i)), la, a.Data[i], lb, b.Data[i])
		}
	}
	return ""
}

func positionOf(shape []int64, flat int64) string {
	if len(shape) == 0 {
		return "(the scalar)"
	}
	idx := make([]string, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = strconv.FormatInt(flat%shape[d]+1, 10)
		flat /= shape[d]
	}
	return "[" + strings.Join(idx, ", ") + "]"
}

// String formats a as the value format fixes (README): 42, [1 2 3], [[1 2] [3 4]].
func (a Array) String() string {
	var b strings.Builder
	a.format(&b, 0, 0, -1)
	return b.String()
}

// Abbrev formats a like String but shows at most max items per dimension,
// eliding the rest with "…" (for tables of large results).
func (a Array) Abbrev(max int) string {
	var b strings.Builder
	a.format(&b, 0, 0, max)
	return b.String()
}

func (a Array) format(b *strings.Builder, dim int, off int64, max int) {
	if dim == len(a.Shape) {
		b.WriteString(strconv.FormatInt(a.Data[off], 10))
		return
	}
	st := int64(1)
	for _, d := range a.Shape[dim+1:] {
		st *= d
	}
	b.WriteByte('[')
	for i := int64(0); i < a.Shape[dim]; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		if max >= 0 && i == int64(max) && a.Shape[dim] > int64(max)+1 {
			b.WriteString("…")
			i = a.Shape[dim] - 2 // show the last item too
			continue
		}
		a.format(b, dim+1, off+i*st, max)
	}
	b.WriteByte(']')
}

// ParseValue reads a value literal as given to --arg: an integer (42, -3) or
// a regular array literal ([1 2 3], [[1 2] [3 4]]); commas between items are
// allowed. An empty literal [] has shape [0].
func ParseValue(s string) (Array, error) {
	p := valueParser{s: s}
	p.skip()
	v, err := p.value(0)
	if err != nil {
		return Array{}, err
	}
	p.skip()
	if p.i < len(p.s) {
		return Array{}, fmt.Errorf("unexpected %q after the value", p.s[p.i:])
	}
	return v, nil
}

type valueParser struct {
	s string
	i int
}

func (p *valueParser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == ',') {
		p.i++
	}
}

func (p *valueParser) value(depth int) (Array, error) {
	if depth > 64 {
		return Array{}, fmt.Errorf("value nested more than 64 deep")
	}
	if p.i >= len(p.s) {
		return Array{}, fmt.Errorf("missing value")
	}
	if p.s[p.i] != '[' {
		j := p.i
		if p.s[j] == '-' || p.s[j] == '+' {
			j++
		}
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		k, err := strconv.ParseInt(p.s[p.i:j], 10, 64)
		if err != nil {
			if j == p.i || (j == p.i+1 && (p.s[p.i] == '-' || p.s[p.i] == '+')) {
				return Array{}, fmt.Errorf("expected an integer or '[' at %q", p.s[p.i:])
			}
			if ne := (*strconv.NumError)(nil); errors.As(err, &ne) {
				err = ne.Err // "value out of range", without ParseInt's restatement of the input
			}
			return Array{}, fmt.Errorf("bad integer %q: %v", p.s[p.i:j], err)
		}
		p.i = j
		return Scalar(k), nil
	}
	p.i++
	var items []Array
	for {
		p.skip()
		if p.i >= len(p.s) {
			return Array{}, fmt.Errorf("missing ']'")
		}
		if p.s[p.i] == ']' {
			p.i++
			break
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return Array{}, err
		}
		items = append(items, v)
	}
	if len(items) == 0 {
		return Array{Shape: []int64{0}}, nil
	}
	out, err := Stack(items[0].Shape, items)
	if err != nil {
		return Array{}, fmt.Errorf("irregular array literal: %v", err)
	}
	return out, nil
}
