package ir

import (
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/remora"
)

// Simplify is the stage of §4.5 of "Remora Compiler — A Master's Project": standard
// optimisations on the inlined IR, which is first order and has no
// effects but one — a partial primitive can go wrong (division by zero,
// an index out of range, …). The paper's Simplify ignores that, and so
// hoists a division out of a loop that runs zero times and raises an
// error the program would not raise, or deletes an unused binding that
// would have raised one. Here the big-step semantics is the reference,
// errors included: every optimisation keeps the value, and whether and
// where the program goes wrong. CanFail is the judgement that decides.
//
// The optimisations, each a function of its own, run in rounds until a
// round changes nothing:
//
//   - foldConstants: a primitive applied to literals is its value,
//     computed by the basis' own δ-rule, when that does not go wrong,
//     and a CASE of a literal tag the alternative it selects;
//   - propagateCopies: a binding of a variable (x := y) is replaced by
//     the variable, and a MAP argument that replicates a variable or a
//     scalar literal over the MAP's own frame is that variable in every
//     cell; one that replicates a computation binds it once outside;
//   - inlineValues: a binding of a scalar literal is replaced by it;
//   - inlineSingleUse: a binding used exactly once is moved to its use,
//     unless the use is in a loop, or the move changes which error
//     comes first;
//   - removeDeadBindings: a binding that is not used goes, if its value
//     cannot go wrong;
//   - hoistInvariants: a computation in a MAP's body that does not depend
//     on the body's variables is bound once outside the MAP, unless it
//     can go wrong and the MAP may run zero times;
//   - removeTrivialMaps: (MAP [] () e) is e, (MAP [] ([x τ e]) x) is e,
//     and (MAP [F] () v) of a variable or literal is (REP [F] v).
//
// A MAP over the empty frame is a let, and is treated as one; a MAP over
// a non-empty frame is a loop. The input must satisfy the invariants of
// Inline's output; so does the output, which has the same types. The
// input is not changed: every rewrite builds new nodes. Simplify checks a
// copy of its input first, to have every annotation it reads (the types
// of applications and MAPs); an input that does not check is returned as
// it is, for the driver's re-check to report.
func Simplify(p *remora.Program) *remora.Program {
	q := &remora.Program{File: p.File, Exprs: append([]remora.Expr{}, p.Exprs...)}
	if _, err := remora.Check(q, nil); err != nil {
		return p
	}
	out := &remora.Program{File: p.File, Types: q.Types, Source: p.Source, Open: p.Open, Rational: p.Rational}
	for _, e := range q.Exprs {
		out.Exprs = append(out.Exprs, simplifyExpr(e, simplifications))
	}
	return out
}

// simplification is one optimisation of Simplify, by name.
type simplification struct {
	name string
	run  func(remora.Expr) remora.Expr
}

// simplifications are Simplify's optimisations in the order a round runs
// them: folding and propagation first, so that the inliners see the
// literals and variables they make; hoisting after the inliners and the
// removal of dead bindings, so that it moves only what stays; the
// trivial MAPs the others leave last.
var simplifications = []simplification{
	{"fold-constants", foldConstants},
	{"propagate-copies", propagateCopies},
	{"inline-values", inlineValues},
	{"inline-single-use", inlineSingleUse},
	{"remove-dead-bindings", removeDeadBindings},
	{"hoist-invariants", hoistInvariants},
	{"remove-trivial-maps", removeTrivialMaps},
}

// maxRounds bounds the rounds: every rewrite removes a binding or a
// computation, or moves one out of a loop, so a fixed point comes
// quickly, but a bound keeps a mistake from looping for ever.
const maxRounds = 32

// simplifyExpr runs the rounds of opts on e until one changes nothing.
func simplifyExpr(e remora.Expr, opts []simplification) remora.Expr {
	text := remora.ExprString(e)
	for range maxRounds {
		for _, o := range opts {
			e = o.run(e)
		}
		t := remora.ExprString(e)
		if t == text {
			break
		}
		text = t
	}
	return e
}

// ---------------------------------------------------------------------
// CanFail: which computations can go wrong.

// totalPrims are the primitives whose δ-rule cannot go wrong on arguments
// of their types (Theorem 1: a well-typed program goes wrong only in a
// partial primitive). Integer arithmetic wraps; float arithmetic gives
// ±inf or NaN; head and tail take arrays of at least one item by their
// types; a comparison, a conversion to float or bool, if (both branches
// already values), length, append, reverse, rotate and filter are
// defined everywhere. Not total, and so not listed: / and % (division by
// zero), float->int (out of int's range), index, subvector and scatter
// (positions out of range), iota and replicate (a size that overflows;
// see sizedTotal), reduce and iscan (no items), and the folds and scans
// with an initial value, whose operator may go wrong (foldTotal admits
// those whose operator is a total primitive).
var totalPrims = map[string]bool{
	"+": true, "-": true, "*": true, "max": true, "min": true, "abs": true,
	"=": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true,
	"+.": true, "-.": true, "*.": true, "/.": true, "max.": true, "min.": true, "expt": true,
	"<.": true, "<=.": true, ">.": true, ">=.": true,
	"abs.": true, "sqrt": true, "exp": true, "log": true,
	"sin": true, "cos": true, "tan": true, "arcsin": true, "arccos": true, "arctan": true,
	"and": true, "or": true, "not": true,
	"int->float": true, "int->bool": true, "bool->int": true, "if": true,
	"length": true, "head": true, "tail": true, "append": true, "reverse": true, "rotate": true,
	"filter": true,
}

