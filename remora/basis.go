package remora

import (
	"fmt"
	"math"

	"github.com/arraysem/arraysem/semantics"
)

// PrimDef is a primitive operator π of the basis (docs/remora.md): its name, its
// type, and its δ-rule. A primitive whose cells are all scalars has a
// Scalar rule, which the evaluators run as one native loop over a whole
// frame; the others have a Cells rule on argument cells. Higher-order
// primitives (the reduce and scan family) have a Fold plan instead, which
// the big-step runs as a native loop and the small-step unfolds into the
// applications of the operator it stands for.
type PrimDef struct {
	Name   string
	Type   Type // canonical
	Scalar func(a []slot) (slot, error)
	Cells  func(c *Call, args []*Value) (*Value, error)
	Fold   *FoldPlan
}

// slot is one scalar atom: ints, booleans and characters in I, floats in F.
type slot struct {
	I int64
	F float64
}

// Call is what a δ-rule sees besides its argument cells: the position of
// the application and the primitive's instantiation, with every index
// closed (concrete dimensions).
type Call struct {
	Pos     semantics.Pos
	Indices []Index
	Types   []Type
}

func (c *Call) nat(i int) int64 { return c.Indices[i].N.Const }
func (c *Call) shape(i int) []int64 {
	ds, _ := c.Indices[i].S.Const()
	return ds
}

// stuck is the error of a partial primitive applied outside its domain:
// the one way Theorem 1 lets a well-typed program go wrong.
func (c *Call) stuck(name, format string, args ...any) error {
	return semantics.Stuckf(c.Pos, RuleDelta.Name, "%s: %s", name, fmt.Sprintf(format, args...))
}

// Basis maps names to primitives.
var Basis = map[string]*PrimDef{}

func def(name, typ string) *PrimDef {
	t, err := ParseType("basis", typ)
	if err != nil {
		panic(fmt.Sprintf("basis %s: %v", name, err))
	}
	p := &PrimDef{Name: name, Type: Canon(t)}
	Basis[name] = p
	return p
}

func scalar(name, typ string, f func(a []slot) (slot, error)) { def(name, typ).Scalar = f }

func intOp(name string, op semantics.Op) {
	scalar(name, "(-> (int int) int)", func(a []slot) (slot, error) {
		r, err := semantics.Binary(op, a[0].I, a[1].I)
		if err != nil {
			return slot{}, semantics.OpStuck(semantics.Pos{}, RuleDelta.Name, err, "")
		}
		return slot{I: r}, nil
	})
}

func intCmp(name string, f func(a, b int64) bool) {
	scalar(name, "(-> (int int) bool)", func(a []slot) (slot, error) { return slot{I: b2i(f(a[0].I, a[1].I))}, nil })
}

func floatOp(name string, f func(a, b float64) float64) {
	scalar(name, "(-> (float float) float)", func(a []slot) (slot, error) { return slot{F: f(a[0].F, a[1].F)}, nil })
}

func floatCmp(name string, f func(a, b float64) bool) {
	scalar(name, "(-> (float float) bool)", func(a []slot) (slot, error) { return slot{I: b2i(f(a[0].F, a[1].F))}, nil })
}

func floatFn(name string, f func(a float64) float64) {
	scalar(name, "(-> (float) float)", func(a []slot) (slot, error) { return slot{F: f(a[0].F)}, nil })
}

