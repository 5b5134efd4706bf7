package imp

import (
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Check checks what the paper calls IMP's "trivial and uninteresting"
// type rules (§4, elided there): every variable is declared (by var, an
// input, or a kernel) before it is used, in a scope that is still open (an
// if's branches and a kernel's body are scopes of their own); ints and
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
	Paper   bool
	Counter semantics.Counter // counts the rules applied
}

// CheckWith is Check with options.
func CheckWith(p *Program, o CheckOptions) error {
	c := &checker{counter: o.Counter, paper: o.Paper}
	scope := map[string]Type{}
	for _, in := range p.Inputs {
		if in.Elem == semantics.FloatElem {
			if err := c.float(in.Pos, "float input "+in.Name.Name); err != nil {
				return err
			}
		}
		scope[in.Name.Name] = TypeOf(in.Elem)
		if in.Dims != nil {
			delete(scope, in.Name.Name)
			for _, d := range in.Dims {
				if err := c.ints(scope, d); err != nil {
					return err
				}
				if _, ok := d.(fun.Var); !ok {
					// --arg gives the array; its sizes are read off it.
					return semantics.Errorf(in.Pos, semantics.TypeError, ImpType.Name, "input %s: the sizes of an input array are int inputs, not %s", in.Name.Name, fun.PrintSExp(d))
				}
			}
			scope[in.Block.Name] = Mem
		}
	}
	if err := c.stmts(scope, p.Body); err != nil {
		return err
	}
	for _, r := range p.Return {
		if r.Dims == nil {
			if _, err := c.scalar(scope, r.Name); err != nil {
				return err
			}
			continue
		}
		if r.Elem == semantics.FloatElem {
			if err := c.float(r.Name.NamePos, "float result "+r.Name.Name); err != nil {
				return err
			}
		}
		for _, d := range r.Dims {
			if err := c.ints(scope, d); err != nil {
				return err
			}
		}
		if err := c.use(scope, r.Name, Mem); err != nil {
			return err
		}
	}
	return nil
}

// float refuses what of the floats extension at pos in paper mode, and
// counts IMP-FLOAT otherwise.
func (c *checker) float(pos fun.Pos, what string) error {
	if c.paper {
		return semantics.Errorf(pos, semantics.TypeError, ImpFloat.Name, "%s: floats are an extension of Fig 11 (refused in paper mode)", what)
	}
	c.counter.Hit(ImpFloat.Name)
	return nil
}

// scalar checks that x is a declared int or float and returns its type.
func (c *checker) scalar(scope map[string]Type, x *fun.Ident) (Type, error) {
	t, ok := scope[x.Name]
	if !ok {
		return 0, semantics.Errorf(x.NamePos, semantics.TypeError, ImpScope.Name, "%s is not declared", x.Name)
	}
	if t == Mem {
		return 0, semantics.Errorf(x.NamePos, semantics.TypeError, ImpType.Name, "%s is mem, not int or float", x.Name)
	}
	c.counter.Hit(ImpScope.Name)
	return t, nil
}

// sexp is the type of a scalar expression, Int or Float: its variables
// are declared scalars, and there are no implicit conversions, so an
// operator's operands have one type (a comparison gives an int, and % &&
// || take ints), and a function's argument has the function's argument
// type (rule IMP-TYPE; IMP-FLOAT for a float constant or a function in
// paper mode).
func (c *checker) sexp(scope map[string]Type, e fun.SExp) (Type, error) {
	switch e := e.(type) {
	case *fun.Const:
		return Int, nil
	case *fun.FloatConst:
		return Float, c.float(e.ValuePos, "float constant "+fun.PrintSExp(e))
	case fun.Var:
		t, ok := scope[e.Name]
		if ok && t == Mem {
			return 0, semantics.Errorf(e.NamePos, semantics.TypeError, ImpType.Name, "%s is mem, not int", e.Name)
		}
		if !ok {
			return 0, semantics.Errorf(e.NamePos, semantics.TypeError, ImpScope.Name, "%s is not declared", e.Name)
		}
		c.counter.Hit(ImpScope.Name)
		return t, nil
	case *fun.UnOp:
		return c.sexp(scope, e.X)
	case *fun.BinOp:
		l, err := c.sexp(scope, e.L)
		if err != nil {
			return 0, err
		}
		r, err := c.sexp(scope, e.R)
		if err != nil {
			return 0, err
		}
		if l != r {
			return 0, semantics.Errorf(e.OpPos, semantics.TypeError, ImpType.Name, "operator %s applied to %s and %s in %s (no implicit conversions: use float(se) or int(se))", e.Op, l, r, fun.PrintSExp(e))
		}
		if e.Op.IntOnly() && l == Float {
			return 0, semantics.Errorf(e.OpPos, semantics.TypeError, ImpType.Name, "operator %s takes ints, not floats, in %s", e.Op, fun.PrintSExp(e))
		}
		switch e.Op {
		case semantics.Eq, semantics.Ne, semantics.Lt, semantics.Le, semantics.Gt, semantics.Ge:
			return Int, nil
		}
		return l, nil
	case *fun.Call:
		if err := c.float(e.NamePos, e.Func.String()+"(…), a built-in function,"); err != nil {
			return 0, err
		}
		a, err := c.sexp(scope, e.Arg)
		if err != nil {
			return 0, err
		}
		if want := TypeOf(e.Func.Arg()); a != want {
			return 0, semantics.Errorf(e.NamePos, semantics.TypeError, ImpType.Name, "%s takes %s, but its argument %s is %s", e.Func, want, fun.PrintSExp(e.Arg), a)
		}
		return TypeOf(e.Func.Result()), nil
	}
	return 0, semantics.Errorf(e.Pos(), semantics.TypeError, ImpType.Name, "unknown scalar expression %T", e)
}