// CanFail reports whether evaluating e might go wrong. It is
// conservative: it is false only when e is built of variables, literals,
// primitives and their instantiations, abstractions (whose bodies do not
// run when they are made), and applications of total primitives
// (totalPrims) — through frames, MAPs, REPs, reshapes, boxes and unboxes,
// which add no way of going wrong of their own. Anything else (a λ
// applied, a lift of a run-time number, which is stuck when negative) is
// taken to fail.
func CanFail(e remora.Expr) bool {
	switch e := e.(type) {
	case *remora.Var, *remora.Lit, *remora.Prim, *remora.Reify, *remora.Lam, *remora.TLam, *remora.ILam:
		return false
	case *remora.TApp, *remora.IApp:
		// An instantiation is a value, except iota's: the array itself.
		def, ixs, ok := remora.PrimOf(e)
		if !ok {
			return true
		}
		return def.Name == "iota" && !sizedTotal(ixs)
	case *remora.App:
		for _, a := range e.Args {
			if CanFail(a) {
				return true
			}
		}
		def, ixs, ok := remora.PrimOf(e.Fn)
		switch {
		case !ok:
			return true
		case totalPrims[def.Name]:
			return false
		case def.Name == "replicate":
			return !sizedTotal(ixs)
		case def.Fold != nil:
			return !foldTotal(def, e.Args)
		}
		return true
	case *remora.Frame:
		return anyCanFail(e.Elems)
	case *remora.Map:
		return anyCanFail(e.Args) || CanFail(e.Body)
	case *remora.Rep:
		return CanFail(e.E)
	case *remora.Reshape:
		return CanFail(e.E)
	case *remora.Pack:
		return CanFail(e.Body)
	case *remora.Unpack:
		return CanFail(e.Box) || CanFail(e.Body)
	case *remora.LiftDim:
		return !isNonNegativeInt(e.N) || CanFail(e.Body)
	case *remora.Case:
		// The tag is in range where Inline makes a CASE; a literal
		// tag out of range is stuck.
		if l, ok := e.Tag.(*remora.Lit); ok && (l.V.I[0] < 0 || l.V.I[0] >= int64(len(e.Alts))) {
			return true
		}
		return CanFail(e.Tag) || anyCanFail(e.Alts)
	}
	return true
}

func anyCanFail(es []remora.Expr) bool {
	for _, e := range es {
		if CanFail(e) {
			return true
		}
	}
	return false
}

// sizedTotal reports whether iota's or replicate's instantiation (iota{ |
// @s}, replicate{t | @s @c}) makes an array whose size is known and
// fits: their δ-rules go wrong only when the size overflows.
func sizedTotal(ixs []remora.Index) bool {
	var dims []int64
	for _, ix := range ixs {
		if !ix.IsShape {
			return false
		}
		ds, ok := ix.S.Const()
		if !ok {
			return false
		}
		dims = append(dims, ds...)
	}
	_, err := remora.CheckedProduct(dims)
	return len(ixs) > 0 && err == nil
}

// foldTotal reports whether a fold of the reduce and scan family cannot
// go wrong: it takes an initial value (reduce and iscan are stuck on no
// items, which their types rule out but their δ-rules still check), and
// its operator is a total primitive.
func foldTotal(def *remora.PrimDef, args []remora.Expr) bool {
	if !def.Fold.TakesInit() || len(args) == 0 {
		return false
	}
	op, _, ok := remora.PrimOf(args[0])
	return ok && totalPrims[op.Name]
}

// isNonNegativeInt reports whether e is an int literal ≥ 0 (a lift of it
// cannot be stuck).
func isNonNegativeInt(e remora.Expr) bool {
	l, ok := e.(*remora.Lit)
	return ok && l.V.Kind == remora.KInt && len(l.V.Shape) == 0 && l.V.I[0] >= 0
}

// ---------------------------------------------------------------------
// The term structure: subterms in evaluation order, and what binds them.

