package proofstests

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/remora/dynamic"
)

// EraseRemora erases a checked expression of Remora's typed core (the
// output of remora.Check: applications, frames and λs annotated, lets
// turned into β-redexes, unbox and lift over a frame turned into lifted
// λs) into the source text of the rank-annotated untyped dialect
// (remora/dynamic), or fails with an error "not erasable: why" when a rule
// below does not apply. Types become cell ranks; type and index
// abstractions and applications disappear; the basis's instantiated
// primitives, whose cell shapes come from their instantiation, become the
// dynamic primitives (cell rank all, a scalar frame) under a λ that gives
// each argument the rank of its typed cell. Index variables, which the
// typed semantics substitutes, live on as term variables where the erased
// program needs their value as a number (see "index terms" below).
//
// The rules, term by term:
//
//   - A literal is the same literal, printed as the dynamic dialect prints
//     a value (dynamic.ExprString of a dynamic.Lit: 1. for a float, a
//     string for a character vector, (array [0 3]) for an empty array).
//     Literals of functions or boxes (which only reduction makes) are not
//     erasable.
//   - A frame [e …] of dims D is [e′ …] nested by D (the dynamic reader
//     collapses nesting as the typed one does); an empty frame is the
//     literal (array [D… S…]) where S is its cell shape, or, when S has
//     index variables, (reshape [D… S…] (array [0])) with S as index terms.
//   - A variable is its name. Names the dynamic dialect cannot read or
//     that would mean something else there (those with a %, which the
//     checker's elaboration invents, box%1 and n%2; the dynamic keywords;
//     names of dynamic primitives, which the primitives the erasure writes
//     must not see shadowed) are renamed at their binder to a fresh name
//     that occurs nowhere in the program.
//   - A primitive used bare is its name; only the monomorphic scalar
//     primitives (+, +., <, and, sqrt, …, whose type is a function of
//     scalar cells) can be, and the dynamic basis has each of them with
//     cell rank 0. A polymorphic primitive used bare (bound to a variable
//     and instantiated later) is not erasable: its instantiation, which
//     fixes its cell ranks, is not at the primitive.
//   - (fn ([x τ] …) e) is (λ ((x r) …) e′) where r is the rank of τ's
//     shape, its number of dimensions (a Nat variable counts as one; a
//     parameter of function or box atoms has the rank of its array type,
//     usually 0). A shape with a Shape variable (@s) has no static rank:
//     not erasable, except in the next rule.
//   - ((fn ([x τ]) body) e) whose application frame is scalar (its type is
//     the λ's result type), the β-redex that remora.Check makes of
//     (let [x e] body), is (let ((x e′)) body′): a let binds the whole
//     value, whatever τ's rank (so a let of a value whose shape has a Shape
//     variable erases too).
//   - (t-fn (t …) e) and (i-fn (i …) e) are e′; the body must be a value
//     term (a λ, a variable, a primitive, a literal or another
//     abstraction), since the typed abstraction delays it and the erasure
//     does not. (t-app e τ …) and (i-app e ι …) of anything but a primitive
//     are e′.
//   - An instantiated primitive π{τ … | ι …} is the λ
//     (λ ((a1 r1) … (an rn)) body) where ri is the rank of parameter i of
//     π's type at this instantiation (which must have no Shape variable);
//     applied, it is that λ applied to the erased arguments, so the
//     arguments lift over the typed frame as they did in the typed core.
//     The body per primitive (ι′ is the index ι as a term):
//     length, reverse, head, append, rotate, iscan, iscan-init, fold,
//     fold-right, trace, trace-right: (π a1 …); tail: (behead a1) (the
//     dynamic tail is the last item, ERRATA R16);
//     reduce-init: (head (reverse (scan a1 a2 a3))), the last accumulator
//     of the left scan (the dynamic reduce is a tree that ignores its base
//     when there are items, R16); scan-init: (scan a1 a2 a3);
//     reduce (no initial value): (head (reverse (iscan a1 a2)));
//     subvector{t | d-in d-out @c}: (subvector a1 a2 d-out′);
//     scatter{t | d-in d-out @c}: (scatter a1 a2 d-out′);
//     index{t | @s @c l}: (index a1 a2), with l = rank @s constant (a
//     typed index with another l is stuck whenever it runs, the dynamic one
//     is not);
//     replicate{t | @s @c}: (replicate @s′ a1);
//     filter: (box (filter a2 a1)) (the typed filter takes the items first
//     and returns a box, the dynamic one the booleans first and returns
//     the array).
//     The typed / and log are the dynamic quotient and ln (R15, R16).
//     Two are not λs: iota{ | @s} is the array (iota @s′), and if{τ | }
//     is if, whose dynamic cells are scalars as the typed ones.
//   - (reify-dimension ι) and (reify-shape ι) are ι′; (reshape @s e) is
//     (reshape @s′ e′).
//   - (box (ι …) τ e), and each box of boxes, is (box e′) (the dynamic box
//     has no witnesses). (unbox e (x d …) body) is (unbox x e′ body′).
//   - (lift [d e] body) is (let ((d′ e′)) (let ((ok (reshape [d′ 0]
//     (array [0])))) (box body′))): d′ is d's value as a term, and the
//     reshape is stuck, as the typed lift is, when it is negative.
//
// Index terms. An index that the erased program needs as a number (ι′
// above) is a literal when it is constant: 3, [2 3], [] for the empty
// shape. A Nat variable is a term variable bound to its value, where the
// erasure can compute it: the dimension of a lift; a hidden index of an
// unbox that is a dimension of the contents' type, at a position before
// any Shape variable, (index (shape-of x) [k]) (minus c for an item
// (+ d c)); an index parameter of an i-fn that is such a dimension of one
// of its λ's parameters, computed likewise from the parameter's cell at
// the start of the λ's body. Such a variable is bound, by a let, only
// where it is used. A Nat sum is (+ …) of its parts; a Shape index is
// [ι′ …]. A Shape variable, or a Nat variable with no term, where a number
// is needed, is not erasable.
func EraseRemora(e remora.Expr, opts *EraseOptions) (src string, err error) {
	defer func() {
		if r := recover(); r != nil {
			ne, ok := r.(notErasable)
			if !ok {
				panic(r)
			}
			src, err = "", ne
		}
	}()
	er := &eraser{used: map[string]bool{}}
	if opts != nil {
		er.opts = *opts
	}
	collectNames(e, er.used)
	return er.expr(e, nil), nil
}

