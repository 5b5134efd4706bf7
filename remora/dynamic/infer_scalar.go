package dynamic

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// prim elaborates the application of a primitive (or a frame of scalar
// primitives) whose frames agree and are big.
func (el *elaborator) prim(pos semantics.Pos, fn *aval, args []*aval, big []remora.Nat) *aval {
	p := fn.funs[0].prim
	if p.Name == "compose" {
		el.fail(pos, "compose makes a function at run time: apply the functions in a λ instead, (λ ((x 0)) (f (g x)))")
	}
	for _, a := range args {
		if a.funs != nil && p.Fold == nil {
			el.fail(pos, "%s takes arrays, not functions", p.Name)
		}
	}
	if p.Op != nil {
		return el.scalar(pos, fn, args, big)
	}
	if len(fn.funs) > 1 || len(fn.fshape) > 0 {
		el.fail(pos, "an array of %s primitives", p.Name)
	}
	if p.Name == "if" {
		return el.ifPrim(pos, fn, args, big)
	}
	// The rest have cell rank all (or a rank past their arguments'): a
	// scalar frame, the whole arguments.
	var r *aval
	if p.Fold != nil {
		r = el.fold(pos, p, args)
	} else {
		r = el.major(pos, p, args)
	}
	// The value is computed only where the type says it is small: what
	// the elaborator keeps is bounded by knownLimit, and computing a
	// large value to throw it away costs what the run costs (iota of
	// 4·10^8 took 3 GB to compile).
	if ds, ok := consts(r.typ.shape); ok && r.known == nil && len(r.hide) == 0 && smallShape(ds) {
		if v := el.knownApp(pos, p, args); v != nil {
			if semantics.SameShape(ds, v.Shape) && (v.Kind == r.typ.elem || v.Len() == 0) {
				k := typedArray(r.term, r.typ, v)
				r.known, r.nats, r.zero, r.nonzero = k.known, k.nats, k.zero, k.nonzero
			}
		}
	}
	return r
}

// knownApp is the value of a primitive's application to arguments the
// elaborator knows (arrays, and primitives for the fold family's
// operator), by the dialect's own rules; nil if it does not know them or
// the application goes wrong (where the program goes wrong at run time).
func (el *elaborator) knownApp(pos semantics.Pos, p *PrimDef, args []*aval) *remora.Value {
	app := &App{Pos: pos, Fn: &Prim{Pos: pos, Def: p}}
	for _, a := range args {
		switch {
		case a.funs != nil && len(a.funs) == 1 && a.funs[0].prim != nil && len(a.fshape) == 0:
			app.Args = append(app.Args, &Prim{Pos: pos, Def: a.funs[0].prim})
		case a.funs == nil && a.known != nil:
			app.Args = append(app.Args, &Lit{Pos: pos, V: a.known})
		default:
			return nil
		}
	}
	v, err := EvalExpr(app, nil)
	if err != nil || v.Kind > remora.KChar && v.Kind != remora.KNum || v.Len() > knownLimit {
		return nil
	}
	return v
}

// ifPrim elaborates if on scalar cells: the typed if, whose branches
// hold one atom type.
func (el *elaborator) ifPrim(pos semantics.Pos, fn *aval, args []*aval, big []remora.Nat) *aval {
	c, a, b := args[0], args[1], args[2]
	if c.typ.elem != remora.KBool {
		el.fail(pos, "if's condition holds %s atoms, not bool: it would stop in δ", c.typ.elem)
	}
	el.mustBeDefinite(pos, a, b)
	elem := a.typ.elem
	switch {
	case a.typ.sameAtoms(b.typ):
	case a.typ.elem == remora.KBox || b.typ.elem == remora.KBox:
		el.fail(pos, "if's branches hold %s and %s", a.typ.atom(), b.typ.atom())
	case !isNum(a.typ.elem) || !isNum(b.typ.elem):
		el.fail(pos, "if's branches hold %s and %s atoms", a.typ.elem, b.typ.elem)
	case joinKinds(a.typ.elem, b.typ.elem) == remora.KNum:
		// An exact integer and an exact rational: the dialect's if
		// gives the one it picks, which prints as the rational of its
		// value does.
		elem = remora.KNum
	default:
		// The dialect's if picks a cell, exact or float, and only a
		// frame's collapse makes them floats: the kind depends on the
		// condition.
		if v := el.foldKnown(pos, fn, args); v != nil {
			return v
		}
		el.fail(pos, "if's branches hold %s and %s atoms, and the dialect's if gives the one it picks (an exact integer or a float) where a compiled array has one atom type: convert the integers with exact->inexact", a.typ.elem, b.typ.elem)
	}
	term := "(if{" + a.typ.atom() + " | } " + c.term + " " + convertTo(a, elem) + " " + convertTo(b, elem) + ")"
	t := a.typ.with(big)
	t.elem = elem
	out := typedArray(term, t, nil)
	out.nonzero, out.zero = a.nonzero && b.nonzero, a.zero && b.zero
	return out
}

