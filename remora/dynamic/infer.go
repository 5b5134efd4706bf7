package dynamic

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Elaboration into the typed core (check --infer), best effort in the
// spirit of §5.1: the dialect's programs carry ranks, the typed core's
// carry types, and where the shapes of a program are fixed by its literals
// the one determines the other.
//
// The elaborator specialises. An array expression elaborates to a typed
// term and its type, a type whose shape is constant; a function (a λ, a
// primitive, a frame of them) stays static until it is applied, and is
// then elaborated at the cell types its arguments give it: the ranks cut
// each argument's shape into frame and cell, exactly as the run-time lift
// does. A λ applied at two shapes becomes two typed λs. Function
// arguments are bound statically (the typed term has no parameter for
// them), and so is what is known of a scalar argument's value, so
// (fact 5) elaborates with iota{ | [5]}. The major-axis primitives get the
// index arguments their arguments' shapes imply; the reduce and scan
// family's operator is η-expanded at the item type.
//
// What it cannot do, it says: a shape that depends on a run-time value
// ((iota [n]) with n different in each cell of a frame, filter), a
// function that escapes before it is applied (returned by an application,
// stored with an unknown argument type), boxes. The typed core would need
// a dependent sum there (§4): the typed dialect's lift and box.
//
// The elaborated term is then type checked by the typed checker (Figs
// 7–8), so what --infer reports is the typed core's own verdict.

// Inferred is one expression's elaboration.
type Inferred struct {
	Term string      // the typed-core term, in the typed dialect's syntax
	Type *remora.Arr // its type, by the typed checker
}

// InferProgram elaborates every expression of p; the error says why the
// first one that cannot be elaborated cannot.
func InferProgram(p *Program) ([]*Inferred, error) {
	var out []*Inferred
	for _, e := range p.Exprs {
		inf, err := Infer(e)
		if err != nil {
			return out, err
		}
		out = append(out, inf)
	}
	return out, nil
}

// Infer elaborates one closed expression into the typed core and type
// checks the result.
func Infer(e Expr) (inf *Inferred, err error) {
	el := &elaborator{used: map[string]int{}}
	defer func() {
		if r := recover(); r != nil {
			ie, ok := r.(*inferError)
			if !ok {
				panic(r)
			}
			inf, err = nil, semantics.Errorf(ie.pos, semantics.TypeError, "infer", "%s", ie.msg)
		}
	}()
	v := el.elab(e, nil)
	el.mustBeDefinite(e.At(), v)
	if v.funs != nil {
		el.fail(e.At(), "the result is a function, whose argument types nothing here fixes (the typed core writes them on every λ)")
	}
	term, perr := remora.ParseExpr("infer", v.term)
	if perr != nil {
		return nil, semantics.Errorf(e.At(), semantics.TypeError, "infer", "internal: the elaboration does not parse: %v\n%s", perr, v.term)
	}
	_, t, _, cerr := remora.CheckExpr(term, nil)
	if cerr != nil {
		return nil, semantics.Errorf(e.At(), semantics.TypeError, "infer", "the elaboration does not type check: %v\n%s", cerr, v.term)
	}
	return &Inferred{Term: v.term, Type: t}, nil
}

type inferError struct {
	pos semantics.Pos
	msg string
}

// ity is the type of an elaborated array: a base atom type and a
// constant shape.
type ity struct {
	elem  remora.Kind // KInt, KFloat, KBool or KChar
	shape []int64
}

func (t ity) String() string {
	if len(t.shape) == 0 {
		return t.elem.String()
	}
	ds := make([]string, len(t.shape))
	for i, d := range t.shape {
		ds[i] = strconv.FormatInt(d, 10)
	}
	return "[" + t.elem.String() + " " + strings.Join(ds, " ") + "]"
}

func (t ity) equal(u ity) bool { return t.elem == u.elem && semantics.SameShape(t.shape, u.shape) }

// aval is what an expression elaborates to: a typed array (term, its
// type, and its value when the elaborator knows it), or a static array of
// functions not yet elaborated.
type aval struct {
	term  string
	typ   ity
	known *remora.Value // the array's value, when it is known statically (small ones)
	funs  []*closure    // a static function array, of shape fshape
	shape []int64
	// nonzero: an int array whose atoms are known not to be 0, even where
	// their values are not known (the cells of a known array).
	nonzero bool
	// mz: a float array where the dialect may hold an exact 0 instead
	// (a product (* n x) of an exact n that may be 0, which is exact 0
	// in Racket): the term gives -0.0 there, which a float + absorbs as
	// the dialect's exact 0 is absorbed. Such an array may only be added
	// to a float (or have one subtracted from it); anything else would
	// show the difference (mustBeDefinite).
	mz bool
	// foldOp: an array of functions foldFnArray made a fold's operator.
	foldOp bool
}

type closure struct {
	lam  *Lam
	prim *PrimDef
	env  *ienv
}

func (c *closure) ranks(n int) []int {
	if c.prim != nil {
		return c.prim.RanksFor(n)
	}
	return (&Func{Lam: c.lam}).Ranks()
}

type ienv struct {
	parent *ienv
	name   string
	val    *aval
}

func (e *ienv) lookup(x string) *aval {
	for ; e != nil; e = e.parent {
		if e.name == x {
			return e.val
		}
	}
	return nil
}

type elaborator struct {
	used map[string]int // typed names given so far, to keep every binder distinct
}

func (el *elaborator) fail(pos semantics.Pos, format string, args ...any) {
	panic(&inferError{pos: pos, msg: fmt.Sprintf(format, args...)})
}

// fresh is a typed binder for x, distinct from every other binder of the
// elaboration (so that inlining a λ at its call site captures nothing).
func (el *elaborator) fresh(x string) string {
	if x == "" { // a body's dropped value (begin)
		x = "_"
	}
	n := el.used[x]
	el.used[x] = n + 1
	if n == 0 && !typedKeyword[x] {
		return x
	}
	return fmt.Sprintf("%s%%%d", x, n+1)
}

