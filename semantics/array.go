package semantics

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// Array is an array value: an element type, a shape and the elements in
// row-major order. A scalar is the array of rank 0 with one element. Values
// are not nested Go slices: indexing, slicing and transposition work on the
// flat buffer, so paper-sized examples run instantly and large kernels are
// cheap.
//
// Elements are int64 words whatever the element type: a float element is
// stored as its math.Float64bits (see FloatBits), so a heap word is a word
// and heaps, LMADs and every function here that moves elements work on
// float arrays unchanged. The zero Elem is IntElem, so an Array built
// without naming its element type is an int array, as before floats.
//
// Arrays are immutable once built: functions here never write to the Data
// of an argument, and may share it with their result.
type Array struct {
	Elem  Elem
	Shape []int64
	Data  []int64
}

// Scalar is the rank-0 int array holding k.
func Scalar(k int64) Array { return Array{Data: []int64{k}} }

// FloatScalar is the rank-0 float array holding f (a NaN is stored as the
// canonical NaN, see FloatBits).
func FloatScalar(f float64) Array { return Array{Elem: FloatElem, Data: []int64{FloatBits(f)}} }

// Rank is the number of dimensions (0 for a scalar).
func (a Array) Rank() int { return len(a.Shape) }

// IsScalar reports whether a has rank 0.
func (a Array) IsScalar() bool { return len(a.Shape) == 0 }

// Int is the element of a scalar. For a float scalar it is the element's
// bits; use Float.
func (a Array) Int() int64 { return a.Data[0] }

// Float is the element of a float scalar.
func (a Array) Float() float64 { return math.Float64frombits(uint64(a.Data[0])) }

// Num is the element of a scalar as a typed scalar.
func (a Array) Num() Num { return Num{Elem: a.Elem, Bits: a.Data[0]} }

// At is the i-th element (0-based) of the flat buffer as a typed scalar.
func (a Array) At(i int64) Num { return Num{Elem: a.Elem, Bits: a.Data[i]} }

// Count is the number of elements a shape holds, or an error when a size is
// negative or the count exceeds MaxElems.
func Count(shape []int64) (int64, error) {
	// Every size is checked first: a 0 does not excuse a negative size
	// after it (a binary data file's shape [2^62][0][-5] is refused).
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("size %d is negative", d)
		}
	}
	n := int64(1)
	for _, d := range shape {
		if d != 0 && n > MaxElems/d {
			// Past the limit, unless a later size is 0; the message
			// counts every size, not the ones so far.
			total := int64(1)
			for _, e := range shape {
				switch {
				case e == 0:
					return 0, nil
				case total > 0 && total <= (1<<62)/e:
					total *= e
				default:
					total = -1 // past 2^62 elements
				}
			}
			if total < 0 {
				return 0, fmt.Errorf("an array of shape %s exceeds --max-memory %s (raise it with --max-memory)", ShapeString(shape), Bytes(maxMemory))
			}
			return 0, tooBig("an array of shape "+ShapeString(shape), total)
		}
		n *= d
	}
	if n > largest.elems.Load() { // rare: no closure on the common path
		noteAlloc(func() string { return "an array of shape " + ShapeString(shape) }, n)
	}
	return n, nil
}

// ShapeString formats a shape the way FUN writes int array types: [2][3]
// (and "int" for a scalar). TypeString adds the element type.
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

