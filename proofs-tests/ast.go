package proofstests

import (
	"fmt"
	"math"
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// This file holds the tree utilities the generator, the shrinker and the
// properties share: deep copies, a structural comparison that ignores
// positions, a walk over all identifiers, a size measure, and the one
// normalisation the printer is known to need (see NormalizeNegConsts).

// DiffPrograms compares two programs as trees, ignoring every position and
// the file name. It returns "" when they are equal, or the path to the first
// difference and what differs there.
func DiffPrograms(a, b *fun.Program) string {
	d := &differ{}
	d.params("inputs", a.Inputs, b.Inputs)
	d.body("body", a.Body, b.Body)
	return d.first
}

type differ struct{ first string }

func (d *differ) fail(path, format string, args ...any) {
	if d.first == "" {
		d.first = path + ": " + fmt.Sprintf(format, args...)
	}
}

func (d *differ) ident(path string, a, b *fun.Ident) {
	switch {
	case a == nil && b == nil:
	case a == nil || b == nil:
		d.fail(path, "identifier %v against %v", a, b)
	case a.Name != b.Name:
		d.fail(path, "name %q against %q", a.Name, b.Name)
	}
}

func (d *differ) idents(path string, a, b []*fun.Ident) {
	if len(a) != len(b) {
		d.fail(path, "%d identifiers against %d", len(a), len(b))
		return
	}
	for i := range a {
		d.ident(fmt.Sprintf("%s[%d]", path, i), a[i], b[i])
	}
}

func (d *differ) params(path string, a, b []*fun.Param) {
	if len(a) != len(b) {
		d.fail(path, "%d bindings against %d", len(a), len(b))
		return
	}
	for i := range a {
		p := fmt.Sprintf("%s[%d]", path, i)
		d.ident(p+".name", a[i].Name, b[i].Name)
		d.idents(p+".type", a[i].Type.Dims, b[i].Type.Dims)
		if a[i].Type.Elem != b[i].Type.Elem {
			d.fail(p+".type", "element type %v against %v", a[i].Type.Elem, b[i].Type.Elem)
		}
	}
}

func (d *differ) body(path string, a, b *fun.Body) {
	if (a == nil) != (b == nil) {
		d.fail(path, "body %v against %v", a != nil, b != nil)
		return
	}
	if a == nil {
		return
	}
	if len(a.Stms) != len(b.Stms) {
		d.fail(path, "%d statements against %d", len(a.Stms), len(b.Stms))
		return
	}
	for i := range a.Stms {
		p := fmt.Sprintf("%s.stms[%d]", path, i)
		d.params(p+".pat", a.Stms[i].Pat, b.Stms[i].Pat)
		d.exp(p+".exp", a.Stms[i].Exp, b.Stms[i].Exp)
	}
	d.idents(path+".in", a.Result, b.Result)
}

func (d *differ) exp(path string, a, b fun.Exp) {
	if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) {
		d.fail(path, "%T against %T", a, b)
		return
	}
	switch a := a.(type) {
	case *fun.ScalarExp:
		d.sexp(path, a.X, b.(*fun.ScalarExp).X)
	case *fun.IndexExp:
		b := b.(*fun.IndexExp)
		d.ident(path+".arr", a.Arr, b.Arr)
		d.idents(path+".idx", a.Idx, b.Idx)
	case *fun.SliceExp:
		b := b.(*fun.SliceExp)
		d.ident(path+".arr", a.Arr, b.Arr)
		if len(a.Slices) != len(b.Slices) {
			d.fail(path, "%d slice pairs against %d", len(a.Slices), len(b.Slices))
			return
		}
		for i := range a.Slices {
			d.ident(fmt.Sprintf("%s.off[%d]", path, i), a.Slices[i].Off, b.Slices[i].Off)
			d.ident(fmt.Sprintf("%s.size[%d]", path, i), a.Slices[i].Size, b.Slices[i].Size)
		}
	case *fun.TransposeExp:
		d.ident(path+".arr", a.Arr, b.(*fun.TransposeExp).Arr)
	case *fun.IotaExp:
		d.ident(path+".n", a.N, b.(*fun.IotaExp).N)
	case *fun.CopyExp:
		d.ident(path+".arr", a.Arr, b.(*fun.CopyExp).Arr)
	case *fun.IfExp:
		b := b.(*fun.IfExp)
		d.ident(path+".cond", a.Cond, b.Cond)
		d.body(path+".then", a.Then, b.Then)
		d.body(path+".else", a.Else, b.Else)
	case *fun.KernelExp:
		b := b.(*fun.KernelExp)
		d.ident(path+".var", a.Var, b.Var)
		d.ident(path+".bound", a.Bound, b.Bound)
		d.body(path+".body", a.Body, b.Body)
	case *fun.LoopExp:
		b := b.(*fun.LoopExp)
		d.params(path+".params", a.Params, b.Params)
		d.idents(path+".init", a.Init, b.Init)
		d.ident(path+".var", a.Var, b.Var)
		d.ident(path+".bound", a.Bound, b.Bound)
		d.body(path+".body", a.Body, b.Body)
	case *fun.ReduceExp:
		b := b.(*fun.ReduceExp)
		d.params(path+".params", a.Params, b.Params)
		d.ident(path+".ne", a.Ne, b.Ne)
		d.ident(path+".arr", a.Arr, b.Arr)
		d.body(path+".body", a.Body, b.Body)
	case *fun.ScanExp:
		b := b.(*fun.ScanExp)
		d.params(path+".params", a.Params, b.Params)
		d.ident(path+".ne", a.Ne, b.Ne)
		d.ident(path+".arr", a.Arr, b.Arr)
		d.body(path+".body", a.Body, b.Body)
	case *fun.FilterExp:
		b := b.(*fun.FilterExp)
		d.params(path+".params", a.Params, b.Params)
		d.ident(path+".arr", a.Arr, b.Arr)
		d.body(path+".body", a.Body, b.Body)
	case *fun.RedomapExp:
		b := b.(*fun.RedomapExp)
		if a.Scan != b.Scan {
			d.fail(path, "%s against %s", fun.RedomapWord(a), fun.RedomapWord(b))
			return
		}
		d.params(path+".params", a.Params, b.Params)
		d.ident(path+".ne", a.Ne, b.Ne)
		d.ident(path+".var", a.Var, b.Var)
		d.ident(path+".bound", a.Bound, b.Bound)
		d.body(path+".map", a.Map, b.Map)
		d.body(path+".op", a.Op, b.Op)
	case *fun.AssertExp:
		b := b.(*fun.AssertExp)
		d.sexp(path+".cond", a.Cond, b.Cond)
		if a.HasMsg != b.HasMsg || a.Msg != b.Msg {
			d.fail(path, "message %v %q against %v %q", a.HasMsg, a.Msg, b.HasMsg, b.Msg)
		}
	default:
		d.fail(path, "unknown expression %T", a)
	}
}

