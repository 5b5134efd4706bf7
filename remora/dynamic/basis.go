package dynamic

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// PrimDef is a primitive of the dialect: its name, the cell rank of each
// argument, and its δ-rule. The rules are the typed basis's (remora.Basis)
// behind a run-time check of what the types would have guaranteed.
//
//   - Scalar primitives (+, sqrt, <, and, …) take scalar cells, so they
//     lift over any frame. Arithmetic is overloaded as in the Racket
//     implementation: Scalar lists the typed primitives that can run it,
//     ints first; an int argument where a float is wanted is converted, so
//     (- 1 0.2) is 0.8.
//   - The major-axis operators take cells of rank all (a scalar frame);
//     Cells checks its arguments and runs the typed rule at the shapes it
//     finds.
//   - The reduce and scan family has a Fold plan, run by the evaluators,
//     which apply the operator with lifting.
type PrimDef struct {
	Name  string
	Ranks []int
	// Scalar primitives (scalar.go): the δ-rule on atoms, the arity, and
	// the typed primitives that elaborate it (check --infer only).
	Op               scalarOp
	MinArgs, MaxArgs int
	IntFast          func(a, b int64) (int64, bool) // the int64 path of +, -, *; false on overflow
	Scalar           []*remora.PrimDef
	Cells            func(c *remora.Call, args []*remora.Value) (*remora.Value, error)
	Fold             *remora.FoldPlan
	Typed            string // the typed primitive whose plan Fold is, for messages
	Tree             bool   // reduce: the base only for no items, else treeReduce
}

// Basis maps names to primitives.
var Basis = map[string]*PrimDef{}

// BasisNames lists the basis, sorted (for the REPL's completion and docs).
func BasisNames() []string {
	return slices.Sorted(maps.Keys(Basis))
}

func define(name string, ranks ...int) *PrimDef {
	p := &PrimDef{Name: name, Ranks: ranks}
	Basis[name] = p
	return p
}

// typed is the typed basis's primitive name; the basis is built from it.
func typed(name string) *remora.PrimDef {
	p := remora.Basis[name]
	if p == nil {
		panic("dynamic basis: no typed primitive " + name)
	}
	return p
}

func cellsPrim(name string, ranks []int, f func(c *remora.Call, a []*remora.Value) (*remora.Value, error)) {
	define(name, ranks...).Cells = f
}

// foldPrim defines a member of the reduce and scan family. Every argument,
// the operator included, has cell rank all: "reduce always uses a scalar
// frame" (the library's docs), so an array of operators is applied as an
// array, cellwise, at each step of one fold ((reduce [+ *] … [1 2 3 4])
// is [10 24]) rather than lifting the fold over the operators.
func foldPrim(name, typedName string) {
	plan := typed(typedName).Fold
	ranks := []int{All, All}
	if plan.TakesInit() {
		ranks = []int{All, All, All}
	}
	p := define(name, ranks...)
	p.Fold, p.Typed = plan, typedName
}