// typedKeyword are the typed dialect's special forms, which the dynamic
// dialect lets name variables.
var typedKeyword = map[string]bool{
	"fn": true, "t-fn": true, "i-fn": true, "t-app": true, "i-app": true, "frame": true,
	"box": true, "boxes": true, "lift": true, "reify-dimension": true, "reify-shape": true, "reshape": true,
}

const knownLimit = 64 // atoms of a value the elaborator keeps track of

func typedArray(term string, t ity, known *remora.Value) *aval {
	nonzero := known != nil && known.Kind == remora.KInt && !slices.Contains(known.I, 0)
	if known != nil && known.Len() > knownLimit {
		known = nil
	}
	return &aval{term: term, typ: t, known: known, nonzero: nonzero}
}

// mustBeDefinite refuses an array that may hold the dialect's exact 0
// where its term has a float (aval.mz), wherever that would show.
func (el *elaborator) mustBeDefinite(pos semantics.Pos, as ...*aval) {
	for _, a := range as {
		if a != nil && a.mz {
			el.fail(pos, "%s", mzWhy)
		}
	}
}

// mzWhy is why a product of an exact integer and a float is refused
// where it would show.
const mzWhy = "(* n x) of an exact integer n and a float x is exact 0 when n is 0 (Racket's exact zero) and a float otherwise, but a compiled array has one atom type (only a float added to it hides the difference): convert n with exact->inexact"

func (el *elaborator) elab(e Expr, env *ienv) *aval {
	switch e := e.(type) {
	case *Lit:
		if e.V.Kind == remora.KNum {
			el.fail(e.Pos, "an exact number beyond int64 (%s): the typed core's ints are 64 bits", describe(e.V))
		}
		if e.V.Kind >= remora.KFunc {
			el.fail(e.Pos, "a literal array of functions, boxes or pairs (only arises while stepping)")
		}
		return typedArray(typedLiteral(e.V), ity{e.V.Kind, e.V.Shape}, e.V)
	case *Var:
		v := env.lookup(e.Name)
		if v == nil {
			el.fail(e.Pos, "%s is not bound", e.Name)
		}
		return v
	case *Prim:
		return &aval{funs: []*closure{{prim: e.Def}}}
	case *Lam:
		return &aval{funs: []*closure{{lam: e, env: env}}}
	case *Frame:
		return el.frame(e, env)
	case *App:
		if e.Shape != nil {
			el.fail(e.Pos, "apply/shape is not elaborated (the typed core's applications know their result types)")
		}
		fn := el.elab(e.Fn, env)
		args := make([]*aval, len(e.Args))
		for i, a := range e.Args {
			args[i] = el.elab(a, env)
		}
		return el.apply(e.Pos, fn, args)
	case *Let:
		v := el.elab(e.Val, env)
		if v.funs != nil {
			return el.elab(e.Body, &ienv{parent: env, name: e.X, val: v})
		}
		x := el.fresh(e.X)
		bound := typedArray(x, v.typ, v.known)
		bound.mz, bound.nonzero = v.mz, v.nonzero
		body := el.elab(e.Body, &ienv{parent: env, name: e.X, val: bound})
		if body.funs != nil {
			el.fail(e.Pos, "the let's body is a function, whose argument types nothing here fixes")
		}
		out := typedArray("(let ["+x+" "+v.term+"] "+body.term+")", body.typ, body.known)
		out.mz, out.nonzero = body.mz, body.nonzero
		return out
	case *Rec:
		el.fail(e.Pos, "%s", e.refusal())
	case *Unbox:
		el.fail(e.Pos, "unbox: a box hides its contents' shape, which the typed core gives by a dependent sum (write it in the typed dialect with unbox and Sigma)")
	}
	el.fail(e.At(), "cannot elaborate %s", ExprString(e))
	return nil
}

// typedLiteral writes a value in the typed dialect's syntax.
func typedLiteral(v *remora.Value) string { return v.TermString() }

// frame elaborates [e …]: a static array of functions, or a typed frame
// whose cells agree in shape (ints joining floats as floats).
func (el *elaborator) frame(e *Frame, env *ienv) *aval {
	vs := make([]*aval, len(e.Elems))
	nfun := 0
	for i, x := range e.Elems {
		vs[i] = el.elab(x, env)
		el.mustBeDefinite(e.Pos, vs[i])
		if vs[i].funs != nil {
			nfun++
		}
	}
	if nfun == len(vs) {
		return el.frameOfFunctions(e, vs) // infer_mimd.go
	}
	if nfun > 0 {
		el.fail(e.Pos, "a frame mixes functions and arrays: it would stop in collapse")
	}
	elem := vs[0].typ.elem
	for _, v := range vs {
		if !semantics.SameShape(v.typ.shape, vs[0].typ.shape) {
			el.fail(e.Pos, "the frame's cells have shapes %s and %s: it would stop in collapse", shapeString(vs[0].typ.shape), shapeString(v.typ.shape))
		}
		if v.typ.elem != elem {
			if isNum(v.typ.elem) && isNum(elem) {
				elem = remora.KFloat
			} else {
				el.fail(e.Pos, "the frame mixes %s and %s atoms", elem, v.typ.elem)
			}
		}
	}
	terms := make([]string, len(vs))
	cells := make([]*remora.Value, len(vs))
	for i, v := range vs {
		terms[i] = convertTo(v, elem)
		cells[i] = v.known
	}
	var known *remora.Value
	if allKnown(cells) {
		known, _ = collapse(e.Pos, e.Dims, cells)
	}
	return typedArray(nest(e.Dims, terms), ity{elem, append(append([]int64{}, e.Dims...), vs[0].typ.shape...)}, known)
}

func allKnown(vs []*remora.Value) bool {
	for _, v := range vs {
		if v == nil {
			return false
		}
	}
	return true
}