func (d *differ) sexp(path string, a, b fun.SExp) {
	if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) {
		d.fail(path, "%T (%s) against %T (%s)", a, fun.PrintSExp(a), b, fun.PrintSExp(b))
		return
	}
	switch a := a.(type) {
	case *fun.Const:
		if b := b.(*fun.Const); a.Value != b.Value {
			d.fail(path, "constant %d against %d", a.Value, b.Value)
		}
	case fun.Var:
		d.ident(path, a.Ident, b.(fun.Var).Ident)
	case *fun.BinOp:
		b := b.(*fun.BinOp)
		if a.Op != b.Op {
			d.fail(path, "operator %s against %s", a.Op, b.Op)
			return
		}
		d.sexp(path+".l", a.L, b.L)
		d.sexp(path+".r", a.R, b.R)
	case *fun.UnOp:
		b := b.(*fun.UnOp)
		if a.Op != b.Op {
			d.fail(path, "operator %s against %s", a.Op, b.Op)
			return
		}
		d.sexp(path+".x", a.X, b.X)
	case *fun.FloatConst:
		// Bits: -0.0 is not 0.0 (the printer writes the sign).
		if b := b.(*fun.FloatConst); math.Float64bits(a.Value) != math.Float64bits(b.Value) {
			d.fail(path, "constant %v against %v", a.Value, b.Value)
		}
	case *fun.Call:
		b := b.(*fun.Call)
		if a.Func != b.Func {
			d.fail(path, "function %s against %s", a.Func, b.Func)
			return
		}
		d.sexp(path+".arg", a.Arg, b.Arg)
	default:
		d.fail(path, "unknown scalar expression %T", a)
	}
}

// namesIn adds to used every identifier of the trees ns (binders, uses,
// types, nested bodies).
func namesIn[N fun.Node](used map[string]bool, ns ...N) {
	for _, n := range ns {
		fun.Idents(n, func(x *fun.Ident) { used[x.Name] = true })
	}
}

// allNames is every identifier of a program.
func allNames(p *fun.Program) map[string]bool {
	used := map[string]bool{}
	namesIn(used, p)
	return used
}

// renameIn renames, by m and in place, every identifier of the trees ns
// (binders, uses, types, nested bodies).
func renameIn[N fun.Node](m map[string]string, ns ...N) {
	for _, n := range ns {
		fun.Idents(n, func(x *fun.Ident) {
			if y, ok := m[x.Name]; ok {
				x.Name = y
			}
		})
	}
}

