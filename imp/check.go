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
// IMP-REDUCE, IMP-SCAN) for what only that form asks.
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
		scope[in.Name.Name] = Int
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
		want := Int
		if r.Dims != nil {
			want = Mem
			for _, d := range r.Dims {
				if err := c.ints(scope, d); err != nil {
					return err
				}
			}
		}
		if err := c.use(scope, r.Name, want); err != nil {
			return err
		}
	}
	return nil
}

type checker struct {
	counter semantics.Counter
	paper   bool
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

func (c *checker) ints(scope map[string]Type, e fun.SExp) error {
	for _, x := range fun.FreeVars(e, nil) {
		if err := c.use(scope, x, Int); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) stmts(scope map[string]Type, ss []Stmt) error {
	for _, s := range ss {
		var err error
		switch s := s.(type) {
		case *Decl:
			scope[s.X.Name] = s.Type
		case *Assign:
			if y, ok := s.SE.(fun.Var); ok && scope[y.Name] == Mem {
				if err = c.use(scope, y.Ident, Mem); err == nil {
					err = c.use(scope, s.X, Mem)
				}
				break
			}
			if err = c.ints(scope, s.SE); err == nil {
				err = c.use(scope, s.X, Int)
			}
		case *Alloc:
			if err = c.ints(scope, s.Size); err == nil {
				err = c.use(scope, s.X, Mem)
			}
		case *Read:
			if err = c.use(scope, s.Y, Mem); err == nil {
				if err = c.ints(scope, s.Index); err == nil {
					err = c.use(scope, s.X, Int)
				}
			}
		case *Write:
			if err = c.use(scope, s.X, Mem); err == nil {
				if err = c.ints(scope, s.Index); err == nil {
					err = c.ints(scope, s.Value)
				}
			}
		case *If:
			if err = c.use(scope, s.Cond, Int); err == nil {
				if err = c.stmts(semantics.CloneMap(scope), s.Then); err == nil {
					err = c.stmts(semantics.CloneMap(scope), s.Else)
				}
			}
		case *Kernel:
			if err = c.ints(scope, s.Bound); err == nil {
				inner := semantics.CloneMap(scope)
				inner[s.X.Name] = Int
				err = c.stmts(inner, s.Body)
			}
		case *For:
			if err = c.extension(s, ImpFor, "for"); err == nil {
				if err = c.ints(scope, s.Bound); err == nil {
					inner := semantics.CloneMap(scope)
					inner[s.X.Name] = Int
					err = c.stmts(inner, s.Body)
				}
			}
		case *Assert:
			if err = c.extension(s, ImpAssert, "assert"); err == nil {
				err = c.ints(scope, s.Cond)
			}
		case *Reduce:
			if err = c.extension(s, ImpReduce, "reduce"); err == nil {
				if err = c.use(scope, s.Target, Int); err == nil {
					err = c.fold(scope, &s.Fold, ImpReduce)
				}
			}
		case *Scan:
			if err = c.extension(s, ImpScan, "scan"); err == nil {
				if err = c.use(scope, s.Block, Mem); err == nil {
					inner := semantics.CloneMap(scope)
					inner[s.X.Name] = Int
					if err = c.ints(inner, s.Addr); err == nil {
						err = c.fold(scope, &s.Fold, ImpScan)
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

// fold checks the parts of a reduce or a scan. The neutral element and the
// bound are ints of the enclosing scope. The element part is a scope of
// its own with the index, as a kernel's body; the combine part one with a
// and b, without the index (a parallel combine is not at an element). Each
// part yields one of its own int variables (its index, a or b, or one it
// declares at its top level), so that the part, not the enclosing scope,
// makes the value (rule: IMP-REDUCE or IMP-SCAN).
func (c *checker) fold(scope map[string]Type, f *Fold, rule semantics.Rule) error {
	if err := c.ints(scope, f.Neutral); err != nil {
		return err
	}
	if err := c.ints(scope, f.Bound); err != nil {
		return err
	}
	elem := semantics.CloneMap(scope)
	elem[f.X.Name] = Int
	if err := c.stmts(elem, f.Body); err != nil {
		return err
	}
	if err := c.yield(elem, f.Body, f.Yield, rule, "element", f.X); err != nil {
		return err
	}
	if f.A.Name == f.B.Name {
		return semantics.Errorf(f.B.NamePos, semantics.TypeError, rule.Name, "combine %s, %s: the accumulator and the element need two names", f.A.Name, f.B.Name)
	}
	comb := semantics.CloneMap(scope)
	comb[f.A.Name], comb[f.B.Name] = Int, Int
	if err := c.stmts(comb, f.Combine); err != nil {
		return err
	}
	return c.yield(comb, f.Combine, f.Result, rule, "combine", f.A, f.B)
}

// yield checks the yielded y of a part: an int of the part's scope,
// declared by the part itself (own: the variables the form binds for it).
func (c *checker) yield(scope map[string]Type, body []Stmt, y *fun.Ident, rule semantics.Rule, part string, own ...*fun.Ident) error {
	if err := c.use(scope, y, Int); err != nil {
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

// ResultString describes a program's results: (int, [zsize]).
func ResultString(p *Program) string {
	parts := make([]string, len(p.Return))
	for i, r := range p.Return {
		if r.Dims == nil {
			parts[i] = "int"
		} else {
			parts[i] = dims(r.Dims)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
