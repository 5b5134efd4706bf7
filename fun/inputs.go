package fun

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// BindInputs builds the environment of a program's inputs from --arg
// values (name → literal). An int input that sizes an array input may be
// left out: it is then read off the array's shape. Errors are of kind
// InputError.
func BindInputs(p *Program, args map[string]string) (*Env, error) {
	declared := map[string]*Param{}
	for _, in := range p.Inputs {
		declared[in.Name.Name] = in
	}
	var unknown []string
	for name := range args {
		if declared[name] == nil {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, inputErr(p, nil, "--arg %s: the program declares no input of that name%s", strings.Join(unknown, ", "), declaredList(p))
	}
	vals := map[string]semantics.Array{}
	for name, text := range args {
		v, err := semantics.ParseValue(text)
		if err != nil {
			return nil, inputErr(p, declared[name], "--arg %s=%s: %v", name, text, err)
		}
		in := declared[name]
		if len(v.Data) == 0 && !v.IsScalar() {
			v.Elem = in.Type.Elem // an empty literal has no element type of its own
		}
		if v.Elem != in.Type.Elem {
			return nil, inputErr(p, in, "input %s has type %s, but --arg gives %s (no implicit conversions: write %s)", name, in.Type, describe(v), exampleOf(in.Type.Elem))
		}
		vals[name] = v
	}
	// Check ranks, and read sizes off arrays. An empty literal ([] or
	// [[] []]) has too few dimensions to say its inner sizes: those come
	// from the other inputs, once they are known.
	var empties []*Param
	for _, in := range p.Inputs {
		v, ok := vals[in.Name.Name]
		if !ok || in.Type.IsScalar() {
			if ok && !v.IsScalar() {
				return nil, inputErr(p, in, "input %s is %s, but --arg gives an array of shape %s", in.Name.Name, article(in.Type.Elem), semantics.ShapeString(v.Shape))
			}
			continue
		}
		if v.Rank() < in.Type.Rank() && v.Rank() > 0 && len(v.Data) == 0 && v.Shape[v.Rank()-1] == 0 {
			empties = append(empties, in)
			continue
		}
		if v.Rank() != in.Type.Rank() {
			return nil, inputErr(p, in, "input %s has type %s, but --arg gives %s", in.Name.Name, in.Type, describe(v))
		}
		for i, d := range in.Type.Dims {
			size := semantics.Scalar(v.Shape[i])
			if old, ok := vals[d.Name]; ok {
				if !old.IsScalar() || old.Int() != v.Shape[i] {
					return nil, inputErr(p, in, "input %s has %d elements in dimension %d, but its size %s is %s", in.Name.Name, v.Shape[i], i+1, d.Name, old)
				}
				continue
			}
			vals[d.Name] = size
		}
	}
	for _, in := range empties {
		v := vals[in.Name.Name]
		shape := append([]int64(nil), v.Shape...)
		for i := v.Rank(); i < in.Type.Rank(); i++ {
			d := in.Type.Dims[i]
			size, ok := vals[d.Name]
			if !ok {
				return nil, inputErr(p, in, "input %s is empty, so its size %s in dimension %d must be given (--arg %s=N)", in.Name.Name, d.Name, i+1, d.Name)
			}
			shape = append(shape, size.Int())
		}
		for i := 0; i < v.Rank(); i++ {
			d := in.Type.Dims[i]
			if old, ok := vals[d.Name]; ok && old.Int() != shape[i] {
				return nil, inputErr(p, in, "input %s has %d elements in dimension %d, but its size %s is %s", in.Name.Name, shape[i], i+1, d.Name, old)
			}
			vals[d.Name] = semantics.Scalar(shape[i])
		}
		vals[in.Name.Name] = semantics.Array{Elem: in.Type.Elem, Shape: shape, Data: []int64{}}
	}
	var env *Env
	var missing []*Param
	for _, in := range p.Inputs {
		v, ok := vals[in.Name.Name]
		if !ok {
			missing = append(missing, in)
			continue
		}
		env = env.Bind(in.Name.Name, v)
	}
	if len(missing) > 0 {
		// A size that a missing array gives is not asked for as well.
		sized := map[string]bool{}
		for _, in := range missing {
			for _, d := range in.Type.Dims {
				sized[d.Name] = true
			}
		}
		var ask []*Param
		for _, in := range missing {
			if !in.Type.IsScalar() || !sized[in.Name.Name] {
				ask = append(ask, in)
			}
		}
		return nil, missingInputs(p, ask)
	}
	return env, nil
}

// missingInputs names every input not given, in one message at the
// first one's declaration, so that one more try gives them all.
func missingInputs(p *Program, missing []*Param) error {
	if len(missing) == 1 {
		in := missing[0]
		return inputErr(p, in, "missing input %s : %s (give it with --arg %s=VALUE)", in.Name.Name, in.Type, in.Name.Name)
	}
	decls := make([]string, len(missing))
	flags := make([]string, len(missing))
	for i, in := range missing {
		decls[i] = in.Name.Name + " : " + in.Type.String()
		flags[i] = "--arg " + in.Name.Name + "=VALUE"
	}
	return inputErr(p, missing[0], "missing inputs %s (give them with %s)", strings.Join(decls, ", "), strings.Join(flags, " "))
}

func describe(v semantics.Array) string {
	if v.IsScalar() {
		return article(v.Elem) + " " + v.String()
	}
	if v.Elem == semantics.FloatElem {
		return "a float array of shape " + semantics.ShapeString(v.Shape)
	}
	return "an array of shape " + semantics.ShapeString(v.Shape)
}

// exampleOf shows how a literal of element type el is written.
func exampleOf(el semantics.Elem) string {
	if el == semantics.FloatElem {
		return "floats with a '.' or an exponent, e.g. 2.0"
	}
	return "ints without a '.', e.g. 2"
}

func declaredList(p *Program) string {
	if len(p.Inputs) == 0 {
		return " (it has no inputs)"
	}
	return " (inputs: " + PrintPattern(p.Inputs) + ")"
}

func inputErr(p *Program, in *Param, format string, args ...any) error {
	pos := semantics.Pos{File: p.File, Line: 1, Col: 1}
	if in != nil {
		pos = in.Lparen
	}
	return semantics.Errorf(pos, semantics.InputError, "", "%s", fmt.Sprintf(format, args...))
}
