package funmem

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// Kind tells the three kinds of FUNMEM value apart (Fig 6: v ::= k | ℓ |
// (ℓ, L)).
type Kind int

// The kinds of value.
const (
	IntVal   Kind = iota // a scalar k: an int, or a float's bits (Elem says which)
	BlockVal             // a heap label ℓ
	ArrayVal             // an array (ℓ, L): a block and an LMAD value
)

// Value is a value of the heap-based semantics. Blocks are untyped words
// (a float is stored as its bits); a scalar and an array know their
// element type, so that a read makes a float of a float array's word.
type Value struct {
	Kind  Kind
	K     int64 // a scalar's word: the int, or the float's semantics.FloatBits
	Block semantics.Label
	L     semantics.LMAD
	Elem  semantics.Elem // a scalar's type, an array's element type (IntElem for a block)
}

// Num is a scalar value as a typed number.
func (v Value) Num() semantics.Num { return semantics.Num{Elem: v.Elem, Bits: v.K} }

// NumValue is the scalar value of a typed number.
func NumValue(n semantics.Num) Value { return Value{Kind: IntVal, K: n.Bits, Elem: n.Elem} }

// String renders a value: 42, 2.5, ℓ3, (ℓ3, 0 + {(3 : 1)}).
func (v Value) String() string {
	switch v.Kind {
	case BlockVal:
		return v.Block.String()
	case ArrayVal:
		return fmt.Sprintf("(%v, %v)", v.Block, v.L)
	}
	return v.Num().String()
}

// Env is an environment of the heap-based semantics, persistent like FUN's.
type Env struct {
	name string
	val  Value
	next *Env
}

// Bind returns E, x ↦ v.
func (e *Env) Bind(x string, v Value) *Env { return &Env{name: x, val: v, next: e} }

// Lookup finds the innermost binding of x.
func (e *Env) Lookup(x string) (Value, bool) {
	for ; e != nil; e = e.next {
		if e.name == x {
			return e.val, true
		}
	}
	return Value{}, false
}

// vars reads variables by name: an environment, or the slots of
// compiled code (heapcompile.go). The rules' shared helpers read their
// variables through it, so both give the same values and errors.
type vars interface {
	Lookup(x string) (Value, bool)
}

// Read turns a value into the array it denotes in h (an integer stays a
// scalar): the elements L(y) for y in dom(L), in row-major order.
func Read(h *semantics.Heap, v Value) (semantics.Array, error) { return readJobs(h, v, 1) }

// readJobs is Read, copying a large dense array on up to jobs goroutines
// (semantics.CloneJobs): a run's results, read off its heap.
func readJobs(h *semantics.Heap, v Value, jobs int) (semantics.Array, error) {
	switch v.Kind {
	case IntVal:
		return v.Num().Array(), nil
	case BlockVal:
		return semantics.Array{}, fmt.Errorf("%v is a memory block, not a value to print", v.Block)
	}
	n, err := semantics.Count(v.L.Shape())
	if err != nil {
		return semantics.Array{}, err
	}
	b := h.Block(v.Block)
	// A dense layout inside the block is one copy; anything else (an
	// offset outside the block among them) walks the image.
	if k, ok := v.L.Dense(); ok && v.L.Offset >= 0 && v.L.Offset+k <= int64(len(b)) {
		data := make([]int64, 0) // an empty array's data is not nil, as below
		if k > 0 {
			data = semantics.CloneJobs(b[v.L.Offset:v.L.Offset+k], jobs)
		}
		return semantics.Array{Elem: v.Elem, Shape: v.L.Shape(), Data: data}, nil
	}
	out := semantics.Array{Elem: v.Elem, Shape: v.L.Shape(), Data: make([]int64, 0, n)}
	err = v.L.Image(func(off int64) error {
		if off < 0 || off >= int64(len(b)) {
			return fmt.Errorf("offset %d is outside block %v of size %d", off, v.Block, len(b))
		}
		out.Data = append(out.Data, b[off])
		return nil
	})
	return out, err
}

// ValuesString renders a tuple of values.
func ValuesString(vs []Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
