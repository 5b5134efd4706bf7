package proofstests

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// refVal is a value: rank 0 (a scalar) or an array, row-major. A float
// scalar (float set) holds its IEEE bits.
type refVal struct {
	shape []int64
	data  []int64
	float bool
}

func refScalar(k int64) refVal { return refVal{data: []int64{k}} }

// refStuck is a stuck state of the reference evaluator.
type refStuck struct{ rule, msg string }

func (e *refStuck) Error() string { return e.rule + ": " + e.msg }

func stuckf(rule, format string, args ...any) error {
	return &refStuck{rule, fmt.Sprintf(format, args...)}
}

// refEnv is an environment: a list, innermost binding first.
type refEnv struct {
	name string
	val  refVal
	next *refEnv
}

func (e *refEnv) bind(x string, v refVal) *refEnv { return &refEnv{x, v, e} }

func (e *refEnv) get(x string) refVal {
	for ; e != nil; e = e.next {
		if e.name == x {
			return e.val
		}
	}
	panic("reference evaluator: unbound " + x) // the program is well typed
}

func (e *refEnv) int(x *fun.Ident) int64 { return e.get(x.Name).data[0] }

func refRun(c *Case, p *fun.Program) ([]refVal, error) {
	var env *refEnv
	vals := map[string]semantics.Array{}
	for _, in := range c.Inputs {
		vals[in.Name] = in.Value
	}
	for _, in := range p.Inputs {
		v := vals[in.Name.Name]
		env = env.bind(in.Name.Name, refVal{shape: append([]int64(nil), v.Shape...), data: append([]int64(nil), v.Data...)})
	}
	return refBody(env, p.Body)
}

// refBody is E-LET for each statement, then E-IN.
func refBody(env *refEnv, b *fun.Body) ([]refVal, error) {
	for _, s := range b.Stms {
		vs, err := refExp(env, s)
		if err != nil {
			return nil, err
		}
		for i, p := range s.Pat {
			env = env.bind(p.Name.Name, vs[i])
		}
	}
	out := make([]refVal, len(b.Result))
	for i, x := range b.Result {
		out[i] = env.get(x.Name)
	}
	return out, nil
}

func refExp(env *refEnv, s *fun.Stm) ([]refVal, error) {
	one := func(v refVal, err error) ([]refVal, error) {
		if err != nil {
			return nil, err
		}
		return []refVal{v}, nil
	}
	switch e := s.Exp.(type) {
	case *fun.ScalarExp:
		if s.Pat[0].Type.Elem == semantics.FloatElem {
			f, err := refFloat(env, e.X)
			return one(refVal{data: []int64{int64(math.Float64bits(f))}, float: true}, err)
		}
		k, err := refSExp(env, e.X)
		return one(refScalar(k), err)
	case *fun.IndexExp:
		a := env.get(e.Arr.Name)
		off := int64(0)
		for d, y := range e.Idx {
			k := env.int(y)
			if k < 1 || k > a.shape[d] {
				return nil, stuckf(fun.EIndex.Name, "index %d not in 1..%d", k, a.shape[d])
			}
			off = off*a.shape[d] + k - 1
		}
		return one(refScalar(a.data[off]), nil)
	case *fun.SliceExp:
		a := env.get(e.Arr.Name)
		var off, size []int64
		for d, sl := range e.Slices {
			o, n := env.int(sl.Off), env.int(sl.Size)
			if n < 0 || o < 1 || o-1+n > a.shape[d] {
				return nil, stuckf(fun.ESlice.Name, "slice %d : %d not within 1..%d", o, n, a.shape[d])
			}
			off, size = append(off, o-1), append(size, n)
		}
		return one(refTabulate(size, func(idx []int64) int64 {
			flat := int64(0)
			for d := range idx {
				flat = flat*a.shape[d] + off[d] + idx[d]
			}
			return a.data[flat]
		}), nil)
	case *fun.TransposeExp:
		a := env.get(e.Arr.Name)
		return one(refTabulate([]int64{a.shape[1], a.shape[0]}, func(idx []int64) int64 {
			return a.data[idx[1]*a.shape[1]+idx[0]]
		}), nil)
	case *fun.IotaExp:
		n := env.int(e.N)
		if n < 0 {
			return nil, stuckf(fun.EIota.Name, "iota of %d", n)
		}
		return one(refTabulate([]int64{n}, func(idx []int64) int64 { return idx[0] + 1 }), nil)
	case *fun.CopyExp:
		return one(env.get(e.Arr.Name), nil)
	case *fun.IfExp:
		if env.int(e.Cond) != 0 {
			return refBody(env, e.Then)
		}
		return refBody(env, e.Else)
	case *fun.KernelExp:
		m := env.int(e.Bound)
		if m < 0 {
			return nil, stuckf(fun.EKernel.Name, "bound %d", m)
		}
		shape := []int64{m}
		for _, d := range s.Pat[0].Type.Dims[1:] {
			k := env.int(d)
			if k < 0 {
				return nil, stuckf(fun.EKernel.Name, "item size %d", k)
			}
			shape = append(shape, k)
		}
		out := refVal{shape: shape, data: []int64{}}
		for i := int64(1); i <= m; i++ {
			vs, err := refBody(env.bind(e.Var.Name, refScalar(i)), e.Body)
			if err != nil {
				return nil, err
			}
			if !slices.Equal(vs[0].shape, shape[1:]) {
				return nil, fmt.Errorf("kernel iteration %d gives an item of shape %v, not %v", i, vs[0].shape, shape[1:])
			}
			out.data = append(out.data, vs[0].data...)
		}
		return one(out, nil)
	case *fun.LoopExp:
		return refLoop(env, e)
	case *fun.ReduceExp:
		return one(refFold(env, e.Params, e.Ne, e.Arr, e.Body, false))
	case *fun.ScanExp:
		return one(refFold(env, e.Params, e.Ne, e.Arr, e.Body, true))
	case *fun.FilterExp:
		return refFilter(env, e)
	case *fun.RedomapExp:
		return one(refRedomap(env, e))
	case *fun.AssertExp:
		k, err := refSExp(env, e.Cond)
		var rs *refStuck
		if errors.As(err, &rs) {
			// A division by zero in the condition is the assert's own
			// stuck state: E-ASSERT evaluates se.
			return nil, stuckf(fun.EAssert.Name, "%s", rs.msg)
		}
		if k == 0 {
			return nil, stuckf(fun.EAssert.Name, "assertion failed")
		}
		return one(refScalar(1), nil)
	}
	panic(fmt.Sprintf("reference evaluator: unknown expression %T", s.Exp))
}

