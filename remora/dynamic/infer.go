package dynamic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Elaboration into the typed core (check --infer, and the compile path's
// pass Elaborate), in the spirit of §5.1: the dialect's programs carry
// ranks, the typed core's carry types, and the shapes of a program
// determine the one from the other. docs/remora-dynamic.md states each
// rule with an example.
//
// The elaborator specialises. An array expression elaborates to a typed
// term and its type; a function (a λ, a primitive, a frame of them)
// stays static until it is applied, and is then elaborated at the cell
// types its arguments give it: the ranks cut each argument's shape into
// frame and cell, exactly as the run-time lift does. A λ applied at two
// shapes becomes two typed λs. Function arguments are bound statically
// (the typed term has no parameter for them), and so is what is known of
// a scalar argument's value, so (fact 5) elaborates with iota{ | [5]}. A
// λ that returns a function is inlined where it is applied (the curried
// λ of Fig 2), its parameters bound to its arguments, or, over a frame,
// captured: the function array it returns takes the cells of the
// arguments as extra parameters (closure conversion).
//
// A shape the dialect computes at run time (iota of a computed shape,
// filter, take of a computed count, a box's contents) is a dependent sum
// in the typed core: infer_scope.go binds it to a Nat index variable with
// lift or unbox and boxes what mentions it (Sigma). The major-axis
// primitives and the library's basis (infer_major.go) get the index
// arguments their arguments' shapes imply; the reduce and scan family
// (infer_fold.go) its operator η-expanded at the item type, reduce as
// the library's tree, folds whose accumulator changes shape with a box
// as the accumulator. The scalar primitives (infer_scalar.go) keep the
// dialect's exact integers (checked arithmetic) and its exact zeros.
//
// What it cannot do, it says, naming the construct: a function as a
// result, cells of run-time shapes collapsed into one array, Racket's
// exact rationals, records and pairs.
//
// The elaborated term is then type checked by the typed checker (Figs
// 7–8), so what --infer reports is the typed core's own verdict, and its
// terms carry the dialect's positions (infer_pos.go).

// Inferred is one expression's elaboration.
type Inferred struct {
	Term string      // the typed-core term, in the typed dialect's syntax
	Type *remora.Arr // its type, by the typed checker
	// Expr is the term parsed, its subterms placed at the dialect's
	// constructs they were made for (not checked).
	Expr remora.Expr
	// Open: the term is a box standing for an array whose shape the
	// dialect computes at run time; the dialect prints its contents.
	Open bool
	// Rational: the dialect's exact rationals, as pairs of ints.
	Rational bool
}

// Show prints a value of the elaborated term as the dialect prints the
// expression's value (boxes without witnesses, an open box as its
// contents).
func (inf *Inferred) Show(v *remora.Value) string {
	p := &remora.Program{Source: Language.Name(), Open: []bool{inf.Open}, Rational: []bool{inf.Rational}}
	return p.SourceLines([]*remora.Value{v})[0]
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
				// A bug of the elaborator's, reported as an error rather
				// than a crash of the command (tests fail on it).
				ie = &inferError{pos: e.At(), msg: fmt.Sprintf("%s: %v", InternalError, r)}
			}
			inf, err = nil, semantics.Errorf(ie.pos, semantics.TypeError, "infer", "%s", ie.msg)
		}
	}()
	v := el.elab(e, nil)
	last := e
	for l, ok := last.(*Let); ok; l, ok = last.(*Let) {
		last = l.Body
	}
	el.mustBeDefinite(last.At(), v)
	if v.funs != nil {
		el.fail(last.At(), "the result is a function: a compiled program's results are arrays of atoms, and the typed core writes a λ's argument types, which nothing here fixes")
	}
	at := span{e.At(), e.End()}
	term, perr := el.parseMarked("infer", v.term, at)
	if perr != nil {
		return nil, semantics.Errorf(e.At(), semantics.TypeError, "infer", "internal: the elaboration does not parse: %v\n%s", perr, plain(v.term))
	}
	_, t, _, cerr := remora.CheckExpr(term, nil)
	if cerr != nil {
		return nil, semantics.Errorf(e.At(), semantics.TypeError, "infer", "the elaboration does not type check: %v\n%s", cerr, plain(v.term))
	}
	// The checker annotates the term it is given: the pass gets a fresh
	// parse.
	out, _ := el.parseMarked("infer", v.term, at)
	return &Inferred{Term: plain(v.term), Type: t, Expr: out, Open: len(v.hide) > 0, Rational: v.typ.elem == remora.KNum}, nil
}