// nest writes the cells of a frame of shape dims as nested brackets.
func nest(dims []int64, terms []string) string {
	if len(dims) == 0 {
		return terms[0]
	}
	if dims[0] == 0 {
		return "(frame " + shapeString(dims) + " int)"
	}
	var b strings.Builder
	writeNested(&b, dims, 0, func(i int) { b.WriteString(terms[i]) })
	return b.String()
}

// convertTo is v's term with its atoms as elem (an int array as floats).
func convertTo(v *aval, elem remora.Kind) string {
	if v.typ.elem == remora.KInt && elem == remora.KFloat {
		return "(int->float " + v.term + ")"
	}
	return v.term
}

// split cuts an argument's shape by a cell rank, as the run-time lift does.
func split(shape []int64, rank int) (frame, cell []int64) {
	r := len(shape) - rank
	if rank == All || r < 0 {
		r = 0
	}
	return shape[:r], shape[r:]
}

// apply elaborates an application: the frames as the run-time lift finds
// them, then each function at its cell types.
func (el *elaborator) apply(pos semantics.Pos, fn *aval, args []*aval) *aval {
	if fn.funs == nil {
		el.fail(pos, "cannot apply an array of %s atoms", fn.typ.elem)
	}
	c0 := fn.funs[0]
	ranks := c0.ranks(len(args))
	for _, c := range fn.funs[1:] {
		if !slices.Equal(c.ranks(len(args)), ranks) {
			el.fail(pos, "the functions in the array take cells of ranks %s and %s: it would stop in lift", ranksString(ranks), ranksString(c.ranks(len(args))))
		}
	}
	if len(args) != len(ranks) {
		el.fail(pos, "the function takes %s, got %d: it would stop in β", semantics.Plural(len(ranks), "argument"), len(args))
	}
	frames := [][]int64{fn.shape}
	cells := make([]ity, len(args))
	for i, a := range args {
		if a.funs != nil {
			// An array of functions has a frame too (infer_mimd.go).
			f, _ := split(a.shape, ranks[i])
			frames = append(frames, f)
			continue
		}
		if ranks[i] != All && len(a.typ.shape) < ranks[i] {
			el.fail(pos, "argument %d has rank %d, below its cell rank %d: it would stop in lift", i+1, len(a.typ.shape), ranks[i])
		}
		f, c := split(a.typ.shape, ranks[i])
		frames = append(frames, f)
		cells[i] = ity{a.typ.elem, c}
	}
	big := frames[0]
	for _, f := range frames {
		if len(f) > len(big) {
			big = f
		}
	}
	for _, f := range frames {
		if !semantics.SameShape(f, big[:len(f)]) {
			el.fail(pos, "frames %s and %s do not agree: it would stop in lift", shapeString(big), shapeString(f))
		}
	}
	scalarFrame := len(big) == 0
	if fnFrames(args, ranks) {
		return el.applyPerPosition(pos, fn, args, ranks, cells, big)
	}
	if c0.prim != nil {
		if len(fn.funs) > 1 {
			for _, c := range fn.funs {
				if c.prim == nil || c.prim.Op == nil {
					el.fail(pos, "an array of functions mixing λs and primitives, or of non-scalar primitives")
				}
			}
		}
		if c0.prim.Op == nil {
			el.mustBeDefinite(pos, args...)
		}
		if c0.prim.Op != nil || scalarFrame {
			return el.prim(pos, fn, args, big)
		}
		// A primitive with a rank-0 parameter (rotate's shift, the fold
		// family's operator) lifted over a frame: the typed core lifts it
		// through a λ taking the cells.
		var params, as []string
		inner := make([]*aval, len(args))
		for i, a := range args {
			if a.funs != nil {
				inner[i] = a
				continue
			}
			x := el.fresh("x")
			inner[i] = typedArray(x, cells[i], nil)
			params = append(params, "["+x+" "+cells[i].String()+"]")
			as = append(as, a.term)
		}
		body := el.prim(pos, fn, inner, nil)
		term := "((fn (" + strings.Join(params, " ") + ") " + body.term + ") " + strings.Join(as, " ") + ")"
		return typedArray(term, ity{body.typ.elem, append(append([]int64{}, big...), body.typ.shape...)}, nil)
	}
	// λs: each elaborated at the cell types, to the same result type.
	var fterms []string
	var ret ity
	var known *remora.Value
	mz := false
	for k, c := range fn.funs {
		if c.lam == nil {
			el.fail(pos, "an array of functions mixing λs and primitives")
		}
		term, body := el.lambda(pos, c, args, cells, scalarFrame)
		if k > 0 && !body.typ.equal(ret) {
			el.fail(pos, "the functions in the array return %s and %s", ret, body.typ)
		}
		ret, known = body.typ, body.known
		mz = mz || body.mz
		fterms = append(fterms, term)
	}
	if len(fn.funs) > 1 || !scalarFrame {
		known = nil
	}
	var as []string
	for _, a := range args {
		if a.funs == nil {
			as = append(as, a.term)
		}
	}
	call := "(" + nest(fn.shape, fterms)
	if len(as) > 0 {
		call += " " + strings.Join(as, " ")
	}
	call += ")"
	out := typedArray(call, ity{ret.elem, append(append([]int64{}, big...), ret.shape...)}, known)
	out.mz = mz
	return out
}