// EraseOptions change the erasure.
type EraseOptions struct {
	// RestoreEmpty writes every empty array whose typed shape is known
	// (constant, or with index variables that have terms) with its typed
	// shape and atom kind, which the dynamic dialect cannot know: there, an
	// empty literal is an array of ints ((array [0 2]) and [] read so), and
	// the result of a map over an empty frame is an array of ints of the
	// frame's shape (the cells that were never computed count as scalars,
	// dynamic.emptyResult). So an empty result can have fewer axes than the
	// typed one, which a later application then splits into other frames,
	// and an empty array's kind shows in the holes of a scatter. With
	// RestoreEmpty,
	//   - an empty literal or frame of shape S and base atoms z is
	//     (reshape S′ (behead [z])), an empty array of kind z;
	//   - an application app of typed result [τ S], where S may have a 0
	//     (a constant S with a 0, or an S with index variables that have
	//     terms), is
	//     ((λ ((v all)) ((if (= 0 (reduce * 1 (shape-of v))) (λ ((u all)) E)
	//     (λ ((u all)) u)) v)) app′):
	//     the application still runs, for its errors, and when its value v
	//     has no atoms, it is E, the empty array of that type, which the
	//     type fixes (written as above, or (reshape S′ v) for atoms that
	//     are not base); a value with atoms is left as it is, so that a
	//     wrong one still shows;
	//   - the operator of the reduce and scan family, which the dynamic
	//     primitive applies over the items' @pad as the typed one does, is
	//     (λ ((p all) (q all)) R) where R is the application (a1 p q) with
	//     its result restored as above, when @pad may have a 0.
	// The typed semantics would not notice any of these changes; the
	// property tries this erasure when the plain one disagrees, and counts
	// the programs on which only it agrees.
	RestoreEmpty bool
}

// notErasable is why a term has no erasure; its message starts "not
// erasable: ", then a short reason (which the properties group by), then
// details after " — ".
type notErasable struct{ reason, detail string }

func (n notErasable) Error() string {
	if n.detail == "" {
		return "not erasable: " + n.reason
	}
	return "not erasable: " + n.reason + " — " + n.detail
}