// binders are the term and index variables e binds around its child i.
func binders(e remora.Expr, i int) (terms, indices []string) {
	switch e := e.(type) {
	case *remora.Lam:
		return remora.NamesOf(e.Params), nil
	case *remora.TLam, *remora.ILam:
		// Type variables are kept with the index variables: the names
		// are distinct, and capture of either is refused alike.
		return nil, remora.AbstractionVars(e)
	case *remora.Unpack:
		if i == 1 {
			return []string{e.X}, e.IVars
		}
	case *remora.Let:
		if i == 1 {
			return []string{e.X}, nil
		}
	case *remora.LiftDim:
		if i == 1 {
			return nil, []string{e.D}
		}
	case *remora.Map:
		if i == len(e.Args) {
			return remora.NamesOf(e.Params), nil
		}
	}
	return nil, nil
}

// delayed reports whether e's child i runs other than once, when e runs:
// an abstraction's body (when applied, any number of times), a loop's
// body (a MAP's over a non-empty frame: once per cell, perhaps never) and
// a CASE's alternative (once or never). So nothing moves into a CASE's
// alternative or out of one.
func delayed(e remora.Expr, i int) bool {
	switch e := e.(type) {
	case *remora.Lam, *remora.TLam, *remora.ILam:
		return true
	case *remora.Map:
		return i == len(e.Args) && len(e.Frame) > 0
	case *remora.Case:
		return i > 0
	}
	return false
}

// isLet reports whether e is a MAP over the empty frame: a let.
func isLet(e remora.Expr) (*remora.Map, bool) {
	m, ok := e.(*remora.Map)
	return m, ok && len(m.Frame) == 0
}

// rewrite rebuilds e bottom up, applying f to each node after its
// children; nodes whose children f leaves alone are kept, not copied.
func rewrite(e remora.Expr, f func(remora.Expr) remora.Expr) remora.Expr {
	kids := remora.Subterms(e)
	var nk []remora.Expr
	for i, k := range kids {
		r := rewrite(k, f)
		if r != k && nk == nil {
			nk = append([]remora.Expr{}, kids...)
		}
		if nk != nil {
			nk[i] = r
		}
	}
	if nk != nil {
		e = remora.WithSubterms(e, nk)
	}
	return f(e)
}

// ---------------------------------------------------------------------
// Free variables, uses, and substitution.

// freeVars adds e's free term variables to terms and its free index (and
// type) variables, those of its annotations included, to indices.
func freeVars(e remora.Expr, terms, indices map[string]bool) {
	if v, ok := e.(*remora.Var); ok {
		terms[v.Name] = true
		return
	}
	annotationVars(e, indices)
	for i, k := range remora.Subterms(e) {
		bt, bi := binders(e, i)
		if len(bt) == 0 && len(bi) == 0 {
			freeVars(k, terms, indices)
			continue
		}
		kt, ki := map[string]bool{}, map[string]bool{}
		freeVars(k, kt, ki)
		for _, b := range bt {
			delete(kt, b)
		}
		for _, b := range bi {
			delete(ki, b)
		}
		for x := range kt {
			terms[x] = true
		}
		for x := range ki {
			indices[x] = true
		}
	}
}

// annotationVars adds the index and type variables of e's own
// annotations (types, frames, index arguments) to set; all are in the
// scope around e. (Inline's output has no type variables; its input
// may.)
func annotationVars(e remora.Expr, set map[string]bool) {
	ty := func(t remora.Type) {
		if t != nil {
			remora.FreeIndexVars(t, set)
			remora.FreeTypeVars(t, set)
		}
	}
	arr := func(t *remora.Arr) {
		if t != nil {
			ty(t)
		}
	}
	shape := func(s remora.Shape) { remora.ShapeIndex(s).FreeVars(set) }
	switch e := e.(type) {
	case *remora.Frame:
		ty(e.Cell)
		arr(e.Type)
	case *remora.Lam:
		for _, p := range e.Params {
			ty(p.Type)
		}
		arr(e.Ret)
	case *remora.App:
		arr(e.Type)
	case *remora.TApp:
		for _, t := range e.Args {
			ty(t)
		}
	case *remora.IApp:
		for _, ix := range e.Args {
			ix.FreeVars(set)
		}
	case *remora.Pack:
		for _, ix := range e.Indices {
			ix.FreeVars(set)
		}
		if e.Type != nil {
			ty(e.Type)
		}
	case *remora.Let:
		ty(e.T)
	case *remora.LiftDim:
		if e.Type != nil {
			ty(e.Type)
		}
	case *remora.Reify:
		e.Index.FreeVars(set)
	case *remora.Reshape:
		shape(e.Shape)
		arr(e.Type)
	case *remora.Map:
		shape(e.Frame)
		for _, p := range e.Params {
			ty(p.Type)
		}
		arr(e.Type)
	case *remora.Rep:
		shape(e.Frame)
		arr(e.Type)
	case *remora.Case:
		arr(e.Type)
	}
}