// Elaborate is the pass from the dynamic dialect into the typed core:
// every expression of p elaborated by Infer, as one program of the typed
// dialect (the compile path's way down from the dynamic dialect), which
// prints its results as the dialect does (remora.Program's Source and
// Open). It declines the program when an expression does not elaborate.
func Elaborate(p *Program) (*remora.Program, error) {
	infs, err := InferProgram(p)
	if err != nil {
		return nil, err
	}
	out := &remora.Program{File: p.File, Source: Language.Name()}
	for _, inf := range infs {
		out.Exprs = append(out.Exprs, inf.Expr)
		out.Open = append(out.Open, inf.Open)
		out.Rational = append(out.Rational, inf.Rational)
	}
	return out, nil
}

// InternalError starts the message of an error Infer reports for a bug
// of its own (a panic it recovered from) rather than a refusal.
const InternalError = "internal error"

type inferError struct {
	pos semantics.Pos
	msg string
	// needsKnown: the construct is compiled only where its arguments
	// are known (antibase); an application lifting it over a frame
	// computes the whole application where they are (tryKnown).
	needsKnown bool
}

type elaborator struct {
	used  map[string]int // typed names given so far, to keep every binder distinct
	spans []span         // the constructs the marks name (infer_pos.go)
	// inlining is how many λ bodies are being elaborated, one inside
	// another: λs are specialised where they are applied, so a function
	// applied to itself (ω) would be inlined without end (maxInlining).
	inlining int
}

// maxInlining bounds the λ bodies elaborated one inside another. The
// dialect's programs nest a few; past this the elaboration is
// recursion, which the compile path does not take.
const maxInlining = 256

func (el *elaborator) fail(pos semantics.Pos, format string, args ...any) {
	panic(&inferError{pos: pos, msg: plain(fmt.Sprintf(format, args...))})
}

// fresh is a typed binder for x, distinct from every other binder of the
// elaboration (so that inlining a λ at its call site captures nothing).
// Index variables come from here too.
func (el *elaborator) fresh(x string) string {
	if x == "" { // a body's dropped value (begin)
		x = "_"
	}
	if !typedName(x) {
		x = "v" // a name the typed reader would not read back as one
	}
	n := el.used[x]
	el.used[x] = n + 1
	if n == 0 && !typedKeyword[x] {
		return x
	}
	return fmt.Sprintf("%s%%%d", x, n+1)
}

// typedName reports whether the typed reader reads x back as the one
// atom x naming a value: graphic characters, none of them a space or a
// delimiter, and no leading @ (which makes a Shape index variable). The
// dialect's reader takes more (control characters, @x), which the
// elaboration renames.
func typedName(x string) bool {
	if strings.HasPrefix(x, "@") {
		return false
	}
	for _, r := range x {
		if !unicode.IsGraphic(r) || unicode.IsSpace(r) || strings.ContainsRune("()[]{}\";|", r) {
			return false
		}
	}
	return true
}

// typedKeyword are the typed dialect's special forms, which the dynamic
// dialect lets name variables.
var typedKeyword = map[string]bool{
	"fn": true, "t-fn": true, "i-fn": true, "t-app": true, "i-app": true, "frame": true,
	"box": true, "boxes": true, "lift": true, "reify-dimension": true, "reify-shape": true, "reshape": true,
	"unbox": true, "let": true, "array": true,
}

// mustBeDefinite refuses an array that may hold the dialect's exact 0
// where its term has a float (aval.mz), wherever that would show.
func (el *elaborator) mustBeDefinite(pos semantics.Pos, as ...*aval) {
	for _, a := range as {
		if a != nil && a.mz {
			if a.mzAt.IsValid() {
				pos = a.mzAt
			}
			el.fail(pos, "%s", mzWhy)
		}
	}
}

// mzWhy is why a product of an exact integer and a float is refused
// where it would show.
const mzWhy = "(* n x) of an exact integer n and a float x is exact 0 when n is 0 (Racket's exact zero) and a float otherwise, but a compiled array has one atom type (only a float added to it hides the difference): convert n with exact->inexact"