// EraseReason is the short reason of an erasure error ("" for other
// errors), for grouping.
func EraseReason(err error) string {
	if ne, ok := err.(notErasable); ok {
		return ne.reason
	}
	return ""
}

func refuse(reason, format string, args ...any) {
	panic(notErasable{reason: reason, detail: fmt.Sprintf(format, args...)})
}

type eraser struct {
	opts  EraseOptions
	used  map[string]bool // every name of the program, and the fresh ones
	fresh int
}

// scope is what is bound around a term: term variables (their dynamic
// names, and typed types where known) and index variables (the variable
// bound to their value, when the erasure can compute it).
type scope struct {
	parent *scope
	typed  string // the typed name
	index  bool   // an index variable
	name   string // a term variable's dynamic name; the variable an index variable's value is bound to ("" for none)
	t      *remora.Arr
	usedAt *bool // an index variable's term was used
}

func (sc *scope) lookup(x string, index bool) *scope {
	for ; sc != nil; sc = sc.parent {
		if sc.typed == x && sc.index == index {
			return sc
		}
	}
	return nil
}

// freshName is a name that occurs nowhere in the program, from base.
func (er *eraser) freshName(base string) string {
	base = strings.Map(func(r rune) rune {
		if r == '%' || r == '@' {
			return '_'
		}
		return r
	}, base)
	if !dynamicName(base + "_0") {
		base = "v"
	}
	for {
		er.fresh++
		name := fmt.Sprintf("%s_%d", base, er.fresh)
		if !er.used[name] && dynamicName(name) {
			er.used[name] = true
			return name
		}
	}
}

// bind gives the typed term variable x (of type t, when known) its
// dynamic name: x itself when the dynamic dialect reads it as that
// variable, else a fresh name.
func (er *eraser) bind(sc *scope, x string, t *remora.Arr) (*scope, string) {
	name := x
	if !dynamicName(x) {
		name = er.freshName(x)
	}
	return &scope{parent: sc, typed: x, name: name, t: t}, name
}

// bindIndex binds the index variable x to term ("" for none); a term is
// bound by a let of a fresh name, which the caller writes when used is
// set.
func (er *eraser) bindIndex(sc *scope, x, term string) (*scope, *indexLet) {
	if term == "" {
		return &scope{parent: sc, typed: x, index: true}, nil
	}
	l := &indexLet{name: er.freshName(x), term: term, used: new(bool)}
	return &scope{parent: sc, typed: x, index: true, name: l.name, usedAt: l.used}, l
}

// indexLet is the let that binds an index variable's term.
type indexLet struct {
	name, term string
	used       *bool
}

// lets wraps body in the lets of the index variables it uses.
func lets(ls []*indexLet, body string) string {
	for i := len(ls) - 1; i >= 0; i-- {
		if l := ls[i]; l != nil && *l.used {
			body = "(let ((" + l.name + " " + l.term + ")) " + body + ")"
		}
	}
	return body
}

// dynamicName reports whether x reads in the dynamic dialect as the
// variable x and names no primitive there.
func dynamicName(x string) bool {
	if x == "" || strings.ContainsAny(x, "%@") || dynamic.Basis[x] != nil {
		return false
	}
	e, err := dynamic.ParseExpr("name", x, []string{x})
	if err != nil {
		return false
	}
	v, ok := e.(*dynamic.Var)
	return ok && v.Name == x
}

// collectNames adds every term variable name of e (bound or used) to set.
func collectNames(e remora.Expr, set map[string]bool) {
	walk := func(e remora.Expr) { collectNames(e, set) }
	switch e := e.(type) {
	case *remora.Var:
		set[e.Name] = true
	case *remora.Frame:
		for _, x := range e.Elems {
			walk(x)
		}
	case *remora.Lam:
		for _, p := range e.Params {
			set[p.Name] = true
		}
		walk(e.Body)
	case *remora.TLam:
		walk(e.Body)
	case *remora.ILam:
		walk(e.Body)
	case *remora.App:
		walk(e.Fn)
		for _, x := range e.Args {
			walk(x)
		}
	case *remora.TApp:
		walk(e.Fn)
	case *remora.IApp:
		walk(e.Fn)
	case *remora.Pack:
		walk(e.Body)
	case *remora.Unpack:
		set[e.X] = true
		walk(e.Box)
		walk(e.Body)
	case *remora.Let:
		set[e.X] = true
		walk(e.Val)
		walk(e.Body)
	case *remora.LiftDim:
		walk(e.N)
		walk(e.Body)
	case *remora.Reshape:
		walk(e.E)
	}
}