func init() {
	define("if", 0, 0, 0)

	cellsPrim("iota", []int{1}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		ds, err := dims(c, "iota", a[0])
		if err != nil {
			return nil, err
		}
		c.Indices = []remora.Index{remora.ShapeIndex(remora.Dims(ds...))}
		return typed("iota").Cells(c, nil)
	})
	cellsPrim("length", []int{All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if err := major(c, "length", a[0]); err != nil {
			return nil, err
		}
		return remora.IntScalar(a[0].Shape[0]), nil
	})
	cellsPrim("shape-of", []int{All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		out := remora.NewValue(remora.KInt, []int64{int64(len(a[0].Shape))}, len(a[0].Shape))
		copy(out.I, a[0].Shape)
		return out, nil
	})
	cellsPrim("append", []int{All, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		for _, x := range a {
			if err := major(c, "append", x); err != nil {
				return nil, err
			}
		}
		if !semantics.SameShape(a[0].Shape[1:], a[1].Shape[1:]) {
			return nil, stuck(c, "append", "items of shapes %s and %s cannot be joined", shapeString(a[0].Shape[1:]), shapeString(a[1].Shape[1:]))
		}
		xs, err := sameKind(c, "append", a[0], a[1])
		if err != nil {
			return nil, err
		}
		return typed("append").Cells(c, xs)
	})
	majorOp("reverse", "reverse", []int{All})
	cellsPrim("rotate", []int{All, 0}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if err := major(c, "rotate", a[0]); err != nil {
			return nil, err
		}
		if err := intScalar(c, "rotate", "its shift", a[1]); err != nil {
			return nil, err
		}
		if a[0].Shape[0] == 0 {
			return a[0], nil
		}
		return typed("rotate").Cells(c, a)
	})
	// The library's names (library docs): head and tail are the first and
	// last items, behead and curtail drop them. The typed dialect's tail
	// is behead (ERRATA R16).
	majorOp("head", "head", []int{All})
	itemOp("tail", func(v *remora.Value) *remora.Value { return v.Item(int(v.Shape[0]) - 1) })
	itemOp("behead", func(v *remora.Value) *remora.Value { return typedCells("tail", v) })
	itemOp("curtail", func(v *remora.Value) *remora.Value { return subItems(v, 0, int(v.Shape[0])-1) })
	cellsPrim("itemize", []int{All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		return a[0].Reshape(append([]int64{1}, a[0].Shape...)), nil
	})
	// reshape fills the new shape with the array's atoms in row-major
	// order, cycling through them if there are too few and dropping the
	// rest if there are too many (library docs; the typed core's reshape
	// wants the counts equal, ERRATA R16).
	cellsPrim("reshape", []int{1, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		ds, err := dims(c, "reshape", a[0])
		if err != nil {
			return nil, err
		}
		return cycle(c, "reshape", ds, a[1])
	})
	cellsPrim("replicate", []int{1, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		ds, err := dims(c, "replicate", a[0])
		if err != nil {
			return nil, err
		}
		c.Indices = []remora.Index{remora.ShapeIndex(remora.Dims(ds...))}
		return typed("replicate").Cells(c, a[1:])
	})
	cellsPrim("index", []int{All, 1}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		pos, err := ints(c, "index", "a position", a[1])
		if err != nil {
			return nil, err
		}
		if len(pos) > len(a[0].Shape) {
			return nil, stuck(c, "index", "a position of %d numbers into an array of rank %d", len(pos), len(a[0].Shape))
		}
		c.Indices = []remora.Index{remora.ShapeIndex(remora.Dims(a[0].Shape[:len(pos)]...))}
		return typed("index").Cells(c, a)
	})
	cellsPrim("subvector", []int{All, 0, 0}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if err := major(c, "subvector", a[0]); err != nil {
			return nil, err
		}
		for _, x := range a[1:] {
			if err := intScalar(c, "subvector", "an offset and a length", x); err != nil {
				return nil, err
			}
		}
		if a[2].I[0] < 0 {
			return nil, stuck(c, "subvector", "a length cannot be negative, got %d", a[2].I[0])
		}
		c.Indices = []remora.Index{remora.NatIndex(remora.NatConst(a[0].Shape[0])), remora.NatIndex(remora.NatConst(a[2].I[0]))}
		return typed("subvector").Cells(c, a[:2])
	})
	cellsPrim("scatter", []int{All, 1, 0}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if err := major(c, "scatter", a[0]); err != nil {
			return nil, err
		}
		pos, err := ints(c, "scatter", "positions", a[1])
		if err != nil {
			return nil, err
		}
		if int64(len(pos)) != a[0].Shape[0] {
			return nil, stuck(c, "scatter", "%d positions for %d items", len(pos), a[0].Shape[0])
		}
		if err := intScalar(c, "scatter", "a length", a[2]); err != nil {
			return nil, err
		}
		if a[2].I[0] < 0 {
			return nil, stuck(c, "scatter", "a length cannot be negative, got %d", a[2].I[0])
		}
		c.Indices = []remora.Index{remora.NatIndex(remora.NatConst(a[0].Shape[0])), remora.NatIndex(remora.NatConst(a[2].I[0]))}
		if a[0].Kind == remora.KNum {
			// Exact numbers are atoms the typed rule cannot fill holes of:
			// scatter their positions among the ints, then read them back,
			// the holes 0.
			idx := remora.NewValue(remora.KInt, a[0].Shape, a[0].Len())
			for i := range idx.I {
				idx.I[i] = int64(i) + 1
			}
			where, err := typed("scatter").Cells(c, []*remora.Value{idx, a[1]})
			if err != nil {
				return nil, err
			}
			out := remora.NewValue(remora.KNum, where.Shape, where.Len())
			for i, w := range where.I {
				out.A[i] = &Num{R: intNum(0).rat()}
				if w > 0 {
					out.A[i] = a[0].A[w-1]
				}
			}
			return out, nil
		}
		return typed("scatter").Cells(c, a[:2])
	})
	// (filter bools items), in the library's order (the typed filter
	// takes the items first, ERRATA R16).
	cellsPrim("filter", []int{1, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		return filter(c, "filter", a[0], a[1])
	})
	cellsPrim("box", []int{All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		return boxValue(a[0]), nil
	})

	foldPrim("reduce", "reduce-init")
	Basis["reduce"].Tree = true
	foldPrim("scan", "scan-init")
	foldPrim("iscan", "iscan")
	foldPrim("iscan-init", "iscan-init")
	foldPrim("fold", "fold")
	foldPrim("fold-right", "fold-right")
	// The library's names for them (its basis tests): foldl's operator
	// takes (acc item) from the first item, foldr's (item acc) from the
	// last.
	foldPrim("foldl", "fold")
	foldPrim("foldr", "fold-right")
	foldPrim("trace", "trace")
	foldPrim("trace-right", "trace-right")
}