// The extension forms, from docs/fun.md's prose (not from fun/eval_ext.go).

// refLoop: the parameters start as the initial values; iteration i = 1 …
// m binds them and i and takes the body's results as the next values; a
// negative m is stuck.
func refLoop(env *refEnv, e *fun.LoopExp) ([]refVal, error) {
	m := env.int(e.Bound)
	if m < 0 {
		return nil, stuckf(fun.ELoop.Name, "bound %d", m)
	}
	cur := make([]refVal, len(e.Init))
	for j, x := range e.Init {
		cur[j] = env.get(x.Name)
	}
	for i := int64(1); i <= m; i++ {
		inner := env
		for j, p := range e.Params {
			inner = inner.bind(p.Name.Name, cur[j])
		}
		next, err := refBody(inner.bind(e.Var.Name, refScalar(i)), e.Body)
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// refRow is row i (0-based) of an array: a scalar for a rank-1 array.
func refRow(a refVal, i int64) refVal {
	size := int64(1)
	for _, k := range a.shape[1:] {
		size *= k
	}
	return refVal{shape: a.shape[1:], data: a.data[i*size : (i+1)*size : (i+1)*size]}
}

// refFold: acc = z, then acc = acc ⊕ x_i for i = 1 … n in order (the body
// with a ↦ acc, b ↦ x_i); reduce gives the last acc, scan every acc after
// a row, stacked.
func refFold(env *refEnv, ps []*fun.Param, ne, arr *fun.Ident, body *fun.Body, scan bool) (refVal, error) {
	xs := env.get(arr.Name)
	acc := env.get(ne.Name)
	out := refVal{shape: append([]int64(nil), xs.shape...), data: []int64{}}
	for i := int64(0); i < xs.shape[0]; i++ {
		vs, err := refBody(env.bind(ps[0].Name.Name, acc).bind(ps[1].Name.Name, refRow(xs, i)), body)
		if err != nil {
			return refVal{}, err
		}
		acc = vs[0]
		out.data = append(out.data, acc.data...)
	}
	if scan {
		return out, nil
	}
	return acc, nil
}

// refRedomap: for i = 1 … n, the map body with i bound, then the
// operator body with a the accumulator and b the map's value; redomap
// gives the last accumulator (z for n = 0), scanomap each one, in order;
// a negative n is stuck.
func refRedomap(env *refEnv, e *fun.RedomapExp) (refVal, error) {
	rule := fun.ERedomap.Name
	if e.Scan {
		rule = fun.EScanomap.Name
	}
	n := env.int(e.Bound)
	if n < 0 {
		return refVal{}, stuckf(rule, "bound %d", n)
	}
	acc := env.get(e.Ne.Name)
	out := refVal{shape: append([]int64{n}, acc.shape...), data: []int64{}}
	for i := int64(1); i <= n; i++ {
		fs, err := refBody(env.bind(e.Var.Name, refScalar(i)), e.Map)
		if err != nil {
			return refVal{}, err
		}
		vs, err := refBody(env.bind(e.Params[0].Name.Name, acc).bind(e.Params[1].Name.Name, fs[0]), e.Op)
		if err != nil {
			return refVal{}, err
		}
		acc = vs[0]
		out.data = append(out.data, acc.data...)
	}
	if e.Scan {
		return out, nil
	}
	return acc, nil
}

// refFilter: the rows whose body gives other than 0, in order, and their
// number.
func refFilter(env *refEnv, e *fun.FilterExp) ([]refVal, error) {
	xs := env.get(e.Arr.Name)
	kept := refVal{shape: append([]int64(nil), xs.shape...), data: []int64{}}
	k := int64(0)
	for i := int64(0); i < xs.shape[0]; i++ {
		x := refRow(xs, i)
		vs, err := refBody(env.bind(e.Params[0].Name.Name, x), e.Body)
		if err != nil {
			return nil, err
		}
		if vs[0].data[0] != 0 {
			k++
			kept.data = append(kept.data, x.data...)
		}
	}
	kept.shape[0] = k
	return []refVal{refScalar(k), kept}, nil
}

// refTabulate builds the array of the shape whose element at the 0-based
// position idx is f(idx).
func refTabulate(shape []int64, f func(idx []int64) int64) refVal {
	out := refVal{shape: shape, data: []int64{}}
	idx := make([]int64, len(shape))
	var walk func(d int)
	walk = func(d int) {
		if d == len(shape) {
			out.data = append(out.data, f(idx))
			return
		}
		for idx[d] = 0; idx[d] < shape[d]; idx[d]++ {
			walk(d + 1)
		}
	}
	walk(0)
	return out
}

func refBool(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// refSExp evaluates a scalar expression, left operand first.
func refSExp(env *refEnv, e fun.SExp) (int64, error) {
	switch e := e.(type) {
	case *fun.Const:
		return e.Value, nil
	case fun.Var:
		return env.int(e.Ident), nil
	case *fun.UnOp:
		x, err := refSExp(env, e.X)
		return -x, err
	case *fun.Call: // int(f): truncation, stuck on NaN and outside int64
		if e.Func != semantics.ToInt {
			break
		}
		f, err := refFloat(env, e.Arg)
		if err != nil {
			return 0, err
		}
		t := math.Trunc(f)
		if math.IsNaN(t) || t < -(1<<63) || t >= 1<<63 {
			return 0, stuckf(fun.EScalar.Name, "int(%v) has no int value", f)
		}
		return int64(t), nil
	case *fun.BinOp:
		if refIsFloat(env, e.L) {
			return refCompare(env, e)
		}
		a, err := refSExp(env, e.L)
		if err != nil {
			return 0, err
		}
		b, err := refSExp(env, e.R)
		if err != nil {
			return 0, err
		}
		switch e.Op.String() {
		case "+":
			return a + b, nil
		case "-":
			return a - b, nil
		case "*":
			return a * b, nil
		case "/", "%":
			if b == 0 {
				return 0, stuckf(fun.EScalar.Name, "division by zero")
			}
			if e.Op.String() == "/" {
				return a / b, nil
			}
			return a % b, nil
		case "==":
			return refBool(a == b), nil
		case "!=":
			return refBool(a != b), nil
		case "<":
			return refBool(a < b), nil
		case "<=":
			return refBool(a <= b), nil
		case ">":
			return refBool(a > b), nil
		case ">=":
			return refBool(a >= b), nil
		case "&&":
			return refBool(a != 0 && b != 0), nil
		case "||":
			return refBool(a != 0 || b != 0), nil
		}
	}
	panic(fmt.Sprintf("reference evaluator: unknown scalar expression %s", fun.PrintSExp(e)))
}

// refIsFloat reports whether the scalar expression e is a float.
func refIsFloat(env *refEnv, e fun.SExp) bool {
	switch e := e.(type) {
	case *fun.FloatConst:
		return true
	case fun.Var:
		return env.get(e.Name).float
	case *fun.UnOp:
		return refIsFloat(env, e.X)
	case *fun.BinOp:
		switch e.Op {
		case semantics.Add, semantics.Sub, semantics.Mul, semantics.Div:
			return refIsFloat(env, e.L)
		}
	case *fun.Call:
		return e.Func != semantics.ToInt
	}
	return false
}

// refFloat evaluates a float expression, left operand first, in IEEE
// float64 (a division by zero is an infinity or NaN, not stuck).
func refFloat(env *refEnv, e fun.SExp) (float64, error) {
	switch e := e.(type) {
	case *fun.FloatConst:
		return e.Value, nil
	case fun.Var:
		return math.Float64frombits(uint64(env.get(e.Name).data[0])), nil
	case *fun.UnOp:
		x, err := refFloat(env, e.X)
		return -x, err
	case *fun.BinOp:
		a, err := refFloat(env, e.L)
		if err != nil {
			return 0, err
		}
		b, err := refFloat(env, e.R)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case semantics.Add:
			return a + b, nil
		case semantics.Sub:
			return a - b, nil
		case semantics.Mul:
			return a * b, nil
		case semantics.Div:
			return a / b, nil
		}
	case *fun.Call:
		if e.Func == semantics.ToFloat {
			k, err := refSExp(env, e.Arg)
			return float64(k), err
		}
		x, err := refFloat(env, e.Arg)
		if err != nil {
			return 0, err
		}
		switch e.Func {
		case semantics.Sqrt:
			return math.Sqrt(x), nil
		case semantics.Exp:
			return math.Exp(x), nil
		case semantics.Log:
			return math.Log(x), nil
		case semantics.Sin:
			return math.Sin(x), nil
		case semantics.Cos:
			return math.Cos(x), nil
		}
	}
	panic(fmt.Sprintf("reference evaluator: unknown float expression %s", fun.PrintSExp(e)))
}

// refCompare is a comparison of two floats: 1 or 0 (IEEE: NaN is
// unordered and unequal to itself).
func refCompare(env *refEnv, e *fun.BinOp) (int64, error) {
	a, err := refFloat(env, e.L)
	if err != nil {
		return 0, err
	}
	b, err := refFloat(env, e.R)
	if err != nil {
		return 0, err
	}
	switch e.Op {
	case semantics.Eq:
		return refBool(a == b), nil
	case semantics.Ne:
		return refBool(a != b), nil
	case semantics.Lt:
		return refBool(a < b), nil
	case semantics.Le:
		return refBool(a <= b), nil
	case semantics.Gt:
		return refBool(a > b), nil
	case semantics.Ge:
		return refBool(a >= b), nil
	}
	panic(fmt.Sprintf("reference evaluator: %s is not an operator on floats", e.Op))
}

// propReference: fun.Eval and the reference evaluator give the same
// results, or both get stuck in the same rule.
func propReference(c *Case) string {
	p, err := c.Parsed()
	if err != nil {
		return "the printed program does not parse: " + err.Error()
	}
	o := big(p, c.Env(), nil)
	want, rerr := refRun(c, p)
	var rs *refStuck
	var se *semantics.Error
	switch {
	case rerr != nil && !errors.As(rerr, &rs):
		return "the reference evaluator goes wrong: " + rerr.Error()
	case rerr != nil && o.err != nil:
		if !errors.As(o.err, &se) || se.Rule != rs.rule {
			return fmt.Sprintf("fun.Eval: %v\nthe reference evaluator is stuck in %v", o.err, rerr)
		}
	case rerr != nil || o.err != nil:
		return fmt.Sprintf("fun.Eval gives %s\nthe reference evaluator gives %v", o, refOutcome(want, rerr))
	default:
		for i, v := range want {
			got := o.vals[i]
			if !semantics.Equal(got, semantics.Array{Shape: v.shape, Data: v.data}) {
				return fmt.Sprintf("result %d: fun.Eval gives %s\nthe reference evaluator gives %v", i+1, o, refOutcome(want, nil))
			}
		}
	}
	return ""
}

func refOutcome(vs []refVal, err error) string {
	if err != nil {
		return "stuck " + err.Error()
	}
	s := "("
	for i, v := range vs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%v %v", semantics.ShapeString(v.shape), v.data)
	}
	return s + ")"
}