// rank is the number of dimensions of an array type, when it is static
// (no Shape variable).
func rank(t remora.Type) (int, bool) {
	a := remora.CanonArr(t)
	for _, it := range a.Shape {
		if it.Var != "" {
			return 0, false
		}
	}
	return len(a.Shape), true
}

func (er *eraser) expr(e remora.Expr, sc *scope) string {
	switch e := e.(type) {
	case *remora.Lit:
		if e.V.Kind >= remora.KFunc {
			refuse("literal of functions or boxes", "%s", remora.ExprString(e))
		}
		if e.V.Len() == 0 {
			return er.emptyIn(&remora.Arr{Elem: kindType[e.V.Kind], Shape: remora.Dims(e.V.Shape...)}, sc)
		}
		return dynamic.ExprString(&dynamic.Lit{V: e.V})
	case *remora.Var:
		v := sc.lookup(e.Name, false)
		if v == nil {
			refuse("free variable", "%s", e.Name)
		}
		return v.name
	case *remora.Prim:
		if _, ok := e.Def.Type.(*remora.Fn); !ok {
			refuse("polymorphic primitive used bare", "%s : %s", e.Def.Name, remora.TypeString(e.Def.Type))
		}
		name := e.Def.Name
		if n, ok := dynamicRename[name]; ok {
			name = n
		}
		if dynamic.Basis[name] == nil {
			refuse("primitive missing from the dynamic basis", "%s", e.Def.Name)
		}
		return name
	case *remora.Frame:
		return er.frame(e, sc)
	case *remora.Lam:
		return er.lam(e, sc, nil)
	case *remora.TLam, *remora.ILam:
		return er.abstraction(e, sc)
	case *remora.TApp, *remora.IApp:
		if p, is, ts, ok := instantiation(e); ok {
			return er.instantiated(p, is, ts, sc)
		}
		if t, ok := e.(*remora.TApp); ok {
			return er.expr(t.Fn, sc)
		}
		return er.expr(e.(*remora.IApp).Fn, sc)
	case *remora.App:
		return er.app(e, sc)
	case *remora.Pack:
		return "(box " + er.expr(e.Body, sc) + ")"
	case *remora.Unpack:
		return er.unpack(e, sc)
	case *remora.Let:
		// remora.Check makes lets β-redexes; an unchecked let erases too.
		val := er.expr(e.Val, sc)
		inner, x := er.bind(sc, e.X, nil)
		return "(let ((" + x + " " + val + ")) " + er.expr(e.Body, inner) + ")"
	case *remora.LiftDim:
		n := er.expr(e.N, sc)
		inner, l := er.bindIndex(sc, e.D, "?")
		*l.used = true
		body := er.expr(e.Body, inner)
		ok := er.freshName("ok")
		return "(let ((" + l.name + " " + n + ")) (let ((" + ok + " (reshape [" + l.name + " 0] (array [0])))) (box " + body + ")))"
	case *remora.Reify:
		if e.Index.IsShape {
			return er.shapeTerm("reify-shape", e.Index.S, sc)
		}
		return er.natTerm("reify-dimension", e.Index.N, sc)
	case *remora.Reshape:
		return "(reshape " + er.shapeTerm("reshape", e.Shape, sc) + " " + er.expr(e.E, sc) + ")"
	}
	refuse("unknown term", "%T", e)
	return ""
}

var kindType = map[remora.Kind]remora.Type{remora.KInt: remora.Int, remora.KFloat: remora.Float, remora.KBool: remora.Bool, remora.KChar: remora.Char}

// natTerm is a Nat index as a term: an int literal, or the terms of its
// variables added up.
func (er *eraser) natTerm(what string, n remora.Nat, sc *scope) string {
	if n.IsConst() {
		return strconv.FormatInt(n.Const, 10)
	}
	var parts []string
	for _, v := range n.Vars {
		b := sc.lookup(v, true)
		if b == nil || b.name == "" {
			refuse("index variable needed as a number", "%s at %s (%s has no term)", what, n, v)
		}
		*b.usedAt = true
		parts = append(parts, b.name)
	}
	if n.Const != 0 {
		parts = append(parts, strconv.FormatInt(n.Const, 10))
	}
	t := parts[0]
	for _, p := range parts[1:] {
		t = "(+ " + t + " " + p + ")"
	}
	return t
}