// uses counts the free occurrences of the variable x in e.
func uses(e remora.Expr, x string) int {
	if v, ok := e.(*remora.Var); ok {
		if v.Name == x {
			return 1
		}
		return 0
	}
	n := 0
	for i, k := range remora.Subterms(e) {
		if bt, _ := binders(e, i); hasName(bt, x) {
			continue
		}
		n += uses(k, x)
	}
	return n
}

func hasName(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func intersects(xs []string, set map[string]bool) bool {
	for _, x := range xs {
		if set[x] {
			return true
		}
	}
	return false
}

// subst replaces the free occurrences of x in e by v. It refuses (false)
// when an occurrence is under a binder of one of v's free term variables
// or of an index variable of v's annotations or of x's type (vIdx): v
// would be captured, or seen at a type that names another variable.
func subst(e remora.Expr, x string, v remora.Expr, vTerms, vIdx map[string]bool) (remora.Expr, bool) {
	return substUnder(e, x, v, vTerms, vIdx, false)
}

func substUnder(e remora.Expr, x string, v remora.Expr, vTerms, vIdx map[string]bool, captured bool) (remora.Expr, bool) {
	if w, ok := e.(*remora.Var); ok {
		if w.Name != x {
			return e, true
		}
		return v, !captured
	}
	kids := remora.Subterms(e)
	var nk []remora.Expr
	for i, k := range kids {
		bt, bi := binders(e, i)
		if hasName(bt, x) {
			continue
		}
		r, ok := substUnder(k, x, v, vTerms, vIdx, captured || intersects(bt, vTerms) || intersects(bi, vIdx))
		if !ok {
			return nil, false
		}
		if r != k && nk == nil {
			nk = append([]remora.Expr{}, kids...)
		}
		if nk != nil {
			nk[i] = r
		}
	}
	if nk == nil {
		return e, true
	}
	return remora.WithSubterms(e, nk), true
}

// bindingSubst substitutes the value v of a binding of x (of type t) in
// e, with the capture checks of subst.
func bindingSubst(e remora.Expr, x string, t remora.Type, v remora.Expr) (remora.Expr, bool) {
	vt, vi := map[string]bool{}, map[string]bool{}
	freeVars(v, vt, vi)
	if t != nil {
		remora.FreeIndexVars(t, vi)
		remora.FreeTypeVars(t, vi)
	}
	return subst(e, x, v, vt, vi)
}

// ---------------------------------------------------------------------
// Where a binding's one use is.

// site is where the one free occurrence of a variable is in a term:
// whether it is in a loop or an abstraction's body (delayed), and whether
// something that can go wrong is evaluated before it (failBefore).
type site struct {
	found, loop, failBefore bool
}

// useSite finds the one free occurrence of x in e, walking e in
// evaluation order.
func useSite(e remora.Expr, x string) site {
	w := &siteWalker{x: x}
	w.walk(e, false)
	return w.site
}

type siteWalker struct {
	x      string
	failed bool // something that can go wrong has been evaluated
	site   site
}

func (w *siteWalker) walk(e remora.Expr, loop bool) bool {
	if v, ok := e.(*remora.Var); ok && v.Name == w.x {
		w.site = site{found: true, loop: loop, failBefore: w.failed}
		return true
	}
	for i, k := range remora.Subterms(e) {
		if l, ok := e.(*remora.LiftDim); ok && i == 1 && !isNonNegativeInt(l.N) {
			w.failed = true // lift-dim is stuck on a negative number, before its body
		}
		d := delayed(e, i)
		if bt, _ := binders(e, i); !hasName(bt, w.x) && w.walk(k, loop || d) {
			return true
		}
		if !d && CanFail(k) {
			w.failed = true
		}
	}
	return false
}

// ---------------------------------------------------------------------
// The optimisations.

// foldConstants replaces a reified constant index by its value, a CASE
// of a literal tag by the alternative it selects, and an application of a primitive (or of its instantiation at constant
// indices and types) to literals (and primitives, the operators of
// folds) by its value,
// computed by the evaluator, so by the basis' own δ-rule. It declines
// when the δ-rule goes wrong (the program must still go wrong there, at
// run time), when the result is not an array of a base type, and when it
// has more than maxFoldAtoms atoms: a literal that large makes the
// program bigger, not faster.
func foldConstants(e remora.Expr) remora.Expr {
	return rewrite(e, func(e remora.Expr) remora.Expr {
		if r, ok := e.(*remora.Reify); ok {
			// A constant index reified is a literal.
			set := map[string]bool{}
			r.Index.FreeVars(set)
			if len(set) > 0 {
				return e
			}
			return &remora.Lit{Pos: r.Pos, EndPos: r.EndPos, V: remora.ReifyIndex(r.Index)}
		}
		if c, ok := e.(*remora.Case); ok {
			// A CASE of a known tag is the alternative it selects.
			if l, ok := c.Tag.(*remora.Lit); ok {
				if alt, err := remora.CaseAlt(c, l.V); err == nil {
					return alt
				}
			}
			return e
		}
		a, ok := e.(*remora.App)
		if !ok || a.Type == nil || !closedType(a.Type) {
			return e
		}
		if _, _, ok := remora.PrimOf(a.Fn); !ok || !closedFn(a.Fn) {
			return e
		}
		for _, x := range a.Args {
			if _, ok := x.(*remora.Lit); !ok && !closedFn(x) {
				return e
			}
			if !smallInstance(x) {
				return e
			}
		}
		if !smallArray(a.Type) {
			return e
		}
		v, err := evalClosed(a)
		if err != nil || v.Kind > remora.KChar || v.Len() > maxFoldAtoms {
			return e
		}
		return &remora.Lit{Pos: a.Pos, EndPos: a.EndPos, V: v}
	})
}

// maxFoldAtoms is the largest result constant folding makes a literal of.
const maxFoldAtoms = 64

// smallArray reports whether a value of the closed type t has at most
// maxFoldAtoms atoms (any type but an array's has one). Folding checks
// the type before it computes the value: (length iota{ | [400000000]})
// computed the iota, 3 GB, to keep its length (issue 32).
func smallArray(t remora.Type) bool {
	arr, ok := t.(*remora.Arr)
	if !ok {
		return true
	}
	ds, ok := arr.Shape.Const()
	return ok && atomsAtMost(ds, maxFoldAtoms)
}

// smallInstance reports whether an argument that is a primitive's
// instantiation is a function, or an array (iota{ | [n]}) of at most
// maxFoldAtoms atoms, counted as the product of its constant indices,
// which is at least its size.
func smallInstance(x remora.Expr) bool {
	def, ixs, ok := remora.PrimOf(x)
	if !ok {
		return true
	}
	t := def.Type
	for {
		switch u := t.(type) {
		case *remora.Forall:
			t = u.Body
			continue
		case *remora.Pi:
			t = u.Body
			continue
		}
		break
	}
	arr, ok := t.(*remora.Arr)
	if !ok {
		return true
	}
	if _, fn := arr.Elem.(*remora.Fn); fn {
		return true
	}
	var ds []int64
	for _, ix := range ixs {
		if !ix.IsShape {
			ds = append(ds, ix.N.Const)
			continue
		}
		s, ok := ix.S.Const()
		if !ok {
			return false
		}
		ds = append(ds, s...)
	}
	return atomsAtMost(ds, maxFoldAtoms)
}

// atomsAtMost reports whether the product of ds (all ≥ 0) is at most n,
// without a product that could wrap.
func atomsAtMost(ds []int64, n int64) bool {
	p := int64(1)
	for _, d := range ds {
		if d == 0 {
			return true
		}
	}
	for _, d := range ds {
		if d < 0 || p > n/d {
			return false
		}
		p *= d
	}
	return p <= n
}

// evalClosed runs a closed term, turning a panic of a δ-rule on a term
// it was not made for into an error (folding then declines).
func evalClosed(e remora.Expr) (v *remora.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, errPanicked
		}
	}()
	return remora.EvalExpr(e, nil)
}

