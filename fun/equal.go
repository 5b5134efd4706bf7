package fun

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Equal reports whether p and q are the same program, node for node and
// position for position, extensions' nodes included: what
// reflect.DeepEqual reports of them, without the record of the pointers
// it has visited (a map, to end cycles), which made it a tenth of a
// property campaign's time. Trees have no cycles; values nested deeper
// than any tree (equalDepth) are called different, so that a cycle
// cannot recur for ever.
//
// It compares as equalValue does, by a comparer made once for each type
// of node (eqOf): reading fields at their offsets rather than through
// reflect.Value, which was most of the time the campaigns spent
// comparing trees. TestEqualIsDeepEqual and TestEqualEdges compare the
// two with reflect.DeepEqual.
func Equal(p, q *Program) bool {
	if p == q {
		return true
	}
	return programEq(unsafe.Pointer(&p), unsafe.Pointer(&q), 0)
}

var programEq = eqOf(reflect.TypeFor[*Program]())

const equalDepth = 10000

// An eqFunc compares the values of one type at a and b, at depth (as
// equalValue does).
type eqFunc func(a, b unsafe.Pointer, depth int) bool

var (
	eqMu    sync.Mutex
	eqFuncs sync.Map // reflect.Type → eqFunc
)

// eqOf is the comparer of t's values.
func eqOf(t reflect.Type) eqFunc {
	if f, ok := eqFuncs.Load(t); ok {
		return f.(eqFunc)
	}
	eqMu.Lock()
	defer eqMu.Unlock()
	b := &eqBuilder{made: map[reflect.Type]*eqFunc{}}
	f := b.of(t)
	for t, g := range b.made {
		eqFuncs.LoadOrStore(t, *g)
	}
	return f
}

// eqBuilder makes the comparers of a type and the types it holds; a
// type that holds itself (a body's statements hold bodies) calls its
// own comparer through made.
type eqBuilder struct {
	made map[reflect.Type]*eqFunc
}

func (b *eqBuilder) of(t reflect.Type) eqFunc {
	if f, ok := eqFuncs.Load(t); ok {
		return f.(eqFunc)
	}
	if g, ok := b.made[t]; ok {
		return func(x, y unsafe.Pointer, d int) bool { return (*g)(x, y, d) }
	}
	g := new(eqFunc)
	b.made[t] = g
	*g = b.make(t)
	return *g
}