func init() {
	intOp("+", semantics.Add)
	intOp("-", semantics.Sub)
	intOp("*", semantics.Mul)
	intOp("/", semantics.Div)
	intOp("%", semantics.Mod)
	// The checked twins (an extension): stuck where the exact result is
	// not an int64 (semantics.ErrOverflow) instead of wrapping. The
	// dialect's integers are exact, so its elaboration into this core
	// uses these, and a compiled level either gives the exact value or
	// stops.
	for _, op := range []semantics.Op{semantics.AddChecked, semantics.SubChecked, semantics.MulChecked, semantics.DivChecked} {
		intOp(op.String(), op)
	}
	scalar("abs!", "(-> (int) int)", func(a []slot) (slot, error) {
		if a[0].I == math.MinInt64 {
			return slot{}, semantics.OpStuck(semantics.Pos{}, RuleDelta.Name, semantics.ErrOverflow{Op: semantics.Mul, A: a[0].I, B: -1}, "")
		}
		return slot{I: max(a[0].I, -a[0].I)}, nil
	})
	intCmp("=", func(a, b int64) bool { return a == b })
	intCmp("!=", func(a, b int64) bool { return a != b })
	intCmp("<", func(a, b int64) bool { return a < b })
	intCmp("<=", func(a, b int64) bool { return a <= b })
	intCmp(">", func(a, b int64) bool { return a > b })
	intCmp(">=", func(a, b int64) bool { return a >= b })
	scalar("max", "(-> (int int) int)", func(a []slot) (slot, error) { return slot{I: max(a[0].I, a[1].I)}, nil })
	scalar("min", "(-> (int int) int)", func(a []slot) (slot, error) { return slot{I: min(a[0].I, a[1].I)}, nil })
	scalar("abs", "(-> (int) int)", func(a []slot) (slot, error) {
		if a[0].I < 0 {
			return slot{I: -a[0].I}, nil
		}
		return a[0], nil
	})
	floatOp("+.", func(a, b float64) float64 { return a + b })
	floatOp("-.", func(a, b float64) float64 { return a - b })
	floatOp("*.", func(a, b float64) float64 { return a * b })
	floatOp("/.", func(a, b float64) float64 { return a / b })
	floatOp("max.", math.Max)
	floatOp("min.", math.Min)
	floatOp("expt", math.Pow)
	floatCmp("<.", func(a, b float64) bool { return a < b })
	floatCmp("<=.", func(a, b float64) bool { return a <= b })
	floatCmp(">.", func(a, b float64) bool { return a > b })
	floatCmp(">=.", func(a, b float64) bool { return a >= b })
	floatFn("abs.", math.Abs)
	floatFn("sqrt", math.Sqrt)
	floatFn("exp", math.Exp)
	floatFn("log", math.Log)
	floatFn("sin", math.Sin)
	floatFn("cos", math.Cos)
	floatFn("tan", math.Tan)
	floatFn("arcsin", math.Asin)
	floatFn("arccos", math.Acos)
	floatFn("arctan", math.Atan)
	// The checked twins of the functions with a real domain (an
	// extension): stuck outside it, where the plain ones give NaN. The
	// dialect's numbers have no complex values, so its elaboration into
	// this core uses these.
	for name, in := range map[string]func(float64) bool{
		"sqrt":   func(x float64) bool { return !(x < 0) },
		"log":    func(x float64) bool { return !(x < 0) },
		"arcsin": func(x float64) bool { return !(x < -1 || x > 1) },
		"arccos": func(x float64) bool { return !(x < -1 || x > 1) },
	} {
		f := Basis[name].Scalar
		scalar(name+"!", "(-> (float) float)", func(a []slot) (slot, error) {
			if !in(a[0].F) {
				return slot{}, semantics.Stuckf(semantics.Pos{}, RuleDelta.Name, "%s!: %s has no real result (complex numbers are not supported)", name, FormatFloat(a[0].F))
			}
			return f(a)
		})
	}
	scalar("and", "(-> (bool bool) bool)", func(a []slot) (slot, error) { return slot{I: a[0].I & a[1].I}, nil })
	scalar("or", "(-> (bool bool) bool)", func(a []slot) (slot, error) { return slot{I: a[0].I | a[1].I}, nil })
	scalar("not", "(-> (bool) bool)", func(a []slot) (slot, error) { return slot{I: 1 - a[0].I}, nil })
	scalar("int->float", "(-> (int) float)", func(a []slot) (slot, error) { return slot{F: float64(a[0].I)}, nil })
	scalar("float->int", "(-> (float) int)", func(a []slot) (slot, error) {
		f := math.Trunc(a[0].F)
		if math.IsNaN(f) {
			return slot{}, semantics.Stuckf(semantics.Pos{}, RuleDelta.Name, "float->int: %s is not in the range of int", FormatFloat(a[0].F))
		}
		if f >= 0x1p63 || f < -0x1p63 {
			return slot{}, semantics.Errorf(semantics.Pos{}, semantics.OverflowError, RuleDelta.Name, "integer overflow: float->int(%s) does not fit in 64 bits", FormatFloat(a[0].F))
		}
		return slot{I: int64(f)}, nil
	})
	scalar("int->bool", "(-> (int) bool)", func(a []slot) (slot, error) { return slot{I: b2i(a[0].I != 0)}, nil })
	scalar("bool->int", "(-> (bool) int)", func(a []slot) (slot, error) { return a[0], nil })
	// A character's code point (an extension): the dialect compares
	// characters, and its elaboration compares their code points.
	scalar("char->int", "(-> (char) int)", func(a []slot) (slot, error) { return a[0], nil })
	scalar("if", "(Forall (t) (-> (bool t t) t))", func(a []slot) (slot, error) {
		if a[0].I != 0 {
			return a[1], nil
		}
		return a[2], nil
	})
	// if chooses between functions or boxes too, which have no slot.
	Basis["if"].Cells = func(c *Call, a []*Value) (*Value, error) {
		if a[0].I[0] != 0 {
			return a[1], nil
		}
		return a[2], nil
	}

	def("iota", "(Pi (@s) [int @s])").Cells = func(c *Call, _ []*Value) (*Value, error) {
		shape := c.shape(0)
		n, err := CheckedProduct(shape)
		if err != nil {
			return nil, c.stuck("iota", "%v", err)
		}
		v := NewValue(KInt, shape, n)
		for i := range v.I {
			v.I[i] = int64(i)
		}
		return v, nil
	}
	def("length", "(Pi (d @c) (Forall (t) (-> ([t d @c]) int)))").Cells = func(c *Call, a []*Value) (*Value, error) {
		return IntScalar(a[0].Shape[0]), nil
	}
	def("replicate", "(Pi (@s @c) (Forall (t) (-> ([t @c]) [t @s @c])))").Cells = func(c *Call, a []*Value) (*Value, error) {
		s := c.shape(0)
		n, err := CheckedProduct(append(append([]int64{}, s...), a[0].Shape...))
		if err != nil {
			return nil, c.stuck("replicate", "%v", err)
		}
		cells := make([]*Value, n/max(1, a[0].Len()))
		if a[0].Len() == 0 {
			cells = make([]*Value, Product(s))
		}
		for i := range cells {
			cells[i] = a[0]
		}
		return Stack(s, a[0].Shape, a[0].Kind, cells), nil
	}
	def("index", "(Pi (@s @c l) (Forall (t) (-> ([t @s @c] [int l]) [t @c])))").Cells = func(c *Call, a []*Value) (*Value, error) {
		s := c.shape(0)
		pos := a[1].I
		if len(pos) != len(s) {
			return nil, c.stuck("index", "a position of %d numbers into a frame of rank %d", len(pos), len(s))
		}
		off := 0
		for i, p := range pos {
			if p < 0 || p >= s[i] {
				return nil, c.stuck("index", "position %v is outside the shape %v (positions count from 0)", pos, s)
			}
			off = off*int(s[i]) + int(p)
		}
		cell := a[0].Shape[len(s):]
		size := Product(cell)
		return a[0].slice(cell, off*size, (off+1)*size), nil
	}
	def("head", "(Pi (d-1 @c) (Forall (t) (-> ([t (+ d-1 1) @c]) [t @c])))").Cells = func(c *Call, a []*Value) (*Value, error) {
		return a[0].Item(0), nil
	}
	def("tail", "(Pi (d-1 @c) (Forall (t) (-> ([t (+ d-1 1) @c]) [t d-1 @c])))").Cells = func(c *Call, a []*Value) (*Value, error) {
		return subItems(a[0], 1, int(a[0].Shape[0])-1), nil
	}
	def("subvector", "(Pi (d-in d-out @c) (Forall (t) (-> ([t d-in @c] int) [t d-out @c])))").Cells = func(c *Call, a []*Value) (*Value, error) {
		off, n, d := a[1].I[0], c.nat(1), a[0].Shape[0]
		if off < 0 || n < 0 || off > d || n > d-off { // off+n could wrap
			return nil, c.stuck("subvector", "%d items from position %d of %d", n, off, d)
		}
		return subItems(a[0], int(off), int(n)), nil
	}
	def("append", "(Pi (d1 d2 @c) (Forall (t) (-> ([t d1 @c] [t d2 @c]) [t (+ d1 d2) @c])))").Cells = func(c *Call, a []*Value) (*Value, error) {
		x, y := a[0], a[1]
		shape := append([]int64{x.Shape[0] + y.Shape[0]}, x.Shape[1:]...)
		kind := x.Kind
		if x.Len() == 0 {
			kind = y.Kind
		}
		out := NewValue(kind, shape, x.Len()+y.Len())
		if x.Len() > 0 {
			CopyAtoms(out, 0, x, 0, x.Len())
		}
		if y.Len() > 0 {
			CopyAtoms(out, x.Len(), y, 0, y.Len())
		}
		return out, nil
	}
	def("reverse", "(Pi (l @c) (Forall (t) (-> ([t l @c]) [t l @c])))").Cells = func(c *Call, a []*Value) (*Value, error) {
		return permuteItems(a[0], func(i, n int) int { return n - 1 - i }), nil
	}
	def("rotate", "(Pi (l @c) (Forall (t) (-> ([t l @c] int) [t l @c])))").Cells = func(c *Call, a []*Value) (*Value, error) {
		k := a[1].I[0]
		return permuteItems(a[0], func(i, n int) int { return int(((int64(i)+k)%int64(n) + int64(n)) % int64(n)) }), nil
	}
	def("scatter", "(Pi (d-in d-out @c) (Forall (t) (-> ([t d-in @c] [int d-in]) [t d-out @c])))").Cells = func(c *Call, a []*Value) (*Value, error) {
		dout := c.nat(1)
		cell := a[0].Shape[1:]
		size := Product(cell)
		shape := append([]int64{dout}, cell...)
		n, err := CheckedProduct(shape)
		if err != nil {
			return nil, c.stuck("scatter", "%v", err)
		}
		out := NewValue(a[0].Kind, shape, n)
		if a[0].Kind >= KFunc && size > 0 {
			return nil, c.stuck("scatter", "scattering %ss leaves holes with no value", a[0].Kind)
		}
		for i, p := range a[1].I {
			if p < 0 || p >= dout {
				return nil, c.stuck("scatter", "item %d goes to position %d, outside 0..%d", i, p, dout-1)
			}
			CopyAtoms(out, int(p)*size, a[0], i*size, size)
		}
		return out, nil
	}
	def("filter", "(Pi (d @c) (Forall (t) (-> ([t d @c] [bool d]) (Sigma (d-out) [t d-out @c]))))").Cells = func(c *Call, a []*Value) (*Value, error) {
		var keep []*Value
		for i, b := range a[1].I {
			if b != 0 {
				keep = append(keep, a[0].Item(i))
			}
		}
		cell := a[0].Shape[1:]
		v := Stack([]int64{int64(len(keep))}, cell, a[0].Kind, keep)
		t := c.resultSigma()
		return AtomScalar(KBox, &Box{Indices: []Index{NatIndex(NatConst(int64(len(keep))))}, Val: v, Type: t}), nil
	}

	foldPrim("reduce", "(Pi (d-1 @pad @c) (Forall (t) (-> ((-> ([t @c] [t @c]) [t @c]) [t (+ d-1 1) @pad @c]) [t @pad @c])))", FoldPlan{kind: foldReduce})
	foldPrim("reduce-init", "(Pi (d @pad @c) (Forall (t) (-> ((-> ([t @c] [t @c]) [t @c]) [t @c] [t d @pad @c]) [t @pad @c])))", FoldPlan{kind: foldReduce, init: true})
	foldPrim("iscan", "(Pi (d-1 @pad @c) (Forall (t) (-> ((-> ([t @c] [t @c]) [t @c]) [t (+ d-1 1) @pad @c]) [t (+ d-1 1) @pad @c])))", FoldPlan{kind: foldReduce, trace: true})
	foldPrim("scan-init", "(Pi (d @pad @c) (Forall (t) (-> ((-> ([t @c] [t @c]) [t @c]) [t @c] [t d @pad @c]) [t (+ d 1) @pad @c])))", FoldPlan{kind: foldReduce, init: true, trace: true, withInit: true})
	foldPrim("iscan-init", "(Pi (d @pad @c) (Forall (t) (-> ((-> ([t @c] [t @c]) [t @c]) [t @c] [t d @pad @c]) [t d @pad @c])))", FoldPlan{kind: foldReduce, init: true, trace: true})
	foldPrim("fold", "(Pi (d @item @acc) (Forall (t u) (-> ((-> ([u @acc] [t @item]) [u @acc]) [u @acc] [t d @item]) [u @acc])))", FoldPlan{kind: foldLeft, init: true})
	foldPrim("fold-right", "(Pi (d @item @acc) (Forall (t u) (-> ((-> ([t @item] [u @acc]) [u @acc]) [u @acc] [t d @item]) [u @acc])))", FoldPlan{kind: foldRight, init: true})
	foldPrim("trace", "(Pi (d @item @acc) (Forall (t u) (-> ((-> ([u @acc] [t @item]) [u @acc]) [u @acc] [t d @item]) [u (+ d 1) @acc])))", FoldPlan{kind: foldLeft, init: true, trace: true, withInit: true})
	foldPrim("trace-right", "(Pi (d @item @acc) (Forall (t u) (-> ((-> ([t @item] [u @acc]) [u @acc]) [u @acc] [t d @item]) [u (+ d 1) @acc])))", FoldPlan{kind: foldRight, init: true, trace: true, withInit: true})
}