// shapeTerm is a Shape index as a term [ι′ …] (the index must have no
// Shape variable).
func (er *eraser) shapeTerm(what string, s remora.Shape, sc *scope) string {
	ss := make([]string, len(s))
	for i, it := range s {
		if it.Var != "" {
			refuse("Shape variable needed as a number", "%s at %s", what, s)
		}
		ss[i] = er.natTerm(what, it.Dim, sc)
	}
	return "[" + strings.Join(ss, " ") + "]"
}

// knownShape is s as a term when every index variable in it has one
// (ok false otherwise).
func (er *eraser) knownShape(s remora.Shape, sc *scope) (term string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(notErasable); !is {
				panic(r)
			}
			term, ok = "", false
		}
	}()
	return er.shapeTerm("", s, sc), true
}

// zeroAtom is an atom of the base type t.
func zeroAtom(t remora.Type) (string, bool) {
	b, ok := t.(*remora.Base)
	if !ok {
		return "", false
	}
	switch b.Name {
	case "int":
		return "0", true
	case "float":
		return "0.", true
	case "bool":
		return "#f", true
	case "char":
		return `#\a`, true
	}
	return "", false
}

func (er *eraser) frame(f *remora.Frame, sc *scope) string {
	if len(f.Elems) == 0 {
		if f.Type == nil {
			refuse("unchecked frame", "%s", remora.ExprString(f))
		}
		if _, ok := er.knownShape(f.Type.Shape, sc); !ok {
			refuse("empty frame of an unknown shape", "%s : %s", remora.ExprString(f), remora.TypeString(f.Type))
		}
		return er.emptyIn(f.Type, sc)
	}
	var b strings.Builder
	var nest func(dims []int64, es []remora.Expr)
	nest = func(dims []int64, es []remora.Expr) {
		if len(dims) == 0 {
			b.WriteString(er.expr(es[0], sc))
			return
		}
		size := len(es) / int(dims[0])
		b.WriteByte('[')
		for i := 0; i < int(dims[0]); i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			nest(dims[1:], es[i*size:(i+1)*size])
		}
		b.WriteByte(']')
	}
	nest(f.Dims, f.Elems)
	return b.String()
}

// emptyIn is the empty array of type t, whose shape may have index
// variables of the scope: the literal (array [ds…]) for a constant shape,
// else (reshape S′ (array [0])); with RestoreEmpty and base atoms z,
// (reshape S′ (behead [z])).
func (er *eraser) emptyIn(t *remora.Arr, sc *scope) string {
	st := er.shapeTerm("an empty array's shape", t.Shape, sc)
	if z, ok := zeroAtom(t.Elem); ok && er.opts.RestoreEmpty {
		return "(reshape " + st + " (behead [" + z + "]))"
	}
	if ds, ok := t.Shape.Const(); ok {
		return dynamic.ExprString(&dynamic.Lit{V: remora.NewValue(remora.KInt, ds, 0)})
	}
	return "(reshape " + st + " (array [0]))"
}

// lam writes (λ ((x r) …) body′); ivars are the index parameters of the
// i-fns around it, which get terms from the parameters' cells.
func (er *eraser) lam(l *remora.Lam, sc *scope, ivars []string) string {
	var ps []string
	inner := sc
	names := make([]string, len(l.Params))
	for i, p := range l.Params {
		r, ok := rank(p.Type)
		if !ok {
			refuse("parameter with a Shape variable", "[%s %s] has no static rank", p.Name, remora.TypeString(p.Type))
		}
		inner, names[i] = er.bind(inner, p.Name, remora.CanonArr(p.Type))
		ps = append(ps, fmt.Sprintf("(%s %d)", names[i], r))
	}
	var ls []*indexLet
	for _, v := range ivars {
		term := ""
		for i, p := range l.Params {
			if t := dimTerm(v, remora.CanonArr(p.Type), names[i]); t != "" {
				term = t
				break
			}
		}
		var il *indexLet
		inner, il = er.bindIndex(inner, v, term)
		ls = append(ls, il)
	}
	body := er.expr(l.Body, inner)
	return "(λ (" + strings.Join(ps, " ") + ") " + lets(ls, body) + ")"
}

