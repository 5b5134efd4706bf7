package tofun

import (
	"fmt"
	"slices"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// FormatOf is the result format (semantics.Format) of a lowered program
// whose expressions have these types, in Lower's layout (doc.go): an int,
// float, bool or char array is one result (bools 0/1, chars code
// points); one box is its witnesses, one int each, then its contents'
// results; a frame of boxes is one int array per witness over the
// frame, then the flat data of every box's contents. Lower gives it to
// the FUN program it makes, and every level below carries it, so that
// each prints as the Remora program does.
func FormatOf(types []*remora.Arr) (*semantics.Format, error) {
	f := &semantics.Format{Source: remora.Language.Name()}
	for i, t := range types {
		it, err := formatItem(t)
		if err != nil {
			return nil, fmt.Errorf("result %d (of type %s): %v", i+1, remora.TypeString(t), err)
		}
		f.Items = append(f.Items, it)
	}
	return f, nil
}

// atoms are the result format's atoms of the base types.
var atoms = map[string]semantics.ResultAtom{"int": semantics.AtomInt, "float": semantics.AtomFloat, "bool": semantics.AtomBool, "char": semantics.AtomChar}

func formatItem(t remora.Type) (semantics.FormatItem, error) {
	a := remora.CanonArr(t)
	switch e := a.Elem.(type) {
	case *remora.Base:
		at, ok := atoms[e.Name]
		if !ok {
			return semantics.FormatItem{}, fmt.Errorf("atoms of type %s have no FUN value", e.Name)
		}
		return semantics.FormatItem{Atom: at}, nil
	case *remora.Sigma:
		for _, x := range e.Vars {
			if remora.IsShapeVar(x) {
				return semantics.FormatItem{}, fmt.Errorf("the box's witness %s is a Shape, which has no FUN value", x)
			}
		}
		body, err := formatItem(e.Body)
		if err != nil {
			return body, err
		}
		x := &semantics.BoxFormat{Witnesses: len(e.Vars), Body: body}
		if len(a.Shape) == 0 {
			return semantics.FormatItem{Box: x}, nil
		}
		frame, ok := a.Shape.Const()
		if !ok {
			return semantics.FormatItem{}, fmt.Errorf("the frame %s of boxes is not constant", a.Shape)
		}
		x.Frame = len(frame)
		if len(e.Vars) == 0 {
			return semantics.FormatItem{}, fmt.Errorf("a frame of boxes that hide no dimension (boxes of scalars): the segmented array's frame is read off the witnesses")
		}
		if body.Box != nil {
			return semantics.FormatItem{}, fmt.Errorf("a frame of boxes of boxes")
		}
		for _, it := range remora.CanonArr(e.Body).Shape {
			if it.Var != "" {
				return semantics.FormatItem{}, fmt.Errorf("the contents' shape splices the Shape %s", it.Var)
			}
			n := semantics.NatSum{Const: it.Dim.Const}
			for _, v := range it.Dim.Vars {
				k := slices.Index(e.Vars, v)
				if k < 0 {
					return semantics.FormatItem{}, fmt.Errorf("the contents' dimension %s is not the box's", v)
				}
				n.Vars = append(n.Vars, k+1)
			}
			x.Dims = append(x.Dims, n)
		}
		return semantics.FormatItem{Box: x}, nil
	}
	return semantics.FormatItem{}, fmt.Errorf("atoms of type %s have no FUN value", remora.TypeString(a.Elem))
}

// Decode turns the FUN results of a lowered program back into the lines
// the Remora interpreter prints, one per Remora expression of these
// types (FormatOf, then its Lines).
func Decode(types []*remora.Arr, vals []semantics.Array) ([]string, error) {
	f, err := FormatOf(types)
	if err != nil {
		return nil, err
	}
	return f.Lines(vals)
}