// resultSigma is the Sigma type a filter's box carries; its body is typed
// at the instantiation's cell shape.
func (c *Call) resultSigma() *Sigma {
	cell := c.Indices[1].S
	var t Type = Int
	if len(c.Types) > 0 {
		t = c.Types[0]
	}
	return &Sigma{Vars: []string{"d-out"}, Body: &Arr{Elem: t, Shape: Shape{{Dim: NatVar("d-out")}}.Append(cell)}}
}

// subItems is items [off, off+n) of v's major axis.
func subItems(v *Value, off, n int) *Value {
	size := Product(v.Shape[1:])
	shape := append([]int64{int64(n)}, v.Shape[1:]...)
	return v.slice(shape, off*size, (off+n)*size)
}

// permuteItems moves item src(i) of v to position i.
func permuteItems(v *Value, src func(i, n int) int) *Value {
	n := int(v.Shape[0])
	size := Product(v.Shape[1:])
	out := NewValue(v.Kind, v.Shape, v.Len())
	for i := 0; i < n; i++ {
		CopyAtoms(out, i*size, v, src(i, n)*size, size)
	}
	return out
}

// The reduce and scan family, as left or right folds in index order: the
// operator need not be associative or commutative (docs/remora.md), so the
// order is part of the semantics.
type foldKind int