// lambda elaborates a λ at its parameters' cell types: a function
// argument is bound statically, and so is the value of an argument known
// to the elaborator when the application's frame is scalar.
func (el *elaborator) lambda(pos semantics.Pos, c *closure, args []*aval, cells []ity, scalarFrame bool) (string, *aval) {
	env := c.env
	var params []string
	for i, p := range c.lam.Params {
		a := args[i]
		if a.funs != nil {
			env = &ienv{parent: env, name: p.Name, val: a}
			continue
		}
		x := el.fresh(p.Name)
		var known *remora.Value
		if scalarFrame {
			known = a.known
		}
		v := typedArray(x, cells[i], known)
		v.mz, v.nonzero = a.mz, a.nonzero // a cell of a is too
		env = &ienv{parent: env, name: p.Name, val: v}
		params = append(params, "["+x+" "+cells[i].String()+"]")
	}
	body := el.elab(c.lam.Body, env)
	if body.funs != nil {
		el.fail(pos, "the λ returns a function, whose argument types nothing here fixes (a curried function is elaborated only where it is applied at once)")
	}
	return "(fn (" + strings.Join(params, " ") + ") " + body.term + ")", body
}

// prim elaborates the application of a primitive (or a frame of scalar
// primitives) whose frames agree and are big.
func (el *elaborator) prim(pos semantics.Pos, fn *aval, args []*aval, big []int64) *aval {
	p := fn.funs[0].prim
	for _, a := range args {
		if a.funs != nil && p.Fold == nil {
			el.fail(pos, "%s takes arrays, not functions", p.Name)
		}
	}
	if p.Op != nil {
		return el.scalar(pos, fn, args, big)
	}
	if len(fn.funs) > 1 || len(fn.shape) > 0 {
		el.fail(pos, "an array of %s primitives", p.Name)
	}
	if p.Name == "if" {
		c, a, b := args[0], args[1], args[2]
		if c.typ.elem != remora.KBool {
			el.fail(pos, "if's condition holds %s atoms, not bool", c.typ.elem)
		}
		elem := a.typ.elem
		if a.typ.elem != b.typ.elem {
			if !isNum(a.typ.elem) || !isNum(b.typ.elem) {
				el.fail(pos, "if's branches hold %s and %s atoms", a.typ.elem, b.typ.elem)
			}
			// The dialect's if picks a cell, exact or float, and only a
			// frame's collapse makes them floats: the kind depends on
			// the condition.
			if v := el.foldKnown(pos, fn, args); v != nil {
				return v
			}
			el.fail(pos, "if's branches hold %s and %s atoms, and the dialect's if gives the one it picks (an exact integer or a float) where a compiled array has one atom type: convert the integers with exact->inexact", a.typ.elem, b.typ.elem)
		}
		term := "(if{" + elem.String() + " | } " + c.term + " " + convertTo(a, elem) + " " + convertTo(b, elem) + ")"
		return typedArray(term, ity{elem, big}, nil)
	}
	// The rest have cell rank all: a scalar frame, the whole arguments.
	if p.Fold != nil {
		return el.fold(pos, p, args)
	}
	return el.major(pos, p, args)
}

// scalar elaborates a scalar primitive: the typed primitive that takes
// the arguments' atom kinds, ints converted where floats are wanted.
//
// The dialect's numbers are Racket's, whose kind (exact or float) may
// depend on the values: (* 0 2.5) is exact 0, (sqrt 4) exact 2, (exp 0)
// exact 1, while the typed core's kinds are static. Where the kind
// depends on the values (valueDependent), the application is computed
// here by the dialect's own δ-rule when its arguments are known, and
// refused otherwise. Where only a float's value differs, the term is
// written so that it computes the dialect's value: an exact 0 added to a
// float is the identity (-0.0 is IEEE's additive identity), so it is
// converted to -0.0 (exactZero); max and min of floats keep the first
// argument on a tie (floatMaxMin), as the dialect does where math.Max
// and math.Min prefer +0.0 and -0.0; the int operators are their
// checked twins (checkedTwin) and sqrt, ln, arcsin and arccos theirs
// that are stuck outside the real domain (domainTwin), as the dialect
// is: it has no complex numbers.
func (el *elaborator) scalar(pos semantics.Pos, fn *aval, args []*aval, big []int64) *aval {
	if perPositionScalars(fn, args) {
		return el.applyPerPosition(pos, fn, args, make([]int, len(args)), scalarCells(args), big) // infer_mimd.go
	}
	if len(fn.funs) == 1 && len(fn.shape) == 0 && len(args) == 1 {
		// The conversions are the identity on what they convert to:
		// (float->int 5) is 5, not (float->int (int->float 5)), which
		// loses precision past 2^53.
		if to, ok := conversions[fn.funs[0].prim.Name]; ok && args[0].typ.elem == to {
			return args[0]
		}
	}
	vals := make([]*remora.Value, len(args))
	for i, a := range args {
		vals[i] = remora.NewValue(a.typ.elem, nil, 1) // kinds only
	}
	for _, c := range fn.funs {
		if why := valueDependent(c.prim.Name, args); why != "" {
			if v := el.foldKnown(pos, fn, args); v != nil {
				return v
			}
			el.fail(pos, "%s", why)
		}
	}
	// A product that may be the dialect's exact 0 (aval.mz) may be added
	// to a float, or have one subtracted from it, and nothing else.
	mzs := 0
	for _, a := range args {
		if a.mz {
			mzs++
		}
	}
	if mzs > 0 {
		name := fn.funs[0].prim.Name
		other := args[len(args)-1]
		if args[0] != nil && !args[0].mz {
			other = args[0]
		}
		ok := len(fn.funs) == 1 && len(args) == 2 && mzs == 1 && other.typ.elem == remora.KFloat &&
			(name == "+" || name == "-" && args[0].mz)
		if !ok {
			el.fail(pos, "%s", mzWhy)
		}
	}
	if v := el.maybeExactZero(pos, fn, args, big); v != nil {
		return v
	}
	var impls []*remora.PrimDef
	for _, c := range fn.funs {
		if exactOnInts[c.prim.Name] {
			for _, a := range args {
				if a.typ.elem == remora.KInt {
					el.fail(pos, "%s of exact numbers is exact here ((expt 2 -3) is 1/8) and a float in the typed core", c.prim.Name)
				}
			}
		}
		if !c.prim.typedAt(len(args)) {
			if v := el.foldKnown(pos, fn, args); v != nil {
				return v // (/ 6 3), exactly 2; infer_mimd.go
			}
			el.fail(pos, "%s on %d arguments has no typed counterpart (Racket's numbers and arities are the dialect's own)", c.prim.Name, len(args))
		}
		impl, _, err := c.prim.resolve(&remora.Call{Pos: pos}, vals)
		if err != nil {
			msg := err.Error()
			var se *semantics.Error
			if errors.As(err, &se) {
				msg = se.Msg
			}
			el.fail(pos, "%s: it would stop in δ", msg)
		}
		if c, ok := checkedTwin[impl.Name]; ok {
			impl = remora.Basis[c]
		}
		impls = append(impls, impl)
	}
	ks := impls[0].ParamKinds()
	for _, impl := range impls[1:] {
		if !slices.Equal(impl.ParamKinds(), ks) || impl.ResultKind() != impls[0].ResultKind() {
			el.fail(pos, "the primitives in the array take or give different atom types")
		}
	}
	// The conversions and rewritings that keep the dialect's float values.
	special := func(impl *remora.PrimDef) bool {
		switch impl.Name {
		case "+.", "-.":
			return slices.ContainsFunc(args, func(a *aval) bool { return a.typ.elem == remora.KInt })
		case "max.", "min.":
			return true
		}
		return false
	}
	if len(impls) > 1 && slices.ContainsFunc(impls, special) {
		el.fail(pos, "an array of primitives over floats (%s): the dialect's exact zeros and ties are kept only for one primitive at a time", impls[0].Name)
	}
	names := make([]string, len(impls))
	for i, impl := range impls {
		names[i] = impl.Name
	}
	terms := []string{nest(fn.shape, names)}
	knowns := make([]*remora.Value, len(args))
	for i, a := range args {
		switch {
		case a.typ.elem == remora.KInt && ks[i] == remora.KFloat && (impls[0].Name == "+." || impls[0].Name == "-." && i == 0):
			terms = append(terms, exactZero(a))
		default:
			terms = append(terms, convertTo(a, ks[i]))
		}
		knowns[i] = a.known
	}
	var known *remora.Value
	if len(fn.shape) == 0 && allKnown(knowns) && product(big) > 0 { // an empty frame: nothing to compute (and remora.ScalarLoop wants cells)
		conv := make([]*remora.Value, len(knowns))
		for i, k := range knowns {
			conv[i] = k
			if k.Kind == remora.KInt && ks[i] == remora.KFloat {
				conv[i] = toFloat(k)
			}
		}
		frames := make([][]int64, len(args))
		for i, a := range args {
			frames[i], _ = split(a.typ.shape, 0)
		}
		known, _ = remora.ScalarLoop(impls[0], conv, big, frames, impls[0].ResultKind(), pos)
		if special(impls[0]) || domainTwin[names[0]] != "" {
			known = nil // the typed primitive's value is not the dialect's
		}
	}
	if d, ok := domainTwin[names[0]]; ok && len(impls) == 1 {
		terms[0] = d
	}
	if impls[0].Name == "max." || impls[0].Name == "min." {
		terms[0] = floatMaxMin(impls[0].Name == "max.")
	}
	return typedArray("("+strings.Join(terms, " ")+")", ity{impls[0].ResultKind(), big}, known)
}