// itemOp is a function of a non-empty array's items.
func itemOp(name string, f func(v *remora.Value) *remora.Value) {
	cellsPrim(name, []int{All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if err := major(c, name, a[0]); err != nil {
			return nil, err
		}
		if a[0].Shape[0] == 0 {
			return nil, stuck(c, name, "the array has no items")
		}
		return f(a[0]), nil
	})
}

// typedCells runs a typed primitive that needs no index arguments.
func typedCells(name string, args ...*remora.Value) *remora.Value {
	v, _ := typed(name).Cells(&remora.Call{}, args)
	return v
}

// subItems is the n items of v from item off.
func subItems(v *remora.Value, off, n int) *remora.Value {
	size := product(v.Shape[1:])
	out := remora.NewValue(v.Kind, append([]int64{int64(n)}, v.Shape[1:]...), n*size)
	if n*size > 0 {
		remora.CopyAtoms(out, 0, v, off*size, n*size)
	}
	return out
}

// cycle is an array of shape ds filled with v's atoms in row-major
// order, repeated as often as needed.
func cycle(c *remora.Call, name string, ds []int64, v *remora.Value) (*remora.Value, error) {
	n := product(ds)
	if n > 0 && v.Len() == 0 {
		return nil, stuck(c, name, "cannot fill the shape %s from an empty array", shapeString(ds))
	}
	out := remora.NewValue(v.Kind, ds, n)
	for i := 0; i < n; i += v.Len() {
		remora.CopyAtoms(out, i, v, 0, min(v.Len(), n-i))
	}
	return out, nil
}

// filter keeps the items of items whose boolean in bools is true.
func filter(c *remora.Call, name string, bools, items *remora.Value) (*remora.Value, error) {
	if err := major(c, name, items); err != nil {
		return nil, err
	}
	// An empty mask may have any kind: the dialect's empty arrays carry no
	// atom kind (ERRATA R10).
	if bools.Len() != int(items.Shape[0]) || bools.Kind != remora.KBool && bools.Len() > 0 || len(bools.Shape) != 1 {
		return nil, stuck(c, name, "wants %d booleans, one per item, got %s", items.Shape[0], describe(bools))
	}
	var keep []*remora.Value
	for i, b := range bools.I {
		if b != 0 {
			keep = append(keep, items.Item(i))
		}
	}
	return remora.Stack([]int64{int64(len(keep))}, items.Shape[1:], items.Kind, keep), nil
}

// treeReduce is the library's reduce of a non-empty array's items: a
// tree, not a left fold (library docs: the base is used only when the
// array is empty, and the operator is assumed associative). Adjacent items
// are combined pairwise, level by level, an odd item out carried to the
// next level: [a b c d e] is ((a·b)·(c·d))·e. For an associative operator
// this is the left fold's value; for one that is not, it is this shape's
// (ERRATA R16).
func treeReduce[T any](op T, items []T, apply func(f, a, b T) (T, error)) (T, error) {
	for len(items) > 1 {
		next := make([]T, 0, (len(items)+1)/2)
		for i := 0; i+1 < len(items); i += 2 {
			v, err := apply(op, items[i], items[i+1])
			if err != nil {
				var zero T
				return zero, err
			}
			next = append(next, v)
		}
		if len(items)%2 == 1 {
			next = append(next, items[len(items)-1])
		}
		items = next
	}
	return items[0], nil
}

// majorOp is a typed primitive on the major axis of a non-empty array.
func majorOp(name, typedName string, ranks []int) {
	cellsPrim(name, ranks, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if err := major(c, name, a[0]); err != nil {
			return nil, err
		}
		if name == "head" && a[0].Shape[0] == 0 {
			return nil, stuck(c, name, "the array has no items")
		}
		return typed(typedName).Cells(c, a)
	})
}