const (
	foldReduce foldKind = iota // op on [t @c] cells lifted over @pad; acc and item of one type
	foldLeft                   // acc := op(acc, item)
	foldRight                  // acc := op(item, acc), from the last item
)

// FoldPlan is how a primitive of the reduce and scan family folds: which
// way, whether it takes an initial accumulator, and what it returns.
type FoldPlan struct {
	kind     foldKind
	init     bool // takes an initial accumulator
	trace    bool // returns every accumulator, not only the last
	withInit bool // the trace starts (fold-right: ends) with the initial one
}

// TakesInit reports whether the fold takes an initial accumulator (an
// argument between the operator and the array).
func (p *FoldPlan) TakesInit() bool { return p.init }

// ReplicatesInit reports whether the fold is of the reduce family, whose
// initial accumulator (a [t @c] cell) is replicated over the items' @pad.
func (p *FoldPlan) ReplicatesInit() bool { return p.kind == foldReduce }

// ParamKinds are the atom kinds of a scalar primitive's parameters (a type
// variable, as in if, says KInt).
func (p *PrimDef) ParamKinds() []Kind {
	var ks []Kind
	if fn, ok := p.fn(); ok {
		for _, t := range fn.Params {
			ks = append(ks, kindOf(CanonArr(t).Elem))
		}
	}
	return ks
}