// elab elaborates e; an array's term is marked with e's span.
func (el *elaborator) elab(e Expr, env *ienv) *aval {
	v := el.elab1(e, env)
	if v.funs != nil {
		return v
	}
	if ds, ok := consts(v.typ.shape); ok {
		if _, ok := atomCount(ds); !ok {
			// No level can hold or index it, and the terms that
			// compute a flat index (productTerm) would wrap around.
			el.fail(e.At(), "an array of shape %s has more atoms than an int64 counts", semantics.ShapeString(ds))
		}
	}
	w := *v
	w.term = el.mark(e.At(), e.End()) + v.term
	return &w
}

func (el *elaborator) elab1(e Expr, env *ienv) *aval {
	switch e := e.(type) {
	case *Lit:
		return el.literal(e.Pos, e.V)
	case *Var:
		v := env.lookup(e.Name)
		if v == nil {
			el.fail(e.Pos, "%s is not bound", e.Name)
		}
		if v.capref != "" {
			el.fail(e.Pos, "%s is a parameter of a λ that returns a function over a frame; it is used before that function is (only the returned function may use it, as a cell of the argument)", e.Name)
		}
		return v
	case *Prim:
		return &aval{funs: []*closure{{prim: e.Def}}}
	case *Lam:
		return &aval{funs: []*closure{{lam: e, env: env}}}
	case *Frame:
		return el.frame(e, env)
	case *App:
		var shape []int64
		if e.Shape != nil {
			sv := el.elab(e.Shape, env)
			shape = el.knownInts(e.Pos, "apply/shape", "shape", sv, 1)
		}
		fn := el.elab(e.Fn, env)
		args := make([]*aval, len(e.Args))
		for i, a := range e.Args {
			args[i] = el.elab(a, env)
		}
		if e.Shape != nil {
			return el.applyShaped(e.Pos, fn, args, shape)
		}
		return el.apply(e.Pos, fn, args)
	case *Let:
		return el.let(e, env)
	case *Rec:
		el.fail(e.Pos, "%s", e.refusal())
	case *Unbox:
		return el.unbox(e, env)
	}
	el.fail(e.At(), "cannot elaborate %s", ExprString(e))
	return nil
}

// literal elaborates an array value written in the program.
func (el *elaborator) literal(pos semantics.Pos, v *remora.Value) *aval {
	switch {
	case v.Kind == remora.KNum:
		term, ok := ratLiteral(v)
		if !ok {
			el.fail(pos, "the exact number %s: an integer past 64 bits (Racket's), which the compiled program does not have", describe(v))
		}
		return typedArray(term, ity{elem: v.Kind, shape: dimsOf(v.Shape)}, v)
	case v.Kind >= remora.KFunc:
		el.fail(pos, "a literal array of functions, boxes or pairs (only arises while stepping)")
	}
	return typedArray(v.TermString(), ity{elem: v.Kind, shape: dimsOf(v.Shape)}, v)
}

// let elaborates (let ((x e)) body) and define: the value bound whole;
// a box standing for a run-time shape is opened once for the body.
func (el *elaborator) let(e *Let, env *ienv) *aval {
	v := el.elab(e.Val, env)
	if v.funs != nil {
		body := el.elab(e.Body, &ienv{parent: env, name: e.X, val: v})
		return withPre(v.pre, body)
	}
	s := el.scope(e.Pos)
	w := s.open(v)
	x := el.fresh(e.X)
	bound := *w
	bound.term = x
	body := el.elab(e.Body, &ienv{parent: env, name: e.X, val: &bound})
	if body.funs != nil {
		s.wraps = append(s.wraps, "(let ["+x+" "+w.term+"] ")
		return s.close(body)
	}
	r := *body
	r.term = "(let [" + x + " " + w.term + "] " + body.term + ")"
	return s.close(&r)
}