type panicked struct{}

func (panicked) Error() string { return "the evaluation panicked" }

var errPanicked error = panicked{}

// closedType reports whether t has no type or index variables.
func closedType(t remora.Type) bool {
	iv, tv := map[string]bool{}, map[string]bool{}
	remora.FreeIndexVars(t, iv)
	remora.FreeTypeVars(t, tv)
	return len(iv) == 0 && len(tv) == 0
}

// closedFn reports whether a primitive's instantiation is at constant
// indices and closed types.
func closedFn(e remora.Expr) bool {
	switch f := e.(type) {
	case *remora.Prim:
		return true
	case *remora.TApp:
		for _, t := range f.Args {
			if !closedType(t) {
				return false
			}
		}
		return closedFn(f.Fn)
	case *remora.IApp:
		set := map[string]bool{}
		for _, ix := range f.Args {
			ix.FreeVars(set)
		}
		return len(set) == 0 && closedFn(f.Fn)
	}
	return false
}

// propagateCopies is copy propagation. In a let (a MAP over []), a
// parameter bound to a variable is replaced by that variable in the body.
// In a loop (a MAP over a non-empty frame F), a parameter bound to
// (REP [F] v), v a variable or a scalar literal, is v in every cell, and
// is replaced by v: the replicated array need not be built. The
// argument goes; nothing can go wrong in it. (REP [F] e) of any other e
// is bindReplicated's. A substitution that would capture (the variable is
// rebound between the binding and a use, or is one of the MAP's own
// parameters) is declined.
func propagateCopies(e remora.Expr) remora.Expr {
	return rewrite(e, func(e remora.Expr) remora.Expr {
		m, ok := e.(*remora.Map)
		if !ok {
			return e
		}
		for i, a := range m.Args {
			if v := copyOf(m, a); v != nil {
				if r, ok := replaceParam(m, i, v); ok {
					return r
				}
				continue
			}
			if r, ok := bindReplicated(m, i); ok {
				return r
			}
		}
		return e
	})
}