// Measure is the size the shrinker decreases: first the number of tree
// nodes, then the magnitude of the constants and input values (and the
// number of input elements), then how late in the program's body the
// variables its results name are bound. Every shrink step makes it strictly
// smaller, so shrinking terminates.
type Measure struct {
	Nodes     int
	Magnitude float64
	Lateness  int
}

// Less orders measures lexicographically.
func (m Measure) Less(o Measure) bool {
	if m.Nodes != o.Nodes {
		return m.Nodes < o.Nodes
	}
	if m.Magnitude != o.Magnitude {
		return m.Magnitude < o.Magnitude
	}
	return m.Lateness < o.Lateness
}

// MeasureOf computes the measure of a case.
func MeasureOf(c *Case) Measure {
	m := Measure{}
	for _, p := range c.Prog.Inputs {
		m.Nodes += 1 + len(p.Type.Dims)
	}
	m.bodyNodes(c.Prog.Body)
	boundAt := map[string]int{}
	for j, s := range c.Prog.Body.Stms {
		for _, p := range s.Pat {
			boundAt[p.Name.Name] = j + 1
		}
	}
	for _, x := range c.Prog.Body.Result {
		m.Lateness += boundAt[x.Name]
	}
	for _, in := range c.Inputs {
		m.Magnitude += float64(len(in.Value.Data))
		for _, k := range in.Value.Data {
			m.Magnitude += math.Abs(float64(k))
		}
	}
	return m
}

func (m *Measure) bodyNodes(b *fun.Body) {
	m.Nodes += 1 + len(b.Result)
	for _, s := range b.Stms {
		m.Nodes++
		for _, p := range s.Pat {
			m.Nodes += 1 + len(p.Type.Dims)
		}
		switch e := s.Exp.(type) {
		case *fun.ScalarExp:
			m.sexpNodes(e.X)
		case *fun.IndexExp:
			m.Nodes += 2 + len(e.Idx)
		case *fun.SliceExp:
			m.Nodes += 2 + 2*len(e.Slices)
		case *fun.TransposeExp, *fun.IotaExp, *fun.CopyExp:
			m.Nodes += 2
		case *fun.IfExp:
			m.Nodes += 2
			m.bodyNodes(e.Then)
			m.bodyNodes(e.Else)
		case *fun.KernelExp:
			m.Nodes += 3
			m.bodyNodes(e.Body)
		case *fun.LoopExp:
			m.Nodes += 3 + len(e.Init)
			for _, p := range e.Params {
				m.Nodes += 1 + len(p.Type.Dims)
			}
			m.bodyNodes(e.Body)
		case *fun.ReduceExp:
			m.Nodes += 3 + 2*(1+len(e.Params[0].Type.Dims))
			m.bodyNodes(e.Body)
		case *fun.ScanExp:
			m.Nodes += 3 + 2*(1+len(e.Params[0].Type.Dims))
			m.bodyNodes(e.Body)
		case *fun.FilterExp:
			m.Nodes += 2 + 1 + len(e.Params[0].Type.Dims)
			m.bodyNodes(e.Body)
		case *fun.RedomapExp:
			m.Nodes += 4 + 2*(1+len(e.Params[0].Type.Dims))
			m.bodyNodes(e.Map)
			m.bodyNodes(e.Op)
		case *fun.AssertExp:
			m.Nodes++
			m.sexpNodes(e.Cond)
		}
	}
}

func (m *Measure) sexpNodes(e fun.SExp) {
	m.Nodes++
	switch e := e.(type) {
	case *fun.Const:
		m.Magnitude += math.Abs(float64(e.Value))
	case *fun.BinOp:
		m.sexpNodes(e.L)
		m.sexpNodes(e.R)
	case *fun.UnOp:
		m.sexpNodes(e.X)
	case *fun.FloatConst:
		m.Magnitude += min(math.Abs(e.Value), 1<<62)
	case *fun.Call:
		m.sexpNodes(e.Arg)
	}
}