// fn is the function type under p's quantifiers.
func (p *PrimDef) fn() (*Fn, bool) {
	t := p.Type
	for {
		switch u := t.(type) {
		case *Fn:
			return u, true
		case *Forall:
			t = u.Body
		case *Pi:
			t = u.Body
		case *Arr:
			if len(u.Shape) != 0 {
				return nil, false
			}
			t = u.Elem
		default:
			return nil, false
		}
	}
}

// ResultKind is the atom kind of a scalar primitive's result (if, whose
// result is its branches', says KInt).
func (p *PrimDef) ResultKind() Kind {
	if fn, ok := p.fn(); ok {
		return kindOf(CanonArr(fn.Ret).Elem)
	}
	return KInt
}

func foldPrim(name, typ string, plan FoldPlan) {
	p := def(name, typ)
	p.Fold = &plan
}

// RunFold runs a fold plan over items, generically in what a value is: the
// big-step runs it on *Value with the application done at once, the
// small-step on Expr, building the applications for later steps. init is
// used when the plan takes one; rep replicates an initial [t @c] cell over
// @pad; stack builds the trace. c's position goes on the errors. (The
// untyped dialect, remora/dynamic, runs it too, on its own values.)
func RunFold[T any](plan *FoldPlan, name string, op T, init T, items []T,
	apply func(f, a, b T) (T, error), rep func(T) T, stack func([]T) T, c *Call) (T, error) {
	var zero T
	var acc T
	rest := items
	switch {
	case plan.init && plan.kind == foldReduce:
		acc = rep(init)
	case plan.init:
		acc = init
	case len(items) == 0:
		return zero, c.stuck(name, "no items to reduce")
	default:
		acc, rest = items[0], items[1:]
	}
	var trace []T
	if plan.withInit || !plan.init {
		trace = append(trace, acc)
	}
	if plan.kind == foldRight {
		for i := len(rest) - 1; i >= 0; i-- {
			var err error
			if acc, err = apply(op, rest[i], acc); err != nil {
				return zero, err
			}
			trace = append(trace, acc)
		}
		// trace-right lists the accumulators in index order: the one that
		// has seen items i.. at position i, the initial one last.
		for i, j := 0, len(trace)-1; i < j; i, j = i+1, j-1 {
			trace[i], trace[j] = trace[j], trace[i]
		}
	} else {
		for _, x := range rest {
			var err error
			if acc, err = apply(op, acc, x); err != nil {
				return zero, err
			}
			trace = append(trace, acc)
		}
	}
	if plan.trace {
		return stack(trace), nil
	}
	return acc, nil
}

// foldShapes are the shapes a fold plan works at, read off the instantiation.
type foldShapes struct {
	pad, item, acc []int64 // @pad (reduce family), item cell, accumulator cell
	accElem        Type
}

func (p *PrimDef) foldShapes(c *Call) foldShapes {
	if p.Fold.kind == foldReduce {
		pad, cell := c.shape(1), c.shape(2)
		full := append(append([]int64{}, pad...), cell...)
		return foldShapes{pad: pad, item: full, acc: full, accElem: c.Types[0]}
	}
	return foldShapes{item: c.shape(1), acc: c.shape(2), accElem: c.Types[1]}
}

// PrimOf is the primitive of a primitive or its instantiation (Inline
// leaves a primitive's type and index applications around it), with its
// index arguments.
func PrimOf(e Expr) (*PrimDef, []Index, bool) {
	var ixs []Index
	for {
		switch f := e.(type) {
		case *Prim:
			return f.Def, ixs, true
		case *TApp:
			e = f.Fn
		case *IApp:
			ixs = append(append([]Index{}, f.Args...), ixs...)
			e = f.Fn
		default:
			return nil, nil, false
		}
	}
}
