package fun

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// CheckOptions configure the type checker.
type CheckOptions struct {
	Paper   bool              // refuse the extensions (inputs, scalar results, loop, reduce, scan, filter, assert, redomap, scanomap)
	Derive  bool              // build the typing derivation
	Counter semantics.Counter // counts the rules applied, if non-nil
}

// Info is what the checker learns about a well-typed program.
type Info struct {
	// Results are the types of the program's results, in terms of the
	// variables in scope at its final in (…).
	Results []Type
	// Derivation is the typing derivation, when asked for.
	Derivation *semantics.Derivation
}

// ResultString renders the program's type, e.g. ([n][m], int).
func (in *Info) ResultString() string {
	parts := make([]string, len(in.Results))
	for i, t := range in.Results {
		parts[i] = t.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Check type checks a program by the rules of Fig 3. Its errors are
// *semantics.Error values of kind TypeError naming the rule that failed.
//
// Besides the rules as printed, the checker insists that a program binds
// each name at most once along any path of scopes (no shadowing). The rules
// of Fig 3 assume it silently: with shadowing, a type [n] could come to refer
// to a different n than the one its array was built with (see ERRATA.md).
func Check(p *Program, opts *CheckOptions) (*Info, error) {
	if opts == nil {
		opts = &CheckOptions{}
	}
	n := ScopeNeed(p) // Γ made as large as it gets never grows
	c := &checker{opts: opts, env: NewScopeSized("FUN", n), bound: make([]string, 0, n)}
	d, results, err := c.program(p)
	if err != nil {
		return nil, err
	}
	return &Info{Results: results, Derivation: d}, nil
}

type checker struct {
	opts *CheckOptions
	env  *Scope // Γ; bodies undo their bindings on exit
	// bound are the names bind added to Γ, in order: a body (a kernel,
	// a fold's parameters) takes them out again by unbind, back to the
	// length it found.
	bound []string
}

func (c *checker) errorf(pos Pos, rule, format string, args ...any) error {
	return semantics.Errorf(pos, semantics.TypeError, rule, format, args...)
}

// node records one rule application: it counts the rule and, when
// derivations are asked for, builds the node.
func (c *checker) node(rule, conclusion string, premises ...*semantics.Derivation) *semantics.Derivation {
	return semantics.Deriver{Derive: c.opts.Derive, Counter: c.opts.Counter}.Node(rule, func() string { return conclusion }, premises...)
}

// nodef is node with the conclusion made only when a derivation is
// built: the scalar expressions' conclusions print them, and a check
// without a derivation (a pass's output re-checked) printed every one.
func (c *checker) nodef(rule string, conclusion func() string, premises ...*semantics.Derivation) *semantics.Derivation {
	return semantics.Deriver{Derive: c.opts.Derive, Counter: c.opts.Counter}.Node(rule, conclusion, premises...)
}

// bind adds x : τ to Γ, refusing to shadow; unbind takes it out again.
// Paper mode refuses a float type (floats are an extension).
func (c *checker) bind(rule string, x *Ident, t Type) error {
	if t.Ext != nil {
		return c.errorf(x.NamePos, rule, "%s : %s: memory annotations are FUNMEM, not FUN", x.Name, t)
	}
	if c.opts.Paper && t.Elem == semantics.FloatElem {
		return c.errorf(x.NamePos, rule, "%s : %s: floats are an extension (refused in paper mode)", x.Name, t)
	}
	if err := c.env.Add(rule, x, t); err != nil {
		return err
	}
	c.bound = append(c.bound, x.Name)
	return nil
}

// unbind takes the names bound since len(c.bound) was mark out of Γ,
// last first.
func (c *checker) unbind(mark int) {
	for i := len(c.bound) - 1; i >= mark; i-- {
		c.env.Remove(c.bound[i])
	}
	c.bound = c.bound[:mark]
}

// lookupInt checks (x : int) ∈ Γ.
func (c *checker) lookupInt(rule string, x *Ident, what string) error {
	return c.env.LookupInt(rule, x, what)
}

// lookupArray checks (x : [z1]…[zn]) ∈ Γ and returns the type.
func (c *checker) lookupArray(rule string, x *Ident) (Type, error) {
	t, err := c.env.Lookup(rule, x, "array")
	if err != nil {
		return Type{}, err
	}
	if t.Rank() == 0 {
		return Type{}, c.errorf(x.NamePos, rule, "%s has type %s, not an array type", x.Name, t)
	}
	return t, nil
}

// singleBinding checks that a pattern is one binding, as every rule but
// T-IF asks, and returns it.
func (c *checker) singleBinding(rule string, s *Stm) (*Param, error) {
	if len(s.Pat) != 1 {
		return nil, c.errorf(s.Pat[1].Lparen, rule, "this expression gives one value, but the pattern binds %d", len(s.Pat))
	}
	return s.Pat[0], nil
}

// expectType checks a binding's declared type against the one the rule gives.
func (c *checker) expectType(rule string, p *Param, want Type) error {
	if !p.Type.Same(want) {
		return c.errorf(p.Lparen, rule, "%s is declared %s, but the expression has type %s", p.Name.Name, p.Type, want)
	}
	return nil
}

// sizesInScope checks that every size in a pattern's types is an int in Γ,
// or (where the rule allows it, as T-IF does) bound as an int by the
// pattern itself. It also refuses a name bound twice by one pattern.
func (c *checker) sizesInScope(rule string, pat []*Param, patternMayBind bool) error {
	for i, p := range pat {
		if paramNamed(pat[:i], p.Name.Name) != nil {
			return c.errorf(p.Name.NamePos, rule, "%s is bound twice in this pattern", p.Name.Name)
		}
	}
	for _, p := range pat {
		for _, d := range p.Type.Dims {
			if q := paramNamed(pat, d.Name); q != nil && patternMayBind {
				if !q.Type.IsInt() {
					return c.errorf(d.NamePos, rule, "size variable %s has type %s, not int", d.Name, q.Type)
				}
				continue
			}
			if err := c.lookupInt(rule, d, "size variable"); err != nil {
				return err
			}
		}
	}
	return nil
}

// paramNamed is the parameter of ps that binds x, or nil. (A pattern
// binds a few names: a scan of it costs less than a map.)
func paramNamed(ps []*Param, x string) *Param {
	for _, p := range ps {
		if p.Name.Name == x {
			return p
		}
	}
	return nil
}

// program is T-PROG, extended with input declarations and results of any type.
func (c *checker) program(p *Program) (*semantics.Derivation, []Type, error) {
	rule := TProg.Name
	if c.opts.Paper && len(p.Inputs) > 0 {
		return nil, nil, c.errorf(p.Inputs[0].Lparen, rule, "input declarations are an extension (refused in paper mode)")
	}
	if err := c.sizesInScopeOfInputs(p.Inputs); err != nil {
		return nil, nil, err
	}
	for _, in := range p.Inputs {
		if err := c.bind(rule, in.Name, in.Type); err != nil {
			return nil, nil, err
		}
	}
	d, results, err := c.body(nil, p.Body)
	if err != nil {
		if d := semantics.PartialDerivation(err); d != nil {
			err = semantics.Failing(err, &semantics.Derivation{Rule: rule, Conclusion: "⊢ " + bodyHead(p.Body, 0), Premises: []*semantics.Derivation{d}})
		}
		return nil, nil, err
	}
	if c.opts.Paper {
		for i, t := range results {
			if t.IsScalar() {
				x := p.Body.Result[i]
				return nil, nil, c.errorf(x.NamePos, rule, "result %s is a scalar; the paper's programs return arrays (refused in paper mode)", x.Name)
			}
		}
	}
	info := &Info{Results: results}
	return c.nodef(rule, func() string { return "⊢ " + bodyHead(p.Body, 0) + " : " + info.ResultString() }, d), results, nil
}

// sizesInScopeOfInputs checks input declarations: every size of an array
// input must be declared as an int input (anywhere among the inputs).
func (c *checker) sizesInScopeOfInputs(inputs []*Param) error {
	ints := map[string]bool{}
	seen := map[string]bool{}
	for _, in := range inputs {
		if seen[in.Name.Name] {
			return c.errorf(in.Name.NamePos, TProg.Name, "input %s is declared twice", in.Name.Name)
		}
		seen[in.Name.Name] = true
		if in.Type.IsInt() {
			ints[in.Name.Name] = true
		}
	}
	for _, in := range inputs {
		for _, d := range in.Type.Dims {
			if !ints[d.Name] {
				return c.errorf(d.NamePos, TProg.Name, "size variable %s of input %s is not an int input", d.Name, in.Name.Name)
			}
		}
	}
	return nil
}

// stmBind is the statement half of T-STM: Γ ⊢ let p̄ = e, then Γ, p̄
// (the enclosing body unbinds p̄ at its end; on an error nothing of p̄
// stays bound).
func (c *checker) stmBind(s *Stm) (*semantics.Derivation, error) {
	d, err := c.stm(s)
	if err != nil {
		return nil, err
	}
	mark := len(c.bound)
	for _, p := range s.Pat {
		if err := c.bind(TStm.Name, p.Name, p.Type); err != nil {
			c.unbind(mark)
			return nil, err
		}
	}
	return d, nil
}

// stm is the judgement Γ ⊢ s. With derivations asked for, its error
// carries the derivation down to the rule that failed (failedStm).
func (c *checker) stm(s *Stm) (*semantics.Derivation, error) {
	d, err := c.stmRule(s)
	if err != nil && c.opts.Derive {
		err = failedStm(err, s)
	}
	return d, err
}

// failedStm is err with the derivation of Γ ⊢ s as far as it went: the
// rule of s over the derivation its body's error carries (a kernel's, an
// if's, a fold's), or the failing rule as a leaf.
func failedStm(err error, s *Stm) error {
	rule := map[string]string{"*fun.IfExp": TIf.Name, "*fun.KernelExp": TKernel.Name, "*fun.LoopExp": TLoop.Name,
		"*fun.ReduceExp": TReduce.Name, "*fun.ScanExp": TScan.Name, "*fun.FilterExp": TFilter.Name}[fmt.Sprintf("%T", s.Exp)]
	if r, ok := s.Exp.(*RedomapExp); ok {
		rule = TRedomap.Name
		if r.Scan {
			rule = TScanomap.Name
		}
	}
	if rule == "" {
		rule = TStm.Name
	}
	return semantics.FailedJudgement(err, "Γ ⊢ "+stmHead(s), rule)
}

// stmRule is Γ ⊢ s by the rule of s's expression.
func (c *checker) stmRule(s *Stm) (*semantics.Derivation, error) {
	// The conclusion is printed only for a derivation: a check without
	// one (every pass's output re-checked) would print every statement.
	concl := ""
	if c.opts.Derive {
		concl = "Γ ⊢ " + stmHead(s)
	}
	switch e := s.Exp.(type) {
	case *ScalarExp:
		rule := TScalar.Name
		p, err := c.singleBinding(rule, s)
		if err != nil {
			return nil, err
		}
		d, el, err := c.sexp(e.X)
		if err != nil {
			return nil, err
		}
		if err := c.expectType(rule, p, Type{Elem: el}); err != nil {
			return nil, err
		}
		return c.node(rule, concl, d), nil

	case *IndexExp:
		rule := TIndex.Name
		p, err := c.singleBinding(rule, s)
		if err != nil {
			return nil, err
		}
		t, err := c.lookupArray(rule, e.Arr)
		if err != nil {
			return nil, err
		}
		if len(e.Idx) != t.Rank() {
			return nil, c.errorf(e.Arr.NamePos, rule, "%s has rank %d but is indexed with %d indices (FUN indexes every dimension)", e.Arr.Name, t.Rank(), len(e.Idx))
		}
		for _, y := range e.Idx {
			if err := c.lookupInt(rule, y, "index"); err != nil {
				return nil, err
			}
		}
		if err := c.expectType(rule, p, Type{Elem: t.Elem}); err != nil {
			return nil, err
		}
		return c.node(rule, concl), nil

	case *IfExp:
		rule := TIf.Name
		if err := c.lookupInt(rule, e.Cond, "condition"); err != nil {
			return nil, err
		}
		if err := c.sizesInScope(rule, s.Pat, true); err != nil {
			return nil, err
		}
		d1, _, err := c.body(s.Pat, e.Then)
		if err != nil {
			return nil, err
		}
		d2, _, err := c.body(s.Pat, e.Else)
		if err != nil {
			if p := semantics.PartialDerivation(err); p != nil { // the branch that held, then the one that failed
				err = semantics.Failing(err, &semantics.Derivation{Rule: rule, Conclusion: concl, Premises: []*semantics.Derivation{d1, p}})
			}
			return nil, err
		}
		return c.node(rule, concl, d1, d2), nil

	case *TransposeExp:
		rule := TTranspose.Name
		p, err := c.singleBinding(rule, s)
		if err != nil {
			return nil, err
		}
		t, err := c.lookupArray(rule, e.Arr)
		if err != nil {
			return nil, err
		}
		if t.Rank() != 2 {
			return nil, c.errorf(e.Arr.NamePos, rule, "transpose needs an array of rank 2, but %s has type %s", e.Arr.Name, t)
		}
		if err := c.expectType(rule, p, Type{Dims: []*Ident{t.Dims[1], t.Dims[0]}, Elem: t.Elem}); err != nil {
			return nil, err
		}
		return c.node(rule, concl), nil

	case *SliceExp:
		rule := TSlice.Name
		p, err := c.singleBinding(rule, s)
		if err != nil {
			return nil, err
		}
		if err := c.sizesInScope(rule, s.Pat, false); err != nil {
			return nil, err
		}
		t, err := c.lookupArray(rule, e.Arr)
		if err != nil {
			return nil, err
		}
		if len(e.Slices) != t.Rank() {
			return nil, c.errorf(e.Arr.NamePos, rule, "%s has rank %d but is sliced in %d dimensions (FUN slices every dimension)", e.Arr.Name, t.Rank(), len(e.Slices))
		}
		want := Type{Elem: t.Elem}
		for _, sl := range e.Slices {
			if err := c.lookupInt(rule, sl.Off, "slice offset"); err != nil {
				return nil, err
			}
			if err := c.lookupInt(rule, sl.Size, "slice size"); err != nil {
				return nil, err
			}
			want.Dims = append(want.Dims, sl.Size)
		}
		if err := c.expectType(rule, p, want); err != nil {
			return nil, err
		}
		return c.node(rule, concl), nil

	case *KernelExp:
		rule := TKernel.Name
		p, err := c.singleBinding(rule, s)
		if err != nil {
			return nil, err
		}
		if err := c.lookupInt(rule, e.Bound, "kernel bound"); err != nil {
			return nil, err
		}
		if p.Type.Rank() == 0 || p.Type.Dims[0].Name != e.Bound.Name {
			return nil, c.errorf(p.Lparen, rule, "a kernel of bound %s gives an array of type [%s]…, but %s is declared %s", e.Bound.Name, e.Bound.Name, p.Name.Name, p.Type)
		}
		// ∀y' ∈ FV(τ). (y' : int) ∈ Γ: the element type may not mention the
		// kernel's index or anything bound inside its body.
		if err := c.sizesInScope(rule, s.Pat, false); err != nil {
			return nil, err
		}
		mark := len(c.bound)
		if err := c.bind(rule, e.Var, Type{}); err != nil {
			return nil, err
		}
		defer c.unbind(mark)
		elem := &Param{Lparen: p.Lparen, Name: p.Name, Type: p.Type.Row()}
		d, _, err := c.body([]*Param{elem}, e.Body)
		if err != nil {
			return nil, err
		}
		return c.node(rule, concl, d), nil

	case *IotaExp:
		// Derived: iota x ≡ kernel xi <= x do in (xi), typed by T-KERNEL.
		rule := TIota.Name
		p, err := c.singleBinding(rule, s)
		if err != nil {
			return nil, err
		}
		if err := c.lookupInt(rule, e.N, "iota's argument"); err != nil {
			return nil, err
		}
		if err := c.expectType(rule, p, Type{Dims: []*Ident{e.N}}); err != nil {
			return nil, err
		}
		return c.node(rule, concl), nil

	case *CopyExp:
		// Derived: copy x ≡ nested kernels over x's dimensions indexing x.
		rule := TCopy.Name
		p, err := c.singleBinding(rule, s)
		if err != nil {
			return nil, err
		}
		t, err := c.lookupArray(rule, e.Arr)
		if err != nil {
			return nil, err
		}
		if err := c.expectType(rule, p, t); err != nil {
			return nil, err
		}
		return c.node(rule, concl), nil

	case *LoopExp:
		return c.loop(s, e, concl)
	case *ReduceExp:
		return c.fold(TReduce.Name, "reduce", s, e.Params, e.Ne, e.Arr, e.Body, false, concl)
	case *ScanExp:
		return c.fold(TScan.Name, "scan", s, e.Params, e.Ne, e.Arr, e.Body, true, concl)
	case *FilterExp:
		return c.filter(s, e, concl)
	case *RedomapExp:
		return c.redomap(s, e, concl)
	case *AssertExp:
		return c.assert(s, e, concl)
	}
	return nil, c.errorf(s.Exp.Pos(), TStm.Name, "%s is not a FUN expression", PrintExp(s.Exp))
}

// body is the judgement Γ ⊢ p̄ ← b (T-STM and T-RESULT). With a nil
// pattern it infers one, as T-PROG needs: the results bound to their own
// types (S is then the identity). It returns the types of the results.
func (c *checker) body(pat []*Param, b *Body) (*semantics.Derivation, []Type, error) {
	defer c.unbind(len(c.bound))
	var stmDerivs []*semantics.Derivation
	// failed is err with the T-STM chain down to statement i (the
	// results when i is past them); failing is the leaf where err carries
	// no derivation.
	failed := func(err error, i int, failing *semantics.Derivation) error {
		if !c.opts.Derive {
			return err
		}
		shown := PrintPattern(pat)
		if pat == nil { // the program's, inferred from its results once they check
			shown = "p̄"
		}
		return semantics.FailedChain(err, TStm.Name, func(j int) string { return "Γ ⊢ " + shown + " ← " + bodyHead(b, j) },
			stmDerivs[:min(i, len(stmDerivs))], i < len(b.Stms), failing)
	}
	for i, s := range b.Stms {
		d, err := c.stmBind(s)
		if err != nil {
			return nil, nil, failed(err, i, &semantics.Derivation{Rule: TStm.Name, Conclusion: "Γ ⊢ " + stmHead(s)})
		}
		stmDerivs = append(stmDerivs, d)
	}
	if pat == nil {
		for _, x := range b.Result {
			t, err := c.env.Lookup(TResult.Name, x, "result")
			if err != nil {
				return nil, nil, failed(err, len(b.Stms), &semantics.Derivation{Rule: TResult.Name, Conclusion: "Γ ⊢ " + bodyHead(b, len(b.Stms))})
			}
			pat = append(pat, &Param{Lparen: x.NamePos, Name: x, Type: t})
		}
	}
	d, err := c.result(pat, b)
	if err != nil {
		return nil, nil, failed(err, len(b.Stms), &semantics.Derivation{Rule: TResult.Name, Conclusion: "Γ ⊢ " + PrintPattern(pat) + " ← " + bodyHead(b, len(b.Stms))})
	}
	types := make([]Type, len(b.Result))
	for i, x := range b.Result {
		types[i], _ = c.env.TypeOf(x) // in scope: result checked it
	}
	// The T-STM chain: each statement's node has the rest of the body as its second premise.
	for i := len(b.Stms) - 1; i >= 0; i-- {
		concl := ""
		if c.opts.Derive {
			concl = "Γ ⊢ " + PrintPattern(pat) + " ← " + bodyHead(b, i)
		}
		d = c.node(TStm.Name, concl, stmDerivs[i], d)
	}
	return d, types, nil
}

// result is T-RESULT: with S = {y_i ↦ x_i}, each (x_i : S(τ_i)) ∈ Γ.
func (c *checker) result(pat []*Param, b *Body) (*semantics.Derivation, error) {
	rule := TResult.Name
	if len(b.Result) != len(pat) {
		return nil, c.errorf(b.In, rule, "the body returns %d values, but the pattern %s binds %d", len(b.Result), PrintPattern(pat), len(pat))
	}
	if err := c.substituted(rule, "result", pat, b.Result); err != nil {
		return nil, err
	}
	return c.nodef(rule, func() string { return "Γ ⊢ " + PrintPattern(pat) + " ← " + bodyHead(b, len(b.Stms)) }), nil
}

// substituted is T-RESULT's premise, which T-LOOP shares for a loop's
// initial values: with S = {y_i ↦ x_i} for the pattern's names y_i, each
// (x_i : S(τ_i)) ∈ Γ. what names the x_i in errors ("result").
func (c *checker) substituted(rule, what string, pat []*Param, xs []*Ident) error {
	subst := map[string]*Ident{}
	for i, p := range pat {
		subst[p.Name.Name] = xs[i]
	}
	for i, p := range pat {
		x := xs[i]
		have, err := c.env.Lookup(rule, x, what)
		if err != nil {
			return err
		}
		want := substType(p.Type, subst)
		if !have.Same(want) {
			return c.errorf(x.NamePos, rule, "%s %s has type %s, but the binding %s needs %s", what, x.Name, have, PrintParam(p), want)
		}
	}
	return nil
}

// substType is S(τ): τ with each size that S maps replaced.
func substType(t Type, subst map[string]*Ident) Type {
	want := Type{Elem: t.Elem}
	for _, d := range t.Dims {
		if s, ok := subst[d.Name]; ok {
			d = s
		}
		want.Dims = append(want.Dims, d)
	}
	return want
}

// sexp is Γ ⊢ se : τ for a scalar type τ, int or float (T-CONST, T-VAR,
// T-OP, and the floats' T-FLOAT and T-CALL); it returns τ. There are no
// implicit conversions: an operator's operands have one type.
func (c *checker) sexp(e SExp) (*semantics.Derivation, semantics.Elem, error) {
	is := func(el semantics.Elem) string { return " : " + el.String() }
	switch e := e.(type) {
	case *Const:
		return c.nodef(TConst.Name, func() string { return fmt.Sprintf("Γ ⊢ %d : int", e.Value) }), semantics.IntElem, nil
	case *FloatConst:
		if c.opts.Paper {
			return nil, 0, c.errorf(e.ValuePos, TFloat.Name, "float constant %s: floats are an extension (refused in paper mode)", PrintSExp(e))
		}
		return c.nodef(TFloat.Name, func() string { return "Γ ⊢ " + PrintSExp(e) + " : float" }), semantics.FloatElem, nil
	case Var:
		t, err := c.env.Lookup(TVar.Name, e.Ident, "variable")
		if err != nil {
			return nil, 0, err
		}
		if !t.IsScalar() {
			return nil, 0, c.errorf(e.NamePos, TVar.Name, "variable %s has type %s, not int or float", e.Name, t)
		}
		return c.nodef(TVar.Name, func() string { return "Γ ⊢ " + e.Name + is(t.Elem) }), t.Elem, nil
	case *BinOp:
		d1, l, err := c.sexp(e.L)
		if err != nil {
			return nil, 0, err
		}
		d2, r, err := c.sexp(e.R)
		if err != nil {
			return nil, 0, err
		}
		if l != r {
			return nil, 0, c.errorf(e.OpPos, TOp.Name, "operator %s applied to %s and %s in %s (no implicit conversions: use float(se) or int(se))", e.Op, l, r, PrintSExp(e))
		}
		res := l
		if e.Op.IsChecked() && c.opts.Paper {
			return nil, 0, c.errorf(e.OpPos, TOp.Name, "operator %s: the checked operators are an extension (refused in paper mode)", e.Op)
		}
		if e.Op.IntOnly() && l == semantics.FloatElem {
			return nil, 0, c.errorf(e.OpPos, TOp.Name, "operator %s takes ints, not floats, in %s", e.Op, PrintSExp(e))
		}
		switch e.Op {
		case semantics.Eq, semantics.Ne, semantics.Lt, semantics.Le, semantics.Gt, semantics.Ge:
			res = semantics.IntElem // a comparison gives 1 or 0
		}
		return c.nodef(TOp.Name, func() string { return "Γ ⊢ " + PrintSExp(e) + is(res) }, d1, d2), res, nil
	case *UnOp:
		// Unary minus is the operator 0 - se, typed by T-OP.
		d, el, err := c.sexp(e.X)
		if err != nil {
			return nil, 0, err
		}
		return c.nodef(TOp.Name, func() string { return "Γ ⊢ " + PrintSExp(e) + is(el) }, d), el, nil
	case *Call:
		if c.opts.Paper {
			return nil, 0, c.errorf(e.NamePos, TCall.Name, "%s(…): the built-in functions are an extension (refused in paper mode)", e.Func)
		}
		d, el, err := c.sexp(e.Arg)
		if err != nil {
			return nil, 0, err
		}
		if el != e.Func.Arg() {
			return nil, 0, c.errorf(e.NamePos, TCall.Name, "%s takes %s, but its argument %s is %s", e.Func, article(e.Func.Arg()), PrintSExp(e.Arg), article(el))
		}
		return c.nodef(TCall.Name, func() string { return "Γ ⊢ " + PrintSExp(e) + is(e.Func.Result()) }, d), e.Func.Result(), nil
	}
	return nil, 0, fmt.Errorf("unknown scalar expression %T", e)
}

// article is "an int" or "a float", for messages.
func article(el semantics.Elem) string {
	if el == semantics.IntElem {
		return "an int"
	}
	return "a float"
}

// stmHead renders a statement on one line, eliding nested bodies.
func stmHead(s *Stm) string {
	head := "let " + PrintPattern(s.Pat) + " = "
	switch e := s.Exp.(type) {
	case *IfExp:
		return head + "if " + e.Cond.Name + " then … else …"
	case *KernelExp:
		return head + "kernel " + e.Var.Name + " <= " + e.Bound.Name + " do …"
	case *LoopExp, *ReduceExp, *ScanExp, *FilterExp, *RedomapExp:
		h, _ := extHead(e)
		return head + h + " do …"
	}
	return head + PrintExp(s.Exp)
}

// bodyHead renders the body from statement i on, briefly.
func bodyHead(b *Body, i int) string {
	if i < len(b.Stms) {
		if i == len(b.Stms)-1 {
			return stmHead(b.Stms[i]) + " in (…)"
		}
		return stmHead(b.Stms[i]) + " …"
	}
	names := make([]string, len(b.Result))
	for i, x := range b.Result {
		names[i] = x.Name
	}
	return "in (" + strings.Join(names, ", ") + ")"
}
