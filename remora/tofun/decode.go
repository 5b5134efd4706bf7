package tofun

import (
	"fmt"
	"math"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Decode turns the FUN results of a lowered program back into the lines
// the Remora interpreter prints, one per Remora expression: types are the
// expressions' types (remora.Program.Types) and vals the FUN program's
// results, laid out as Lower lays them out (doc.go): an int, float, bool
// or char array is one result (bools 0/1, chars code points); one box is
// its witnesses, one int each, then its contents' results.
func Decode(types []*remora.Arr, vals []semantics.Array) ([]string, error) {
	var lines []string
	for i, t := range types {
		v, rest, err := decode(t, vals)
		if err != nil {
			return nil, fmt.Errorf("Decode: result %d (of type %s): %v", i+1, remora.TypeString(t), err)
		}
		vals = rest
		lines = append(lines, v.String())
	}
	if len(vals) != 0 {
		return nil, fmt.Errorf("Decode: %d FUN results left over after the %d expressions", len(vals), len(types))
	}
	return lines, nil
}

// decode reads the value of type t off the front of vals.
func decode(t remora.Type, vals []semantics.Array) (*remora.Value, []semantics.Array, error) {
	a := remora.CanonArr(t)
	if sig, ok := a.Elem.(*remora.Sigma); ok {
		if len(a.Shape) != 0 {
			return nil, nil, fmt.Errorf("a frame of boxes has no FUN results")
		}
		if len(vals) < len(sig.Vars) {
			return nil, nil, fmt.Errorf("missing the box's witnesses")
		}
		sub := remora.Subst{}
		b := &remora.Box{Type: sig}
		for i, x := range sig.Vars {
			w := vals[i]
			if remora.IsShapeVar(x) || !w.IsScalar() || w.Elem != semantics.IntElem || w.Int() < 0 {
				return nil, nil, fmt.Errorf("witness %s is not a dimension: %s", x, w)
			}
			ix := remora.NatIndex(remora.NatConst(w.Int()))
			sub[x] = ix
			b.Indices = append(b.Indices, ix)
		}
		v, rest, err := decode(remora.TypeSubst{Indices: sub}.Type(sig.Body), vals[len(sig.Vars):])
		if err != nil {
			return nil, nil, err
		}
		b.Val = v
		return remora.AtomScalar(remora.KBox, b), rest, nil
	}
	if len(vals) == 0 {
		return nil, nil, fmt.Errorf("missing a result")
	}
	r := vals[0]
	var kind remora.Kind
	switch e := a.Elem.(type) {
	case *remora.Base:
		kind = map[string]remora.Kind{"int": remora.KInt, "float": remora.KFloat, "bool": remora.KBool, "char": remora.KChar}[e.Name]
	default:
		return nil, nil, fmt.Errorf("atoms of type %s have no FUN value", remora.TypeString(e))
	}
	shape := r.Shape
	if ds, ok := a.Shape.Const(); ok && !semantics.SameShape(ds, r.Shape) {
		if len(r.Data) != 0 || !hasZero(ds) {
			return nil, nil, fmt.Errorf("FUN gave shape %s", semantics.ShapeString(r.Shape))
		}
		// An empty array read back from printed text ("[]", what gpu-sim
		// prints) has lost its shape; the type has it.
		shape = ds
	}
	if len(r.Data) > 0 && (r.Elem == semantics.FloatElem) != (kind == remora.KFloat) {
		return nil, nil, fmt.Errorf("FUN gave %s", semantics.TypeString(r.Elem, r.Shape))
	}
	v := remora.NewValue(kind, append([]int64{}, shape...), len(r.Data))
	for i, x := range r.Data {
		switch kind {
		case remora.KFloat:
			v.F[i] = math.Float64frombits(uint64(x))
		case remora.KBool:
			if x != 0 && x != 1 {
				return nil, nil, fmt.Errorf("boolean %d is neither 0 nor 1", x)
			}
			v.I[i] = x
		default:
			v.I[i] = x
		}
	}
	return v, vals[1:], nil
}

// hasZero reports whether a shape has a zero dimension (no atoms).
func hasZero(ds []int64) bool {
	for _, d := range ds {
		if d == 0 {
			return true
		}
	}
	return false
}