// valueDependent says why the kind of a scalar primitive's result
// depends on its arguments' values in the dialect (so that no typed
// term has it), or "": an exact integer beside a float in a comparison
// (the dialect compares exactly, not as floats, which differs past
// 2^53), and an exact integer given to a function that is exact at
// special points ((sqrt 4) is 2, (exp 0) is 1, (sin 0) is 0). (An exact
// integer times a float is maybeExactZero's.)
func valueDependent(name string, args []*aval) string {
	var hasInt, hasFloat bool
	for _, a := range args {
		switch a.typ.elem {
		case remora.KInt:
			hasInt = true
		case remora.KFloat:
			hasFloat = true
		}
	}
	switch {
	case comparison[name] && hasInt && hasFloat:
		for _, a := range args {
			if a.typ.elem == remora.KInt && !smallInts(a.known) {
				return fmt.Sprintf("(%s n x) compares the exact integer n with the float x exactly (Racket's comparison), which the compiled program's float comparison does only for integers within ±2^53: convert n with exact->inexact", name)
			}
		}
	case exactAtSpecial[name] && hasInt:
		return fmt.Sprintf("(%s n) of an exact integer n is exact where Racket's is (at 0 or 1, or a perfect square for sqrt) and a float elsewhere, but a compiled array has one atom type: write (%s (exact->inexact n))", name, name)
	}
	return ""
}

// conversions are the dialect's conversions of numbers, by the kind they
// give.
var conversions = map[string]remora.Kind{"float->int": remora.KInt, "int->float": remora.KFloat}

// comparison are the dialect's comparisons of numbers.
var comparison = map[string]bool{"<": true, "<=": true, ">": true, ">=": true, "=": true, "!=": true}

// exactAtSpecial are the dialect's functions that give an exact result
// for some exact arguments (the exactAt of scalar.go's inexact, and
// sqrt of a perfect square).
var exactAtSpecial = map[string]bool{
	"sqrt": true, "exp": true, "ln": true, "log": true, "lg": true, "sin": true, "cos": true, "tan": true,
	"arcsin": true, "arccos": true, "arctan": true, "asin": true, "acos": true, "atan": true,
}

// smallInts reports whether v is known and every atom is an integer a
// float holds exactly (within ±2^53).
func smallInts(v *remora.Value) bool {
	if v == nil || v.Kind != remora.KInt {
		return false
	}
	for _, x := range v.I {
		if x > 1<<53 || x < -(1<<53) {
			return false
		}
	}
	return true
}

