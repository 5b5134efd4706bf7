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
// or IMP-TYPE.
func Check(p *Program, counter semantics.Counter) error {
	c := &checker{counter: counter}
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

type checker struct{ counter semantics.Counter }

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
		}
		if err != nil {
			return err
		}
	}
	return nil
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