// bindReplicated turns a loop's argument (REP [F] e) over the loop's own
// frame F, e some computation, into a let of e around the loop, whose
// variable the body uses in place of the parameter: every cell of the
// replicated array is e, computed once either way (a REP evaluates e
// once, even over an empty frame), and the replicated array is not
// built. e now runs before the loop's earlier arguments: when it can go
// wrong, none of them may.
func bindReplicated(m *remora.Map, i int) (remora.Expr, bool) {
	r, ok := m.Args[i].(*remora.Rep)
	if !ok || len(m.Frame) == 0 || !r.Frame.Equal(m.Frame) || m.Type == nil {
		return nil, false
	}
	if CanFail(r.E) && anyCanFail(m.Args[:i]) {
		return nil, false
	}
	p := m.Params[i]
	v := &remora.Var{Pos: r.E.At(), EndPos: r.E.End(), Name: remora.Fresh("r")}
	body, ok := bindingSubst(m.Body, p.Name, p.Type, v)
	if !ok {
		return nil, false
	}
	return &remora.Map{Pos: r.Pos, EndPos: r.EndPos, Params: []remora.Param{{Name: v.Name, Type: p.Type}}, Args: []remora.Expr{r.E},
		Body: dropParam(m, i, body), Type: m.Type}, true
}

// copyOf is what a MAP's argument a makes its parameter in every cell, when
// that is a variable or a scalar literal: a itself in a let, v for
// (REP [F] v) over the MAP's frame F. Else nil.
func copyOf(m *remora.Map, a remora.Expr) remora.Expr {
	if len(m.Frame) == 0 {
		if _, ok := a.(*remora.Var); ok {
			return a
		}
		return nil
	}
	r, ok := a.(*remora.Rep)
	if !ok || !r.Frame.Equal(m.Frame) {
		return nil
	}
	switch v := r.E.(type) {
	case *remora.Var:
		return v
	case *remora.Lit:
		if len(v.V.Shape) == 0 {
			return v
		}
	}
	return nil
}

// replaceParam drops the MAP's parameter i, replacing it by v in the
// body (the caller has decided that v may move there), unless v would be
// captured: by the MAP's own parameters, or by a binder at a use.
func replaceParam(m *remora.Map, i int, v remora.Expr) (remora.Expr, bool) {
	vt, vi := map[string]bool{}, map[string]bool{}
	freeVars(v, vt, vi)
	if intersects(remora.NamesOf(m.Params), vt) {
		return nil, false
	}
	body, ok := bindingSubst(m.Body, m.Params[i].Name, m.Params[i].Type, v)
	if !ok {
		return nil, false
	}
	return dropParam(m, i, body), true
}

// dropParam is m without its parameter i, with the body body.
func dropParam(m *remora.Map, i int, body remora.Expr) *remora.Map {
	n := *m
	n.Params = append(append([]remora.Param{}, m.Params[:i]...), m.Params[i+1:]...)
	n.Args = append(append([]remora.Expr{}, m.Args[:i]...), m.Args[i+1:]...)
	n.Body = body
	return &n
}

// inlineValues replaces a let-bound scalar literal by the literal at
// every use, in loops too: a scalar is no work to repeat. (A let-bound
// variable is propagateCopies'; an array literal moves only to a single
// use, by inlineSingleUse, so that it is not built once per use.)
func inlineValues(e remora.Expr) remora.Expr {
	return rewrite(e, func(e remora.Expr) remora.Expr {
		m, ok := isLet(e)
		if !ok {
			return e
		}
		for i, a := range m.Args {
			if l, ok := a.(*remora.Lit); ok && len(l.V.Shape) == 0 {
				if r, ok := replaceParam(m, i, l); ok {
					return r
				}
			}
		}
		return e
	})
}

// inlineSingleUse moves the value of a let's parameter used exactly once
// to its use. It declines when the use is in a loop's body or an
// abstraction's (the work would be repeated per cell, or done when it was
// not), and when the value can go wrong and the move could change which
// error comes first: a value that can go wrong moves only if neither the
// let's later arguments nor anything its body evaluates before the use
// can go wrong. It declines too when the value would be captured at the
// use, or by the let's own parameters.
func inlineSingleUse(e remora.Expr) remora.Expr {
	return rewrite(e, func(e remora.Expr) remora.Expr {
		m, ok := isLet(e)
		if !ok {
			return e
		}
		for i, a := range m.Args {
			x := m.Params[i].Name
			if uses(m.Body, x) != 1 {
				continue
			}
			s := useSite(m.Body, x)
			if !s.found || s.loop {
				continue
			}
			if CanFail(a) && (s.failBefore || anyCanFail(m.Args[i+1:])) {
				continue
			}
			if r, ok := replaceParam(m, i, a); ok {
				return r
			}
		}
		return e
	})
}