type checker struct {
	counter semantics.Counter
	paper   bool
	// pinned are the variables whose type a declaration may not change:
	// those in scope where the if branch or for body being checked begins.
	// Such a body runs in the enclosing environment (E-IMP-IF-TRUE,
	// I-FOR: IMP's environment is one map, not a stack), so a var there
	// that gives an outer name another type would change it after the
	// body too, where this checker still has the outer type (kernel bodies
	// and fold parts run in a copy, so nothing leaks out of them).
	pinned map[string]Type
}

// inBody checks a body that runs in the enclosing environment (an if's
// branch, a for's body) with the scope it begins with pinned.
func (c *checker) inBody(scope map[string]Type, body []Stmt) error {
	saved := c.pinned
	c.pinned = semantics.CloneMap(scope)
	for x, t := range saved {
		c.pinned[x] = t
	}
	defer func() { c.pinned = saved }()
	return c.stmts(scope, body)
}

// inCopy checks a body that runs in a copy of the environment (a kernel's
// body, a fold's parts): nothing it declares outlives it.
func (c *checker) inCopy(scope map[string]Type, body []Stmt) error {
	saved := c.pinned
	c.pinned = nil
	defer func() { c.pinned = saved }()
	return c.stmts(scope, body)
}

// extension refuses the statement s of the extension rule in paper mode,
// and counts the rule otherwise.
func (c *checker) extension(s Stmt, rule semantics.Rule, form string) error {
	if c.paper {
		return semantics.Errorf(s.Pos(), semantics.TypeError, rule.Name, "%s is an extension of Fig 11 (refused in paper mode)", form)
	}
	c.counter.Hit(rule.Name)
	return nil
}

func (c *checker) use(scope map[string]Type, x *fun.Ident, want Type) error {
	t, ok := scope[x.Name]
	if !ok {
		return semantics.Errorf(x.NamePos, semantics.TypeError, ImpScope.Name, "%s is not declared", x.Name)
	}
	if t != want {
		return semantics.Errorf(x.NamePos, semantics.TypeError, ImpType.Name, "%s is %s, not %s", x.Name, t, want)
	}
	c.counter.Hit(ImpScope.Name)
	return nil
}

// ints checks that e is an int expression (sizes, indices, bounds,
// conditions).
func (c *checker) ints(scope map[string]Type, e fun.SExp) error {
	t, err := c.sexp(scope, e)
	if err != nil {
		return err
	}
	if t != Int {
		return semantics.Errorf(e.Pos(), semantics.TypeError, ImpType.Name, "%s is %s, not int", fun.PrintSExp(e), t)
	}
	return nil
}

