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
// its witnesses, one int each, then its contents' results; a frame of
// boxes is one int array per witness over the frame, then the flat data
// of every box's contents (decodeBoxFrame).
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
			return decodeBoxFrame(a, sig, vals)
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

// decodeBoxFrame reads a frame of boxes laid out as a segmented array
// (Lower's boxFrameResults): one int array per witness over the frame,
// then the flat data, every box's contents in turn, each as long as its
// witnesses make the contents' type.
func decodeBoxFrame(a *remora.Arr, sig *remora.Sigma, vals []semantics.Array) (*remora.Value, []semantics.Array, error) {
	frame, ok := a.Shape.Const()
	if !ok {
		return nil, nil, fmt.Errorf("the frame %s is not constant", a.Shape)
	}
	if len(vals) < len(sig.Vars)+1 {
		return nil, nil, fmt.Errorf("missing the frame's witnesses or data")
	}
	n := 1
	for _, d := range frame {
		n *= int(d)
	}
	wits := vals[:len(sig.Vars)]
	for i, w := range wits {
		if w.Elem != semantics.IntElem && len(w.Data) > 0 || len(w.Data) != n {
			return nil, nil, fmt.Errorf("witness %s over the frame: %s", sig.Vars[i], w)
		}
	}
	data := vals[len(sig.Vars)]
	out := remora.NewValue(remora.KBox, append([]int64{}, frame...), n)
	off := 0
	for p := range n {
		sub := remora.Subst{}
		b := &remora.Box{Type: sig}
		for i, x := range sig.Vars {
			w := wits[i].Data[p]
			if w < 0 {
				return nil, nil, fmt.Errorf("witness %s is not a dimension: %d", x, w)
			}
			ix := remora.NatIndex(remora.NatConst(w))
			sub[x] = ix
			b.Indices = append(b.Indices, ix)
		}
		body := remora.CanonArr(remora.TypeSubst{Indices: sub}.Type(sig.Body))
		shape, ok := body.Shape.Const()
		if !ok {
			return nil, nil, fmt.Errorf("box %d's contents have the shape %s", p+1, body.Shape)
		}
		size := 1
		for _, d := range shape {
			size *= int(d)
		}
		if off+size > len(data.Data) {
			return nil, nil, fmt.Errorf("the data ends before box %d's contents", p+1)
		}
		seg := semantics.Array{Elem: data.Elem, Shape: shape, Data: data.Data[off : off+size]}
		v, _, err := decode(body, []semantics.Array{seg})
		if err != nil {
			return nil, nil, fmt.Errorf("box %d: %v", p+1, err)
		}
		off += size
		b.Val = v
		out.A[p] = b
	}
	if off != len(data.Data) {
		return nil, nil, fmt.Errorf("%d atoms of data are left after the boxes' contents", len(data.Data)-off)
	}
	return out, vals[len(sig.Vars)+1:], nil
}