// removeDeadBindings drops a MAP's parameter that its body does not use,
// with its argument — unless the argument can go wrong: the program
// would then no longer go wrong where it did.
func removeDeadBindings(e remora.Expr) remora.Expr {
	return rewrite(e, func(e remora.Expr) remora.Expr {
		m, ok := e.(*remora.Map)
		if !ok {
			return e
		}
		for i := len(m.Params) - 1; i >= 0; i-- {
			if uses(m.Body, m.Params[i].Name) == 0 && !CanFail(m.Args[i]) {
				m = dropParam(m, i, m.Body)
			}
		}
		return m
	})
}

// removeTrivialMaps removes the MAPs that do nothing: a let with no
// parameters is its body; a let whose body is its one parameter is that
// parameter's argument; a loop with no arguments whose body is a variable
// or literal (bound outside it, so the same in every cell) is that
// replicated over the frame, a REP, which evaluates it even when the
// frame is empty — harmless for what cannot go wrong.
func removeTrivialMaps(e remora.Expr) remora.Expr {
	return rewrite(e, func(e remora.Expr) remora.Expr {
		m, ok := e.(*remora.Map)
		if !ok {
			return e
		}
		switch {
		case len(m.Frame) == 0 && len(m.Params) == 0:
			return m.Body
		case len(m.Frame) == 0 && len(m.Params) == 1:
			if v, ok := m.Body.(*remora.Var); ok && v.Name == m.Params[0].Name {
				return m.Args[0]
			}
		case len(m.Frame) > 0 && len(m.Params) == 0 && m.Type != nil:
			switch m.Body.(type) {
			case *remora.Var, *remora.Lit:
				return &remora.Rep{Pos: m.Pos, EndPos: m.EndPos, Frame: m.Frame, E: m.Body, Type: m.Type}
			}
		}
		return e
	})
}

// hoistInvariants moves loop-invariant computations out of loops: in a
// MAP over a non-empty frame, a computation in the body that uses none of
// the body's variables (its parameters, and what the body binds around
// the computation) is the same in every cell, and is bound once in a let
// around the MAP. Loops are done inside out, so a computation moves out
// of a nest as far as it is invariant, one loop per round. The operator
// of a reduction or scan, a λ run once per item, is a loop too
// (hoistFromOperators).
//
// What it declines: a computation that can go wrong moves only when the
// frame is a known positive constant — the paper (§4.5) hoists past a
// loop that runs zero times, raising an error the program would not
// raise — and only when nothing the loop evaluates before it in its first
// cell can go wrong, its arguments included, so that the first error is
// the same one. Only computations the body evaluates exactly once per
// cell are candidates (not those in an inner loop's body, which that
// loop hoists first, nor in a λ's). A candidate is an application, MAP,
// REP, frame (not of literals only) or reshape whose type is an array of
// a base type; variables, literals and function values are not work to
// move.
func hoistInvariants(e remora.Expr) remora.Expr {
	return rewrite(e, func(e remora.Expr) remora.Expr {
		switch e := e.(type) {
		case *remora.Map:
			return hoistFromLoop(e)
		case *remora.App:
			return hoistFromOperators(e)
		}
		return e
	})
}

// hoistFromLoop hoists out of the loop m.
func hoistFromLoop(m *remora.Map) remora.Expr {
	if len(m.Frame) == 0 || m.Type == nil {
		return m
	}
	h := &hoister{
		bound:  map[string]bool{},
		ibound: map[string]bool{},
		safe:   (knownPositive(m.Frame) || mutant.On("simplify-hoist-past-empty")) && !anyCanFail(m.Args),
	}
	for _, p := range m.Params {
		h.bound[p.Name] = true
	}
	body := h.walk(m.Body)
	if len(h.out) == 0 {
		return m
	}
	n := *m
	n.Body = body
	return letsAround(h.out, &n, m.Type)
}