// unbox elaborates (unbox x e body): body at the box's contents, the
// contents' dimensions bound to fresh index variables. Over a frame of
// boxes the typed unbox is lifted, as the dialect's is.
func (el *elaborator) unbox(e *Unbox, env *ienv) *aval {
	b := el.elab(e.Box, env)
	if b.funs != nil {
		el.fail(e.Pos, "unbox wants boxes, got a function: it would stop in unbox")
	}
	s := el.scope(e.Pos)
	b = s.open(b)
	el.notRagged(e.Pos, "unbox", b)
	frame := b.typ.shape
	if hasZero(frame) {
		// No box is opened: the result has the frame's shape (ERRATA
		// R10), whatever the body.
		return s.close(el.emptyResult(frame, []*aval{b}))
	}
	if b.typ.elem != remora.KBox {
		el.fail(e.Pos, "unbox wants boxes, got %s atoms: it would stop in unbox", b.typ.elem)
	}
	in := b.typ.box
	ds := make([]string, in.rank())
	shape := make([]remora.Nat, in.rank())
	for i := range ds {
		ds[i] = el.fresh("d")
		shape[i] = remora.NatVar(ds[i])
	}
	x := el.fresh(e.X)
	body := el.elab(e.Body, &ienv{parent: env, name: e.X, val: typedArray(x, in.with(shape), nil)})
	if body.funs != nil {
		el.fail(e.Pos, "the unbox's body is a function, whose argument types nothing here fixes")
	}
	el.mustBeDefinite(e.Pos, body)
	open := "(unbox " + b.term + " (" + x + " " + strings.Join(ds, " ") + ") "
	if len(frame) == 0 {
		inner := el.scope(e.Pos)
		inner.wraps, inner.dims, inner.boxes = []string{open}, ds, true
		return s.close(inner.close(body))
	}
	vs := map[string]bool{}
	body.typ.vars(vs)
	if len(body.hide) > 0 || slices.ContainsFunc(ds, func(d string) bool { return vs[d] }) {
		// Cells of the contents' shapes: the dialect collapses them if
		// they agree.
		inner := el.scope(e.Pos)
		inner.dims, inner.boxes = ds, true
		cell := inner.close(body)
		return s.close(el.collapseBoxes(e.Pos, frame, open+cell.term+")", cell.typ, cell.hide))
	}
	r := &aval{term: open + body.term + ")", typ: body.typ.with(append(append([]remora.Nat{}, frame...), body.typ.shape...))}
	if symbolic(frame) && body.typ.rank() > 0 {
		r.ragged = len(frame)
	}
	return s.close(r)
}