// dimTerm computes the Nat variable v from x, an array of type t: when a
// dimension of t before any Shape variable is v + c, (index (shape-of x)
// [k]) less c; "" when there is none.
func dimTerm(v string, t *remora.Arr, x string) string {
	for k, it := range t.Shape {
		if it.Var != "" {
			return ""
		}
		if len(it.Dim.Vars) == 1 && it.Dim.Vars[0] == v {
			term := fmt.Sprintf("(index (shape-of %s) [%d])", x, k)
			if it.Dim.Const != 0 {
				term = fmt.Sprintf("(- %s %d)", term, it.Dim.Const)
			}
			return term
		}
	}
	return ""
}

// abstraction erases nested t-fns and i-fns to their body, which must be
// a value term: the typed abstraction delays its body, the erasure
// evaluates it. The index parameters get terms from the λ's parameters
// when the body is a λ.
func (er *eraser) abstraction(e remora.Expr, sc *scope) string {
	var ivars []string
	for {
		switch x := e.(type) {
		case *remora.TLam:
			e = x.Body
			continue
		case *remora.ILam:
			ivars = append(ivars, x.Vars...)
			e = x.Body
			continue
		case *remora.Lam:
			return er.lam(x, sc, ivars)
		case *remora.Var, *remora.Prim, *remora.Lit:
			inner := sc
			for _, v := range ivars {
				inner, _ = er.bindIndex(inner, v, "")
			}
			return er.expr(e, inner)
		}
		refuse("abstraction over a non-value", "%s", short(e))
	}
}

func short(e remora.Expr) string {
	s := remora.ExprString(e)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return s
}

// unpack writes (unbox x e′ body′); the hidden indices get terms from
// the contents' type when it is known.
func (er *eraser) unpack(e *remora.Unpack, sc *scope) string {
	box := er.expr(e.Box, sc)
	var contents *remora.Arr
	if sig := er.sigmaOf(e.Box, sc); sig != nil && len(sig.Vars) == len(e.IVars) {
		sub := remora.Subst{}
		for i, v := range sig.Vars {
			if remora.IsShapeVar(v) {
				sub[v] = remora.ShapeIndex(remora.ShapeVar(e.IVars[i]))
			} else {
				sub[v] = remora.NatIndex(remora.NatVar(e.IVars[i]))
			}
		}
		contents = remora.CanonArr(remora.TypeSubst{Indices: sub}.Type(sig.Body))
	}
	inner, x := er.bind(sc, e.X, contents)
	var ls []*indexLet
	for _, v := range e.IVars {
		term := ""
		if contents != nil {
			term = dimTerm(v, contents, x)
		}
		var il *indexLet
		inner, il = er.bindIndex(inner, v, term)
		ls = append(ls, il)
	}
	body := er.expr(e.Body, inner)
	return "(unbox " + x + " " + box + " " + lets(ls, body) + ")"
}

// sigmaOf is the box type of a scalar array of boxes, when the erasure
// knows it.
func (er *eraser) sigmaOf(e remora.Expr, sc *scope) *remora.Sigma {
	var t *remora.Arr
	switch e := e.(type) {
	case *remora.Pack:
		return e.Type
	case *remora.Var:
		if b := sc.lookup(e.Name, false); b != nil {
			t = b.t
		}
	case *remora.App:
		t = e.Type
	case *remora.Frame:
		t = e.Type
	}
	if t == nil || len(t.Shape) != 0 {
		return nil
	}
	sig, _ := t.Elem.(*remora.Sigma)
	return sig
}

// instantiation recognises π{τ … | ι …}: type and index applications
// around a primitive, with the indices and types given to it.
func instantiation(e remora.Expr) (p *remora.PrimDef, is []remora.Index, ts []remora.Type, ok bool) {
	var tss [][]remora.Type
	var iss [][]remora.Index
	for {
		switch x := e.(type) {
		case *remora.TApp:
			tss = append(tss, x.Args)
			e = x.Fn
			continue
		case *remora.IApp:
			iss = append(iss, x.Args)
			e = x.Fn
			continue
		case *remora.Prim:
			if len(tss) > 1 || len(iss) > 1 || len(tss)+len(iss) == 0 {
				return nil, nil, nil, false
			}
			if len(tss) == 1 {
				ts = tss[0]
			}
			if len(iss) == 1 {
				is = iss[0]
			}
			return x.Def, is, ts, true
		}
		return nil, nil, nil, false
	}
}