// Features lists the syntactic features of a program that the generator
// is meant to produce, for the coverage report: each key is present when
// the program has that feature.
func Features(p *fun.Program) map[string]bool {
	f := map[string]bool{}
	if len(p.Inputs) > 0 {
		f["input"] = true
	}
	var body func(b *fun.Body, inKernel bool, arrays []string)
	var sexp func(e fun.SExp)
	sexp = func(e fun.SExp) {
		switch e := e.(type) {
		case *fun.Const:
			if e.Value < 0 {
				f["negative constant"] = true
			}
		case *fun.BinOp:
			f["op "+e.Op.String()] = true
			if c, ok := e.R.(*fun.Const); ok && c.Value == 0 && (e.Op == semantics.Div || e.Op == semantics.Mod) {
				f["literal zero divisor"] = true
			}
			sexp(e.L)
			sexp(e.R)
		case *fun.UnOp:
			f["unary -"] = true
			sexp(e.X)
		case *fun.FloatConst:
			f["float"] = true
		case *fun.Call:
			f["float"] = true
			if e.Func == semantics.ToInt {
				f["int of a float"] = true
			}
			sexp(e.Arg)
		}
	}
	var inputs []string // the array inputs
	for _, in := range p.Inputs {
		if !in.Type.IsInt() {
			inputs = append(inputs, in.Name.Name)
		}
	}
	// arrays are the arrays in scope; nested bodies get a copy.
	body = func(b *fun.Body, inKernel bool, arrays []string) {
		arrays = append([]string(nil), arrays...)
		for _, s := range b.Stms {
			switch e := s.Exp.(type) {
			case *fun.ScalarExp:
				sexp(e.X)
			case *fun.IndexExp:
				f[fmt.Sprintf("index rank %d", len(e.Idx))] = true
			case *fun.SliceExp:
				f[fmt.Sprintf("slice rank %d", len(e.Slices))] = true
			case *fun.TransposeExp:
				f["transpose"] = true
			case *fun.IotaExp:
				f["iota"] = true
			case *fun.CopyExp:
				f["copy"] = true
			case *fun.IfExp:
				f["if"] = true
				if dependentPattern(s.Pat) {
					f["if binding a size with its array"] = true
				}
				body(e.Then, inKernel, arrays)
				body(e.Else, inKernel, arrays)
			case *fun.KernelExp:
				if inKernel {
					f["nested kernel"] = true
				}
				inner := map[string]bool{}
				namesIn(inner, e.Body)
				if inner[e.Var.Name] {
					f["kernel body uses its index"] = true
				}
				for _, a := range arrays {
					if inner[a] {
						f["kernel body uses an outer array"] = true
					}
				}
				if len(s.Pat) == 1 && s.Pat[0].Type.Rank() == 1 {
					f["kernel of ints"] = true
				} else {
					f["kernel of arrays"] = true
				}
				body(e.Body, true, arrays)
			case *fun.LoopExp:
				f["loop"] = true
				if dependentPattern(s.Pat) {
					f["loop with an existential size"] = true
				}
				body(e.Body, inKernel, arrays)
			case *fun.ReduceExp:
				f[foldFeature("reduce", e.Params)] = true
				body(e.Body, inKernel, arrays)
			case *fun.ScanExp:
				f[foldFeature("scan", e.Params)] = true
				body(e.Body, inKernel, arrays)
			case *fun.FilterExp:
				f["filter"] = true
				body(e.Body, inKernel, arrays)
			case *fun.RedomapExp:
				f[foldFeature(fun.RedomapWord(e), e.Params)] = true
				body(e.Map, inKernel, arrays)
				body(e.Op, inKernel, arrays)
			case *fun.AssertExp:
				f["assert"] = true
				sexp(e.Cond)
			}
			for _, q := range s.Pat {
				if !q.Type.IsInt() {
					arrays = append(arrays, q.Name.Name)
				}
			}
		}
	}
	body(p.Body, false, inputs)
	return f
}

// dependentPattern reports whether a pattern binds a size variable that
// another of its bindings uses as a dimension (let (zs : int) (za : [zs])).
func dependentPattern(pat []*fun.Param) bool {
	local := map[string]bool{}
	for _, p := range pat {
		local[p.Name.Name] = true
	}
	for _, p := range pat {
		for _, d := range p.Type.Dims {
			if local[d.Name] {
				return true
			}
		}
	}
	return false
}

// FeatureNames are the features every CI run must produce at least once.
var FeatureNames = func() []string {
	names := []string{"input", "negative constant", "literal zero divisor", "unary -",
		"index rank 1", "index rank 2", "slice rank 1", "slice rank 2", "transpose", "iota", "copy",
		"if", "if binding a size with its array", "nested kernel", "kernel of ints", "kernel of arrays",
		"kernel body uses its index", "kernel body uses an outer array"}
	for _, op := range []string{"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"} {
		names = append(names, "op "+op)
	}
	return names
}()

// ExtFeatureNames are the features of the extension forms every CI run
// of a property with GenConfig.Extensions must produce at least once.
// With GenRedomaps, so are redomap's and scanomap's.
var ExtFeatureNames = func() []string {
	names := []string{"loop", "loop with an existential size", "reduce of ints", "reduce of arrays",
		"scan of ints", "scan of arrays", "filter", "assert", "float", "int of a float"}
	if GenRedomaps {
		names = append(names, "redomap of ints", "redomap of arrays", "scanomap of ints", "scanomap of arrays")
	}
	return names
}()

// foldFeature names a reduce's or a scan's feature by its operands' type.
func foldFeature(form string, ps []*fun.Param) string {
	if ps[0].Type.IsInt() {
		return form + " of ints"
	}
	return form + " of arrays"
}

// joinLines indents every line of s by prefix.
func joinLines(prefix, s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix)
}