// maybeExactZero elaborates (* n x) of an exact integer n and a float x,
// whose value is exact 0 in the dialect when n is 0: where n is known not
// to be 0 it is a float product; else it is the float product or -0.0
// where n is 0, marked mz (aval.mz), which only a float addition may use.
// It returns nil for any other application.
func (el *elaborator) maybeExactZero(pos semantics.Pos, fn *aval, args []*aval, big []int64) *aval {
	if len(fn.funs) != 1 || fn.funs[0].prim.Name != "*" || len(args) != 2 {
		return nil
	}
	a, b := args[0], args[1]
	switch {
	case a.typ.elem == remora.KInt && b.typ.elem == remora.KFloat:
	case a.typ.elem == remora.KFloat && b.typ.elem == remora.KInt:
		a, b = b, a
	default:
		return nil
	}
	if v := el.foldKnown(pos, fn, args); v != nil {
		return v
	}
	if a.nonzero {
		return typedArray("(*. "+convertTo(args[0], remora.KFloat)+" "+convertTo(args[1], remora.KFloat)+")", ity{remora.KFloat, big}, nil)
	}
	v := typedArray("((fn ([n int] [x float]) (if{float | } (= n 0) -0. (*. (int->float n) x))) "+a.term+" "+b.term+")", ity{remora.KFloat, big}, nil)
	v.mz = true
	return v
}

// foldKnown computes an application of one scalar primitive (or an
// array of them, primArray) to known arguments by the dialect's own δ-rule, as a literal of the result's
// kind; nil when an argument is not known or the result is no array of
// ints, floats, booleans or characters (an exact number past int64, a
// rational) or the δ-rule goes wrong (the program must go wrong at run
// time, where it does).
func (el *elaborator) foldKnown(pos semantics.Pos, fn *aval, args []*aval) *aval {
	app := &App{Pos: pos, Fn: primArray(pos, fn)}
	if app.Fn == nil {
		return nil
	}
	for _, a := range args {
		if a.known == nil {
			return nil
		}
		app.Args = append(app.Args, &Lit{Pos: pos, V: a.known})
	}
	v, err := EvalExpr(app, nil)
	if err != nil || v.Kind > remora.KChar || v.Kind == remora.KNum {
		return nil
	}
	return typedArray(typedLiteral(v), ity{v.Kind, v.Shape}, v)
}

// exactZero is an int argument of a float + (or the left one of a float
// -) as the float that keeps the dialect's exact 0: -0.0 for 0, int->float
// of the rest. -0.0 is IEEE's additive identity (-0.0 + x is x for every
// x, -0.0 included) and -0.0 - x is -x, as (+ 0 x) and (- 0 x) are. (The
// right operand of - is converted as it is: x - 0.0 is x already.)
func exactZero(a *aval) string {
	if a.known != nil && !slices.Contains(a.known.I, 0) {
		return convertTo(a, remora.KFloat)
	}
	return "((fn ([n int]) (if{float | } (= n 0) -0. (int->float n))) " + a.term + ")"
}

// floatMaxMin is the dialect's max (or min) of two floats as a typed
// function: NaN if either is, else the second if it is larger (smaller),
// else the first, so that a tie of 0.0 and -0.0 keeps the first, where
// the typed max. (math.Max) gives 0.0 and min. -0.0.
func floatMaxMin(isMax bool) string {
	wins := "(<. a b)"
	if !isMax {
		wins = "(<. b a)"
	}
	return "(fn ([a float] [b float]) (if{float | } (or (not (<=. a a)) (not (<=. b b))) +nan.0 (if{float | } " + wins + " b a)))"
}

// domainTwin are the typed functions whose checked twins are stuck
// outside the real domain, as the dialect is (it has no complex
// numbers): sqrt of a negative number, the logarithm of one, arcsin and
// arccos outside [-1, 1]. The typed core's own give NaN there.
var domainTwin = map[string]string{"sqrt": "sqrt!", "log": "log!", "arcsin": "arcsin!", "arccos": "arccos!"}

// instantiation writes f{τ | ι …}.
func instantiation(name string, elems []remora.Kind, ixs ...string) string {
	ts := make([]string, len(elems))
	for i, k := range elems {
		ts[i] = k.String()
	}
	return name + "{" + strings.Join(ts, " ") + " | " + strings.Join(ixs, " ") + "}"
}

// dimsIndex writes a constant shape index [d …].
func dimsIndex(ds []int64) string { return shapeString(ds) }

func (el *elaborator) needMajor(pos semantics.Pos, name string, a *aval) {
	if len(a.typ.shape) == 0 {
		el.fail(pos, "%s wants an array with a major axis, got a scalar: it would stop in δ", name)
	}
}

// knownInts is the statically known vector of ints a shape or count
// argument must be for the typed core to take it as an index.
func (el *elaborator) knownInts(pos semantics.Pos, name, what string, a *aval, rank int) []int64 {
	if a.known == nil || a.known.Kind != remora.KInt || len(a.known.Shape) != rank {
		el.fail(pos, "%s's %s %s is not known before the program runs; the typed core takes it as an index, which a run-time value can only become through a dependent sum (the typed dialect's lift and box, §4)", name, what, a.term)
	}
	for _, d := range a.known.I {
		if d < 0 {
			el.fail(pos, "%s's %s has the negative %d: it would stop in δ", name, what, d)
		}
	}
	return a.known.I
}

