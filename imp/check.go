package imp

import (
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Check checks what the paper calls IMP's "trivial and uninteresting"
// type rules (§4, elided there): every variable is declared (by var, an
// input, or a kernel) before it is used, in a scope still open (an if's
// branches and a kernel's body are scopes of their own); ints and
// blocks are not mixed. Errors are of kind TypeError, with rule IMP-SCOPE
// or IMP-TYPE, or the rule of an extension (IMP-FOR, IMP-ASSERT,
// IMP-REDUCE, IMP-SCAN) for what only that form asks. With floats (an
// extension), ints and floats are not mixed either: a scalar expression
// has one type (IMP-TYPE), and paper mode refuses floats (IMP-FLOAT).
func Check(p *Program, counter semantics.Counter) error {
	return CheckWith(p, CheckOptions{Counter: counter})
}

// CheckOptions configure CheckWith.
type CheckOptions struct {
	// Paper refuses the statements that extend Fig 11 (for, assert,
	// reduce, scan), each by its rule. Inputs and return stay: every IMP
	// program here names its results.
	Paper bool
	// Derive builds the typing derivation (CheckDerivation), and makes
	// an error carry the derivation down to the rule that failed
	// (semantics.PartialDerivation). Without it nothing is built.
	Derive  bool
	Counter semantics.Counter // counts the rules applied
}

// CheckWith is Check with options.
func CheckWith(p *Program, o CheckOptions) error {
	_, err := CheckDerivation(p, o)
	return err
}

// CheckDerivation is CheckWith, giving the typing derivation when
// o.Derive asks for it (nil otherwise): IMP-PROG at the root, over the
// sizes of the array inputs, the body (Γ ⊢ s ⊣ Γ', a node per
// statement) and the results. With o.Derive an error carries the
// derivation as far as it went: the premises that held, down to the
// judgement that failed, a leaf marked ✗ with the error's message.
func CheckDerivation(p *Program, o CheckOptions) (*semantics.Derivation, error) {
	c := &checker{d: semantics.Deriver{Derive: o.Derive, Counter: o.Counter}, paper: o.Paper}
	return c.program(p)
}

// program is IMP-PROG: the inputs make Γ, the body checks in it, and
// the results are declared in the scope it leaves. An error carries the
// derivation as far as it went under IMP-PROG (when deriving).
// declCount is a bound on the names the statements ss declare: a var's,
// a kernel's, a for's and a fold's index, and a fold's two combine
// parameters (what the checker binds; every other statement's target is
// declared). A checked program's environment, scopes and slots hold its
// inputs and these only: their maps are made at this size. (Counting
// every assignment too, as rebinds lists them, about doubled them.)
func declCount(ss []Stmt) int {
	n := 0
	for _, s := range ss {
		switch s := s.(type) {
		case *Decl:
			n++
		case *If:
			n += declCount(s.Then) + declCount(s.Else)
		case *Kernel:
			n += 1 + declCount(s.Body)
		case *For:
			n += 1 + declCount(s.Body)
		case *Reduce:
			n += 3 + declCount(s.Body) + declCount(s.Combine)
		case *Scan:
			n += 3 + declCount(s.Body) + declCount(s.Combine)
		}
	}
	return n
}

func (c *checker) program(p *Program) (*semantics.Derivation, error) {
	var held []*semantics.Derivation
	hold := func(d *semantics.Derivation, err error) error {
		if err != nil {
			return c.over(err, ImpProg.Name, func() string { return "⊢ " + progHead(p) }, held)
		}
		if d != nil {
			held = append(held, d)
		}
		return nil
	}
	scope := make(map[string]Type, 2*len(p.Inputs)+declCount(p.Body))
	for _, in := range p.Inputs {
		if in.Elem == semantics.FloatElem {
			if err := c.float(in.Pos, func() string { return "float input " + in.Name.Name }); err != nil {
				return nil, hold(nil, c.leaf(err, func() string { return "Γ ⊢ input " + inputHead(in) }))
			}
		}
		scope[in.Name.Name] = TypeOf(in.Elem)
		if in.Dims != nil {
			delete(scope, in.Name.Name)
			for _, d := range in.Dims {
				if err := hold(c.ints(scope, d, "Γ")); err != nil {
					return nil, err
				}
				if _, ok := d.(fun.Var); !ok {
					// --arg gives the array; its sizes are read off it.
					err := semantics.Errorf(in.Pos, semantics.TypeError, ImpType.Name, "input %s: the sizes of an input array are int inputs, not %s", in.Name.Name, fun.PrintSExp(d))
					return nil, hold(nil, c.leaf(err, func() string { return "Γ ⊢ input " + inputHead(in) }))
				}
			}
			scope[in.Block.Name] = Mem
		}
	}
	if err := hold(c.body(scope, p.Body, "Γ")); err != nil {
		return nil, err
	}
	g := c.scopeAfter("Γ", p.Body)
	for _, r := range p.Return {
		if r.Dims == nil {
			d, _, err := c.scalar(scope, r.Name, g)
			if err := hold(d, err); err != nil {
				return nil, err
			}
			continue
		}
		if r.Elem == semantics.FloatElem {
			if err := c.float(r.Name.NamePos, func() string { return "float result " + r.Name.Name }); err != nil {
				return nil, hold(nil, c.leaf(err, func() string { return g + " ⊢ return " + resultHead(r) }))
			}
		}
		for _, d := range r.Dims {
			if err := hold(c.ints(scope, d, g)); err != nil {
				return nil, err
			}
		}
		if err := hold(c.use(scope, r.Name, Mem, g)); err != nil {
			return nil, err
		}
	}
	return c.d.Node(ImpProg.Name, func() string { return "⊢ " + progHead(p) + " : " + ResultString(p) }, held...), nil
}

// float refuses what of the floats extension at pos in paper mode, and
// counts IMP-FLOAT otherwise.
func (c *checker) float(pos fun.Pos, what func() string) error {
	if err := c.paperFloat(pos, what); err != nil {
		return err
	}
	c.d.Counter.Hit(ImpFloat.Name)
	return nil
}

// paperFloat refuses what of the floats extension at pos in paper mode
// (what is rendered then only).
func (c *checker) paperFloat(pos fun.Pos, what func() string) error {
	if c.paper {
		return semantics.Errorf(pos, semantics.TypeError, ImpFloat.Name, "%s: floats are an extension of Fig 11 (refused in paper mode)", what())
	}
	return nil
}

// scalar checks that x is a declared int or float, Γ ⊢ x : τ by
// IMP-SCOPE, and returns its type. g renders Γ.
func (c *checker) scalar(scope map[string]Type, x *fun.Ident, g string) (*semantics.Derivation, Type, error) {
	t, ok := scope[x.Name]
	if !ok {
		return nil, 0, c.leaf(semantics.Errorf(x.NamePos, semantics.TypeError, ImpScope.Name, "%s is not declared", x.Name), func() string { return g + " ⊢ " + x.Name })
	}
	if t == Mem {
		return nil, 0, c.leaf(semantics.Errorf(x.NamePos, semantics.TypeError, ImpType.Name, "%s is mem, not int or float", x.Name), func() string { return g + " ⊢ " + x.Name })
	}
	return c.d.Node(ImpScope.Name, func() string { return g + " ⊢ " + x.Name + " : " + t.String() }), t, nil
}

// sexp is Γ ⊢ e : τ, the type of a scalar expression, Int or Float: its
// variables are declared scalars (IMP-SCOPE), and there are no implicit
// conversions, so an operator's operands have one type (IMP-OP; a
// comparison gives an int, and % && || take ints), and a function's
// argument has the function's argument type (rule IMP-TYPE where these
// fail; IMP-FLOAT for a float constant or a function, refused in paper
// mode). An int constant needs no premise and gets no node.
func (c *checker) sexp(scope map[string]Type, e fun.SExp, g string) (*semantics.Derivation, Type, error) {
	is := func(t Type) func() string {
		return func() string { return g + " ⊢ " + fun.PrintSExp(e) + " : " + t.String() }
	}
	failed := func() string { return g + " ⊢ " + fun.PrintSExp(e) }
	switch e := e.(type) {
	case *fun.Const:
		return nil, Int, nil
	case *fun.FloatConst:
		if err := c.paperFloat(e.ValuePos, func() string { return "float constant " + fun.PrintSExp(e) }); err != nil {
			return nil, 0, c.leaf(err, failed)
		}
		return c.d.Node(ImpFloat.Name, is(Float)), Float, nil
	case fun.Var:
		t, ok := scope[e.Name]
		if ok && t == Mem {
			return nil, 0, c.leaf(semantics.Errorf(e.NamePos, semantics.TypeError, ImpType.Name, "%s is mem, not int", e.Name), failed)
		}
		if !ok {
			return nil, 0, c.leaf(semantics.Errorf(e.NamePos, semantics.TypeError, ImpScope.Name, "%s is not declared", e.Name), failed)
		}
		return c.d.Node(ImpScope.Name, is(t)), t, nil
	case *fun.UnOp:
		d, t, err := c.sexp(scope, e.X, g)
		if err != nil {
			return nil, 0, c.over(err, ImpOp.Name, failed, nil)
		}
		return c.d.Node(ImpOp.Name, is(t), d), t, nil
	case *fun.BinOp:
		dl, l, err := c.sexp(scope, e.L, g)
		if err != nil {
			return nil, 0, c.over(err, ImpOp.Name, failed, nil)
		}
		dr, r, err := c.sexp(scope, e.R, g)
		if err != nil {
			return nil, 0, c.over(err, ImpOp.Name, failed, c.held(dl))
		}
		if l != r {
			return nil, 0, c.leaf(semantics.Errorf(e.OpPos, semantics.TypeError, ImpType.Name, "operator %s applied to %s and %s in %s (no implicit conversions: use float(se) or int(se))", e.Op, l, r, fun.PrintSExp(e)), failed)
		}
		if e.Op.IntOnly() && l == Float {
			return nil, 0, c.leaf(semantics.Errorf(e.OpPos, semantics.TypeError, ImpType.Name, "operator %s takes ints, not floats, in %s", e.Op, fun.PrintSExp(e)), failed)
		}
		res := l
		switch e.Op {
		case semantics.Eq, semantics.Ne, semantics.Lt, semantics.Le, semantics.Gt, semantics.Ge:
			res = Int
		}
		return c.d.Node(ImpOp.Name, is(res), dl, dr), res, nil
	case *fun.Call:
		if err := c.paperFloat(e.NamePos, func() string { return e.Func.String() + "(…), a built-in function," }); err != nil {
			return nil, 0, c.leaf(err, failed)
		}
		d, a, err := c.sexp(scope, e.Arg, g)
		if err != nil {
			return nil, 0, c.over(err, ImpFloat.Name, failed, nil)
		}
		if want := TypeOf(e.Func.Arg()); a != want {
			return nil, 0, c.leaf(semantics.Errorf(e.NamePos, semantics.TypeError, ImpType.Name, "%s takes %s, but its argument %s is %s", e.Func, want, fun.PrintSExp(e.Arg), a), failed)
		}
		return c.d.Node(ImpFloat.Name, is(TypeOf(e.Func.Result())), d), TypeOf(e.Func.Result()), nil
	}
	return nil, 0, c.leaf(semantics.Errorf(e.Pos(), semantics.TypeError, ImpType.Name, "unknown scalar expression %T", e), failed)
}

type checker struct {
	d     semantics.Deriver // counts the rules, and builds nodes when deriving
	paper bool
	// pinned are the variables whose type a declaration may not change:
	// those in scope where the if branch or for body being checked begins.
	// Such a body runs in the enclosing environment (E-IMP-IF-TRUE,
	// I-FOR: IMP's environment is one map, not a stack), so a var there
	// that gives an outer name another type would change it after the
	// body too, where this checker still has the outer type (kernel bodies
	// and fold parts run in a copy, so nothing leaks out of them).
	//
	// They are kept as the scopes at the starts of the bodies around
	// (since the innermost kernel body or fold part), outermost first, a
	// type pinned by the outermost that has the name: each holds only
	// the names its body declares (in it or in the branches and bodies
	// that run in it), which are all a declaration there asks about.
	pinned []map[string]Type
	// edits are the bindings made in the scope map since the scopes now
	// open began, so that a nested scope (a branch, a body, a fold's
	// part) is checked in its enclosing scope's map and undone after
	// (restore), rather than in a copy of the map made for it.
	edits []scopeEdit
}

// scopeEdit is a binding of x made in a scope map: what x was before.
type scopeEdit struct {
	x   string
	t   Type
	had bool
}

// bind binds x to t in scope, for restore to undo.
func (c *checker) bind(scope map[string]Type, x string, t Type) {
	old, had := scope[x]
	c.edits = append(c.edits, scopeEdit{x, old, had})
	scope[x] = t
}

// restore undoes the bindings made in scope since there were mark
// edits: scope is again the map it was then, as a copy made then and
// left alone would be.
func (c *checker) restore(scope map[string]Type, mark int) {
	for i := len(c.edits) - 1; i >= mark; i-- {
		e := c.edits[i]
		if e.had {
			scope[e.x] = e.t
		} else {
			delete(scope, e.x)
		}
	}
	c.edits = c.edits[:mark]
}

// leaf is err, a refusal of the judgement concl, as the failing leaf of
// the derivation (when deriving): concl, ✗ and the message, under the
// error's rule.
func (c *checker) leaf(err error, concl func() string) error {
	if !c.d.Derive {
		return err
	}
	return semantics.Failing(err, semantics.FailedAt(err, concl(), ""))
}

// over is err, the failure of a premise of the judgement concl by rule,
// with the derivation as far as it went (when deriving): rule's node
// over the premises that held and the failed one's derivation; or, when
// err carries none (the judgement itself failed), concl as the leaf.
func (c *checker) over(err error, rule string, concl func() string, held []*semantics.Derivation) error {
	if !c.d.Derive {
		return err
	}
	inner := semantics.PartialDerivation(err)
	if inner == nil {
		return c.leaf(err, concl)
	}
	ps := append(append([]*semantics.Derivation(nil), held...), inner)
	return semantics.Failing(err, &semantics.Derivation{Rule: rule, Conclusion: concl(), Premises: ps})
}

// held lists the derivations of premises that held (when deriving); an
// int constant's premise has none (sexp).
func (c *checker) held(ds ...*semantics.Derivation) []*semantics.Derivation {
	if !c.d.Derive {
		return nil
	}
	out := ds[:0:0]
	for _, d := range ds {
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}

// inBody checks a body that runs in the enclosing environment (an if's
// branch, a for's body) with the scope it begins with pinned. g renders
// the scope.
func (c *checker) inBody(scope map[string]Type, body []Stmt, g string) (*semantics.Derivation, error) {
	saved := c.pinned
	var at map[string]Type // the scope at the start, of the names body declares
	declaredInPlace(body, func(x string) {
		if t, ok := scope[x]; ok {
			if at == nil {
				at = map[string]Type{}
			}
			at[x] = t
		}
	})
	c.pinned = append(saved[:len(saved):len(saved)], at)
	defer func() { c.pinned = saved }()
	return c.body(scope, body, g)
}

// pinnedType is the type pinned for x, if any: the outermost body's
// around that began with x in scope.
func (c *checker) pinnedType(x string) (Type, bool) {
	for _, at := range c.pinned {
		if t, ok := at[x]; ok {
			return t, true
		}
	}
	return 0, false
}

// declaredInPlace calls f with the name of each declaration of body and
// of the branches and for bodies in it (which run in its environment),
// not of kernel bodies and fold parts (which run in copies).
func declaredInPlace(body []Stmt, f func(string)) {
	for _, s := range body {
		switch s := s.(type) {
		case *Decl:
			f(s.X.Name)
		case *If:
			declaredInPlace(s.Then, f)
			declaredInPlace(s.Else, f)
		case *For:
			declaredInPlace(s.Body, f)
		}
	}
}

// inCopy checks a body that runs in a copy of the environment (a kernel's
// body, a fold's parts): nothing it declares outlives it.
func (c *checker) inCopy(scope map[string]Type, body []Stmt, g string) (*semantics.Derivation, error) {
	saved := c.pinned
	c.pinned = nil
	defer func() { c.pinned = saved }()
	return c.body(scope, body, g)
}

// extension refuses the statement s of the extension rule in paper mode
// (its node counts the rule otherwise).
func (c *checker) extension(s Stmt, rule semantics.Rule, form string) error {
	if c.paper {
		return semantics.Errorf(s.Pos(), semantics.TypeError, rule.Name, "%s is an extension of Fig 11 (refused in paper mode)", form)
	}
	return nil
}

// use is Γ ⊢ x : want, by IMP-SCOPE.
func (c *checker) use(scope map[string]Type, x *fun.Ident, want Type, g string) (*semantics.Derivation, error) {
	concl := func() string { return g + " ⊢ " + x.Name + " : " + want.String() }
	t, ok := scope[x.Name]
	if !ok {
		return nil, c.leaf(semantics.Errorf(x.NamePos, semantics.TypeError, ImpScope.Name, "%s is not declared", x.Name), concl)
	}
	if t != want {
		return nil, c.leaf(semantics.Errorf(x.NamePos, semantics.TypeError, ImpType.Name, "%s is %s, not %s", x.Name, t, want), concl)
	}
	return c.d.Node(ImpScope.Name, concl), nil
}

// ints checks that e is an int expression (sizes, indices, bounds,
// conditions): Γ ⊢ e : int.
func (c *checker) ints(scope map[string]Type, e fun.SExp, g string) (*semantics.Derivation, error) {
	d, t, err := c.sexp(scope, e, g)
	if err != nil {
		return nil, err
	}
	if t != Int {
		return nil, c.leaf(semantics.Errorf(e.Pos(), semantics.TypeError, ImpType.Name, "%s is %s, not int", fun.PrintSExp(e), t), func() string { return g + " ⊢ " + fun.PrintSExp(e) + " : int" })
	}
	return d, nil
}

// body is Γ ⊢ s1; …; sn ⊣ Γ' for the statements of a body (g renders Γ):
// IMP-SEQ over a node per statement; one statement is its own
// derivation, and none is skip's (IMP-SKIP), as in E-IMP-SEQ.
func (c *checker) body(scope map[string]Type, ss []Stmt, g string) (*semantics.Derivation, error) {
	switch len(ss) {
	case 0:
		return c.d.Node(ImpSkip.Name, func() string { return g + " ⊢ skip ⊣ " + g }), nil
	case 1:
		return c.stmt(scope, ss[0], g)
	}
	var held []*semantics.Derivation
	for _, s := range ss {
		d, err := c.stmt(scope, s, "Γ")
		if err != nil {
			return nil, c.over(err, ImpSeq.Name, func() string { return g + " ⊢ " + stmtsHead(ss) }, held)
		}
		if d != nil {
			held = append(held, d)
		}
	}
	return c.d.Node(ImpSeq.Name, func() string { return g + " ⊢ " + stmtsHead(ss) + " ⊣ " + scopeAfter(g, ss) }, held...), nil
}

// stmtRule is the rule of the judgement Γ ⊢ s ⊣ Γ' for s's form.
func stmtRule(s Stmt) semantics.Rule {
	switch s.(type) {
	case *Decl:
		return ImpDec
	case *Assign:
		return ImpAssign
	case *Alloc:
		return ImpAlloc
	case *Read:
		return ImpRead
	case *Write:
		return ImpWrite
	case *If:
		return ImpIf
	case *Kernel:
		return ImpKernel
	case *For:
		return ImpFor
	case *Assert:
		return ImpAssert
	case *Reduce:
		return ImpReduce
	case *Scan:
		return ImpScan
	}
	return ImpSkip
}

// stmt is Γ ⊢ s ⊣ Γ' by the rule of s's form (g renders Γ): its
// premises are the judgements of its variables, expressions and bodies.
// With derivations asked for, its error carries the premises that held
// and the derivation of the one that failed.
func (c *checker) stmt(scope map[string]Type, s Stmt, g string) (*semantics.Derivation, error) {
	rule := stmtRule(s).Name
	var held []*semantics.Derivation
	hold := func(d *semantics.Derivation, err error) error {
		if err == nil && d != nil {
			held = append(held, d)
		}
		return err
	}
	out := g // the scope s leaves
	var err error
	switch s := s.(type) {
	case *Decl:
		if s.Type == Float {
			err = c.float(s.At, func() string { return "var " + s.X.Name + " : float" })
		}
		if t, ok := c.pinnedType(s.X.Name); ok && t != s.Type && err == nil {
			err = semantics.Errorf(s.At, semantics.TypeError, ImpType.Name, "var %s : %s redeclares the %s %s of the enclosing scope, which this body runs in: %s would stay a %s after it", s.X.Name, s.Type, t, s.X.Name, s.X.Name, s.Type)
		}
		c.bind(scope, s.X.Name, s.Type)
		out = c.bound(g, s.Type, s.X)
	case *Assign:
		if y, ok := s.SE.(fun.Var); ok && scope[y.Name] == Mem {
			if err = hold(c.use(scope, y.Ident, Mem, g)); err == nil {
				err = hold(c.use(scope, s.X, Mem, g))
			}
			break
		}
		d, t, e := c.sexp(scope, s.SE, g)
		if err = hold(d, e); err == nil {
			err = hold(c.use(scope, s.X, t, g))
		}
	case *Alloc:
		if err = hold(c.ints(scope, s.Size, g)); err == nil {
			err = hold(c.use(scope, s.X, Mem, g))
		}
	case *Read:
		if err = hold(c.use(scope, s.Y, Mem, g)); err == nil {
			if err = hold(c.ints(scope, s.Index, g)); err == nil {
				d, _, e := c.scalar(scope, s.X, g) // the word is read as x is declared
				err = hold(d, e)
			}
		}
	case *Write:
		if err = hold(c.use(scope, s.X, Mem, g)); err == nil {
			if err = hold(c.ints(scope, s.Index, g)); err == nil {
				d, _, e := c.sexp(scope, s.Value, g) // an int or a float's bits
				err = hold(d, e)
			}
		}
	case *If:
		if err = hold(c.use(scope, s.Cond, Int, g)); err == nil {
			mark := len(c.edits)
			err = hold(c.inBody(scope, s.Then, g))
			c.restore(scope, mark)
			if err == nil {
				err = hold(c.inBody(scope, s.Else, g))
				c.restore(scope, mark)
			}
		}
	case *Kernel:
		if err = hold(c.ints(scope, s.Bound, g)); err == nil {
			mark := len(c.edits)
			c.bind(scope, s.X.Name, Int)
			err = hold(c.inCopy(scope, s.Body, c.bound(g, Int, s.X)))
			c.restore(scope, mark)
		}
	case *For:
		if err = c.extension(s, ImpFor, "for"); err == nil {
			if err = hold(c.ints(scope, s.Bound, g)); err == nil {
				mark := len(c.edits)
				c.bind(scope, s.X.Name, Int)
				err = hold(c.inBody(scope, s.Body, c.bound(g, Int, s.X)))
				c.restore(scope, mark)
			}
		}
	case *Assert:
		if err = c.extension(s, ImpAssert, "assert"); err == nil {
			err = hold(c.ints(scope, s.Cond, g))
		}
	case *Reduce:
		if err = c.extension(s, ImpReduce, "reduce"); err == nil {
			d, t, e := c.scalar(scope, s.Target, g)
			if err = hold(d, e); err == nil {
				err = c.fold(scope, &s.Fold, ImpReduce, t, g, hold)
			}
		}
	case *Scan:
		if err = c.extension(s, ImpScan, "scan"); err == nil {
			if err = hold(c.use(scope, s.Block, Mem, g)); err == nil {
				mark := len(c.edits)
				c.bind(scope, s.X.Name, Int)
				err = hold(c.ints(scope, s.Addr, c.bound(g, Int, s.X)))
				c.restore(scope, mark)
				if err == nil {
					var t Type
					// The neutral element's type is the accumulator's;
					// its node is the fold's premise.
					if _, t, err = c.sexp(scope, s.Neutral, g); err == nil {
						err = c.fold(scope, &s.Fold, ImpScan, t, g, hold)
					}
				}
			}
		}
	}
	if err != nil {
		return nil, c.over(err, rule, func() string { return g + " ⊢ " + stmtHead(s) }, held)
	}
	return c.d.Node(rule, func() string { return g + " ⊢ " + stmtHead(s) + " ⊣ " + out }, held...), nil
}

// fold checks the parts of a reduce or a scan whose accumulator has type t
// (Int or Float: a reduce's target's, a scan's neutral element's). The
// neutral element is a t and the bound an int of the enclosing scope. The element part is a scope of
// its own with the index, as a kernel's body; the combine part one with a
// and b, without the index (a parallel combine is not at an element). Each
// part yields one of its own int variables (its index, a or b, or one it
// declares at its top level), so that the part, not the enclosing scope,
// makes the value (rule: IMP-REDUCE or IMP-SCAN). The accumulator a, the
// element b and the yielded values are ts. The judgements that hold are
// premises of the statement's (hold).
func (c *checker) fold(scope map[string]Type, f *Fold, rule semantics.Rule, t Type, g string, hold func(*semantics.Derivation, error) error) error {
	dn, ne, err := c.sexp(scope, f.Neutral, g)
	if err := hold(dn, err); err != nil {
		return err
	}
	if ne != t {
		return c.leaf(semantics.Errorf(f.Neutral.Pos(), semantics.TypeError, rule.Name, "the neutral element %s is %s, but the accumulator is %s", fun.PrintSExp(f.Neutral), ne, t),
			func() string { return g + " ⊢ " + fun.PrintSExp(f.Neutral) + " : " + t.String() })
	}
	if err := hold(c.ints(scope, f.Bound, g)); err != nil {
		return err
	}
	// The parts' scopes are made in scope and undone (restore).
	mark := len(c.edits)
	c.bind(scope, f.X.Name, Int)
	ge := c.bound(g, Int, f.X)
	err = hold(c.inCopy(scope, f.Body, ge))
	if err == nil {
		err = hold(c.yield(scope, f.Body, f.Yield, rule, t, "element", c.scopeAfter(ge, f.Body), f.X))
	}
	c.restore(scope, mark)
	if err != nil {
		return err
	}
	if f.A.Name == f.B.Name {
		return c.leaf(semantics.Errorf(f.B.NamePos, semantics.TypeError, rule.Name, "combine %s, %s: the accumulator and the element need two names", f.A.Name, f.B.Name),
			func() string { return g + " ⊢ combine " + f.A.Name + ", " + f.B.Name })
	}
	c.bind(scope, f.A.Name, t)
	c.bind(scope, f.B.Name, t)
	gc := c.bound(c.bound(g, t, f.A), t, f.B)
	err = hold(c.inCopy(scope, f.Combine, gc))
	if err == nil {
		err = hold(c.yield(scope, f.Combine, f.Result, rule, t, "combine", c.scopeAfter(gc, f.Combine), f.A, f.B))
	}
	c.restore(scope, mark)
	return err
}

// yield checks the yielded y of a part: a t of the part's scope,
// declared by the part itself (own: the variables the form binds for it).
// g renders the scope the part leaves.
func (c *checker) yield(scope map[string]Type, body []Stmt, y *fun.Ident, rule semantics.Rule, t Type, part, g string, own ...*fun.Ident) (*semantics.Derivation, error) {
	d, err := c.use(scope, y, t, g)
	if err != nil {
		return nil, err
	}
	for _, x := range own {
		if x.Name == y.Name {
			return d, nil
		}
	}
	for _, s := range body {
		if d2, ok := s.(*Decl); ok && d2.X.Name == y.Name {
			return d, nil
		}
	}
	return nil, c.leaf(semantics.Errorf(y.NamePos, semantics.TypeError, rule.Name, "yield %s: the %s part yields one of its own variables, and %s is declared outside it", y.Name, part, y.Name),
		func() string { return g + " ⊢ yield " + y.Name })
}

// bound renders the scope g with x : t added (a kernel's or a fold's
// index, a combine's a and b).
func bound(g string, t Type, x *fun.Ident) string {
	return g + ", " + x.Name + " : " + t.String()
}

// bound is bound when the checker derives; else g, unchanged: the
// renderings of Γ are for the derivation's conclusions, which a plain
// check does not build.
func (c *checker) bound(g string, t Type, x *fun.Ident) string {
	if !c.d.Derive {
		return g
	}
	return bound(g, t, x)
}

// scopeAfter is scopeAfter when the checker derives; else g.
func (c *checker) scopeAfter(g string, ss []Stmt) string {
	if !c.d.Derive {
		return g
	}
	return scopeAfter(g, ss)
}

// scopeAfter renders the scope the statements ss leave, begun in g: g
// when they declare nothing, g, x : τ after one declaration alone, and
// Γ' otherwise.
func scopeAfter(g string, ss []Stmt) string {
	decls := 0
	for _, s := range ss {
		if _, ok := s.(*Decl); ok {
			decls++
		}
	}
	switch {
	case decls == 0:
		return g
	case len(ss) == 1:
		d := ss[0].(*Decl)
		return bound(g, d.Type, d.X)
	}
	return "Γ'"
}

// progHead renders a program briefly for its judgement: its first input
// or statement, … for the rest, and its return (… for the results, whose
// shapes would read as the program's type).
func progHead(p *Program) string {
	const ret = "return …"
	switch {
	case len(p.Inputs)+len(p.Body) > 1:
		return firstHead(p) + "; …; " + ret
	case len(p.Inputs)+len(p.Body) == 1:
		return firstHead(p) + "; " + ret
	}
	return ret
}

// firstHead renders a program's first input or statement.
func firstHead(p *Program) string {
	if len(p.Inputs) > 0 {
		return "input " + inputHead(p.Inputs[0])
	}
	return stmtHead(p.Body[0])
}

// inputHead renders an input declaration as programs write it, without
// the keyword: n : int, xs : [n] @ xs_mem.
func inputHead(in *Input) string {
	if in.Dims == nil {
		return in.Name.Name + " : " + TypeOf(in.Elem).String()
	}
	return in.Name.Name + " : " + dims(in.Dims) + elemSuffix(in.Elem) + " @ " + in.Block.Name
}

// resultHead renders a result as return writes it: zmem : [zsize].
func resultHead(r *Result) string {
	if r.Dims == nil {
		return r.Name.Name
	}
	return r.Name.Name + " : " + dims(r.Dims) + elemSuffix(r.Elem)
}

// ResultString describes a program's results: (int, [zsize]), with
// floats (float, [zsize]float). A scalar result's type is its variable's
// as the inputs and the program's top-level statements declare it.
func ResultString(p *Program) string {
	declared := map[string]Type{}
	for _, in := range p.Inputs {
		declared[in.Name.Name] = TypeOf(in.Elem)
	}
	for _, s := range p.Body {
		if d, ok := s.(*Decl); ok {
			declared[d.X.Name] = d.Type
		}
	}
	parts := make([]string, len(p.Return))
	for i, r := range p.Return {
		if r.Dims == nil {
			parts[i] = declared[r.Name.Name].String()
		} else {
			parts[i] = dims(r.Dims) + elemSuffix(r.Elem)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
