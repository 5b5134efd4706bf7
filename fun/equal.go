package fun

import "reflect"

// Equal reports whether p and q are the same program, node for node and
// position for position, extensions' nodes included: what
// reflect.DeepEqual reports of them, without the record of the pointers
// it has visited (a map, to end cycles), which made it a tenth of a
// property campaign's time. Trees have no cycles; values nested deeper
// than any tree (equalDepth) are called different, so that a cycle
// cannot recur for ever.
func Equal(p, q *Program) bool {
	return p == q || equalValue(reflect.ValueOf(p), reflect.ValueOf(q), 0)
}

const equalDepth = 10000

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