// major elaborates a major-axis primitive, instantiated at the shapes of
// its arguments.
func (el *elaborator) major(pos semantics.Pos, p *PrimDef, args []*aval) *aval {
	a := args[0]
	t := a.typ
	item := func() []int64 { return t.shape[1:] }
	d := func() string { return strconv.FormatInt(t.shape[0], 10) }
	call := func(head string, as ...*aval) string {
		parts := []string{head}
		for _, x := range as {
			parts = append(parts, x.term)
		}
		return "(" + strings.Join(parts, " ") + ")"
	}
	elems := []remora.Kind{t.elem}
	switch p.Name {
	case "iota":
		ds := el.knownInts(pos, "iota", "shape", a, 1)
		known := remora.NewValue(remora.KInt, append([]int64{}, ds...), product(ds))
		for i := range known.I {
			known.I[i] = int64(i)
		}
		return typedArray("iota{ | "+dimsIndex(ds)+"}", ity{remora.KInt, ds}, known)
	case "length":
		el.needMajor(pos, "length", a)
		return typedArray(call(instantiation("length", elems, d(), dimsIndex(item())), a), ity{remora.KInt, nil}, remora.IntScalar(t.shape[0]))
	case "shape-of":
		v := remora.NewValue(remora.KInt, []int64{int64(len(t.shape))}, len(t.shape))
		copy(v.I, t.shape)
		return typedArray("(reify-shape "+dimsIndex(t.shape)+")", ity{remora.KInt, v.Shape}, v)
	case "append":
		b := args[1]
		el.needMajor(pos, "append", a)
		el.needMajor(pos, "append", b)
		if !semantics.SameShape(item(), b.typ.shape[1:]) {
			el.fail(pos, "append's items have shapes %s and %s: it would stop in δ", shapeString(item()), shapeString(b.typ.shape[1:]))
		}
		elem := t.elem
		if b.typ.elem != elem {
			if !isNum(elem) || !isNum(b.typ.elem) {
				el.fail(pos, "append joins %s and %s atoms", elem, b.typ.elem)
			}
			elem = remora.KFloat
		}
		head := instantiation("append", []remora.Kind{elem}, d(), strconv.FormatInt(b.typ.shape[0], 10), dimsIndex(item()))
		shape := append([]int64{t.shape[0] + b.typ.shape[0]}, item()...)
		return typedArray("("+head+" "+convertTo(a, elem)+" "+convertTo(b, elem)+")", ity{elem, shape}, nil)
	case "reverse", "rotate":
		el.needMajor(pos, p.Name, a)
		if p.Name == "rotate" && (args[1].typ.elem != remora.KInt || len(args[1].typ.shape) != 0) {
			el.fail(pos, "rotate's shift is an int, got %s", args[1].typ)
		}
		return typedArray(call(instantiation(p.Name, elems, d(), dimsIndex(item())), args...), t, nil)
	case "head", "behead":
		// The dialect's behead is the typed tail (ERRATA R16).
		el.needMajor(pos, p.Name, a)
		if t.shape[0] == 0 {
			el.fail(pos, "%s of an array with no items: it would stop in δ", p.Name)
		}
		rt := ity{t.elem, item()}
		name := "head"
		if p.Name == "behead" {
			name = "tail"
			rt.shape = append([]int64{t.shape[0] - 1}, item()...)
		}
		return typedArray(call(instantiation(name, elems, strconv.FormatInt(t.shape[0]-1, 10), dimsIndex(item())), a), rt, nil)
	case "itemize":
		shape := append([]int64{1}, t.shape...)
		return typedArray("(reshape "+dimsIndex(shape)+" "+a.term+")", ity{t.elem, shape}, nil)
	case "reshape":
		ds := el.knownInts(pos, "reshape", "shape", a, 1)
		x := args[1]
		if product(ds) != product(x.typ.shape) {
			el.fail(pos, "reshape: the shape %s has %d atoms, the array %d: the dialect cycles or truncates them, the typed reshape does not", shapeString(ds), product(ds), product(x.typ.shape))
		}
		return typedArray("(reshape "+dimsIndex(ds)+" "+x.term+")", ity{x.typ.elem, append([]int64{}, ds...)}, nil)
	case "replicate":
		ds := el.knownInts(pos, "replicate", "shape", a, 1)
		x := args[1]
		head := instantiation("replicate", []remora.Kind{x.typ.elem}, dimsIndex(ds), dimsIndex(x.typ.shape))
		return typedArray("("+head+" "+x.term+")", ity{x.typ.elem, append(append([]int64{}, ds...), x.typ.shape...)}, nil)
	case "index":
		pos1 := args[1]
		if pos1.typ.elem != remora.KInt || len(pos1.typ.shape) != 1 || int(pos1.typ.shape[0]) > len(t.shape) {
			el.fail(pos, "index's position is a vector of at most %d ints, got %s", len(t.shape), pos1.typ)
		}
		l := int(pos1.typ.shape[0])
		head := instantiation("index", elems, dimsIndex(t.shape[:l]), dimsIndex(t.shape[l:]), strconv.Itoa(l))
		return typedArray(call(head, a, pos1), ity{t.elem, t.shape[l:]}, nil)
	case "subvector", "scatter":
		el.needMajor(pos, p.Name, a)
		n := el.knownInts(pos, p.Name, "length", args[2], 0)[0]
		head := instantiation(p.Name, elems, d(), strconv.FormatInt(n, 10), dimsIndex(item()))
		return typedArray(call(head, a, args[1]), ity{t.elem, append([]int64{n}, item()...)}, nil)
	case "filter":
		el.fail(pos, "filter's result length depends on the booleans, not on shapes: the typed core returns a dependent sum (a box)")
	case "box":
		el.fail(pos, "box: a box hides its contents' shape, which the typed core gives by a dependent sum (write it in the typed dialect with box and Sigma)")
	}
	el.fail(pos, "%s is not elaborated", p.Name)
	return nil
}

// checkedTwin maps the typed core's int primitives that wrap on overflow
// to their checked twins, which are stuck there instead: the dialect's
// integers are exact (Racket's), so an elaborated program computes with
// the checked ones, and every level below gives the exact value or stops
// with "integer overflow", never a wrapped value.
var checkedTwin = map[string]string{"+": "+!", "-": "-!", "*": "*!", "/": "/!", "abs": "abs!"}

// exactOnInts are the scalar primitives whose typed twin takes ints as
// floats where the dialect computes exactly.
var exactOnInts = map[string]bool{"expt": true}