func (c *checker) stmts(scope map[string]Type, ss []Stmt) error {
	for _, s := range ss {
		var err error
		switch s := s.(type) {
		case *Decl:
			if s.Type == Float {
				err = c.float(s.At, "var "+s.X.Name+" : float")
			}
			if t, ok := c.pinned[s.X.Name]; ok && t != s.Type && err == nil {
				err = semantics.Errorf(s.At, semantics.TypeError, ImpType.Name, "var %s : %s redeclares the %s %s of the enclosing scope, which this body runs in: %s would stay a %s after it", s.X.Name, s.Type, t, s.X.Name, s.X.Name, s.Type)
			}
			scope[s.X.Name] = s.Type
		case *Assign:
			if y, ok := s.SE.(fun.Var); ok && scope[y.Name] == Mem {
				if err = c.use(scope, y.Ident, Mem); err == nil {
					err = c.use(scope, s.X, Mem)
				}
				break
			}
			var t Type
			if t, err = c.sexp(scope, s.SE); err == nil {
				err = c.use(scope, s.X, t)
			}
		case *Alloc:
			if err = c.ints(scope, s.Size); err == nil {
				err = c.use(scope, s.X, Mem)
			}
		case *Read:
			if err = c.use(scope, s.Y, Mem); err == nil {
				if err = c.ints(scope, s.Index); err == nil {
					_, err = c.scalar(scope, s.X) // the word is read as x is declared
				}
			}
		case *Write:
			if err = c.use(scope, s.X, Mem); err == nil {
				if err = c.ints(scope, s.Index); err == nil {
					_, err = c.sexp(scope, s.Value) // an int or a float's bits
				}
			}
		case *If:
			if err = c.use(scope, s.Cond, Int); err == nil {
				if err = c.inBody(semantics.CloneMap(scope), s.Then); err == nil {
					err = c.inBody(semantics.CloneMap(scope), s.Else)
				}
			}
		case *Kernel:
			if err = c.ints(scope, s.Bound); err == nil {
				inner := semantics.CloneMap(scope)
				inner[s.X.Name] = Int
				err = c.inCopy(inner, s.Body)
			}
		case *For:
			if err = c.extension(s, ImpFor, "for"); err == nil {
				if err = c.ints(scope, s.Bound); err == nil {
					inner := semantics.CloneMap(scope)
					inner[s.X.Name] = Int
					err = c.inBody(inner, s.Body)
				}
			}
		case *Assert:
			if err = c.extension(s, ImpAssert, "assert"); err == nil {
				err = c.ints(scope, s.Cond)
			}
		case *Reduce:
			if err = c.extension(s, ImpReduce, "reduce"); err == nil {
				var t Type
				if t, err = c.scalar(scope, s.Target); err == nil {
					err = c.fold(scope, &s.Fold, ImpReduce, t)
				}
			}
		case *Scan:
			if err = c.extension(s, ImpScan, "scan"); err == nil {
				if err = c.use(scope, s.Block, Mem); err == nil {
					inner := semantics.CloneMap(scope)
					inner[s.X.Name] = Int
					if err = c.ints(inner, s.Addr); err == nil {
						var t Type
						if t, err = c.sexp(scope, s.Neutral); err == nil {
							err = c.fold(scope, &s.Fold, ImpScan, t)
						}
					}
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// fold checks the parts of a reduce or a scan whose accumulator has type t
// (Int or Float: a reduce's target's, a scan's neutral element's). The
// neutral element is a t and the bound an int of the enclosing scope. The element part is a scope of
// its own with the index, as a kernel's body; the combine part one with a
// and b, without the index (a parallel combine is not at an element). Each
// part yields one of its own int variables (its index, a or b, or one it
// declares at its top level), so that the part, not the enclosing scope,
// makes the value (rule: IMP-REDUCE or IMP-SCAN). The accumulator a, the
// element b and the yielded values are ts.
func (c *checker) fold(scope map[string]Type, f *Fold, rule semantics.Rule, t Type) error {
	ne, err := c.sexp(scope, f.Neutral)
	if err != nil {
		return err
	}
	if ne != t {
		return semantics.Errorf(f.Neutral.Pos(), semantics.TypeError, rule.Name, "the neutral element %s is %s, but the accumulator is %s", fun.PrintSExp(f.Neutral), ne, t)
	}
	if err := c.ints(scope, f.Bound); err != nil {
		return err
	}
	elem := semantics.CloneMap(scope)
	elem[f.X.Name] = Int
	if err := c.inCopy(elem, f.Body); err != nil {
		return err
	}
	if err := c.yield(elem, f.Body, f.Yield, rule, t, "element", f.X); err != nil {
		return err
	}
	if f.A.Name == f.B.Name {
		return semantics.Errorf(f.B.NamePos, semantics.TypeError, rule.Name, "combine %s, %s: the accumulator and the element need two names", f.A.Name, f.B.Name)
	}
	comb := semantics.CloneMap(scope)
	comb[f.A.Name], comb[f.B.Name] = t, t
	if err := c.inCopy(comb, f.Combine); err != nil {
		return err
	}
	return c.yield(comb, f.Combine, f.Result, rule, t, "combine", f.A, f.B)
}

// yield checks the yielded y of a part: a t of the part's scope,
// declared by the part itself (own: the variables the form binds for it).
func (c *checker) yield(scope map[string]Type, body []Stmt, y *fun.Ident, rule semantics.Rule, t Type, part string, own ...*fun.Ident) error {
	if err := c.use(scope, y, t); err != nil {
		return err
	}
	for _, x := range own {
		if x.Name == y.Name {
			return nil
		}
	}
	for _, s := range body {
		if d, ok := s.(*Decl); ok && d.X.Name == y.Name {
			return nil
		}
	}
	return semantics.Errorf(y.NamePos, semantics.TypeError, rule.Name, "yield %s: the %s part yields one of its own variables, and %s is declared outside it", y.Name, part, y.Name)
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