func (b *eqBuilder) make(t reflect.Type) eqFunc {
	switch t.Kind() {
	case reflect.Pointer:
		elem := b.of(t.Elem())
		return func(x, y unsafe.Pointer, d int) bool {
			if d > equalDepth {
				return false
			}
			p, q := *(*unsafe.Pointer)(x), *(*unsafe.Pointer)(y)
			if p == q {
				return true
			}
			if p == nil || q == nil {
				return false
			}
			return elem(p, q, d+1)
		}
	case reflect.Slice:
		elem, size := b.of(t.Elem()), t.Elem().Size()
		return func(x, y unsafe.Pointer, d int) bool {
			if d > equalDepth {
				return false
			}
			p, q := (*sliceHeader)(x), (*sliceHeader)(y)
			if (p.data == nil) != (q.data == nil) || p.len != q.len {
				return false
			}
			if p.data == q.data {
				return true
			}
			for i := range uintptr(p.len) {
				if !elem(unsafe.Add(p.data, i*size), unsafe.Add(q.data, i*size), d+1) {
					return false
				}
			}
			return true
		}
	case reflect.Array:
		elem, size, n := b.of(t.Elem()), t.Elem().Size(), uintptr(t.Len())
		return func(x, y unsafe.Pointer, d int) bool {
			if d > equalDepth {
				return false
			}
			for i := range n {
				if !elem(unsafe.Add(x, i*size), unsafe.Add(y, i*size), d+1) {
					return false
				}
			}
			return true
		}
	case reflect.Struct:
		type field struct {
			off uintptr
			eq  eqFunc
		}
		fs := make([]field, t.NumField())
		for i := range fs {
			f := t.Field(i)
			fs[i] = field{f.Offset, b.of(f.Type)}
		}
		// The same comparisons with the fields of nested structs in
		// line (a node's positions), and ints, bools and strings
		// compared in place rather than by their comparers' calls.
		ops, deepest := b.flat(t, 0, 1, nil)
		return func(x, y unsafe.Pointer, d int) bool {
			if d > equalDepth {
				return false
			}
			if d+deepest <= equalDepth { // no field is nested too deep
				for i := range ops {
					o := &ops[i]
					p, q := unsafe.Add(x, o.off), unsafe.Add(y, o.off)
					switch o.kind {
					case opInt64:
						if *(*int64)(p) != *(*int64)(q) {
							return false
						}
					case opString:
						if *(*string)(p) != *(*string)(q) {
							return false
						}
					case opInt32:
						if *(*int32)(p) != *(*int32)(q) {
							return false
						}
					case opInt16:
						if *(*int16)(p) != *(*int16)(q) {
							return false
						}
					case opInt8:
						if *(*int8)(p) != *(*int8)(q) {
							return false
						}
					default:
						if !o.eq(p, q, d+o.depth) {
							return false
						}
					}
				}
				return true
			}
			for _, f := range fs {
				if !f.eq(unsafe.Add(x, f.off), unsafe.Add(y, f.off), d+1) {
					return false
				}
			}
			return true
		}
	case reflect.String:
		return func(x, y unsafe.Pointer, d int) bool { return d <= equalDepth && *(*string)(x) == *(*string)(y) }
	case reflect.Bool:
		return func(x, y unsafe.Pointer, d int) bool { return d <= equalDepth && *(*bool)(x) == *(*bool)(y) }
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Uintptr:
		if t.Size() == 8 {
			return func(x, y unsafe.Pointer, d int) bool { return d <= equalDepth && *(*int64)(x) == *(*int64)(y) }
		}
	case reflect.Int32, reflect.Uint32:
		return func(x, y unsafe.Pointer, d int) bool { return d <= equalDepth && *(*int32)(x) == *(*int32)(y) }
	case reflect.Int16, reflect.Uint16:
		return func(x, y unsafe.Pointer, d int) bool { return d <= equalDepth && *(*int16)(x) == *(*int16)(y) }
	case reflect.Int8, reflect.Uint8:
		return func(x, y unsafe.Pointer, d int) bool { return d <= equalDepth && *(*int8)(x) == *(*int8)(y) }
	case reflect.Interface:
		// The dynamic value: a pointer (every node of an expression
		// but a few) is compared by its type's comparer, anything
		// else as equalValue compares it. The interface's first word
		// tells the dynamic type (one word per type, as the language's
		// == takes it), so the comparer of a pointer, or of a struct of
		// one pointer (a Var), which the interface holds in its second
		// word, is found by it (dynEqs) without reflect.
		dyn := &dynEqs{}
		return func(x, y unsafe.Pointer, d int) bool {
			if d > equalDepth {
				return false
			}
			if p, q := (*ifaceWords)(x), (*ifaceWords)(y); p.typ != q.typ {
				return false // of two dynamic types, or one nil
			} else if p.typ == nil {
				return true
			} else if f := dyn.of(t, x); f != nil {
				return f(p.data, q.data, d+1)
			}
			a, c := reflect.NewAt(t, x).Elem(), reflect.NewAt(t, y).Elem()
			if a.IsNil() || c.IsNil() {
				return a.IsNil() == c.IsNil()
			}
			a, c = a.Elem(), c.Elem()
			if a.Type() != c.Type() {
				return false
			}
			return equalMixed(a, c, d+1)
		}
	}
	// Floats (NaN is no float's equal), complex numbers, maps, funcs,
	// channels and unsafe pointers: as equalValue compares them.
	return func(x, y unsafe.Pointer, d int) bool {
		return equalValue(reflect.NewAt(t, x).Elem(), reflect.NewAt(t, y).Elem(), d)
	}
}

// A structOp compares one field of a struct (struct fields nested in it
// taken apart): in place, or by its comparer eq at its depth below the
// struct.
type structOp struct {
	off   uintptr
	kind  int
	eq    eqFunc
	depth int
}

const (
	opCall = iota
	opInt64
	opInt32
	opInt16
	opInt8
	opString
)

// flat appends to ops the comparisons of the fields of struct t, at
// offset off within the struct being compared and depth below it, and
// returns them with the deepest depth among them.
func (b *eqBuilder) flat(t reflect.Type, off uintptr, depth int, ops []structOp) ([]structOp, int) {
	deepest := depth
	for i := range t.NumField() {
		f := t.Field(i)
		o := structOp{off: off + f.Offset, depth: depth}
		switch f.Type.Kind() {
		case reflect.Struct:
			var d int
			ops, d = b.flat(f.Type, o.off, depth+1, ops)
			deepest = max(deepest, d)
			continue
		case reflect.String:
			o.kind = opString
		case reflect.Bool, reflect.Int8, reflect.Uint8:
			o.kind = opInt8
		case reflect.Int16, reflect.Uint16:
			o.kind = opInt16
		case reflect.Int32, reflect.Uint32:
			o.kind = opInt32
		case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Uintptr:
			o.kind = opInt64
			if f.Type.Size() != 8 {
				o.kind, o.eq = opCall, b.of(f.Type)
			}
		default:
			o.kind, o.eq = opCall, b.of(f.Type)
		}
		ops = append(ops, o)
	}
	return ops, deepest
}

