package datafile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// Prim is one of Futhark's primitive types, as its data files name them.
type Prim struct {
	Name  string // "i64", "u8", "f32", "bool", …
	Bytes int    // the size of one element in the binary format
	Kind  byte   // 'i' signed, 'u' unsigned, 'f' float, 'b' bool
}

// Prims are the primitive types of Futhark's data format.
var Prims = []Prim{
	{"i8", 1, 'i'}, {"i16", 2, 'i'}, {"i32", 4, 'i'}, {"i64", 8, 'i'},
	{"u8", 1, 'u'}, {"u16", 2, 'u'}, {"u32", 4, 'u'}, {"u64", 8, 'u'},
	{"f16", 2, 'f'}, {"f32", 4, 'f'}, {"f64", 8, 'f'},
	{"bool", 1, 'b'},
}

// PrimNamed is the primitive type of that name.
func PrimNamed(name string) (Prim, bool) {
	for _, p := range Prims {
		if p.Name == name {
			return p, true
		}
	}
	return Prim{}, false
}

// Elem is the element type of this project that holds the type's values.
func (p Prim) Elem() semantics.Elem {
	if p.Kind == 'f' {
		return semantics.FloatElem
	}
	return semantics.IntElem
}

// Range is the least and the greatest value of an integer type (bool: 0
// and 1) that this project's int64 holds: u64's greatest is 2^63-1.
func (p Prim) Range() (lo, hi int64) {
	bits := 8 * p.Bytes
	switch p.Kind {
	case 'b':
		return 0, 1
	case 'u':
		if bits == 64 {
			return 0, math.MaxInt64
		}
		return 0, 1<<bits - 1
	}
	if bits == 64 {
		return math.MinInt64, math.MaxInt64
	}
	return -1 << (bits - 1), 1<<(bits-1) - 1
}

// binaryName is the type's four characters in a binary header.
func (p Prim) binaryName() string { return fmt.Sprintf("%4s", p.Name) }

// DefaultPrim is the type a value of element type e is written as when
// nothing says otherwise: i64 or f64.
func DefaultPrim(e semantics.Elem) Prim {
	if e == semantics.FloatElem {
		return Prim{"f64", 8, 'f'}
	}
	return Prim{"i64", 8, 'i'}
}

// Type is the type of a value in a data file: a shape and a primitive
// type, written as Futhark writes it: [10][3]i64, f64, bool.
type Type struct {
	Shape []int64
	Prim  Prim
}

// String writes the type as ParseType reads it.
func (t Type) String() string {
	var b strings.Builder
	for _, d := range t.Shape {
		fmt.Fprintf(&b, "[%d]", d)
	}
	return b.String() + t.Prim.Name
}

// ParseType reads a type: sizes in brackets, then a primitive type
// ([10000000]i64, [3][4]f32, bool).
func ParseType(s string) (Type, error) {
	var t Type
	rest := strings.TrimSpace(s)
	for strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return Type{}, fmt.Errorf("type %q: missing ']'", s)
		}
		d, err := strconv.ParseInt(strings.TrimSpace(rest[1:end]), 10, 64)
		if err != nil || d < 0 {
			return Type{}, fmt.Errorf("type %q: a size is a count of elements, not %q", s, rest[1:end])
		}
		t.Shape = append(t.Shape, d)
		rest = rest[end+1:]
	}
	p, ok := PrimNamed(rest)
	if !ok {
		return Type{}, fmt.Errorf("type %q: %q is not one of %s", s, rest, primNames())
	}
	if len(t.Shape) > maxRank {
		return Type{}, fmt.Errorf("type %q: rank %d is more than %d", s, len(t.Shape), maxRank)
	}
	t.Prim = p
	return t, nil
}

// maxRank bounds the rank of a value, as semantics.ParseValue bounds the
// nesting of a literal.
const maxRank = 64

func primNames() string {
	names := make([]string, len(Prims))
	for i, p := range Prims {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}