// TypeString formats an element type and a shape the way FUN writes
// array types: [2][3] for int elements, [2][3]float for floats, and int or
// float for a scalar.
func TypeString(e Elem, shape []int64) string {
	if e == IntElem {
		return ShapeString(shape)
	}
	if len(shape) == 0 {
		return e.String()
	}
	return ShapeString(shape) + e.String()
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
	return Array{Elem: a.Elem, Shape: rest, Data: a.Data[off : off+n]}, nil
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
	out := Array{Elem: a.Elem, Shape: shape, Data: make([]int64, 0, total)}
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
	out := Array{Elem: a.Elem, Shape: []int64{n, m}, Data: make([]int64, len(a.Data))}
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
// The result is an int array; NestOf names the element type.
func Nest(flat []int64, shape []int64) (Array, error) { return NestOf(IntElem, flat, shape) }

// NestOf is Nest for elements of type e (for float elements, flat holds
// their bits, as Array.Data does).
func NestOf(e Elem, flat []int64, shape []int64) (Array, error) {
	n, err := Count(shape)
	if err != nil {
		return Array{}, err
	}
	if int64(len(flat)) != n {
		return Array{}, fmt.Errorf("cannot nest %d elements as %s (%d elements)", len(flat), ShapeString(shape), n)
	}
	return Array{Elem: e, Shape: append([]int64(nil), shape...), Data: flat}, nil
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
// still has its full shape. The element type is the first cell's (int for
// no cells; StackOf names it, so that an empty float stack is a float
// array); all cells must have it.
func Stack(cellShape []int64, cells []Array) (Array, error) {
	e := IntElem
	if len(cells) > 0 {
		e = cells[0].Elem
	}
	return StackOf(e, cellShape, cells)
}

// StackOf is Stack with the element type given: every cell must have
// element type e, and the result has it even when there are no cells.
func StackOf(e Elem, cellShape []int64, cells []Array) (Array, error) {
	shape := append([]int64{int64(len(cells))}, cellShape...)
	n, err := Count(shape)
	if err != nil {
		return Array{}, err
	}
	out := Array{Elem: e, Shape: shape, Data: make([]int64, 0, n)}
	for i, c := range cells {
		if !SameShape(c.Shape, cellShape) {
			return Array{}, fmt.Errorf("item %d has shape %s, expected %s", i+1, ShapeString(c.Shape), ShapeString(cellShape))
		}
		if c.Elem != e {
			return Array{}, fmt.Errorf("item %d has %s elements, expected %s", i+1, c.Elem, e)
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

// Equal reports whether two arrays have the same element type, shape and
// elements. An int array never equals a float array, not even an empty one.
// Float elements compare by their bits, not by ==, so that the answer is
// deterministic and an equivalence: NaN equals NaN (any NaN any other, as
// a NaN's payload is not part of a value) and 0.0 does not equal -0.0.
func Equal(a, b Array) bool {
	if a.Elem != b.Elem || !SameShape(a.Shape, b.Shape) || len(a.Data) != len(b.Data) {
		return false
	}
	for i := range a.Data {
		if !sameElem(a.Elem, a.Data[i], b.Data[i]) {
			return false
		}
	}
	return true
}

// sameElem is Equal on one element: equal bits, or two NaNs.
func sameElem(e Elem, x, y int64) bool {
	if x == y {
		return true
	}
	return e == FloatElem && isNaNBits(x) && isNaNBits(y)
}

// FirstDifference describes the first position at which a and b differ, or
// returns "" when they are equal (in Equal's sense). Positions are 1-based,
// as in FUN.
func FirstDifference(a, b Array) string {
	if a.Elem != b.Elem {
		return fmt.Sprintf("element types differ: %s and %s", a.Elem, b.Elem)
	}
	if !SameShape(a.Shape, b.Shape) {
		return fmt.Sprintf("shapes differ: %s and %s", ShapeString(a.Shape), ShapeString(b.Shape))
	}
	for i := range a.Data {
		if !sameElem(a.Elem, a.Data[i], b.Data[i]) {
			return fmt.Sprintf("element %s differs: %s and %s", positionOf(a.Shape, int64(i)), a.At(int64(i)), b.At(int64(i)))
		}
	}
	return ""
}

// Compare is FirstDifference with the two sides named: "element [2]:
// value-based 3, heap-based 0".
func Compare(a, b Array, la, lb string) string {
	if a.Elem != b.Elem {
		return fmt.Sprintf("element types differ: %s %s, %s %s", la, a.Elem, lb, b.Elem)
	}
	if !SameShape(a.Shape, b.Shape) {
		return fmt.Sprintf("shapes differ: %s %s, %s %s", la, ShapeString(a.Shape), lb, ShapeString(b.Shape))
	}
	for i := range a.Data {
		if !sameElem(a.Elem, a.Data[i], b.Data[i]) {
			return fmt.Sprintf("element %s: %s %s, %s %s", positionOf(a.Shape, int64(i)), la, a.At(int64(i)), lb, b.At(int64(i)))
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

// String formats a as the value format fixes (README): 42, [1 2 3],
// [[1 2] [3 4]]; float elements as FormatFloat does (3.0, 0.5, 1e+21,
// -0.0, +Inf, NaN). An empty array prints as [] whatever its element type.
func (a Array) String() string {
	return bytesString(a.appendText(make([]byte, 0, a.printedSize()), 0, 0, -1))
}

// Abbrev formats a like String but shows at most max items per dimension,
// eliding the rest with "…" (for tables of large results).
func (a Array) Abbrev(max int) string {
	return string(a.appendText(nil, 0, 0, max))
}

// bytesString is the string of b, which nothing writes any more, without
// copying it (as strings.Builder does).
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// minParallelPrint is the number of elements from which StringJobs
// spreads the printing over goroutines: below it, starting them costs more
// than they save.
const minParallelPrint = 1 << 16

// StringJobs is String made on up to Jobs(jobs) goroutines: a large
// array's rows are cut into as many ranges, each printed by a goroutine.
// The text is String's, byte for byte. A run given --jobs prints its
// results so, since printing 10^6 results is a part of the run that a
// second core otherwise leaves to one.
//
// An int array's ranges are measured first (each goroutine its own), so
// that each is printed straight into its place in one buffer; a float
// array's texts are printed apart and joined.
func (a Array) StringJobs(jobs int) string {
	w := int64(Jobs(jobs))
	if w <= 1 || len(a.Shape) == 0 || a.Shape[0] < 2 || len(a.Data) < minParallelPrint {
		return a.String()
	}
	rows := a.Shape[0]
	w = min(w, rows)
	st := int64(len(a.Data)) / rows
	// rowsText appends rows lo … hi-1 to b, each after a space but the
	// first row of all.
	rowsText := func(b []byte, lo, hi int64) []byte {
		for i := lo; i < hi; i++ {
			if i > 0 {
				b = append(b, ' ')
			}
			b = a.appendText(b, 1, i*st, -1)
		}
		return b
	}
	ranges := make([][2]int64, w)
	for k := range w {
		ranges[k] = [2]int64{rows * k / w, rows * (k + 1) / w}
	}
	var wg sync.WaitGroup
	if a.Elem == FloatElem {
		parts := make([][]byte, w)
		for k, r := range ranges {
			wg.Go(func() { parts[k] = rowsText(nil, r[0], r[1]) })
		}
		wg.Wait()
		text := append([]byte{'['}, slices.Concat(parts...)...)
		return bytesString(append(text, ']'))
	}
	sizes := make([]int, w)
	for k, r := range ranges {
		wg.Go(func() { sizes[k] = a.rowsSize(r[0], r[1], st) })
	}
	wg.Wait()
	at := make([]int, w+1) // where range k's text starts
	at[0] = 1
	for k, n := range sizes {
		at[k+1] = at[k] + n
	}
	buf := make([]byte, at[w]+1)
	buf[0], buf[at[w]] = '[', ']'
	fits := make([]bool, w)
	for k, r := range ranges {
		wg.Go(func() { fits[k] = len(rowsText(buf[at[k]:at[k]:at[k+1]], r[0], r[1])) == sizes[k] })
	}
	wg.Wait()
	if slices.Contains(fits, false) { // a size measured wrong: never, but never a wrong text
		return a.String()
	}
	return bytesString(buf)
}

// rowsSize is the length of the text StringJobs prints for the rows lo …
// hi-1 (of st elements each) of an int array: each row's, and a space
// before each but the first row of all.
func (a Array) rowsSize(lo, hi, st int64) int {
	row := Array{Elem: a.Elem, Shape: a.Shape[1:]}
	n := int(hi - lo)
	if lo == 0 && hi > 0 {
		n-- // no space before the first row
	}
	brackets := 0
	inner := int64(1)
	for _, d := range row.Shape {
		brackets += int(inner) * (2 + max(int(d)-1, 0))
		inner *= d
	}
	n += int(hi-lo) * brackets
	for _, x := range a.Data[lo*st : hi*st] {
		n += intWidth(x)
	}
	return n
}

// printedSize is about the length of String's text (at least it for int
// arrays, whose widest element bounds every element's width; an estimate
// for float ones), so that printing a large result grows its buffer once
// rather than copying it at every doubling.
func (a Array) printedSize() int {
	n := 0
	inner := int64(1) // the brackets and spaces: each dimension's rows
	for _, d := range a.Shape {
		n += int(inner) * (2 + max(int(d)-1, 0))
		inner *= d
	}
	if a.Elem == FloatElem {
		return n + 8*len(a.Data)
	}
	if len(a.Data) == 0 {
		return n
	}
	lo, hi := slices.Min(a.Data), slices.Max(a.Data)
	return n + len(a.Data)*max(intWidth(lo), intWidth(hi))
}

// intWidth is the number of bytes strconv.AppendInt writes for x.
func intWidth(x int64) int {
	w, u := 1, uint64(x)
	if x < 0 {
		w, u = 2, -u
	}
	for ; u >= 10; u /= 10 {
		w++
	}
	return w
}

// appendText appends the text of a's item at offset off of dimension dim
// to b: String's text, with at most max items a dimension when max ≥ 0.
func (a Array) appendText(b []byte, dim int, off int64, max int) []byte {
	if dim == len(a.Shape) {
		if a.Elem == FloatElem {
			return append(b, FormatFloat(math.Float64frombits(uint64(a.Data[off])))...)
		}
		return strconv.AppendInt(b, a.Data[off], 10)
	}
	st := int64(1)
	for _, d := range a.Shape[dim+1:] {
		st *= d
	}
	b = append(b, '[')
	for i := int64(0); i < a.Shape[dim]; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		if max >= 0 && i == int64(max) && a.Shape[dim] > int64(max)+1 {
			b = append(b, "…"...)
			i = a.Shape[dim] - 2 // show the last item too
			continue
		}
		b = a.appendText(b, dim+1, off+i*st, max)
	}
	return append(b, ']')
}

// ParseValue reads a value literal as given to --arg: an integer (42, -3), a
// float (1.5, 3.0, 1e3, -2.5e-3, NaN, +Inf, -Inf; see ScanNumber), or a
// regular array literal ([1 2 3], [[1 2] [3 4]], [1.5 2.0]); commas between
// items are allowed. An array is a float array when its literals are floats;
// mixing int and float literals is an error. An empty literal [] has shape
// [0] and int elements (so an empty float array, which prints as [], reads
// back as an int array: the one value whose printed form loses its type).
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
		return p.number()
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
	for _, it := range items[1:] {
		if it.Elem != items[0].Elem {
			return Array{}, fmt.Errorf("array literal mixes int and float elements")
		}
	}
	out, err := Stack(items[0].Shape, items)
	if err != nil {
		return Array{}, fmt.Errorf("irregular array literal: %v", err)
	}
	return out, nil
}

// number reads a scalar: an optional sign and a literal as ScanNumber
// delimits it, or one of the non-finite floats as FormatFloat prints them
// (NaN, +Inf, -Inf; Inf too).
func (p *valueParser) number() (Array, error) {
	j := p.i
	if p.s[j] == '-' || p.s[j] == '+' {
		j++
	}
	for _, w := range [...]string{"NaN", "Inf"} {
		if strings.HasPrefix(p.s[j:], w) && (w == "Inf" || j == p.i) {
			f, _ := strconv.ParseFloat(p.s[p.i:j+len(w)], 64)
			p.i = j + len(w)
			return FloatScalar(f), nil
		}
	}
	n, isFloat := ScanNumber(p.s[j:])
	if n == 0 {
		return Array{}, fmt.Errorf("expected a number or '[' at %q", p.s[p.i:])
	}
	text := p.s[p.i : j+n]
	if isFloat {
		f, err := ParseFloatLiteral(text)
		if err != nil {
			return Array{}, err
		}
		p.i = j + n
		return FloatScalar(f), nil
	}
	k, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		if ne := (*strconv.NumError)(nil); errors.As(err, &ne) {
			err = ne.Err // "value out of range", without ParseInt's restatement of the input
		}
		return Array{}, fmt.Errorf("bad integer %q: %v", text, err)
	}
	p.i = j + n
	return Scalar(k), nil
}