// hoistFromOperators hoists out of the λ operators of an application of
// the reduce, scan and fold family, which run once per item — perhaps
// never, on no items: only computations that cannot go wrong leave them,
// bound in a let around the application. A λ is an operator only there in
// Inline's output.
func hoistFromOperators(a *remora.App) remora.Expr {
	if def, _, ok := remora.PrimOf(a.Fn); !ok || def.Fold == nil || a.Type == nil {
		return a
	}
	var out []hoisted
	var args []remora.Expr
	for i, x := range a.Args {
		l, ok := x.(*remora.Lam)
		if !ok {
			continue
		}
		h := &hoister{bound: map[string]bool{}, ibound: map[string]bool{}}
		for _, p := range l.Params {
			h.bound[p.Name] = true
		}
		body := h.walk(l.Body)
		if len(h.out) == 0 {
			continue
		}
		if args == nil {
			args = append([]remora.Expr{}, a.Args...)
		}
		nl := *l
		nl.Body = body
		args[i] = &nl
		out = append(out, h.out...)
	}
	if len(out) == 0 {
		return a
	}
	n := *a
	n.Args = args
	return letsAround(out, &n, a.Type)
}

// letsAround binds the hoisted computations in lets around body (of type
// t), one let each, the first outermost: they run in the order they were
// found in.
func letsAround(hs []hoisted, body remora.Expr, t *remora.Arr) remora.Expr {
	out := body
	for i := len(hs) - 1; i >= 0; i-- {
		c := hs[i]
		out = &remora.Map{Pos: c.e.At(), EndPos: c.e.End(), Params: []remora.Param{{Name: c.name, Type: c.t}}, Args: []remora.Expr{c.e}, Body: out, Type: t}
	}
	return out
}

// allLits reports whether a frame's elements are literals (none too): the
// frame is a literal itself, not work to move.
func allLits(es []remora.Expr) bool {
	for _, e := range es {
		if _, ok := e.(*remora.Lit); !ok {
			return false
		}
	}
	return true
}

// knownPositive reports whether a frame's dimensions are constants above
// zero: a loop over it runs its body at least once.
func knownPositive(f remora.Shape) bool {
	ds, ok := f.Const()
	if !ok {
		return false
	}
	for _, d := range ds {
		if d <= 0 {
			return false
		}
	}
	return true
}

// hoister walks a loop's body in evaluation order, taking out the
// invariant computations. With safe unset, it takes out only those that
// cannot go wrong.
type hoister struct {
	bound  map[string]bool // term variables bound in the loop: its parameters, and binders on the path
	ibound map[string]bool // index variables bound on the path
	safe   bool            // a computation that can go wrong may move out: the frame is positive, the arguments cannot go wrong
	failed bool            // something that can go wrong, and stays, has been evaluated
	out    []hoisted
}

type hoisted struct {
	name string
	t    *remora.Arr
	e    remora.Expr
}

func (h *hoister) walk(e remora.Expr) remora.Expr {
	if t := h.candidate(e); t != nil {
		name := remora.Fresh("h")
		h.out = append(h.out, hoisted{name: name, t: t, e: e})
		return &remora.Var{Pos: e.At(), EndPos: e.End(), Name: name}
	}
	kids := remora.Subterms(e)
	var nk []remora.Expr
	for i, k := range kids {
		if l, ok := e.(*remora.LiftDim); ok && i == 1 && !isNonNegativeInt(l.N) {
			h.failed = true
		}
		r := k
		if !delayed(e, i) {
			bt, bi := binders(e, i)
			r = h.under(bt, bi, k)
			if CanFail(r) {
				h.failed = true
			}
		}
		if r != k && nk == nil {
			nk = append([]remora.Expr{}, kids...)
		}
		if nk != nil {
			nk[i] = r
		}
	}
	if nk == nil {
		return e
	}
	return remora.WithSubterms(e, nk)
}

// under walks k with the variables terms and indices bound.
func (h *hoister) under(terms, indices []string, k remora.Expr) remora.Expr {
	var undo []func()
	for _, x := range terms {
		if !h.bound[x] {
			h.bound[x] = true
			undo = append(undo, func() { delete(h.bound, x) })
		}
	}
	for _, x := range indices {
		if !h.ibound[x] {
			h.ibound[x] = true
			undo = append(undo, func() { delete(h.ibound, x) })
		}
	}
	r := h.walk(k)
	for _, u := range undo {
		u()
	}
	return r
}

// candidate is the type of e when e may be hoisted, else nil.
func (h *hoister) candidate(e remora.Expr) *remora.Arr {
	var t *remora.Arr
	switch e := e.(type) {
	case *remora.App:
		t = e.Type
	case *remora.Map:
		t = e.Type
	case *remora.Rep:
		t = e.Type
	case *remora.Reshape:
		t = e.Type
	case *remora.Frame:
		if !allLits(e.Elems) {
			t = e.Type
		}
	}
	if t == nil {
		return nil
	}
	if _, ok := t.Elem.(*remora.Base); !ok {
		return nil
	}
	terms, indices := map[string]bool{}, map[string]bool{}
	freeVars(e, terms, indices)
	for x := range terms {
		if h.bound[x] {
			return nil
		}
	}
	for x := range indices {
		if h.ibound[x] {
			return nil
		}
	}
	if CanFail(e) && (!h.safe || h.failed) {
		return nil
	}
	return t
}
