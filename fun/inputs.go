package fun

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/semantics"
	"github.com/arraysem/arraysem/semantics/datafile"
)

// BindInputs builds the environment of a program's inputs from --arg
// values (name → literal). An int input that sizes an array input may be
// left out: it is then read off the array's shape. Errors are of kind
// InputError.
//
// A value may be in a file: NAME=@FILE reads it from FILE (a data file of
// one value, package datafile), and the key datafile.DataArg names a data
// file holding a whole input set (--data FILE), bound by DataInputs.
func BindInputs(p *Program, args map[string]string) (*Env, error) {
	declared := map[string]*Param{}
	for _, in := range p.Inputs {
		declared[in.Name.Name] = in
	}
	var unknown []string
	for name := range args {
		if declared[name] == nil && name != datafile.DataArg {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, inputErr(p, nil, "--arg %s: the program declares no input of that name%s", strings.Join(unknown, ", "), declaredList(p))
	}
	vals := map[string]semantics.Array{}
	// via says where each value came from, for messages: "--arg",
	// "--arg xs=@xs.in", "--data d.in (value 2, d.in:1:9)".
	via := map[string]string{}
	for name, text := range args {
		if name == datafile.DataArg {
			continue
		}
		var v semantics.Array
		if file, ok := strings.CutPrefix(text, "@"); ok {
			dv, err := datafile.ReadOne(file)
			if err != nil {
				return nil, err
			}
			v, via[name] = dv.Array, "--arg "+name+"="+text
		} else {
			var err error
			if v, err = semantics.ParseValue(text); err != nil {
				return nil, inputErr(p, declared[name], "--arg %s=%s: %v", name, text, err)
			}
			via[name] = "--arg"
		}
		vals[name] = v
	}
	if file, ok := args[datafile.DataArg]; ok {
		ins, vs, err := DataInputs(p, file)
		if err != nil {
			return nil, err
		}
		for i, in := range ins {
			name := in.Name.Name
			if _, twice := vals[name]; twice {
				return nil, inputErr(p, in, "input %s is given twice: by %s and by --data %s (%s)", name, via[name], file, vs[i].Describe(i))
			}
			vals[name], via[name] = vs[i].Array, fmt.Sprintf("--data %s (%s)", file, vs[i].Describe(i))
		}
	}
	for name, v := range vals {
		in := declared[name]
		if len(v.Data) == 0 && !v.IsScalar() {
			v.Elem = in.Type.Elem // an empty literal has no element type of its own
		}
		if v.Elem != in.Type.Elem {
			return nil, inputErr(p, in, "input %s has type %s, but %s gives %s (no implicit conversions: write %s)", name, in.Type, via[name], describe(v), exampleOf(in.Type.Elem))
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
				return nil, inputErr(p, in, "input %s is %s, but %s gives an array of shape %s", in.Name.Name, article(in.Type.Elem), via[in.Name.Name], semantics.ShapeString(v.Shape))
			}
			continue
		}
		if v.Rank() < in.Type.Rank() && v.Rank() > 0 && len(v.Data) == 0 && v.Shape[v.Rank()-1] == 0 {
			empties = append(empties, in)
			continue
		}
		if v.Rank() != in.Type.Rank() {
			return nil, inputErr(p, in, "input %s has type %s, but %s gives %s", in.Name.Name, in.Type, via[in.Name.Name], describe(v))
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

// DataInputs reads the data file of a whole input set (--data FILE) and
// says which input each of its values is: the file's values go to the
// program's inputs in order, or, when it holds fewer, to the inputs that
// are not sizes of array inputs, whose sizes are then read off the arrays
// (a Futhark data set gives only the arrays). Any other count of values
// is an error.
func DataInputs(p *Program, file string) ([]*Param, []datafile.Value, error) {
	vs, err := datafile.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	sizes := map[string]bool{}
	for _, in := range p.Inputs {
		for _, d := range in.Type.Dims {
			sizes[d.Name] = true
		}
	}
	var free []*Param
	for _, in := range p.Inputs {
		if !sizes[in.Name.Name] {
			free = append(free, in)
		}
	}
	switch len(vs) {
	case len(p.Inputs):
		return p.Inputs, vs, nil
	case len(free):
		return free, vs, nil
	}
	names := func(ps []*Param) string {
		var out []string
		for _, in := range ps {
			out = append(out, in.Name.Name)
		}
		return strings.Join(out, ", ")
	}
	want := fmt.Sprintf("%s (%s)", semantics.Plural(len(p.Inputs), "input"), names(p.Inputs))
	if len(free) < len(p.Inputs) {
		want += fmt.Sprintf(", or %d without the sizes read off arrays (%s)", len(free), names(free))
	}
	if len(p.Inputs) == 0 {
		want = "no inputs"
	}
	return nil, nil, inputErr(p, nil, "--data %s holds %s, but the program takes %s", file, semantics.Plural(len(vs), "value"), want)
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