// emptyResult is the dialect's result of mapping over an empty frame:
// an array of the frame's shape (ERRATA R10), once the arguments are
// computed (they may go wrong).
func (el *elaborator) emptyResult(frame []remora.Nat, args []*aval) *aval {
	var params, as []string
	for _, a := range args {
		if a == nil || a.funs != nil {
			continue
		}
		x := el.fresh("x")
		params = append(params, "["+x+" "+a.typ.String()+"]")
		as = append(as, a.term)
	}
	body := "(replicate{int | " + natsString(frame) + " []} 0)"
	term := body
	if len(params) > 0 {
		term = "((fn (" + strings.Join(params, " ") + ") " + body + ") " + strings.Join(as, " ") + ")"
	}
	var known *remora.Value
	if ds, ok := consts(frame); ok {
		known = remora.NewValue(remora.KInt, ds, 0)
	}
	return typedArray(term, ity{elem: remora.KInt, shape: frame}, known)
}

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
	s := el.scope(e.Pos)
	for i := range vs {
		vs[i] = s.open(vs[i])
	}
	c0 := vs[0].typ
	elem := c0.elem
	ragged := 0
	if r := el.runTimeCells(e, vs); r != nil {
		return s.close(r)
	}
	for _, v := range vs {
		if !natsEqual(v.typ.shape, c0.shape) {
			_, ok1 := consts(c0.shape)
			_, ok2 := consts(v.typ.shape)
			if ok1 && ok2 {
				el.fail(e.Pos, "the frame's cells have shapes %s and %s: it would stop in collapse", natsString(c0.shape), natsString(v.typ.shape))
			}
			el.fail(e.Pos, "the frame's cells have shapes %s and %s, known only at run time: the dialect collapses them only if they agree (box them)", natsString(c0.shape), natsString(v.typ.shape))
		}
		switch {
		case v.typ.sameAtoms(c0) || v.typ.elem == elem && elem != remora.KBox:
		case isNum(v.typ.elem) && isNum(elem):
			elem = joinKinds(elem, v.typ.elem)
		case v.typ.elem == remora.KBox && elem == remora.KBox:
			el.fail(e.Pos, "the frame's boxes hold contents of different ranks or atoms (%s and %s), which one typed array of boxes cannot", c0.atom(), v.typ.atom())
		default:
			el.fail(e.Pos, "the frame mixes %s and %s atoms: it would stop in collapse", elem, v.typ.elem)
		}
		if v.ragged > 0 {
			ragged = len(e.Dims) + v.ragged
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
	t := ity{elem: elem, box: c0.box, shape: append(dimsOf(e.Dims), c0.shape...)}
	out := typedArray(nest(e.Dims, terms), t, known)
	out.ragged = ragged
	return s.close(out)
}

// runTimeCells is a frame whose cells have one rank and atom type but
// shapes that may differ, known only at run time: each boxed, and the
// boxes collapsed as the dialect collapses the cells (collapseBoxes); nil
// for any other frame.
func (el *elaborator) runTimeCells(e *Frame, vs []*aval) *aval {
	c0 := vs[0].typ
	differ := false
	for _, v := range vs {
		if !v.typ.sameAtoms(c0) || v.typ.rank() != c0.rank() {
			return nil
		}
		if !natsEqual(v.typ.shape, c0.shape) {
			if _, ok := consts(v.typ.shape); !ok {
				differ = true
			} else if _, ok := consts(c0.shape); !ok {
				differ = true
			}
		}
	}
	if !differ {
		return nil
	}
	terms := make([]string, len(vs))
	for i, v := range vs {
		terms[i] = el.boxOf(e.Pos, v).term
	}
	hide := make([]string, c0.rank())
	shape := make([]remora.Nat, c0.rank())
	for i := range hide {
		hide[i] = el.fresh("d")
		shape[i] = remora.NatVar(hide[i])
	}
	return el.collapseBoxes(e.Pos, dimsOf(e.Dims), nest(e.Dims, terms), c0.with(shape), hide)
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

// convertTo is v's term with its atoms as elem: an int array as floats
// or exact rationals, rationals as floats (the dialect's collapse joins
// numbers so).
func convertTo(v *aval, elem remora.Kind) string {
	switch {
	case v.typ.elem == remora.KInt && elem == remora.KFloat:
		return "(int->float " + v.term + ")"
	case v.typ.elem == remora.KInt && elem == remora.KNum:
		return toRat(v)
	case v.typ.elem == remora.KNum && elem == remora.KFloat:
		return "(" + ratToFloat + " " + v.term + ")"
	}
	return v.term
}

// evalThen is term computed after the arguments' terms (whose values the
// elaboration used statically but whose computations may go wrong).
func evalThen(args []*aval, term string) string {
	for i := len(args) - 1; i >= 0; i-- {
		if a := args[i]; a != nil && a.funs == nil && !isName(a.term) {
			term = "(let [_%e" + itoa(i) + " " + a.term + "] " + term + ")"
		}
	}
	return term
}

// split cuts an argument's shape by a cell rank, as the run-time lift does.
func split(shape []remora.Nat, rank int) (frame, cell []remora.Nat) {
	r := len(shape) - rank
	if rank == All || r < 0 {
		r = 0
	}
	return shape[:r], shape[r:]
}

// instantiation writes f{τ | ι …}.
func instantiation(name string, elems []string, ixs ...string) string {
	return name + "{" + strings.Join(elems, " ") + " | " + strings.Join(ixs, " ") + "}"
}

// knownInts is the statically known vector (rank 1) or scalar (rank 0)
// of ints an argument must be where the elaboration needs its value.
func (el *elaborator) knownInts(pos semantics.Pos, name, what string, a *aval, rank int) []int64 {
	if a.known == nil || a.known.Kind != remora.KInt && a.known.Len() > 0 || len(a.known.Shape) != rank {
		el.fail(pos, "%s's %s %s is not known before the program runs", name, what, a.term)
	}
	for _, d := range a.known.I {
		if d < 0 {
			el.fail(pos, "%s's %s has the negative %d: it would stop in δ", name, what, d)
		}
	}
	return append([]int64{}, a.known.I...)
}

func (el *elaborator) needMajor(pos semantics.Pos, name string, a *aval) {
	if len(a.typ.shape) == 0 {
		el.fail(pos, "%s wants an array with a major axis, got a scalar: it would stop in δ", name)
	}
}

// itoa64 writes n.
func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