func stuck(c *remora.Call, name, format string, args ...any) error {
	return semantics.Stuckf(c.Pos, remora.RuleDelta.Name, "%s: %s", name, fmt.Sprintf(format, args...))
}

// major checks that a has a major axis.
func major(c *remora.Call, name string, a *remora.Value) error {
	if len(a.Shape) == 0 {
		return stuck(c, name, "wants an array with a major axis, got the scalar %s", a)
	}
	return nil
}

func intScalar(c *remora.Call, name, what string, a *remora.Value) error {
	if a.Kind != remora.KInt || len(a.Shape) != 0 {
		return stuck(c, name, "%s is an int, got %s", what, describe(a))
	}
	return nil
}

// ints reads a vector of ints.
func ints(c *remora.Call, name, what string, a *remora.Value) ([]int64, error) {
	if len(a.Shape) != 1 || a.Kind != remora.KInt && a.Len() > 0 {
		return nil, stuck(c, name, "%s is a vector of ints, got %s", what, describe(a))
	}
	return a.I, nil
}

// dims reads a shape: a vector of naturals.
func dims(c *remora.Call, name string, a *remora.Value) ([]int64, error) {
	ds, err := ints(c, name, "a shape", a)
	if err != nil {
		return nil, err
	}
	for _, d := range ds {
		if d < 0 {
			return nil, stuck(c, name, "a shape's dimensions are naturals, got %s", a)
		}
	}
	if _, err := semantics.Count(ds); err != nil {
		return nil, stuck(c, name, "%v", err)
	}
	return append([]int64{}, ds...), nil
}

// sameKind brings two arrays to one atom kind, joining numbers as a
// collapse does (ints with exact numbers as exact, exact with floats as
// floats); an empty array takes the other's kind.
func sameKind(c *remora.Call, name string, a, b *remora.Value) ([]*remora.Value, error) {
	switch {
	case a.Kind == b.Kind || a.Len() == 0 || b.Len() == 0:
		return []*remora.Value{a, b}, nil
	case isNum(a.Kind) && isNum(b.Kind):
		k := joinKinds(a.Kind, b.Kind)
		return []*remora.Value{toKind(a, k), toKind(b, k)}, nil
	}
	return nil, stuck(c, name, "cannot join %s atoms with %s atoms", a.Kind, b.Kind)
}

// toFloat is an int array's atoms as floats.
func toFloat(v *remora.Value) *remora.Value {
	out := remora.NewValue(remora.KFloat, v.Shape, v.Len())
	for i, x := range v.I {
		out.F[i] = float64(x)
	}
	return out
}

// describe names a value for a message: the value if it is short, else
// its kind and shape.
func describe(v *remora.Value) string {
	if v.Len() <= 8 && len(v.Shape) <= 2 {
		return v.String()
	}
	return fmt.Sprintf("an array of %s atoms of shape %s", v.Kind, shapeString(v.Shape))
}

// kindsString lists the atom kinds of arguments: "int and bool".
func kindsString(args []*remora.Value) string {
	ks := make([]string, len(args))
	for i, a := range args {
		ks[i] = a.Kind.String()
	}
	return strings.Join(ks, " and ")
}

// typedAt reports whether a scalar primitive applied to n arguments has
// typed primitives that can run it.
func (p *PrimDef) typedAt(n int) bool {
	return len(p.Scalar) > 0 && len(p.Scalar[0].ParamKinds()) == n
}

// resolve picks the typed primitive that runs a scalar δ-rule on
// arguments of these kinds: the first that takes them as they are, else
// the first that takes them with ints converted to floats.
func (p *PrimDef) resolve(c *remora.Call, args []*remora.Value) (*remora.PrimDef, []*remora.Value, error) {
	for _, convert := range []bool{false, true} {
	next:
		for _, impl := range p.Scalar {
			ks := impl.ParamKinds()
			out := append([]*remora.Value{}, args...)
			for i, a := range args {
				switch {
				case a.Kind == ks[i]:
				case convert && a.Kind == remora.KInt && ks[i] == remora.KFloat:
					out[i] = toFloat(a)
				default:
					continue next
				}
			}
			return impl, out, nil
		}
	}
	want := make([]string, len(p.Scalar))
	for i, impl := range p.Scalar {
		ks := impl.ParamKinds()
		ss := make([]string, len(ks))
		for j, k := range ks {
			ss[j] = k.String()
		}
		want[i] = "(" + strings.Join(ss, " ") + ")"
	}
	return nil, nil, stuck(c, p.Name, "takes %s, got %s", strings.Join(want, " or "), kindsString(args))
}