// associative are the primitive operators a tree-shaped reduce may be
// elaborated as a left fold with.
var associative = map[string]bool{"+": true, "*": true, "max": true, "min": true, "and": true, "or": true}

// fold elaborates the reduce and scan family: the operator η-expanded at
// the item type, the instantiation read off the array's shape. The reduce
// family folds [t item] cells (its @pad is empty here), so an initial
// value of a shorter shape is replicated first, as the run time does.
func (el *elaborator) fold(pos semantics.Pos, p *PrimDef, args []*aval) *aval {
	op := args[0]
	if op.funs != nil && len(op.shape) > 0 && !op.foldOp {
		return el.foldFnArray(pos, p, args) // infer_mimd.go
	}
	if op.funs == nil {
		el.fail(pos, "%s's operator must be a function known here (a λ or a primitive)", p.Name)
	}
	arr := args[len(args)-1]
	el.needMajor(pos, p.Name, arr)
	t := arr.typ
	d := t.shape[0]
	item := ity{t.elem, t.shape[1:]}
	typedName := p.Typed
	var init *aval
	if p.Fold.TakesInit() {
		init = args[1]
		if init.funs != nil {
			el.fail(pos, "%s's initial value is a function", p.Name)
		}
	}
	opTerm := func(a, b ity) (string, ity) {
		x, y := el.fresh("a"), el.fresh("b")
		body := el.apply(pos, op, []*aval{typedArray(x, a, nil), typedArray(y, b, nil)})
		el.mustBeDefinite(pos, body)
		return "(fn ([" + x + " " + a.String() + "] [" + y + " " + b.String() + "]) " + body.term + ")", body.typ
	}
	if p.Tree {
		// The dialect's reduce is a tree over the items, its base used
		// only when there are none: the typed reduce (a left fold with no
		// initial value) has its value when the operator is associative.
		if d == 0 {
			el.fail(pos, "reduce of an array with no items is its base (not elaborated)")
		}
		for _, f := range op.funs {
			if f.prim == nil || !associative[f.prim.Name] {
				el.fail(pos, "reduce reduces tree-shaped: only an associative primitive operator (%s) elaborates to the typed left fold", strings.Join(slices.Sorted(maps.Keys(associative)), " "))
			}
		}
		init, typedName = nil, "reduce"
	}
	if p.Fold.ReplicatesInit() {
		// reduce, scan, iscan, iscan-init: one type for accumulator and items.
		if init != nil {
			if init.typ.elem != item.elem {
				if !isNum(init.typ.elem) || !isNum(item.elem) {
					el.fail(pos, "%s's initial value holds %s atoms, the items %s", p.Name, init.typ.elem, item.elem)
				}
				item.elem = remora.KFloat
			}
			pad := len(item.shape) - len(init.typ.shape)
			if pad < 0 || !semantics.SameShape(item.shape[pad:], init.typ.shape) {
				el.fail(pos, "%s's initial value has shape %s, the items %s", p.Name, shapeString(init.typ.shape), shapeString(item.shape))
			}
		}
		ot, ret := opTerm(item, item)
		if !ret.equal(item) {
			el.fail(pos, "%s's operator gives %s for items of type %s: the typed core folds one type", p.Name, ret, item)
		}
		var parts []string
		n := d
		if init == nil {
			if d == 0 {
				el.fail(pos, "%s of an array with no items: it would stop in δ", p.Name)
			}
			n = d - 1
		}
		parts = append(parts, instantiation(typedName, []remora.Kind{item.elem}, strconv.FormatInt(n, 10), "[]", dimsIndex(item.shape)), ot)
		if init != nil {
			it := convertTo(init, item.elem)
			if pad := len(item.shape) - len(init.typ.shape); pad > 0 {
				it = "(" + instantiation("replicate", []remora.Kind{item.elem}, dimsIndex(item.shape[:pad]), dimsIndex(init.typ.shape)) + " " + it + ")"
			}
			parts = append(parts, it)
		}
		parts = append(parts, convertTo(arr, item.elem))
		rt := ity{item.elem, item.shape}
		switch typedName {
		case "scan-init":
			rt.shape = append([]int64{d + 1}, item.shape...)
		case "iscan", "iscan-init":
			rt.shape = append([]int64{d}, item.shape...)
		}
		return typedArray("("+strings.Join(parts, " ")+")", rt, nil)
	}
	// fold, fold-right, trace, trace-right: an accumulator of its own type.
	acc := init.typ
	right := typedName == "fold-right" || typedName == "trace-right"
	var ot string
	var ret ity
	if right {
		ot, ret = opTerm(item, acc)
	} else {
		ot, ret = opTerm(acc, item)
	}
	if !ret.equal(acc) {
		el.fail(pos, "%s's operator gives %s for an accumulator of type %s: the typed core keeps one accumulator type", p.Name, ret, acc)
	}
	head := instantiation(typedName, []remora.Kind{item.elem, acc.elem}, strconv.FormatInt(d, 10), dimsIndex(item.shape), dimsIndex(acc.shape))
	rt := acc
	if typedName == "trace" || typedName == "trace-right" {
		rt = ity{acc.elem, append([]int64{d + 1}, acc.shape...)}
	}
	return typedArray("("+head+" "+ot+" "+init.term+" "+arr.term+")", rt, nil)
}

// Elaborate is the pass from the dynamic dialect into the typed core:
// every expression of p elaborated by Infer, as one program of the typed
// dialect (the compile path's way down from the dynamic dialect). It
// declines the program when an expression does not elaborate.
func Elaborate(p *Program) (*remora.Program, error) {
	infs, err := InferProgram(p)
	if err != nil {
		return nil, err
	}
	out := &remora.Program{File: p.File}
	for _, inf := range infs {
		e, err := remora.ParseExpr(p.File, inf.Term)
		if err != nil {
			return nil, err
		}
		out.Exprs = append(out.Exprs, e)
	}
	return out, nil
}
