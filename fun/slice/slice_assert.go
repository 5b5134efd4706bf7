package slice

import (
	"github.com/arraysem/arraysem/fun"
	"math"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// Part 2 of size slicing: assertions that cannot fail.
//
// Fig 10 B–D simplify the predicate slice of the running example until
// the check of B's regularity is N+N == S under the guard N != 0, where S
// is if N == 0 then 0 else N+N: a check that holds. An assertion in a
// kernel body that is trivially true where it runs is dropped here, before
// part 3 would hoist it: a value compared with itself (the same scalar
// computation on the same variables: value numbering), comparisons of
// constants, and comparisons a kernel's bound decides in its body (the
// body runs only when the bound is at least 1, so there n == 0 is false
// and an if on it takes its else branch). An assertion that holds binds
// 1, so one whose value is used becomes let (ok : int) = 1; the scalar
// statements only it used, which cannot fail, go with it.

// slSym is the symbolic value of a scalar: a canonical key (equal keys,
// equal values, for ints), a constant, and its type.
type slSym struct {
	key   string
	konst bool
	val   int64
	float bool
}

// slConst is the symbolic value of a constant.
func slConst(v int64) *slSym { return &slSym{key: strconv.FormatInt(v, 10), konst: true, val: v} }

// slInterval is what is known of an int: lo ≤ v ≤ hi, and v ≠ 0.
type slInterval struct {
	lo, hi  int64
	nonzero bool
}

var slAnyInt = slInterval{lo: math.MinInt64, hi: math.MaxInt64}

// slDefn is a binding in scope, for value numbering: a statement's, or an
// input's, index's or parameter's (stm nil).
type slDefn struct {
	stm   *fun.Stm
	typ   fun.Type
	index int // the binding's place in stm's pattern
}

// slSymCtx evaluates scalars symbolically where they are in scope: defs are
// the bindings in scope (the latest met, as types are), facts what the
// conditions around the place say.
type slSymCtx struct {
	defs  map[string]slDefn
	over  []map[string]slDefn // the bindings of the branches being looked into
	facts map[string]slInterval
	depth int
	memo  map[string]*slSym // varSym's, while the facts and overlays stay
}

// bind records a binding met (a name bound again in a sibling scope
// forgets what was known of the other).
func (c *slSymCtx) bind(x string, d slDefn) {
	c.defs[x] = d
	delete(c.memo, x)
}

// lookup is a name's binding: in the branches looked into, else in scope.
func (c *slSymCtx) lookup(x string) (slDefn, bool) {
	for i := len(c.over) - 1; i >= 0; i-- {
		if d, ok := c.over[i][x]; ok {
			return d, true
		}
	}
	d, ok := c.defs[x]
	return d, ok
}

// of is the symbolic value of a scalar expression.
func (c *slSymCtx) of(e fun.SExp) *slSym {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > 200 {
		return &slSym{key: "?" + fun.PrintSExp(e)}
	}
	switch e := e.(type) {
	case *fun.Const:
		return slConst(e.Value)
	case *fun.FloatConst:
		return &slSym{key: "f" + semantics.FormatFloat(e.Value), float: true}
	case fun.Var:
		return c.varSym(e.Name)
	case *fun.UnOp:
		x := c.of(e.X)
		if x.konst {
			return slConst(semantics.Unary(e.Op, x.val))
		}
		return &slSym{key: "(" + e.Op.String() + " " + x.key + ")", float: x.float}
	case *fun.Call:
		x := c.of(e.Arg)
		return &slSym{key: "(" + e.Func.String() + " " + x.key + ")", float: e.Func.Result() == semantics.FloatElem}
	case *fun.BinOp:
		return c.binary(e.Op, c.of(e.L), c.of(e.R))
	}
	return &slSym{key: "?"}
}

// slIsComparison reports whether op compares (giving 1 or 0).
func slIsComparison(op semantics.Op) bool {
	switch op {
	case semantics.Eq, semantics.Ne, semantics.Lt, semantics.Le, semantics.Gt, semantics.Ge:
		return true
	}
	return false
}

// binary is the symbolic value of l op r: folded when the constants or
// the facts decide it, else a key (operands in order for the commutative
// operators).
func (c *slSymCtx) binary(op semantics.Op, l, r *slSym) *slSym {
	float := l.float || r.float
	if !float && l.konst && r.konst {
		if v, err := semantics.Binary(op, l.val, r.val); err == nil {
			return slConst(v)
		}
	}
	if slIsComparison(op) && !float {
		if v, ok := c.decide(op, l, r); ok {
			return slConst(v)
		}
	}
	if !float && (op == semantics.And || op == semantics.Or) {
		lt, lok := c.truth(l)
		rt, rok := c.truth(r)
		switch {
		case lok && rok && op == semantics.And:
			return slConst(slB2i(lt && rt))
		case lok && rok:
			return slConst(slB2i(lt || rt))
		case op == semantics.And && (lok && !lt || rok && !rt):
			return slConst(0)
		case op == semantics.Or && (lok && lt || rok && rt):
			return slConst(1)
		}
	}
	a, b := l.key, r.key
	switch op {
	case semantics.Add, semantics.Mul, semantics.Eq, semantics.Ne, semantics.And, semantics.Or:
		if b < a { // commutative: one key for both orders
			a, b = b, a
		}
	}
	res := &slSym{key: "(" + op.String() + " " + a + " " + b + ")", float: float && !slIsComparison(op)}
	if f, ok := c.facts[res.key]; ok && !res.float {
		if f.lo == f.hi {
			return slConst(f.lo)
		}
	}
	return res
}

// slB2i is 1 for true, 0 for false.
func slB2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// known is what the facts say of an int.
func (c *slSymCtx) known(x *slSym) slInterval {
	if x.konst {
		return slInterval{lo: x.val, hi: x.val, nonzero: x.val != 0}
	}
	if f, ok := c.facts[x.key]; ok {
		return f
	}
	return slAnyInt
}

// truth is whether an int is known non-zero (true) or zero (false).
func (c *slSymCtx) truth(x *slSym) (bool, bool) {
	iv := c.known(x)
	switch {
	case iv.lo == 0 && iv.hi == 0:
		return false, true
	case iv.nonzero || iv.lo > 0 || iv.hi < 0:
		return true, true
	}
	return false, false
}

// decide decides a comparison of ints by their keys and intervals.
func (c *slSymCtx) decide(op semantics.Op, l, r *slSym) (int64, bool) {
	if l.key == r.key {
		switch op {
		case semantics.Eq, semantics.Le, semantics.Ge:
			return 1, true
		}
		return 0, true
	}
	a, b := c.known(l), c.known(r)
	lt := a.hi < b.lo  // l < r surely
	ge := a.lo >= b.hi // l >= r surely
	gt := a.lo > b.hi
	le := a.hi <= b.lo
	disjoint := lt || gt || (a.nonzero && b.lo == 0 && b.hi == 0) || (b.nonzero && a.lo == 0 && a.hi == 0)
	switch op {
	case semantics.Lt:
		return slDecided(lt, ge)
	case semantics.Le:
		return slDecided(le, gt)
	case semantics.Gt:
		return slDecided(gt, le)
	case semantics.Ge:
		return slDecided(ge, lt)
	case semantics.Eq:
		return slDecided(false, disjoint)
	case semantics.Ne:
		return slDecided(disjoint, false)
	}
	return 0, false
}

// slDecided is 1 when yes, 0 when no, and undecided otherwise.
func slDecided(yes, no bool) (int64, bool) {
	switch {
	case yes:
		return 1, true
	case no:
		return 0, true
	}
	return 0, false
}

// varSym is the symbolic value of a variable: its scalar statement's, or
// its if's branch that the facts choose; else the variable itself.
func (c *slSymCtx) varSym(x string) *slSym {
	if v, ok := c.memo[x]; ok {
		return v
	}
	v := c.varSym1(x)
	if len(v.key) > 4096 { // too big to be worth comparing
		v = &slSym{key: "v:" + x, float: v.float}
	}
	c.memo[x] = v
	return v
}

// varSym1 is varSym without the memo.
func (c *slSymCtx) varSym1(x string) *slSym {
	d, ok := c.lookup(x)
	atom := &slSym{key: "v:" + x, float: d.typ.Elem == semantics.FloatElem}
	if !ok || d.stm == nil || !d.typ.IsScalar() {
		return atom
	}
	switch e := d.stm.Exp.(type) {
	case *fun.ScalarExp:
		if len(d.stm.Pat) == 1 {
			return c.of(e.X)
		}
	case *fun.AssertExp:
		return slConst(1) // it binds 1 where it is in scope
	case *fun.IfExp:
		if t, known := c.truth(c.varSym(e.Cond.Name)); known {
			br := e.Else
			if t {
				br = e.Then
			}
			over := map[string]slDefn{}
			for _, s := range br.Stms {
				for i, p := range s.Pat {
					over[p.Name.Name] = slDefn{stm: s, typ: p.Type, index: i}
				}
			}
			saved := c.memo
			c.over, c.memo = append(c.over, over), map[string]*slSym{}
			v := c.varSym(br.Result[d.index].Name)
			c.over, c.memo = c.over[:len(c.over)-1], saved
			return v
		}
	}
	return atom
}

// assume records that a condition holds: an int is at least 1 (a bound),
// not 0 or 0 (an if's branch).
func (c *slSymCtx) assume(x string, kind int) {
	s := c.varSym(x)
	if s.konst {
		return
	}
	iv := c.known(s)
	switch kind {
	case slPos:
		iv.lo = max(iv.lo, 1)
		iv.nonzero = true
	case slThen:
		iv.nonzero = true
		if strings.HasPrefix(s.key, "(") && slIsComparisonKey(s.key) {
			iv.lo, iv.hi = 1, 1
		}
	case slElse:
		iv.lo, iv.hi = 0, 0
	}
	c.facts[s.key] = iv
	c.memo = map[string]*slSym{}
}

// slIsComparisonKey reports whether a key is a comparison's or a logical
// operator's (whose value is 1 or 0).
func slIsComparisonKey(k string) bool {
	for _, op := range []string{"== ", "!= ", "< ", "<= ", "> ", ">= ", "&& ", "|| "} {
		if strings.HasPrefix(k, "("+op) {
			return true
		}
	}
	return false
}

// asserts drops the assertions in kernel bodies that are trivially true.
func (s *slicer) asserts(p *fun.Program) {
	c := &slSymCtx{defs: map[string]slDefn{}, facts: map[string]slInterval{}, memo: map[string]*slSym{}}
	for _, in := range p.Inputs {
		c.defs[in.Name.Name] = slDefn{typ: in.Type}
	}
	s.assertBody(p.Body, c, false)
}

// assertBody drops the trivially true assertions of b, and looks into its
// statements' bodies; inKernel says b is in a kernel's body.
func (s *slicer) assertBody(b *fun.Body, c *slSymCtx, inKernel bool) {
	dead := map[string]bool{} // the names only dropped assertions used, maybe
	for i := 0; i < len(b.Stms); i++ {
		st := b.Stms[i]
		if a, ok := st.Exp.(*fun.AssertExp); ok && inKernel {
			if v := c.of(a.Cond); v.konst && v.val != 0 {
				s.note(st.Pos(), "dropped the assertion %s: it holds wherever it runs (Fig 10 D)", fun.PrintSExp(a.Cond))
				for x := range slFreeVars(st) {
					dead[x] = true
				}
				x := st.Pat[0]
				if slUsedIn(b, i+1, x.Name.Name) {
					st.Exp = &fun.ScalarExp{X: &fun.Const{ValuePos: a.Keyword, Value: 1}}
				} else {
					b.Stms = append(b.Stms[:i], b.Stms[i+1:]...)
					i--
					continue
				}
			}
		}
		s.assertInner(st, c, inKernel)
		for j, p := range st.Pat {
			c.bind(p.Name.Name, slDefn{stm: st, typ: p.Type, index: j})
		}
	}
	// The statements only the dropped assertions used go too, when they
	// cannot fail (nothing else observes them).
	for i := len(b.Stms) - 1; i >= 0; i-- {
		st := b.Stms[i]
		if len(st.Pat) != 1 || !dead[st.Pat[0].Name.Name] || slRecurrence(st) != nil || slCanFail(st) || slUsedIn(b, i+1, st.Pat[0].Name.Name) {
			continue
		}
		for x := range slFreeVars(st) {
			dead[x] = true
		}
		b.Stms = append(b.Stms[:i], b.Stms[i+1:]...)
	}
}

// assertInner looks into the bodies of a statement, with the facts that
// hold there.
func (s *slicer) assertInner(st *fun.Stm, c *slSymCtx, inKernel bool) {
	saved := c.facts
	// enter looks into body b, which runs when x is (kind); an index
	// there is at least 1.
	enter := func(b *fun.Body, x string, kind int, k bool, index ...*fun.Ident) {
		c.facts = map[string]slInterval{}
		for key, v := range saved {
			c.facts[key] = v
		}
		c.assume(x, kind)
		for _, i := range index {
			c.assume(i.Name, slPos)
		}
		s.assertBody(b, c, k)
		c.facts, c.memo = saved, map[string]*slSym{}
	}
	iter := func(x *fun.Ident) { c.bind(x.Name, slDefn{typ: fun.Type{}}) }
	params := func(ps []*fun.Param) {
		for _, p := range ps {
			c.bind(p.Name.Name, slDefn{typ: p.Type})
		}
	}
	switch e := st.Exp.(type) {
	case *fun.KernelExp:
		iter(e.Var)
		enter(e.Body, e.Bound.Name, slPos, true, e.Var)
	case *fun.LoopExp:
		iter(e.Var)
		params(e.Params)
		enter(e.Body, e.Bound.Name, slPos, inKernel, e.Var)
	case *fun.RedomapExp:
		// Sibling scopes: the map body sees the index, the operator body
		// the parameters (bound after the map body, which may bind their
		// names too).
		iter(e.Var)
		enter(e.Map, e.Bound.Name, slPos, inKernel, e.Var)
		params(e.Params)
		enter(e.Op, e.Bound.Name, slPos, inKernel)
	case *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
		params(fun.ExpParams(e))
		for _, b := range fun.ExpBodies(e) {
			s.assertBody(b, c, inKernel)
		}
	case *fun.IfExp:
		enter(e.Then, e.Cond.Name, slThen, inKernel)
		enter(e.Else, e.Cond.Name, slElse, inKernel)
	}
}