// ifaceWords is an interface value as it lies in memory: its dynamic
// type's word (an itab, or a type for an empty interface) and its value's
// word.
type ifaceWords struct{ typ, data unsafe.Pointer }

// dynEqs are the comparers of an interface's dynamic values met so far,
// by their type's word: each compares two values' words (the pointers
// an interface holds), or is nil for a type held otherwise.
type dynEqs struct {
	mu   sync.Mutex
	seen atomic.Pointer[[]dynEq] // copied on write: read without the lock
}

type dynEq struct {
	typ unsafe.Pointer
	eq  eqFunc
}

// of is the comparer of the dynamic value of x, an interface of type t
// that is not nil.
func (e *dynEqs) of(t reflect.Type, x unsafe.Pointer) eqFunc {
	typ := (*ifaceWords)(x).typ
	if seen := e.seen.Load(); seen != nil {
		for _, s := range *seen {
			if s.typ == typ {
				return s.eq
			}
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var seen []dynEq
	if p := e.seen.Load(); p != nil {
		seen = *p
	}
	for _, s := range seen {
		if s.typ == typ {
			return s.eq
		}
	}
	// What equalMixed does of the value, on its word: a pointer is
	// compared by its type's comparer, a struct of one pointer by that
	// field's; the word is checked to be the pointer (as the language
	// lays out such values), else the type keeps the reflect path.
	v, data := reflect.NewAt(t, x).Elem().Elem(), (*ifaceWords)(x).data
	var eq eqFunc
	switch {
	case v.Kind() == reflect.Pointer && v.UnsafePointer() == data:
		elem := eqOf(v.Type().Elem())
		eq = func(p, q unsafe.Pointer, d int) bool {
			if d > equalDepth {
				return false
			}
			if p == q {
				return true
			}
			return p != nil && q != nil && elem(p, q, d+1)
		}
	case v.Kind() == reflect.Struct && v.NumField() == 1 && v.Field(0).Kind() == reflect.Pointer && v.Field(0).UnsafePointer() == data:
		elem := eqOf(v.Type().Field(0).Type.Elem())
		eq = func(p, q unsafe.Pointer, d int) bool {
			if d+1 > equalDepth {
				return false
			}
			if p == q {
				return true
			}
			return p != nil && q != nil && elem(p, q, d+2)
		}
	}
	seen = append(seen[:len(seen):len(seen)], dynEq{typ, eq})
	e.seen.Store(&seen)
	return eq
}

// sliceHeader is a slice as it lies in memory.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// equalMixed is equalValue of the dynamic values of two interfaces (one
// type): a pointer by its type's comparer, a struct field by field (a
// Var is an *Ident), anything else by equalValue.
func equalMixed(a, b reflect.Value, depth int) bool {
	if depth > equalDepth {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer: // as the pointer's comparer, without its address
		p, q := a.UnsafePointer(), b.UnsafePointer()
		if p == q {
			return true
		}
		if p == nil || q == nil {
			return false
		}
		return eqOf(a.Type().Elem())(p, q, depth+1)
	case reflect.Struct:
		for i := range a.NumField() {
			if !equalMixed(a.Field(i), b.Field(i), depth+1) {
				return false
			}
		}
		return true
	}
	return equalValue(a, b, depth)
}

// equalValue is reflect.DeepEqual's deepValueEqual for two values of one
// type, without its visited record.
func equalValue(a, b reflect.Value, depth int) bool {
	if depth > equalDepth {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		if a.IsNil() || b.IsNil() {
			return false
		}
		return equalValue(a.Elem(), b.Elem(), depth+1)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		x, y := a.Elem(), b.Elem()
		return x.Type() == y.Type() && equalValue(x, y, depth+1)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		for i := range a.Len() {
			if !equalValue(a.Index(i), b.Index(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := range a.Len() {
			if !equalValue(a.Index(i), b.Index(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !equalValue(a.Field(i), b.Field(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		it := a.MapRange()
		for it.Next() {
			y := b.MapIndex(it.Key())
			if !y.IsValid() || !equalValue(it.Value(), y, depth+1) {
				return false
			}
		}
		return true
	case reflect.Func:
		return a.IsNil() && b.IsNil()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	default: // channels, unsafe pointers
		return a.Pointer() == b.Pointer()
	}
}