// instantiate is the type of π at the instantiation.
func instantiate(p *remora.PrimDef, is []remora.Index, ts []remora.Type) remora.Type {
	t := p.Type
	atom := func(t remora.Type) remora.Type {
		t = remora.Canon(t)
		if a, ok := t.(*remora.Arr); ok && len(a.Shape) == 0 {
			return a.Elem
		}
		return t
	}
	if len(is) > 0 {
		pi, ok := t.(*remora.Pi)
		if !ok || len(pi.Vars) != len(is) {
			refuse("malformed instantiation", "%s{ | %d indices}", p.Name, len(is))
		}
		sub := remora.Subst{}
		for i, v := range pi.Vars {
			sub[v] = is[i]
		}
		t = atom(remora.TypeSubst{Indices: sub}.Type(pi.Body))
	}
	if len(ts) > 0 {
		fa, ok := t.(*remora.Forall)
		if !ok || len(fa.Vars) != len(ts) {
			refuse("malformed instantiation", "%s{%d types | }", p.Name, len(ts))
		}
		sub := map[string]remora.Type{}
		for i, v := range fa.Vars {
			sub[v] = ts[i]
		}
		t = atom(remora.TypeSubst{Types: sub}.Type(fa.Body))
	}
	return t
}

// instantiated is the erasure of π{τ … | ι …}: the wrapper λ, if, or
// iota's array.
func (er *eraser) instantiated(p *remora.PrimDef, is []remora.Index, ts []remora.Type, sc *scope) string {
	t := instantiate(p, is, ts)
	if p.Name == "iota" {
		if len(is) != 1 || !is[0].IsShape {
			refuse("malformed instantiation", "iota")
		}
		return "(iota " + er.shapeTerm("iota", is[0].S, sc) + ")"
	}
	fn, ok := t.(*remora.Fn)
	if !ok {
		refuse("partial instantiation", "%s at %s", p.Name, remora.TypeString(t))
	}
	if p.Name == "if" {
		return "if"
	}
	ps := make([]string, len(fn.Params))
	as := make([]string, len(fn.Params))
	for i, pt := range fn.Params {
		r, ok := rank(pt)
		if !ok {
			refuse("instantiation with a Shape variable", "%s: parameter %d has type %s", p.Name, i+1, remora.TypeString(pt))
		}
		as[i] = fmt.Sprintf("a%d", i+1)
		ps[i] = fmt.Sprintf("(%s %d)", as[i], r)
	}
	return "(λ (" + strings.Join(ps, " ") + ") " + er.primBody(p, is, ts, as, sc) + ")"
}

// dynamicRename renames the typed primitives whose dynamic namesake means
// something else: the dynamic dialect's / is Racket's exact division and
// its log is base 10 (ERRATA R15, R16), so the typed integer division is
// quotient there and the typed natural log is ln.
var dynamicRename = map[string]string{"/": "quotient", "log": "ln"}