// scalar elaborates a scalar primitive: the typed primitive that takes
// the arguments' atom kinds, ints converted where floats are wanted, or
// a typed function computing what the dialect computes (scalarTemplate).
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
func (el *elaborator) scalar(pos semantics.Pos, fn *aval, args []*aval, big []remora.Nat) (out *aval) {
	defer func() {
		if r := recover(); r != nil {
			k, ok := r.(knownResult)
			if !ok {
				panic(r)
			}
			out = k.v
		}
	}()
	single := len(fn.funs) == 1 && len(fn.fshape) == 0
	name := fn.funs[0].prim.Name
	for _, a := range args {
		if a.typ.elem == remora.KBox {
			el.fail(pos, "%s takes numbers, booleans or characters, got boxes: it would stop in δ", name)
		}
	}
	if perPositionScalars(fn, args) {
		ranks, frames, cells := scalarFrames(fn, args)
		return el.applyPerPosition(pos, fn, args, ranks, frames, cells, big) // infer_mimd.go
	}
	if single && len(args) == 1 {
		// The conversions are the identity on what they convert to:
		// (float->int 5) is 5, not (float->int (int->float 5)), which
		// loses precision past 2^53.
		if to, ok := conversions[name]; ok && args[0].typ.elem == to {
			return args[0]
		}
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
		other := args[len(args)-1]
		if !args[0].mz {
			other = args[0]
		}
		ok := single && len(args) == 2 && mzs == 1 && other.typ.elem == remora.KFloat &&
			(name == "+" || name == "-" && args[0].mz)
		if !ok {
			el.fail(pos, "%s", mzWhy)
		}
	}
	if single {
		if v := el.variadic(pos, fn, args); v != nil {
			return v
		}
		if v := el.ratScalar(pos, fn, args, big); v != nil {
			return v
		}
		if v := el.scalarTemplate(pos, fn, args, big); v != nil {
			return v
		}
	}
	// What has no typed counterpart is computed here when its arguments
	// are known, by the dialect's own δ-rule.
	fail := func(format string, args2 ...any) {
		if v := el.foldKnown(pos, fn, args); v != nil {
			panic(knownResult{v})
		}
		el.fail(pos, format, args2...)
	}
	var impls []*remora.PrimDef
	vals := make([]*remora.Value, len(args))
	for i, a := range args {
		vals[i] = remora.NewValue(a.typ.elem, nil, 1) // kinds only
	}
	for _, c := range fn.funs {
		if exactOnInts[c.prim.Name] {
			for _, a := range args {
				if a.typ.elem == remora.KInt {
					fail("%s of exact numbers is exact here ((expt 2 -3) is 1/8) and a float in the typed core: write (%s (exact->inexact x) y)", c.prim.Name, c.prim.Name)
				}
			}
		}
		if why, ok := refusedScalar[c.prim.Name]; ok {
			fail("%s", why)
		}
		if c.prim.Name == "/" && !slices.ContainsFunc(args, func(a *aval) bool { return a.typ.elem == remora.KFloat }) {
			fail("(/ a b) of exact numbers in an array of functions: its exact rational has another type than the other functions' results")
		}
		if !c.prim.typedAt(len(args)) {
			fail("%s on %d arguments of %s has no typed counterpart (Racket's numbers and arities are the dialect's own)", c.prim.Name, len(args), kindNames(args))
		}
		impl, _, err := c.prim.resolve(&remora.Call{Pos: pos}, vals)
		if err != nil {
			msg := err.Error()
			var se *semantics.Error
			if errors.As(err, &se) {
				msg = se.Msg
			}
			fail("%s: the typed core has no %s of these atoms", msg, c.prim.Name)
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
	if v := el.maybeExactZero(pos, fn, args, big); v != nil {
		return v
	}
	names := make([]string, len(impls))
	for i, impl := range impls {
		names[i] = impl.Name
	}
	fs, _ := consts(fn.fshape)
	terms := []string{nest(fs, names)}
	knowns := make([]*remora.Value, len(args))
	for i, a := range args {
		switch {
		case a.typ.elem == remora.KInt && ks[i] == remora.KFloat && (name == "+" || name == "-" && i == 0):
			terms = append(terms, exactZero(a))
		default:
			terms = append(terms, convertTo(a, ks[i]))
		}
		knowns[i] = a.known
	}
	var known *remora.Value
	if cbig, ok := consts(big); ok && single && allKnown(knowns) && product(cbig) > 0 { // an empty frame: nothing to compute (and remora.ScalarLoop wants cells)
		conv := make([]*remora.Value, len(knowns))
		frames := make([][]int64, len(args))
		for i, k := range knowns {
			conv[i] = k
			if k.Kind == remora.KInt && ks[i] == remora.KFloat {
				conv[i] = toFloat(k)
			}
			frames[i] = k.Shape
		}
		known, _ = remora.ScalarLoop(impls[0], conv, cbig, frames, impls[0].ResultKind(), pos)
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
	out = typedArray("("+strings.Join(terms, " ")+")", ity{elem: impls[0].ResultKind(), shape: big}, known)
	if single && name == "+" && len(args) == 2 && ks[0] == remora.KInt {
		// The sum of two indices is one (a size grown by a constant).
		if len(args[0].nats) == 1 && len(args[1].nats) == 1 && len(big) == 0 {
			out.nats = []remora.Nat{args[0].nats[0].Plus(args[1].nats[0])}
		}
	}
	return out
}

func kindNames(args []*aval) string {
	ks := make([]string, len(args))
	for i, a := range args {
		ks[i] = a.typ.elem.String()
	}
	return strings.Join(ks, " and ")
}

// knownResult unwinds scalar to the value foldKnown computed where the
// primitive has no typed counterpart.
type knownResult struct{ v *aval }

// variadic elaborates a primitive of any number of arguments (Racket's
// + - * / max min and or and the comparisons) applied to other than two:
// its unit for none, the argument for one, and for more the pairwise
// applications, left to right, as the dialect folds them (a comparison
// is the conjunction of its neighbouring pairs). nil where the one-
// argument form is a function of its own ((- x), (/ x)).
func (el *elaborator) variadic(pos semantics.Pos, fn *aval, args []*aval) *aval {
	p := fn.funs[0].prim
	name := p.Name
	if !variadicOps[name] && !comparison[name] || len(args) == 2 {
		return nil
	}
	logical := name == "and" || name == "or"
	for _, a := range args {
		if logical && a.typ.elem != remora.KBool || !logical && !isNum(a.typ.elem) {
			el.fail(pos, "%s takes %s, got %s atoms: it would stop in δ", name, map[bool]string{true: "booleans", false: "numbers"}[logical], a.typ.elem)
		}
	}
	switch len(args) {
	case 0:
		unit, ok := map[string]string{"+": "0", "*": "1", "and": "#t", "or": "#f"}[name]
		if !ok {
			return nil
		}
		v, _ := ParseExpr("unit", unit, nil)
		return el.literal(pos, v.(*Lit).V)
	case 1:
		switch {
		case comparison[name]:
			x := el.fresh("x")
			return typedArray("((fn (["+x+" "+args[0].typ.with(nil).String()+"]) #t) "+args[0].term+")", ity{elem: remora.KBool, shape: args[0].typ.shape}, nil)
		case name == "-" || name == "/" || name == "gcd" || name == "lcm":
			return nil
		}
		return args[0]
	}
	if comparison[name] {
		and := &aval{funs: []*closure{{prim: Basis["and"]}}}
		r := el.apply(pos, fn, args[:2])
		for k := 2; k < len(args); k++ {
			r = el.apply(pos, and, []*aval{r, el.apply(pos, fn, args[k-1:k+1])})
		}
		return r
	}
	r := el.apply(pos, fn, args[:2])
	for _, a := range args[2:] {
		r = el.apply(pos, fn, []*aval{r, a})
	}
	return r
}

// variadicOps are the dialect's arithmetic of any number of arguments
// that folds them pairwise, left to right.
var variadicOps = map[string]bool{"+": true, "-": true, "*": true, "/": true, "max": true, "min": true, "and": true, "or": true, "gcd": true, "lcm": true}

// comparison are the dialect's comparisons of numbers.
var comparison = map[string]bool{"<": true, "<=": true, ">": true, ">=": true, "=": true, "!=": true}

// refusedScalar are the scalar primitives whose values the compiled
// levels do not have, and what to write instead.
var refusedScalar = map[string]string{
	"log":            "(log x) is the base-10 logarithm, which the compiled levels have no exact function for: write (/ (ln x) (ln 10)), computed the same at every level",
	"lg":             "(lg x) is the base-2 logarithm, which the compiled levels have no exact function for: write (/ (ln x) (ln 2)), computed the same at every level",
	"inv":            "(inv n) of an exact integer is an exact rational (Racket's), which the compiled program does not have: write (/ 1. n)",
	"inexact->exact": "inexact->exact makes an exact rational of a float (0.5 is 1/2), which the compiled program does not have: use float->int for integral floats",
	"logb":           "logb has no exact function at the compiled levels: write (/ (ln x) (ln b))",
	"expt":           "expt: the compiled levels have no power function (FUN's float functions are sqrt, exp, log, sin and cos), and Racket's expt is exact or complex where a float power is not",
}

// scalarTemplate elaborates the scalar primitives the typed basis has no
// one primitive for, at these argument kinds, as a typed function of
// scalars applied to the arguments (lifted by the typed core over their
// frames); nil when it has none for them.
func (el *elaborator) scalarTemplate(pos semantics.Pos, fn *aval, args []*aval, big []remora.Nat) *aval {
	name := fn.funs[0].prim.Name
	ks := make([]remora.Kind, len(args))
	for i, a := range args {
		ks[i] = a.typ.elem
	}
	is := func(want ...remora.Kind) bool { return slices.Equal(ks, want) }
	const I, F = remora.KInt, remora.KFloat
	call := func(f string, ret remora.Kind, conv ...remora.Kind) *aval {
		terms := []string{f}
		for i, a := range args {
			k := a.typ.elem
			if i < len(conv) {
				k = conv[i]
			}
			terms = append(terms, convertTo(a, k))
		}
		out := typedArray("("+strings.Join(terms, " ")+")", ity{elem: ret, shape: big}, el.knownOf(pos, fn, args, ret, big))
		return out
	}
	switch name {
	case "=", "!=", "<", "<=", ">", ">=":
		switch {
		case is(F, F) && (name == "=" || name == "!="):
			eq := "(and (<=. a b) (>=. a b))"
			if name == "!=" {
				eq = "(not " + eq + ")"
			}
			return call("(fn ([a float] [b float]) "+eq+")", remora.KBool)
		case is(I, F):
			return call(exactCompare(name), remora.KBool)
		case is(F, I):
			return call("(fn ([x float] [n int]) ("+exactCompare(mirror[name])+" n x))", remora.KBool)
		}
	case "-", "neg":
		switch {
		case is(I):
			return call("(fn ([a int]) (-! 0 a))", I)
		case is(F):
			return call("(fn ([a float]) (*. -1. a))", F)
		}
	case "/":
		switch {
		case is(F, F):
			return call("/.", F)
		case is(I, F):
			a := args[0]
			if a.nonzero {
				return call("/.", F, F)
			}
			if a.zero {
				out := call("(fn ([n int] [x float]) n)", I)
				out.zero = true
				return out
			}
			v := call("(fn ([n int] [x float]) (if{float | } (= n 0) -0. (/. (int->float n) x)))", F)
			v.mz, v.mzAt = true, pos
			return v
		case is(F, I):
			if args[1].nonzero {
				return call("/.", F, F, F)
			}
			// Division by an exact 0 goes wrong (Racket's /), by 0.0
			// it is an infinity: (/! 1 d) is stuck exactly where d is 0.
			return call("(fn ([x float] [d int]) (/. x (int->float (-! d (*! 0 (/! 1 d))))))", F)
		case is(F):
			return call("(fn ([x float]) (/. 1. x))", F)
		case is(I, I), is(I):
			if v := el.foldKnown(pos, fn, args); v != nil {
				return v
			}
			el.fail(pos, "(/ a b) of exact integers is Racket's exact rational (7/2), which the compiled program does not have: write (quotient a b) for the integer quotient, or (/ (exact->inexact a) b) for a float")
		}
	case "exact->inexact":
		switch {
		case is(I):
			return call("int->float", F)
		case is(F):
			return args[0]
		}
	case "add1", "sub1":
		op := map[string]string{"add1": "+", "sub1": "-"}[name]
		switch {
		case is(I):
			return call("(fn ([a int]) ("+op+"! a 1))", I)
		case is(F):
			return call("(fn ([a float]) ("+op+". a 1.))", F)
		}
	case "sqr":
		switch {
		case is(I):
			return call("(fn ([a int]) (*! a a))", I)
		case is(F):
			return call("(fn ([a float]) (*. a a))", F)
		}
	case "id":
		if len(args) == 1 {
			return args[0]
		}
	case "inv":
		if is(F) {
			return call("(fn ([x float]) (/. 1. x))", F)
		}
	case "signum":
		switch {
		case is(I):
			return call("(fn ([a int]) (if{int | } (< a 0) -1 (if{int | } (> a 0) 1 0)))", I)
		case is(F):
			// The dialect's: 0.0 for either zero, NaN for NaN.
			return call("(fn ([a float]) (if{float | } (<. a 0.) -1. (if{float | } (>. a 0.) 1. (if{float | } (<=. a a) 0. a))))", F)
		}
	case "modulo":
		if is(I, I) {
			return call("(fn ([a int] [b int]) ((fn ([r int]) (if{int | } (or (and (< r 0) (> b 0)) (and (> r 0) (< b 0))) (+! r b) r)) (% a b)))", I)
		}
	case "gcd", "lcm":
		if is(I, I) {
			if name == "gcd" {
				return call(gcdFn, I)
			}
			return call("(fn ([a int] [b int]) ((fn ([g int]) (if{int | } (= g 0) 0 (abs! (*! (/! a (if{int | } (= g 0) 1 g)) b)))) ("+gcdFn+" a b)))", I)
		}
	}
	return nil
}

// gcdFn is Euclid's algorithm on two ints as a typed function: a fold of
// 93 steps, as many as two 64-bit numbers can need (F93 > 2^63), each
// [x y] → [y x mod y] until y is 0. abs! of the least int64 is stuck on
// the overflow, where Racket's gcd is 2^63.
const gcdFn = "(fn ([a int] [b int]) (head{int | 1 []} (fold{int int | 93 [] [2]} (fn ([acc [int 2]] [i int]) ((fn ([x int] [y int]) (if{int | } (= y 0) [x y] [y (% x (if{int | } (= y 0) 1 y))])) (head{int | 1 []} acc) (head{int | 0 []} (tail{int | 1 []} acc)))) [(abs! a) (abs! b)] iota{ | [93]})))"

// mirror is the comparison with its operands swapped.
var mirror = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!="}

// exactCompare is Racket's comparison of an exact integer n with a
// float x as a typed function of n and x: exact at every magnitude (an
// int64 past 2^53 is no float). Where the float f nearest n is not x,
// comparing f with x decides (n is within half an ulp of f); where it is
// x, x is an integer, compared with n as ints (x clamped into int64's
// range first, 2^63 and past being above every int64); NaN compares
// false.
func exactCompare(op string) string {
	rel := map[string]string{
		"<":  "less",
		"<=": "(or less equal)",
		"=":  "equal",
		"!=": "(not equal)",
		">":  "greater",
		">=": "(or greater equal)",
	}[op]
	const (
		less    = "(or (<. f x) (and (not (>. f x)) (and (<=. x x) (or big (< n xi)))))"
		equal   = "(and (and (not (<. f x)) (not (>. f x))) (and (<=. x x) (and (not big) (= n xi))))"
		greater = "(or (>. f x) (and (not (<. f x)) (and (<=. x x) (and (not big) (> n xi)))))"
	)
	rel = strings.NewReplacer("less", less, "equal", equal, "greater", greater).Replace(rel)
	return "(fn ([n int] [x float]) ((fn ([f float] [xi int] [big bool]) " + rel + ") (int->float n) (float->int (max. -9223372036854775808. (min. 9223372036854774784. (if{float | } (<=. x x) x 0.)))) (>=. x 9223372036854775808.)))"
}

// knownOf is the dialect's value of a scalar application whose
// arguments are all known, when it has atoms of kind ret.
func (el *elaborator) knownOf(pos semantics.Pos, fn *aval, args []*aval, ret remora.Kind, big []remora.Nat) *remora.Value {
	if _, ok := consts(big); !ok {
		return nil
	}
	v := el.foldKnown(pos, fn, args)
	if v == nil || v.known == nil || v.known.Kind != ret {
		return nil
	}
	return v.known
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

// valueDependent says why the kind of a scalar primitive's result
// depends on its arguments' values in the dialect (so that no typed
// term has it), or "": an exact integer given to a function that is
// exact at special points ((sqrt 4) is 2, (exp 0) is 1, (sin 0) is 0).
// (An exact integer times a float is maybeExactZero's.)
func valueDependent(name string, args []*aval) string {
	if why, ok := refusedScalar[name]; ok && exactAtSpecial[name] {
		return why
	}
	for _, a := range args {
		if a.typ.elem == remora.KInt && exactAtSpecial[name] {
			return fmt.Sprintf("(%s n) of an exact integer n is exact where Racket's is (at 0 or 1, or a perfect square for sqrt) and a float elsewhere, but a compiled array has one atom type: write (%s (exact->inexact n))", name, name)
		}
	}
	return ""
}

// conversions are the dialect's conversions of numbers, by the kind they
// give.
var conversions = map[string]remora.Kind{"float->int": remora.KInt, "int->float": remora.KFloat}

// exactAtSpecial are the dialect's functions that give an exact result
// for some exact arguments (the exactAt of scalar.go's inexact, and
// sqrt of a perfect square).
var exactAtSpecial = map[string]bool{
	"sqrt": true, "exp": true, "ln": true, "log": true, "lg": true, "sin": true, "cos": true, "tan": true,
	"arcsin": true, "arccos": true, "arctan": true, "asin": true, "acos": true, "atan": true,
}

// maybeExactZero elaborates (* n x) of an exact integer n and a float x,
// whose value is exact 0 in the dialect when n is 0: where n is known not
// to be 0 it is a float product; where it is known to be 0, exact 0s;
// else it is the float product or -0.0 where n is 0, marked mz
// (aval.mz), which only a float addition may use. It returns nil for any
// other application.
func (el *elaborator) maybeExactZero(pos semantics.Pos, fn *aval, args []*aval, big []remora.Nat) *aval {
	if len(fn.funs) != 1 || len(fn.fshape) > 0 || fn.funs[0].prim.Name != "*" || len(args) != 2 {
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
		return typedArray("(*. "+convertTo(args[0], remora.KFloat)+" "+convertTo(args[1], remora.KFloat)+")", ity{elem: remora.KFloat, shape: big}, nil)
	}
	if a.zero {
		v := typedArray("((fn ([n int] [x float]) n) "+a.term+" "+b.term+")", ity{elem: remora.KInt, shape: big}, nil)
		v.zero = true
		return v
	}
	v := typedArray("((fn ([n int] [x float]) (if{float | } (= n 0) -0. (*. (int->float n) x))) "+a.term+" "+b.term+")", ity{elem: remora.KFloat, shape: big}, nil)
	v.mz, v.mzAt = true, pos
	return v
}

// foldKnown computes an application of one scalar primitive (or an
// array of them, primArray) to known
// arguments by the dialect's own δ-rule, as a literal of the result's
// kind; nil when an argument is not known or the result is no array of
// ints, floats, booleans or characters (an exact number past int64, a
// rational) or the δ-rule goes wrong (the program must go wrong at run
// time, where it does).
func (el *elaborator) foldKnown(pos semantics.Pos, fn *aval, args []*aval) *aval {
	app := &App{Pos: pos, Fn: primArray(pos, fn)} // infer_mimd.go
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
	if err != nil || v.Kind > remora.KChar && v.Kind != remora.KNum {
		return nil
	}
	term := v.TermString()
	if v.Kind == remora.KNum {
		var ok bool
		if term, ok = ratLiteral(v); !ok {
			return nil
		}
	}
	return typedArray(evalThen(args, term), ity{elem: v.Kind, shape: dimsOf(v.Shape)}, v)
}

// exactZero is an int argument of a float + (or the left one of a float
// -) as the float that keeps the dialect's exact 0: -0.0 for 0, int->float
// of the rest. -0.0 is IEEE's additive identity (-0.0 + x is x for every
// x, -0.0 included) and -0.0 - x is -x, as (+ 0 x) and (- 0 x) are. (The
// right operand of - is converted as it is: x - 0.0 is x already.)
func exactZero(a *aval) string {
	if a.nonzero {
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
