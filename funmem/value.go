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
	IntVal   Kind = iota // an integer k
	BlockVal             // a heap label ℓ
	ArrayVal             // an array (ℓ, L): a block and an LMAD value
)

// Value is a value of the heap-based semantics.
type Value struct {
	Kind  Kind
	K     int64
	Block semantics.Label
	L     semantics.LMAD
}

// String renders a value: 42, ℓ3, (ℓ3, 0 + {(3 : 1)}).
func (v Value) String() string {
	switch v.Kind {
	case BlockVal:
		return v.Block.String()
	case ArrayVal:
		return fmt.Sprintf("(%v, %v)", v.Block, v.L)
	}
	return fmt.Sprint(v.K)
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

// Read turns a value into the array it denotes in h (an integer stays a
// scalar): the elements L(y) for y in dom(L), in row-major order.
func Read(h *semantics.Heap, v Value) (semantics.Array, error) {
	switch v.Kind {
	case IntVal:
		return semantics.Scalar(v.K), nil
	case BlockVal:
		return semantics.Array{}, fmt.Errorf("%v is a memory block, not a value to print", v.Block)
	}
	n, err := semantics.Count(v.L.Shape())
	if err != nil {
		return semantics.Array{}, err
	}
	b := h.Block(v.Block)
	out := semantics.Array{Shape: v.L.Shape(), Data: make([]int64, 0, n)}
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