// primBody is the dynamic call of the primitive π on the wrapper's
// parameters as.
func (er *eraser) primBody(p *remora.PrimDef, is []remora.Index, ts []remora.Type, as []string, sc *scope) string {
	call := func(name string, xs ...string) string { return "(" + name + " " + strings.Join(xs, " ") + ")" }
	nat := func(i int) string {
		if i >= len(is) || is[i].IsShape {
			refuse("malformed instantiation", "%s", p.Name)
		}
		return er.natTerm(p.Name, is[i].N, sc)
	}
	switch p.Name {
	case "length", "reverse", "head", "append", "rotate",
		"fold", "fold-right", "trace", "trace-right":
		return call(p.Name, as...)
	case "tail":
		// The dynamic tail is the last item; the typed tail is behead.
		return call("behead", as...)
	case "reduce-init", "scan-init", "reduce", "iscan", "iscan-init":
		op := er.reduceOp(p, is, ts, as[0], sc)
		// The dynamic reduce is a tree that uses its base only for no
		// items; the typed reduce family folds left in index order, which
		// is the last accumulator of the dynamic scan (or iscan).
		last := func(x string) string { return call("head", call("reverse", x)) }
		switch p.Name {
		case "reduce-init":
			return last(call("scan", op, as[1], as[2]))
		case "scan-init":
			return call("scan", op, as[1], as[2])
		case "reduce":
			return last(call("iscan", op, as[1]))
		}
		return call(p.Name, append([]string{op}, as[1:]...)...)
	case "subvector", "scatter":
		return call(p.Name, as[0], as[1], nat(1))
	case "index":
		// index{t | @s @c l}
		if len(is) != 3 || !is[0].IsShape || is[2].IsShape {
			refuse("malformed instantiation", "index")
		}
		r, ok := rank(&remora.Arr{Elem: remora.Int, Shape: is[0].S})
		if !ok || !is[2].N.IsConst() || int64(r) != is[2].N.Const {
			refuse("index with l ≠ rank @s", "index{ | %s %s %s}", is[0], is[1], is[2])
		}
		return call("index", as...)
	case "replicate":
		if len(is) != 2 || !is[0].IsShape {
			refuse("malformed instantiation", "replicate")
		}
		return call("replicate", er.shapeTerm("replicate", is[0].S, sc), as[0])
	case "filter":
		return call("box", call("filter", as[1], as[0]))
	}
	refuse("primitive without an erasure", "%s", p.Name)
	return ""
}

// reduceOp is the operator a of a reduce-family primitive: a itself, or
// with RestoreEmpty and an @pad that may have a 0, a λ that applies it and
// restores its empty results (see EraseOptions).
func (er *eraser) reduceOp(p *remora.PrimDef, is []remora.Index, ts []remora.Type, a string, sc *scope) string {
	if !er.opts.RestoreEmpty || len(is) != 3 || len(ts) != 1 || !is[1].IsShape || !is[2].IsShape {
		return a
	}
	pad := is[1].S
	if ds, ok := pad.Const(); ok && product(ds) != 0 {
		return a
	}
	cell := &remora.Arr{Elem: ts[0], Shape: pad.Append(is[2].S)}
	pv, qv := er.freshName("p"), er.freshName("q")
	return "(λ ((" + pv + " all) (" + qv + " all)) " + er.restore(cell, "("+a+" "+pv+" "+qv+")", sc) + ")"
}

// restore is the term app of type t with its result restored when it is
// empty (see EraseOptions); app itself when the shape is not known.
func (er *eraser) restore(t *remora.Arr, app string, sc *scope) string {
	ds, isConst := t.Shape.Const()
	if isConst && product(ds) != 0 {
		return app
	}
	st, ok := er.knownShape(t.Shape, sc)
	if !ok {
		return app
	}
	v := er.freshName("v")
	e := "(reshape " + st + " " + v + ")"
	if z, ok := zeroAtom(t.Elem); ok {
		e = "(reshape " + st + " (behead [" + z + "]))"
	}
	// if evaluates both branches: choose between functions, and apply
	// the one chosen
	u := er.freshName("u")
	return "((λ ((" + v + " all)) ((if (= 0 (reduce * 1 (shape-of " + v + "))) (λ ((" + u + " all)) " + e + ") (λ ((" + u + " all)) " + u + ")) " + v + ")) " + app + ")"
}

func (er *eraser) app(e *remora.App, sc *scope) string {
	var s string
	if l, ok := e.Fn.(*remora.Lam); ok && len(l.Params) == 1 && len(e.Args) == 1 && e.Type != nil && l.Ret != nil && remora.Equal(e.Type, l.Ret) {
		// a β-redex at the scalar frame: (let [x e] body) as remora.Check
		// writes it
		val := er.expr(e.Args[0], sc)
		inner, x := er.bind(sc, l.Params[0].Name, remora.CanonArr(l.Params[0].Type))
		s = "(let ((" + x + " " + val + ")) " + er.expr(l.Body, inner) + ")"
	} else {
		parts := []string{er.expr(e.Fn, sc)}
		for _, a := range e.Args {
			parts = append(parts, er.expr(a, sc))
		}
		s = "(" + strings.Join(parts, " ") + ")"
	}
	if er.opts.RestoreEmpty && e.Type != nil {
		s = er.restore(e.Type, s, sc)
	}
	return s
}
